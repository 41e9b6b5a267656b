"""Key Market at the camera: stickers on the territory boards' fields and on the workers, one photo of the territory
read into a snapshot of where the workers stand, and the coming harvest computed from it (docs/key-market-snapshot.md,
"Workers on the territory, from a photo"). The boards' size is printed, not in the text: ``data/camera.json``
(provisional). The geometry is ``companion.vision.printed``'s; what the pieces mean is here.

===========================  ============================================================  ==========
Code                         Component                                                     Kind
===========================  ============================================================  ==========
``KM:F:<board><A|B>:<x><y>``  field (x, y) of large board 1-4, side a or b (0-2, printed)  ``field``
``KM:F:S:<x><y>``             field (x, y) of the small board (2 players)                   ``field``
``KM:W:<set>:<1-9|K>``        worker 1-9 or the keyworker of worker set 1-4                 ``worker``
===========================  ============================================================  ==========

Field stickers are anchors: a board side is found by 3 or more of its fields' stickers, so a worker covering one
does no harm. Marker IDs are the registry's ``markers`` list for Key Market in this order: the large boards' fields
(board, side, row by row), 9 slots for the small board's, then the workers. A worker set is a colour; seat ``n``
plays set ``n`` (the rulebook names no colours).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any

from companion.codes.registry import Component
from companion.core.boards import BoardPhoto
from companion.core.errors import MalformedInputError
from companion.core.messages import msg
from companion.games.key_market.data import GOODS, LEVELS, RESOURCES, SEASONS, SIDES, Cell, Edition
from companion.games.key_market.scoring import CATEGORIES
from companion.games.key_market.territory import SMALL_BOARD
from companion.vision.printed import Frame, PrintedBoardReader, Spot

if TYPE_CHECKING:
    from companion.games.key_market import KeyMarket
    from companion.games.key_market.state import State

GAME = "key-market"
SMALL_SLOTS = 9
"""Marker IDs kept for the small board's fields (the shipped pack has 6)."""
CAMERA_KEYS = ("territory", "season", "weather", "supply", "market")
"""The snapshot's keys for production, beside the final score's (docs/key-market-snapshot.md)."""


def geometry() -> dict[str, Any]:
    """The territory boards' printed geometry (``data/camera.json``, provisional)."""
    data: dict[str, Any] = json.loads(resources.files("companion.games.key_market").joinpath("data", "camera.json")
                                      .read_text(encoding="utf-8"))
    return data


def board_name(board: int, side: str) -> str:
    """``1A`` for side a of large board 1, ``S`` for the small board."""
    return "S" if board == SMALL_BOARD else f"{board}{side.upper()}"


def stickers(spec: Mapping[str, Any], edition: Edition) -> list[Component]:
    """Key Market's components as ``spec`` (its entry in the code registry) allocates and sizes them."""
    prefix, markers = str(spec["prefix"]), [int(m) for m in spec["markers"]]
    field, worker = spec["field"], spec["worker"]

    def make(n: int, code: str, kind: str, key: str, title: str, part: Mapping[str, Any],
             group: int | None = None) -> Component:
        return Component(f"{prefix}:{code}", markers[n], GAME, kind, key, None, group, title, float(part["sticker_mm"]),
                         float(part["component_mm"]), bool(part.get("provisional", True)))

    needed = sum(len(c) for c in edition.boards.values()) + SMALL_SLOTS + int(worker["sets"]) * (int(worker["normal"]) + 1)
    if needed > len(markers):
        raise MalformedInputError(f"code registry: Key Market needs {needed} marker IDs, its list has {len(markers)}")
    made: list[Component] = []
    for (board, side), cells in sorted(edition.boards.items()):
        for c in cells:
            made.append(make(len(made), f"F:{board_name(board, side)}:{c.x}{c.y}", "field", f"{c.x}{c.y}",
                             f"board {board}{side} field {c.x},{c.y}", field, board))
    if len(edition.small_board) > SMALL_SLOTS:
        raise MalformedInputError(f"code registry: at most {SMALL_SLOTS} small-board fields, not "
                                  f"{len(edition.small_board)}")
    first = len(made)
    for n, c in enumerate(edition.small_board):
        made.append(make(first + n, f"F:S:{c.x}{c.y}", "field", f"{c.x}{c.y}", f"small board field {c.x},{c.y}",
                         field, SMALL_BOARD))
    first += SMALL_SLOTS
    normal = int(worker["normal"])
    for s in range(int(worker["sets"])):
        for n, key in enumerate([*(str(i + 1) for i in range(normal)), "K"]):
            title = f"keyworker set {s + 1}" if key == "K" else f"worker {key} set {s + 1}"
            made.append(make(first + s * (normal + 1) + n, f"W:{s + 1}:{key}", "worker", key, title, worker, s + 1))
    return made


class KeyMarketBoards(PrintedBoardReader):
    """The whole territory on one photo: each board side found by its fields' stickers, each worker on the field
    it stands on. Guild members, goods and gold are given by hand (``--hidden``), the season and the weather
    markers for the whole table (``--given``)."""

    game = GAME
    tile_kinds: frozenset[str] = frozenset()
    standing_kinds = frozenset({"worker"})
    reported: Mapping[str, str] = {}
    hidden_name = "guild members"
    hidden_note = ("a camera cannot see the guild tiles and the screens: give them with --hidden NAME:2=J,1=M sheep,"
                   "gold=4,fish=2 for the guild bonuses and the score")
    score_sources = tuple((category, f"km.camera.source.{category}") for category in CATEGORIES)
    difference_ids = {"workers_only_on_photo": "km.camera.workers_photo", "workers_only_in_game": "km.camera.workers_game"}
    summary_id = "km.camera.summary"
    alone_note_id = "km.camera.alone_note"
    whole_table = True
    not_found = msg("km.camera.no_board")

    def __init__(self, rules: KeyMarket) -> None:
        self.rules = rules

    @cached_property
    def _frames(self) -> tuple[tuple[Frame, int, str], ...]:
        g = geometry()
        pitch, corner = float(g["field_mm"]), float(g["sticker_from_corner_mm"])
        edition = self.rules.data
        sides = [(b, s, cells) for (b, s), cells in sorted(edition.boards.items())]
        sides.append((SMALL_BOARD, SIDES[0], edition.small_board))
        out = []
        for board, side, cells in sides:
            name = board_name(board, side)
            anchors = {f"KM:F:{name}:{c.x}{c.y}": (c.x * pitch + corner, c.y * pitch + corner) for c in cells}
            spots = tuple(Spot(f"{c.x}{c.y}", ((c.x + 0.5) * pitch, (c.y + 0.5) * pitch), (pitch / 2, pitch / 2),
                               self.standing_kinds) for c in cells)
            size = ((max(c.x for c in cells) + 1) * pitch, (max(c.y for c in cells) + 1) * pitch)
            out.append((Frame(name, anchors, spots, size), board, side))
        return tuple(out)

    def frames(self) -> Sequence[Frame]:
        return [frame for frame, _, _ in self._frames]

    def field_of(self, at: tuple[int, int]) -> dict[str, Any]:
        """Board, side and printed cell (x, y) of the field a placed worker stands on."""
        _, board, side = self._frames[at[0]]
        label = self.spot(at)[1].label
        return {"board": board, "side": side, "field": [int(label[0]), int(label[1])]}

    def territory(self, board: BoardPhoto) -> dict[str, Any]:
        """The boards the photo shows (those with a worker) and every worker on a field: its set, which one, and the
        field."""
        workers = []
        for piece in sorted(board.workers, key=lambda p: p.code):
            component_set = int(piece.code.split(":")[2])
            workers.append({"set": component_set, "worker": piece.key, **self.field_of(piece.at)})
        boards = sorted({(w["board"], w["side"]) for w in workers})
        return {"boards": [{"board": b, "side": s} for b, s in boards], "workers": workers}

    def player(self, name: str, board: BoardPhoto, hidden: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A player with what ``parse_hidden`` read; their workers are in the territory (``table``)."""
        return {"name": name, **dict(hidden or {})}

    def snapshot(self, players: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return {"game": GAME, "players": list(players)}

    def table(self, names: Sequence[str], board: BoardPhoto, hidden: Mapping[str, Mapping[str, Any]],
              given: Mapping[str, Any]) -> dict[str, Any]:
        """The snapshot of one photo of the territory: seat ``n`` plays worker set ``n``."""
        territory = self.territory(board)
        sets = sorted({w["set"] for w in territory["workers"]})
        if sets and sets[-1] > len(names):
            raise MalformedInputError(msg("km.camera.unnamed_set", set=sets[-1], players=len(names)))
        return {"game": GAME, **given, "territory": territory,
                "players": [self.player(name, board, hidden.get(name)) for name in names]}

    def parse_hidden(self, text: str) -> dict[str, Any]:
        """``2=J,1=M sheep,gold=4,fish=2``: guild members (guild=level [column]), gold and goods behind the screen."""
        out: dict[str, Any] = {}
        for pair in (p.strip() for p in text.split(",") if p.strip()):
            key, _, value = (part.strip() for part in pair.partition("="))
            if key.isdigit():
                if value.split()[:1] and value.split()[0] in LEVELS:
                    out.setdefault("guilds", {})[key] = value
                    continue
                raise MalformedInputError(msg("km.camera.hidden_guild", pair=pair))
            if not value.isdigit():
                raise MalformedInputError(msg("km.camera.hidden_count", pair=pair))
            if key == "gold":
                out["gold"] = int(value)
            elif key in GOODS:
                out.setdefault("goods", {})[key] = int(value)
            else:
                raise MalformedInputError(msg("km.camera.hidden_key", key=key))
        return out

    def parse_table(self, text: str) -> dict[str, Any]:
        """``season=spring,square=fish,round=veg``: the season and the goods its face-up weather markers show."""
        out: dict[str, Any] = {}
        for pair in (p.strip() for p in text.split(",") if p.strip()):
            key, _, value = (part.strip().lower() for part in pair.partition("="))
            if key == "season" and value in SEASONS:
                out["season"] = value
            elif key in ("square", "round") and value in RESOURCES:
                out.setdefault("weather", {})[key] = value
            else:
                raise MalformedInputError(msg("km.camera.table_key", pair=pair))
        return out

    def compare(self, board: BoardPhoto, state: State, seat: int) -> tuple[dict[str, Any], dict[str, list[str]],
                                                                            dict[str, Any]]:
        """The seat's workers on the photo against the game's: fields named ``1A:02`` (board, side, cell)."""
        snapshot = self.rules.snapshot(state)
        seen = {_name(w) for w in self.territory(board)["workers"] if w["set"] == seat + 1}
        land = _fields(state)
        kept = {f"{board_name(land[pos].board, land[pos].side)}:{land[pos].cell[0]}{land[pos].cell[1]}"
                for _, pos in state.seat(seat).fields()}
        differs = {"workers_only_on_photo": sorted(seen - kept), "workers_only_in_game": sorted(kept - seen)}
        return snapshot["players"][seat], differs, snapshot

    def screened(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """Gold and goods lie behind the screens: only the open parts before the end."""
        hidden = ("gold", "pairs", "master_abilities")
        return {**row, **{k: None for k in hidden if k in row}, "total": None, "rank": None, "winner": None,
                "items": None}


def field_place(state: State, component: Component) -> tuple[int, int] | None:
    """Where the field of a field sticker (``KM:F:1A:02``) lies on the territory, as moves name it; None while its
    board side is not on the table."""
    name = component.code.split(":")[2]
    for pos, field in _fields(state).items():
        if board_name(field.board, field.side) == name and f"{field.cell[0]}{field.cell[1]}" == component.key:
            return pos
    return None


def _name(worker: Mapping[str, Any]) -> str:
    return f"{board_name(worker['board'], worker['side'])}:{worker['field'][0]}{worker['field'][1]}"


def _fields(state: State) -> dict[tuple[int, int], Any]:
    from companion.games.key_market.rules import land

    return dict(land(state).fields) if state.placements else {}


def coming_harvest(snapshot: Mapping[str, Any], edition: Edition, options: Mapping[str, str] | None = None
                   ) -> dict[str, Any]:
    """Each player's production (spec 3.4) from the workers a snapshot's ``territory`` puts on fields, its ``season``
    and ``weather``, the players' guild members, and ``supply``/``market`` if given (else a full supply and an
    empty market): per player name the fields with base and bonuses and their reasons, goods, gold, shortages."""
    from companion.games.key_market import harvest_json
    from companion.games.key_market.market import GOODS_IN_PLAY
    from companion.games.key_market.production import Weather, Worked, produce
    from companion.games.key_market.snapshot import holdings

    season = snapshot.get("season")
    if season not in SEASONS:
        raise MalformedInputError(msg("km.camera.no_season", seasons=list(SEASONS)))
    weather = snapshot.get("weather") or {}
    if not isinstance(weather, Mapping) or not set(weather) <= {"square", "round"} \
            or not all(v in RESOURCES for v in weather.values()):
        raise MalformedInputError(msg("km.camera.weather", goods=list(RESOURCES)))
    if season != "winter" and len(weather) != 2:
        raise MalformedInputError(msg("km.camera.weather", goods=list(RESOURCES)))
    players = snapshot.get("players", [])
    counts = {g: GOODS_IN_PLAY[max(2, min(4, len(players)))] for g in GOODS}
    supply = dict(_goods(snapshot.get("supply"), "supply") or counts)
    market = _goods(snapshot.get("market"), "market") or {}
    territory = snapshot.get("territory") or {}
    by_set: dict[int, list[Worked]] = {}
    for w in territory.get("workers", []) if isinstance(territory, Mapping) else ():
        cell = _cell(edition, w)
        by_set.setdefault(int(w["set"]), []).append(Worked(_name(w), cell.shape, cell.good, w["worker"] == "K"))
    out: dict[str, Any] = {}
    for seat, raw in enumerate(players):
        held = holdings(edition, raw, seat)
        harvest = produce(edition, by_set.get(seat + 1, []), Weather(str(season), weather.get("square"),
                                                                        weather.get("round")),
                          held.guilds, supply, market, options)
        supply, market = harvest.supply, harvest.market
        out[held.name] = harvest_json(harvest)
    return out


def _cell(edition: Edition, worker: Any) -> Cell:
    """The printed field a snapshot's worker stands on; ``MalformedInputError`` for one the data pack lacks."""
    try:
        board, side, (x, y) = int(worker["board"]), str(worker["side"]), worker["field"]
        cells = edition.small_board if board == SMALL_BOARD else edition.boards[(board, side)]
        return next(c for c in cells if (c.x, c.y) == (int(x), int(y)))
    except (KeyError, TypeError, ValueError, StopIteration):
        raise MalformedInputError(msg("km.camera.worker", worker=json.dumps(worker))) from None


def _goods(raw: Any, what: str) -> dict[str, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not set(raw) <= set(GOODS) \
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw.values()):
        raise MalformedInputError(msg("km.camera.goods", what=what, goods=list(GOODS)))
    return {str(k): int(v) for k, v in raw.items()}
