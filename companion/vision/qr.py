"""Reading the QR codes of code stickers in a camera frame, the second way to read a code.

Every sticker carries its code's text payload (``KEYDOM:3:KH:F:C4:U``) as a QR code beside its marker
(``companion/codes/stickers.py``). ``QrReader.read(frame)`` decodes the QR codes in a frame with zxing-cpp
(which reads small, blurred codes far better than OpenCV's QR detectors: ``benchmarks/vision_qr.py``) and
resolves each payload through the registry (``CodeRegistry.by_payload``). A payload the registry refuses (another
product's QR code, a sticker of another registry version, an unknown code) is kept in ``QrReading.refused`` with
the registry's error, never returned as a code, as the marker reader drops unknown markers.

A read is a ``Detection`` like a marker's, with the corners of the sticker's **marker** (found from the QR
code's corners and the printed sticker's layout), so boards, the debouncer and the geometry check treat both
reads alike. ``read_codes_and_qr`` is the camera's reading path: the markers first, then the QR codes of
stickers whose marker was not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import zxingcpp

from companion.codes.registry import CodeRegistry, Component
from companion.codes.stickers import sticker_layout
from companion.core.errors import UnknownCodeError
from companion.vision.detection import Detection, Point, Sides
from companion.vision.reader import _grey as grey_frame  # the frame check every reader shares
from companion.vision.reader import read_codes

QR_ONLY = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)


@dataclass(frozen=True, slots=True)
class QrRefusal:
    """A QR code read whose payload the registry refused, and why (the error carries the message)."""

    text: str
    error: UnknownCodeError
    corners: tuple[Point, Point, Point, Point]


@dataclass(frozen=True, slots=True)
class QrReading:
    """What one frame's QR codes gave: the registry's stickers and the refused payloads."""

    detections: list[Detection]
    refused: list[QrRefusal] = field(default_factory=list)


def decode_qr(image: npt.NDArray[np.uint8]) -> list[tuple[str, tuple[Point, Point, Point, Point]]]:
    """Every QR code's text in ``image`` (BGR or grey, 8 bits) with its symbol's corners (top-left, top-right,
    bottom-right, bottom-left in the code's own orientation)."""
    found = []
    for barcode in zxingcpp.read_barcodes(grey_frame(image), formats=QR_ONLY, try_invert=False):
        p = barcode.position
        corners = tuple((float(c.x), float(c.y)) for c in (p.top_left, p.top_right, p.bottom_right, p.bottom_left))
        found.append((barcode.text, (corners[0], corners[1], corners[2], corners[3])))
    return found


class QrReader:
    """A QR reader for one registry."""

    def __init__(self, registry: CodeRegistry) -> None:
        self.registry = registry
        self._layouts: dict[str, npt.NDArray[np.float64]] = {}

    def read(self, image: npt.NDArray[np.uint8]) -> QrReading:
        """The registry's stickers whose QR code ``image`` shows, and the QR codes it refused."""
        detections: list[Detection] = []
        refused: list[QrRefusal] = []
        for text, corners in decode_qr(image):
            try:
                component = self.registry.by_payload(text)
            except UnknownCodeError as error:
                refused.append(QrRefusal(text, error, corners))
                continue
            if component.code not in {d.code for d in detections}:
                detections.append(Detection(component.code, component.marker_id, self.marker_corners(component, corners)))
        return QrReading(detections, refused)

    def marker_corners(self, component: Component,
                       qr: tuple[Point, Point, Point, Point]) -> tuple[Point, Point, Point, Point]:
        """Where the sticker's marker lies, from its QR code's corners: the printed layout mapped by the affine map
        that fits the four corners best (a sticker is small against the camera's distance, and a full perspective
        from four corners a pixel off would swing the marker's far corners)."""
        layout = self._layouts.get(component.code)
        if layout is None:
            layout = self._layouts[component.code] = np.array(sticker_layout(self.registry, component), dtype=np.float64)
        symbol = np.hstack([layout[0], np.ones((4, 1))])
        affine, *_ = np.linalg.lstsq(symbol, np.array(qr, dtype=np.float64), rcond=None)
        points = np.hstack([layout[1], np.ones((4, 1))]) @ affine
        a, b, c, d = ((float(x), float(y)) for x, y in points)
        return (a, b, c, d)


_last_reader: list[QrReader] = []


def read_qr(image: npt.NDArray[np.uint8], registry: CodeRegistry) -> list[Detection]:
    """The registry's stickers whose QR code ``image`` shows (refused payloads left out)."""
    reader = _last_reader[0] if _last_reader else None
    if reader is None or reader.registry is not registry:
        reader = QrReader(registry)
        _last_reader[:] = [reader]
    return reader.read(image).detections


def read_codes_and_qr(image: npt.NDArray[np.uint8], registry: CodeRegistry,
                      sides: Sides | None = None) -> list[Detection]:
    """The camera's reading path: every sticker by its marker (``sides`` px across: ``CodeReader.read``), and by its
    QR code where its marker was not read (not on a picture of stickers ``sides`` across, as a straightened board:
    there a sticker's QR code is a few pixels wide, too small to read)."""
    grey = grey_frame(image)  # once for both
    detections = read_codes(grey, registry, sides)
    if sides is not None:
        return detections
    seen = {d.code for d in detections}
    return detections + [d for d in read_qr(grey, registry) if d.code not in seen]
