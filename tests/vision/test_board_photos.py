"""Photo -> snapshot -> score: rendered photos of whole tables score exactly like their ground truth."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.codes import load_registry
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import load_layout
from companion.games.key_harvest.camera import KeyHarvestBoards
from companion.games.key_harvest.snapshot import score_snapshot
from companion.vision.board import read_board_photo
from tests.vision.photos import end_of_game_board
from tests.vision.scenes import render_scene

LAYOUT = load_layout()
BOARDS = KeyHarvestBoards(KeyHarvest(LAYOUT))
REGISTRY = load_registry(KeyHarvest(LAYOUT))


@pytest.mark.parametrize("difficulty,players,seed", [
    ("easy", 2, 1), ("easy", 4, 2), ("medium", 3, 3), ("medium", 2, 4), ("medium", 4, 8),
    ("hard", 4, 5), ("hard", 3, 6), ("hard", 2, 7),
])
def test_a_photographed_table_scores_exactly_like_its_ground_truth(difficulty: str, players: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth: dict[str, Any] = {"game": "key-harvest", "players": []}
    reads = []
    deal = rng.permutation(LAYOUT.size).tolist()  # every tile is in one place: the boards share none
    for seat in range(players):
        count = int(rng.integers(8, LAYOUT.size // players))
        chosen, deal = sorted(deal[:count]), deal[count:]
        stickers, player = end_of_game_board(seat, chosen, rng)
        truth["players"].append(player)
        scene = render_scene(stickers, REGISTRY, difficulty, seed=100 * seed + seat)
        read, _ = read_board_photo(scene.image, REGISTRY, BOARDS)
        assert read.conflicts == (), [c.message for c in read.conflicts]
        assert {p.code for p in read.pieces} == {s.code for s in stickers[:-2]}  # all but the two beside it
        reads.append((player["name"], read))
    stones = {p["name"]: p["stones"] for p in truth["players"]}
    photo = BOARDS.snapshot([BOARDS.player(name, read, stones.get(name)) for name, read in reads])
    assert score_snapshot(photo) == score_snapshot(truth)


def test_the_second_look_on_the_straightened_board_finds_a_sticker_the_first_look_missed() -> None:
    from companion.vision.reader import read_codes
    from tests.vision.photos import BOARD, board_photo

    looks: list[int] = []

    def forgetful(image: Any, registry: Any, sides: Any = None) -> list[Any]:
        """The real reader, except that the first look misses tile B1 (as under a reflection)."""
        looks.append(image.shape[1])
        found = read_codes(image, registry, sides)
        return [d for d in found if d.code != "KH:F:B1:H"] if len(looks) == 1 else found

    read, detections = read_board_photo(board_photo(), REGISTRY, BOARDS, forgetful)
    assert len(looks) == 2 and looks[1] != 1920  # the second look read another (straightened) picture
    assert {p.code for p in read.pieces} == set(BOARD) and read.conflicts == ()
    b1 = next(d for d in detections if d.code == "KH:F:B1:H")
    truth = next(d for d in read_codes(board_photo(), REGISTRY) if d.code == "KH:F:B1:H")
    assert max(abs(a - b) for p, q in zip(b1.corners, truth.corners) for a, b in zip(p, q)) < 3  # back in photo pixels
