"""Keyper benchmarks: random 2-, 3- and 4-player playouts per second on one core, and fingerprints.

Run: ``.venv/bin/python benchmarks/keyper_playouts.py`` (one process, so one core). Prints, per player count, the
games per second of all games over the whole time, and the best and median over several rounds of seeded games
(chance by weight, player moves uniformly from ``legal_moves``, picked by ``Game.random_move``: the move
``rng.choice(legal_moves)`` would pick, without making them all; the issue's goal is >= 100 four-player games/s) and
the moves per game; docs/benchmarks.md
records them. ``--fingerprint SEEDS PLAYERS`` prints the fingerprints tests/games/keyper/test_fingerprints.py
holds; ``--profile PLAYERS`` prints a cProfile of 20 games. ``--playouts N`` only plays N seeded 4-player games (no
timing), for counting instructions with callgrind, which is repeatable on a loaded machine:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/keyper_playouts.py --playouts 10
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/keyper_playouts.py --playouts 0

The difference of the two ``I refs`` totals divided by 10 is the instructions per game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import statistics
import sys
import time

from companion.core.game import CHANCE, TERMINAL
from companion.games.keyper import Keyper
from companion.games.keyper.data import load_edition
from companion.simulate import random_playout

GAME = Keyper(load_edition())


def fingerprint(seed: int, players: int = 4, options: dict[str, str] | None = None) -> str:
    """The hash of one seeded random playout: every legal-move list offered (in order), every move, the scores."""
    digest = hashlib.sha256()
    rng = random.Random(seed)
    state = GAME.setup([f"P{n}" for n in range(players)], GAME.options(options))
    while (who := GAME.current_player(state)) != TERMINAL:
        if who == CHANCE:
            move = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_moves(state)
            digest.update("|".join(map(str, legal)).encode())
            move = rng.choice(legal)
        digest.update(f"{move}\n".encode())
        state = GAME.apply(state, move)
    digest.update(json.dumps(GAME.score(state), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def playout_rate(players: int, rounds: int, games: int) -> tuple[float, float, float, float, float]:
    """(best, median) games per second over ``rounds`` rounds of ``games`` seeded games, the median per second of
    this process's CPU time (less disturbed by other load), moves per game, and every game over the whole time."""
    rates, cpu_rates, moves, seconds = [], [], 0, 0.0
    for r in range(rounds):
        started, cpu_started = time.perf_counter(), time.process_time()
        moves = sum(random_playout(GAME, players, r * games + seed)[1] for seed in range(games))
        seconds += time.perf_counter() - started
        rates.append(games / (time.perf_counter() - started))
        cpu_rates.append(games / (time.process_time() - cpu_started))
    return max(rates), statistics.median(rates), statistics.median(cpu_rates), moves / games, rounds * games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per player count (default 5)")
    parser.add_argument("--games", type=int, default=20, help="games per round (default 20)")
    parser.add_argument("--fingerprint", type=int, nargs=2, metavar=("SEEDS", "PLAYERS"))
    parser.add_argument("--profile", type=int, metavar="PLAYERS")
    parser.add_argument("--playouts", type=int, metavar="N", help="only play N seeded 4-player games, untimed")
    args = parser.parse_args()
    if args.playouts is not None:
        moves = sum(random_playout(GAME, 4, 1000 + seed)[1] for seed in range(args.playouts))
        print(f"{args.playouts} random 4-player games, {moves} moves")
        return
    if args.fingerprint:
        seeds, players = args.fingerprint
        for seed in range(seeds):
            print(seed, fingerprint(seed, players))
        return
    if args.profile:
        import cProfile
        import pstats

        with cProfile.Profile() as profile:
            for seed in range(20):
                random_playout(GAME, args.profile, seed)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    random_playout(GAME, 4, 999)  # warm up (data pack, caches)
    print(f"Python {platform.python_version()} ({sys.executable}): the interpreter's build matters as much as the code")
    for players in (2, 3, 4):
        best, median, cpu, per_game, every = playout_rate(players, args.rounds, args.games)
        goal = " (goal >= 100 games/s)" if players == 4 else ""
        print(f"random {players}-player playouts, one core: all {every:6.1f}, best {best:6.1f}, median {median:6.1f} games/s, "
              f"median {cpu:6.1f} per CPU second ({per_game:.0f} moves per game){goal}")


if __name__ == "__main__":
    main()
