"""Keyper's state (spec 3.0): frozen dataclasses, changed only by making new ones (``evolve``).

Seats are clockwise. A country board is ``boards[i]`` (printed player-count symbol ``i + 1``); its fields are
numbered 1-15 in the order of its configuration in the data pack (``Layout.fields``). A field is written
``2.7`` (board 2, field 7), a plot ``F3`` or ``V12``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from companion.core.bag import Bag
from companion.core.options import Options
from companion.games.keyper.data import ANIMALS, GOODS, KEYPLE_COLOURS, Edition

T = TypeVar("T")
MOVES_CACHE = "_legal_moves"
"""Where ``rules.legal_moves`` memoises its answer on a state, and the placements onto a board's fields on the board
(``evolve`` never copies it)."""
PLOTS_CACHE = "_plots"
"""Where ``rules`` remembers what a player's plots offer (where a tile may be built, the placements onto its
buildings): ``evolve`` keeps it while the player's farm and village are unchanged."""

GOOD_INDEX = {g: i for i, g in enumerate(GOODS)}
ANIMAL_INDEX = {a: i for i, a in enumerate(ANIMALS)}


@dataclass(frozen=True, slots=True)
class PK:
    """A placed keyple: its colour and whether it still stands (it lies once it has worked twice)."""

    colour: str
    standing: bool = True


UPRIGHT = {colour: PK(colour) for colour in KEYPLE_COLOURS}
LAID = {colour: PK(colour, False) for colour in KEYPLE_COLOURS}
"""Each keyple standing and lying, made once (keyples never change: a turn places or lays one down)."""


@dataclass(frozen=True, slots=True)
class Plot:
    """A plot of a player board: its tiles from the bottom (at most 2, A18), the top's side, its keyples."""

    tiles: tuple[str, ...] = ()
    upgraded: bool = False
    keyples: tuple[PK, ...] = ()

    @property
    def top(self) -> str:
        return self.tiles[-1] if self.tiles else ""


@dataclass(frozen=True)
class Board:
    """A country board: the configuration it shows, whose Keyper stands on its keep field, keyples per field
    (index 0 = field 1), the boat on its river field. Not slotted: ``rules`` remembers the placements onto its
    fields on it (under ``MOVES_CACHE``, which ``evolve`` never copies)."""

    layout: str
    keeper: int = -1
    fields: tuple[tuple[PK, ...], ...] = ()
    boat: str = ""


@dataclass(frozen=True)
class Player:
    """A seat's pieces (not slotted: ``evolve`` copies a player, changed at nearly every step, as one dict; ``rules``
    remembers what its plots offer on it, under ``PLOTS_CACHE``)."""
    name: str
    keyper_home: bool = True
    keep: tuple[str, ...] = ()
    """The keyples standing in the keep area, by colour (sorted): public (L172)."""
    keep_tile: tuple[PK, ...] = ()
    farm: tuple[Plot, ...] = ()
    village: tuple[Plot, ...] = ()
    unbuilt: tuple[str, ...] = ()
    """Tiles owned and not built: home tiles, country tiles taken from the display."""
    winter_fairs: tuple[str, ...] = ()
    """Winter fair tiles taken and not held yet."""
    private: tuple[str, ...] = ("", "", "")
    """The private fair of spring, summer, autumn ('' once held or returned to the box): secret."""
    held: tuple[tuple[str, str], ...] = ()
    """The fairs held: (fair, season)."""
    goods: tuple[int, ...] = (0,) * len(GOODS)
    animals: tuple[int, ...] = (0,) * len(ANIMALS)
    shipping: int = 0
    claimed: int = -1
    """The board collected at the end of the last season (its fields count for Kiln, Mine... at the end)."""

    def good(self, kind: str) -> int:
        return self.goods[GOOD_INDEX[kind]] if kind in GOOD_INDEX else self.animals[ANIMAL_INDEX[kind]]

    def plots(self, area: str) -> tuple[Plot, ...]:
        return self.farm if area == "farm" else self.village

    @property
    def pieces_home(self) -> int:
        """Keyper and keyples still in the keep area."""
        return len(self.keep) + (1 if self.keyper_home else 0)


@dataclass(frozen=True, slots=True)
class Task:
    """One thing the game waits for: a seat's decision, a chance step, or a step the companion makes."""

    kind: str
    seat: int = -1
    n: int = 0
    arg: str = ""
    used: int = 0
    """Units used so far (boats: for the Seafarer and the Shipping Agent)."""
    shipped: int = 0


@dataclass(frozen=True)
class State:
    edition: Edition = field(compare=False, repr=False)
    options: Options
    players: tuple[Player, ...]
    season: int = 0
    boards: tuple[Board, ...] = ()
    bag: Bag[str] = field(default_factory=Bag)
    display: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()
    boats: tuple[str, ...] = ()
    """The 4 boats available this season."""
    supply: tuple[int, ...] = ()
    """Goods then animals left in the general supply (spec 1.2; only with ``limited_supply``)."""
    fair_stacks: tuple[tuple[str, ...], ...] = ((), (), ())
    ninth_pool: tuple[str, ...] = ()
    start: int = 0
    active: int = 0
    last_placer: int = -1
    final: bool = False
    """The final lay-down round is under way (spec 3.4)."""
    folds: tuple[str, ...] = ()
    """Board configurations chosen at the start of a season, secret until all have chosen ('' = not yet)."""
    gained: frozenset[tuple[int, str]] = frozenset()
    shipped: frozenset[tuple[int, str]] = frozenset()
    """Resource types gained / shipped on boats this turn, per seat (A9)."""
    tasks: tuple[Task, ...] = ()
    over: bool = False

    @property
    def top(self) -> Task | None:
        return self.tasks[-1] if self.tasks else None

    def player(self, seat: int, **changes: object) -> State:
        """This state with seat ``seat``'s player changed."""
        players = list(self.players)
        players[seat] = evolve(players[seat], **changes)
        return evolve(self, players=tuple(players))

    def board(self, index: int, **changes: object) -> State:
        boards = list(self.boards)
        boards[index] = evolve(boards[index], **changes)
        return evolve(self, boards=tuple(boards))


FIELDS: dict[type, frozenset[str]] = {cls: frozenset(f.name for f in fields(cls))
                                      for cls in (PK, Plot, Board, Player, Task, State)}
_new = object.__new__
_set = object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of one of the frozen dataclasses here with some fields changed: ``dataclasses.replace`` without
    re-running ``__init__`` (the engine's most frequent step). A state's memoised legal moves are not copied, nor a
    player's plots' (``PLOTS_CACHE``) once its farm or village changes."""
    return copied(obj, changes)


def copied(obj: T, changes: dict[str, Any]) -> T:
    """``evolve(obj, **changes)``, the changes given as one dict: a move gathers its changes through several steps
    into one dict (one copy of the state), and passing a dict on is cheaper than repacking keyword arguments."""
    cls = type(obj)
    new = _new(cls)
    held = getattr(obj, "__dict__", None)
    if held is None:  # slots
        if not changes.keys() <= FIELDS[cls]:
            raise _no_field(cls, changes)
        for name in cls.__slots__:  # type: ignore[attr-defined]
            _set(new, name, changes[name] if name in changes else getattr(obj, name))
        return new
    fresh = held | changes
    if len(fresh) != len(held):  # a name that is not already there is no field
        raise _no_field(cls, changes)
    if MOVES_CACHE in fresh:
        del fresh[MOVES_CACHE]
    if PLOTS_CACHE in fresh and ("farm" in changes or "village" in changes):
        del fresh[PLOTS_CACHE]
    _set(new, "__dict__", fresh)
    return new


def _no_field(cls: type, changes: dict[str, Any]) -> TypeError:
    return TypeError(f"{cls.__name__} has no field {', '.join(sorted(changes.keys() - FIELDS[cls]))}")


def with_tasks(s: State, tasks: tuple[Task, ...]) -> State:
    """``evolve(s, tasks=tasks)``, faster (a state's tasks change at nearly every step)."""
    fresh = s.__dict__.copy()
    if MOVES_CACHE in fresh:
        del fresh[MOVES_CACHE]
    fresh["tasks"] = tasks
    new = _new(State)
    _set(new, "__dict__", fresh)
    return new
