"""Camera board benchmarks: fitting the lattice to one board's stickers, and a whole photo to a board.

Run: ``.venv/bin/python benchmarks/camera_board.py`` (one process). Prints the median of repeated
runs; docs/benchmarks.md records them. The photo timings include the code reader (the vision
helper's ``read_codes``) on a 1920x1080 rendered photo.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.codes import load_registry  # noqa: E402
from companion.games.key_harvest import KeyHarvest  # noqa: E402
from companion.games.key_harvest.board import load_layout  # noqa: E402
from companion.vision.board import fit_lattice, pitch_in_stickers, read_board, read_board_photo  # noqa: E402
from companion.vision.reader import read_codes  # noqa: E402
from companion.vision.sources import read_image, sample_paths  # noqa: E402
from tests.vision.boardkit import camera, detections  # noqa: E402

LAYOUT = load_layout()
GAME = KeyHarvest(LAYOUT)
BOARDS = GAME.board_reader()
REGISTRY = load_registry(GAME)


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    pitch = pitch_in_stickers(REGISTRY, BOARDS)
    spaces = list(zip(LAYOUT.labels, LAYOUT.coords))
    for count in (56, 30, 10):
        kept = random.Random(count).sample(spaces, count)
        found = detections(kept, camera(20, 70), noise_px=1.0)
        print(f"fit_lattice, {count} stickers, 20 deg tilt: {median_ms(lambda: fit_lattice(found, pitch), 30):.1f} ms")
    for path in sample_paths()[:2]:
        image = read_image(path)
        codes = read_codes(image, REGISTRY)
        print(f"{path.name}: read_codes {median_ms(lambda: read_codes(image, REGISTRY), 5):.0f} ms, "
              f"read_board ({len(codes)} stickers) {median_ms(lambda: read_board(codes, REGISTRY, BOARDS), 10):.1f} ms, "
              f"whole photo with the second look {median_ms(lambda: read_board_photo(image, REGISTRY, BOARDS), 5):.0f} ms")


if __name__ == "__main__":
    main()
