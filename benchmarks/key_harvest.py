"""Key Harvest benchmarks: playouts per second, scoring one board, validating one move.

Run: ``.venv/bin/python benchmarks/key_harvest.py`` (one process, so one core). Prints numbers;
docs/benchmarks.md records them. ``--playouts N`` only plays N seeded games (no timing), for
counting instructions with callgrind, which is repeatable on a loaded machine:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/key_harvest.py --playouts 30
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/key_harvest.py --playouts 0

The difference of the two ``I refs`` totals divided by 30 is the instructions per game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit
from collections.abc import Callable

from companion.core.game import CHANCE
from companion.games.key_harvest import KeyHarvest, State, rules
from companion.games.key_harvest.board import load_layout
from companion.games.key_harvest.moves import KHMove
from companion.games.key_harvest.scoring import ScoringBoard, group_points, score_boards
from companion.simulate import random_playout

GAME = KeyHarvest()


def per_call(fn: Callable[[], object], repeat: int = 7, number: int = 2000) -> float:
    """Median seconds per call over ``repeat`` runs of ``number`` calls."""
    return statistics.median(timeit.repeat(fn, repeat=repeat, number=number)) / number


def mid_game_state(seed: int = 3) -> State:
    """A 4-player position about half-way through a random game."""
    rng = random.Random(seed)
    state = GAME.setup(["A", "B", "C", "D"], GAME.options())
    for _ in range(250):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


def playout_rate(rounds: int = 5, games: int = 60, validate: bool = False) -> tuple[float, float, float, float, float]:
    """(best, median) 4-player games per second over ``rounds`` rounds, moves per game, and
    (best, median) games per second of this process's CPU time (less disturbed by other load)."""
    rates, cpu_rates, moves = [], [], 0
    for r in range(rounds):
        started, cpu_started = time.perf_counter(), time.process_time()
        moves = sum(random_playout(GAME, 4, r * games + seed, validate)[1] for seed in range(games))
        rates.append(games / (time.perf_counter() - started))
        cpu_rates.append(games / (time.process_time() - cpu_started))
    return max(rates), statistics.median(rates), moves / games, max(cpu_rates), statistics.median(cpu_rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, metavar="N", help="only play N seeded 4-player games, untimed")
    args = parser.parse_args()
    if args.playouts is not None:
        moves = sum(random_playout(GAME, 4, 1000 + seed)[1] for seed in range(args.playouts))
        print(f"{args.playouts} random 4-player games, {moves} moves")
        return
    best, median, per_game, cpu_best, cpu_median = playout_rate()
    print(f"random 4-player playouts, one core: best {best:6.1f}, median {median:6.1f} games/s "
          f"({per_game:.0f} moves per game; goal >= 200 games/s)")
    print(f"  per second of CPU time: best {cpu_best:6.1f}, median {cpu_median:6.1f} games/s")
    best, median, _, cpu_best, cpu_median = playout_rate(rounds=3, games=30, validate=True)
    print(f"  the same with every move validated: best {best:6.1f}, median {median:6.1f} games/s "
          f"(CPU time: best {cpu_best:6.1f}, median {cpu_median:6.1f})")

    layout = load_layout()
    full = layout.all_spaces
    print(f"group points, one full board (56 tiles): {per_call(lambda: group_points(full, layout.neighbours)) * 1e6:6.2f} us"
          "  (goal < 20 us)")
    half = sum(1 << i for i in range(0, layout.size, 2))
    board = ScoringBoard("A", full, layout.neighbours, "ABCDEF", (3, 2, 1, 0, 4))
    print(f"full score of one board (groups, workers, majorities, rank): "
          f"{per_call(lambda: score_boards([board], GAME.options())) * 1e6:6.2f} us")
    boards = [ScoringBoard(n, half << (i % 2), layout.neighbours, "ACE", (i, 1, 2, 3, 0)) for i, n in enumerate("ABCD")]
    print(f"full score of a 4-player table: {per_call(lambda: score_boards(boards, GAME.options())) * 1e6:6.2f} us")

    state = mid_game_state()
    legal = GAME.legal_moves(state)
    move = legal[len(legal) // 2]
    illegal = KHMove("play", ("L", layout.labels[0]))
    print(f"validate one legal move ({move}) in a 4-player mid-game position ({len(legal)} legal moves): "
          f"{per_call(lambda: GAME.validate(state, move), number=500) * 1e6:6.1f} us")
    print(f"validate one illegal move ({illegal}): {per_call(lambda: GAME.validate(state, illegal), number=500) * 1e6:6.1f} us")
    memo = rules.moves_of(state).play_memo
    print(f"generate all legal moves there (nothing cached or remembered): "
          f"{per_call(lambda: (memo.clear(), rules.generate(state)), number=500) * 1e6:6.1f} us")
    print(f"the same with action B's moves remembered for this board: "
          f"{per_call(lambda: rules.generate(state), number=500) * 1e6:6.1f} us")


if __name__ == "__main__":
    main()
