"""Reading code stickers from one camera frame.

``read_codes(image, registry)`` returns one ``Detection`` per sticker it found whose marker the
registry allocated. Markers the registry does not know (another family member, another product's
marker) are dropped and counted in ``FrameReading.unknown_markers``, never returned as codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry
from companion.core.errors import MalformedInputError, UnknownCodeError
from companion.vision.detection import Detection
from companion.vision.markers import marker_dictionary


@dataclass(frozen=True, slots=True)
class FrameReading:
    """What one frame gave: the registry's stickers and the marker IDs that were dropped as unknown."""

    detections: list[Detection]
    unknown_markers: list[int] = field(default_factory=list)


class CodeReader:
    """A reader for one registry: builds the detector once, then reads frames."""

    def __init__(self, registry: CodeRegistry) -> None:
        self.registry = registry
        self._detector = cv2.aruco.ArucoDetector(marker_dictionary(registry.marker_family), cv2.aruco.DetectorParameters())

    def read(self, image: npt.NDArray[np.uint8]) -> FrameReading:
        """The stickers in ``image`` (BGR or grey, 8 bits)."""
        grey = _grey(image)
        corners, ids, _rejected = self._detector.detectMarkers(grey)
        detections: list[Detection] = []
        unknown: list[int] = []
        if ids is None:
            return FrameReading(detections, unknown)
        for quad, marker in zip(corners, ids.ravel()):
            try:
                component = self.registry.by_marker(int(marker))
            except UnknownCodeError:
                unknown.append(int(marker))
                continue
            points = tuple((float(x), float(y)) for x, y in quad.reshape(4, 2))
            detections.append(Detection(component.code, component.marker_id, (points[0], points[1], points[2], points[3])))
        return FrameReading(detections, unknown)


_readers: dict[int, CodeReader] = {}


def read_codes(image: npt.NDArray[np.uint8], registry: CodeRegistry) -> list[Detection]:
    """The registry's stickers in ``image`` (BGR or grey); unknown markers are left out."""
    reader = _readers.get(id(registry))
    if reader is None or reader.registry is not registry:
        reader = _readers[id(registry)] = CodeReader(registry)
    return reader.read(image).detections


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

