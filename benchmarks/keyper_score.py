"""Keyper benchmark: the final score by best assignment of a full 4-player end position (goal: under 5 ms).

Run: ``.venv/bin/python benchmarks/keyper_score.py`` (one process). Prints the median of repeated runs of scoring
the whole table (all four players, every tile with its assignment, the ranks), and the worst case of one player
holding all six gem-set tiles with 16 gems of each type.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.keyper.data import load_edition  # noqa: E402
from companion.games.keyper.snapshot import score_snapshot  # noqa: E402

EDITION = load_edition()
HOME_FARM = ["cow_shed", "pig_sty", "sheep_shelter", "stable", "farmyard", "paddock"]
HOME_VILLAGE = ["brickmaker", "carpenter", "stonemason", "scrapyard", "drainage", "pavements"]
COUNTRY = [  # each player's country tiles: farm, then village
    (["barn", "chicken_house"], ["goldsmith", "jeweller", "prospector", "brickyard", "thatcher", "dock"]),
    (["goat_pen", "hop_field"], ["gem_merchant", "ring_maker", "scrap_dealer", "stoneyard", "statue", "boatman"]),
    (["game_wardens_cottage", "copse"], ["bracelet_maker", "emporium", "timberyard", "windmill", "lumberjack", "kiln"]),
    (["hunters_lodge", "farm_labourer"], ["bricklayer", "quarryman", "farmer", "village_hall", "boarding_house",
                                          "builder"]),
]


def player(i: int) -> dict[str, Any]:
    farm, village = COUNTRY[i]
    built = [{"tile": t, "plot": f"F{n + 1}", "side": "upgraded" if n % 2 else "base"}
             for n, t in enumerate(HOME_FARM + farm)]
    built += [{"tile": t, "plot": f"V{n + 1}", "side": "upgraded" if (n + i) % 2 else "base"}
              for n, t in enumerate(HOME_VILLAGE + village)]
    return {"name": f"P{i + 1}", "built": built, "shipping": 18 + 4 * i,
            "goods": {"emerald": 6 + i, "gold": 5, "ruby": 4 + i, "sapphire": 7 - i, "brick": 5, "timber": 4,
                      "stone": 3 + i, "clay": 2, "log": 3, "rock": 1, "wheat": 5},
            "animals": {"cow": 6, "pig": 4, "sheep": 3, "horse": 2, "chicken": 3, "deer": 2, "goat": 3, "boar": 2},
            "keyples": {"blue": 1, "orange": 2, "green": 1, "brown": 2, "black": 1, "grey": 1, "white": 2},
            "fairs": [{"season": "spring", "vp": 3}, {"season": "autumn", "vp": 6}],
            "field_colours": {"green": 2, "orange": 1, "brown": 2, "black": 3, "grey": 1}}


TABLE = {"players": [player(i) for i in range(4)]}
GEM_SETS = ["bracelet_maker", "emporium", "gem_merchant", "goldsmith", "jeweller", "ring_maker"]
WORST = {"players": [{"name": "W", "built": [
    *({"tile": t, "plot": f"V{n + 1}", "side": "upgraded" if n % 2 else "base"} for n, t in enumerate(GEM_SETS)),
    {"tile": "prospector", "plot": "V7", "side": "upgraded"}, {"tile": "scrap_dealer", "plot": "V8"}],
    "goods": {"emerald": 16, "gold": 16, "ruby": 16, "sapphire": 16, "wheat": 3}}]}


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    totals = [row["total"] for row in score_snapshot(TABLE, EDITION)["players"]]
    print(f"best-assignment score, full 4-player end position (totals {totals}): "
          f"{median_ms(lambda: score_snapshot(TABLE, EDITION), 200):.2f} ms")
    print(f"worst case, one player with all 6 gem-set tiles and 64 gems: "
          f"{median_ms(lambda: score_snapshot(WORST, EDITION), 20):.2f} ms")


if __name__ == "__main__":
    main()
