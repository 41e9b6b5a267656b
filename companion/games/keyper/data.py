"""Keyper's printed data (spec 7 and 8.1): the tile lists, animal housing, fairs, boats, country boards, player
board and keep tile, read from a data pack (``data/schema.json``).

The rulebook text names every tile and states most of its points, but the icons, the costs, the boards and the
fairs were lost (spec 8.1, D1-D15). The shipped pack holds placeholders for those, each section marked
``"provisional": true`` with its ``source``; a table transcribes its box once (``companion data keyper``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.datapack import DataPack
from companion.core.errors import MalformedInputError
from companion.core.messages import Message, Text, msg

SEASONS: tuple[str, ...] = ("spring", "summer", "autumn", "winter")
FAIR_SEASONS: tuple[str, ...] = SEASONS[:3]
MOST_PLAYERS = 4
"""Keyper's largest table: each season deals a private fair to every player, so each season needs this many."""
"""The seasons with a private fair (spec 2.2 item 8)."""
AREAS: tuple[str, ...] = ("farm", "village")
KEYPLE_COLOURS: tuple[str, ...] = ("blue", "orange", "green", "brown", "black", "grey", "white")
FIELD_COLOURS: tuple[str, ...] = ("blue", "orange", "green", "brown", "black", "grey", "none")
RAW: tuple[str, ...] = ("clay", "log", "rock")
FINISHED: tuple[str, ...] = ("brick", "timber", "stone")
FIN_TO_RAW: dict[str, str] = dict(zip(FINISHED, RAW))
GEMS: tuple[str, ...] = ("emerald", "gold", "ruby", "sapphire")
ANIMALS: tuple[str, ...] = ("chicken", "cow", "deer", "goat", "horse", "pig", "sheep", "boar")
GOODS: tuple[str, ...] = (*RAW, *FINISHED, "wheat", *GEMS)
"""Everything kept in a player's stores (spec 1.2): raw, finished, wheat, gems."""
RESOURCES: tuple[str, ...] = (*GOODS, *ANIMALS)
def colour(name: str) -> Text:
    """A keyple's colour in words (``kp.colour.<name>``)."""
    return Message(f"kp.colour.{name}") if name in KEYPLE_COLOURS else name


def piece(name: str) -> Text:
    """A resource or animal in words (``kp.piece.<name>``); other notation as it is."""
    return Message(f"kp.piece.{name}") if name in RESOURCES else name


COST_SYMBOLS: tuple[str, ...] = (*GOODS, "raw3", "fin3", "raw_any", "fin_any", "gem_any")
"""A cost symbol: a specific piece, a 3-colour symbol (any of the class, never wheat), a white symbol (any of the
class, wheat allowed for raw and finished) or any gem (spec 1.2)."""
KEEP_YIELDS: tuple[str, ...] = GOODS
TILE_SETS: tuple[str, ...] = ("home", "spring", "later")
FIELD_KINDS: tuple[str, ...] = ("keep", "river", "tiles", "build", "discount", "upgrade", "animal", "res", "gem",
                                "process", "trade_raw", "trade_fin")
FIELD_PARAMS: dict[str, tuple[str, ...]] = {
    "animal": ANIMALS, "res": (*RAW, "wheat"), "gem": GEMS, "process": FINISHED,
}
FIELD_CODES: tuple[str, ...] = tuple(
    f"{kind}{':' + param if param else ''}@{colour}"
    for kind in FIELD_KINDS for param in FIELD_PARAMS.get(kind, ("",)) for colour in FIELD_COLOURS)
"""A field on a country board as text: ``kind[:param]@colour`` (``res:log@brown``, ``tiles@none``, ``keep@none``)."""
FIELDS_PER_LAYOUT = 15
"""Every configuration shows 15 fields, the river field and the keep field included (spec 1.3, L518)."""
SECTIONS: tuple[str, ...] = ("home_tiles", "spring_tiles", "later_tiles", "housing", "fairs", "boats", "boards",
                             "player_board", "keep_tile")
TILE_COUNTS = {"home_tiles": 12, "spring_tiles": 21, "later_tiles": 27}
"""Spec 1.3: 12 home tiles per player (6 farm, 6 village), 21 spring and 27 other country tiles."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One building tile as printed (spec 7): its set, area, whether it needs a keyple, flat VP and build cost."""

    id: str
    name: str
    set: str
    area: str
    activate: bool
    vp: tuple[int, int]
    """Flat VP on the base and the upgraded side (formula points come on top: ``tiles.RULES``)."""
    cost: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Housing:
    """An animal-housing farm tile: the species it holds and how many animals (spec 7.5)."""

    tile: str
    species: tuple[str, ...]
    capacity: int


@dataclass(frozen=True, slots=True)
class Fair:
    """A fair tile: a private fair (one side) or a winter fair (spring/summer and autumn/winter sides)."""

    id: str
    season: str
    """``spring``/``summer``/``autumn`` for a private fair, ``winter`` for a winter fair tile."""
    requires: tuple[tuple[str, int], ...]
    vp: int
    late_requires: tuple[tuple[str, int], ...] = ()
    late_vp: int = 0


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a country-board configuration."""

    kind: str
    param: str
    colour: str

    @classmethod
    def parse(cls, code: str) -> Field:
        head, _, colour = code.partition("@")
        kind, _, param = head.partition(":")
        return cls(kind, param, colour)

    def __str__(self) -> str:
        return f"{self.kind}{':' + self.param if self.param else ''}@{self.colour}"


@dataclass(frozen=True, slots=True)
class Layout:
    """One side (fold) of a country board in one season."""

    board: int
    season: str
    option: str
    fields: tuple[Field, ...]

    @property
    def key(self) -> str:
        return f"{self.board}/{self.season}/{self.option}"

    def colour_count(self, colour: str) -> int:
        return sum(1 for f in self.fields if f.colour == colour)


@dataclass(frozen=True)
class Edition:
    """All printed data one Keyper game plays with; ``raw`` is the JSON it came from (stored with the game)."""

    name: str
    tiles: dict[str, Tile]
    housing: dict[str, Housing]
    fairs: dict[str, Fair]
    boats: dict[str, dict[str, tuple[str, ...]]]
    """Boat id -> season -> the two resource types it shows with that season's side up (D6)."""
    layouts: dict[str, Layout]
    farm_grid: tuple[int, int]
    village_grid: tuple[int, int]
    upgrade_cost: dict[str, tuple[str, ...]]
    build_discount: int
    keep_tile: dict[str, tuple[str, ...]]
    provisional: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    derived: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """What the rules work out once from this data and keep (the fields of each configuration, moves by key)."""

    @property
    def farm_plots(self) -> int:
        return self.farm_grid[0] * self.farm_grid[1]

    @property
    def village_plots(self) -> int:
        return self.village_grid[0] * self.village_grid[1]

    def plots(self, area: str) -> int:
        return self.farm_plots if area == "farm" else self.village_plots

    def grid(self, area: str) -> tuple[int, int]:
        """Rows and columns of an area's plots (plot ``n``, 1-based, is row ``(n-1)//cols``, column ``(n-1)%cols``)."""
        return self.farm_grid if area == "farm" else self.village_grid

    def tile_ids(self, tile_set: str) -> list[str]:
        return [t.id for t in self.tiles.values() if t.set == tile_set]

    def options(self, board: int, season: str) -> list[Layout]:
        """The configurations board ``board`` may show in ``season``."""
        return [lay for lay in self.layouts.values() if lay.board == board and lay.season == season]

    def warnings(self) -> list[Text]:
        """One sentence while some sections are placeholders, naming them."""
        if not self.provisional:
            return []
        return [msg("kp.warning.provisional", sections=[Message("kp.section." + s) for s in self.provisional])]

    @classmethod
    def from_json(cls, data: Any) -> Edition:
        """Read and check a data pack (already checked against the schema); ``MalformedInputError`` says what is
        wrong with what the values mean."""
        try:
            return _parse(data)
        except MalformedInputError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise MalformedInputError(msg("kp.data.malformed", reason=f"{type(error).__name__}: {error}")) from None


def _fail(reason: str, **params: Any) -> MalformedInputError:
    """A data pack refused: ``reason`` names the message ``kp.data.<reason>``."""
    return MalformedInputError(Message("kp.data." + reason, params))


def _requires(raw: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((str(k), int(v)) for k, v in raw.items() if int(v) > 0))


def _parse(data: Mapping[str, Any]) -> Edition:
    from companion.games.keyper.tiles import RULES

    tiles: dict[str, Tile] = {}
    for section, tile_set in (("home_tiles", "home"), ("spring_tiles", "spring"), ("later_tiles", "later")):
        rows = data[section]["list"]
        if len(rows) != TILE_COUNTS[section]:
            raise _fail("tile_count", section=section, n=len(rows), expected=TILE_COUNTS[section])
        for row in rows:
            vp = tuple(int(v) for v in row["vp"])
            tile = Tile(str(row["id"]), str(row["name"]), tile_set, str(row["area"]), bool(row["activate"]),
                        (vp[0], vp[1]), tuple(str(c) for c in row["cost"]))
            if len(vp) != 2 or min(vp) < 0:
                raise _fail("tile_vp", tile=tile.id)
            if tile.id in tiles:
                raise _fail("tile_twice", tile=tile.id)
            tiles[tile.id] = tile
    home_areas = sorted(t.area for t in tiles.values() if t.set == "home")
    if home_areas != ["farm"] * 6 + ["village"] * 6:
        raise _fail("home_areas")
    unknown = sorted(set(tiles) ^ set(RULES))
    if unknown:
        raise _fail("tile_unknown", tiles=", ".join(unknown))
    housing: dict[str, Housing] = {}
    for row in data["housing"]["list"]:
        h = Housing(str(row["tile"]), tuple(str(s) for s in row["species"]), int(row["capacity"]))
        if h.tile not in tiles or tiles[h.tile].area != "farm" or not h.species or h.capacity < 1:
            raise _fail("housing", tile=h.tile)
        housing[h.tile] = h
    fairs: dict[str, Fair] = {}
    for row in data["fairs"]["private"]:
        f = Fair(str(row["id"]), str(row["season"]), _requires(row["requires"]), int(row["vp"]))
        if f.season not in FAIR_SEASONS or f.id in fairs:
            raise _fail("fair", fair=f.id)
        fairs[f.id] = f
    for row in data["fairs"]["winter"]:
        f = Fair(str(row["id"]), "winter", _requires(row["early"]), int(row["early_vp"]), _requires(row["late"]),
                 int(row["late_vp"]))
        if f.id in fairs:
            raise _fail("fair", fair=f.id)
        fairs[f.id] = f
    if sum(1 for f in fairs.values() if f.season == "winter") != 8:
        raise _fail("winter_fairs")
    if any(sum(1 for f in fairs.values() if f.season == season) < MOST_PLAYERS for season in FAIR_SEASONS):
        raise _fail("private_fairs", n=MOST_PLAYERS)
    boats: dict[str, dict[str, tuple[str, ...]]] = {}
    for row in data["boats"]["list"]:
        sides = {s: tuple(str(r) for r in row[s]) for s in SEASONS}
        if any(len(types) != 2 or len(set(types)) != 2 for types in sides.values()) or str(row["id"]) in boats:
            raise _fail("boat", boat=str(row["id"]))
        boats[str(row["id"])] = sides
    if len(boats) != 6:
        raise _fail("boat_count", n=len(boats))
    layouts: dict[str, Layout] = {}
    for row in data["boards"]["layouts"]:
        lay = Layout(int(row["board"]), str(row["season"]), str(row["option"]),
                     tuple(Field.parse(str(c)) for c in row["fields"]))
        kinds = [f.kind for f in lay.fields]
        if (len(lay.fields) != FIELDS_PER_LAYOUT or kinds.count("keep") != 1 or kinds.count("river") != 1
                or lay.key in layouts or not 1 <= lay.board <= 4):
            raise _fail("layout", layout=lay.key)
        layouts[lay.key] = lay
    for board in range(1, 5):
        for season in SEASONS:
            if not any(lay.board == board and lay.season == season for lay in layouts.values()):
                raise _fail("layout_missing", board=board, season=season)
    pb = data["player_board"]
    farm = (int(pb["farm_rows"]), int(pb["farm_columns"]))
    village = (int(pb["village_rows"]), int(pb["village_columns"]))
    if farm[0] * farm[1] != 8 or village[0] * village[1] != 12:
        raise _fail("plots")
    keep = {str(k): tuple(str(r) for r in v) for k, v in data["keep_tile"]["yields"].items()}
    if set(keep) != set(KEYPLE_COLOURS) or not all(keep.values()):
        raise _fail("keep_tile")
    provisional = tuple(s for s in SECTIONS if data[s].get("provisional", True))
    return Edition(
        name=str(data.get("name", "unnamed")), tiles=tiles, housing=housing, fairs=fairs, boats=boats,
        layouts=layouts, farm_grid=farm, village_grid=village,
        upgrade_cost={"farm": tuple(pb["upgrade_cost_farm"]), "village": tuple(pb["upgrade_cost_village"])},
        build_discount=int(pb["build_discount"]), keep_tile=keep, provisional=provisional, raw=data)


CHOICES: dict[str, tuple[str, ...]] = {
    "areas": AREAS, "cost_symbols": COST_SYMBOLS, "animals": ANIMALS, "fair_seasons": FAIR_SEASONS,
    "resources": RESOURCES, "goods": GOODS, "seasons": SEASONS, "field_codes": FIELD_CODES, "keep_yields": KEEP_YIELDS,
}
"""The lists the schema's columns name (``data/schema.json``)."""


def edition_pack() -> DataPack[Edition]:
    """The data pack read as an ``Edition`` (the game's own ``DataPack`` builds the game on it)."""
    return DataPack("companion.games.keyper", Edition.from_json, CHOICES)


def load_edition(raw: Any | None = None) -> Edition:
    """The data pack ``raw`` (parsed JSON) checked and read, or the shipped provisional one."""
    pack = edition_pack()
    return pack.load(pack.shipped() if raw is None else raw)
