"""Checklist 4.11: every item has a legal and an illegal case; the refusal names the item's rule and changes
nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from companion.core.errors import IllegalMoveError
from companion.games.keyper import rules
from companion.games.keyper.state import State, Task
from tests.games.keyper.table import GAME, built, field, goods, keep, new_game, on_field, play, turn


def after_place(colour: str = "orange") -> State:
    s = new_game(3)
    return play(s, f"place {colour} {field(s, 1, 'build@orange')}")


def laying() -> State:
    """Seat 0 has played everything and claimed board 1; a keyple stands on board 2 and on board 1."""
    s = keep(new_game(3), 0, keyper=False).board(0, keeper=0)
    s = on_field(on_field(s, field(s, 2, "animal:"), ("black", True)), field(s, 1, "gem:"), ("black", True))
    return turn(s, 0)


def using(kind: str, **held: int) -> State:
    """Seat 0 with one unit on the first field of ``kind`` on board 1, holding ``held``."""
    s = goods(new_game(2), 0, **held)
    return rules.settle(replace(s, tasks=(*s.tasks, Task("use", 0, 1, field(s, 1, kind)))))


def on_river() -> State:
    s = new_game(2, limited_supply="no")
    x, _ = s.edition.boats[s.boats[0]]["spring"]
    s = goods(s, 0, **{x: 2})
    return play(s, f"place blue {field(s, 1, 'river')} boat {s.boats[0]}", "pass", f"work {x}")


def with_cow_shed() -> State:
    s = built(new_game(2), 0, "farm", {1: ("cow_shed", False)})
    return rules.settle(replace(s, tasks=(*s.tasks, Task("use", 0, 1, field(s, 1, "upgrade@grey")))))


CASES: list[tuple[str, Callable[[], State], str, str, str]] = [
    # (item, state, a legal move, an illegal move, the rule of its refusal)
    ("1 turn or offer", lambda: after_place(), "follow white", "place white 1.5", "4.11-1"),
    ("2 keep area not empty", lambda: new_game(3), "place white 1.5", "lay 1.5", "4.11-2"),
    ("2 keep area empty", laying, "lay 1.7", "place white 1.5", "4.11-2"),
    ("3 Keyper on a free keep field", lambda: play(new_game(3), "keyper 1"), "keyper 2", "keyper 1", "4.11-3"),
    ("4 not a keep field", lambda: new_game(3), "place white 1.3", "place white 1.1", "4.11-4"),
    ("4 a plot needs a building", lambda: built(new_game(3), 0, "farm", {1: ("cow_shed", False)}),
     "place white F1", "place white F2", "4.11-4"),
    ("4 at most 2 keyples", lambda: on_field(new_game(3), "1.5", ("grey", True), ("white", True)),
     "place white 1.4", "place white 1.5", "4.11-4"),
    ("4 join_ok", lambda: on_field(new_game(3), "1.5", ("grey", True)), "place grey 1.5", "place blue 1.5", "4.11-4"),
    ("5 follower matches", lambda: after_place("brown"), "follow brown", "follow orange", "4.11-5"),
    ("6 a standing keyple", laying, "lay 1.7", "lay 1.8", "4.11-6"),
    ("6 priority", laying, "lay 1.7", "lay 2.7", "4.11-6"),
    ("7 what the field gives", lambda: using("animal:cow"), "take cow", "take pig", "4.11-7"),
    ("8 a free boat", lambda: new_game(3), "place blue 1.2 boat B1", "place blue 1.2", "4.11-8"),
    ("8 no gaining and shipping one type", on_river, "done", "SHIP", "4.11-8"),
    ("9 the tile is owned", lambda: using("build@orange", log=1, clay=1), "build cow_shed F1 clay+log",
     "build alchemist V1 brick+brick", "4.11-9"),
    ("9 the area matches", lambda: using("build@orange", log=1, clay=1), "build cow_shed F1 clay+log",
     "build cow_shed V1 clay+log", "4.11-9"),
    ("9 the cost is paid", lambda: using("build@orange", log=1, clay=1), "build cow_shed F1 clay+log",
     "build cow_shed F1 clay+clay", "4.11-9"),
    ("10 a building to upgrade", with_cow_shed, "upgrade F1 brick", "upgrade F2 brick", "4.11-10"),
    ("10 the upgrade is paid", with_cow_shed, "upgrade F1 brick", "upgrade F1 wheat", "4.11-10"),
    ("11 housing", lambda: rules.settle(replace(
        goods(built(new_game(2), 0, "farm", {1: ("cow_shed", False)}), 0, cow=5, pig=1), tasks=(Task("house", 0, 2),))),
     "release cow pig", "release cow", "4.11-11"),
    ("11 team cap", lambda: rules.settle(replace(keep(new_game(2), 1, *("white",) * 10),
                                                 tasks=(Task("rest", 1, 1),))), "rest white", "rest white white",
     "4.11-11"),
]


@pytest.mark.parametrize(("item", "make", "legal", "illegal", "rule"), CASES, ids=[c[0] for c in CASES])
def test_checklist_item_has_a_legal_and_an_illegal_case(item: str, make: Callable[[], State], legal: str,
                                                         illegal: str, rule: str) -> None:
    s = make()
    if illegal == "SHIP":  # the type just worked on the boat
        x = next(iter(s.gained))[1]
        illegal = f"ship {x}"
    assert GAME.validate(s, GAME.parse_move(legal)) is None, legal
    error = GAME.validate(s, GAME.parse_move(illegal))
    assert isinstance(error, IllegalMoveError) and error.rule == rule, (illegal, error)
    with pytest.raises(IllegalMoveError):
        GAME.play(s, illegal)
    assert GAME.parse_move(str(GAME.parse_move(illegal))) == GAME.parse_move(illegal)
