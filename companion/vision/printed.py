"""Boards read by their printed geometry: stickers at known places on a board locate it, pieces land on its spaces.

Key Harvest's tiles lie on a hex lattice that the stickers themselves reveal (``companion.vision.board``). Other
boards have spaces of their own shape (Keyper's plots and fair spaces, Key Market's fields): there the game names
**anchor** stickers stuck at known places of each board (Keyper: one in each corner of a player board; Key Market:
each field's own sticker), and where each space lies on that board, in millimetres (its data file, provisional).
Three or more anchors seen give the board's mapping to the photo (a homography from four); every other sticker of
the game is mapped back onto the board and lands on the space it lies in, or between spaces (a conflict), or
beside the board (reported, not placed). The game reads the placed pieces (``PrintedBoardReader``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry, Component
from companion.core.boards import BoardPhoto, BoardReader, Conflict, Coord, Piece, Point
from companion.core.errors import MalformedInputError
from companion.core.messages import Message, Text, msg
from companion.vision.board import BoardRead, LatticeFit, _odd_sizes, of_game, seen_twice
from companion.vision.detection import Detection

ON_SPACE = 0.6
"""A sticker whose centre lies within this share of a space's half-size from its centre is on that space."""
BETWEEN = 1.05
"""Further out but within this share it lies between spaces (a conflict: 1 is the edge a space shares with its
neighbour); beyond, it is not on a space."""
Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Spot:
    """A space on a printed board: its name, centre and half-size (mm, on the board as printed) and the kinds of
    piece that go there."""

    label: str
    centre: Point
    half: Point
    kinds: frozenset[str]


@dataclass(frozen=True)
class Frame:
    """One printed board (or one side of one): its anchor stickers' centres and its spaces, in mm."""

    name: str
    anchors: Mapping[str, Point]
    spots: tuple[Spot, ...]
    size: Point
    """Width and height (mm): a sticker mapped outside is beside the board."""


@dataclass(frozen=True)
class Located:
    """A frame found on the photo: its index in the reader's frames and its mapping from board mm to pixels."""

    index: int
    to_image: Array
    anchors: int


class PrintedBoardReader(BoardReader):
    """A game whose boards are found by anchor stickers at known places (``frames``), not by a hex lattice."""

    whole_table: bool = False
    """True: one photo shows every player's pieces (Key Market's territory); ``scan --board`` then reads one photo
    and ``table`` makes the snapshot. False: one photo per player board; the frame with most anchors is the board."""
    not_found: Text = ""
    """Why no board was found (a message naming the anchors to stick)."""

    @abstractmethod
    def frames(self) -> Sequence[Frame]:
        """Every board the game's anchors can locate."""

    def table(self, names: Sequence[str], board: BoardPhoto, hidden: Mapping[str, Mapping[str, Any]],
              given: Mapping[str, Any]) -> dict[str, Any]:
        """The snapshot of a whole-table photo for players ``names`` (seat order), with each player's ``hidden``
        extras and the table's ``given`` ones (``parse_table``)."""
        raise MalformedInputError(f"{self.game}: one photo per player board, not one of the whole table")

    def parse_table(self, text: str) -> dict[str, Any]:
        """What a camera cannot see that belongs to the whole table (``scan --given``), checked."""
        raise MalformedInputError(f"{self.game}: nothing is given for the whole table")

    def belongs(self, component: Component, frame: int) -> Text | None:
        """Why ``component``, lying on a space of ``frames()[frame]``, is not that board's (``None``: it is)."""
        return None

    def spot(self, at: Coord) -> tuple[Frame, Spot]:
        """The frame and space a placed piece's ``at`` names (frame index, space index)."""
        frame = self.frames()[at[0]]
        return frame, frame.spots[at[1]]


def read_printed(detections: Sequence[Detection], registry: CodeRegistry, boards: PrintedBoardReader) -> BoardRead:
    """Locate the game's boards by their anchors and place every other sticker of the game on a space."""
    frames = boards.frames()
    anchor_of = {code: (i, point) for i, frame in enumerate(frames) for code, point in frame.anchors.items()}
    anchors: list[tuple[Detection, int, Point]] = []
    pieces: list[tuple[Detection, Component]] = []
    ours, others = of_game(detections, registry, boards.game)
    for detection, component in ours:
        if component.code in anchor_of:
            anchors.append((detection, *anchor_of[component.code]))
        elif component.kind in boards.tile_kinds or component.kind in boards.standing_kinds:
            pieces.append((detection, component))
        else:
            others.append((detection, boards.not_placed(component.kind)))
    odd = _odd_sizes([d for d, _ in pieces] + [d for d, _, _ in anchors])[:len(pieces)]
    others += [(d, msg("core.camera.odd_size"))
               for (d, _), wrong in zip(pieces, odd) if wrong]
    pieces = [pair for pair, wrong in zip(pieces, odd) if not wrong]
    located = _locate(anchors, frames, boards.whole_table)
    sizes = [d.side_px for d in detections]
    lattice = LatticeFit((), (), float(np.median(sizes)) if sizes else 0.0)
    if not located:
        conflicts = (Conflict("no-board", msg("core.camera.no_board", game=boards.game, why=boards.not_found),
                              tuple(d.code for d, _ in pieces)),) if pieces else ()
        return BoardRead((), conflicts, boards.tile_kinds, tuple(others), lattice)
    placed: list[Piece] = []
    found: list[Conflict] = []
    for detection, component in pieces:
        where = _place(detection.center, component.kind, located, frames)
        if where is None:
            others.append((detection, msg("core.camera.beside_board")))
        elif isinstance(where, (str, Message)):
            others.append((detection, where))
        elif (refused := boards.belongs(component, where[0][0])) is not None:
            others.append((detection, refused))
        else:
            at, off = where
            piece = Piece(component.code, component.kind, component.key, component.side, at, detection.center)
            if off > ON_SPACE:
                found.append(Conflict("off-space", msg("core.camera.off_space", code=component.code,
                                                       x=f"{detection.center[0]:.0f}", y=f"{detection.center[1]:.0f}",
                                                       off=f"{off:.2f}"), (component.code,)))
            placed.append(piece)
    found += _conflicts(placed, boards)
    return BoardRead(tuple(placed), tuple(found), boards.tile_kinds, tuple(others), lattice)


def _locate(anchors: Sequence[tuple[Detection, int, Point]], frames: Sequence[Frame], every: bool) -> list[Located]:
    """Each frame with 3 or more anchors seen, mapped to the photo (``every`` False: only the best one)."""
    by_frame: dict[int, list[tuple[Detection, Point]]] = {}
    for detection, index, point in anchors:
        by_frame.setdefault(index, []).append((detection, point))
    located = []
    for index, seen in sorted(by_frame.items()):
        if len({d.code for d, _ in seen}) < 3:
            continue
        board = np.array([p for _, p in seen], dtype=np.float64)
        image = np.array([d.center for d, _ in seen], dtype=np.float64)
        mapping = _mapping(board, image, float(np.median([d.side_px for d, _ in seen])))
        if mapping is not None:
            located.append(Located(index, mapping, len(seen)))
    if not every and located:
        return [max(located, key=lambda f: f.anchors)]
    return located


def _mapping(board: Array, image: Array, sticker_px: float) -> Array | None:
    """Board mm to pixels: a homography from 4 or more anchors (RANSAC from 5), an affine map from 3."""
    if len(board) >= 4:
        method = cv2.RANSAC if len(board) >= 5 else 0
        h, _ = cv2.findHomography(board, image, method, max(2.0, 0.5 * sticker_px))
        if h is not None and abs(np.linalg.det(h)) > 1e-12:
            return np.asarray(h, dtype=np.float64)
    spread = np.linalg.svd(board - board.mean(axis=0), compute_uv=False)
    if spread[-1] < 1.0:  # all in one line
        return None
    affine, _ = cv2.estimateAffine2D(board, image)
    if affine is None:
        return None
    return np.vstack([affine, [0.0, 0.0, 1.0]]).astype(np.float64)


def _place(center: Point, kind: str, located: Sequence[Located], frames: Sequence[Frame]
           ) -> tuple[Coord, float] | Text | None:
    """The space (frame index, space index) a sticker lies on and how far from its centre (share of its
    half-size); a reason when it lies on a board but on no space for its kind; ``None`` beside every board."""
    best: tuple[float, Coord] | None = None
    on_board = False
    for frame in located:
        inverse = np.linalg.inv(frame.to_image)
        x, y = cv2.perspectiveTransform(np.array([[center]], dtype=np.float64), inverse)[0, 0]
        board = frames[frame.index]
        if not (0.0 <= x <= board.size[0] and 0.0 <= y <= board.size[1]):
            continue
        on_board = True
        for n, spot in enumerate(board.spots):
            if kind not in spot.kinds:
                continue
            off = max(abs(x - spot.centre[0]) / spot.half[0], abs(y - spot.centre[1]) / spot.half[1])
            if best is None or off < best[0]:
                best = (float(off), (frame.index, n))
    if best is not None and best[0] <= BETWEEN:
        return best[1], best[0]
    return msg("core.camera.not_on_space") if on_board else None


def _conflicts(pieces: Sequence[Piece], boards: PrintedBoardReader) -> list[Conflict]:
    """A sticker seen twice, both sides of one component, two pieces on one space."""
    found: list[Conflict] = []
    label = {p.at: boards.spot(p.at)[1].label for p in pieces}
    found += seen_twice(pieces, label.__getitem__)
    at: dict[Coord, set[str]] = {}
    for piece in pieces:
        at.setdefault(piece.at, set()).add(piece.code)
    for coord, codes in at.items():
        if len(codes) > 1:
            found.append(Conflict("same-space", msg("core.camera.same_space", space=label[coord], codes=sorted(codes)),
                                  tuple(sorted(codes))))
    return found
