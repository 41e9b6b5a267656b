"""Camera benchmark: recall, false reads and time per frame of the product's code reader, side by side with
OpenCV's default ArUco detector on the same frames, for each level and for whole-table 4K frames.

Run: ``.venv/bin/python benchmarks/vision.py [--scenes 40] [--tables 8] [--threads 2] [--v1] [--tuning]``.
Frames are the seeded synthetic tabletop scenes of ``tests/vision/scenes.py``: 1920x1080, levels easy,
medium, hard, harder (issue 16's hard scenes: 2.0-2.6 px/mm, strong gradient, cast shadow) and hardest
(plus motion blur, JPEG 60, glare), 8-56 field tiles with 16 mm stickers plus 3 workers and 2 events; and
whole tables (``tests/vision/tables.py``, 3840x2160, 2-4 boards, land office, event track) at table-easy,
-medium and -hard, where the product is the camera's reading path (markers and QR codes, ``read_codes_and_qr``) and the whole table
reader (codes, boards, seats, each board read again straightened) and "boards" counts the
tables whose every board went to the right player with exactly its tiles and workers; "assigned" counts apart
the boards given to the right player with nothing of another's (a board short of a missed sticker still counts).
The seeds are the HELD-OUT set (90 000 on; tables 95 000 on), never used while tuning; ``--tuning`` uses the tuning seeds
(10 000 on for the levels, 0 on for tables) instead; ``--first-table N`` starts the tables at seed N and
``--first-scene N`` the 1080p scenes (a fresh set: tables 96 000-98 999 were first run on 2026-11-24, 99 000 on and
scenes 80 000 on on 2026-11-25); ``--printed`` pastes each table sticker as ``companion stickers`` prints it,
its QR code beside the marker. ``--v1`` adds the registry's version 1 (4x4 markers) read
by the default detector, on frames rendered with 4x4 stickers. Last, tiles held up to the camera with their
QR codes (``tests/vision/qr_scenes.py``, ``--qr-scenes`` per level): zxing-cpp, OpenCV's two QR detectors and the
product's paths side by side (``benchmarks/vision_qr.py``).

A read is found when its code is a sticker in the frame and its centre is within a third of a
sticker of the true one; every other read is false. Time is wall time per frame (each frame read
3 times, the fastest kept, so other processes on the machine disturb it less) and process CPU time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.codes import load_registry  # noqa: E402
from companion.codes.registry import CodeRegistry  # noqa: E402
from companion.vision.detection import Detection  # noqa: E402
from companion.vision.markers import marker_dictionary  # noqa: E402
from companion.vision.reader import CodeReader  # noqa: E402
from tests.vision.scenes import Scene, random_scene  # noqa: E402

Reader = Callable[[npt.NDArray[np.uint8]], list[Detection]]
DIFFICULTIES = ("easy", "medium", "hard", "harder", "hardest")
TABLES = ("table-easy", "table-medium", "table-hard")
HELD_OUT = 90_000
TABLE_HELD_OUT = 95_000
"""The tables' held-out seeds: 90 000 on were looked at once (a false read they showed was fixed), so no more."""
SIZE_BANDS = ((0, 36), (36, 44), (44, 1000))


@dataclass
class Tally:
    """Counts over a set of frames."""

    stickers: int = 0
    found: int = 0
    false_reads: int = 0
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    by_size: dict[tuple[int, int], list[int]] = field(default_factory=lambda: {band: [0, 0] for band in SIZE_BANDS})

    def line(self, name: str) -> str:
        recall = 100.0 * self.found / max(1, self.stickers)
        sizes = "  ".join(f"{lo}-{hi if hi < 1000 else ''}px {100.0 * f / t:.1f}% of {t}"
                          for (lo, hi), (f, t) in self.by_size.items() if t)
        return (f"  {name:34} recall {recall:6.2f}% ({self.stickers - self.found:3} missed of {self.stickers:4})"
                f"  false {self.false_reads:3}  wall {statistics.mean(self.wall_ms):5.1f} ms"
                f" (median {statistics.median(self.wall_ms):5.1f})  cpu {statistics.mean(self.cpu_ms):5.1f} ms   [{sizes}]")


def default_detector(registry: CodeRegistry, min_perimeter_rate: float | None = None) -> Reader:
    """OpenCV's ArucoDetector with default parameters (or only the minimum marker perimeter lowered), unknown IDs
    dropped like the product does."""
    params = cv2.aruco.DetectorParameters()
    if min_perimeter_rate is not None:
        params.minMarkerPerimeterRate = min_perimeter_rate
    detector = cv2.aruco.ArucoDetector(marker_dictionary(registry.marker_family), params)
    allocated = {c.marker_id: c.code for c in registry}

    def read(image: npt.NDArray[np.uint8]) -> list[Detection]:
        corners, ids, _ = detector.detectMarkers(image)
        found = []
        for quad, marker in zip(corners, ids.ravel() if ids is not None else ()):
            if int(marker) in allocated:
                p = [(float(x), float(y)) for x, y in quad.reshape(4, 2)]
                found.append(Detection(allocated[int(marker)], int(marker), (p[0], p[1], p[2], p[3])))
        return found

    return read


def product_reader(registry: CodeRegistry) -> Reader:
    reader = CodeReader(registry)
    return lambda image: reader.read(image).detections


def measure(read: Reader, scenes: Sequence[Scene]) -> Tally:
    tally = Tally()
    for scene in scenes:
        best = float("inf")
        cpu = 0.0
        for _ in range(3):
            wall0, cpu0 = time.perf_counter(), time.process_time()
            detections = read(scene.image)
            best = min(best, time.perf_counter() - wall0)
            cpu = time.process_time() - cpu0
        tally.wall_ms.append(best * 1000)
        tally.cpu_ms.append(cpu * 1000)
        outcome = scene.score(detections)
        tally.stickers += len(scene.truth)
        tally.found += len(outcome.found)
        tally.false_reads += len(outcome.false_reads)
        for code, px in scene.sticker_px.items():
            band = next(b for b in SIZE_BANDS if b[0] <= px < b[1])
            tally.by_size[band][0] += code in outcome.found
            tally.by_size[band][1] += 1
    return tally


def scenes_for(registry: CodeRegistry, difficulty: str, count: int, first: int = 10_000) -> list[Scene]:
    """``count`` seeded scenes, tile counts spread evenly over 8-56."""
    return [random_scene(registry, 8 + 48 * n // max(1, count - 1), difficulty, seed=first + n) for n in range(count)]


def measure_tables(level: str, count: int, first: int, printed: bool = False,
                   ) -> tuple[Tally, Tally, Tally, int, tuple[int, int]]:
    """The whole-table reader and OpenCV's default detector on ``count`` tables of 2-4 players (seeds from ``first``;
    ``printed``: the stickers as printed, each with its QR code beside the marker); how many
    tables were read right (every board to its player with exactly its tiles and workers, office and track); and
    how many boards of all went to the right player with nothing of another's."""
    from companion.games.key_harvest import KeyHarvest
    from companion.vision.qr import read_codes_and_qr
    from companion.vision.table import table_reader
    from tests.vision.tables import table_scene

    game = KeyHarvest()
    registry = load_registry(game)
    table = table_reader(game.board_reader())
    tables = [table_scene(registry, 2 + n % 3, level, seed=first + n, printed=printed) for n in range(count)]
    right = 0
    assigned = [0, 0]
    snapshots = {}

    def read_table(image: npt.NDArray[np.uint8]) -> list[Detection]:
        truth = next(t for t in tables if t.scene.image is image)
        detections = read_codes_and_qr(image, registry)  # the camera's path: markers, then QR codes (web/camera.py)
        found = table.read(image, detections, registry, read_codes_and_qr, len(truth.snapshot["players"]))
        snapshots[id(truth.scene)] = table.snapshot(found, registry, [p["name"] for p in truth.snapshot["players"]])
        return [Detection(p.code, 0, (p.center,) * 4) for b in found.boards for p in b.read.pieces] + \
            [d for b in found.boards for d, _ in b.read.others] + list(found.row) + list(found.office)  # type: ignore[arg-type]

    product = measure(read_table, [t.scene for t in tables])
    for t in tables:
        got = snapshots[id(t.scene)]

        def content(p: dict) -> tuple:  # type: ignore[type-arg]
            return sorted((x["label"], x["harvested"]) for x in p["tiles"]), sorted(w["worker"] for w in p["workers"])
        for a, b in zip(got["players"], t.snapshot["players"]):
            (tiles, workers), (true_tiles, true_workers) = content(a), content(b)
            assigned[0] += set(tiles) <= set(true_tiles) and set(workers) <= set(true_workers) and bool(tiles)
            assigned[1] += 1
        right += all(content(a) == content(b) for a, b in zip(got["players"], t.snapshot["players"])) and \
            sorted(got["land_office"]) == sorted(t.snapshot["land_office"]) and \
            got["event_track"] == t.snapshot["event_track"]
    scenes = [t.scene for t in tables]
    return (product, measure(default_detector(registry), scenes), measure(default_detector(registry, 0.015), scenes), right,
            (assigned[0], assigned[1]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40, help="scenes per difficulty (default 40)")
    parser.add_argument("--threads", type=int, default=2, help="OpenCV threads (default 2, this machine's cores)")
    parser.add_argument("--tables", type=int, default=8, help="whole-table 4K scenes per level (default 8)")
    parser.add_argument("--levels", default=",".join(DIFFICULTIES + TABLES), help="levels to run, comma-separated")
    parser.add_argument("--tuning", action="store_true", help="the tuning seeds instead of the held-out ones")
    parser.add_argument("--qr-scenes", type=int, default=10,
                        help="scenes per QR level (tiles held up with their QR codes; default 10, 0: none)")
    parser.add_argument("--v1", action="store_true", help="also the 4x4 markers of registry version 1, default detector")
    parser.add_argument("--printed", action="store_true",
                        help="table scenes of the stickers as printed (the marker and its QR code beside it)")
    parser.add_argument("--first-scene", type=int, default=None,
                        help=f"the first 1080p scene seed (default: the held-out {HELD_OUT}; with --tuning 10 000)")
    parser.add_argument("--first-table", type=int, default=None,
                        help=f"the first table seed (default: the held-out {TABLE_HELD_OUT}; with --tuning 0)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    registry = load_registry()
    v1 = CodeRegistry(1, "DICT_4X4_1000", "keydom:1:", [replace(c) for c in registry])
    levels = args.levels.split(",")
    print(f"OpenCV {cv2.__version__}, {args.threads} thread(s), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {args.scenes} scenes per level, {args.tables} per table level; "
          f"{'tuning' if args.tuning else 'held-out'} seeds{', printed stickers' if args.printed else ''}")
    first_table = args.first_table if args.first_table is not None else 0 if args.tuning else TABLE_HELD_OUT
    for difficulty in (d for d in levels if d in DIFFICULTIES):
        first_scene = args.first_scene if args.first_scene is not None else 10_000 if args.tuning else HELD_OUT
        frames = scenes_for(registry, difficulty, args.scenes, first_scene)
        print(f"{difficulty}: {sum(len(s.truth) for s in frames)} stickers, "
              f"{min(min(s.sticker_px.values()) for s in frames):.0f}-{max(max(s.sticker_px.values()) for s in frames):.0f} px across")
        print(measure(product_reader(registry), frames).line(f"product reader ({registry.marker_family})"))
        print(measure(default_detector(registry), frames).line(f"OpenCV default ({registry.marker_family})"))
        if args.v1:
            print(measure(default_detector(v1), scenes_for(v1, difficulty, args.scenes)).line("OpenCV default (v1: DICT_4X4_1000)"))
        print(f"  load average {os.getloadavg()[0]:.1f}", flush=True)
    for level in (t for t in levels if t in TABLES):
        product, default, lowered, right, (assigned, boards) = measure_tables(level, args.tables, first_table, args.printed)
        print(f"{level}: {args.tables} tables of 2-4 players (seeds {first_table}+), 3840x2160, {product.stickers} stickers; "
              f"{right} of {args.tables} read right (every board to its player, office, track); "
              f"boards assigned {assigned} of {boards} (to the right player, nothing of another's)")
        print(product.line("product table reader"))
        print(default.line("OpenCV default"))
        print(lowered.line("OpenCV default, min perimeter 1.5 %"))
        print(f"  load average {os.getloadavg()[0]:.1f}", flush=True)
    if args.qr_scenes:
        from benchmarks import vision_qr
        from tests.vision.qr_scenes import LEVELS

        vision_qr.run(registry, args.qr_scenes, list(LEVELS))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
