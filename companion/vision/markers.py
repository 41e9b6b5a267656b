"""Sticker artwork: the square marker of one code, with its white quiet zone.

A sticker is ``QUIET_ZONE_MODULES`` white modules, the marker's black border, its data bits, the
black border again and the white quiet zone: for the 5x5 family that is 1 + 1 + 5 + 1 + 1 = 9 modules
across, so a 16 mm sticker carries a 12.4 mm marker of 1.8 mm modules. The marker family is the registry's
(``marker_family`` in ``companion/codes/data/registry.json``, an OpenCV ArUco dictionary name).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import Component, registry_data
from companion.core.errors import MalformedInputError

QUIET_ZONE_MODULES = 1
"""White modules around the marker's black border (the detector needs light around the border)."""

BORDER_MODULES = 1
"""The marker's black border, in modules (OpenCV's ``markerBorderBits``)."""

Image = npt.NDArray[np.uint8]


@cache
def marker_dictionary(family: str | None = None) -> cv2.aruco.Dictionary:
    """The OpenCV dictionary named ``family`` (default: the registry's marker family)."""
    name = family if family is not None else str(registry_data()["marker_family"])
    number = getattr(cv2.aruco, name, None)
    if not name.startswith("DICT_") or not isinstance(number, int):
        raise MalformedInputError(f"unknown marker family {name!r} (an OpenCV ArUco dictionary name like DICT_5X5_1000)")
    return cv2.aruco.getPredefinedDictionary(number)


def sticker_modules(family: str | None = None) -> int:
    """How many modules a sticker is across: data bits, black border and quiet zone."""
    return marker_dictionary(family).markerSize + 2 * (BORDER_MODULES + QUIET_ZONE_MODULES)


def marker_bits(marker_id: int, family: str | None = None) -> npt.NDArray[np.uint8]:
    """The marker's data bits (1 = white), ``markerSize`` square, in printed orientation."""
    dictionary = marker_dictionary(family)
    if not 0 <= marker_id < len(dictionary.bytesList):
        raise MalformedInputError(f"marker {marker_id} is not in {family or 'the registry family'} "
                                  f"(0-{len(dictionary.bytesList) - 1})")
    bits = cv2.aruco.Dictionary.getBitsFromByteList(dictionary.bytesList[marker_id:marker_id + 1], dictionary.markerSize)
    return np.asarray(bits, dtype=np.uint8)


def sticker_modules_image(marker_id: int, family: str | None = None) -> Image:
    """The sticker at one pixel per module: 0 black, 255 white."""
    bits = marker_bits(marker_id, family)
    size = sticker_modules(family)
    grid = np.full((size, size), 255, dtype=np.uint8)
    edge = QUIET_ZONE_MODULES
    grid[edge:size - edge, edge:size - edge] = 0
    inner = edge + BORDER_MODULES
    grid[inner:size - inner, inner:size - inner] = bits * 255
    return grid


def marker_image(component_or_marker_id: Component | int, px: int, family: str | None = None) -> Image:
    """The sticker artwork ``px`` pixels square (grey, 0 black and 255 white), quiet zone included.

    Module edges fall on whole pixels when ``px`` is a multiple of ``sticker_modules()``; otherwise
    the edge pixels are grey, the area-weighted mix.
    """
    marker_id = component_or_marker_id.marker_id if isinstance(component_or_marker_id, Component) else component_or_marker_id
    if px < sticker_modules(family):
        raise MalformedInputError(f"a sticker needs at least {sticker_modules(family)} px, not {px}")
    modules = sticker_modules_image(marker_id, family)
    n = modules.shape[0]
    if px % n == 0:
        return np.asarray(cv2.resize(modules, (px, px), interpolation=cv2.INTER_NEAREST), dtype=np.uint8)
    fine = -(-px // n) * n * 4  # a whole multiple of the module count, then area-averaged down to px
    big = cv2.resize(modules, (fine, fine), interpolation=cv2.INTER_NEAREST)
    return np.asarray(cv2.resize(big, (px, px), interpolation=cv2.INTER_AREA), dtype=np.uint8)
