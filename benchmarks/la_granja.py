"""La Granja benchmarks: random playouts per second (1-4 players) and one yield-dice draft.

Run: ``.venv/bin/python benchmarks/la_granja.py`` (one process, so one core). Prints numbers;
docs/benchmarks.md records them (section "La Granja (issue 6)").
"""

from __future__ import annotations

import random
import statistics
import time
import timeit

from companion.core.game import CHANCE
from companion.games.la_granja import LaGranja, State, rules
from companion.games.la_granja.data import load_edition
from companion.simulate import random_playout

GAME = LaGranja(load_edition(None))


def playout_rate(players: int, rounds: int = 3, games: int = 20) -> tuple[float, float, float]:
    """(best, median) games per second over ``rounds`` rounds, and moves per game."""
    rates, moves = [], 0
    for r in range(rounds):
        started = time.perf_counter()
        moves = sum(random_playout(GAME, players, r * games + seed)[1] for seed in range(games))
        rates.append(games / (time.perf_counter() - started))
    return max(rates), statistics.median(rates), moves / games


def rolled_state(players: int) -> State:
    """A table just after the yield roll of round 1, waiting for the first pick."""
    state = GAME.setup(["A", "B", "C", "D"][:players], GAME.options())
    rng = random.Random(1)
    while not (state.stack and state.stack[-1].kind == "pick"):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            legal = GAME.legal_moves(state)
            state = GAME.apply(state, next((m for m in legal if m.verb in ("done", "pass", "skip")), legal[0]))
    return state


def one_draft(state: State) -> None:
    """Every pick of a draft (2 passes) and the last die for all, each move listed and validated."""
    while state.phase == "yield":
        top = state.stack[-1]
        if top.kind in ("pick", "face", "take"):
            legal = GAME.legal_moves(state)
            move = legal[0] if top.kind == "pick" else next(m for m in legal if m.verb in ("skip", "take", "option"))
            state = GAME.play(state, move)
        else:
            legal = GAME.legal_moves(state)
            state = GAME.play(state, next((m for m in legal if m.verb in ("done", "skip")), legal[0]))


def main() -> None:
    for players in (1, 2, 3, 4):
        best, median, per_game = playout_rate(players)
        print(f"random {players}-player playouts, one core: best {best:6.1f}, median {median:6.1f} games/s "
              f"({per_game:.0f} moves per game)")
    for players in (3, 4):
        state = rolled_state(players)
        n = 200
        seconds = statistics.median(timeit.repeat(lambda: one_draft(state), repeat=5, number=n)) / n
        print(f"one {players}-player yield draft ({rules.dice_count(players)} dice, 2 passes + the last die, "
              f"every move listed and validated): {seconds * 1e3:6.2f} ms")
    state = rolled_state(4)
    print(f"legal moves at the first pick (4 players): "
          f"{statistics.median(timeit.repeat(lambda: GAME.legal_moves(state), repeat=5, number=2000)) / 2000 * 1e6:6.1f} us")


if __name__ == "__main__":
    main()
