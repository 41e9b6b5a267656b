"""Stored Keyper logs in an older notation, rewritten in today's (``Keyper.upgrade_log``).

Notation 1 (before the rulebook's build order, L633): when the active player and a follower both built or upgraded
on one field, the active player used all their actions, then the follower. Today they take turns, one building at
a time, the active player first (``build_order=alternate``). The rewrite replays the old log in the old order and
interleaves the two players' moves of each such field: A, F, A, F... (one's ``done`` ends their building there,
the other goes on alone). Each player builds their own tiles from their own goods, so the moves stay legal in the
new order. The log does not say the options: the first set of variant flags under which it replays is used (the
defaults, then each flag changed alone); a log that replays under none of them is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.games.keyper.rules import BUILD_KINDS, field_of, parse_target
from companion.games.keyper.state import State
from companion.games.keyper.variants import VARIANT_FLAGS

if TYPE_CHECKING:
    from companion.games.keyper import Keyper

Log = list[tuple[str, bool]]


def upgrade_log(game: Keyper, moves: Sequence[tuple[str, bool]]) -> Log:
    """``moves`` (notation 1) in today's notation; a log without a follower comes back unchanged."""
    if not any(text.split()[:1] == ["follow"] for text, is_chance in moves if not is_chance):
        return list(moves)
    fairs = [text.split() for text, is_chance in moves if is_chance and text.split()[:1] == ["fair"]]
    players = max((int(words[1]) for words in fairs if len(words) > 1 and words[1].isdigit()), default=0)
    for options in _option_sets():
        try:
            return _rewrite(game, players, options, moves)
        except (IllegalMoveError, MalformedInputError, AssertionError, KeyError, ValueError, IndexError):
            continue
    return list(moves)


def _option_sets() -> list[dict[str, str]]:
    """The defaults, then each variant flag changed alone (the old order of building in all of them)."""
    sets: list[dict[str, str]] = [{}]
    for spec in VARIANT_FLAGS:
        if spec.name != "build_order":
            sets += [{spec.name: choice} for choice in spec.choices[1:]]
    return [{**options, "build_order": "active_first"} for options in sets]


def _pair(s: State) -> tuple[int, int, str] | None:
    """(active player, follower, field) if both are about to build or upgrade on one field, else ``None``."""
    if len(s.tasks) < 2:
        return None
    first, second = s.tasks[-1], s.tasks[-2]
    if first.kind != "use" or second.kind != "use" or first.arg != second.arg or first.seat == second.seat:
        return None
    kind, board, index = parse_target(first.arg)
    if kind != "field" or field_of(s, board, index).kind not in BUILD_KINDS:
        return None
    return first.seat, second.seat, first.arg


def _rewrite(game: Keyper, players: int, options: dict[str, str], moves: Sequence[tuple[str, bool]]) -> Log:
    s = game.setup([f"P{n + 1}" for n in range(players)], game.options(options))
    out: Log = []
    pair: tuple[int, int, str] | None = None
    turns: dict[int, Log] = {}
    for text, is_chance in moves:
        move = game.parse_move(text)
        error = game.validate(s, move)
        if error is not None:
            raise error
        top = s.top
        if pair is not None and top is not None and top.kind == "use" and top.arg == pair[2]:
            turns[top.seat].append((text, is_chance))
        else:
            out.append((text, is_chance))
        s = game.apply(s, move)
        if pair is None and (pair := _pair(s)) is not None:
            turns = {pair[0]: [], pair[1]: []}
        if pair is not None and not any(t.kind == "use" and t.arg == pair[2] for t in s.tasks):
            out += _interleave(turns[pair[0]], turns[pair[1]])
            pair = None
    return out


def _interleave(first: Log, second: Log) -> Log:
    """One move of each in turn, ``first`` first; the rest of the longer one at the end."""
    out: Log = []
    for k in range(max(len(first), len(second))):
        out += first[k:k + 1] + second[k:k + 1]
    return out
