"""Key Market's state: frozen values (spec 1.3). Counts of goods are tuples in ``GOODS`` order.

A worker's place is a short text: ``pool``, ``marker``, ``favour``, ``retired``, ``f:x,y`` (on a field) or
``g:G:L:i`` (slot ``i`` of level ``L`` of guild ``G``). Worker 0 is the keyworker (spec 1.2).
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from functools import lru_cache
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from companion.core.memo import KEPT, kept_with
from companion.core.options import Options
from companion.games.key_market.data import GOODS, Edition
from companion.games.key_market.territory import Placement

Counts = tuple[int, ...]
T = TypeVar("T")
NONE: Counts = (0,) * len(GOODS)
WORKERS = 10
KEYWORKER = 0


def add(a: Counts, b: Counts, sign: int = 1) -> Counts:
    """``a`` plus ``b`` (``sign`` 1) or minus ``b`` (``sign`` -1), good by good."""
    if sign not in (1, -1):
        raise ValueError(f"sign {sign} is neither 1 nor -1")
    return tuple(map(operator.add if sign == 1 else operator.sub, a, b))


_ZEROS = (0,) * len(GOODS)


def counts(goods: dict[str, int]) -> Counts:
    return tuple(map(goods.get, GOODS, _ZEROS))


def as_dict(c: Counts) -> dict[str, int]:
    return {g: n for g, n in zip(GOODS, c) if n}


@dataclass(frozen=True)
class Seat:
    """One player: the farmhouse tile, the manor, gold and goods (behind the screen), goods brought to market,
    the workers' places, and what they did this season."""

    tile: int = 0
    farmhouse: str = ""
    manor: bool = False
    gold: int = 0
    goods: Counts = NONE
    committed: Counts = NONE
    workers: tuple[str, ...] = ("pool",) * WORKERS
    secret: tuple[str, ...] | None = None
    """A choice made in secret and not yet shown (the farmhouse payment, the goods for market)."""
    step: int = 0
    """The Farming action last taken (1-6): actions come in the order F1-F6 (L255)."""
    hires: int = 0
    moved: int = 0
    free_steps: int = 0
    produced: bool = False
    swapped: bool = False
    promoted: bool = False
    retired_f: bool = False
    guild_action: bool = False
    sold: bool = False
    mixed: bool = False
    passed: bool = False
    g10_before_sale: bool = False
    """Guild 10's apprentice was in place before this Market Day's first sale (L776)."""
    used_once: frozenset[int] = frozenset()
    """Guilds 3 and 14 whose apprentice's once-only bonus was used (variant ``once_only`` = per_game)."""

    def where(self, place: str) -> list[int]:
        return [i for i, w in enumerate(self.workers) if w == place]

    def fields(self) -> tuple[tuple[int, tuple[int, int]], ...]:
        """(worker, position) of each worker on the territory."""
        found: tuple[tuple[int, tuple[int, int]], ...] | None = self.__dict__.get("_fields")
        if found is None:
            found = self.__dict__["_fields"] = _fields(self.workers)
        return found

    def guilds(self) -> dict[int, tuple[int, str, int]]:
        """guild -> (worker, level, slot) of each member (shared by seats with the same workers: do not change it)."""
        found: dict[int, tuple[int, str, int]] | None = self.__dict__.get("_guilds")
        if found is None:
            found = self.__dict__["_guilds"] = _guilds(self.workers)
        return found

    def derived(self, key: str, make: Callable[[], T]) -> T:
        """A value derived from the workers' places (and the edition's data), kept with the seat until they move."""
        return kept_with(self, key, make)

    def fresh_season(self) -> Seat:
        return replace(self, step=0, hires=0, moved=0, free_steps=0, produced=False, swapped=False, promoted=False,
                       retired_f=False, guild_action=False, sold=False, mixed=False, passed=False,
                       g10_before_sale=False, committed=NONE)


@lru_cache(maxsize=8192)
def _fields(workers: tuple[str, ...]) -> tuple[tuple[int, tuple[int, int]], ...]:
    out = []
    for i, w in enumerate(workers):
        if w.startswith("f:"):
            x, y = w[2:].split(",")
            out.append((i, (int(x), int(y))))
    return tuple(out)


@lru_cache(maxsize=8192)
def _guilds(workers: tuple[str, ...]) -> dict[int, tuple[int, str, int]]:
    out = {}
    for i, w in enumerate(workers):
        if w.startswith("g:"):
            _, g, level, slot = w.split(":")
            out[int(g)] = (i, level, int(slot))
    return out


@dataclass(frozen=True)
class State:
    """A whole game: the stage, the calendar, turn order and favour track, the market, supply and box, the
    weather, the guilds, the territory, each seat, who acts."""

    names: tuple[str, ...]
    options: Options
    edition: Edition = field(repr=False, compare=False)
    stage: str = "weather"
    year: int = 1
    season: str = "winter"
    order: tuple[int, ...] = ()
    favour: tuple[int, ...] | None = None
    market: Counts = NONE
    supply: Counts = NONE
    box: Counts = NONE
    """Goods taken out of play (variant ``removed_goods`` = box)."""
    weather: tuple[tuple[str, str], ...] = ()
    """Face-up pairs (square marker, round marker) for spring, summer, autumn of year 1, then year 2 as revealed."""
    guilds: tuple[int, ...] = ()
    placements: tuple[Placement, ...] = ()
    laid_by: tuple[int, ...] = ()
    """The seat that laid each board of ``placements`` (-1: the 2-player small board, laid first by nobody)."""
    dealt: tuple[int, str] | None = None
    boards_left: tuple[int, ...] = (1, 2, 3, 4)
    seats: tuple[Seat, ...] = ()
    turn: int = 0
    """Index into ``order`` of who acts (Farming, Market Day, upkeep, setup placements)."""
    early: tuple[int, ...] = ()
    """Guild 10's priority window: the seats still to be offered it, first = now (M2)."""
    early_acted: bool = False
    log: tuple[Any, ...] = field(default=(), compare=False)

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def over(self) -> bool:
        return self.stage == "over"

    def seat(self, i: int) -> Seat:
        return self.seats[i]

    def with_seat(self, i: int, **changes: Any) -> State:
        return self.update(i, changes)

    def update(self, i: int, seat: Mapping[str, Any], **changes: Any) -> State:
        """Seat ``i`` changed by ``seat`` and the state by ``changes``, in one copy."""
        seats = self.seats
        return replace(self, seats=(*seats[:i], replace(seats[i], **seat), *seats[i + 1:]), **changes)


_BY_WORKERS = ("_fields", "_guilds", KEPT, "_abilities", "_payer")
"""What a seat remembers of its workers' places (forgotten when they change)."""
_FIELDS: dict[type, frozenset[str]] = {cls: frozenset(f.name for f in dataclasses.fields(cls)) for cls in (Seat, State)}


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace``, quicker for ``Seat`` and ``State`` (the playouts make many: their values are copied
    without ``__init__``); a state's remembered derived values (``kept_with``) are not copied."""
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - names)}")
    new = object.__new__(cls)
    values = obj.__dict__.copy()
    if cls is State:
        values.pop(KEPT, None)
    elif "workers" in changes:
        for key in _BY_WORKERS:
            values.pop(key, None)
    values.update(changes)
    object.__setattr__(new, "__dict__", values)
    return new
