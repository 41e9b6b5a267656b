"""Sticker artwork: the registry's marker with a white quiet zone, readable by OpenCV itself."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.codes import load_registry
from companion.core.errors import MalformedInputError
from companion.vision.markers import marker_dictionary, marker_image, sticker_modules


def test_the_artwork_has_a_white_quiet_zone_around_a_black_border() -> None:
    component = load_registry().by_code("KH:E:Q")
    art = marker_image(component, 90)
    module = 90 // sticker_modules()
    assert module == 10 and art.shape == (90, 90) and art.dtype == np.uint8
    assert (art[:module] == 255).all() and (art[:, -module:] == 255).all()  # quiet zone
    assert (art[module:2 * module, module:-module] == 0).all()  # the marker's black border


@pytest.mark.parametrize("px", [64, 90, 200])
def test_opencv_reads_the_artwork_as_its_marker_at_any_size(px: int) -> None:
    component = load_registry().by_code("KH:L:2:C")
    page = cv2.copyMakeBorder(marker_image(component, px), 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    detector = cv2.aruco.ArucoDetector(marker_dictionary(), cv2.aruco.DetectorParameters())
    _corners, ids, _ = detector.detectMarkers(page)
    assert ids is not None and ids.ravel().tolist() == [component.marker_id]


def test_a_marker_id_or_a_component_give_the_same_artwork() -> None:
    component = load_registry().by_code("KH:T:H")
    assert np.array_equal(marker_image(component.marker_id, 48), marker_image(component, 48))


def test_impossible_artwork_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="at least"):
        marker_image(3, 5)
    with pytest.raises(MalformedInputError, match="not in"):
        marker_image(100000, 64)
    with pytest.raises(MalformedInputError, match="unknown marker family"):
        marker_dictionary("DICT_9X9_7")
