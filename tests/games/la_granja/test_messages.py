"""La Granja speaks in messages (issue 13): refusals, log lines, prompts and moves render in English and German
from the catalogs, with plurals; every identifier the game emits is in both catalogs."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE
from companion.core.messages import LANGUAGES, Message, catalogs, identifiers, read_po, render
from companion.games.la_granja import words
from companion.games.la_granja.moves import parse_move
from tests.games.la_granja.table import at, edit, new_game, refused, task

A, B = 0, 1
FOLDER = Path(words.__file__).parent
PLACEHOLDER = re.compile(r"\{\w+\}|lg\.[a-z_]+\.")
"""A parameter left unfilled or an identifier shown in place of its text."""


def test_a_refusal_renders_in_german_with_its_names_translated() -> None:
    game, s = new_game(2)
    s = task(s, "deliver", A, 1)
    s = edit(s, A, goods={"olive": 1})
    error = refused(game, s, "deliver cart9=olive")
    assert error.rule == "4.3.12" and isinstance(error.text, Message)
    assert render(error.text, "en") == "cart9 is not a cart on your farm"
    assert render(error.text, "de") == "cart9 ist kein Marktkarren an deinem Hof"
    error = refused(game, s, "deliver handelshaus=olive")
    assert render(error.text, "de") == ("deine erste Lieferung zum Handelshaus wählt eine freie Reihe: "
                                        "handelshaus/1 bis handelshaus/4")
    error = refused(game, s, "buy pig")
    assert render(error.text, "de").startswith("Schwein kostet")


def test_an_unreadable_move_is_refused_in_german_too() -> None:
    with pytest.raises(MalformedInputError) as caught:
        parse_move("die x")
    assert str(caught.value) == "'die x': 'x' is not a number"
    assert render(caught.value.text, "de") == "„die x“: „x“ ist keine Zahl"


def test_a_log_line_and_a_prompt_render_in_german() -> None:
    game, s = new_game(2)
    line = game.describe(s, game.parse_move("done"), None)
    assert render(line, "de") == "A: fertig nach 0 Karten (Runde 1 erlaubt 2)"
    prompt = game.prompt_text(s, ["A", "B"])
    assert render(prompt, "de").startswith("A: lege eine Karte an")
    assert render(prompt, "de").endswith("(noch 2 Karten)")
    s = at(s, "donkey")
    assert render(game.prompt_text(s, ["A", "B"]), "de").startswith("A (Platz 1), B (Platz 2): wählt geheim einen Eselmarker")


@pytest.mark.parametrize("n, en, de", [(1, "1 delivery left", "noch 1 Lieferung"),
                                       (2, "2 deliveries left", "noch 2 Lieferungen")])
def test_the_prompt_counts_deliveries_with_their_plural(n: int, en: str, de: str) -> None:
    game, s = new_game(2)
    s = task(s, "deliver", A, n)
    prompt = game.prompt_text(s, ["A", "B"])
    assert render(prompt, "en").endswith(f"({en})") and render(prompt, "de").endswith(f"({de})")


def test_moves_in_words_say_what_they_do_with_their_counts() -> None:
    game, s = new_game(2)
    s = task(s, "deliver", A, 2)
    s = edit(s, A, goods={"grain": 1}, fields=((1, True),))
    words_of = {str(m): render(game.move_text(s, m)) for m in game.legal_moves(s)}
    assert words_of["deliver handelshaus/1=grain"] == "Make 1 delivery: grain to the Trading House (row 1)"
    assert words_of["deliver handelshaus/1=grain handelshaus=olive:field"] == (
        "Make 2 deliveries: grain to the Trading House (row 1), olive from a field to the Trading House")
    assert render(game.move_text(s, game.parse_move("deliver handelshaus/1=grain")), "de") == (
        "1 Lieferung ausführen: Korn zum Handelshaus (Reihe 1)")  # each language its edition's names
    assert render(game.move_text(s, game.parse_move("take olive pig")), "de") == "2 Güter nehmen: Olive, Schwein"
    assert render(game.move_text(s, game.parse_move("place 16 ext olive:field"))) == (
        "Place card 16 as a farm extension, paying 1 good: olive from a field")


def test_every_legal_move_in_random_positions_reads_in_both_languages() -> None:
    for players in (1, 2, 3, 4):
        game, s = new_game(players)
        rng = random.Random(players)
        while not game.is_over(s):
            moves = game.legal_moves(s)
            for move in moves:
                text = game.move_text(s, move)
                assert isinstance(text, Message), str(move)
                for language in LANGUAGES:
                    shown = render(text, language)
                    assert shown and not PLACEHOLDER.search(shown), (str(move), language, shown)
            line = game.describe(s, moves[0], None)
            assert not PLACEHOLDER.search(render(line, "de")), (str(moves[0]), line)
            s = game.apply(s, game.sample_chance(s, rng) if game.current_player(s) == CHANCE else rng.choice(moves))


def test_the_views_name_buildings_roof_markers_and_helpers_in_words() -> None:
    game, s = new_game(2)
    s = edit(s, A, helpers=(35, 11), roofs=(("R1", True),), crafts=(("handelshaus", True),))
    view = game.view(s, A)
    assert render(view["buildings"][0]["name"], "de") == "Handelshaus"
    me = view["players"][A]
    assert [render(h["name"], "de") for h in me["helpers"]] == ["Feldarbeiter", "Helfer 11"]
    assert render(me["helpers"][0]["text"], "de") == "darf Erntegüter von Feldern verkaufen"
    assert render(me["helpers"][1]["text"], "en") == "hand limit +1 card"
    assert render(me["roof"][0]["text"], "de") == "Eine Olive nehmen"
    assert [render(entry["note"], "de") for entry in me["ledger"]] == ["Spielbeginn"]
    assert render(me["crafts"][0]["text"], "de") == "Einkommen: 3 Silber pro Runde"


def test_the_shared_screen_refuses_a_move_from_the_hand_in_the_readers_language() -> None:
    game, s = new_game(2)
    error = game.table_refusal(s, game.parse_move("place 99 field"), refused(game, s, "place 99 field"))
    assert render(error.text, "de") == "Hier nicht möglich: mach diesen Zug auf deiner eigenen Seite."


def source_ids() -> set[str]:
    """Every identifier written out in the game's code, with those built from keys (``words.message_ids``)."""
    found = set(words.message_ids())
    for path in FOLDER.glob("*.py"):
        found |= set(re.findall(r'"(lg\.[a-z0-9_.]+[a-z0-9_])"', path.read_text("utf-8")))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_identifier_is_in_each_catalog_and_every_entry_is_used(language: str) -> None:
    used = source_ids()
    written = set(read_po(FOLDER / "locale" / f"{language}.po").messages)
    assert used - written == set(), f"missing in {language}.po"
    assert written - used == set(), f"unused in {language}.po"


def test_plural_entries_are_exactly_the_messages_counted_by_n() -> None:
    """A message with a plural form gets ``n``; the English and German catalogs agree on which ones."""
    en, de = (catalogs()[language].messages for language in ("en", "de"))
    plurals = {key for key, text in en.items() if key.startswith("lg.") and isinstance(text, tuple)}
    assert plurals == {key for key, text in de.items() if key.startswith("lg.") and isinstance(text, tuple)}
    assert {"lg.left.deliver", "lg.good.olive", "lg.move.deliver"} <= plurals
    assert identifiers([words.good("olive", 2)]) == {"lg.good.olive"}
