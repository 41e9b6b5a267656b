"""Key Market benchmark: seeded random legal-move playouts for 2, 3 and 4 players on one core.

Run: ``.venv/bin/python benchmarks/key_market_playouts.py`` (one process, so one core). Prints games per second
(all: every game over the whole time; best and median of several rounds, wall clock and CPU time) and moves per game; the goal of issue 15 is at least
100 random 4-player games per second. Options: ``--rounds N``, ``--games N`` (per round), ``--players 4``,
``--validate`` (each chosen move also validated, as ``companion simulate`` does). ``--fingerprint [SEEDS]`` prints
the hash of seeded playouts instead (``fingerprint``: every legal-move list offered, every move, the final score),
which tests/games/key_market/test_fingerprints.py checks so that speed-ups never change a game.

``--playouts N`` only plays N seeded games (no timing), for counting instructions with callgrind, which is repeatable
on a loaded machine (the difference of the two ``I refs`` totals divided by 3 is the instructions per game; the
first games load the message catalogs):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/key_market_playouts.py \
        --players 4 --playouts 5
    (the same with --playouts 2)

Games 3-5 still fill the caches that later games share (territory shapes, moves, payments); the timed rounds play
100 games in one process, which ``--playouts 30`` minus ``--playouts 10``, divided by 20, resembles better. Set
``PYTHONHASHSEED=0`` for counts that repeat exactly.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core.game import CHANCE, TERMINAL  # noqa: E402
from companion.core.messages import json_default  # noqa: E402
from companion.games.key_market import KeyMarket, KMMove  # noqa: E402
from companion.games.key_market.data import shipped_edition  # noqa: E402
from companion.simulate import random_playout  # noqa: E402

GAME = KeyMarket(shipped_edition())


def fingerprint(seed: int, players: int = 4, variants: bool = False) -> str:
    """The hash of one seeded random playout (``random_playout``'s use of the generator): each legal-move list in
    order, each move, the refusal (rule and message) of up to 40 moves that were legal at the previous decision,
    the table's view every 25 moves and at the end, the final score. ``variants``: every variant flag at its last
    choice instead of the default."""
    digest = hashlib.sha256()
    rng = random.Random(seed)
    options = GAME.options({spec.name: spec.choices[-1] for spec in GAME.option_specs} if variants else None)
    state = GAME.setup([f"P{n}" for n in range(players)], options)
    before: list[KMMove] = []
    ply = 0
    while (who := GAME.current_player(state)) != TERMINAL:
        if who == CHANCE:
            move = GAME.sample_chance(state, rng)
        else:
            for old in before[:40]:
                error = GAME.validate(state, old)
                digest.update(f"{old}:{error and error.rule}:{error and error.message_json()}".encode())
            legal = GAME.legal_moves(state)
            digest.update("|".join(map(str, legal)).encode())
            move = rng.choice(legal)
            before = legal
        digest.update(f"{move}\n".encode())
        state = GAME.apply(state, move)
        ply += 1
        if ply % 25 == 0:
            digest.update(json.dumps(GAME.view(state, None), sort_keys=True, default=json_default).encode())
    for viewer in (None, *range(players)):
        digest.update(json.dumps(GAME.view(state, viewer), sort_keys=True, default=json_default).encode())
    digest.update(json.dumps(GAME.score(state), sort_keys=True, default=json_default).encode())
    return digest.hexdigest()[:16]


def playout_rate(players: int, rounds: int, games: int, validate: bool = False) -> dict[str, float]:
    """Games per second (best and median over ``rounds`` rounds of ``games`` seeded games, wall clock and this
    process's CPU time; ``all``: every game over the whole time) and moves per game."""
    rates, cpu_rates, moves, seconds = [], [], 0, 0.0
    for r in range(rounds):
        started, cpu_started = time.perf_counter(), time.process_time()
        moves = sum(random_playout(GAME, players, r * games + seed, validate)[1] for seed in range(games))
        seconds += time.perf_counter() - started
        rates.append(games / (time.perf_counter() - started))
        cpu_rates.append(games / max(1e-9, time.process_time() - cpu_started))
    return {"best": max(rates), "median": statistics.median(rates), "cpu_best": max(cpu_rates),
            "cpu_median": statistics.median(cpu_rates), "moves": moves / games, "all": rounds * games / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="games per round")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--validate", action="store_true", help="validate every chosen move too")
    parser.add_argument("--fingerprint", type=int, metavar="SEEDS", help="print the hashes of SEEDS playouts")
    parser.add_argument("--variants", action="store_true", help="fingerprints with every variant flag's last choice")
    parser.add_argument("--playouts", type=int, metavar="N", help="only play N seeded games per player count, untimed")
    args = parser.parse_args()
    if args.playouts is not None:
        for players in args.players:
            moves = sum(random_playout(GAME, players, 1000 + seed)[1] for seed in range(args.playouts))
            print(f"{args.playouts} random {players}-player games, {moves} moves")
        return
    if args.fingerprint is not None:
        for players in args.players:
            for seed in range(args.fingerprint):
                print(players, seed, fingerprint(seed, players, args.variants))
        return
    for players in args.players:
        r = playout_rate(players, args.rounds, args.games, args.validate)
        goal = "; goal >= 100 games/s" if players == 4 else ""
        print(f"random {players}-player playouts, one core: all {r['all']:6.1f}, best {r['best']:6.1f}, "
              f"median {r['median']:6.1f} games/s "
              f"(CPU time: best {r['cpu_best']:6.1f}, median {r['cpu_median']:6.1f}; {r['moves']:.0f} moves per game"
              f"{', every move validated' if args.validate else ''}{goal})")


if __name__ == "__main__":
    main()
