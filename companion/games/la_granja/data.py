"""La Granja's printed data (spec 8.1): cards, market, buildings, siesta track, roof markers, prices.

The rulebook lacks all of it, so the companion ships a placeholder data pack whose sections say
``"provisional": true`` (a section without the flag counts as provisional). A table that has transcribed its box
saves the same format as ``la-granja-edition.json`` in the data folder, and new games use it (the game's
``DataPack``, checked against ``data/schema.json`` first).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.datapack import parse_json, read_json_file
from companion.core.messages import Message, Text, msg

CROPS: tuple[str, ...] = ("olive", "grain", "grape")
RESOURCES: tuple[str, ...] = (*CROPS, "pig")
UPGRADED: tuple[str, ...] = ("food", "wine", "meat")
GOODS: tuple[str, ...] = (*RESOURCES, *UPGRADED)
"""What lies in a farm's storage or sty (counts per player)."""
FARM_GOODS: tuple[str, ...] = ("silver", "vp", *GOODS)
"""The nine kinds of farm good (spec 1.9); a trade good is not one (A-08)."""
SYMBOLS: tuple[str, ...] = (*FARM_GOODS, "trade")
"""What a building row or a cart may ask for."""
UPGRADE_TO = {"olive": "food", "grain": "food", "grape": "wine", "pig": "meat"}
BUILDINGS: tuple[str, ...] = ("handelshaus", "feinkost", "gemuese", "wagner", "gemischt", "fleischer")
BLUE_CRAFTS = ("handelshaus", "feinkost", "gemuese")
ROOF_EFFECTS = ("olive", "grape", "grain_or_olive", "crop", "two_crops", "pig", "upgrade", "delivery", "card", "vp",
                "silver", "refresh", "siesta1", "siesta2")
PHASES = ("farm", "yield", "transport", "scoring")
SECTIONS = ("cards", "market", "buildings", "siesta", "roof_markers", "roof_slots", "prices", "donkeys")
"""The sections every pack has (``farm`` is optional); the schema: ``data/schema.json``."""

USER_EDITION_FILE = "la-granja-edition.json"
"""The installed pack's name in a data folder (the schema's ``file``)."""
HEX_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True, slots=True)
class Card:
    """One farm card's four edges (spec 1.5, 7)."""

    id: int
    field: str
    cart_symbols: tuple[str, ...]
    cart_vp: int
    income: tuple[tuple[str, int], ...]
    grey_rows: int
    sty: int
    helper_name: str
    helper_text: str
    helper_hand_limit: int
    sell_field_crops: bool
    roof_slots: int


@dataclass(frozen=True, slots=True)
class Space:
    """A market space: its value, whether an X blocks it for 2 and 3 players, its neighbours."""

    id: str
    value: int
    x: bool
    neighbours: tuple[int, ...]
    q: int = 0
    r: int = 0

    def distance(self, other: Space) -> int:
        """Hex steps between two spaces (axial coordinates)."""
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True, slots=True)
class Building:
    """A craft building: ``name`` as the German edition prints it, ``name_en`` the English edition's (the pages
    name it from the catalogs, ``lg.building.<key>``, in their language)."""

    key: str
    name: str
    die: int
    row: tuple[str, ...]
    name_en: str = ""


@dataclass(frozen=True, slots=True)
class Roof:
    id: str
    round: int
    effect: str
    phase: str | None


@dataclass(frozen=True)
class Edition:
    """All printed data one game plays with; ``raw`` is the JSON it came from (stored with the game)."""

    name: str
    cards: dict[int, Card]
    spaces: tuple[Space, ...]
    start_spaces: tuple[int, ...]
    buildings: dict[str, Building]
    siesta_vp: tuple[int, ...]
    roofs: dict[str, Roof]
    roof_slot_vp: tuple[int, ...]
    buy: dict[str, int]
    sell: dict[str, int]
    upgrade_cost: dict[str, int]
    hats: dict[int, int]
    extra_deliveries: int
    sty: int
    hand_limit: int
    provisional: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def siesta_top(self) -> int:
        return len(self.siesta_vp) - 1

    def space_index(self, space_id: str) -> int:
        for index, space in enumerate(self.spaces):
            if space.id == space_id:
                return index
        raise MalformedInputError(msg("lg.data.no_space", space=repr(space_id)))

    def warnings(self) -> list[Text]:
        """One sentence while some sections are placeholders, naming them in words."""
        if not self.provisional:
            return []
        return [msg("lg.warning.provisional", sections=[msg(f"lg.section.{s}") for s in self.provisional])]

    @classmethod
    def from_json(cls, data: Any) -> Edition:
        """Read and check a data pack; ``MalformedInputError`` says what is wrong."""
        try:
            return _parse(data)
        except MalformedInputError:
            raise
        except KeyError as error:
            raise MalformedInputError(msg("lg.data.missing_key", key=str(error))) from None
        except (TypeError, ValueError, IndexError, AttributeError) as error:
            raise MalformedInputError(msg("lg.data.malformed", detail=f"{type(error).__name__}: {error}")) from None


def _parse(data: Mapping[str, Any]) -> Edition:
    def fail(reason: Message) -> MalformedInputError:
        return MalformedInputError(msg("lg.data.bad", reason=reason))

    cards: dict[int, Card] = {}
    for raw in data["cards"]["list"]:
        ext = raw.get("extension", {})
        helper = raw.get("helper", {})
        income = tuple(sorted((str(k), int(v)) for k, v in ext.get("income", {}).items()))
        card = Card(int(raw["id"]), str(raw["field"]), tuple(str(s) for s in raw["cart"]["symbols"]),
                    int(raw["cart"]["vp"]), income, int(ext.get("grey_rows", 0)), int(ext.get("sty", 0)),
                    str(helper.get("name", "")), str(helper.get("text", "")), int(helper.get("hand_limit", 0)),
                    bool(helper.get("sell_field_crops", False)), int(helper.get("roof_slots", 0)))
        if card.field not in CROPS or not all(s in SYMBOLS for s in card.cart_symbols) or not 2 <= card.cart_vp <= 6:
            raise fail(msg("lg.data.card_values", card=card.id))
        if any(kind not in (*RESOURCES, "silver", "trade") for kind, _ in income):
            raise fail(msg("lg.data.card_income", card=card.id))
        if card.id in cards:
            raise fail(msg("lg.data.card_twice", card=card.id))
        cards[card.id] = card
    if len(cards) != 66:
        raise fail(msg("lg.data.card_count", count=len(cards)))
    market = data["market"]
    coords = [(int(s["q"]), int(s["r"])) for s in market["spaces"]]
    ids = [str(s["id"]) for s in market["spaces"]]
    if len(set(ids)) != len(ids) or len(set(coords)) != len(coords):
        raise fail(msg("lg.data.market_repeat"))
    at = {c: i for i, c in enumerate(coords)}
    spaces = tuple(
        Space(ids[i], int(s["value"]), bool(s.get("x", False)),
              tuple(sorted(at[(q + dq, r + dr)] for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in at)), q, r)
        for i, (s, (q, r)) in enumerate(zip(market["spaces"], coords)))
    if not all(2 <= s.value <= 6 for s in spaces):
        raise fail(msg("lg.data.market_values"))
    start = tuple(ids.index(str(i)) for i in market["start"])
    if [spaces[i].value for i in start] != [2, 3, 4, 5]:
        raise fail(msg("lg.data.market_start"))
    buildings = {}
    for raw in data["buildings"]["list"]:
        b = Building(str(raw["key"]), str(raw["name"]), int(raw["die"]), tuple(str(s) for s in raw["row"]),
                     str(raw.get("name_en", "")))
        if b.key not in BUILDINGS or not b.row or not all(s in SYMBOLS for s in b.row):
            raise fail(msg("lg.data.building", key=repr(b.key)))
        buildings[b.key] = b
    if set(buildings) != set(BUILDINGS) or sorted(b.die for b in buildings.values()) != [1, 2, 3, 4, 5, 6]:
        raise fail(msg("lg.data.buildings"))
    roofs = {}
    for raw in data["roof_markers"]["list"]:
        r = Roof(str(raw["id"]), int(raw["round"]), str(raw["effect"]), raw.get("phase"))
        if r.effect not in ROOF_EFFECTS or r.phase not in (None, *PHASES) or not 1 <= r.round <= 6:
            raise fail(msg("lg.data.roof", marker=r.id))
        roofs[r.id] = r
    if any(sum(r.round == n for r in roofs.values()) != 4 for n in range(1, 7)):
        raise fail(msg("lg.data.roofs"))
    siesta = tuple(int(v) for v in data["siesta"]["vp"])
    slots = tuple(int(v) for v in data["roof_slots"]["vp"])
    prices = data["prices"]
    hats = {int(k): int(v) for k, v in data["donkeys"]["hats"].items()}
    if sorted(hats) != [1, 2, 3, 4] or len(siesta) < 2 or len(slots) != 5:
        raise fail(msg("lg.data.tracks"))
    farm = data.get("farm", {})
    counts = [*(prices[kind][k] for kind in ("buy", "sell", "upgrade") for k in RESOURCES),
              *(farm.get(k, 0) for k in ("extra_deliveries", "sty", "hand_limit"))]
    if any(int(v) < 0 for v in counts):
        raise fail(msg("lg.data.negative"))
    provisional = tuple(s for s in (*SECTIONS, "farm") if s in data and data[s].get("provisional", True))
    return Edition(
        name=str(data.get("name", "unnamed")), cards=cards, spaces=spaces, start_spaces=start, buildings=buildings,
        siesta_vp=siesta, roofs=roofs, roof_slot_vp=slots,
        buy={k: int(prices["buy"][k]) for k in RESOURCES}, sell={k: int(prices["sell"][k]) for k in RESOURCES},
        upgrade_cost={k: int(prices["upgrade"][k]) for k in RESOURCES}, hats=hats,
        extra_deliveries=int(farm.get("extra_deliveries", 1)), sty=int(farm.get("sty", 2)),
        hand_limit=int(farm.get("hand_limit", 3)), provisional=provisional, raw=data)


def load_edition(path: str | Path | None = None) -> Edition:
    """The data pack at ``path``, or the shipped provisional one."""
    if path is None:
        text = resources.files("companion.games.la_granja").joinpath("data/default-edition.json").read_text("utf-8")
        return Edition.from_json(parse_json(text, "default-edition.json"))
    return Edition.from_json(read_json_file(Path(path)))
