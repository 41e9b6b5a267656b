"""Seeded random playouts of La Granja: 1,000 full games across 1 (solo), 2, 3 and 4 players.

Every player move is drawn from ``legal_moves`` and checked by ``validate``; after every move
the invariants are checked (66 cards, 24 roof markers, 2N+1 dice and two per player, three faces
per player per round, VP = ledger, carts/helpers/sty, donkeys, craft markers, siesta discs,
rounds 1-6); every game must end after round 6; and each log, replayed through its text
notation, must reproduce the final state exactly.
"""

from __future__ import annotations

import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.games.la_granja import LaGranja
from companion.games.la_granja.data import load_edition
from companion.session import Session
from companion.simulate import simulate
from companion.store import GameStore

GAMES_PER_CHUNK = 125
CHUNKS = 2  # 4 player counts x 2 chunks x 125 games = 1,000 games
GAME = LaGranja(load_edition(None))


@pytest.mark.playout
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_keep_every_invariant(players: int, chunk: int) -> None:
    result = simulate(GAME, players, GAMES_PER_CHUNK, seed=f"lg-{players}-{chunk}")
    assert result.failures == (), result.summary()
    assert result.finished == GAMES_PER_CHUNK
    assert set(result.invariant_checks) == set(LaGranja.invariant_names)
    assert all(count >= result.moves for count in result.invariant_checks.values())


@pytest.mark.parametrize("options", [
    {"lock_removal": "completions", "pig_overflow": "forbid", "extra_purchase": "one_at_a_time"},
    {"solo_third_space": "3", "hide_vp": "yes", "marker_limit": "off"},
])
def test_playouts_under_variant_flags(options: dict[str, str]) -> None:
    for players in (1, 2, 3, 4):
        result = simulate(GAME, players, 5, seed=f"lg-flags-{players}", options=options)
        assert result.failures == (), result.summary()


def test_every_game_ends_after_round_six_with_a_ranked_score() -> None:
    result = simulate(GAME, 3, 3, seed="ends")
    assert result.finished == 3
    state = GAME.setup(["A", "B"], GAME.options())
    rng = random.Random(4)
    rounds_seen = set()
    while GAME.current_player(state) != TERMINAL:
        rounds_seen.add(state.round)
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
    assert rounds_seen == {1, 2, 3, 4, 5, 6} and state.round == 6
    rows = GAME.score(state)
    assert {row["rank"] for row in rows} <= {1, 2} and any(row["winner"] for row in rows)
    assert all(row["total"] == row["vp"] + row["conversion_points"] for row in rows)


def play_random_game(session: Session, rng: random.Random) -> None:
    game = session.game
    while game.current_player(session.state) not in (TERMINAL, CHANCE):
        session.play(rng.choice(game.legal_moves(session.state)))


@pytest.mark.parametrize("seed", range(4))
def test_saved_game_reloads_and_replays_exactly(tmp_path, monkeypatch, seed: int) -> None:  # type: ignore[no-untyped-def]
    """A whole game through the SQLite store, then a restart: the reopened game is identical."""
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        session = Session.new(store, "la-granja", ["Alice", "Bob", "Cara", "Dan"][: 1 + seed])
        play_random_game(session, random.Random(seed))
        assert session.is_over
        final, history, game_id = session.state, session.history, session.id
    with GameStore(path) as store:
        reopened = Session.open(store, game_id)
        assert reopened.state == final
        assert [str(m) for m in reopened.history] == [str(m) for m in history]
        assert reopened.game.score(reopened.state) == session.game.score(final)


def test_dice_rolls_weight_every_ordering_and_sampling_matches_the_weights() -> None:
    from companion.core.rng import weighted_choice
    from tests.games.la_granja.table import at, new_game

    for players in (1, 2, 3, 4):
        game, s = new_game(players)
        s = at(s, "roll")
        outcomes = game.chance_outcomes(s)
        k = 5 if players == 1 else 2 * players + 1
        assert sum(w for _, w in outcomes) == 6 ** k
        assert all(len(m.args) == k for m, _ in outcomes)
        for seed in range(30):
            assert game.sample_chance(s, random.Random(seed)) == weighted_choice(random.Random(seed), outcomes)
