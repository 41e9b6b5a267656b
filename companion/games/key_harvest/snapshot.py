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


ONE_BOARD_WARNING = (
    "one board alone: its workers and groups score as printed, but crop majorities and the rank "
    "compare players, so they count this board only; score every player's board together for the table"
)


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
    warnings = []
    if snapshot.layout is not None:
        used = snapshot.layout
        result["layout"] = {"name": used.name, "provisional": used.provisional, "note": used.note}
        if snapshot.provisional_layout:
            warnings.append(f"scored with the provisional {used.name} layout, which is not the printed board; "
                            'give tile positions ("at") or --data FILE')
    result["options"] = dict(chosen)
    result["players"] = rows
    if len(rows) == 1:
        warnings.append(ONE_BOARD_WARNING)
    if warnings:
        result["warnings"] = warnings
    return result


def _fail(where: str, reason: str) -> MalformedInputError:
    return MalformedInputError(f"{where}: {reason}")


def _object(value: Any, where: str, keys: Sequence[str], required: Sequence[str]) -> dict[str, Any]:
    """``value`` as a dict with only ``keys`` and every one of ``required``."""
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object, not {_kind(value)}")
    for key in value:
        if key not in keys:
            raise _fail(where, f"unknown key {key!r}; expected {', '.join(keys)}")
    for key in required:
        if key not in value:
            raise _fail(where, f"missing key {key!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"expected a list, not {_kind(value)}")
    return value


def _count(value: Any, where: str) -> int:
    """A non-negative whole number (JSON booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"expected a whole number, not {value!r}")
    if value < 0:
        raise _fail(where, f"expected a whole number, not {value!r}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"expected a non-empty string, not {value!r}")
    return value.strip()


def _coord(value: Any, where: str) -> Coord:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(n, bool) or not isinstance(n, int) for n in value)
    ):
        raise _fail(where, f"expected two whole numbers [q, r], not {value!r}")
    return (value[0], value[1])


def _crop(value: Any, where: str) -> Crop:
    if not isinstance(value, str):
        raise _fail(where, f"expected a crop name, not {value!r}")
    try:
        return Crop.parse(value)
    except MalformedInputError as exc:
        raise _fail(where, str(exc)) from None


def _stones(value: Any, where: str) -> tuple[int, int, int, int, int]:
    """Stone counts by crop (missing crops are 0) as a tuple in ``Crop`` order."""
    if not isinstance(value, dict):
        raise _fail(where, f"expected an object of crop counts, not {_kind(value)}")
    counts = [0] * 5
    seen: set[Crop] = set()
    for key, count in value.items():
        crop = _crop(key, f"{where}.{key}")
        if crop in seen:
            raise _fail(f"{where}.{key}", f"{crop.key} is given twice")
        seen.add(crop)
        counts[crop] = _count(count, f"{where}.{key}")
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(type(value), repr(value))


def _at(coord: Coord) -> str:
    return f"[{coord[0]}, {coord[1]}]"


class _Reader:
    """One pass over a snapshot, remembering where each tile and townsfolk has been seen."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.placed_by_label = False
        self.places: dict[str, str] = {}  # tile label -> where it lies ("on Alice's board", ...)
        self.townsfolk: dict[str, str] = {}  # townsfolk letter -> owner's name
        self.table_stones = [0] * 5
        self.field_tiles = 0

    def read(self, data: Any) -> Snapshot:
        top = _object(data, "snapshot", TOP_KEYS, ("game", "players"))
        if top["game"] != GAME:
            raise _fail("game", f"expected {GAME!r}, not {top['game']!r}")
        players = _list(top["players"], "players")
        if not 1 <= len(players) <= 4:
            raise _fail("players", f"Key Harvest is for 2 to 4 players (or one board alone), not {len(players)}")
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
            raise _fail("table", f"{events} events on the track and in the bag; the game has {EVENT_TILES}")
        if self.field_tiles > FIELD_TILES:
            raise _fail("table", f"{self.field_tiles} field tiles; the game has {FIELD_TILES}")
        for crop in Crop:
            if self.table_stones[crop] > STONES_PER_CROP:
                raise _fail(
                    "table",
                    f"{self.table_stones[crop]} {crop.key} stones behind screens and in bids; "
                    f"the game has {STONES_PER_CROP}",
                )
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
            raise _fail(f"{where}.name", f"{name!r} is already another player's name")
        names.append(name)
        board = f"on {name}'s board"
        tile_at: dict[Coord, str] = {}
        coords: list[Coord] = []
        for i, data_tile in enumerate(_list(player["tiles"], f"{where}.tiles")):
            tw = f"{where}.tiles[{i}]"
            tile = _object(data_tile, tw, TILE_KEYS, ("label", "crop", "harvested"))
            label = self.label(tile["label"], f"{tw}.label")
            crop = _crop(tile["crop"], f"{tw}.crop")
            if not isinstance(tile["harvested"], bool):
                raise _fail(f"{tw}.harvested", f"expected true or false, not {tile['harvested']!r}")
            if self.places.get(label) == board:
                raise _fail(tw, f"tile {label} appears twice on this board")
            self.claim(label, board, tw)
            self.check_crop(label, crop, tw)
            at = _coord(tile["at"], f"{tw}.at") if "at" in tile else self.position(label, tw)
            if at in tile_at:
                raise _fail(tw, f"position {_at(at)} already holds tile {tile_at[at]}")
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
                raise _fail(ww, f"worker {worker['worker']!r} is not a letter A to L")
            if "at" in worker:
                at = _coord(worker["at"], f"{ww}.at")
            elif "label" in worker:
                at = self.position(self.label(worker["label"], f"{ww}.label"), ww)
            else:
                raise _fail(ww, "a worker needs 'at' or 'label'")
            if letter in LABOURERS and letter in letters:
                raise _fail(ww, f"labourer {letter} appears twice on this board")
            if letter in TOWNSFOLK:
                owner = self.townsfolk.get(letter)
                if owner == name:
                    raise _fail(ww, f"townsfolk {letter} appears twice on this board")
                if owner is not None:
                    raise _fail(ww, f"townsfolk {letter} is also on {owner}'s board")
                self.townsfolk[letter] = name
            if at in tile_at:
                raise _fail(ww, f"worker {letter} stands on field tile {tile_at[at]}'s position {_at(at)}")
            if at in worker_at:
                raise _fail(ww, f"position {_at(at)} already holds worker {worker_at[at]}")
            worker_at[at] = letter
            letters += letter
        return letters

    def warehouses(self, data: Any, names: list[str]) -> None:
        if not isinstance(data, dict):
            raise _fail("warehouses", f"expected an object keyed by player name, not {_kind(data)}")
        for name, tiles in data.items():
            where = f"warehouses.{name}"
            if name not in names:
                raise _fail(where, f"{name!r} is not a player")
            if len(_list(tiles, where)) > WAREHOUSE_SIZE:
                raise _fail(where, f"a warehouse holds at most {WAREHOUSE_SIZE} tiles, not {len(tiles)}")
            for i, data_tile in enumerate(tiles):
                tw = f"{where}[{i}]"
                tile = _object(data_tile, tw, WAREHOUSE_KEYS, ("label", "bid"))
                label = self.label(tile["label"], f"{tw}.label")
                self.claim(label, f"in {name}'s warehouse", tw)
                if "crop" in tile:
                    self.check_crop(label, _crop(tile["crop"], f"{tw}.crop"), tw)
                bid = _stones(tile["bid"], f"{tw}.bid")
                if not sum(bid):
                    raise _fail(f"{tw}.bid", "a bid is at least one stone")
                for crop in Crop:
                    self.table_stones[crop] += bid[crop]
                self.field_tiles += 1

    def land_office(self, data: Any) -> None:
        labels = _list(data, "land_office")
        if len(labels) > LAND_OFFICE_SIZE:
            raise _fail("land_office", f"the land office holds at most {LAND_OFFICE_SIZE} tiles, not {len(labels)}")
        for i, value in enumerate(labels):
            self.claim(self.label(value, f"land_office[{i}]"), "in the land office", f"land_office[{i}]")
        self.field_tiles += len(labels)

    def event_track(self, data: Any) -> int:
        track = _list(data, "event_track")
        if len(track) > TRACK_SIZE:
            raise _fail("event_track", f"the track holds at most {TRACK_SIZE} events, not {len(track)}")
        seen: set[str] = set()
        for i, value in enumerate(track):
            letter = value.strip().upper() if isinstance(value, str) else ""
            if len(letter) != 1 or letter not in EVENTS:
                raise _fail(f"event_track[{i}]", f"{value!r} is not an event letter M to Z")
            if letter in seen:
                raise _fail(f"event_track[{i}]", f"event {letter} is already on the track")
            seen.add(letter)
        return len(track)

    def options(self, data: Any) -> dict[str, str]:
        if not isinstance(data, dict):
            raise _fail("options", f"expected an object of variant flags, not {_kind(data)}")
        given: dict[str, str] = {}
        for name, value in data.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, int):
                value = str(value)
            elif not isinstance(value, str):
                raise _fail(f"options.{name}", f"expected a string, number or boolean, not {_kind(value)}")
            given[name] = value
        try:
            snapshot_options(given)
        except MalformedInputError as exc:
            raise _fail("options", str(exc)) from None
        return given

    def label(self, value: Any, where: str) -> str:
        """A tile label, upper-cased; with a transcribed (not provisional) layout it must be on it."""
        label = _text(value, where).upper()
        if not self.layout.provisional and label not in self.layout.index:
            raise _fail(where.removesuffix(".label"), f"unknown label {label!r} (not on the {self.layout.name} layout)")
        return label

    def claim(self, label: str, place: str, where: str) -> None:
        """Record that tile ``label`` lies at ``place``; each tile lies in one place only."""
        other = self.places.get(label)
        if other is not None:
            raise _fail(where, f"tile {label} is also {other}")
        self.places[label] = place

    def check_crop(self, label: str, crop: Crop, where: str) -> None:
        """With a transcribed layout, a tile's crop must be the one printed for its label."""
        if self.layout.provisional:
            return
        printed = self.layout.crops[self.layout.index[label]]
        if crop is not printed:
            raise _fail(where, f"crop {crop.key} disagrees with the layout ({label} is {printed.key})")

    def position(self, label: str, where: str) -> Coord:
        """The layout's coordinates of ``label``, for a piece given without ``"at"``."""
        index = self.layout.index.get(label)
        if index is None:
            raise _fail(where, f"unknown label {label!r} (not on the {self.layout.name} layout)")
        self.placed_by_label = True
        return self.layout.coords[index]
