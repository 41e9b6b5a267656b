"""Every message a player can read exists in English and German (issue 13): the identifiers written in the
code, and those seeded random games of each registered game emit (log lines for every viewer, prompts,
warnings, refusals, every move in words), rendered in both languages."""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE, Game, Move
from companion.core.messages import LANGUAGES, Message, Text, catalogs, identifiers, render
from companion.games import games

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "companion", ROOT / "firmware_bridge")
"""Where the identifiers are written: the core and the games, and the button panel (its ``core.panel.*``)."""
PREFIXES = ("core", "kh", "lg", "kp", "km")
"""The namespaces of the identifiers under ``companion/`` (the web's ``web.*``/``ui.*`` are the web's tests')."""
ID = re.compile(rf"^(?:{'|'.join(PREFIXES)})\.[a-z_]+(?:\.[A-Za-z0-9_]+)*$")
UNFILLED = re.compile(r"\{[A-Za-z_]\w*\}")

SAME_IN_BOTH: set[str] = set()
"""Identifiers whose German may read exactly as the English (a proper name, notation); none so far."""

PLAYOUT_MOVES = 400
SEEDS = 3


def placeholders(text: str | tuple[str, ...]) -> set[str]:
    forms = text if isinstance(text, tuple) else (text,)
    return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}


def written_ids() -> Iterator[tuple[str, set[str] | None, Path]]:
    """Every identifier written in ``companion/`` and ``firmware_bridge/``: each literal id string, with the keywords
    of the ``msg(...)`` call it is the first argument of (``None``: not a call's, e.g. a constant chosen before the
    call)."""
    for path in sorted(path for source in SOURCES for path in source.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        called: dict[int, set[str]] = {}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "msg" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                called[id(node.args[0])] = {k.arg for k in node.keywords if k.arg}
        parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
        for node in ast.walk(tree):  # an f-string's first part ("km.refuse.now_") is a prefix: dynamic_prefixes
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and ID.match(node.value)
                    and id(node) not in parts):
                yield node.value, called.get(id(node)), path


def dynamic_prefixes() -> Iterator[tuple[str, Path]]:
    """The fixed start of each identifier built at run time (``Message(f"kh.crop.{key}")``)."""
    for path in sorted(path for source in SOURCES for path in source.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("msg", "Message")
                    and node.args and isinstance(node.args[0], ast.JoinedStr)):
                first = node.args[0].values[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    yield first.value, path


def built_ids() -> set[str]:
    return {key for game in games() for key in game.message_ids()}


def test_every_identifier_in_the_code_is_in_both_catalogs_with_the_same_placeholders() -> None:
    found = catalogs()
    problems = []
    for key, keywords, path in written_ids():
        for language in LANGUAGES:
            text = found[language].messages.get(key)
            if text is None:
                problems.append(f"{key} ({path.name}) has no {language} entry")
            elif keywords is not None and not placeholders(text) <= keywords:
                problems.append(f"{key} ({path.name}): {language} needs {placeholders(text) - keywords}, not given")
            elif keywords is not None and "n" in keywords and not isinstance(text, tuple):
                problems.append(f"{key} ({path.name}) counts n but its {language} entry has no plural forms")
    for key in built_ids():
        problems += [f"{key} (message_ids) has no {language} entry"
                     for language in LANGUAGES if key not in found[language].messages]
    for prefix, path in dynamic_prefixes():
        if not any(key.startswith(prefix) for key in built_ids()):
            problems.append(f"{path.name} builds identifiers {prefix}... that no game's message_ids lists")
    assert not problems, "\n".join(problems)


def test_both_catalogs_hold_the_same_messages_with_the_same_placeholders() -> None:
    english, german = (catalogs()[language].messages for language in ("en", "de"))
    assert set(english) == set(german), set(english) ^ set(german)
    for key, text in english.items():
        assert placeholders(text) == placeholders(german[key]), key
        assert isinstance(text, tuple) == isinstance(german[key], tuple), f"{key}: plural in one language only"


# ------------------------------------------------------------------------------------------- playouts


def emitted(game: Game[Any, Any], players: int, seed: int) -> Iterator[tuple[str, Text]]:
    """What a seeded random game of ``players`` shows, each with where it comes from."""
    rng = random.Random(seed)
    names = [f"Player {seat + 1}" for seat in range(players)]
    for warning in game.data_warnings():
        yield "data_warnings", warning
    for spec in game.option_specs:
        yield "variant help", spec.help
    state = game.setup(names, game.options())
    seen: list[Move] = []
    for ply in range(PLAYOUT_MOVES + 1):
        if ply % 50 == 0 or game.is_over(state):
            yield from terminal_lines(game, state, players)
        if game.is_over(state) or ply == PLAYOUT_MOVES:
            break
        prompt = game.prompt_text(state, names)
        if prompt is not None:
            yield "prompt_text", prompt
        chance = game.current_player(state) == CHANCE
        legal = [game.sample_chance(state, rng)] if chance else game.legal_moves(state)
        for move in rng.sample(legal, min(len(legal), 20)):
            yield "move_text", game.move_text(state, move)
        offered = game.public_moves(state)
        tried = rng.sample(offered, min(len(offered), 20))
        for move in tried:
            yield "move_text", game.move_text(state, move)
        for move in [*tried, *rng.sample(seen, min(len(seen), 10))]:  # offered but illegal, and moves of other times
            error = game.validate(state, move)
            if isinstance(error, IllegalMoveError):
                yield "refusal", error.text
                yield "refusal", game.table_refusal(state, move, error).text
        move = rng.choice(legal)
        for viewer in (None, *range(players)):
            yield "describe", game.describe(state, move, viewer)
        seen.append(move)
        state = game.apply(state, move)


def terminal_lines(game: Game[Any, Any], state: Any, players: int) -> Iterator[tuple[str, Text]]:
    """The terminal's table for every viewer, and the score."""
    for viewer in (None, *range(players)):
        view = game.view(state, viewer)
        texts = [("table_text", game.table_text(view)), ("score_text", game.score_text(view.get("score") or []))]
        for what, own in texts:
            for line in [] if own is None else [own] if isinstance(own, (str, Message)) else own:
                yield what, line


def problems_of(game: Game[Any, Any], where: str, text: Text) -> list[str]:
    """What is wrong with ``text`` as a player would read it (empty when it reads well in every language)."""
    if not isinstance(text, Message):
        return [f"{where} built an English sentence, not a message: {text!r}"]
    found = catalogs()
    problems = [f"{where}: {key} is missing in {language}"
                for key in identifiers([text]) for language in LANGUAGES if key not in found[language].messages]
    shown = {language: render(text, language) for language in LANGUAGES}
    problems += [f"{where}: {text.id} leaves {UNFILLED.findall(line)} unfilled in {language}: {line!r}"
                 for language, line in shown.items() if UNFILLED.search(line)]
    if shown["en"] == shown["de"] and text.id not in SAME_IN_BOTH:
        problems.append(f"{where}: {text.id} reads the same in German: {shown['en']!r}")
    if "n" in text.params and not isinstance(found["en"].messages.get(text.id), tuple):
        problems.append(f"{where}: {text.id} counts n but has no plural forms")
    return problems


@pytest.mark.parametrize("name", [game.name for game in games()])
def test_every_message_a_random_game_shows_reads_well_in_both_languages(name: str) -> None:
    game = next(g for g in games() if g.name == name)
    problems: set[str] = set()
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(SEEDS):
            for where, text in emitted(game, players, seed):
                problems.update(problems_of(game, where, text))
    assert not problems, "\n".join(sorted(problems)[:40])


def test_a_count_reads_in_the_singular_and_the_plural() -> None:
    """'1 vegetables stone', never '1 stones'; German too."""
    from companion.games.key_harvest import words
    from companion.games.key_harvest.board import Crop

    assert render(words.stones((0, 1, 0, 0, 2)), "en") == "1 vegetables stone, 2 wheat stones"
    assert render(words.stones((0, 1, 0, 0, 2)), "de") == "1 Erntestein Gemüse, 2 Erntesteine Weizen"
    assert render(words.crop(Crop.WINE), "de") == "Weinfässer"
