"""Keyper's decisions as picks (companion/games/keyper/picks.py, issue 27): a turn is a keyple, a board, a field (and
a boat on the river, spec 4.7), never a list of every placement; a tile built with the keyple on it (4.8 (v)) asks
its plot and its payment good by good and shows the decision before it is sent; every option reads as the table's
words in English and German."""

from __future__ import annotations

import random
import re

from companion.core.messages import render
from companion.core.picks import PickTree
from companion.games.keyper.moves import KPMove
from companion.games.keyper.state import State
from tests.games.keyper.table import GAME, goods, new_game

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\b\w+:\w+\b|\{\w+\}|\bkp\.\w+")
"""Notation a player must never read: a snake_case id, a ``key:value`` token, a placeholder, a message key."""


def tree(s: State) -> PickTree[KPMove]:
    return PickTree((m, GAME.pick_path(s, m)) for m in GAME.public_moves(s))


def words(s: State, chosen: list[str], language: str = "en") -> dict[str, str]:
    return {o.id: render(o.words, language) for o in tree(s).node(chosen).options}


def test_the_opening_turn_is_a_keyple_a_board_and_a_field_not_every_placement() -> None:
    s = new_game(3)
    assert len(GAME.public_moves(s)) > 1000
    first = words(s, [])
    assert set(first) == {"keyper", *s.players[s.active].keep} and first["keyper"] == "your Keyper"
    assert first["white"] == "white keyple"
    boards = words(s, ["white"])
    assert {"board-1", "board-2", "board-3"} <= set(boards) and boards["board-2"] == "Board 2"
    fields = words(s, ["white", "board-2"])
    assert set(fields) == {f"2.{i}" for i in range(2, 16)}  # every field but the keep field (4.2)
    layout = s.edition.layouts[s.boards[1].layout]
    gem = next(i for i, f in enumerate(layout.fields) if f.kind in ("res", "gem", "animal") and f.colour != "none")
    f = layout.fields[gem]
    assert fields[f"2.{gem + 1}"] == f"{gem + 1}: {f.param} ({f.colour})"
    assert words(s, ["white", "board-2"], "de")[f"2.{gem + 1}"].startswith(f"{gem + 1}: ")


def test_a_keyple_onto_the_river_asks_which_boat() -> None:
    s = new_game(3)
    river = next(i for i, f in enumerate(s.edition.layouts[s.boards[0].layout].fields) if f.kind == "river")
    node = tree(s).node(["orange", "board-1", f"1.{river + 1}"])
    assert node.done is None and sorted(o.id for o in node.options) == sorted(s.boats)
    assert all(render(o.words, "en").startswith("boat with ") for o in node.options)
    move = tree(s).move_of(["orange", "board-1", f"1.{river + 1}", s.boats[0]])
    assert move == KPMove("place", ("orange", f"1.{river + 1}", "boat", s.boats[0]))


def test_a_tile_built_with_its_keyple_asks_the_plot_then_the_payment_and_ok() -> None:
    s = goods(new_game(3), 0, brick=2, timber=2, stone=2, log=2, clay=2, rock=2)
    builds = [m for m in GAME.public_moves(s) if m.verb == "place" and m.args[2:3] == ("build",)]
    assert builds
    move = builds[0]
    colour, plot, _, tile, pay = move.args
    path = [step.choice.id for step in GAME.pick_path(s, move)]
    assert path[:3] == [colour, tile, plot]
    assert "_" not in render(tree(s).node([colour]).groups[0].options[0].words, "en")
    node = tree(s).node(path)
    assert node.done == move and GAME.confirms(s, move)
    said = render(GAME.move_text(s, move), "en")
    assert "_" not in said and plot not in said.split()


def test_every_option_of_random_games_reads_as_words_in_both_languages() -> None:
    rng = random.Random(27)
    for players in (2, 3, 4):
        s = new_game(players)
        for _ in range(250):
            if GAME.is_over(s):
                break
            if GAME.current_player(s) >= 0:
                t = tree(s)
                chosen: list[str] = []
                while True:
                    node = t.node(chosen)
                    for language in ("en", "de"):
                        for text in [*(o.words for o in node.options), *(g.ask for g in node.groups),
                                     *([GAME.move_text(s, node.done)] if node.done is not None else [])]:
                            line = render(text, language)
                            assert not IDENTIFIER.search(line), (language, line)
                    if not node.options:
                        break
                    chosen.append(rng.choice(node.options).id)
            legal = GAME.legal_moves(s) if GAME.current_player(s) != -1 else [GAME.sample_chance(s, rng)]
            s = GAME.apply(s, rng.choice(legal))
