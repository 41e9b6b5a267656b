"""Small shared helpers for the rule tests (test_rules, test_events, test_workers).

Positions are built with ``table.table`` on the toy board T20: Alice, Bob and Cara sit in
seats 0, 1 and 2 (clockwise), Alice is active, the land office holds tiles 10-15 and the
bag tiles 16-24 unless a test says otherwise. ``refuse`` checks everything an illegal move
must do; ``pending_event`` puts a drawn event on the table the way a refill would.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import pytest

from companion.core.errors import IllegalMoveError
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import Layout
from companion.games.key_harvest.moves import parse_move
from companion.games.key_harvest.state import NORMAL, State, Step

from .table import fields_of, harvested_of, legal, play, stones, t20_layout, table, workers_of

ALICE, BOB, CARA = 0, 1, 2
NAMES = ("Alice", "Bob", "Cara", "Dan")
OFFICE = [str(k) for k in range(10, 16)]
BAG = [str(k) for k in range(16, 25)]

Seat = Mapping[str, Any] | None


@lru_cache(maxsize=None)
def _layout(crops: tuple[tuple[str, str], ...]) -> Layout:
    return t20_layout(dict(crops))


def layout(crops: Mapping[str, str] | None = None) -> Layout:
    return _layout(tuple(sorted((crops or {}).items())))


def seats(*players: Seat, options: Mapping[str, str] | None = None, crops: Mapping[str, str] | None = None,
          **fields: Any) -> tuple[KeyHarvest, State]:
    """A position with one player per argument (Alice first); see the module docstring."""
    fields.setdefault("office", OFFICE)
    fields.setdefault("bag", BAG)
    people = [{"name": NAMES[i], **(p or {})} for i, p in enumerate(players)]
    return table(layout(crops), people, options, **fields)


def three(alice: Seat = None, bob: Seat = None, cara: Seat = None, **kw: Any) -> tuple[KeyHarvest, State]:
    return seats(alice, bob, cara, **kw)


def refill_pending(**fields: Any) -> dict[str, Any]:
    """State fields for a land office with one empty space and its NORMAL refill draw pending."""
    fields.setdefault("office", OFFICE[:5])
    fields["stack"] = (Step("draw", context=NORMAL, purpose="office"),)
    return fields


def pending_event(letter: str, *players: Seat, **fields: Any) -> tuple[KeyHarvest, State]:
    """Alice's refill draws event ``letter`` (NORMAL context): it is placed and being resolved."""
    fields["bag_events"] = letter + fields.get("bag_events", "")
    game, state = seats(*(players or (None, None, None)), **refill_pending(**fields))
    return game, play(game, state, f"event {letter}")


def decline_all(game: KeyHarvest, state: State) -> State:
    """Everyone still to answer the current event declines."""
    while state.top is not None and state.top.kind == "event":
        state = play(game, state, "decline")
    return state


READABLE = re.compile(r"^\W*\w[^\n]*\s\w[^\n]*\s\w[^\n]*[.!?]$")  # three words or more, ends a sentence


def refuse(game: KeyHarvest, state: State, text: str, rule: str | None = None) -> IllegalMoveError:
    """``text`` is illegal now: validate names ``rule`` (if given) with a readable sentence, the
    move is not generated, ``play`` raises a ValueError, and the state is unchanged."""
    move = parse_move(text)
    before = repr(state)
    error = game.validate(state, move)
    assert isinstance(error, IllegalMoveError), f"{text!r} was accepted"
    assert error.rule, error
    if rule is not None:
        assert error.rule == rule, f"{text!r}: expected {rule}, engine said {error.rule}: {error.reason}"
    assert READABLE.match(error.reason), error.reason
    assert str(move) not in legal(game, state)
    with pytest.raises(ValueError) as raised:
        game.play(state, text)
    assert isinstance(raised.value, IllegalMoveError)
    assert repr(state) == before
    return error


def allow(game: KeyHarvest, state: State, *moves: str) -> State:
    """Each move is generated, validates, and is played."""
    for text in moves:
        assert text in legal(game, state), f"{text!r} not among {sorted(legal(game, state))}"
        state = play(game, state, text)
    return state


def office_of(state: State) -> list[str | None]:
    return [state.label(t) if t >= 0 else None for t in state.office]


def kinds(state: State) -> list[str]:
    return [step.kind for step in state.stack]


__all__ = [
    "ALICE", "BOB", "CARA", "OFFICE", "BAG", "seats", "three", "refill_pending", "pending_event", "decline_all",
    "refuse", "allow", "fields_of", "harvested_of", "workers_of", "office_of", "kinds", "play", "legal", "stones",
    "layout",
]
