"""Reading code stickers from one camera frame.

``read_codes(image, registry)`` returns one ``Detection`` per sticker it found whose marker the
registry allocated. Markers the registry does not know (another family member, another product's
marker) are never returned as codes: the detector's dictionary holds the registry's markers only (OpenCV
compares every outline with every marker of its dictionary, the detector's largest cost on a busy table).

The reader is OpenCV's ArUco detector with settings chosen by measurement on synthetic tabletop
scenes (``benchmarks/vision.py``; the reasons are in ``docs/camera.md``, "Reading codes"):

* one adaptive-threshold window of 15 px instead of three (3, 13, 23), and a constant of 5 instead of 7: a
  16 mm sticker is 29-60 px across, one pass is a third of the work, and a dim or glared sticker keeps its margin;
* candidate outlines only between 19 and 160 px a side (however turned), whatever the frame size;
* bits sampled from the middle 40 % of each cell at 8 px per cell, so blur between cells does
  not flip them;
* up to 2 wrong bits corrected: the registry's IDs are at least 7 bits apart, so a read two bits
  off is still nearer its own code than any other;
* a second look at the outlines the detector gave up on that have a sticker's size and shape
  (the marker's border, or the sticker paper's edge against a dark tile): the corners refined to
  sub-pixel, each cell's bit read from its middle against the marker's own black border, and the
  read kept only if it is at most one bit from a registry code (board art in the test scenes
  comes no nearer than three);
* a geometry check: a sticker whose size is far from the frame's others, or that is squashed, is
  something else (board art) and is dropped; so is the second of two reads of one code;
* a piece shows one face: where both faces of a two-sided tile are read, the read with more bits corrected is board
  art (a black icon with white marks) and is dropped.
"""

from __future__ import annotations

import itertools
import math
import os
import statistics
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry
from companion.core.errors import MalformedInputError
from companion.vision import blur
from companion.vision.detection import Detection, Sides
from companion.vision.markers import BORDER_MODULES, QUIET_ZONE_MODULES, marker_bits, marker_dictionary

THRESHOLD_WINDOW_PX = 15
"""The adaptive threshold's window: half the smallest sticker (29-32 px on the harder scenes)."""
THRESHOLD_CONSTANT = 5
"""How much darker than its window's mean a pixel must be to count as black (OpenCV: 7): low-contrast stickers
in a shadow or under glare keep their white margin."""
MIN_SIDE_PX = 19
"""The smallest marker side looked at, however it is turned (a 16 mm sticker's marker is 22 px or more at 80 cm in
1080p, 21 px or more on a 4K frame of the whole table)."""
MAX_SIDE_PX = 160
"""The largest marker side looked at."""
OUTLINE_PIXELS_PER_SIDE = 2 * math.sqrt(2)
"""OpenCV measures an outline by its pixels, and a square turned 45 degrees has only 1/sqrt(2) as many as its
length (diagonal steps): the smallest outline looked at is this many pixels per side, so a marker of the smallest
side is looked at however it is turned (with 4 and 17 px, a 21 px marker turned 45 degrees was never looked at)."""
POLYGON_ACCURACY = 0.03 * math.sqrt(2)
"""How far an outline may stray from its four-cornered polygon, per pixel of the outline (OpenCV: 0.03). OpenCV counts
an outline's pixels, and a square turned 45 degrees has 1/sqrt(2) as many as its length (diagonal steps): at 0.03 the
rounded corners of a small blurred marker turned so were too far from the polygon and the outline was lost. Only in a
frame read whole (``fits_blur``)."""
DEFAULT_POLYGON_ACCURACY = 0.03
CELL_MARGIN = 0.3
"""The part of each cell's edge left out when reading its bit."""
CELL_PX = 8
CORRECTED_BITS = 2
"""Wrong bits a read may have and still count (the registry's IDs are at least 7 apart)."""
SIZE_TOLERANCE = 1.7
"""A sticker more than this factor larger or smaller than the frame's median sticker is not one."""
MAX_SKEW = 2.0
"""The longest edge of a sticker is at most this many times its shortest (the camera tilts < 30 degrees)."""
SECOND_LOOK_BITS = 1
"""Wrong bits the second look allows."""
SECOND_LOOK_CELL_PX = 6
CORNER_DRIFT_PX = 0.25
"""How far refining an outline's corners may move them before the second look also tries them as found."""
SHARPEN = 1.0
SHARPEN_SIGMA = 0.5
"""The second look also reads the straightened marker sharpened (unsharp mask: this much of the difference
from a blur of half a cell): blur from focus or motion smears the cells into each other."""
MIN_CONTRAST = 20
"""Grey levels between the black border and the brightest data cell, below which nothing is read."""
SPLIT_ABOVE_PX = 2_500_000
"""Frames larger than this (a 4K frame, not 1080p) are read in vertical strips, one per core."""
STRIPS = 2
POOL_NAME = "code-reader"
STRIP_OVERLAP_PX = MAX_SIDE_PX // 2 + 8
"""How far each strip reaches past its cut: a marker across the cut lies wholly in one of the two strips."""
PLAIN_WRONG_BIT = 0.45
"""A corrected bit is a cell that blur, glare or noise left near the threshold between the border's black and the
marker's lightest cell. A read one of whose corrected cells lies more than this (of that range) from the threshold,
as plainly dark or light as the marker's own, is another picture (board art: a black icon with white marks) taken for
a code. On the dev scenes (table-hard 140-239, boards hard/harder/hardest 600-639) every false read had such a
cell (0.50-0.64) and 3 of about 1600 true corrected reads did (0.47-0.62). Only in a ``BUSY_FRAME`` or a part of a
table: a tile held up alone, its sticker scratched, is still read."""
BUSY_FRAME = 3
"""Stickers in a frame that shows a board or a table (board art about, the stickers' size known); fewer: a tile held
up to the camera."""
BLUR_FIT_ROUNDS = 2
"""Fits of a blurred sticker: the second starts from the corners the first put it at."""


Attempt = tuple[npt.NDArray[np.float32], int]
"""An outline's corners tried, and how many modules outside the marker's border they lie (0: they are the border's)."""


@dataclass(frozen=True, slots=True)
class FrameReading:
    """What one frame gave: the registry's stickers, and what was seen but dropped."""

    detections: list[Detection]
    implausible: list[Detection] = field(default_factory=list)
    """Reads dropped by the geometry check (wrong size or shape, or a second read of one code), a lone corrected
    read of another game, or the worse read of a tile's other face."""


def detector_parameters() -> cv2.aruco.DetectorParameters:
    """The detector settings this module's docstring explains."""
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin = THRESHOLD_WINDOW_PX
    params.adaptiveThreshWinSizeMax = THRESHOLD_WINDOW_PX
    params.adaptiveThreshConstant = THRESHOLD_CONSTANT
    params.polygonalApproxAccuracyRate = DEFAULT_POLYGON_ACCURACY
    params.perspectiveRemoveIgnoredMarginPerCell = CELL_MARGIN
    params.perspectiveRemovePixelPerCell = CELL_PX
    return params


class CodeReader:
    """A reader for one registry: builds the detector once, then reads frames."""

    def __init__(self, registry: CodeRegistry) -> None:
        self.registry = registry
        family = marker_dictionary(registry.marker_family)
        self._ids = [c.marker_id for c in registry]
        self._dictionary = cv2.aruco.Dictionary(family.bytesList[self._ids].copy(), family.markerSize,
                                                family.maxCorrectionBits)  # (IDs: rows of self._ids)
        self._detectors: dict[tuple[str, bool, bool], cv2.aruco.ArucoDetector] = {}
        self._limits: dict[tuple[str, bool, bool], tuple[float, float]] = {}
        self._size = family.markerSize + 2 * BORDER_MODULES  # cells across the black border
        self._row = {marker: row for row, marker in enumerate(self._ids)}
        self._patterns = np.array([[np.rot90(marker_bits(i, registry.marker_family), k).ravel() for k in range(4)]
                                   for i in self._ids], dtype=np.uint8).reshape(len(self._ids), 4, -1)
        size = self._patterns.shape[2]
        flips = np.array([np.isin(np.arange(size), flipped) for wrong in range(SECOND_LOOK_BITS + 1)
                          for flipped in itertools.combinations(range(size), wrong)], dtype=np.uint8)
        readings = self._patterns[:, :, None, :] ^ flips  # (row, turn, flip, bits)
        self._blurred = blur.BlurredSticker(family.markerSize, BORDER_MODULES, QUIET_ZONE_MODULES)
        self._paper_edge = math.sqrt((self._size + 2 * QUIET_ZONE_MODULES) / self._size)
        """An outline this much larger than the frame's markers, or more, is taken for a sticker's paper edge by the
        blurred fit, a smaller one for a marker's border: halfway (geometrically) between the two (9/7 apart)."""
        self._within_second_look_bits = {reading.tobytes(): (row, turn) for (row, turn, _), reading
                                         in zip(np.ndindex(readings.shape[:3]), readings.reshape(-1, size))}
        """Every reading of the data bits at most ``SECOND_LOOK_BITS`` from a registry marker turned (the IDs are at
        least 7 bits apart, so it names one): the marker's row and turn."""

    def __call__(self, image: npt.NDArray[np.uint8], registry: CodeRegistry,
                 sides: Sides | None = None) -> list[Detection]:
        """``read``'s stickers (a ``Reader`` for boards and tables; ``registry`` must be this reader's)."""
        if registry is not self.registry:
            raise MalformedInputError("this code reader reads another registry's stickers")
        return self.read(image, sides).detections

    def read(self, image: npt.NDArray[np.uint8], sides: Sides | None = None) -> FrameReading:
        """The stickers in ``image`` (BGR or grey, 8 bits); ``sides``: only markers that many pixels across
        (from the shortest to the longest; default ``MIN_SIDE_PX`` to ``MAX_SIDE_PX``, the others' median)."""
        grey = _grey(image)
        fitted = fits_blur(grey, sides)
        found: list[Detection] = []
        rejected: list[npt.NDArray[Any]] = []
        for offset, (corners, ids, missed) in self._detect(grey, sides, fitted):
            rejected += [outline.reshape(4, 2) + np.array([offset, 0], dtype=np.float32) for outline in missed]
            for quad, row in zip(corners, ids.ravel() if ids is not None else ()):
                component = self.registry.by_marker(self._ids[int(row)])
                points = [(float(x) + offset, float(y)) for x, y in quad.reshape(4, 2)]
                detection = Detection(component.code, component.marker_id, (points[0], points[1], points[2], points[3]))
                if not any(d.code == detection.code and math.dist(d.center, detection.center) < d.side_px for d in found):
                    found.append(detection)  # a sticker in the overlap of two strips is read once
        found += self._second_look(grey, rejected, found, sides, fitted)
        wrong_size = [d for d in found if sides is not None and not sides[0] <= d.side_px <= sides[1]]
        kept, implausible = plausible([d for d in found if d not in wrong_size])  # (the size is known: a read of
        implausible += wrong_size  # another size is something else)
        wrong, plainest = self._bit_reads(grey, kept)
        if fitted:
            kept, wrong, plainest, contradicted = self._second_opinion(grey, kept, wrong, plainest)
            implausible += contradicted
        corrected = {id(d): int(bits) for d, bits in zip(kept, wrong)}
        strays = self._strays(kept, corrected)
        if len(kept) - len(strays) >= BUSY_FRAME or sides is not None:  # a board or a table, or a part of one
            strays += [d for d, bits, plain in zip(kept, wrong, plainest)
                       if bits and plain > PLAIN_WRONG_BIT and d not in strays]
        kept = [d for d in kept if d not in strays]
        worse = worse_reads(kept, self.registry, lambda reads: [corrected[id(d)] for d in reads])
        return FrameReading([d for d in kept if d not in worse], implausible + strays + worse)

    def _second_opinion(self, grey: npt.NDArray[np.uint8], kept: list[Detection], wrong: npt.NDArray[np.int_],
                        plainest: npt.NDArray[np.float64]) -> tuple[list[Detection], npt.NDArray[np.int_],
                                                                   npt.NDArray[np.float64], list[Detection]]:
        """``kept`` with their bit reads (``_bit_reads``), less the reads this reader's own sampling finds more than
        ``CORRECTED_BITS`` wrong that the blurred fit reads as another code (a marker smeared by motion can come near
        another code): those are replaced by the blurred fit's read, unless that code is read elsewhere, and returned
        last."""
        doubtful = [i for i, bits in enumerate(wrong) if bits > CORRECTED_BITS]
        blurred = self._read_blurred(grey, [[(np.array(kept[i].corners, dtype=np.float32), 0)] for i in doubtful])
        contradicted = {doubtful[n]: read for n, read in blurred.items() if read.code != kept[doubtful[n]].code}
        if not contradicted:
            return kept, wrong, plainest, []
        staying = [i for i in range(len(kept)) if i not in contradicted]
        codes = {kept[i].code for i in staying}
        instead = list({read.code: read for read in contradicted.values() if read.code not in codes}.values())
        more_wrong, more_plain = self._bit_reads(grey, instead)
        return ([kept[i] for i in staying] + instead, np.concatenate([wrong[staying], more_wrong]),
                np.concatenate([plainest[staying], more_plain]), [kept[i] for i in contradicted])

    def _strays(self, kept: Sequence[Detection], corrected: dict[int, int]) -> list[Detection]:
        """Lone stickers of another game among a game's stickers whose bits needed correcting (``corrected``: the
        bits each read needed, by ``id``): a table plays one game, so such a read is far likelier board art or a
        damaged marker taken for a code (the more games the registry holds, the likelier) than a stray tile. One read
        exactly is kept."""
        games = Counter(self.registry.by_marker(d.marker_id).game for d in kept)
        if len(games) < 2:
            return []
        return [d for d in kept if games[self.registry.by_marker(d.marker_id).game] == 1 and corrected[id(d)]]

    def _corrections(self, grey: npt.NDArray[np.uint8], detection: Detection) -> int:
        """How many data bits of ``detection``'s marker read otherwise than printed."""
        return int(self._bit_reads(grey, [detection])[0][0])

    def _bit_reads(self, grey: npt.NDArray[np.uint8],
                   detections: Sequence[Detection]) -> tuple[npt.NDArray[np.int_], npt.NDArray[np.float64]]:
        """For each detection: how many data bits read otherwise than its marker is printed (each cell's middle
        against the threshold halfway between the black border and the lightest data cell), and how far the plainest
        of those cells lies from that threshold (0: on it, 0.5: as dark as the border or as light as the lightest
        cell; 0 when none is wrong). All the detections' cells are sampled in one pass."""
        if not detections:
            return np.zeros(0, dtype=np.int_), np.zeros(0)
        cells = self._cells(grey, detections)
        border = np.concatenate([cells[:, 0], cells[:, -1], cells[:, 1:-1, 0], cells[:, 1:-1, -1]], axis=1)
        data = cells[:, 1:-1, 1:-1].reshape(len(detections), -1)
        black = np.median(border, axis=1)
        lightest = data.max(axis=1)
        spread = np.maximum(lightest - black, 1.0)
        level = (data - black[:, None]) / spread[:, None] - 0.5  # > 0: white
        bits = (level > 0).astype(np.uint8)
        patterns = self._patterns[[self._row[d.marker_id] for d in detections]]  # (n, 4 turns, bits)
        mismatch = patterns != bits[:, None, :]
        turn = mismatch.sum(axis=2).argmin(axis=1)
        wrong = mismatch[np.arange(len(detections)), turn]
        plainest = np.where(wrong, np.abs(level), 0.0).max(axis=1)
        return wrong.sum(axis=1), plainest

    def _cells(self, grey: npt.NDArray[np.uint8], detections: Sequence[Detection]) -> npt.NDArray[np.float32]:
        """Each detection's marker cells (black border included), the mean grey of each cell's middle (the cell less
        ``CELL_MARGIN`` of its edge), sampled through the outline's perspective at ``SECOND_LOOK_CELL_PX`` a cell:
        shape (detections, cells, cells)."""
        cell, n = SECOND_LOOK_CELL_PX, self._size
        margin = int(round(cell * CELL_MARGIN))
        inside = np.arange(margin, cell - margin, dtype=np.float64)
        along = (np.arange(n)[:, None] * cell + inside[None, :]).ravel()  # the sampled columns (and rows)
        xs, ys = np.meshgrid(along, along)
        points = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])  # canonical square, homogeneous
        square = np.array([[0, 0], [n * cell, 0], [n * cell, n * cell], [0, n * cell]], dtype=np.float32)
        to_image = np.stack([cv2.getPerspectiveTransform(square, np.array(d.corners, dtype=np.float32))
                             for d in detections])
        mapped = to_image @ points  # (detections, 3, samples)
        side = len(along)
        map_x = (mapped[:, 0] / mapped[:, 2]).astype(np.float32).reshape(-1, side)
        map_y = (mapped[:, 1] / mapped[:, 2]).astype(np.float32).reshape(-1, side)
        samples = cv2.remap(grey, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        return np.asarray(samples.reshape(len(detections), n, len(inside), n, len(inside)).mean(axis=(2, 4)), dtype=np.float32)

    def _detect(self, grey: npt.NDArray[np.uint8], sides: Sides | None = None,
                whole: bool = False) -> list[tuple[int, Any]]:
        """OpenCV's detector on the frame, or on a large frame's vertical strips side by side on the cores: each
        strip's left edge and its (corners, ids, rejected outlines); ``whole``: a frame read whole (``fits_blur``)."""
        height, width = grey.shape
        inside = threading.current_thread().name.startswith(POOL_NAME)  # already one of the pool's tasks
        strips = min(os.cpu_count() or 1, STRIPS) if height * width > SPLIT_ABOVE_PX and not inside else 1
        if strips == 1:
            return [(0, self._detector(max(grey.shape), "", sides, whole).detectMarkers(grey))]
        step = -(-width // strips)
        lefts = [max(0, i * step - STRIP_OVERLAP_PX) for i in range(strips)]
        pieces = [np.ascontiguousarray(grey[:, left:min(width, (i + 1) * step + STRIP_OVERLAP_PX)])
                  for i, left in enumerate(lefts)]
        detectors = [self._detector(max(piece.shape), f" strip {i}", sides) for i, piece in enumerate(pieces)]
        return list(zip(lefts, worker_pool().map(lambda pair: pair[0].detectMarkers(pair[1]), zip(detectors, pieces))))

    def _detector(self, longer_side: int, strip: str, sides: Sides | None = None,
                  whole: bool = False) -> cv2.aruco.ArucoDetector:
        """The detector for frames whose longer side is ``longer_side`` px (outline limits are relative to it)
        looking for markers ``sides`` px across (default ``MIN_SIDE_PX`` to ``MAX_SIDE_PX``): one for each
        thread and ``strip`` of its frame, whose limits follow the frame (a detector is not shared while it works)."""
        lo, hi = sides if sides is not None else (MIN_SIDE_PX, MAX_SIDE_PX)
        key = (threading.current_thread().name + strip, sides is None, whole)
        detector = self._detectors.get(key)
        if detector is None:
            params = detector_parameters()
            if whole:  # a frame read whole (``fits_blur``)
                params.polygonalApproxAccuracyRate = POLYGON_ACCURACY
            params.errorCorrectionRate = min(1.0, CORRECTED_BITS / max(1, self._dictionary.maxCorrectionBits))
            detector = self._detectors[key] = cv2.aruco.ArucoDetector(self._dictionary, params)
            self._limits[key] = (0.0, 0.0)
        rates = (OUTLINE_PIXELS_PER_SIDE * lo / longer_side, 4 * hi / longer_side)
        if self._limits[key] != rates:
            params = detector.getDetectorParameters()
            params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate = rates
            detector.setDetectorParameters(params)
            self._limits[key] = rates
        return detector

    def _second_look(self, grey: npt.NDArray[np.uint8], rejected: Sequence[npt.NDArray[Any]],
                     found: list[Detection], sides: Sides | None = None, fitted: bool = False) -> list[Detection]:
        """Stickers among the outlines the detector rejected (only when ``sides`` or a busy frame gives the size):
        each read from its cells (``_decode``), and if ``fitted``, those that do not read so fitted blurred
        (``_read_blurred``)."""
        if not rejected or len(found) < BUSY_FRAME and sides is None:
            return []
        typical = math.sqrt(sides[0] * sides[1]) if sides is not None else statistics.median(d.side_px for d in found)
        seen = {d.code for d in found}
        extra: list[Detection] = []
        unread: list[list[Attempt]] = []
        for outline in rejected:
            quad = outline.reshape(4, 2).astype(np.float32)
            edges = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
            if not 1 / SIZE_TOLERANCE <= float(edges.mean()) / typical <= SIZE_TOLERANCE or edges.max() > MAX_SKEW * edges.min():
                continue
            detection, attempts = self._decode(grey, quad)
            if detection is None:  # fitted blurred as the marker's border or as the paper's edge, as its size says
                paper = float(edges.mean()) / typical > self._paper_edge
                unread.append([(corners, quiet) for corners, quiet in attempts if (quiet > 0) == paper])
            elif detection.code not in seen:
                seen.add(detection.code)
                extra.append(detection)
        if not fitted:
            return extra
        for detection in self._read_blurred(grey, unread).values():
            if detection.code not in seen:
                seen.add(detection.code)
                extra.append(detection)
        return extra

    def _decode(self, grey: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> tuple[Detection | None, list[Attempt]]:
        """The registry sticker whose outline is ``quad`` (clockwise corners), or None; and the outlines tried.

        The outline may be the marker's black border, or the sticker paper's edge (the white quiet
        zone standing out against a dark tile): both are tried. Its corners are refined to sub-pixel first; on a
        small blurred marker the refinement can drift by a third of a cell, so the marker's border is also tried
        with the corners as found when they moved more than ``CORNER_DRIFT_PX``.
        """
        refined = quad.reshape(4, 1, 2).copy()
        cv2.cornerSubPix(grey, refined, (3, 3), (-1, -1), (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05))
        attempts = [(refined.reshape(4, 2), 0), (refined.reshape(4, 2), QUIET_ZONE_MODULES)]
        if float(np.abs(refined.reshape(4, 2) - quad.reshape(4, 2)).max()) > CORNER_DRIFT_PX:
            attempts.append((quad.reshape(4, 2), 0))
        for corners, quiet in attempts:
            cell, n = SECOND_LOOK_CELL_PX, self._size
            side = (n + 2 * quiet) * cell
            square = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
            to_square = np.asarray(cv2.getPerspectiveTransform(corners, square), dtype=np.float64)
            canonical = cv2.warpPerspective(grey, to_square, (side, side)).astype(np.float32)
            detection = self._decode_cells(canonical, to_square, quiet)
            if detection is None:
                sharpened = canonical + SHARPEN * (canonical - cv2.GaussianBlur(canonical, (0, 0), SHARPEN_SIGMA * cell))
                detection = self._decode_cells(sharpened, to_square, quiet)
            if detection is not None:
                return detection, attempts
        return None, attempts

    def _read_blurred(self, grey: npt.NDArray[np.uint8], outlines: Sequence[Sequence[Attempt]]) -> dict[int, Detection]:
        """The stickers of ``outlines`` (each: the attempts ``_decode`` made), by their index, read by fitting them blurred
        (``blur.BlurredSticker``), all at once: kept at most one bit from a registry code, that bit's module near the
        threshold (``PLAIN_WRONG_BIT``). A fit that does not read moves the corners to where it puts them and is
        fitted again, ``BLUR_FIT_ROUNDS`` in all."""
        px, edge = blur.PX_PER_MODULE, QUIET_ZONE_MODULES
        side = (self._size + 2 * edge) * px

        def square(near: float) -> npt.NDArray[np.float32]:
            far = side - 1 - near
            return np.array([[near, near], [far, near], [far, far], [near, far]], dtype=np.float32)

        canvas = square(-0.5)  # pixel centres are whole numbers: the sticker's edge lies half a pixel out
        tries = [(index, np.asarray(cv2.getPerspectiveTransform(corners, square((edge - quiet) * px - 0.5)),
                                    dtype=np.float64))
                 for index, attempts in enumerate(outlines) for corners, quiet in attempts]
        read: dict[int, Detection] = {}
        for _ in range(BLUR_FIT_ROUNDS):
            tries = [(index, to_square) for index, to_square in tries if index not in read]
            if not tries:
                break
            fits = self._blurred.fit(np.stack([cv2.warpPerspective(grey, to_square, (side, side))
                                               for _, to_square in tries]).astype(np.float32))
            for (index, to_square), values, contrast in zip(tries, fits.values, fits.contrast):
                bits = values > 0.5
                found = self._within_second_look_bits.get(bits.astype(np.uint8).tobytes())
                if index in read or contrast < MIN_CONTRAST or found is None:
                    continue
                row, turn = found
                wrong = self._patterns[row, turn].reshape(bits.shape) != bits
                if not wrong.any() or float(np.abs(values[wrong] - 0.5).max()) <= PLAIN_WRONG_BIT:
                    read[index] = self._detection(row, turn, to_square, edge * px - 0.5, side - edge * px - 0.5)
            tries = [(index, self._moved(to_square, canvas, moves)) for (index, to_square), moves, contrast
                     in zip(tries, fits.corner_moves, fits.contrast) if contrast >= MIN_CONTRAST]  # (not a sticker's)
        return {index: read[index] for index in sorted(read)}

    @staticmethod
    def _moved(to_square: npt.NDArray[np.float64], canvas: npt.NDArray[np.float32],
               moves: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``to_square`` changed so that the points ``canvas + moves`` of the square it gives go to ``canvas``."""
        moved = cv2.perspectiveTransform((canvas + moves.astype(np.float32)).reshape(4, 1, 2), cv2.invert(to_square)[1])
        return np.asarray(cv2.getPerspectiveTransform(moved.reshape(4, 2), canvas), dtype=np.float64)

    def _decode_cells(self, canonical: npt.NDArray[np.float32], to_square: npt.NDArray[np.float64],
                      quiet: int) -> Detection | None:
        """Read the marker in ``canonical`` (the outline warped square by ``to_square``), whose edge lies ``quiet``
        modules outside the marker's border."""
        cell, n = SECOND_LOOK_CELL_PX, self._size
        side = canonical.shape[0]
        inner = canonical[quiet * cell:side - quiet * cell, quiet * cell:side - quiet * cell]
        margin = int(round(cell * CELL_MARGIN))
        cells = inner.reshape(n, cell, n, cell)[:, margin:cell - margin, :, margin:cell - margin].mean(axis=(1, 3))
        border = np.concatenate([cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]])
        data = cells[1:-1, 1:-1]
        black, white = float(np.median(border)), float(data.max())
        if white - black < MIN_CONTRAST:
            return None
        threshold = (black + white) / 2
        if int((border > threshold).sum()) > 1:
            return None
        near = self._within_second_look_bits.get((data > threshold).astype(np.uint8).tobytes())
        if near is None:
            return None
        best, turn = near
        return self._detection(best, turn, to_square, quiet * cell, side - quiet * cell)

    def _detection(self, row: int, turn: int, to_square: npt.NDArray[np.float64], near: float, far: float) -> Detection:
        """The read of the registry's marker ``row`` turned ``turn`` times, whose border lies from ``near`` to ``far``
        in the square ``to_square`` straightened its outline into."""
        component = self.registry.by_marker(self._ids[int(row)])
        marker = np.array([[near, near], [far, near], [far, far], [near, far]], dtype=np.float32)
        corners = cv2.perspectiveTransform(marker.reshape(4, 1, 2), cv2.invert(to_square)[1]).reshape(4, 2)
        start = (4 - int(turn)) % 4  # the outline corner that is the marker's own top-left
        points = [(float(corners[(start + i) % 4][0]), float(corners[(start + i) % 4][1])) for i in range(4)]
        return Detection(component.code, component.marker_id, (points[0], points[1], points[2], points[3]))


def plausible(detections: list[Detection]) -> tuple[list[Detection], list[Detection]]:
    """Split reads into stickers and implausible ones (skewed, far from the median size, or repeated)."""
    shaped = [d for d in detections if _skew(d) <= MAX_SKEW]
    typical = statistics.median(d.side_px for d in shaped) if len(shaped) >= 3 else None
    best: dict[str, Detection] = {}
    for detection in shaped:
        if typical is not None and not 1 / SIZE_TOLERANCE <= detection.side_px / typical <= SIZE_TOLERANCE:
            continue
        other = best.get(detection.code)
        if other is None or typical is not None and abs(math.log(detection.side_px / typical)) < abs(math.log(other.side_px / typical)):
            best[detection.code] = detection
    kept = [d for d in detections if best.get(d.code) is d]
    return kept, [d for d in detections if best.get(d.code) is not d]


def _skew(detection: Detection) -> float:
    """The longest edge over the shortest."""
    edges = [math.dist(detection.corners[i], detection.corners[(i + 1) % 4]) for i in range(4)]
    return max(edges) / max(min(edges), 1e-6)


_executor: list[ThreadPoolExecutor] = []


def fits_blur(grey: npt.NDArray[np.uint8], sides: Sides | None) -> bool:
    """Whether a frame's outlines that do not read are fitted blurred (and OpenCV's reads checked so, and outlines
    turned 45 degrees kept): in a frame read whole, not in a 4K frame of the whole table (read in strips) nor a part of
    one looked at again (``sides``). A table frame has four times the outlines of board art: fitting them took 15-25 ms
    of its 100 ms (the products' BLAS threads spin on), and its reader straightens and reads each board again."""
    return sides is None and grey.shape[0] * grey.shape[1] <= SPLIT_ABOVE_PX


def worker_pool() -> ThreadPoolExecutor:
    """The threads that read a large frame's strips (or a table's boards) side by side: OpenCV lets go of the
    GIL while it works."""
    if not _executor:
        _executor.append(ThreadPoolExecutor(max_workers=STRIPS, thread_name_prefix=POOL_NAME))
    return _executor[0]


_last_reader: list[CodeReader] = []


def read_codes(image: npt.NDArray[np.uint8], registry: CodeRegistry, sides: Sides | None = None) -> list[Detection]:
    """The registry's stickers in ``image`` (BGR or grey), markers ``sides`` px across (``CodeReader.read``);
    unknown markers are left out.

    Keeps the reader of the last registry it was given; hold a ``CodeReader`` to read many frames.
    """
    reader = _last_reader[0] if _last_reader else None
    if reader is None or reader.registry is not registry:
        reader = CodeReader(registry)
        _last_reader[:] = [reader]
    return reader.read(image, sides).detections


def worse_reads(detections: Sequence[Detection], registry: CodeRegistry,
                corrections: Callable[[Sequence[Detection]], list[int]]) -> list[Detection]:
    """The reads of a piece read elsewhere with fewer bits corrected (``corrections`` counts them for the reads it is
    given): a piece lies in one place, one face up (``Component.piece``), so the worse read is board art taken for a
    code. Reads of one piece corrected alike are all kept, for the board to report."""
    pieces = [registry.by_code(d.code).piece for d in detections]
    count = Counter(pieces)
    twice = [(d, piece) for d, piece in zip(detections, pieces) if count[piece] > 1]
    if not twice:
        return []
    corrected = corrections([d for d, _ in twice])
    fewest: dict[str, int] = {}
    for (_, piece), bits in zip(twice, corrected):
        fewest[piece] = min(bits, fewest.get(piece, bits))
    return [d for (d, piece), bits in zip(twice, corrected) if bits > fewest[piece]]


def corrected_bits(image: npt.NDArray[np.uint8], detections: Sequence[Detection], registry: CodeRegistry) -> list[int]:
    """How many data bits of each detection's marker read in ``image`` otherwise than printed (0: read exactly); only
    the patch around each marker is turned grey (a whole 4K frame's conversion is not free). A marker too small to
    sample counts as beyond correction."""
    if not detections:
        return []
    reader = _last_reader[0] if _last_reader else None
    if reader is None or reader.registry is not registry:
        reader = CodeReader(registry)
        _last_reader[:] = [reader]
    height, width = image.shape[:2]
    corrected = []
    for detection in detections:
        corners = np.array(detection.corners, dtype=np.float64)
        x0, y0 = (max(0, int(v) - 2) for v in corners.min(axis=0))
        x1, y1 = min(width, int(corners[:, 0].max()) + 3), min(height, int(corners[:, 1].max()) + 3)
        if x1 - x0 < 2 or y1 - y0 < 2:
            corrected.append(reader._size ** 2)
            continue
        points = [(x - x0, y - y0) for x, y in detection.corners]
        moved = Detection(detection.code, detection.marker_id, (points[0], points[1], points[2], points[3]))
        corrected.append(reader._corrections(_grey(np.ascontiguousarray(image[y0:y1, x0:x1])), moved))
    return corrected


def _grey(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The frame as one 8-bit channel."""
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or image.size == 0:
        raise MalformedInputError(f"a frame must be a non-empty 8-bit grey or BGR image, not {image.dtype} {image.shape}")
    if image.ndim == 2:
        return image
    if image.shape[2] == 1:
        return image[:, :, 0]
    if image.shape[2] != 3:
        raise MalformedInputError(f"a frame must be grey or BGR, not {image.shape[2]} channels")
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
