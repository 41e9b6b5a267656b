"""Seeded random playouts for 2, 3 and 4 players: every chosen move is legal, the invariants hold after every move
(goods of each sort conserved at 12/15/18, gold never negative, eight seasons, one worker per field and guild slot),
and the log written as text replays to the same game (save -> load -> replay)."""

from __future__ import annotations

import os
import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from tests.games.key_market.table import GAME, play

GAMES_PER_COUNT = int(os.environ.get("KM_PLAYOUTS", "6"))
"""Random games per player count (``KM_PLAYOUTS=334`` for the issue's 1,000 in all)."""


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(GAMES_PER_COUNT))
def test_a_random_game_keeps_the_invariants_and_replays(players: int, seed: int) -> None:
    rng = random.Random(f"km-{players}-{seed}")
    state = GAME.setup([f"P{i + 1}" for i in range(players)], GAME.options())
    log: list[str] = []
    seasons = set()
    while GAME.current_player(state) != TERMINAL:
        who = GAME.current_player(state)
        move = GAME.sample_chance(state, rng) if who == CHANCE else rng.choice(GAME.legal_moves(state))
        assert GAME.validate(state, move) is None, str(move)
        assert GAME.parse_move(str(move)) == move
        state = GAME.apply(state, move)
        log.append(str(move))
        assert GAME.invariant_violations(state) == [], f"after {move}"
        seasons.add((state.year, state.season))
    assert len(seasons) == 8 and (state.year, state.season) == (2, "autumn")
    replayed = play(GAME.setup([f"P{i + 1}" for i in range(players)], GAME.options()), *log)
    assert replayed == state
    assert GAME.view(replayed, None) == GAME.view(state, None)
    scores = GAME.score(state)
    assert sorted(r["rank"] for r in scores) == list(range(1, players + 1))  # the tie-break leaves no shared rank


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_variant_flag_plays_a_whole_game(players: int) -> None:
    """Each flag's other choices, all at once: a random game still ends with its invariants."""
    options = GAME.options({spec.name: spec.choices[-1] for spec in GAME.option_specs})
    rng = random.Random(f"variants-{players}")
    state = GAME.setup([f"P{i + 1}" for i in range(players)], options)
    while GAME.current_player(state) != TERMINAL:
        who = GAME.current_player(state)
        move = GAME.sample_chance(state, rng) if who == CHANCE else rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, move)
        assert GAME.invariant_violations(state) == [], f"after {move}"
    assert state.over
