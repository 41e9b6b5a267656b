"""Calibrating the layout from a photo of a full board: positions from the photo, crops kept, refusals."""

from __future__ import annotations

import random

import pytest

from companion.codes import load_registry
from companion.core.errors import MalformedInputError
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import Layout, load_layout
from companion.games.key_harvest.camera import KeyHarvestBoards, calibrated_layout
from companion.vision.board import read_board
from tests.vision.boardkit import camera, detections

LAYOUT = load_layout()
BOARDS = KeyHarvestBoards(KeyHarvest(LAYOUT))
REGISTRY = load_registry(KeyHarvest(LAYOUT))


def photo_of(layout: Layout, tilt: float = 12, turn: float = 130, sides: str = "UH") -> list:  # type: ignore[type-arg]
    rng = random.Random(5)
    pieces = [(f"KH:F:{label}:{rng.choice(sides)}", at) for label, at in zip(layout.labels, layout.coords)]
    return detections(pieces, camera(tilt, turn), noise_px=0.7, seed=9)


def test_a_photo_of_the_layout_itself_gives_it_back_whatever_the_photo_rotation() -> None:
    for turn in (0, 130, 250):
        layout, moved = calibrated_layout(read_board(photo_of(LAYOUT, turn=turn), REGISTRY, BOARDS), LAYOUT)
        assert moved == 0 and layout.coords == LAYOUT.coords and layout.neighbours == LAYOUT.neighbours
        assert layout.crops == LAYOUT.crops and layout.start_pairs == LAYOUT.start_pairs
        assert layout.provisional and "PROVISIONAL" in layout.note


def test_a_board_printed_differently_is_recorded_as_photographed() -> None:
    # the real board: the same labels on other spaces (here: two rows swapped, two labels swapped)
    coords = list(LAYOUT.coords)
    for i in range(7):
        coords[i], coords[7 + i] = coords[7 + i], coords[i]
    coords[20], coords[40] = coords[40], coords[20]
    printed = Layout(LAYOUT.name, LAYOUT.labels, tuple(coords), LAYOUT.crops, LAYOUT.start_pairs,
                     LAYOUT.pair_colours, True)
    layout, moved = calibrated_layout(read_board(photo_of(printed), REGISTRY, BOARDS), LAYOUT)
    assert moved == 16
    assert layout.neighbours == printed.neighbours  # the photographed adjacency, label by label
    assert Layout.from_json(layout.to_json()).coords == layout.coords


def test_missing_tiles_are_refused_by_name() -> None:
    seen = [d for d in photo_of(LAYOUT) if d.code.split(":")[2] not in ("C4", "H7")]
    with pytest.raises(MalformedInputError, match=r"2 of the 56 field tiles are not on the photo \(C4, H7\)"):
        calibrated_layout(read_board(seen, REGISTRY, BOARDS), LAYOUT)


def test_an_ambiguous_photo_is_refused() -> None:
    seen = photo_of(LAYOUT, sides="U")
    seen += detections([("KH:F:A1:H", (9, 0))], camera(12, 130))  # A1's other side lies beside the board too
    with pytest.raises(MalformedInputError, match="tile A1 shows both sides"):
        calibrated_layout(read_board(seen, REGISTRY, BOARDS), LAYOUT)


@pytest.mark.parametrize("difficulty,seed", [("easy", 1), ("hard", 4)])
def test_a_rendered_photo_of_all_56_tiles_reproduces_the_layout(difficulty: str, seed: int) -> None:
    from companion.vision.board import read_board_photo
    from tests.vision.photos import full_board_photo

    read, _ = read_board_photo(full_board_photo(difficulty, seed), REGISTRY, BOARDS)
    layout, moved = calibrated_layout(read, LAYOUT, source="full.jpg")
    assert moved == 0 and layout.neighbours == LAYOUT.neighbours and layout.coords == LAYOUT.coords
    assert "from full.jpg" in layout.note
