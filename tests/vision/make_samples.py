"""Render the sample photos the product ships (companion/vision/data/samples/) and their ground truth.

    .venv/bin/python -m tests.vision.make_samples

The samples are what ``companion serve`` shows on the camera page when no camera is chosen
(``--camera samples``, the default): two end-of-game boards and one tile held up to the scan
station. ``samples.json`` records, for each picture, every sticker's true centre and the board as
a snapshot player entry, so tests can check that the shipped pictures read as they should.
Rendering is deterministic: the same registry and layout give the same pictures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.sources import sample_truth
from tests.vision.photos import LAYOUT, REGISTRY, end_of_game_board
from tests.vision.scenes import Placement, render_scene

FOLDER = Path(__file__).resolve().parents[2] / "companion" / "vision" / "data" / "samples"
JPEG_QUALITY = 85


def samples() -> list[tuple[str, str, int, list[Placement], dict[str, Any] | None]]:
    """(file name, difficulty, seed, stickers, the board's snapshot entry or None)."""
    rng = np.random.default_rng(2026)
    deal = rng.permutation(LAYOUT.size).tolist()
    first, second = sorted(deal[:30]), sorted(deal[30:48])
    board_1, player_1 = end_of_game_board(0, first, rng)
    board_2, player_2 = end_of_game_board(1, second, rng)
    station = [Placement(f"KH:F:{LAYOUT.labels[deal[50]]}:U", 0.0, 0.0, 17.0)]
    return [("board-1.jpg", "medium", 1, board_1, player_1), ("board-2.jpg", "easy", 2, board_2, player_2),
            ("scan-station.jpg", "easy", 3, station, None)]


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    pictures: dict[str, Any] = {}
    for name, difficulty, seed, stickers, player in samples():
        scene = render_scene(stickers, REGISTRY, difficulty, seed)
        assert cv2.imwrite(str(FOLDER / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        pictures[name] = {"difficulty": difficulty, "seed": seed,
                          "codes": {code: [round(x, 1), round(y, 1)] for code, (x, y) in scene.truth.items()},
                          "board": player}
    truth = {"note": "Rendered by tests/vision/make_samples.py from the scene generator; the board's positions "
                     "are the default layout's. Regenerate when the registry or the layout changes.",
             "registry_version": REGISTRY.version, "samples": list(pictures), "pictures": pictures}
    (FOLDER / "samples.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    assert sample_truth()["samples"] == list(pictures)
    print(f"wrote {len(pictures)} samples to {FOLDER}")


if __name__ == "__main__":
    main()
