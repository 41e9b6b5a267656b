"""Helpers: a Key Market game driven to a known point (chance steps chosen, not drawn)."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.core.game import CHANCE, TERMINAL
from companion.games.key_market import KeyMarket
from companion.games.key_market.data import GOODS, shipped_edition
from companion.games.key_market.state import State, counts

GAME = KeyMarket(shipped_edition())


def play(state: State, *moves: str) -> State:
    for move in moves:
        state = GAME.play(state, move)
    return state


def started(n: int = 3, **options: str) -> State:
    """Weather and turn order fixed (seat 1 starts), farmhouse tiles 1..n (fruit, veg, wheat, sheep), each board laid
    at the first legal place, the first-game guilds, each farmhouse paid with its resource and the next one: Winter of
    year 1, Farming, seat 1 to act."""
    s = GAME.setup([f"P{i + 1}" for i in range(n)], GAME.options({"first_game": "yes", **options}))
    s = play(s, "weather S1 S2 S3 R1 R2 R3", "order " + " ".join(str(i + 1) for i in range(n)),
             "farmhouses " + " ".join(str(i + 1) for i in range(n)))
    for i in range(n):
        s = play(s, f"deal {i + 1}a")
        s = GAME.apply(s, GAME.legal_moves(s)[0])
    for i in range(n):
        tile = s.seat(i).farmhouse
        other = GOODS[(GOODS.index(tile) + 1) % 5]
        s = play(s, f"pay {i + 1} {tile} {other}")
    return GAME.apply(s, GAME.legal_moves(s)[0])


def give(state: State, seat: int, gold: int | None = None, **goods: int) -> State:
    """The seat holds ``gold`` and exactly these goods (the supply pays or takes the difference)."""
    me = state.seat(seat)
    new = counts(goods)
    supply = tuple(s + old - n for s, old, n in zip(state.supply, me.goods, new))
    state = replace(state, supply=supply)
    return state.with_seat(seat, goods=new, gold=me.gold if gold is None else gold)


def member(state: State, seat: int, guild: int, level: str, slot: int = 0, worker: int = 2) -> State:
    """Put one of the seat's pool workers in a guild slot."""
    workers = list(state.seat(seat).workers)
    workers[worker] = f"g:{guild}:{level}:{slot}"
    return state.with_seat(seat, workers=tuple(workers))


def at_market(state: State, *commits: str) -> State:
    """From Farming on, every seat done, then the Market Day commitments ``commits`` and the first chance step: the
    market open."""
    for _ in range(state.n):
        state = play(state, "done")
    state = play(state, *commits)
    return GAME.apply(state, GAME.legal_moves(state)[0])


def random_game(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    s = GAME.setup([f"P{i + 1}" for i in range(n)], GAME.options())
    log = []
    while GAME.current_player(s) != TERMINAL:
        m = GAME.sample_chance(s, rng) if GAME.current_player(s) == CHANCE else rng.choice(GAME.legal_moves(s))
        log.append(str(m))
        s = GAME.apply(s, m)
    return log
