"""``territory.blocked`` (the standing rule for every field at once, which the move generator uses) forbids exactly
the fields ``territory.standing`` refuses (spec 4.1), on territories and workers of seeded random games, for every
player, with and without guild 4 J's keyworker exemption, for a worker staying and for one moving away."""

from __future__ import annotations

import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.games.key_market import rules
from companion.games.key_market.territory import Placement, blocked, blocked_joining, lay, standing
from tests.games.key_market.table import GAME


@pytest.mark.parametrize("region", ["sort", "sort_and_shape"])
@pytest.mark.parametrize("players", [2, 4])
def test_blocked_fields_are_the_ones_standing_refuses(players: int, region: str) -> None:
    rng = random.Random(f"blocked-{players}-{region}")
    state = GAME.setup([f"P{i + 1}" for i in range(players)], GAME.options({"region": region}))
    compared = 0
    while (who := GAME.current_player(state)) != TERMINAL:
        if state.stage == "farming":
            ground, workers = rules.land(state), rules.workers_on_land(state)
            assert any(workers.values())
            for player in range(players):
                for leaving in (None, *(p for p, w in workers.items() if w.player == player)):
                    for exempt in (False, True):
                        taken = blocked(ground, workers, player, exempt, leaving)
                        for q in ground.fields:
                            refused = standing(ground, workers, player, q, exempt, exempt, leaving)
                            assert (q in taken) == (refused is not None), (q, player, leaving, exempt)
                            compared += 1
        move = GAME.sample_chance(state, rng) if who == CHANCE else rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, move)
    assert compared > 1000


@pytest.mark.parametrize("region", ["sort", "sort_and_shape"])
@pytest.mark.parametrize("players", [3, 4])
def test_blocked_on_a_joining_board_is_read_without_laying_it(players: int, region: str) -> None:
    """``blocked_joining`` (setup step 15's worker, spec 2.2) forbids the same fields of the new board as ``blocked``
    on the territory with the board laid, or says it cannot tell (a worker's region grows into the new board)."""
    rng = random.Random(f"joining-{players}-{region}")
    compared = told = 0
    for _ in range(6):
        state = GAME.setup([f"P{i + 1}" for i in range(players)], GAME.options({"region": region}))
        while state.stage in ("weather", "order", "farmhouses", "deal", "place"):
            if state.stage == "place" and state.placements:
                assert state.dealt is not None
                ground, workers, who = rules.land(state), rules.workers_on_land(state), GAME.current_player(state)
                spots = {tuple(int(t) for t in m.args[:3]) for m in GAME.legal_moves(state)}
                for x, y, turns in spots:
                    new = Placement(state.dealt[0], state.dealt[1], x, y, turns)
                    fresh = lay(state.edition, new)
                    found = blocked_joining(ground, fresh, workers, who)
                    whole = blocked(rules.land(state, (*state.placements, new)), workers, who)
                    compared += 1
                    if found is not None:
                        told += 1
                        assert found & fresh.keys() == whole & fresh.keys()
            who = GAME.current_player(state)
            move = GAME.sample_chance(state, rng) if who == CHANCE else rng.choice(GAME.legal_moves(state))
            state = GAME.apply(state, move)
    assert told > 20 and compared > told
