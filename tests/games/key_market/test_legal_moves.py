"""The legal moves are generated legal (rules.legal_moves tests each rule where a candidate is made): at every turn of
seeded random games they are exactly, in the same order, the candidates ``check`` allows (``rules.legal_by_check``),
and every one of them passes ``validate``."""

from __future__ import annotations

import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.games.key_market import rules
from tests.games.key_market.table import GAME


@pytest.mark.parametrize("variants", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_generated_moves_are_exactly_the_checked_candidates(players: int, seed: int, variants: bool) -> None:
    options = GAME.options({spec.name: spec.choices[-1] for spec in GAME.option_specs} if variants else None)
    rng = random.Random(f"legal-{players}-{seed}-{variants}")
    state = GAME.setup([f"P{i + 1}" for i in range(players)], options)
    turns = 0
    while (who := GAME.current_player(state)) != TERMINAL:
        if who == CHANCE:
            move = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_moves(state)
            assert legal == rules.legal_by_check(state), f"{state.stage}, seat {who}"
            assert all(GAME.validate(state, m) is None for m in legal)
            move = rng.choice(legal)
            turns += who >= 0
        state = GAME.apply(state, move)
    assert turns > 50
