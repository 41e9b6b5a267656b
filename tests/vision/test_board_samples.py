"""The sample photos the product ships read as their recorded ground truth (the camera page's default)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from companion.codes import load_registry
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import load_layout
from companion.games.key_harvest.camera import KeyHarvestBoards
from companion.games.key_harvest.snapshot import score_snapshot
from companion.vision.board import read_board
from companion.vision.reader import read_codes
from companion.vision.sources import SAMPLE_HOLD, open_source, read_image, sample_paths, sample_truth

LAYOUT = load_layout()
BOARDS = KeyHarvestBoards(KeyHarvest(LAYOUT))
REGISTRY = load_registry(KeyHarvest(LAYOUT))
TRUTH = sample_truth()


def test_the_samples_are_shipped_for_this_registry() -> None:
    assert [p.name for p in sample_paths()] == TRUTH["samples"] and len(TRUTH["samples"]) == 3
    assert TRUTH["registry_version"] == REGISTRY.version  # else: python -m tests.vision.make_samples


@pytest.mark.parametrize("name", TRUTH["samples"])
def test_each_sample_reads_as_its_truth(name: str) -> None:
    truth: dict[str, Any] = TRUTH["pictures"][name]
    found = read_codes(read_image(next(p for p in sample_paths() if p.name == name)), REGISTRY)
    assert sorted(d.code for d in found) == sorted(truth["codes"])
    for detection in found:
        assert math.dist(detection.center, truth["codes"][detection.code]) < 5
    if truth["board"] is None:
        return
    read = read_board(found, REGISTRY, BOARDS)
    assert read.conflicts == ()
    photo = BOARDS.player(truth["board"]["name"], read, truth["board"]["stones"])
    assert sorted((t["label"], t["harvested"]) for t in photo["tiles"]) == \
        sorted((t["label"], t["harvested"]) for t in truth["board"]["tiles"])
    other = {"name": "Other", "tiles": [], "workers": [], "stones": {"wheat": 1}}
    assert score_snapshot({"game": "key-harvest", "players": [photo, other]}) == \
        score_snapshot({"game": "key-harvest", "players": [truth["board"], other]})


def test_the_samples_source_shows_each_picture_for_a_while_in_turn() -> None:
    with open_source("samples") as source:
        frames = [source.read() for _ in range(SAMPLE_HOLD * 3 + 1)]
    first = frames[0]
    assert first is not None and all(f is not None for f in frames)
    assert (frames[SAMPLE_HOLD - 1] == first).all() and not (frames[SAMPLE_HOLD] == first).all()  # type: ignore[union-attr]
    assert (frames[SAMPLE_HOLD * 3] == first).all()  # type: ignore[union-attr]
