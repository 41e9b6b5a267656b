"""Detections of a known board seen through a known camera: the ground truth for lattice fitting tests."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.key_harvest.board import Coord
from companion.vision.board import axial_to_plane
from companion.vision.detection import Detection

TILE_MM = 25.0
STICKER_MM = 12.0
"""The black marker square the reader reports (a 16 mm sticker with its white quiet zone)."""


def camera(tilt_deg: float, turn_deg: float, width: int = 1600, height: int = 1200,
           board_mm: float = 220.0) -> np.ndarray:
    """A homography from board millimetres (board centred at 0, 0) to pixels: the board turned by
    ``turn_deg`` in the photo and seen from ``tilt_deg`` off the vertical."""
    f = 1.4 * width
    distance = 2.2 * board_mm
    t, a = math.radians(tilt_deg), math.radians(turn_deg)
    turn = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rotation = tilt @ turn
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    # plane point (x, y, 0) -> camera: R @ (x, y, 0) + (0, 0, distance)
    h = k @ np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, distance]])
    return h / h[2, 2]


def detections(pieces: Sequence[tuple[str, Coord]], homography: np.ndarray, *, noise_px: float = 0.0,
               seed: int = 0, pitch_mm: float = TILE_MM, sticker_mm: float = STICKER_MM) -> list[Detection]:
    """Each (code, axial position) as the reader would report it: its sticker's corners in pixels.

    Each sticker is turned by a multiple of 60 degrees plus a few degrees (tiles lie any way round,
    stickers are stuck by hand); ``noise_px`` moves every corner at random.
    """
    rng = np.random.default_rng(seed)
    coords = np.array([at for _, at in pieces], dtype=np.float64)
    centres = axial_to_plane(coords) * pitch_mm
    centres -= centres.mean(axis=0)
    found = []
    for (code, _), centre in zip(pieces, centres):
        angle = math.radians(60 * int(rng.integers(6)) + rng.normal(0, 4))
        c, s = math.cos(angle), math.sin(angle)
        half = sticker_mm / 2
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        corners_mm = square @ np.array([[c, s], [-s, c]]) + centre
        px = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)
        px += rng.normal(0, noise_px, px.shape) if noise_px else 0
        found.append(Detection(code, 0, tuple((float(x), float(y)) for x, y in px)))  # type: ignore[arg-type]
    return found


def adjacency(coords: Sequence[Coord]) -> set[frozenset[int]]:
    """Which pieces (by index) are neighbours."""
    index = {c: i for i, c in enumerate(coords)}
    pairs = set()
    for i, (q, r) in enumerate(coords):
        for dq, dr in ((1, 0), (0, 1), (-1, 1)):
            j = index.get((q + dq, r + dr))
            if j is not None:
                pairs.add(frozenset((i, j)))
    return pairs
