"""What the camera saw: one code sticker found in one frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from companion.codes.registry import CodeRegistry

Point = tuple[float, float]
Sides = tuple[float, float]
"""The shortest and longest marker side (pixels) a reader looks for, when the caller knows the scale."""


@dataclass(frozen=True, slots=True)
class Detection:
    """A sticker found in a frame: its registry code, marker ID and corners in pixels.

    ``corners`` are the marker's own top-left, top-right, bottom-right and bottom-left corners
    (the order OpenCV's ArUco functions use), so they also give the sticker's rotation.
    """

    code: str
    marker_id: int
    corners: tuple[Point, Point, Point, Point]

    @property
    def center(self) -> Point:
        """The sticker's centre: the mean of its corners."""
        xs, ys = zip(*self.corners)
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    @property
    def side_px(self) -> float:
        """The mean edge length in pixels (the sticker's apparent size)."""
        total = 0.0
        for i in range(4):
            (x0, y0), (x1, y1) = self.corners[i], self.corners[(i + 1) % 4]
            total += ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        return total / 4.0


class Reader(Protocol):
    """Reads a registry's stickers off a frame; ``sides`` (when the caller knows the scale, as on a straightened
    board) limits the marker sizes looked at, which spares the reader the outlines of other sizes."""

    def __call__(self, image: npt.NDArray[np.uint8], registry: CodeRegistry,
                 sides: Sides | None = None) -> list[Detection]: ...
