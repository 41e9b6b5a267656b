"""Score a Key Harvest table from a snapshot: the JSON a camera or a person reads off the table.

The format is described in docs/key-harvest-snapshot.md. Tiles may carry their own hex
coordinates (``"at"``), which win over the layout; groups are found from the coordinates of
each player's own tiles, so a camera-read board scores without the printed layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.errors import MalformedInputError, UnknownGameError
from companion.core.messages import Message, Text, msg
from companion.core.options import Options
from companion.games import find_game
from companion.games.key_harvest.board import Coord, Crop, Layout, load_layout, neighbour_masks
from companion.games.key_harvest.scoring import WORKER_VALUES, ScoringBoard, score_boards
from companion.games.key_harvest.variants import VARIANT_FLAGS

GAME = "key-harvest"
LABOURERS = "ABCDEF"
TOWNSFOLK = "GHIJKL"
EVENTS = "MNOPQRSTUVWXYZ"
STONES_PER_CROP = 12
FIELD_TILES = 56
EVENT_TILES = 14
WAREHOUSE_SIZE = 2
LAND_OFFICE_SIZE = 6
TRACK_SIZE = 10

TOP_KEYS = ("game", "players", "warehouses", "land_office", "event_track", "bag", "options")
PLAYER_KEYS = ("name", "tiles", "workers", "stones")
TILE_KEYS = ("label", "crop", "harvested", "at")
WORKER_KEYS = ("worker", "at", "label")
WAREHOUSE_KEYS = ("label", "crop", "bid")
BAG_KEYS = ("field_tiles", "events")


@dataclass(frozen=True)
class Snapshot:
    """A checked snapshot: one scoring board per player in seat order, and how it was placed."""

    boards: tuple[ScoringBoard, ...]
    provisional_layout: bool
    """True if some tile or worker was placed by its label through the provisional layout."""
    layout: Layout | None
    """The layout consulted (for placement, or for checks if not provisional); None if unused."""
    options: Mapping[str, str]
    """The snapshot's own ``"options"``, as strings (each name and value already checked)."""


ONE_BOARD_WARNING = msg("kh.snap.one_board")


def snapshot_options(given: Mapping[str, str] | None = None) -> Options:
    """Key Harvest's variant flags: the engine's if it is registered, else the shared tuple."""
    try:
        game = find_game(GAME)
    except (ImportError, UnknownGameError):
        return Options(VARIANT_FLAGS, given)
    return game.options(given)


def read_snapshot(data: Any, layout: Layout | None = None) -> Snapshot:
    """Check a parsed snapshot and turn it into scoring boards; ``MalformedInputError`` if unsound."""
    return _Reader(layout if layout is not None else load_layout()).read(data)


def score_snapshot(data: Any, options: Mapping[str, str] | None = None, layout: Layout | None = None) -> dict[str, Any]:
    """The final score of a snapshot, JSON-ready; ``options`` win over the snapshot's own."""
    snapshot = read_snapshot(data, layout)
    chosen = snapshot_options({**snapshot.options, **dict(options or {})})
    rows = score_boards(snapshot.boards, chosen)
    result: dict[str, Any] = {"game": GAME}
    warnings: list[Text] = []
    if snapshot.layout is not None:
        used = snapshot.layout
        result["layout"] = {"name": used.name, "provisional": used.provisional, "note": used.note}
        if snapshot.provisional_layout:
            warnings.append(msg("kh.snap.provisional_layout", name=used.name))
    result["options"] = dict(chosen)
    result["players"] = rows
    if len(rows) == 1:
        warnings.append(ONE_BOARD_WARNING)
    if warnings:
        result["warnings"] = warnings
    return result


def _fail(where: str, reason: Text) -> MalformedInputError:
    """``where`` (a path into the snapshot, e.g. ``players[0].tiles[2]``) and what is wrong there, a message."""
    return MalformedInputError(msg("kh.snap.at", where=where, reason=reason))


def _object(value: Any, where: str, keys: Sequence[str], required: Sequence[str]) -> dict[str, Any]:
    """``value`` as a dict with only ``keys`` and every one of ``required``."""
    if not isinstance(value, dict):
        raise _fail(where, msg("kh.snap.not_object", kind=_kind(value)))
    for key in value:
        if key not in keys:
            raise _fail(where, msg("kh.snap.unknown_key", key=repr(key), expected=", ".join(keys)))
    for key in required:
        if key not in value:
            raise _fail(where, msg("kh.snap.missing_key", key=repr(key)))
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, msg("kh.snap.not_list", kind=_kind(value)))
    return value


def _count(value: Any, where: str) -> int:
    """A non-negative whole number (JSON booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, msg("kh.snap.not_count", value=repr(value)))
    if value < 0:
        raise _fail(where, msg("kh.snap.not_count", value=repr(value)))
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, msg("kh.snap.not_text", value=repr(value)))
    return value.strip()


def _coord(value: Any, where: str) -> Coord:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(n, bool) or not isinstance(n, int) for n in value)
    ):
        raise _fail(where, msg("kh.snap.not_coord", value=repr(value)))
    return (value[0], value[1])


def _crop(value: Any, where: str) -> Crop:
    if not isinstance(value, str):
        raise _fail(where, msg("kh.snap.not_crop", value=repr(value)))
    try:
        return Crop.parse(value)
    except MalformedInputError as exc:
        raise _fail(where, exc.text) from None


def _stones(value: Any, where: str) -> tuple[int, int, int, int, int]:
    """Stone counts by crop (missing crops are 0) as a tuple in ``Crop`` order."""
    if not isinstance(value, dict):
        raise _fail(where, msg("kh.snap.not_stones", kind=_kind(value)))
    counts = [0] * 5
    seen: set[Crop] = set()
    for key, count in value.items():
        crop = _crop(key, f"{where}.{key}")
        if crop in seen:
            raise _fail(f"{where}.{key}", msg("kh.snap.crop_twice", crop=crop.key))
        seen.add(crop)
        counts[crop] = _count(count, f"{where}.{key}")
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def _kind(value: Any) -> Text:
    """What a JSON value is, in words ("an object"; other values as written)."""
    kinds = {dict: msg("kh.snap.kind.object"), list: msg("kh.snap.kind.list"), str: msg("kh.snap.kind.string"),
             bool: msg("kh.snap.kind.boolean")}
    return kinds.get(type(value), repr(value))


def _at(coord: Coord) -> str:
    return f"[{coord[0]}, {coord[1]}]"


class _Reader:
    """One pass over a snapshot, remembering where each tile and townsfolk has been seen."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.placed_by_label = False
        self.places: dict[str, Message] = {}  # tile label -> where it lies ("on Alice's board", ...)
        self.townsfolk: dict[str, str] = {}  # townsfolk letter -> owner's name
        self.table_stones = [0] * 5
        self.field_tiles = 0

    def read(self, data: Any) -> Snapshot:
        top = _object(data, "snapshot", TOP_KEYS, ("game", "players"))
        if top["game"] != GAME:
            raise _fail("game", msg("kh.snap.wrong_game", game=repr(GAME), given=repr(top["game"])))
        players = _list(top["players"], "players")
        if not 1 <= len(players) <= 4:
            raise _fail("players", msg("kh.snap.player_count", n=len(players)))
        names: list[str] = []
        boards = tuple(self.player(player, f"players[{i}]", names) for i, player in enumerate(players))
        if "warehouses" in top:
            self.warehouses(top["warehouses"], names)
        if "land_office" in top:
            self.land_office(top["land_office"])
        events = self.event_track(top["event_track"]) if "event_track" in top else 0
        if "bag" in top:
            bag = _object(top["bag"], "bag", BAG_KEYS, ())
            self.field_tiles += _count(bag.get("field_tiles", 0), "bag.field_tiles")
            events += _count(bag.get("events", 0), "bag.events")
        if events > EVENT_TILES:
            raise _fail("table", msg("kh.snap.too_many_events", n=events, most=EVENT_TILES))
        if self.field_tiles > FIELD_TILES:
            raise _fail("table", msg("kh.snap.too_many_tiles", n=self.field_tiles, most=FIELD_TILES))
        for crop in Crop:
            if self.table_stones[crop] > STONES_PER_CROP:
                raise _fail("table", msg("kh.snap.too_many_stones", n=self.table_stones[crop], crop=crop.key,
                                         most=STONES_PER_CROP))
        options = self.options(top["options"]) if "options" in top else {}
        used = self.placed_by_label or not self.layout.provisional
        return Snapshot(
            boards=boards,
            provisional_layout=self.placed_by_label and self.layout.provisional,
            layout=self.layout if used else None,
            options=options,
        )

    def player(self, data: Any, where: str, names: list[str]) -> ScoringBoard:
        player = _object(data, where, PLAYER_KEYS, PLAYER_KEYS)
        name = _text(player["name"], f"{where}.name")
        if name in names:
            raise _fail(f"{where}.name", msg("kh.snap.name_twice", name=repr(name)))
        names.append(name)
        board = msg("kh.snap.on_board", name=name)
        tile_at: dict[Coord, str] = {}
        coords: list[Coord] = []
        for i, data_tile in enumerate(_list(player["tiles"], f"{where}.tiles")):
            tw = f"{where}.tiles[{i}]"
            tile = _object(data_tile, tw, TILE_KEYS, ("label", "crop", "harvested"))
            label = self.label(tile["label"], f"{tw}.label")
            crop = _crop(tile["crop"], f"{tw}.crop")
            if not isinstance(tile["harvested"], bool):
                raise _fail(f"{tw}.harvested", msg("kh.snap.not_bool", value=repr(tile["harvested"])))
            if self.places.get(label) == board:
                raise _fail(tw, msg("kh.snap.tile_twice", label=label))
            self.claim(label, board, tw)
            self.check_crop(label, crop, tw)
            at = _coord(tile["at"], f"{tw}.at") if "at" in tile else self.position(label, tw)
            if at in tile_at:
                raise _fail(tw, msg("kh.snap.position_tile", at=_at(at), label=tile_at[at]))
            tile_at[at] = label
            coords.append(at)
        self.field_tiles += len(coords)
        workers = self.workers(player["workers"], f"{where}.workers", name, tile_at)
        stones = _stones(player["stones"], f"{where}.stones")
        for crop in Crop:
            self.table_stones[crop] += stones[crop]
        return ScoringBoard(
            name=name,
            fields=(1 << len(coords)) - 1,
            neighbours=neighbour_masks(coords),
            workers=workers,
            stones=stones,
        )

    def workers(self, data: Any, where: str, name: str, tile_at: dict[Coord, str]) -> str:
        """The letters of the workers on ``name``'s board, each checked."""
        letters = ""
        worker_at: dict[Coord, str] = {}
        for i, data_worker in enumerate(_list(data, where)):
            ww = f"{where}[{i}]"
            worker = _object(data_worker, ww, WORKER_KEYS, ("worker",))
            letter = worker["worker"].strip().upper() if isinstance(worker["worker"], str) else ""
            if len(letter) != 1 or letter not in WORKER_VALUES:
                raise _fail(ww, msg("kh.snap.not_worker", value=repr(worker["worker"])))
            if "at" in worker:
                at = _coord(worker["at"], f"{ww}.at")
            elif "label" in worker:
                at = self.position(self.label(worker["label"], f"{ww}.label"), ww)
            else:
                raise _fail(ww, msg("kh.snap.worker_place"))
            if letter in LABOURERS and letter in letters:
                raise _fail(ww, msg("kh.snap.labourer_twice", letter=letter))
            if letter in TOWNSFOLK:
                owner = self.townsfolk.get(letter)
                if owner == name:
                    raise _fail(ww, msg("kh.snap.townsfolk_twice", letter=letter))
                if owner is not None:
                    raise _fail(ww, msg("kh.snap.townsfolk_elsewhere", letter=letter, owner=owner))
                self.townsfolk[letter] = name
            if at in tile_at:
                raise _fail(ww, msg("kh.snap.worker_on_tile", letter=letter, label=tile_at[at], at=_at(at)))
            if at in worker_at:
                raise _fail(ww, msg("kh.snap.position_worker", at=_at(at), letter=worker_at[at]))
            worker_at[at] = letter
            letters += letter
        return letters

    def warehouses(self, data: Any, names: list[str]) -> None:
        if not isinstance(data, dict):
            raise _fail("warehouses", msg("kh.snap.not_warehouses", kind=_kind(data)))
        for name, tiles in data.items():
            where = f"warehouses.{name}"
            if name not in names:
                raise _fail(where, msg("kh.snap.not_player", name=repr(name)))
            if len(_list(tiles, where)) > WAREHOUSE_SIZE:
                raise _fail(where, msg("kh.snap.warehouse_full", most=WAREHOUSE_SIZE, n=len(tiles)))
            for i, data_tile in enumerate(tiles):
                tw = f"{where}[{i}]"
                tile = _object(data_tile, tw, WAREHOUSE_KEYS, ("label", "bid"))
                label = self.label(tile["label"], f"{tw}.label")
                self.claim(label, msg("kh.snap.in_warehouse", name=name), tw)
                if "crop" in tile:
                    self.check_crop(label, _crop(tile["crop"], f"{tw}.crop"), tw)
                bid = _stones(tile["bid"], f"{tw}.bid")
                if not sum(bid):
                    raise _fail(f"{tw}.bid", msg("kh.snap.empty_bid"))
                for crop in Crop:
                    self.table_stones[crop] += bid[crop]
                self.field_tiles += 1

    def land_office(self, data: Any) -> None:
        labels = _list(data, "land_office")
        if len(labels) > LAND_OFFICE_SIZE:
            raise _fail("land_office", msg("kh.snap.office_full", most=LAND_OFFICE_SIZE, n=len(labels)))
        for i, value in enumerate(labels):
            self.claim(self.label(value, f"land_office[{i}]"), msg("kh.snap.in_office"), f"land_office[{i}]")
        self.field_tiles += len(labels)

    def event_track(self, data: Any) -> int:
        track = _list(data, "event_track")
        if len(track) > TRACK_SIZE:
            raise _fail("event_track", msg("kh.snap.track_full", most=TRACK_SIZE, n=len(track)))
        seen: set[str] = set()
        for i, value in enumerate(track):
            letter = value.strip().upper() if isinstance(value, str) else ""
            if len(letter) != 1 or letter not in EVENTS:
                raise _fail(f"event_track[{i}]", msg("kh.snap.not_event", value=repr(value)))
            if letter in seen:
                raise _fail(f"event_track[{i}]", msg("kh.snap.event_twice", letter=letter))
            seen.add(letter)
        return len(track)

    def options(self, data: Any) -> dict[str, str]:
        if not isinstance(data, dict):
            raise _fail("options", msg("kh.snap.not_options", kind=_kind(data)))
        given: dict[str, str] = {}
        for name, value in data.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, int):
                value = str(value)
            elif not isinstance(value, str):
                raise _fail(f"options.{name}", msg("kh.snap.not_option", kind=_kind(value)))
            given[name] = value
        try:
            snapshot_options(given)
        except MalformedInputError as exc:
            raise _fail("options", exc.text) from None
        return given

    def label(self, value: Any, where: str) -> str:
        """A tile label, upper-cased; with a transcribed (not provisional) layout it must be on it."""
        label = _text(value, where).upper()
        if not self.layout.provisional and label not in self.layout.index:
            raise _fail(where.removesuffix(".label"), msg("kh.snap.unknown_label", label=repr(label),
                                                          layout=self.layout.name))
        return label

    def claim(self, label: str, place: Message, where: str) -> None:
        """Record that tile ``label`` lies at ``place``; each tile lies in one place only."""
        other = self.places.get(label)
        if other is not None:
            raise _fail(where, msg("kh.snap.tile_elsewhere", label=label, other=other))
        self.places[label] = place

    def check_crop(self, label: str, crop: Crop, where: str) -> None:
        """With a transcribed layout, a tile's crop must be the one printed for its label."""
        if self.layout.provisional:
            return
        printed = self.layout.crops[self.layout.index[label]]
        if crop is not printed:
            raise _fail(where, msg("kh.snap.crop_differs", crop=crop.key, label=label, printed=printed.key))

    def position(self, label: str, where: str) -> Coord:
        """The layout's coordinates of ``label``, for a piece given without ``"at"``."""
        index = self.layout.index.get(label)
        if index is None:
            raise _fail(where, msg("kh.snap.unknown_label", label=repr(label), layout=self.layout.name))
        self.placed_by_label = True
        return self.layout.coords[index]
