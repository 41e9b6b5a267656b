"""Rendered photos shared by the scanner, CLI and camera-page tests (rendered once per test session)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.codes import load_registry
from companion.codes.registry import CodeRegistry
from typing import Any

from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import HEX_DIRECTIONS, Layout, load_layout
from tests.vision.scenes import Placement, hex_centre_mm, render_scene

NAMES = ["Alice", "Bob", "Cara", "Dan"]
CROPS = ["hops", "vegetables", "apples", "wine", "wheat"]
LAYOUT: Layout = load_layout()
REGISTRY: CodeRegistry = load_registry(KeyHarvest(LAYOUT))

BOARD = {"KH:F:A1:H": (0, 0), "KH:F:A2:U": (1, 0), "KH:F:B1:H": (0, 1), "KH:F:A4:U": (3, 0),
         "KH:F:B5:H": (4, 1), "KH:L:1:C": (2, 0), "KH:T:H": (2, 1)}
"""The snapshot doc's example board of Alice: five tiles, labourer C and townsfolk H."""


@cache
def board_photo() -> np.ndarray:
    """Alice's board (tiles at the default layout's places) photographed at medium difficulty."""
    placements = [Placement.at_hex(code, *LAYOUT.coords[LAYOUT.index[code.split(":")[2]]], rotation_deg=37.0 * n)
                  if code.startswith("KH:F") else Placement.at_hex(code, *at, rotation_deg=20.0 * n)
                  for n, (code, at) in enumerate(BOARD.items())]
    return render_scene(placements, REGISTRY, "medium", seed=11).image


@cache
def tile_photo(code: str) -> np.ndarray:
    """One component held up to the camera."""
    return render_scene([Placement(code, 0.0, 0.0, 25.0)], REGISTRY, "easy", seed=12).image


def blank_photo() -> np.ndarray:
    """The table with nothing on it."""
    return np.full((1080, 1920, 3), 120, dtype=np.uint8)


def save(image: np.ndarray, path: Path) -> Path:
    assert cv2.imwrite(str(path), image)
    return path


@cache
def full_board_photo(difficulty: str = "medium", seed: int = 21, leave_out: tuple[str, ...] = ()) -> np.ndarray:
    """Every field tile on its space of the default layout (either side up), for calibration."""
    rng = np.random.default_rng(seed)
    placements = [Placement.at_hex(f"KH:F:{label}:{'UH'[int(rng.integers(2))]}", *at,
                                   rotation_deg=float(rng.uniform(0, 360)))
                  for label, at in zip(LAYOUT.labels, LAYOUT.coords) if label not in leave_out]
    return render_scene(placements, REGISTRY, difficulty, seed=seed).image


def end_of_game_board(seat: int, chosen: list[int], rng: np.random.Generator) -> tuple[list[Placement], dict[str, Any]]:
    """A random board as it may look at the end: the ``chosen`` tiles either side up, this seat's
    labourers and a townsfolk on free spaces next to tiles, an event and a spare labourer lying
    beside the board. Returns the stickers and the player's true snapshot entry (positions from the layout)."""
    player: dict[str, Any] = {"name": NAMES[seat], "tiles": [], "workers": [],
                              "stones": {crop: int(rng.integers(0, 3)) for crop in CROPS}}
    stickers = []
    for i in chosen:
        side = "UH"[int(rng.integers(2))]
        stickers.append(Placement.at_hex(f"KH:F:{LAYOUT.labels[i]}:{side}", *LAYOUT.coords[i],
                                         rotation_deg=float(rng.uniform(0, 360))))
        player["tiles"].append({"label": LAYOUT.labels[i], "crop": LAYOUT.crops[i].key,
                                "harvested": side == "H", "at": list(LAYOUT.coords[i])})
    taken = {LAYOUT.coords[i] for i in chosen}
    free = [c for c in LAYOUT.coords if c not in taken
            and any((c[0] + dq, c[1] + dr) in taken for dq, dr in HEX_DIRECTIONS)]
    workers = [f"KH:L:{seat + 1}:{letter}" for letter in "ABCDEF"[:int(rng.integers(0, 4))]] + [f"KH:T:{'GHIJKL'[seat]}"]
    for code in workers:
        if not free:
            break
        spot = free.pop(int(rng.integers(len(free))))
        free = [c for c in free if (c[0] - spot[0], c[1] - spot[1]) not in HEX_DIRECTIONS]  # R-B4: never side by side
        stickers.append(Placement.at_hex(code, *spot, rotation_deg=float(rng.uniform(0, 360))))
        player["workers"].append({"worker": code[-1], "at": list(spot)})
    # just below the bottom row, between the lattice's rows (r = 8.4): near, but on no space
    x, y = hex_centre_mm(1, 8.4)  # type: ignore[arg-type]
    stickers.append(Placement("KH:E:" + "MNOPQRSTUVWXYZ"[seat], x, y, float(rng.uniform(0, 360))))
    x, y = hex_centre_mm(-1.5, 8.4)  # type: ignore[arg-type]
    stickers.append(Placement(f"KH:L:{seat + 1}:F", x, y, float(rng.uniform(0, 360))))
    return stickers, player
