"""Key Harvest state: frozen values, boards as bit masks (spec section 9.7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.core.options import Options
from companion.games.key_harvest.board import CROP_BY_KEY, Crop, Layout, bits
from companion.games.key_harvest.scoring import WORKER_VALUES

Stones = tuple[int, int, int, int, int]
NO_STONES: Stones = (0, 0, 0, 0, 0)
LABOURERS = "ABCDEF"
TOWNSFOLK = "GHIJKL"
EVENTS = "MNOPQRSTUVWXYZ"
OFFICE_SPACES = 6
TRACK_SPACES = 10
SEVENTH_SPACE = 7

T = TypeVar("T")


MOVES_CACHE = "_legal_moves"
"""Where ``rules.legal_moves`` memoises its answer on a state (never copied by ``evolve``; a
draft never holds it)."""

DRAFT = "_draft"
"""Marks the private copy one ``rules.apply`` builds: ``evolve`` may change it in place."""


_new = object.__new__
_set_dict = object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed: ``dataclasses.replace`` without
    re-running ``__init__`` or checking names (the engine's hottest operation; a test checks
    every call's field names). A draft (see ``draft``) is changed in place instead."""
    held = obj.__dict__
    if DRAFT in held:
        held.update(changes)
        return obj
    fresh = held.copy()
    fresh.update(changes)
    fresh.pop(MOVES_CACHE, None)
    new = _new(type(obj))
    _set_dict(new, "__dict__", fresh)
    return new


def draft(obj: T) -> T:
    """A private copy that ``evolve`` changes in place: one copy per move instead of one per change.

    Only the function that made the draft may hold it; it calls ``freeze`` before handing it out.
    """
    fresh = obj.__dict__.copy()
    fresh.pop(MOVES_CACHE, None)
    fresh[DRAFT] = True
    new = _new(type(obj))
    _set_dict(new, "__dict__", fresh)
    return new


def freeze(obj: T) -> T:
    """The draft as an ordinary immutable value again."""
    obj.__dict__.pop(DRAFT, None)
    return obj


# Draw contexts (spec 6.5).
NORMAL, EVENT, TRADER = "normal", "event", "trader"


def add_stones(a: Stones, b: Stones) -> Stones:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def sub_stones(a: Stones, b: Stones) -> Stones:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


ONE_STONE: tuple[Stones, ...] = ((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 0, 1))


def one_stone(crop: Crop | int, count: int = 1) -> Stones:
    if count == 1:
        return ONE_STONE[crop]
    out = [0, 0, 0, 0, 0]
    out[crop] = count
    return (out[0], out[1], out[2], out[3], out[4])


def covers(have: Stones, need: Stones) -> bool:
    """Whether ``have`` holds at least the stones of ``need``, crop by crop."""
    return (have[0] >= need[0] and have[1] >= need[1] and have[2] >= need[2] and have[3] >= need[3]
            and have[4] >= need[4])


def stones_of(crops: Sequence[str]) -> Stones:
    """The stone counts of a list of crop keys."""
    counts = [0, 0, 0, 0, 0]
    for key in crops:
        counts[CROP_BY_KEY[key]] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def stones_json(stones: Stones) -> dict[str, int]:
    return {crop.key: stones[crop] for crop in Crop}


@dataclass(frozen=True)
class Player:
    """One player's estate board, labourers, warehouse and (private) stones."""

    name: str
    fields: int = 0
    harvested: int = 0
    workers: tuple[tuple[int, str], ...] = ()
    beside: str = LABOURERS
    warehouse: tuple[tuple[int, Stones], ...] = ()
    stones: Stones = NO_STONES

    @property
    def worker_mask(self) -> int:
        mask = 0
        for space, _ in self.workers:
            mask |= 1 << space
        return mask

    def worker_at(self, space: int) -> str | None:
        for at, worker in self.workers:
            if at == space:
                return worker
        return None

    def with_worker(self, space: int, worker: str) -> Player:
        return evolve(self, workers=tuple(sorted((*self.workers, (space, worker)))))

    def without_worker(self, space: int) -> Player:
        return evolve(self, workers=tuple(w for w in self.workers if w[0] != space))

    def with_field(self, tile: int) -> Player:
        """The tile arrives on its space, unharvested side up (spec 9.5)."""
        bit = 1 << tile
        return evolve(self, fields=self.fields | bit, harvested=self.harvested & ~bit)

    def without_field(self, tile: int) -> Player:
        bit = ~(1 << tile)
        return evolve(self, fields=self.fields & bit, harvested=self.harvested & bit)

    @property
    def board_tiles(self) -> int:
        """Field tiles plus worker tiles on the estate board (the 7th-event count, R-EV7-1)."""
        return self.fields.bit_count() + len(self.workers)

    @property
    def worker_points(self) -> int:
        return sum(WORKER_VALUES[w] for _, w in self.workers)


@dataclass(frozen=True, slots=True)
class Step:
    """A pending decision or automatic step; the top of ``State.stack`` is resolved first.

    ``kind`` names it; the other fields are its data: who decides (``player``), the space or
    tile concerned (``space``), a worker letter, a count ``n``, another seat ``target``, a draw
    ``context`` and ``purpose``, an ``event`` letter and a ``mask`` of spaces.
    """

    kind: str
    player: int = -1
    space: int = -1
    worker: str = ""
    n: int = 0
    target: int = -1
    context: str = ""
    purpose: str = ""
    event: str = ""
    mask: int = 0


@dataclass(frozen=True)
class State:
    """The whole table. Immutable: every move returns a new state."""

    layout: Layout
    options: Options
    players: tuple[Player, ...]
    supply: Stones
    town: str = TOWNSFOLK
    office: tuple[int, ...] = (-1,) * OFFICE_SPACES
    bag_fields: int = 0
    bag_events: str = ""
    set_aside: str = ""
    removed: str = ""
    ignored: str = ""
    track: str = ""
    fallow: int = 0
    in_hand: int = 0
    setup_bag: Stones = NO_STONES
    setup_pairs: int = 0
    started: bool = False
    active: int = 0
    actions: str = ""
    stack: tuple[Step, ...] = ()
    resolving: int = 0
    quick_sale_taken: int = 0
    end_trigger: int = -1
    turns_left: int = -1
    over: bool = False

    @property
    def top(self) -> Step | None:
        return self.stack[-1] if self.stack else None

    def player(self, seat: int) -> Player:
        return self.players[seat]

    # The three hottest changes write a draft directly (what ``evolve`` would do, minus its call).

    def with_player(self, seat: int, player: Player) -> State:
        players = list(self.players)
        players[seat] = player
        held = self.__dict__
        if DRAFT in held:
            held["players"] = tuple(players)
            return self
        return evolve(self, players=tuple(players))

    def push(self, *steps: Step) -> State:
        """Push steps; the last one given is resolved first."""
        held = self.__dict__
        if DRAFT in held:
            held["stack"] = self.stack + steps
            return self
        return evolve(self, stack=self.stack + steps)

    def pop(self) -> State:
        held = self.__dict__
        if DRAFT in held:
            held["stack"] = self.stack[:-1]
            return self
        return evolve(self, stack=self.stack[:-1])

    def next_seat(self, seat: int) -> int:
        step = 1 if self.options["turn_direction"] == "clockwise" else -1
        return (seat + step) % len(self.players)

    def order_from(self, seat: int) -> list[int]:
        """All seats in turn order, starting with ``seat``."""
        order = [seat]
        while len(order) < len(self.players):
            order.append(self.next_seat(order[-1]))
        return order

    @property
    def office_tiles(self) -> list[int]:
        return [tile for tile in self.office if tile >= 0]

    def warehouse_owner(self, tile: int) -> int:
        for seat, player in enumerate(self.players):
            for t, _ in player.warehouse:
                if t == tile:
                    return seat
        return -1

    def board_owner(self, tile: int) -> int:
        for seat, player in enumerate(self.players):
            if player.fields >> tile & 1:
                return seat
        return -1

    def labels(self, mask: int) -> list[str]:
        return [self.layout.labels[i] for i in bits(mask)]

    def label(self, tile: int) -> str:
        return self.layout.labels[tile]

    def debug(self) -> dict[str, Any]:
        """A compact dump for error messages and tests."""
        return {"active": self.active, "actions": self.actions, "stack": [s.kind for s in self.stack]}
