"""Where camera frames come from: image files, a video file, a USB camera, the Pi camera, bundled samples.

Nothing here opens a device at import time. A source opens its device when it is made and
raises ``CameraUnavailable`` (a clear sentence) if it cannot, so the caller can carry on without
a camera. Every source gives BGR ``uint8`` frames and has the same close/closed/``with`` contract.

``open_source(spec)`` picks one by name::

    samples        the bundled sample photos (the product's default in ``companion serve``)
    usb:N          USB camera N through OpenCV (``usb`` alone is camera 0)
    pi             the Raspberry Pi camera through picamera2 (imported only now)
    PATH           an image, a folder of images, or a video file
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.core.errors import CompanionError, MalformedInputError

Frame = npt.NDArray[np.uint8]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".mjpg", ".mjpeg")
SAMPLE_HOLD = 12
"""How many frames the sample source shows each photo before the next (a steady 'camera')."""


class CameraUnavailable(CompanionError, OSError):
    """A frame source that cannot be opened or has gone away (unplugged camera, missing file)."""


def read_image(path: str | Path) -> Frame:
    """One picture from a file as a BGR frame; ``MalformedInputError`` if it cannot be read."""
    file = Path(path)
    if not file.is_file():
        raise MalformedInputError(f"cannot read image {str(path)!r}: no such file")
    image = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if image is None:
        raise MalformedInputError(f"cannot read image {str(path)!r}: not a picture OpenCV can open")
    return np.asarray(image, dtype=np.uint8)


class FrameSource:
    """A supply of frames. ``read()`` gives the next frame, or None when none is ready or the source ended."""

    name = "frames"

    def __init__(self) -> None:
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def ended(self) -> bool:
        """True when no more frames will come (the end of a video that does not loop)."""
        return False

    def read(self) -> Frame | None:
        if self._closed:
            raise CameraUnavailable(f"{self.name} is closed")
        return self._read()

    def _read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file; closing twice is fine."""
        if not self._closed:
            self._closed = True
            self._release()

    def _release(self) -> None:
        """What closing frees (nothing, for files read whole)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ImageFiles(FrameSource):
    """Still pictures as a camera would show them: each for ``hold`` frames, then the next, round and round."""

    def __init__(self, paths: Sequence[str | Path], hold: int = 1, name: str | None = None) -> None:
        super().__init__()
        if not paths:
            raise CameraUnavailable("no pictures to show")
        self.frames = [read_image(path) for path in paths]
        self.paths = [Path(path) for path in paths]
        self.hold = max(1, hold)
        self.name = name or (str(paths[0]) if len(paths) == 1 else f"{len(paths)} pictures")
        self._count = 0

    @property
    def current(self) -> Path:
        """The file the next frame comes from."""
        return self.paths[(self._count // self.hold) % len(self.frames)]

    def _read(self) -> Frame:
        frame = self.frames[(self._count // self.hold) % len(self.frames)]
        self._count += 1
        return frame.copy()


class _Capture(FrameSource):
    """An OpenCV ``VideoCapture`` (a video file or a camera), released on close."""

    def __init__(self, target: str | int, name: str, missing: str) -> None:
        super().__init__()
        self.name = name
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            self._capture.release()
            self._closed = True
            raise CameraUnavailable(missing)
        self._ended = False

    @property
    def ended(self) -> bool:
        return self._ended

    def _read(self) -> Frame | None:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self._ended = self._ends_at_eof
            return None
        return np.asarray(frame, dtype=np.uint8)

    _ends_at_eof = False

    def _release(self) -> None:
        self._capture.release()


class VideoFile(_Capture):
    """The frames of a video file, once through."""

    _ends_at_eof = True

    def __init__(self, path: str | Path) -> None:
        if not Path(path).is_file():
            raise CameraUnavailable(f"no video file {str(path)!r}")
        super().__init__(str(path), str(path), f"cannot open video {str(path)!r} (not a video OpenCV can read)")


class UsbCamera(_Capture):
    """A USB (UVC) camera through OpenCV; a frame that does not come is None, not an error."""

    def __init__(self, index: int = 0) -> None:
        super().__init__(index, f"usb:{index}", f"no USB camera at index {index} (is it plugged in? try usb:1)")


class PiCamera(FrameSource):
    """The Raspberry Pi camera through picamera2, which is imported only when this source is chosen."""

    name = "pi"

    def __init__(self, size: tuple[int, int] = (1920, 1080)) -> None:
        super().__init__()
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            self._closed = True
            raise CameraUnavailable("the Pi camera needs picamera2 (sudo apt install python3-picamera2)") from None
        try:
            camera: Any = Picamera2()
            camera.configure(camera.create_still_configuration(main={"size": size, "format": "RGB888"}))
            camera.start()
        except Exception as exc:  # picamera2 raises RuntimeError, IndexError... when no camera is attached
            self._closed = True
            raise CameraUnavailable(f"the Pi camera cannot be opened: {exc}") from None
        self._camera = camera

    def _read(self) -> Frame:
        # picamera2's "RGB888" is BGR in memory (its naming follows the kernel's), as OpenCV wants it
        return np.asarray(self._camera.capture_array("main"), dtype=np.uint8)

    def _release(self) -> None:
        self._camera.close()


# ---------------------------------------------------------------------------------------------- samples


def _samples_folder() -> Any:
    return resources.files("companion.vision").joinpath("data", "samples")


def sample_truth() -> dict[str, Any]:
    """The bundled samples' ground truth: for each picture, its stickers and the board it shows."""
    data: dict[str, Any] = json.loads(_samples_folder().joinpath("samples.json").read_text(encoding="utf-8"))
    return data


def sample_paths() -> list[Path]:
    """The bundled sample photos, in the order the truth file lists them."""
    folder = Path(str(_samples_folder()))
    return [folder / name for name in sample_truth()["samples"]]


def open_source(spec: str) -> FrameSource:
    """The frame source ``spec`` names (see the module docstring); ``CameraUnavailable`` if it cannot open."""
    text = spec.strip()
    if text == "samples":
        return ImageFiles(sample_paths(), hold=SAMPLE_HOLD, name="samples")
    if text == "pi":
        return PiCamera()
    if text == "usb" or text.startswith("usb:"):
        number = text.partition(":")[2] or "0"
        if not number.isdigit():
            raise MalformedInputError(f"camera {spec!r}: expected usb:N with a camera number, e.g. usb:0")
        return UsbCamera(int(number))
    path = Path(text).expanduser()
    if path.is_dir():
        pictures = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not pictures:
            raise CameraUnavailable(f"no pictures in folder {text!r}")
        return ImageFiles(pictures, hold=SAMPLE_HOLD, name=text)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoFile(path)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        if not path.is_file():
            raise CameraUnavailable(f"no picture {text!r}")
        return ImageFiles([path], name=text)
    raise MalformedInputError(
        f"unknown camera {spec!r}: use samples, off, usb:N, pi, or a picture, folder or video file")
