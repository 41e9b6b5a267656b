"""Frame sources: files, folders, video, USB and Pi cameras that are missing, and clear errors."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.errors import MalformedInputError
from companion.vision.sources import CameraUnavailable, ImageFiles, VideoFile, open_source, read_image
from tests.vision.photos import blank_photo, save


def test_nothing_is_opened_by_importing_the_camera_modules() -> None:
    import companion.vision.scanner  # noqa: F401
    import companion.vision.sources  # noqa: F401

    assert "picamera2" not in sys.modules


def test_a_picture_is_shown_for_hold_frames_then_the_next(tmp_path: Path) -> None:
    dark, light = np.zeros((20, 30, 3), np.uint8), np.full((20, 30, 3), 200, np.uint8)
    source = ImageFiles([save(dark, tmp_path / "a.png"),
                         save(light, tmp_path / "b.png")], hold=2)
    means = [int(source.read().mean()) for _ in range(5)]  # type: ignore[union-attr]
    assert means == [0, 0, 200, 200, 0]


def test_a_folder_of_pictures_and_a_single_picture(tmp_path: Path) -> None:
    save(blank_photo(), tmp_path / "one.jpg")
    (tmp_path / "notes.txt").write_text("not a picture")
    with open_source(str(tmp_path)) as folder:
        assert folder.read() is not None and folder.read().shape == (1080, 1920, 3)  # type: ignore[union-attr]
    assert folder.closed
    with open_source(str(tmp_path / "one.jpg")) as picture:
        assert picture.read() is not None


def test_a_video_file_is_read_to_its_end(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for value in (10, 100, 200):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    with open_source(str(path)) as video:
        assert isinstance(video, VideoFile)
        frames = [video.read() for _ in range(4)]
        assert [f is None for f in frames] == [False, False, False, True] and video.ended
        assert abs(int(frames[1].mean()) - 100) < 8  # type: ignore[union-attr]


def test_missing_cameras_and_files_give_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable, match="no USB camera at index 37"):
        open_source("usb:37")
    if "picamera2" not in sys.modules:
        with pytest.raises(CameraUnavailable, match="picamera2"):
            open_source("pi")
    with pytest.raises(CameraUnavailable, match="no picture"):
        open_source(str(tmp_path / "gone.jpg"))
    with pytest.raises(CameraUnavailable, match="no video file"):
        open_source(str(tmp_path / "gone.mp4"))
    with pytest.raises(CameraUnavailable, match="no pictures in folder"):
        open_source(str(tmp_path))
    with pytest.raises(MalformedInputError, match="usb:N"):
        open_source("usb:left")
    with pytest.raises(MalformedInputError, match="unknown camera 'webcam'"):
        open_source("webcam")


def test_a_file_that_is_not_a_picture_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(b"not a jpeg")
    with pytest.raises(MalformedInputError, match="not a picture OpenCV can open"):
        read_image(bad)
