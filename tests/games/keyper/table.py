"""Helpers for Keyper rule tests: a game set up with chosen draws, fields found by their kind, players changed."""

from __future__ import annotations

from dataclasses import replace
from companion.core.game import CHANCE
from companion.games.keyper import Keyper
from companion.games.keyper.data import ANIMALS, GOODS, load_edition
from companion.games.keyper.moves import KPMove
from companion.games.keyper.rules import settle
from companion.games.keyper.state import PK, Plot, State, Task

GAME = Keyper(load_edition())
SEATS = ("A", "B", "C", "D")


def new_game(players: int, start: int = 0, **options: str) -> State:
    """A game past its setup draws: the first outcome of each draw, seat ``start`` to play."""
    s = GAME.setup(SEATS[:players], GAME.options(options))
    while GAME.current_player(s) == CHANCE:
        outcomes = GAME.chance_outcomes(s)
        move = next((m for m, _ in outcomes if m.verb != "start"), None) or KPMove("start", (str(start + 1),))
        s = GAME.apply(s, move)
    return s


def play(s: State, *moves: str) -> State:
    for move in moves:
        s = GAME.play(s, move)
    return s


def field(s: State, board: int, code: str) -> str:
    """The first field of board ``board`` (1-based) whose code starts with ``code`` (``build@orange``)."""
    layout = s.edition.layouts[s.boards[board - 1].layout]
    index = next(i for i, f in enumerate(layout.fields) if str(f).startswith(code))
    return f"{board}.{index + 1}"


def keep(s: State, seat: int, *colours: str, keyper: bool = True) -> State:
    return s.player(seat, keep=tuple(sorted(colours)), keyper_home=keyper)


def turn(s: State, seat: int, final: bool = False) -> State:
    """``seat`` to play now (the turn's end follows as in a game)."""
    return settle(replace(s, active=seat, tasks=(*[t for t in s.tasks if t.kind != "turn"],
                                                 Task("turn", seat, arg="final" if final else ""))))


def on_field(s: State, target: str, *keyples: tuple[str, bool]) -> State:
    board, index = (int(x) - 1 for x in target.split("."))
    fields = list(s.boards[board].fields)
    fields[index] = tuple(PK(c, up) for c, up in keyples)
    return s.board(board, fields=tuple(fields))


def built(s: State, seat: int, area: str, plots: dict[int, tuple[str, bool]]) -> State:
    """``seat``'s plots (1-based) of ``area`` with these tiles (tile, upgraded)."""
    row = list(s.players[seat].plots(area))
    for number, (tile, up) in plots.items():
        row[number - 1] = Plot((tile,), up)
    return s.player(seat, **{area: tuple(row)})


def goods(s: State, seat: int, **counts: int) -> State:
    p = s.players[seat]
    for kind, n in counts.items():
        p = replace(p, goods=tuple(n if g == kind else x for g, x in zip(GOODS, p.goods))) if kind in GOODS else \
            replace(p, animals=tuple(n if a == kind else x for a, x in zip(ANIMALS, p.animals)))
    return s.player(seat, **{"goods": p.goods, "animals": p.animals})

