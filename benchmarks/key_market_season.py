"""Key Market benchmark: one full production (every player's F3) plus a Season End (market adjustment, upkeep, new
turn order) for 4 players with guild bonuses, on the shipped data pack.

Run: ``.venv/bin/python benchmarks/key_market_season.py`` (one process). Prints the median of repeated runs; the
goal (issue 15) is under 1 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.key_market import market as mk  # noqa: E402
from companion.games.key_market.data import shipped_edition  # noqa: E402
from companion.games.key_market.production import Member, Weather, Worked, produce  # noqa: E402
from companion.games.key_market.season_end import Standing, new_turn_order, upkeep  # noqa: E402

EDITION = shipped_edition()
WEATHER = Weather("summer", square="wheat", round="sheep")
PLAYERS = [
    ([Worked("1a", "round", "sheep"), Worked("1b", "square", "wheat"), Worked("2c", "round", "lux", True)],
     {1: Member("J", "sheep"), 2: Member("A"), 4: Member("M")}),
    ([Worked("3a", "square", "fruit"), Worked("3c", "round", "veg"), Worked("4a", "square", "fish"),
      Worked("4c", "round", "fruit")], {8: Member("M", "fruit"), 9: Member("J"), 13: Member("J")}),
    ([Worked("2a", "square", "veg"), Worked("2b", "round", "wheat")], {2: Member("M"), 14: Member("J")}),
    ([Worked("1c", "square", "sheep"), Worked("3b", "round", "fish"), Worked("4b", "square", "veg"),
      Worked("2d", "round", "fruit"), Worked("1d", "square", "fish")], {8: Member("J", "veg"), 12: Member("M")}),
]
SUPPLY = {g: 10 for g in ("fruit", "veg", "wheat", "sheep", "fish", "lux")}
MARKET = {"fruit": 2, "veg": 5, "wheat": 7, "sheep": 0, "fish": 3, "lux": 4}


def season() -> object:
    """Every player's production in turn order, then the Season End."""
    supply, market = dict(SUPPLY), dict(MARKET)
    for worked, guilds in PLAYERS:
        harvest = produce(EDITION, worked, WEATHER, guilds, supply, market)
        supply, market = harvest.supply, harvest.market
    market, _ = mk.season_end_removal(EDITION, market)
    costs = [upkeep([Standing(i % 3) for i in range(len(w))], g12_master=12 in g).gold for w, g in PLAYERS]
    order = new_turn_order((0, 1, 2, 3), {p: len(PLAYERS[p][0]) for p in range(4)}, (3, 2, 1, 0))
    return costs, order


def main() -> None:
    runs = []
    for _ in range(2000):
        start = time.perf_counter()
        season()
        runs.append(time.perf_counter() - start)
    print(f"Key Market: one production (4 players) + Season End: median {1000 * statistics.median(runs):.3f} ms, "
          f"p99 {1000 * sorted(runs)[int(0.99 * len(runs))]:.3f} ms over {len(runs)} runs")


if __name__ == "__main__":
    main()
