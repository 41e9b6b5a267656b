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
Time is wall time per frame (best of 3 reads) and process CPU time, as ``benchmarks/vision.py`` measures it;
that benchmark prints these levels too, after its own.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
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
from benchmarks.vision import Reader, measure  # noqa: E402
from companion.vision.reader import CodeReader  # noqa: E402
from tests.vision.qr_scenes import LEVELS, qr_scene  # noqa: E402

Decoder = Callable[[npt.NDArray[np.uint8]], list[tuple[str, tuple[Point, Point, Point, Point]]]]


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


def readers(registry: CodeRegistry) -> list[tuple[str, Reader]]:
    """The QR decoders and the product's paths, by name."""
    markers = CodeReader(registry)
    return [
        ("zxing-cpp (QR only)", through_registry(decode_qr, registry)),
        ("OpenCV QRCodeDetector", through_registry(opencv_decoder(cv2.QRCodeDetector()), registry)),
        ("OpenCV QRCodeDetectorAruco", through_registry(opencv_decoder(cv2.QRCodeDetectorAruco()), registry)),
        ("product markers only", lambda image: markers.read(image).detections),
        ("product path (markers + zxing QR)", lambda image: read_codes_and_qr(image, registry)),
    ]


def run(registry: CodeRegistry, scenes: int, levels: Sequence[str]) -> None:
    """Print each level's line per reader (``benchmarks/vision.py`` runs this after the marker levels)."""
    named = readers(registry)
    for level in levels:
        frames = [qr_scene(registry, level, seed=20_000 + n) for n in range(scenes)]
        modules = [px * 0.3 / 16 for s in frames for px in s.sticker_px.values()]
        print(f"qr-{level}: {sum(len(s.truth) for s in frames)} stickers held up with their QR codes, "
              f"QR modules {min(modules):.1f}-{max(modules):.1f} px")
        for name, read in named:
            print(measure(read, frames).line(name), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20, help="scenes per level (default 20)")
    parser.add_argument("--threads", type=int, default=2, help="OpenCV threads (default 2, this machine's cores)")
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"comma-separated, of {', '.join(LEVELS)}")
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    registry = load_registry()
    print(f"OpenCV {cv2.__version__}, {args.threads} thread(s), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {args.scenes} scenes per level, 1920x1080, QR modules 0.3 mm")
    run(registry, args.scenes, args.levels.split(","))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
