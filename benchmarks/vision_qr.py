"""QR benchmark: recall, false reads and time per 1080p frame of the QR decoders on stickers with their QR codes,
side by side: zxing-cpp (the product's), OpenCV's QRCodeDetector and QRCodeDetectorAruco, and the product's
reading path (markers, then QR codes: ``companion.vision.qr.read_codes_and_qr``).

Run: ``.venv/bin/python benchmarks/vision_qr.py [--scenes 20] [--threads 2]``. Frames are the seeded scenes of
``tests/vision/qr_scenes.py``: a few tiles with the printed sticker (marker and 0.3 mm QR code beside it) held
15-45 cm from the camera (levels near, mid, arm, far) or lying on the table 60-80 cm under it (table), plus
another product's QR code. Seeds 20000 and up: held out from the tests (which use seeds below 100).

Every decoder's QR text goes through the registry (``by_payload``) and the printed layout to the marker's place,
so all are scored alike: a read is found when its code is a sticker in the frame and its centre is within a third
of a sticker of the true one; every other read is false (another product's QR code is refused, never read).
Time is wall time per frame and process CPU time (one read per frame).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.codes import load_registry  # noqa: E402
from companion.codes.registry import CodeRegistry  # noqa: E402
from companion.core.errors import UnknownCodeError  # noqa: E402
from companion.vision.detection import Detection, Point  # noqa: E402
from companion.vision.qr import QrReader, decode_qr, read_codes_and_qr  # noqa: E402
from companion.vision.reader import CodeReader  # noqa: E402
from tests.vision.qr_scenes import LEVELS, qr_scene  # noqa: E402
from tests.vision.scenes import Scene  # noqa: E402

Reader = Callable[[npt.NDArray[np.uint8]], list[Detection]]
Decoder = Callable[[npt.NDArray[np.uint8]], list[tuple[str, tuple[Point, Point, Point, Point]]]]


@dataclass
class Tally:
    stickers: int = 0
    found: int = 0
    false_reads: int = 0
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def line(self, name: str) -> str:
        recall = 100.0 * self.found / max(1, self.stickers)
        return (f"  {name:34} recall {recall:6.2f}% ({self.stickers - self.found:3} missed of {self.stickers:4})"
                f"  false {self.false_reads:3}  wall {statistics.mean(self.wall_ms):6.1f} ms"
                f" (median {statistics.median(self.wall_ms):6.1f})  cpu {statistics.mean(self.cpu_ms):6.1f} ms")


def through_registry(decode: Decoder, registry: CodeRegistry) -> Reader:
    """A decoder's QR texts as the product resolves them: registry codes at their marker's place, others dropped."""
    qr = QrReader(registry)

    def read(image: npt.NDArray[np.uint8]) -> list[Detection]:
        found = []
        for text, corners in decode(image):
            try:
                component = registry.by_payload(text)
            except UnknownCodeError:
                continue
            found.append(Detection(component.code, component.marker_id, qr.marker_corners(component, corners)))
        return found

    return read


def opencv_decoder(detector: cv2.QRCodeDetector | cv2.QRCodeDetectorAruco) -> Decoder:
    """OpenCV's multi-code detection and decoding, default settings."""
    def decode(image: npt.NDArray[np.uint8]) -> list[tuple[str, tuple[Point, Point, Point, Point]]]:
        ok, texts, points, _ = detector.detectAndDecodeMulti(image)
        if not ok or points is None:
            return []
        found = []
        for text, quad in zip(texts, points):
            if text:
                p = [(float(x), float(y)) for x, y in np.asarray(quad).reshape(4, 2)]
                found.append((str(text), (p[0], p[1], p[2], p[3])))
        return found

    return decode


def measure(read: Reader, scenes: Sequence[Scene]) -> Tally:
    tally = Tally()
    for scene in scenes:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        detections = read(scene.image)
        tally.wall_ms.append((time.perf_counter() - wall0) * 1000)
        tally.cpu_ms.append((time.process_time() - cpu0) * 1000)
        outcome = scene.score(detections)
        tally.stickers += len(scene.truth)
        tally.found += len(outcome.found)
        tally.false_reads += len(outcome.false_reads)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20, help="scenes per level (default 20)")
    parser.add_argument("--threads", type=int, default=2, help="OpenCV threads (default 2, this machine's cores)")
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"comma-separated, of {', '.join(LEVELS)}")
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    registry = load_registry()
    markers = CodeReader(registry)
    readers: list[tuple[str, Reader]] = [
        ("zxing-cpp (QR only)", through_registry(decode_qr, registry)),
        ("OpenCV QRCodeDetector", through_registry(opencv_decoder(cv2.QRCodeDetector()), registry)),
        ("OpenCV QRCodeDetectorAruco", through_registry(opencv_decoder(cv2.QRCodeDetectorAruco()), registry)),
        ("product markers only", lambda image: markers.read(image).detections),
        ("product path (markers + zxing QR)", lambda image: read_codes_and_qr(image, registry)),
    ]
    print(f"OpenCV {cv2.__version__}, {args.threads} thread(s), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {args.scenes} scenes per level, 1920x1080, QR modules 0.3 mm")
    for level in args.levels.split(","):
        frames = [qr_scene(registry, level, seed=20_000 + n) for n in range(args.scenes)]
        modules = [px * 0.3 / 16 for s in frames for px in s.sticker_px.values()]
        print(f"{level}: {sum(len(s.truth) for s in frames)} stickers, QR modules {min(modules):.1f}-{max(modules):.1f} px")
        for name, read in readers:
            print(measure(read, frames).line(name))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
