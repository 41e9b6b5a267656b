"""Key Market's printed data (spec 7.1): territory boards, weather markers, farmhouse tiles, guild tiles, the market
board and the season board's base production.

The rulebook text lacks most of it (its pictures were lost), so the companion ships a data pack whose sections say
``"provisional": true`` where the values are invented; ``guild_abilities`` (the numbers the ability texts state) and
``season_board`` (L301, L303) come from the text. A table that transcribes its box installs the same format as
``key-market-data.json`` (``DATA``, checked against ``data/schema.json`` first, then by ``Edition.from_json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.datapack import DataPack
from companion.core.errors import MalformedInputError
from companion.core.messages import Text, msg

RESOURCES: tuple[str, ...] = ("fruit", "veg", "wheat", "sheep", "fish")
"""The five resources in market row order, top to bottom (L804)."""
LUX = "lux"
GOODS: tuple[str, ...] = (*RESOURCES, LUX)
SHAPES: tuple[str, ...] = ("square", "round")
SIDES: tuple[str, ...] = ("a", "b")
LEVELS: tuple[str, ...] = ("A", "J", "M")
"""Apprentice, Journeyman, Master (spec 6.1)."""
SEASONS: tuple[str, ...] = ("winter", "spring", "summer", "autumn")
ABILITY_VALUES: tuple[str, ...] = (
    "fields", "bonus", "base", "vp_each", "swap", "keyworker_upkeep", "hire_cap", "hires", "set_vp", "settle_cost",
    "free_steps", "pair_bonus", "place_discount", "promote_discount", "apprentice", "journeyman", "master",
    "resources", "first_sale_bonus", "buy_discount", "set_size", "sale_bonus", "gold", "per_worker", "per_board",
    "take", "retire_gold", "mixed_max", "buy_kinds", "flex")
"""The numbers a guild ability may state (``guild_abilities`` values)."""
SECTIONS: tuple[str, ...] = ("territory_boards", "small_board", "weather", "farmhouses", "guild_tiles", "guild_abilities",
                             "market", "season_board")
GUILDS = 16
LARGE_BOARDS = 4


@dataclass(frozen=True, slots=True)
class Cell:
    """One field of a board as printed: its place on the board (x right, y down), shape and good (lux: village)."""

    x: int
    y: int
    shape: str
    good: str

    @property
    def is_village(self) -> bool:
        return self.good == LUX


@dataclass(frozen=True, slots=True)
class Marker:
    """A weather marker: its name, shape, the good on its face and whether its back shows 2 (year 2)."""

    id: str
    shape: str
    good: str
    year2: bool


@dataclass(frozen=True, slots=True)
class GuildTile:
    """A guild tile: slots per level (per column for guilds with columns), rank VP per level and the levels whose
    ability adds to the lower ones (the printed "+", L654)."""

    number: int
    name: str
    columns: tuple[str, ...]
    slots: Mapping[str, int]
    vp: Mapping[str, int]
    adds: frozenset[str]

    def active_levels(self, level: str) -> tuple[str, ...]:
        """The levels whose ability a member at ``level`` has: its own, and the lower ones while each higher level
        adds to them (spec 6.1, 7.2 #7)."""
        out = [level]
        at = LEVELS.index(level)
        while at > 0 and LEVELS[at] in self.adds:
            at -= 1
            out.append(LEVELS[at])
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Ability:
    """One level of a guild: whether it also works in Winter (the text's ☼) and its numbers."""

    guild: int
    level: str
    winter: bool
    values: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """Base production (L301, L303): square and round fields, the village, Winter, and a field whose good its
    shape's weather marker shows."""

    square: int
    round: int
    village: int
    winter: int
    square_marker: int
    round_marker: int


@dataclass(frozen=True)
class Edition:
    """All printed data one game plays with; ``raw`` is the JSON it came from (stored with each game)."""

    name: str
    boards: Mapping[tuple[int, str], tuple[Cell, ...]]
    small_board: tuple[Cell, ...]
    markers: Mapping[str, Marker]
    farmhouses: Mapping[int, str]
    guild_tiles: Mapping[int, GuildTile]
    abilities: Mapping[tuple[int, str], Ability]
    market_rows: tuple[str, ...]
    prices: tuple[int, ...]
    removal: tuple[int, ...]
    season_board: SeasonBoard
    provisional: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    def value(self, guild: int, level: str, key: str, default: int = 0) -> int:
        """A number guild ``guild``'s ``level`` ability states (``default`` if it states none)."""
        return self.abilities[(guild, level)].values.get(key, default)

    def warnings(self) -> list[Text]:
        """One sentence while some sections are placeholders, naming them in words."""
        if not self.provisional:
            return []
        return [msg("km.warning.provisional", sections=[msg(f"km.section.{s}") for s in self.provisional])]

    @classmethod
    def from_json(cls, data: Any) -> Edition:
        """Read and check a data pack; ``MalformedInputError`` says what is wrong."""
        try:
            return _parse(data)
        except MalformedInputError:
            raise
        except KeyError as error:
            raise MalformedInputError(f"Key Market data pack is malformed: missing key {error}") from None
        except (TypeError, ValueError, IndexError, AttributeError) as error:
            raise MalformedInputError(f"Key Market data pack is malformed: {type(error).__name__}: {error}") from None


def _fail(reason: str) -> MalformedInputError:
    return MalformedInputError(f"Key Market data pack: {reason}")


def _cell(raw: Mapping[str, Any]) -> Cell:
    return Cell(int(raw["x"]), int(raw["y"]), str(raw["shape"]), str(raw["good"]))


def _boards(data: Mapping[str, Any]) -> dict[tuple[int, str], tuple[Cell, ...]]:
    """The 4 large boards' 2 sides: 3x3 fields each, the village in the centre and round, 8 resource fields."""
    found: dict[tuple[int, str], list[Cell]] = {}
    for raw in data["territory_boards"]["fields"]:
        found.setdefault((int(raw["board"]), str(raw["side"])), []).append(_cell(raw))
    wanted = {(b, s) for b in range(1, LARGE_BOARDS + 1) for s in SIDES}
    if set(found) != wanted:
        raise _fail("the large boards need sides a and b of boards 1-4, each once")
    boards = {}
    for (b, s), cells in sorted(found.items()):
        places = sorted((c.y, c.x) for c in cells)
        if places != [(y, x) for y in range(3) for x in range(3)]:
            raise _fail(f"board {b} side {s} needs the 9 fields x, y = 0-2, each once")
        for c in cells:
            centre = (c.x, c.y) == (1, 1)
            if centre != c.is_village or (centre and c.shape != "round"):
                raise _fail(f"board {b} side {s}: the village (good lux, round) is the centre field and only it")
        boards[(b, s)] = tuple(sorted(cells, key=lambda c: (c.y, c.x)))
    return boards


def _small_board(data: Mapping[str, Any]) -> tuple[Cell, ...]:
    cells = tuple(sorted((_cell(raw) for raw in data["small_board"]["fields"]), key=lambda c: (c.y, c.x)))
    xs, ys = {c.x for c in cells}, {c.y for c in cells}
    if len(cells) != len(xs) * len(ys) or len({(c.x, c.y) for c in cells}) != len(cells) \
            or xs != set(range(3)) or not ys or ys != set(range(len(ys))):
        raise _fail("the small board is a full grid 3 fields wide (x = 0-2), so a whole edge of 3 joins a large board")
    if any(c.is_village for c in cells):
        raise _fail("the small board has no village")
    return cells


def _markers(data: Mapping[str, Any]) -> dict[str, Marker]:
    markers = {}
    for raw in data["weather"]["markers"]:
        m = Marker(str(raw["id"]), str(raw["shape"]), str(raw["good"]), bool(raw["year2"]))
        if m.id in markers:
            raise _fail(f"weather marker {m.id} twice")
        markers[m.id] = m
    shapes = [m.shape for m in markers.values()]
    year2 = [m for m in markers.values() if m.year2]
    if shapes.count("square") != 6 or shapes.count("round") != 6 or len(year2) != 3 \
            or any(m.shape != "round" for m in year2):
        raise _fail("need 6 square and 6 round weather markers, 3 round ones with 2 on the back (L149)")
    return markers


def _guilds(data: Mapping[str, Any]) -> tuple[dict[int, GuildTile], dict[tuple[int, str], Ability]]:
    tiles = {}
    for raw in data["guild_tiles"]["tiles"]:
        t = GuildTile(int(raw["guild"]), str(raw["name"]), tuple(str(c) for c in raw["columns"]),
                      {k: int(v) for k, v in raw["slots"].items()}, {k: int(v) for k, v in raw["vp"].items()},
                      frozenset(str(a) for a in raw["adds"]))
        if t.number in tiles or not 1 <= t.number <= GUILDS:
            raise _fail(f"guild tile {t.number} is twice or outside 1-16")
        if set(t.slots) != set(LEVELS) or set(t.vp) != set(LEVELS) or min(t.slots.values()) < 1:
            raise _fail(f"guild {t.number} needs at least 1 slot and the rank VP for each of A, J, M")
        tiles[t.number] = t
    if sorted(tiles) != list(range(1, GUILDS + 1)):
        raise _fail("need the guild tiles 1-16")
    if set(tiles[1].columns) != {"sheep", "fish"} or set(tiles[8].columns) != {"fruit", "veg", "wheat"} \
            or any(t.columns for n, t in tiles.items() if n not in (1, 8)):
        raise _fail("guild 1 has the columns sheep and fish, guild 8 fruit, veg and wheat, no other guild has columns")
    abilities = {}
    for raw in data["guild_abilities"]["abilities"]:
        a = Ability(int(raw["guild"]), str(raw["level"]), bool(raw["winter"]),
                    {k: int(v) for k, v in raw["values"].items()})
        if (a.guild, a.level) in abilities:
            raise _fail(f"guild {a.guild} level {a.level} twice")
        abilities[(a.guild, a.level)] = a
    if set(abilities) != {(g, lv) for g in range(1, GUILDS + 1) for lv in LEVELS}:
        raise _fail("need the abilities of the 3 levels of guilds 1-16")
    return tiles, abilities


def _parse(data: Mapping[str, Any]) -> Edition:
    tiles, abilities = _guilds(data)
    farmhouses = {int(raw["id"]): str(raw["resource"]) for raw in data["farmhouses"]["tiles"]}
    if len(farmhouses) != 5 or len(data["farmhouses"]["tiles"]) != 5:
        raise _fail("need the 5 farmhouse tiles, each id once")
    market = data["market"]
    rows = tuple(str(g) for g in market["rows"])
    prices = tuple(int(p) for p in market["prices"])
    removal = tuple(int(r) for r in market["removal"])
    if sorted(rows) != sorted(GOODS):
        raise _fail("the market board has one row for each of the 6 goods")
    if not prices or any(a <= b for a, b in zip(prices, prices[1:])) or prices[-1] < 1:
        raise _fail("the market's slot prices fall from left to right and end at 1 or more")
    if len(removal) != len(prices) + 1 or any(r < 0 for r in removal) or any(a > b for a, b in zip(removal, removal[1:])):
        raise _fail("the Season End removals give one count per number of goods in a row, 0 up to all slots "
                    "filled and the last covered, never falling")
    sb = data["season_board"]
    counts = [int(sb[k]) for k in ("square", "round", "village", "winter", "square_marker", "round_marker")]
    season = SeasonBoard(*counts)
    if min(counts) < 0:
        raise _fail("the season board's spaces and markers are counted 0 or more")
    provisional = tuple(s for s in SECTIONS if s in data and data[s].get("provisional", True))
    return Edition(str(data.get("name", "unnamed")), _boards(data), _small_board(data), _markers(data), farmhouses,
                   tiles, abilities, rows, prices, removal, season, provisional, data)


DATA: DataPack[Edition] = DataPack(
    "companion.games.key_market", Edition.from_json,
    {"goods": GOODS, "resources": RESOURCES, "shapes": SHAPES, "sides": SIDES, "levels": LEVELS,
     "higher_levels": LEVELS[1:], "ability_values": ABILITY_VALUES})
"""Key Market's printed data pack (its schema: ``data/schema.json``)."""


def shipped_edition() -> Edition:
    """The edition of the shipped (provisional) data pack."""
    return DATA.load(DATA.shipped())
