"""Reading a sticker's data modules through blur (companion/vision/blur.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.blur import PX_PER_MODULE, BlurredSticker
from companion.vision.markers import BORDER_MODULES, QUIET_ZONE_MODULES, sticker_modules_image

MARKER = 7
FINE = 16
"""Pixels a module the test draws the sticker at before straightening it to ``PX_PER_MODULE``."""


def straightened(shift_px: tuple[float, float], blur_modules: float, black: float = 40.0, white: float = 190.0,
                 slope: float = 0.0) -> np.ndarray:
    """Marker ``MARKER``'s sticker on white, blurred by ``blur_modules`` and straightened at ``PX_PER_MODULE`` with
    its corners assumed ``shift_px`` (x, y) away from where they lie, under a light ``slope`` brighter left to right."""
    modules = sticker_modules_image(MARKER).astype(np.float64) / 255
    side_fine = modules.shape[0] * FINE
    drawn = np.pad(np.kron(modules, np.ones((FINE, FINE))), 4 * FINE, constant_values=1.0)
    drawn = cv2.GaussianBlur(drawn, (0, 0), blur_modules * FINE)
    corner = 4 * FINE - 0.5
    source = np.array([[corner, corner], [corner + side_fine, corner], [corner + side_fine, corner + side_fine],
                       [corner, corner + side_fine]], dtype=np.float32)
    side = modules.shape[0] * PX_PER_MODULE
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32) - 0.5 + np.float32(shift_px)
    straight = cv2.warpPerspective(drawn, cv2.getPerspectiveTransform(source, target), (side, side))
    light = 1.0 + slope * (np.arange(side) / side - 0.5)[None, :]
    return np.asarray((black + (white - black) * straight) * light, dtype=np.float32)


def printed_bits() -> np.ndarray:
    first = BORDER_MODULES + QUIET_ZONE_MODULES
    return sticker_modules_image(MARKER)[first:-first, first:-first] > 128


def fitter() -> BlurredSticker:
    return BlurredSticker(printed_bits().shape[0], BORDER_MODULES, QUIET_ZONE_MODULES)


@pytest.mark.parametrize("blur_modules", [0.3, 0.45, 0.6])
def test_a_blurred_sticker_under_a_sloping_light_reads_as_printed(blur_modules: float) -> None:
    fit = fitter().fit(straightened((0.0, 0.0), blur_modules, slope=0.3)[None])
    assert np.array_equal(fit.values[0] > 0.5, printed_bits())
    assert fit.contrast[0] == pytest.approx(150.0, rel=0.2)


@pytest.mark.parametrize("shift", [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])
def test_the_fit_moves_the_corners_towards_where_they_lie(shift: tuple[float, float]) -> None:
    """The sticker lies a pixel off where its corners were assumed: the corners' mean move points that way (the
    estimate is rough, a straight line through the blurred edges; the reader fits twice)."""
    fit = fitter().fit(straightened(shift, 0.45)[None])
    mean = fit.corner_moves[0].mean(axis=0)
    along, across = np.array(shift), np.array([-shift[1], shift[0]])
    assert float(mean @ along) > 0.5 and abs(float(mean @ across)) < 0.5
    unmoved = fitter().fit(straightened((0.0, 0.0), 0.45)[None]).corner_moves[0].mean(axis=0)
    assert np.abs(unmoved).max() < 0.3


def test_several_stickers_are_fitted_at_once_alike() -> None:
    stickers = np.stack([straightened((0.0, 0.0), 0.4), straightened((0.0, 0.0), 0.4, black=80, white=150)])
    fit = fitter().fit(stickers)
    assert np.array_equal(fit.values[0] > 0.5, fit.values[1] > 0.5)
    assert fit.contrast[1] == pytest.approx(70.0, rel=0.15)


def test_a_patch_darker_outside_than_inside_has_no_positive_contrast() -> None:
    """The inverse of a sticker (a white ring inside a dark frame) is not one: its fitted contrast is negative."""
    inverse = 230.0 - straightened((0.0, 0.0), 0.4)
    assert fitter().fit(inverse[None]).contrast[0] < 0
