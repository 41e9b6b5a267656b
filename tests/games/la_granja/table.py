"""Test helpers: a La Granja table at a chosen point, on the shipped (provisional) data or a changed copy."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE
from companion.games.la_granja import LaGranja, rules
from companion.games.la_granja.data import Edition, load_edition
from companion.games.la_granja.state import FREE, State, Task

SHIPPED = load_edition(None)
NAMES = ("A", "B", "C", "D")
LOCKS = ("gemischt", "gemuese", "feinkost")


def edition_with(change: Callable[[dict[str, Any]], None]) -> Edition:
    """The shipped data pack with ``change`` applied to a copy of its JSON."""
    raw = copy.deepcopy(dict(SHIPPED.raw))
    change(raw)
    return Edition.from_json(raw)


def set_card(raw: dict[str, Any], card: int, **edges: Any) -> None:
    entry = next(c for c in raw["cards"]["list"] if c["id"] == card)
    entry.update(edges)


def new_game(players: int, *, edition: Edition = SHIPPED, start: int = 1, order: str = "2",
             locks: tuple[str, ...] = LOCKS, options: Mapping[str, str] | None = None) -> tuple[LaGranja, State]:
    """Setup with the given start player (seat number), locks and solo marker; each deal takes the lowest card."""
    game = LaGranja(edition)
    state = game.setup(NAMES[:players], game.options(options))
    lock = iter(locks)
    while game.current_player(state) == CHANCE and state.round == 1 and state.phase == "setup":
        kind = state.stack[-1].kind
        if kind == "start":
            move = f"start {start}"
        elif kind == "order":
            move = f"order {order}"
        elif kind == "lock":
            move = f"lock {next(lock)}"
        else:
            move = str(game.chance_outcomes(state)[0][0])
        state = game.play(state, move)
    return game, state


def at(state: State, stage: str, **changes: Any) -> State:
    """A copy of ``state`` jumped to the start of ``stage`` of its round, with fields changed, and run to a decision."""
    s = state.copy()
    for name, value in changes.items():
        setattr(s, name, value)
    s.stack = ()
    s.stage = rules.STAGES.index(stage)
    rules.settle(s)
    return s


def edit(state: State, seat: int, **changes: Any) -> State:
    """A copy with player ``seat``'s fields changed (goods given as a partial dict)."""
    s = state.copy()
    p = s.players[seat]
    for name, value in changes.items():
        if name == "goods":
            value = {**p.goods, **value}
        setattr(p, name, value)
    return s


def task(state: State, kind: str, seat: int, n: int = 0, arg: str = "") -> State:
    """A copy waiting for ``seat``'s ``kind`` task on top of what it was waiting for."""
    s = state.copy()
    s.stack = s.stack + (Task(kind, seat, n, arg),)
    return s


def refused(game: LaGranja, state: State, move: str) -> IllegalMoveError:
    """The error ``move`` gets; the test fails if it is accepted."""
    error = game.validate(state, game.parse_move(move))
    assert error is not None, f"{move!r} should be refused"
    return error


def stalls(state: State, seat: int) -> list[str]:
    return [sp.id for sp, o in zip(state.edition.spaces, state.market) if o == seat]


def free_market(state: State) -> tuple[int, ...]:
    return (FREE,) * len(state.market)
