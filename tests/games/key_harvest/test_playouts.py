"""Seeded random playouts of Key Harvest: 2,004 full games across 2, 3 and 4 players.

Every player move is drawn from the generator and checked by the validator; after every
move the invariants of spec 9.7 are checked (60 stones, 56 field tiles, 14 events, workers,
warehouses, R-T1/R-T2); every game must end; and each game's log, replayed through its text
notation, must reproduce the final state exactly.
"""

from __future__ import annotations

import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.core.rng import weighted_choice
from companion.games.key_harvest import KeyHarvest
from companion.session import Session
from companion.simulate import simulate
from companion.store import GameStore

GAMES_PER_CHUNK = 167
CHUNKS = 4  # 3 player counts x 4 chunks x 167 games = 2,004 games


@pytest.mark.playout
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_every_invariant(players: int, chunk: int) -> None:
    result = simulate(KeyHarvest(), players, GAMES_PER_CHUNK, seed=f"kh-{players}-{chunk}")
    assert result.failures == (), result.summary()
    assert result.finished == GAMES_PER_CHUNK
    assert set(result.invariant_checks) == set(KeyHarvest.invariant_names)
    assert all(count >= result.moves for count in result.invariant_checks.values())


@pytest.mark.playout
@pytest.mark.parametrize("options", [
    {"turn_direction": "counterclockwise", "final_extra_turns_for_trigger_player": "1"},
    {"seventh_check_timing": "before_resolution", "lawyer_mode": "lift_and_replace"},
    {"worker_adjacency": "exactly", "single_tile_group_harvestable": "false", "gift_forwarding": "not_last_in_order"},
    {"events_only_bag_end": "it_immediate", "ignored_event_disposal": "back_to_bag",
     "ability_purchase_payee": "supply", "bonus_replacement_can_replace_lower": "false"},
])
def test_playouts_under_variant_flags(options: dict[str, str]) -> None:
    for players in (2, 3, 4):
        result = simulate(KeyHarvest(), players, 20, seed=f"flags-{players}", options=options)
        assert result.failures == (), result.summary()


def play_random_game(session: Session, rng: random.Random) -> None:
    game = session.game
    while game.current_player(session.state) not in (TERMINAL, CHANCE):
        session.play(rng.choice(game.legal_moves(session.state)))


@pytest.mark.parametrize("seed", range(6))
def test_saved_game_reloads_and_replays_exactly(tmp_path, seed: int) -> None:
    """A whole game through the SQLite store, then a restart: the reopened game is identical."""
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        session = Session.new(store, "key-harvest", ["Alice", "Bob", "Cara", "Dan"][: 2 + seed % 3])
        play_random_game(session, random.Random(seed))
        assert session.is_over
        final, history, game_id = session.state, session.history, session.id
    with GameStore(path) as store:
        reopened = Session.open(store, game_id)
        assert reopened.state == final
        assert [str(m) for m in reopened.history] == [str(m) for m in history]
        assert reopened.game.score(reopened.state) == session.game.score(final)


def test_same_seed_same_draws(tmp_path) -> None:
    """Chance steps come from the stored seed: two tables with one seed draw the same tiles."""
    with GameStore(tmp_path / "a.sqlite3") as one, GameStore(tmp_path / "b.sqlite3") as two:
        a = Session.new(one, "key-harvest", ["Alice", "Bob"], seed="same")
        b = Session.new(two, "key-harvest", ["Alice", "Bob"], seed="same")
        assert [str(m) for m in a.history] == [str(m) for m in b.history]
        assert a.view(None)["land_office"] == b.view(None)["land_office"]


def test_chance_outcomes_are_the_bag_contents() -> None:
    """A draw's outcomes are exactly the tiles and events in the bag, each equally likely."""
    game = KeyHarvest()
    state = game.setup(["A", "B", "C"], game.options())
    rng = random.Random(1)
    while not (state.started and game.current_player(state) == CHANCE and state.top.kind == "draw"):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, weighted_choice(rng, game.chance_outcomes(state)))
        else:
            moves = [m for m in game.legal_moves(state) if m.verb == "bid"]
            state = game.apply(state, moves[0] if moves else game.legal_moves(state)[0])
    outcomes = game.chance_outcomes(state)
    assert {w for _, w in outcomes} == {1}
    assert len(outcomes) == state.bag_fields.bit_count() + len(state.bag_events)
