"""The stickers as ``companion stickers`` prints them carry a QR code beside the marker (issue 16, part 1): the
camera reads a whole table and a single board of such stickers as well as of bare markers, and never takes part of
a QR code for a marker.

The scenes (tests/vision/scenes.py, ``printed=True``) paste each sticker's printed artwork, marker and QR code,
turned with its piece; their seeds (700+) are none the reader was tuned on nor the benchmark's held-out ones."""

from __future__ import annotations

import pytest

from companion.codes import load_registry
from companion.games.key_harvest import KeyHarvest
from companion.vision.qr import read_codes_and_qr
from companion.vision.table import table_reader
from tests.vision.scenes import random_scene
from tests.vision.tables import table_scene

GAME = KeyHarvest()
REGISTRY = load_registry(GAME)

@pytest.mark.parametrize("players, difficulty, seed", [(3, "table-medium", 701), (4, "table-hard", 702)])
def test_a_whole_table_of_printed_stickers_reads_as_the_table_lies(players: int, difficulty: str, seed: int) -> None:
    table = table_scene(REGISTRY, players, difficulty, seed=seed, printed=True)
    detections = read_codes_and_qr(table.scene.image, REGISTRY)
    assert not table.scene.score(detections).false_reads
    reader = table_reader(GAME.board_reader())
    found = reader.read(table.scene.image, detections, REGISTRY, read_codes_and_qr, players)
    got = reader.snapshot(found, REGISTRY, [p["name"] for p in table.snapshot["players"]])
    for mine, true in zip(got["players"], table.snapshot["players"]):
        assert sorted((t["label"], t["harvested"]) for t in mine["tiles"]) == \
            sorted((t["label"], t["harvested"]) for t in true["tiles"]), true["name"]
        assert sorted(w["worker"] for w in mine["workers"]) == sorted(w["worker"] for w in true["workers"])
    assert sorted(got["land_office"]) == sorted(table.snapshot["land_office"])
    assert got["event_track"] == table.snapshot["event_track"]

@pytest.mark.parametrize("difficulty, seed", [("medium", 703), ("harder", 704)])
def test_a_board_of_printed_stickers_is_read_whole(difficulty: str, seed: int) -> None:
    plain = random_scene(REGISTRY, tiles=24, difficulty=difficulty, seed=seed)
    printed = random_scene(REGISTRY, tiles=24, difficulty=difficulty, seed=seed, printed=True)
    for scene in (plain, printed):
        outcome = scene.score(read_codes_and_qr(scene.image, REGISTRY))
        assert not outcome.missed and not outcome.false_reads, (scene is printed, outcome.missed)
