"""The Season End (spec 3.7-3.9): upkeep with its guild modifiers, the new turn order with the favour-track
tie-break, and the favour track's moves. Players are seat numbers; orders are tuples, first = top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.core.messages import Message, msg


@dataclass(frozen=True, slots=True)
class Standing:
    """A worker on the territory as upkeep sees it: its board, whether that board is large, whether it is the
    keyworker."""

    board: int
    large: bool = True
    keyworker: bool = False


@dataclass(frozen=True, slots=True)
class Upkeep:
    """What keeping some workers costs, and why (the cheapest way the player's abilities allow)."""

    gold: int
    reason: Message


def upkeep(kept: Sequence[Standing], g4_apprentice: bool = False, g12_journeyman: bool = False,
           g12_master: bool = False, small_board: str = "free", per_worker: int = 2) -> Upkeep:
    """Season End S3 (L552-556) for the workers a player keeps: ``per_worker`` gold each (2); guild 4 A: the
    keyworker is free (L700, it beats guild 12 J); guild 12 J: 1 gold per worker (L794); guild 12 M: 1 gold per
    large board holding a kept worker (L792; ``small_board`` ``counts``: the 2-player small board too, spec 7.2
    #11). All abilities are optional: the cheapest way is taken."""
    gold, why, n = _cheapest(kept, g4_apprentice, g12_journeyman, g12_master, small_board, per_worker)
    reason = msg(why, n=n, **({"each": per_worker} if why == "km.reason.upkeep.standard" else {}))
    if g4_apprentice and any(w.keyworker for w in kept):
        return Upkeep(gold, msg("km.reason.upkeep.with_g4a", reason=reason))
    return Upkeep(gold, reason)


def upkeep_gold(kept: Sequence[Standing], g4_apprentice: bool = False, g12_journeyman: bool = False,
                g12_master: bool = False, small_board: str = "free", per_worker: int = 2) -> int:
    """``upkeep``'s gold alone (for listing the choices)."""
    return _cheapest(kept, g4_apprentice, g12_journeyman, g12_master, small_board, per_worker)[0]


def _cheapest(kept: Sequence[Standing], g4_apprentice: bool, g12_journeyman: bool, g12_master: bool,
              small_board: str, per_worker: int) -> tuple[int, str, int]:
    """The cheapest upkeep: gold, the message saying which way, and its count."""
    paying = [w for w in kept if not (g4_apprentice and w.keyworker)]
    best = (per_worker * len(paying), "km.reason.upkeep.standard", len(paying))
    if g12_journeyman and len(paying) < best[0]:
        best = (len(paying), "km.reason.upkeep.g12j", len(paying))
    if g12_master:
        boards = len({w.board for w in paying if w.large or small_board == "counts"})
        if boards < best[0]:
            best = (boards, "km.reason.upkeep.g12m", boards)
    return best


def to_top(favour: Sequence[int], player: int) -> tuple[int, ...]:
    """Take Gold (L495) and guild 12 A: ``player`` to the top, those above move down one."""
    return (player, *(p for p in favour if p != player))


def to_bottom(favour: Sequence[int], player: int) -> tuple[int, ...]:
    """A tie won (L566) or a guild 10 priority used (L766): ``player`` to the bottom, those below move up one."""
    return (*(p for p in favour if p != player), player)


@dataclass(frozen=True, slots=True)
class Pick:
    """One place of the new turn order: who, with how many territory workers, whom they were tied with and how the
    tie was broken (``alone``, ``favour``: higher on the favour track, ``swap``: 2 players swap)."""

    player: int
    workers: int
    tied: tuple[int, ...]
    how: str


@dataclass(frozen=True)
class NewOrder:
    """Season End S4: the new turn order, the favour track after, and each pick as a checklist line."""

    order: tuple[int, ...]
    favour: tuple[int, ...] | None
    picks: tuple[Pick, ...]


def new_turn_order(order: Sequence[int], workers: Mapping[int, int], favour: Sequence[int] | None) -> NewOrder:
    """Spec 3.9 (L558-578): fewest territory workers first; a tie goes to the higher on the favour track, who then
    drops to its bottom (3-4 players), or in a 2-player game the players swap places (L568)."""
    remaining = list(order)
    track = tuple(favour) if favour is not None else None
    picks: list[Pick] = []
    while remaining:
        fewest = min(workers[p] for p in remaining)
        tied = [p for p in remaining if workers[p] == fewest]
        if len(tied) == 1:
            pick, how = tied[0], "alone"
        elif track is not None:
            pick, how = min(tied, key=track.index), "favour"
            track = to_bottom(track, pick)
        else:
            pick, how = tied[-1], "swap"  # 2 players, both tied: the second goes first
        picks.append(Pick(pick, fewest, tuple(p for p in tied if p != pick), how))
        remaining.remove(pick)
    return NewOrder(tuple(p.player for p in picks), track, tuple(picks))


def pick_text(pick: Pick, names: Sequence[str]) -> Message:
    """A checklist line for one place of the new turn order."""
    if pick.how == "alone":
        return msg("km.season_end.pick_alone", name=names[pick.player], n=pick.workers)
    others = [names[p] for p in pick.tied]
    return msg(f"km.season_end.pick_{pick.how}", name=names[pick.player], n=pick.workers, others=others)


SEASON_ORDER: tuple[tuple[int, str], ...] = tuple((y, s) for y in (1, 2)
                                                  for s in ("winter", "spring", "summer", "autumn"))
"""The eight seasons (spec 3.1)."""


def reveals_year_two(year: int, season: str) -> bool:
    """Season End S2 (L538-550): the end of Spring, Summer or Autumn of year 1 reveals that season's year-2 pair."""
    return year == 1 and season != "winter"


def has_season_end(year: int, season: str) -> bool:
    """Autumn of year 2 has no Season End (L517, L584)."""
    return (year, season) != (2, "autumn")
