"""Key Harvest at the camera: its code stickers, its boards read off them, and its layout calibrated from a
photo of a full board (docs/camera.md). The geometry (the hex lattice under the stickers) is
``companion.vision``'s; what the pieces mean is here.

=====================  ==============================================  ===============
Code                   Component                                       Marker IDs
=====================  ==============================================  ===============
``KH:F:<label>:U|H``   field tile, unharvested (U) or harvested (H)    0-127 (2 per label)
``KH:L:<set>:<A-F>``   labourer A-F of labourer set 1-4                128-151
``KH:T:<G-L>``         townsfolk G-L                                   152-157
``KH:E:<M-Z>``         event tile M-Z                                  158-171
=====================  ==============================================  ===============
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.codes.registry import CodeRegistry, Component
from companion.core.boards import BoardPhoto, BoardReader, Calibration
from companion.core.errors import MalformedInputError, UnknownCodeError
from companion.core.messages import Message, msg, render
from companion.games.key_harvest.board import LAYOUT_SECTION, Crop, Layout, pack_of_layout
from companion.vision.board import axial_to_plane
from companion.vision.calibrate import align
from companion.vision.table import TableRead, TableReader

if TYPE_CHECKING:
    from companion.games.key_harvest import KeyHarvest
    from companion.games.key_harvest.state import State

GAME = "key-harvest"
LABOURER_BASE = 128
TOWNSFOLK_BASE = 152
EVENT_BASE = 158
LISTED = 12
"""How many labels an error message names before it says "and N more"."""


def stickers(spec: Mapping[str, Any], labels: Sequence[str]) -> list[Component]:
    """Key Harvest's components (field tiles from the layout's labels, sorted) as ``spec`` sizes them."""
    prefix = str(spec["prefix"])
    field, labourer, townsfolk, event = spec["field_tile"], spec["labourer"], spec["townsfolk"], spec["event"]
    if len(labels) > LABOURER_BASE // 2:
        raise MalformedInputError(f"code registry: at most {LABOURER_BASE // 2} field tiles, not {len(labels)}")

    def make(code: str, marker: int, kind: str, key: str, title: str, part: Mapping[str, Any],
             side: str | None = None, group: int | None = None) -> Component:
        return Component(f"{prefix}:{code}", marker, GAME, kind, key, side, group, title,
                         float(part["sticker_mm"]), float(part["component_mm"]), bool(part.get("provisional", True)))

    made = []
    for i, label in enumerate(sorted(labels)):
        for n, (letter, side) in enumerate(field["sides"].items()):
            made.append(make(f"F:{label}:{letter}", 2 * i + n, "field", label, f"{label} {side}", field, side=side))
    workers = str(labourer["workers"])
    for s in range(int(labourer["sets"])):
        for n, letter in enumerate(workers):
            made.append(make(f"L:{s + 1}:{letter}", LABOURER_BASE + s * len(workers) + n, "labourer", letter,
                             f"labourer {letter} set {s + 1}", labourer, group=s + 1))
    for n, letter in enumerate(str(townsfolk["workers"])):
        made.append(make(f"T:{letter}", TOWNSFOLK_BASE + n, "townsfolk", letter, f"townsfolk {letter}", townsfolk))
    for n, letter in enumerate(str(event["letters"])):
        made.append(make(f"E:{letter}", EVENT_BASE + n, "event", letter, f"event {letter}", event))
    return made


class KeyHarvestBoards(BoardReader):
    """One estate board per player: field tiles on the hex spaces, labourers and townsfolk on free spaces next
    to them; crops come from the game's layout by label, stones behind the screen are given by hand."""

    game = GAME
    tile_kinds = frozenset({"field"})
    standing_kinds = frozenset({"labourer", "townsfolk"})
    reported = {"event": "kh.camera.event_not_on_board"}
    hidden_name = "stones"
    hidden_note = ("a camera cannot see behind the screens; give them with --hidden NAME:CROP=N,... "
                   "for the crop majorities")
    score_sources = (("worker_points", "kh.camera.source.workers"), ("largest_group_points", "kh.camera.source.largest"),
                     ("second_group_points", "kh.camera.source.second"),
                     ("majority_points", "kh.camera.source.majorities"))
    difference_ids = {"tiles_only_on_photo": "kh.camera.only_photo", "tiles_only_in_game": "kh.camera.only_game",
                      "tiles_other_side_up": "kh.camera.other_side", "workers_only_on_photo": "kh.camera.workers_photo",
                      "workers_only_in_game": "kh.camera.workers_game"}
    summary_id = "kh.camera.summary"
    alone_note_id = "kh.camera.alone_note"

    def __init__(self, rules: KeyHarvest) -> None:
        self.rules = rules

    def player(self, name: str, board: BoardPhoto, hidden: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The board as one player of a snapshot (docs/key-harvest-snapshot.md); ``hidden``: the stones."""
        layout = self.rules.layout
        tiles = []
        for piece in sorted(board.tiles, key=lambda p: (p.at[1], p.at[0])):
            index = layout.index.get(piece.key)
            if index is None:
                raise UnknownCodeError(f"tile {piece.key} is not on the {layout.name} layout")
            tiles.append({"label": piece.key, "crop": layout.crops[index].key,
                          "harvested": piece.side == "harvested", "at": list(piece.at)})
        workers = [{"worker": p.key, "at": list(p.at)} for p in sorted(board.workers, key=lambda p: (p.at[1], p.at[0]))]
        return {"name": name, "tiles": tiles, "workers": workers, "stones": dict(hidden or {})}

    def snapshot(self, players: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return {"game": GAME, "players": list(players)}

    def parse_hidden(self, text: str) -> dict[str, Any]:
        """``wheat=3,wine=2`` as ``{"wheat": 3, "wine": 2}`` (crops by any of their names)."""
        counted: dict[str, int] = {}
        for pair in (p for p in text.split(",") if p.strip()):
            crop, _, count = pair.partition("=")
            if not count.strip().isdigit():
                raise MalformedInputError("expected CROP=N with a whole number, e.g. wheat=3")
            counted[Crop.parse(crop).key] = int(count)
        return counted

    def compare(self, board: BoardPhoto, state: State, seat: int) -> tuple[dict[str, Any], dict[str, list[str]],
                                                                            dict[str, Any]]:
        """Only boards and screens go into the table scored: the bag, land office and warehouses still count
        tiles the photo may show, so they are left out (the disagreements name those tiles)."""
        tracked = self.rules.snapshot(state)
        mine = tracked["players"][seat]
        photo = self.player(mine["name"], board, mine["stones"])
        table = {"game": tracked["game"], "players": tracked["players"], "options": tracked["options"]}
        table["players"][seat] = photo
        return photo, _disagreements(photo, mine), table

    def table_reader(self) -> KeyHarvestTable:
        """The whole table in one frame: these boards, the land office and the event track."""
        return KeyHarvestTable(self)

    def screened(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """Crop majorities tell what is behind the screens: left out, and the rank with them."""
        return {**row, "total": row["total"] - row["majority_points"], "majority_points": None, "rank": None}

    def calibrate(self, board: BoardPhoto, source: str) -> Calibration:
        current = self.rules.layout
        layout, moved = calibrated_layout(board, current, source)
        warnings = ("crops and start pairs are still the provisional placeholders: check them "
                    "(docs/key-harvest-layout.md)",) if layout.provisional else ()
        pack = pack_of_layout(layout.to_json())
        pack[LAYOUT_SECTION]["source"] = f"camera calibration from {source} (positions; crops and start pairs kept)"
        return Calibration(pack, f"calibrated {layout.size} spaces from {source}: {moved} labels sit "
                           f"elsewhere than on the {current.name!r} layout", warnings)


class KeyHarvestTable(TableReader):
    """Key Harvest's table: the estate boards, the land office (field tiles beside the event track on the main
    board) and the event track (event tiles lying upright, space 1 first); a board is the seat's whose
    labourers stand on it (labourer set N is seat N's)."""

    row_kinds = frozenset({"event"})
    office_kinds = frozenset({"field"})
    boards: KeyHarvestBoards

    def __init__(self, boards: KeyHarvestBoards) -> None:
        self.boards = boards
        self._spaces = axial_to_plane(np.array(boards.rules.layout.coords, dtype=np.float64))
        """Each layout space on the board plane, in spaces (in the layout's order)."""
        self.board_span = float(np.max(np.linalg.norm(self._spaces[:, None] - self._spaces[None, :], axis=2))) + 1.0

    def seat_of(self, component: Component) -> int | None:
        return component.group - 1 if component.kind == "labourer" and component.group else None

    def home(self, component: Component) -> tuple[float, float] | None:
        """A field tile's labelled space on the layout (the board plane, in spaces)."""
        index = self.boards.rules.layout.index.get(component.key) if component.kind == "field" else None
        if index is None:
            return None
        x, y = self._spaces[index]
        return float(x), float(y)

    def snapshot(self, read: TableRead, registry: CodeRegistry, names: Sequence[str],
                 hidden: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The table as a snapshot (docs/key-harvest-snapshot.md): each seat's board (empty when none was seen),
        the land office and the event track; ``hidden``: the stones behind the screens by name."""
        hidden = hidden or {}
        players = []
        for seat, name in enumerate(names):
            board = read.board_of(seat)
            if board is None:
                players.append({"name": name, "tiles": [], "workers": [], "stones": dict(hidden.get(name, {}))})
            else:
                players.append(self.boards.player(name, board.read, hidden.get(name)))
        return {"game": GAME, "players": players,
                "land_office": sorted(registry.by_code(d.code).key for d in read.office),
                "event_track": [registry.by_code(d.code).key for d in read.row]}

    def revealed(self, state: State) -> dict[str, Mapping[str, Any]]:
        """The stones behind each screen, by player name."""
        return {p["name"]: p["stones"] for p in self.boards.rules.snapshot(state)["players"]}

    def differences(self, table: Mapping[str, Any], state: State) -> list[Message]:
        """Every way the table as read differs from the game, in words (public information only)."""
        tracked = self.boards.rules.snapshot(state)
        return table_differences(table, tracked)


def _places(snapshot: Mapping[str, Any]) -> tuple[dict[str, tuple[Message, bool | None]], dict[str, Message]]:
    """Where each field tile lies (with its side on a board) and where each worker stands, by label / worker."""
    tiles: dict[str, tuple[Message, bool | None]] = {}
    workers: dict[str, Message] = {}
    for player in snapshot["players"]:
        here = msg("kh.seen.board", name=player["name"])
        for tile in player["tiles"]:
            tiles[tile["label"]] = (here, bool(tile["harvested"]))
        for worker in player["workers"]:
            workers[f"{player['name']}:{worker['worker']}"] = here
    for label in snapshot.get("land_office", []):
        tiles[label] = (msg("kh.seen.office"), None)
    for name, kept in snapshot.get("warehouses", {}).items():
        for tile in kept:
            tiles[tile["label"]] = (msg("kh.seen.warehouse", name=name), None)
    return tiles, workers


def table_differences(table: Mapping[str, Any], tracked: Mapping[str, Any]) -> list[Message]:
    """What the ``table`` snapshot (read by the camera) shows otherwise than the game's ``tracked`` snapshot.
    Warehouses, the bag and the fallow area are not read from the table: tiles the game keeps there and the
    table does not show are no difference."""
    seen, seen_workers = _places(table)
    kept, kept_workers = _places(tracked)
    found: list[Message] = []
    for label in sorted(set(seen) | set(kept)):
        if label not in kept:
            found.append(msg("kh.seen.unplaced", tile=label, table=seen[label][0]))
        elif label not in seen:
            if kept[label][0].id != "kh.seen.warehouse":
                found.append(msg("kh.seen.missing", tile=label, game=kept[label][0]))
        elif seen[label][0] != kept[label][0]:
            found.append(msg("kh.seen.moved", tile=label, game=kept[label][0], table=seen[label][0]))
        elif seen[label][1] is not None and kept[label][1] is not None and seen[label][1] != kept[label][1]:
            found.append(msg("kh.seen.harvested" if seen[label][1] else "kh.seen.unharvested", tile=label,
                             place=seen[label][0]))
    for key in sorted(set(seen_workers) | set(kept_workers)):
        worker = msg(f"kh.worker.{key.rpartition(':')[2]}")
        if key not in kept_workers:
            found.append(msg("kh.seen.worker_extra", worker=worker, table=seen_workers[key]))
        elif key not in seen_workers:
            found.append(msg("kh.seen.worker_missing", worker=worker, game=kept_workers[key]))
    shown, had = list(table.get("event_track", [])), list(tracked.get("event_track", []))
    if shown != had:
        found.append(msg("kh.seen.track", table=" ".join(shown) or "–", game=" ".join(had) or "–"))
    return found


def _disagreements(photo: Mapping[str, Any], tracked: Mapping[str, Any]) -> dict[str, list[str]]:
    """Tiles and workers on the photo that the game's board does not have, and the other way round."""
    seen = {t["label"]: t["harvested"] for t in photo["tiles"]}
    kept = {t["label"]: t["harvested"] for t in tracked["tiles"]}
    seen_workers = sorted(w["worker"] for w in photo["workers"])
    kept_workers = sorted(w["worker"] for w in tracked["workers"])
    return {
        "tiles_only_on_photo": sorted(set(seen) - set(kept)),
        "tiles_only_in_game": sorted(set(kept) - set(seen)),
        "tiles_other_side_up": sorted(label for label in set(seen) & set(kept) if seen[label] != kept[label]),
        "workers_only_on_photo": [w for w in seen_workers if seen_workers.count(w) > kept_workers.count(w)],
        "workers_only_in_game": [w for w in kept_workers if kept_workers.count(w) > seen_workers.count(w)],
    }


def _names(labels: Sequence[str]) -> str:
    shown = ", ".join(labels[:LISTED])
    return shown + (f" and {len(labels) - LISTED} more" if len(labels) > LISTED else "")


def calibrated_layout(board: BoardPhoto, current: Layout, source: str = "a photo") -> tuple[Layout, int]:
    """The layout the photographed full board shows, and how many of its labels moved from ``current``.

    Each field tile belongs on the space printed with its label, so the photo records where every label
    really sits; it is turned and moved onto ``current``'s coordinates (the way that keeps the most labels
    where they were), so a correct layout comes back unchanged. Crops and start pairs are not visible on
    stickers: they are kept from ``current``, and the result stays provisional when they were.
    ``MalformedInputError`` (nothing is changed) when the photo shows conflicts, misses a tile, or holds a
    tile ``current`` does not know.
    """
    if board.conflicts:
        raise MalformedInputError("cannot calibrate from this photo: " + "; ".join(render(c.message) for c in board.conflicts))
    where = {piece.key: piece.at for piece in board.tiles}
    missing = [label for label in current.labels if label not in where]
    if missing:
        raise MalformedInputError(
            f"cannot calibrate: {len(missing)} of the {current.size} field tiles are not on the photo "
            f"({_names(missing)}); lay every tile on its space, all stickers visible, and take the photo again")
    unknown = sorted(set(where) - set(current.labels))
    if unknown:
        raise MalformedInputError(f"cannot calibrate: tiles {_names(unknown)} are not on the {current.name} layout")
    coords, agree = align([where[label] for label in current.labels], current.coords)
    crops = "crops and start pairs kept from the layout " + repr(current.name)
    if current.provisional:
        crops += ", which are still PROVISIONAL placeholders: check them against your board"
    layout = Layout(
        name="camera-calibrated",
        labels=current.labels,
        coords=tuple(coords),
        crops=current.crops,
        start_pairs=current.start_pairs,
        pair_colours=current.pair_colours,
        provisional=current.provisional,
        note=f"Positions calibrated by the camera from {source} on {date.today().isoformat()}; {crops}.",
    )
    layout.check()
    return layout, current.size - agree
