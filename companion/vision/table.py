"""The whole table in one frame: every player's board, the pieces of a shared board read in a row (Key Harvest's
event track) and the tiles lying beside it (its land office), each board given to its seat.

The frame's stickers are first grouped by distance: stickers of one board lie on one hex lattice, at most a
few spaces apart, and boards lie further apart than neighbouring spaces. Then:

1. **Fragments.** Two stickers less than ``LINK`` (2.4) spaces apart (measured in their own sticker widths, so the
   camera's height and tilt do not matter) belong together. A sparse board falls into several fragments.
2. **The shared board** is the fragment holding most of the row pieces (events): its row pieces are the row, read
   in the direction the pieces' own markers face (they lie upright on the track), and its tiles are the office.
   A nearby fragment of row pieces alone is a part of it (the track parts where a sticker was missed), and so is
   a nearby fragment of office tiles in the line of its office tiles (``OFFICE_LINE``: the office parted). Its
   surroundings are read again, enlarged, with the stickers already read painted over (on one core while the
   boards' second looks take the other). Any read, the first or a second look's, much smaller than the frame's
   median sticker counts only if its bits read exactly (``SMALL_READ``: board art taken for a marker reads small).
3. **Boards.** A fragment holding one seat's standing pieces joins the board holding that seat's; the others,
   largest first, join the board already found whose hex lattice they lie on (every tile within
   ``MERGE_RESIDUAL`` of a space, the two no larger than one board, no standing piece of another seat), else
   start a board of their own. With more boards than seats a sparse board fell apart: its smallest part
   without a seat joins the board it fits best. Standing pieces alone (a spare worker beside a board) join
   the nearest board, whose reader then reports them as lying beside it.
4. **Seats.** A board holding standing pieces that belong to one seat (Key Harvest: labourers of one set) is that
   seat's. The boards left take the free seats in turn going round the shared board counter-clockwise (seen from
   above, the row read left to right), starting from its lower left.
5. Given the frame and a reader, each board is **read again straightened** (``second_look``), the boards side by
   side on the cores; what that finds is kept unless it is already in view elsewhere (the same piece: the same
   code, or the other side of a tile in view). A tile whose bits read only with corrections counts only on a
   space of its board's lattice (``OFF_SPACE_CORRECTED``): board art lies anywhere. A board's tile that the
   shared board's look found too stays on the board.

What the pieces mean is the game's: its ``TableReader`` says which kinds make the row and the office, which seat
a standing piece tells, and how large a board is; each board is read by the game's ``BoardReader``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry, Component
from companion.core.boards import BoardReader
from companion.core.errors import UnsupportedError
from companion.core.messages import Message, Text, msg
from companion.vision.board import (
    BoardRead,
    axial_to_plane,
    SECOND_LOOK_SIDES,
    LatticeFit,
    fit_lattice,
    of_game,
    paint_over,
    pitch_in_stickers,
    read_board,
    second_look,
)
from companion.vision.detection import Detection, Point, Reader

LINK = 2.4
"""Stickers closer than this many spaces belong to one board: neighbours, or one empty space between them. The
nearest spaces of two boards must lie further apart (each board's margin and the gap between boards)."""
MERGE_RESIDUAL = 0.25
"""Two fragments are one board when every sticker of both lies within this part of a space of one lattice."""
SECOND_LOOK_PX_PER_PITCH = 60.0
"""The straightened board's resolution for the table's second look (a 16 mm sticker: 36 px, as in the frame)."""
SMALL_READ = 0.87
"""A read this much smaller than the frame's median sticker counts only if its bits read exactly: on 66 tables (seeds
100-165) every true sticker read with corrections was at least 0.887 of the median, board art read as one 0.67-0.85."""
OFF_SPACE_CORRECTED = 0.17
"""A tile whose bits read only with corrections counts only this near (in spaces) a space of its board's lattice:
on 200 tables (seeds 100-299) every such true tile lay within 0.15 (exact ones up to 0.28), board art lies anywhere
(only 1 in 10 by chance this near a space)."""
OFFICE_LINE = 0.25
"""Tiles lying within this part of a space of the line through the shared board's office tiles, near it, are office
tiles beyond the row's reach (the office is a row of spaces), not a board."""
SHARED_LOOK_MARGIN = 1.5
"""How far around its pieces the shared board's second look reads, in spaces."""
SHARED_LOOK_SIDE_PX = 40.0
"""The marker side the shared board's second look enlarges its stickers to (the frame's are about 30 px)."""


class TableReader(ABC):
    """What a game's table holds besides the players' boards, and how a board tells its seat."""

    boards: BoardReader
    row_kinds: frozenset[str]
    """Pieces lying in a row on the shared board, read in order (Key Harvest: event tiles on the event track)."""
    office_kinds: frozenset[str]
    """Tiles lying on the shared board beside the row (Key Harvest: field tiles in the land office)."""
    board_span: float
    """The farthest two spaces of one board apart, in spaces."""

    @abstractmethod
    def seat_of(self, component: Component) -> int | None:
        """The seat (0-based) whose board a standing piece belongs on, or None for a piece of anyone's."""

    @abstractmethod
    def snapshot(self, read: TableRead, registry: CodeRegistry, names: Sequence[str],
                 hidden: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The table as the game's snapshot (what ``companion score`` scores), players ``names`` in seat order."""

    @abstractmethod
    def differences(self, table: Mapping[str, Any], state: Any) -> list[Message]:
        """Every way the table's snapshot differs from the game in ``state``, in words (public information only)."""

    def home(self, component: Component) -> Point | None:
        """Where a tile lies on its board by the game's layout (the board's plane, in spaces), or None where it may
        lie anywhere. None by default."""
        return None

    def revealed(self, state: Any) -> dict[str, Mapping[str, Any]]:
        """What lies behind the screens in the game over in ``state``, by player name, as ``snapshot``'s ``hidden``
        takes it: public at the end, never seen by a camera (Key Harvest: the stones). Nothing by default."""
        return {}

    def read(self, image: npt.NDArray[np.uint8], detections: Sequence[Detection], registry: CodeRegistry,
             reader: Reader | None = None, seats: int | None = None) -> TableRead:
        """``read_table`` of one frame, with the second look on each board when a ``reader`` is given."""
        return read_table(detections, registry, self, seats, image, reader)


def table_reader(boards: BoardReader) -> TableReader:
    """The game's whole-table reader (its board reader's ``table_reader()``); ``UnsupportedError`` if it has none."""
    make = getattr(boards, "table_reader", None)
    table = make() if callable(make) else None
    if not isinstance(table, TableReader):
        raise UnsupportedError(f"the camera does not read a whole {boards.game} table in one frame")
    return table


@dataclass(frozen=True)
class SeatedBoard:
    """One board on the table: its read, the seat it was given (None: no seat left) and how it got it."""

    read: BoardRead
    seat: int | None
    by: str
    """``workers`` (the standing pieces on it are that seat's), ``place`` (where it lies) or ``none``."""

    @property
    def center(self) -> Point:
        xs = [p.center[0] for p in self.read.pieces] or [0.0]
        ys = [p.center[1] for p in self.read.pieces] or [0.0]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


@dataclass(frozen=True)
class TableRead:
    """The table in one frame: the boards with their seats, the row in order, the office, and what else was seen."""

    boards: tuple[SeatedBoard, ...]
    row: tuple[Detection, ...]
    office: tuple[Detection, ...]
    others: tuple[tuple[Detection, Text], ...]

    def board_of(self, seat: int) -> SeatedBoard | None:
        return next((b for b in self.boards if b.seat == seat), None)

    def to_json(self) -> dict[str, Any]:
        """Everything read, for the camera page and ``companion scan --table --json``."""
        return {
            "boards": [{"seat": b.seat, "by": b.by, "center": [round(v, 1) for v in b.center], **b.read.to_json()}
                       for b in self.boards],
            "row": [d.code for d in self.row],
            "office": [d.code for d in self.office],
            "others": [{"code": d.code, "reason": reason} for d, reason in self.others],
        }


def read_table(detections: Sequence[Detection], registry: CodeRegistry, table: TableReader, seats: int | None,
               image: npt.NDArray[np.uint8] | None = None, reader: Reader | None = None) -> TableRead:
    """The table ``detections`` show, with ``seats`` players (boards beyond them get no seat; None: as many as
    boards are seen, or as the labourers on them tell). Given the
    ``image`` they were read from and the ``reader``, each board is read again straightened (``second_look``)."""
    boards = table.boards
    pieces: list[tuple[Detection, Component]] = []
    ours, others = of_game(detections, registry, boards.game)
    kinds = boards.tile_kinds | boards.standing_kinds | table.row_kinds | table.office_kinds
    for detection, component in ours:
        if component.kind not in kinds:
            others.append((detection, boards.not_placed(component.kind)))
        else:
            pieces.append((detection, component))
    typical = float(np.median([d.side_px for d, _ in pieces])) if pieces else 0.0
    if image is not None:
        real = {id(d) for d in _not_art(image, [d for d, _ in pieces], typical, registry)}
        pieces = [(d, c) for d, c in pieces if id(d) in real]
        pieces = _one_place(image, pieces, registry)
    pitch = pitch_in_stickers(registry, boards)
    fragments = _fragments([d for d, _ in pieces], LINK * pitch)

    rows = [sum(pieces[i][1].kind in table.row_kinds for i in f) for f in fragments]
    main = fragments.pop(int(np.argmax(rows))) if rows and max(rows) > 0 else []
    shared = table.row_kinds | table.office_kinds
    for fragment in [f for f in fragments if main and any(pieces[i][1].kind in table.row_kinds for i in f)
                     and all(pieces[i][1].kind in shared for i in f) and _gap(main, f, pieces) < 2 * LINK * pitch]:
        fragments.remove(fragment)  # the shared board parted where a sticker was missed: one board still
        main += fragment
    in_office = [i for i in main if pieces[i][1].kind in table.office_kinds and pieces[i][1].kind not in table.row_kinds]
    for fragment in [f for f in fragments if len(in_office) >= 2
                     and all(pieces[i][1].kind in table.office_kinds for i in f) and _gap(main, f, pieces) < 2 * LINK * pitch
                     and _off_line([pieces[i][0] for i in in_office + f]) < OFFICE_LINE * pitch]:
        fragments.remove(fragment)  # the office's far end, beyond the row's reach: its tiles lie in the office's line
        main += fragment
    shared_look = None
    if image is not None and reader is not None and main:  # on one core while the boards' looks take the other
        from companion.vision.reader import worker_pool

        shared_look = worker_pool().submit(_shared_look, image, [pieces[i][0] for i in main],
                                           {d.code for d, _ in pieces}, registry, reader, pitch, shared, typical)
    groups: list[list[int]] = []
    loose: list[int] = []
    lattices: dict[tuple[int, ...], LatticeFit] = {}  # each group's lattice, fitted once
    for fragment in sorted(fragments, key=len, reverse=True):
        kept = [i for i in fragment if pieces[i][1].kind not in table.row_kinds]
        others += [(pieces[i][0], msg("core.camera.off_track")) for i in fragment if i not in kept]
        if not any(pieces[i][1].kind in boards.tile_kinds for i in kept):
            loose += kept
            continue
        told = _seats(kept, pieces, table)  # parts holding one seat's standing pieces are that seat's board
        home = next((g for g in groups if len(told) == 1 and _seats(g, pieces, table) == told), None)
        home = home or _joinable(groups, kept, pieces, pitch, table, lattices)
        if home is None:
            groups.append(kept)
        else:
            home.extend(kept)
    if seats is None:
        seats = max([len(groups)] + [s + 1 for g in groups for s in _seats(g, pieces, table)])
    while len(groups) > seats:  # more boards than players: a sparse board fell apart; join its smallest part
        free = [g for g in groups if not _seats(g, pieces, table)] or groups  # (one no seat claims)
        small = min(free, key=len)  # to the board it fits best, else the nearest
        groups.remove(small)
        home = _joinable(groups, small, pieces, pitch, table, lattices, limit=0.5)
        fits = [g for g in groups if len(_seats(g + small, pieces, table)) <= 1] or groups
        (home or min(fits, key=lambda g: _gap(g, small, pieces))).extend(small)
    for i in loose:  # standing pieces alone: beside (or on) the nearest board
        if groups:
            nearest = min(groups, key=lambda g: min(math.dist(pieces[i][0].center, pieces[j][0].center) for j in g))
            nearest.append(i)
        else:
            groups.append([i])
    if image is not None and reader is not None:
        from companion.vision.reader import worker_pool

        seen = {c.piece for _, c in pieces}

        def again(group: list[int]) -> BoardRead:
            assert image is not None and reader is not None
            first = [pieces[i][0] for i in group]
            read, found = second_look(image, first, registry, boards, reader, SECOND_LOOK_PX_PER_PITCH)
            added = found[len(first):]  # a sticker elsewhere on the table, or the other side of a tile in view,
            kept = _not_art(image, [d for d in added if registry.by_code(d.code).piece not in seen], typical,
                            registry)  # is not new; nor is small board art
            read = read if len(kept) == len(added) else read_board(first + kept, registry, boards)
            return _without_art(read, first + kept, image, registry, boards)

        order = sorted(range(len(groups)), key=lambda k: -len(groups[k]))  # the boards side by side on the cores,
        done = dict(zip(order, worker_pool().map(again, [groups[k] for k in order])))  # the largest first
        reads = [done[k] for k in range(len(groups))]
    else:
        reads = [read_board([pieces[i][0] for i in group], registry, boards) for group in groups]
        if image is not None:
            reads = [_without_art(read, [pieces[i][0] for i in group], image, registry, boards)
                     for read, group in zip(reads, groups)]
    on_boards = {registry.by_code(p.code).piece for read in reads for p in read.pieces}
    for detection in shared_look.result() if shared_look is not None else ():
        if registry.by_code(detection.code).piece in on_boards:
            continue  # a board's tile near the shared board, found by both second looks: it lies on the board
        pieces.append((detection, registry.by_code(detection.code)))
        main.append(len(pieces) - 1)
    row = [pieces[i][0] for i in main if pieces[i][1].kind in table.row_kinds]
    office = [pieces[i][0] for i in main if pieces[i][1].kind in table.office_kinds and pieces[i][1].kind not in table.row_kinds]
    others += [(pieces[i][0], msg("core.camera.off_office")) for i in main
               if pieces[i][1].kind not in shared]
    seated = _seat(reads, table, registry, seats, row, office)
    return TableRead(tuple(seated), tuple(_in_order(row)), tuple(office), tuple(others))


def _shared_look(image: npt.NDArray[np.uint8], shared: Sequence[Detection], seen: set[str], registry: CodeRegistry,
                 reader: Reader, pitch: float, kinds: frozenset[str], typical: float) -> list[Detection]:
    """The shared board's stickers (of ``kinds``) the first read missed: its surroundings cut out of ``image`` and
    enlarged, the stickers read painted over, read again for markers of their size; in image pixels, none of
    ``seen``, none small board art (``_not_art`` with the frame's ``typical`` sticker side)."""
    side = float(np.median([d.side_px for d in shared]))
    corners = np.array([d.corners for d in shared], dtype=np.float64).reshape(-1, 2)
    margin = SHARED_LOOK_MARGIN * pitch * side
    height, width = image.shape[:2]
    x0, y0 = (max(0, int(v)) for v in corners.min(axis=0) - margin)
    x1, y1 = min(width, int(corners[:, 0].max() + margin)), min(height, int(corners[:, 1].max() + margin))
    if x1 - x0 < side or y1 - y0 < side:
        return []
    scale = max(1.0, SHARED_LOOK_SIDE_PX / side)
    view = np.asarray(cv2.resize(image[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR),
                      dtype=np.uint8)
    image_to_view = np.array([[scale, 0.0, -x0 * scale], [0.0, scale, -y0 * scale], [0.0, 0.0, 1.0]])
    paint_over(view, shared, image_to_view)
    added = []
    for found in reader(view, registry, (side * scale * SECOND_LOOK_SIDES[0], side * scale * SECOND_LOOK_SIDES[1])):
        if found.code not in seen and registry.by_code(found.code).kind in kinds:
            points = [(x / scale + x0, y / scale + y0) for x, y in found.corners]
            added.append(Detection(found.code, found.marker_id, (points[0], points[1], points[2], points[3])))
    return _not_art(image, added, typical, registry)


def _not_art(image: npt.NDArray[np.uint8], detections: Sequence[Detection], typical: float,
             registry: CodeRegistry) -> list[Detection]:
    """The ``detections`` less those smaller than ``SMALL_READ`` of the ``typical`` sticker side whose bits read
    only with corrections: board art taken for a marker reads small, and every sticker is printed one size. Every
    read counts this way, the first read's and each second look's."""
    from companion.vision.reader import corrected_bits

    undersized = [d for d in detections if d.side_px < SMALL_READ * typical]
    art = {id(d) for d, bits in zip(undersized, corrected_bits(image, undersized, registry)) if bits}
    return [d for d in detections if id(d) not in art]


def _without_art(read: BoardRead, detections: Sequence[Detection], image: npt.NDArray[np.uint8],
                 registry: CodeRegistry, boards: BoardReader) -> BoardRead:
    """The board without its tiles that lie off its lattice's spaces (``OFF_SPACE_CORRECTED``) and whose bits read
    only with corrections: board art taken for a sticker lies anywhere, a tile on a space (as the undersized reads
    ``SMALL_READ`` drops, they are no sticker and are not reported)."""
    from companion.vision.reader import corrected_bits

    if read.lattice.to_image is None:
        return read
    tiles = [d for d in detections if registry.by_code(d.code).kind in boards.tile_kinds]
    if not tiles:
        return read
    off = [d for d, (_, misfit) in zip(tiles, read.lattice.locate([d.center for d in tiles]))
           if misfit > OFF_SPACE_CORRECTED]
    art = {id(d) for d, bits in zip(off, corrected_bits(image, off, registry)) if bits}
    if not art:
        return read
    return read_board([d for d in detections if id(d) not in art], registry, boards)


def _one_place(image: npt.NDArray[np.uint8], pieces: list[tuple[Detection, Component]],
               registry: CodeRegistry) -> list[tuple[Detection, Component]]:
    """The pieces less the reads of a piece read elsewhere with fewer bits corrected (``worse_reads``: one tile shows
    one face in one place, the other read is board art), over the first read and every second look."""
    from companion.vision.reader import corrected_bits, worse_reads

    worse = {id(d) for d in worse_reads([d for d, _ in pieces], registry,
                                        lambda reads: corrected_bits(image, reads, registry))}
    return [(d, c) for d, c in pieces if id(d) not in worse]


def _off_line(detections: Sequence[Detection]) -> float:
    """How far the farthest of the detections lies from the straight line through them all, in sticker widths."""
    centers = np.array([d.center for d in detections], dtype=np.float64)
    centers -= centers.mean(axis=0)
    across = np.linalg.svd(centers, full_matrices=False)[2][-1]  # the direction with the least spread
    sides = np.array([d.side_px for d in detections])
    return float(np.max(np.abs(centers @ across) / sides))


def _fragments(detections: Sequence[Detection], link_stickers: float) -> list[list[int]]:
    """Groups of detections linked by steps shorter than ``link_stickers`` sticker widths."""
    n = len(detections)
    if n == 0:
        return []
    centers = np.array([d.center for d in detections])
    sides = np.array([d.side_px for d in detections])
    apart = np.linalg.norm(centers[:, None] - centers[None, :], axis=2) / ((sides[:, None] + sides[None, :]) / 2)
    near = apart < link_stickers
    label = list(range(n))

    def root(i: int) -> int:
        while label[i] != i:
            label[i] = label[label[i]]
            i = label[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(near, 1))):
        label[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _joinable(groups: list[list[int]], fragment: list[int], pieces: Sequence[tuple[Detection, Component]],
              pitch: float, table: TableReader, lattices: dict[tuple[int, ...], LatticeFit],
              limit: float = MERGE_RESIDUAL) -> list[int] | None:
    """The board already found that ``fragment`` lies on best, or None: every tile of the fragment within
    ``limit`` of a space of the board's lattice, the two no larger than one board, no standing piece of another
    seat (the nearest board of those that fit best)."""
    best: tuple[float, list[int]] | None = None
    labelled: tuple[float, list[int]] | None = None
    for group in sorted(groups, key=lambda g: _gap(g, fragment, pieces)):
        if _gap(group, fragment, pieces) > table.board_span * pitch:
            break
        if len(_seats(group + fragment, pieces, table)) > 1:
            continue
        placed = _label_misfit(group, fragment, pieces, table)
        if placed is not None and placed > LABEL_FAR:
            continue  # its labels put the fragment's tiles elsewhere on this board: not its part
        if placed is not None and placed <= LABEL_NEAR and (labelled is None or placed < labelled[0]):
            labelled = (placed, group)
        misfit = _misfit(group, fragment, pieces, pitch, table, lattices)
        if misfit <= limit and (best is None or misfit < best[0] - 0.05):
            best = (misfit, group)
    chosen = labelled or best
    return chosen[1] if chosen is not None else None


LABEL_NEAR, LABEL_FAR = 0.5, 1.5
"""Spaces: a fragment whose tiles all lie within ``LABEL_NEAR`` of their labelled spaces, as a board's own tiles place
its layout, is that board's part; one with a tile beyond ``LABEL_FAR`` is not (``_label_misfit``)."""
LAYOUT_TRUSTED = 0.4
"""Spaces: a board's tiles all within this of their labelled spaces show that the layout is the board's."""


def _label_misfit(group: list[int], fragment: list[int], pieces: Sequence[tuple[Detection, Component]],
                  table: TableReader) -> float | None:
    """How far (in spaces) the fragment's farthest tile lies from its labelled space, where the group's own tiles
    place the layout (``TableReader.home``; a turn, scale and shift fitted on them), or None when that cannot tell: a
    game without a layout, fewer than 3 labelled tiles on the board, or a layout the board's tiles do not follow (a
    provisional layout not yet calibrated)."""
    def homes(indices: Sequence[int]) -> tuple[list[Point], list[Point]]:
        found = [(h, pieces[i][0].center) for i in indices if (h := table.home(pieces[i][1])) is not None]
        return [h for h, _ in found], [c for _, c in found]

    plan, seen = homes(group)
    far_plan, far_seen = homes(fragment)
    if len(plan) < 3 or not far_plan:
        return None
    fitted, _ = cv2.estimateAffinePartial2D(np.array(plan, np.float32), np.array(seen, np.float32))
    if fitted is None:
        return None
    scale = math.sqrt(abs(float(np.linalg.det(fitted[:, :2]))))  # pixels a space
    if scale <= 0:
        return None

    def off(points: list[Point], centers: list[Point]) -> float:
        placed = np.array(points) @ fitted[:, :2].T + fitted[:, 2]
        return float(np.max(np.linalg.norm(placed - np.array(centers), axis=1))) / scale

    if off(plan, seen) > LAYOUT_TRUSTED:
        return None
    return off(far_plan, far_seen)


def _misfit(group: list[int], fragment: list[int], pieces: Sequence[tuple[Detection, Component]], pitch: float,
            table: TableReader, lattices: dict[tuple[int, ...], LatticeFit]) -> float:
    """How far (in spaces) the fragment's farthest tile lies from a space of the group's lattice (infinite when
    the two together are larger than a board); ``lattices`` keeps each group's lattice (a board is tried against
    every fragment near it)."""
    tiles = [i for i in fragment if pieces[i][1].kind in table.boards.tile_kinds]  # workers may lie beside
    known = [i for i in group if pieces[i][1].kind in table.boards.tile_kinds]
    chosen = tuple(known if len(known) >= 3 else group)
    fit = lattices.get(chosen)
    if fit is None:
        fit = lattices[chosen] = fit_lattice([pieces[i][0] for i in chosen], pitch)
    if fit.to_image is not None:
        spots = fit.locate([pieces[i][0].center for i in tiles])
        coords = list(fit.coords) + [at for at, _ in spots]
        misfit = max(off for _, off in spots)
    else:  # too few stickers for a mapping: the two measured together
        both = fit_lattice([pieces[i][0] for i in known + tiles], pitch)
        coords, misfit = list(both.coords), max(both.residuals)
    plane = axial_to_plane(np.array(coords, dtype=np.float64))
    if float(np.max(np.linalg.norm(plane[:, None] - plane[None, :], axis=2))) > table.board_span:
        return math.inf
    return misfit


def _gap(group: Sequence[int], other: Sequence[int], pieces: Sequence[tuple[Detection, Component]]) -> float:
    """The shortest distance between the two groups' stickers, in sticker widths."""
    a = np.array([pieces[i][0].center for i in group])
    b = np.array([pieces[j][0].center for j in other])
    sides = np.array([pieces[i][0].side_px for i in group])
    return float((np.linalg.norm(a[:, None] - b[None, :], axis=2) / sides[:, None]).min())


def _seats(indices: Sequence[int], pieces: Sequence[tuple[Detection, Component]], table: TableReader) -> set[int]:
    """The seats the standing pieces among ``indices`` belong to."""
    return {s for s in (table.seat_of(pieces[i][1]) for i in indices) if s is not None}


def _reading_frame(row: Sequence[Detection]) -> tuple[np.ndarray, np.ndarray] | None:
    """The row's reading direction (the mean of its markers' left-to-right edges) and its centre, or None."""
    if not row:
        return None
    edges = np.array([np.subtract(d.corners[1], d.corners[0]) for d in row], dtype=np.float64)
    direction = (edges / np.linalg.norm(edges, axis=1, keepdims=True)).sum(axis=0)
    norm = float(np.linalg.norm(direction))
    if norm < 1e-6:
        return None
    return direction / norm, np.mean([d.center for d in row], axis=0)


def _in_order(row: Sequence[Detection]) -> list[Detection]:
    """The row's pieces from its first space to its last (along the markers' reading direction)."""
    frame = _reading_frame(row)
    if frame is None:
        return list(row)
    direction, _ = frame
    return sorted(row, key=lambda d: float(np.dot(d.center, direction)))


def _seat(reads: Sequence[BoardRead], table: TableReader, registry: CodeRegistry, seats: int,
          row: Sequence[Detection], office: Sequence[Detection]) -> list[SeatedBoard]:
    """Each board's seat: by the standing pieces on it, then by where it lies round the shared board."""
    votes = []
    for read in reads:
        told = Counter(s for s in (table.seat_of(registry.by_code(p.code)) for p in read.workers) if s is not None)
        votes.append(told.most_common(1)[0] if told else None)
    seat_of: dict[int, tuple[int, str]] = {}
    taken: set[int] = set()
    for k in sorted((k for k, v in enumerate(votes) if v is not None), key=lambda k: -votes[k][1]):  # type: ignore[index]
        seat = votes[k][0]  # type: ignore[index]
        if seat not in taken and seat < seats:
            seat_of[k] = (seat, "workers")
            taken.add(seat)
    frame = _reading_frame(row)
    if frame is not None:
        across, middle = frame
    else:  # no row: the frame's own axes about the middle of everything
        across = np.array([1.0, 0.0])
        middle = np.mean([p.center for r in reads for p in r.pieces] + [d.center for d in office], axis=0) \
            if reads else np.zeros(2)
    down = np.array([-across[1], across[0]])  # the row's "below" (x right, y down)

    def angle(read: BoardRead) -> float:
        offset = np.mean([p.center for p in read.pieces], axis=0) - middle
        return math.atan2(-float(offset @ down), float(offset @ across))

    free = [s for s in range(seats) if s not in taken]
    rest = sorted((k for k in range(len(reads)) if k not in seat_of and reads[k].pieces), key=lambda k: angle(reads[k]))
    for k, seat in zip(rest, free):
        seat_of[k] = (seat, "place")
    return [SeatedBoard(read, *(seat_of.get(k, (None, "none")))) for k, read in enumerate(reads)]
