"""The move generator and the validator agree (python-chess's legal_moves vs is_legal).

In positions taken from random games, every generated move validates, and every candidate
move the validator accepts is generated: candidates are every verb of the turn with every
label, worker and crop.
"""

from __future__ import annotations

import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.core.rng import weighted_choice
from companion.games.key_harvest import KeyHarvest, State, rules
from companion.games.key_harvest.board import CROP_KEYS
from companion.games.key_harvest.moves import KHMove

GAME = KeyHarvest()


def positions(players: int, seed: int, options: dict[str, str], every: int = 7) -> list[State]:
    """About every ``every``-th decision point of one random game."""
    rng = random.Random(seed)
    state = GAME.setup([f"P{n}" for n in range(players)], GAME.options(options))
    found = []
    while (who := GAME.current_player(state)) != TERMINAL:
        if who == CHANCE:
            state = GAME.apply(state, weighted_choice(rng, GAME.chance_outcomes(state)))
            continue
        if rng.randrange(every) == 0:
            found.append(state)
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return found


def candidates(state: State) -> list[KHMove]:
    labels = state.layout.labels
    crops = CROP_KEYS
    moves = [KHMove("end"), KHMove("done"), KHMove("decline"), KHMove("trade"), KHMove("dip"), KHMove("keep"),
             KHMove("discard"), KHMove("forward")]
    for label in labels:
        for verb in ("remove", "buy", "fallow", "seize", "reuse", "bonus", "give", "take", "flip"):
            moves.append(KHMove(verb, (label,)))
        moves += [KHMove("harvest", (label,))] + [KHMove("harvest", (f"{label}/{c}",)) for c in crops]
        moves += [KHMove("play", (w, label)) for w in "ABCDEFGHIJKL"]
        moves += [KHMove("bid", (label, c)) for c in crops]
    moves += [KHMove(verb, (c,)) for verb in ("add", "pay", "gain") for c in crops]
    return moves


FLAGS = {"single_tile_group_harvestable": "false", "worker_adjacency": "exactly",
         "bonus_replacement_can_replace_lower": "false", "gift_forwarding": "not_last_in_order"}


@pytest.mark.parametrize("players,seed,options", [
    (2, 1, {}), (3, 2, {}), (4, 3, {}), (4, 4, {}), (2, 5, FLAGS), (3, 6, FLAGS), (4, 7, FLAGS),
])
def test_generator_and_validator_agree(players: int, seed: int, options: dict[str, str]) -> None:
    for state in positions(players, seed, options):
        legal = set(GAME.legal_moves(state))
        for move in legal:
            assert GAME.validate(state, move) is None, (str(move), state.debug())
        for move in candidates(state):
            error = GAME.validate(state, move)
            assert (error is None) == (move in legal), (str(move), error, state.debug())
            if error is not None:
                assert error.rule and error.reason.endswith((".", ")")), error


@pytest.mark.parametrize("players,seed,options", [(4, 8, {}), (3, 9, FLAGS)])
def test_remembered_worker_placements_are_the_ones_worked_out_afresh(
        players: int, seed: int, options: dict[str, str]) -> None:
    """Action B's moves come from a per-layout memo: at every turn decision they equal a fresh computation."""
    memo = rules.moves_of(GAME.setup(["A", "B"], GAME.options())).play_memo
    memo.clear()
    turns = [s for s in positions(players, seed, options, every=1) if s.top is None and "B" not in s.actions]
    for state in turns:
        assert list(rules.play_moves(state, state.active)) == rules.find_play_moves(state, state.active), state.debug()
    assert 0 < len(memo) < 0.8 * len(turns)  # many decisions were answered from the memo


@pytest.mark.parametrize("players,seed", [(2, 31), (4, 32)])
def test_fast_draw_picks_what_the_weighted_choice_picks(players: int, seed: int) -> None:
    """sample_chance maps each random number to the same bag outcome as weighted_choice."""
    rng = random.Random(seed)
    state = GAME.setup([f"P{n}" for n in range(players)], GAME.options())
    draws = 0
    while (who := GAME.current_player(state)) != TERMINAL:
        if who == CHANCE:
            for k in range(5):
                assert GAME.sample_chance(state, random.Random(k)) == weighted_choice(
                    random.Random(k), GAME.chance_outcomes(state))
            draws += state.top.kind == "draw"
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert draws > 40
