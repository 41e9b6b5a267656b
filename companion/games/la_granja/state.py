"""La Granja state (spec 4.1): plain dataclasses that are never changed once handed out.

``rules.apply`` copies the state and the players (``copy``) and then only rebinds fields to
new tuples and dicts, so every earlier state stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.messages import Text
from companion.core.options import Options
from companion.games.la_granja.data import GOODS, Edition

NEUTRAL = 9
"""The solo game's neutral player on the market (spec 6)."""
FREE = -1
LEDGER_SOURCES = {
    "V1": "starting VP", "V2": "roof slot", "V3": "roof marker +1 VP", "V4": "building completed (round number)",
    "V5": "first at the building", "V6": "lock marker removed", "V7": "Gemischtwarenladen",
    "V8": "Wagner (siesta value)", "V9": "Fleischer (carts on farm)", "V10": "Fleischer (cart completed)",
    "V11": "market cart", "V12": "stall removed", "V13": "market stalls (scoring)", "V14": "siesta (scoring)",
    "V15": "final conversion", "V16": "table adjustment", "spent": "VP paid or delivered",
}


@dataclass(frozen=True, slots=True)
class Task:
    """One thing the game waits for: a player's decision, a chance step, or an automatic step."""

    kind: str
    player: int = -1
    n: int = 0
    arg: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a player's VP ledger."""

    round: int
    source: str
    amount: int
    note: Text
    """Why: a message, or the table's own words for an adjustment."""

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "source": self.source, "amount": self.amount, "note": self.note}


@dataclass(eq=True)
class Player:
    name: str
    vp: int = 0
    silver: int = 0
    trade: int = 0
    goods: dict[str, int] = field(default_factory=lambda: {g: 0 for g in GOODS})
    hand: tuple[int, ...] = ()
    fields: tuple[tuple[int, bool], ...] = ()          # (card, has a crop)
    carts: tuple[tuple[int, tuple[bool, ...]], ...] = ()  # (card, filled symbols)
    extensions: tuple[int, ...] = ()
    helpers: tuple[int, ...] = ()
    helpers_used: tuple[int, ...] = ()
    roofs: tuple[tuple[str, bool], ...] = ()            # (marker, face up)
    bought_roof: bool = False
    crafts: tuple[tuple[str, bool], ...] = ()           # (building, turned to its back side)
    rows: tuple[tuple[str, int, tuple[bool, ...]], ...] = ()  # (building, row 0-3, filled symbols)
    completed: tuple[str, ...] = ()
    donkeys_used: tuple[int, ...] = ()
    donkey: int = 0
    dice: tuple[int, ...] = ()
    faces: int = 0
    ledger: tuple[Entry, ...] = ()

    def copy(self) -> Player:
        new = object.__new__(Player)
        new.__dict__.update(self.__dict__)
        return new

    def craft(self, key: str) -> bool | None:
        """``None`` without the marker, else whether it is turned to its (ongoing) back side."""
        for kind, back in self.crafts:
            if kind == key:
                return back
        return None

    def active(self, key: str) -> bool:
        return self.craft(key) is True


@dataclass(frozen=True, slots=True)
class Site:
    """A craft building on the board."""

    lock: int = 0            # lock marker 1-3 lying on it, 0 if none
    first_vp: bool = True    # the 1 VP on its completion area
    craft_left: int = 0
    rows: tuple[int, ...] = (FREE, FREE, FREE, FREE)
    completed_by: tuple[int, ...] = ()


@dataclass(eq=True)
class State:
    edition: Edition = field(compare=False, repr=False)
    options: Options
    players: tuple[Player, ...]
    round: int = 1
    phase: str = "setup"
    stage: int = 0
    order: tuple[int, ...] = ()
    solo_start: bool = True
    pile: frozenset[int] = frozenset()
    discards: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    rolled: tuple[int, ...] = ()
    display: tuple[str, ...] = ()
    unrevealed: tuple[str, ...] = ()
    roof_box: tuple[str, ...] = ()
    sites: dict[str, Site] = field(default_factory=dict)
    locks: tuple[str, ...] = ()          # building of lock marker 1, 2, 3 (as drawn)
    locks_removed: tuple[int, ...] = ()
    distinct_completed: int = 0
    completions: int = 0
    market: tuple[int, ...] = ()
    siesta: tuple[tuple[int, ...], ...] = ()  # per track space, discs bottom to top
    stack: tuple[Task, ...] = ()
    over: bool = False

    def copy(self) -> State:
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.players = tuple(p.copy() for p in self.players)
        return new

    @property
    def top(self) -> Task | None:
        return self.stack[-1] if self.stack else None

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def position(self, seat: int) -> int:
        for pos, stack in enumerate(self.siesta):
            if seat in stack:
                return pos
        raise AssertionError(f"seat {seat} has no siesta disc")
