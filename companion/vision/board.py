"""A player's board from one photo: fit the hex lattice to the stickers and place every piece on it.

Tiles lie on the hex spaces of a player's board, so the sticker centres are the image of a hex
lattice under the camera's perspective. The fit needs nothing but the stickers themselves:

1. Each sticker's four corners give the local metric of the board plane (``A·Aᵀ`` of the
   sticker's affine frame does not depend on how the sticker is turned), so a vector between two
   stickers can be measured in sticker widths, free of tilt and of the photo's rotation.
2. The lattice pitch is the median distance to the nearest sticker, and its direction the angle
   (mod 60 degrees) that makes most sticker-to-sticker vectors whole lattice steps.
3. A spanning tree of the best-fitting vectors gives every sticker axial coordinates.
4. A homography from the lattice to the image is then fitted to all stickers at once (RANSAC),
   and every sticker is rounded to its nearest space again, until nothing changes; this removes
   the perspective that the local measurements only approximated.

Adjacency therefore comes from the photo, never from the printed layout. Which stickers lie on the
lattice, and what the placed pieces mean, is the game's (its ``BoardReader``, companion/core/boards.py):
this module knows geometry, not games.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry, Component
from companion.core.boards import BoardPhoto, BoardReader, Conflict, Coord, Piece
from companion.core.errors import CompanionError, UnknownCodeError
from companion.core.messages import Text, msg
from companion.vision.detection import Detection, Point, Reader, Sides
from companion.vision.markers import BORDER_MODULES, marker_dictionary, sticker_modules

Array = npt.NDArray[np.float64]

OFF_SPACE = 0.38
"""A tile's sticker further than this (in pitches) from the nearest space centre is not on a space."""
SIZE_TOLERANCE = 0.2
"""A sticker whose apparent size is this far from its neighbours' is not one of the board's stickers."""
SECOND_LOOK_PX_PER_PITCH = 100.0
"""The straightened board's resolution for the second look (a 12 mm marker on 27 mm spaces: 44 px)."""
SECOND_LOOK_MARGIN = 1.5
"""How far (in pitches) beyond the outermost pieces the second look reaches."""
SECOND_LOOK_MAX_PX = 2400.0
SECOND_LOOK_SIDES = (0.65, 1.45)
"""The marker sides looked for on the straightened board, as parts of its expected side (every sticker there is
one size; a standing piece's sticker, nearer the camera, a little larger)."""
MASK_STICKERS = 1.45
"""Stickers already read are painted over on the straightened board (this many marker widths square, the sticker
with its quiet zone) in the colour around them, so the second look spends nothing on them."""
FEW_TILES = 8
FIT_RESIDUAL = 0.2
"""Below this many tiles, or when a tile lies this far from its space, the lattice is also fitted to the tiles
and the standing pieces together (workers stand on spaces too), and the fit that places the tiles better wins."""
WORKER_OFF_SPACE = 0.3
"""A worker further than this from a space centre lies beside the board, not on it."""
SQRT3_2 = math.sqrt(3.0) / 2.0
NEIGHBOURS: tuple[Coord, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""The six hex directions, counter-clockwise on the page (y up) = clockwise in the image (y down)."""


# ---------------------------------------------------------------------------------------------- lattice


def axial_to_plane(coords: Array) -> Array:
    """Axial ``[q, r]`` rows to board-plane points in pitches (pointy-top hexes, r grows downwards)."""
    q, r = coords[:, 0], coords[:, 1]
    return np.column_stack([q + 0.5 * r, SQRT3_2 * r])


def plane_to_axial(points: Array) -> Array:
    """Board-plane points (pitches) to fractional axial coordinates."""
    r = points[:, 1] / SQRT3_2
    return np.column_stack([points[:, 0] - 0.5 * r, r])


def hex_round(frac: Array) -> npt.NDArray[np.int64]:
    """The nearest hex of each fractional axial coordinate (cube rounding)."""
    q, r = frac[:, 0], frac[:, 1]
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return np.column_stack([rq, rr]).astype(np.int64)


def sticker_metric(corners: Sequence[Point]) -> Array:
    """The 2x2 metric tensor ``A·Aᵀ`` of a sticker's affine frame (pixels per sticker width, squared).

    ``A``'s columns are the sticker's x and y edges in pixels; turning the sticker turns ``A`` by a
    rotation, which ``A·Aᵀ`` cancels, so this measures the board plane near the sticker only.
    """
    c = np.asarray(corners, dtype=np.float64)
    ex = ((c[1] - c[0]) + (c[2] - c[3])) / 2.0
    ey = ((c[3] - c[0]) + (c[2] - c[1])) / 2.0
    a = np.column_stack([ex, ey])
    result: Array = a @ a.T
    return result


def _inverse_sqrt(metrics: Array) -> Array:
    """``M^(-1/2)`` of each symmetric 2x2 matrix in the stack (the last two axes)."""
    values, vectors = np.linalg.eigh(metrics)
    scale = np.maximum(values, 1e-9) ** -0.5
    result: Array = np.einsum("...ik,...k,...jk->...ij", vectors, scale, vectors)
    return result


@dataclass(frozen=True)
class LatticeFit:
    """Axial coordinates for each sticker, how far each lies from its space, and the fitted mapping."""

    coords: tuple[Coord, ...]
    residuals: tuple[float, ...]
    """Distance from the sticker centre to its space centre, in pitches."""
    pitch_px: float
    """The median distance between neighbouring space centres in the image, in pixels."""
    to_image: Array | None = field(default=None, compare=False)
    """3x3 homography from board-plane points (pitches, after the coordinate shift) to pixels."""

    def space_center(self, coord: Coord) -> Point:
        """Where the centre of space ``coord`` lies in the image."""
        if self.to_image is None:
            raise ValueError("no mapping was fitted (fewer than three stickers)")
        plane = axial_to_plane(np.array([coord], dtype=np.float64))
        x, y = cv2.perspectiveTransform(plane.reshape(1, 1, 2), self.to_image)[0, 0]
        return (float(x), float(y))

    def locate(self, points: Sequence[Point]) -> list[tuple[Coord, float]]:
        """The space each image point lies on and how far from its centre (pitches), by the fitted mapping."""
        if self.to_image is None or not points:
            raise ValueError("no mapping was fitted (fewer than three stickers, or all in one row)")
        plane = _to_plane(np.array(points, dtype=np.float64), self.to_image)
        coords = hex_round(plane_to_axial(plane))
        misfit = np.linalg.norm(plane - axial_to_plane(coords.astype(np.float64)), axis=1)
        return [((int(q), int(r)), float(m)) for (q, r), m in zip(coords, misfit)]


def fit_lattice(detections: Sequence[Detection], pitch_stickers: float) -> LatticeFit:
    """Give each detection the axial coordinates of the hex space it lies on.

    ``pitch_stickers`` is the expected distance between neighbouring spaces in sticker widths (the
    registry's tile size over its sticker size); the photo's own nearest-neighbour distances refine it.
    Coordinates are shifted so the topmost row is ``r = 0`` and its leftmost piece ``q = 0``.
    """
    n = len(detections)
    if n == 0:
        return LatticeFit((), (), 0.0)
    centers = np.array([d.center for d in detections], dtype=np.float64)
    metrics = np.array([sticker_metric(d.corners) for d in detections])
    side_px = float(np.median([d.side_px for d in detections]))
    if n == 1:
        return LatticeFit(((0, 0),), (0.0,), pitch_stickers * side_px)

    # 1. every pair's vector measured in sticker widths with the metric at its midpoint
    mid = (metrics[:, None] + metrics[None, :]) / 2.0
    diff = centers[None, :] - centers[:, None]
    local = np.einsum("ijab,ijb->ija", _inverse_sqrt(mid), diff)
    length = np.linalg.norm(local, axis=2)
    np.fill_diagonal(length, np.inf)

    # 2. pitch from nearest neighbours near the expected value; direction by scanning 0-60 degrees
    pitch = _pitch(length.min(axis=1), pitch_stickers)
    upper = np.triu(np.ones((n, n), dtype=bool), k=1)
    for reach in (2.2, 4.5, np.inf):  # near pairs suffice when there are enough of them
        chosen = upper & (length < reach * pitch)
        if chosen.sum() >= 6 or reach == np.inf:
            break
    vectors = local[chosen] / pitch
    weights = 1.0 / np.maximum(np.linalg.norm(vectors, axis=1), 1.0)

    def best(angles: Array) -> float:
        fit = (weights * np.exp(-(_step_residuals(vectors, angles) / 0.12) ** 2)).sum(axis=1)
        return float(angles[int(np.argmax(fit))])

    coarse = best(np.radians(np.arange(0.0, 60.0, 1.0)))
    best_angle = best(coarse + np.radians(np.arange(-1.0, 1.01, 0.1)))
    best_angle %= math.radians(60.0)
    if best_angle > math.radians(30.0):  # the lattice axis nearest the image's x axis is q
        best_angle -= math.radians(60.0)

    # 3. spanning tree over the vectors that round best, shortest first
    flat = local.reshape(-1, 2) / pitch
    turned = _rotate(flat, -best_angle)
    steps = hex_round(plane_to_axial(turned))
    misfit = np.linalg.norm(turned - axial_to_plane(steps.astype(np.float64)), axis=1)
    cost = (misfit + 0.05 * np.linalg.norm(flat, axis=1)).reshape(n, n)
    steps = steps.reshape(n, n, 2)
    degree = (length < 1.3 * pitch).sum(axis=1)
    root = int(np.argmax(degree))
    coords = np.zeros((n, 2), dtype=np.int64)
    # Prim's algorithm: reach every sticker by its cheapest vector from one already placed
    best_cost, best_from = cost[root].copy(), np.full(n, root)
    done = np.zeros(n, dtype=bool)
    done[root] = True
    best_cost[root] = np.inf
    for _ in range(n - 1):
        j = int(np.argmin(np.where(done, np.inf, best_cost)))
        coords[j] = coords[best_from[j]] + steps[best_from[j], j]
        done[j] = True
        better = ~done & (cost[j] < best_cost)
        best_cost[better], best_from[better] = cost[j][better], j

    # 4. one mapping for the whole board, then round again until stable
    to_image: Array | None = None
    pitch_px = pitch * side_px
    for _ in range(6):
        mapping = _fit_mapping(axial_to_plane(coords.astype(np.float64)), centers, pitch_px)
        if mapping is None:
            break
        to_image = mapping
        plane = _to_plane(centers, mapping)
        rounded = hex_round(plane_to_axial(plane))
        if np.array_equal(rounded, coords):
            break
        coords = rounded
    if to_image is not None:
        plane = _to_plane(centers, to_image)
        residuals = np.linalg.norm(plane - axial_to_plane(coords.astype(np.float64)), axis=1)
        pitch_px = _pitch_px(to_image, coords)
    else:
        plane_steps = axial_to_plane(coords.astype(np.float64))
        measured = np.array([_rotate(local[root, j] / pitch, -best_angle) for j in range(n)])
        residuals = np.linalg.norm(measured - (plane_steps - plane_steps[root]), axis=1)

    # shift: the top row is r = 0, its leftmost piece q = 0
    top = int(coords[:, 1].min())
    left = int(coords[coords[:, 1] == top][:, 0].min())
    shift = np.array([left, top])
    if to_image is not None:
        to_image = to_image @ _translation(axial_to_plane(shift[None, :].astype(np.float64))[0])
    coords = coords - shift
    return LatticeFit(
        tuple((int(q), int(r)) for q, r in coords),
        tuple(float(x) for x in residuals),
        float(pitch_px),
        to_image,
    )


def _pitch(nearest: Array, expected: float) -> float:
    """The space pitch in sticker widths: the typical distance to the nearest sticker.

    Distances far below ``expected`` (one sticker read twice) are ignored; the shortest remaining
    ones are taken as one step, since a tile is at least one step from any other. Too few, or a
    value far from ``expected``, and ``expected`` is used.
    """
    usable = np.sort(nearest[(nearest > 0.5 * expected) & np.isfinite(nearest)])
    if len(usable) < 2:
        return expected
    shortest = float(usable[len(usable) // 10])
    steps = usable[(usable > 0.9 * shortest) & (usable < 1.25 * shortest)]
    pitch = float(np.median(steps))
    return pitch if 0.6 * expected < pitch < 1.8 * expected else expected


def _rotate(v: Array, angle: float) -> Array:
    c, s = math.cos(angle), math.sin(angle)
    rotated: Array = np.array([[c, -s], [s, c]]) @ v.T
    return rotated.T


def _step_residuals(vectors: Array, angles: Array) -> Array:
    """For each angle (rows) and vector (columns, in pitches): how far the vector lies from the
    nearest lattice vector of a lattice turned by that angle."""
    c, s = np.cos(-angles)[:, None], np.sin(-angles)[:, None]
    turned = np.stack([c * vectors[:, 0] - s * vectors[:, 1], s * vectors[:, 0] + c * vectors[:, 1]], axis=-1)
    flat = turned.reshape(-1, 2)
    nearest = axial_to_plane(hex_round(plane_to_axial(flat)).astype(np.float64))
    result: Array = np.linalg.norm(flat - nearest, axis=1).reshape(len(angles), len(vectors))
    return result


def _to_plane(pixels: Array, to_image: Array) -> Array:
    """Image points back on the board plane (pitches)."""
    plane = cv2.perspectiveTransform(pixels.reshape(-1, 1, 2), np.linalg.inv(to_image))
    return np.asarray(plane.reshape(-1, 2), dtype=np.float64)


def _translation(offset: Array) -> Array:
    return np.array([[1.0, 0.0, offset[0]], [0.0, 1.0, offset[1]], [0.0, 0.0, 1.0]])


def _fit_mapping(plane: Array, centers: Array, pitch_px: float) -> Array | None:
    """A homography (6+ stickers spread in 2-D) or an affine map (3+) from the plane to the image."""
    n = len(plane)
    spread = np.linalg.svd(plane - plane.mean(axis=0), compute_uv=False)
    if n < 3 or spread[-1] < 0.3:  # all in one row: no 2-D mapping can be trusted
        return None
    threshold = 0.3 * pitch_px
    if n >= 6 and spread[-1] > 1.0:
        h, _ = cv2.findHomography(plane, centers, cv2.RANSAC, threshold)
        if h is not None and abs(np.linalg.det(h)) > 1e-12:
            result: Array = h.astype(np.float64)
            return result
    affine, _ = cv2.estimateAffine2D(plane, centers, method=cv2.RANSAC, ransacReprojThreshold=threshold)
    if affine is None:
        return None
    full: Array = np.vstack([affine, [0.0, 0.0, 1.0]]).astype(np.float64)
    return full


def _pitch_px(to_image: Array, coords: npt.NDArray[np.int64]) -> float:
    """The median image distance from each occupied space to its right-hand neighbour."""
    plane = axial_to_plane(coords.astype(np.float64))
    ends = np.concatenate([plane, plane + np.array([1.0, 0.0])])
    image = cv2.perspectiveTransform(ends.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    n = len(plane)
    return float(np.median(np.linalg.norm(image[n:] - image[:n], axis=1)))


# ---------------------------------------------------------------------------------------------- pieces


@dataclass(frozen=True)
class BoardRead(BoardPhoto):
    """One photographed board: the placed pieces, any conflicts, what was seen but not placed, and the lattice."""

    others: tuple[tuple[Detection, Text], ...]
    """Stickers that are not board pieces (events, unknown codes) with the reason."""
    lattice: LatticeFit

    def to_json(self) -> dict[str, Any]:
        """Everything read, for the camera page and ``companion scan --board --json``."""
        return {
            "pieces": [{"code": p.code, "kind": p.kind, "tile": p.kind in self.tile_kinds, "key": p.key, "side": p.side,
                        "at": list(p.at), "center": [round(p.center[0], 1), round(p.center[1], 1)]}
                       for p in self.pieces],
            "others": [{"code": d.code, "reason": reason} for d, reason in self.others],
            "conflicts": [{"kind": c.kind, "message": c.message, "codes": list(c.codes)} for c in self.conflicts],
            "pitch_px": round(self.lattice.pitch_px, 1),
        }


def pitch_in_stickers(registry: CodeRegistry, boards: BoardReader) -> float:
    """The expected distance between space centres in marker widths (the black square the reader finds),
    from the registry's sizes of the game's tiles and their stickers and the marker's share of its sticker."""
    family = marker_dictionary(registry.marker_family)
    marker_share = (family.markerSize + 2 * BORDER_MODULES) / sticker_modules(registry.marker_family)
    for component in registry.for_game(boards.game):
        if component.kind in boards.tile_kinds:
            return component.component_mm / (component.sticker_mm * marker_share)
    raise UnknownCodeError(f"the registry has no {boards.game} tiles")


def read_board(detections: Sequence[Detection], registry: CodeRegistry, boards: BoardReader) -> BoardRead:
    """Place every tile and standing piece of the game's board seen on one photo; its other stickers are
    reported, not placed (``boards`` says which are which). Boards located by anchor stickers rather than a hex
    lattice (Keyper, Key Market) are read by ``companion.vision.printed``."""
    from companion.vision.printed import PrintedBoardReader, read_printed

    if isinstance(boards, PrintedBoardReader):
        return read_printed(detections, registry, boards)
    ours, others = of_game(detections, registry, boards.game)
    on_board: list[tuple[Detection, Component]] = []
    for detection, component in ours:
        if component.kind in boards.tile_kinds or component.kind in boards.standing_kinds:
            on_board.append((detection, component))
        else:
            others.append((detection, boards.not_placed(component.kind)))
    odd = _odd_sizes([d for d, _ in on_board])
    others += [(d, msg("core.camera.odd_size"))
               for (d, _), wrong in zip(on_board, odd) if wrong]
    on_board = [pair for pair, wrong in zip(on_board, odd) if not wrong]
    pitch = pitch_in_stickers(registry, boards)
    fields = [(d, c) for d, c in on_board if c.kind in boards.tile_kinds]
    people = [(d, c) for d, c in on_board if c.kind not in boards.tile_kinds]
    lattice = fit_lattice([d for d, _ in fields], pitch)
    good = lattice.to_image is not None and max(lattice.residuals, default=0.0) < FIT_RESIDUAL
    if people and good and len(fields) >= FEW_TILES:
        spots = lattice.locate([d.center for d, _ in people])
    else:  # few tiles, far apart, may fix the lattice badly: the workers beside them stand on spaces too
        joint = fit_lattice([d for d, _ in fields + people], pitch)
        if len(fields) < FEW_TILES or lattice.to_image is None or \
                max(joint.residuals[:len(fields)], default=0.0) <= max(lattice.residuals, default=0.0):
            lattice = joint
            spots = list(zip(lattice.coords[len(fields):], lattice.residuals[len(fields):]))
        else:
            spots = lattice.locate([d.center for d, _ in people]) if people else []
    pieces = [Piece(c.code, c.kind, c.key, c.side, at, d.center)
              for (d, c), at in zip(fields, lattice.coords)]
    misfits = list(lattice.residuals[:len(fields)])
    tile_spaces = {piece.at for piece in pieces}
    for (d, c), (at, misfit) in zip(people, spots):
        beside = not any((at[0] + dq, at[1] + dr) in tile_spaces for dq, dr in NEIGHBOURS)
        if misfit > WORKER_OFF_SPACE or (beside and tile_spaces):
            others.append((d, msg("core.camera.worker_beside")))
        else:
            pieces.append(Piece(c.code, c.kind, c.key, c.side, at, d.center))
            misfits.append(misfit)
    return BoardRead(tuple(pieces), tuple(_conflicts(pieces, misfits, boards.tile_kinds)), boards.tile_kinds,
                     tuple(others), lattice)


def read_board_photo(image: npt.NDArray[np.uint8], registry: CodeRegistry, boards: BoardReader,
                     reader: Reader | None = None) -> tuple[BoardRead, list[Detection]]:
    """Read the stickers of one photo and the board they form, with a second look at the board.

    Once the lattice is known, the board is warped to a straight top-down view (perspective and
    rotation removed, every sticker the same size) and read again: a sticker the first look missed
    under tilt or blur is often plain there. Returns the board and every detection used.
    """
    if reader is None:
        from companion.vision.reader import read_codes

        reader = read_codes
    return second_look(image, reader(image, registry), registry, boards, reader)


def second_look(image: npt.NDArray[np.uint8], detections: list[Detection], registry: CodeRegistry,
                boards: BoardReader, reader: Reader, px_per_pitch: float = SECOND_LOOK_PX_PER_PITCH
                ) -> tuple[BoardRead, list[Detection]]:
    """The board of ``detections`` (already read off ``image``), read again on the straightened board
    (``px_per_pitch`` pixels from one space to the next), where the stickers already read are painted over and
    the reader looks only for markers of the size every sticker has there."""
    first = read_board(detections, registry, boards)
    to_image = first.lattice.to_image
    if to_image is None or not first.pieces:
        return first, detections
    plane = axial_to_plane(np.array([p.at for p in first.pieces], dtype=np.float64))
    low, high = plane.min(axis=0) - SECOND_LOOK_MARGIN, plane.max(axis=0) + SECOND_LOOK_MARGIN
    scale = min(px_per_pitch, SECOND_LOOK_MAX_PX / float(max(high - low)))
    to_view = np.array([[scale, 0.0, -low[0] * scale], [0.0, scale, -low[1] * scale], [0.0, 0.0, 1.0]])
    view_to_image = to_image @ np.linalg.inv(to_view)
    width, height = (int(v) for v in np.ceil((high - low) * scale))
    view = np.asarray(cv2.warpPerspective(image, view_to_image, (width, height),
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP), dtype=np.uint8)
    paint_over(view, detections, np.asarray(np.linalg.inv(view_to_image), dtype=np.float64))
    side = scale / pitch_in_stickers(registry, boards)
    seen = {d.code for d in detections}
    added = []
    for found in reader(view, registry, (side * SECOND_LOOK_SIDES[0], side * SECOND_LOOK_SIDES[1])):
        if found.code in seen:
            continue
        corners = cv2.perspectiveTransform(np.array(found.corners, dtype=np.float64).reshape(-1, 1, 2), view_to_image)
        points = [(float(x), float(y)) for x, y in corners.reshape(-1, 2)]
        added.append(Detection(found.code, found.marker_id, (points[0], points[1], points[2], points[3])))
    if not added:
        return first, detections
    detections = detections + added
    return read_board(detections, registry, boards), detections


def paint_over(view: npt.NDArray[np.uint8], detections: Sequence[Detection], image_to_view: Array) -> None:
    """Paint each sticker of ``detections`` (image corners) over on ``view``, in the median colour just outside it."""
    if not detections:
        return
    corners = cv2.perspectiveTransform(np.array([d.corners for d in detections], dtype=np.float64).reshape(-1, 1, 2),
                                       image_to_view).reshape(-1, 4, 2)
    height, width = view.shape[:2]
    middle = corners.mean(axis=1, keepdims=True)
    ring = np.concatenate([corners, (corners + np.roll(corners, 1, axis=1)) / 2], axis=1)  # corners, edge middles
    around = np.round(middle + (ring - middle) * (MASK_STICKERS + 0.3)).astype(int)
    colours = np.median(view[np.clip(around[..., 1], 0, height - 1), np.clip(around[..., 0], 0, width - 1)], axis=1)
    covers = np.round(middle + (corners - middle) * MASK_STICKERS).astype(np.int32)
    for cover, colour in zip(covers, colours):
        cv2.fillConvexPoly(view, cover, colour.tolist() if view.ndim == 3 else float(colour))


def _odd_sizes(detections: Sequence[Detection]) -> list[bool]:
    """Which stickers are much bigger or smaller than the others at their place in the image.

    Every sticker is printed the same size and lies on one plane, so their apparent size varies
    smoothly across the photo (a plane fitted to the sizes, refitted without the outliers).
    """
    if len(detections) < 6:
        return [False] * len(detections)
    sides = np.array([d.side_px for d in detections])
    design = np.array([[1.0, d.center[0], d.center[1]] for d in detections])
    keep = np.ones(len(sides), dtype=bool)
    for _ in range(3):
        fit, *_ = np.linalg.lstsq(design[keep], sides[keep], rcond=None)
        ratio = sides / (design @ fit)
        keep = np.abs(ratio - 1.0) < SIZE_TOLERANCE
    return [not k for k in keep]


def game_title(name: str) -> str:
    """The printed title of the game registered as ``name`` (a sticker of another game names it)."""
    from companion.games import find_game

    try:
        return find_game(name).title
    except CompanionError:
        return name


def of_game(detections: Sequence[Detection], registry: CodeRegistry,
            game: str) -> tuple[list[tuple[Detection, Component]], list[tuple[Detection, Text]]]:
    """The reads of ``game``'s stickers with their components, and every other read with why it is not one."""
    ours: list[tuple[Detection, Component]] = []
    others: list[tuple[Detection, Text]] = []
    for detection in detections:
        try:
            component = registry.by_code(detection.code)
        except UnknownCodeError:
            others.append((detection, msg("core.camera.foreign_code")))
            continue
        if component.game != game:
            others.append((detection, msg("core.camera.other_game", game=game_title(component.game))))
        else:
            ours.append((detection, component))
    return ours, others


def seen_twice(pieces: Sequence[Piece], where: Callable[[Coord], str]) -> list[Conflict]:
    """A sticker seen more than once (``where`` names each place), and both sides of one component in view."""
    found: list[Conflict] = []
    for code, count in Counter(p.code for p in pieces).items():
        if count > 1:
            places = ", ".join(where(p.at) for p in pieces if p.code == code)
            found.append(Conflict("duplicate", msg("core.camera.duplicate", code=code, n=count, where=places), (code,)))
    sides: dict[tuple[str, str], dict[str, str]] = {}
    for piece in pieces:
        if piece.side is not None:
            sides.setdefault((piece.kind, piece.key), {})[piece.side] = piece.code
    for (_, key), seen in sides.items():
        if len(seen) > 1:
            names = sorted(seen)
            found.append(Conflict("both-sides", msg("core.camera.both_sides", tile=key, sides=names),
                                  tuple(seen[n] for n in names)))
    return found


def _conflicts(pieces: Sequence[Piece], residuals: Sequence[float], tile_kinds: frozenset[str]) -> list[Conflict]:
    found: list[Conflict] = []
    for piece, residual in zip(pieces, residuals):
        if residual > OFF_SPACE:
            found.append(Conflict("off-space", msg("core.camera.off_space", code=piece.code,
                                                   x=f"{piece.center[0]:.0f}", y=f"{piece.center[1]:.0f}",
                                                   off=f"{residual:.2f}"), (piece.code,)))
    found += seen_twice(pieces, _at)
    at: dict[Coord, list[Piece]] = {}
    for piece in pieces:
        at.setdefault(piece.at, []).append(piece)
    for coord, here in at.items():
        codes = sorted({p.code for p in here})
        if len(codes) > 1:
            found.append(Conflict("same-space", msg("core.camera.same_space", space=_at(coord), codes=codes),
                                  tuple(codes)))
    sets: dict[tuple[str, str], set[str]] = {}
    for piece in pieces:
        if piece.kind not in tile_kinds:
            sets.setdefault((piece.kind, piece.key), set()).add(piece.code)
    for (kind, key), printed in sets.items():
        if len(printed) > 1:
            codes = sorted(printed)
            found.append(Conflict("duplicate-worker", msg("core.camera.duplicate_worker", kind=kind, key=key,
                                                          n=len(codes), codes=codes), tuple(codes)))
    return found


def _at(coord: Coord) -> str:
    return f"[{coord[0]}, {coord[1]}]"
