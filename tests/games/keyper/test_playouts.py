"""Seeded random playouts of Keyper for 2, 3 and 4 players: every player move drawn from ``legal_moves`` and checked
by ``validate``; after every move the invariants (pieces conserved, every country tile once across bag, display,
boards and discards, no field over capacity, seasons in order); every game ends after winter with a ranked score;
a saved game reloads and replays exactly."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.games.keyper import Keyper
from companion.games.keyper.data import load_edition
from companion.session import Session
from companion.simulate import simulate
from companion.store import GameStore

GAME = Keyper(load_edition())
GAMES = int(os.environ.get("KP_PLAYOUTS", "25"))
"""Random games per player count (``KP_PLAYOUTS=1000`` for the issue's 1,000 per player count)."""


@pytest.mark.playout
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_every_invariant(players: int) -> None:
    result = simulate(GAME, players, GAMES, seed=f"kp-{players}")
    assert result.failures == (), result.summary()
    assert result.finished == GAMES
    assert set(result.invariant_checks) == set(Keyper.invariant_names)
    assert all(count >= result.moves for count in result.invariant_checks.values())


@pytest.mark.parametrize("options", [
    {"limited_supply": "no", "refill_on_last_action": "yes", "tiebreak": "yucata", "payment": "cheapest",
     "open_fairs": "yes", "lay_two": "both", "overbuild": "twice", "follower_refill": "after_each"},
    {"winter_fair_seasons": "summer_on", "last_action": "after_trigger", "gain_ship_scope": "use",
     "trading_post": "other_types", "join_lying": "any", "last_placer": "follower", "seasonal_fair": "required",
     "builder_wheat": "builds_too", "plot_overbuild": "no", "agent_bonus": "per_pair", "seafarer": "any_use"},
])
def test_playouts_under_variant_flags(options: dict[str, str]) -> None:
    for players in (2, 3, 4):
        result = simulate(GAME, players, 3, seed=f"kp-flags-{players}", options=options)
        assert result.failures == (), result.summary()


def test_every_game_runs_four_seasons_in_order_and_ends_with_a_ranked_score() -> None:
    """3.1: spring, summer, autumn, winter, then the end; the score ranks every seat."""
    state = GAME.setup(["A", "B", "C"], GAME.options())
    rng = random.Random(7)
    seasons: list[int] = []
    while GAME.current_player(state) != TERMINAL:
        if not seasons or seasons[-1] != state.season:
            seasons.append(state.season)
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
    assert seasons == [0, 1, 2, 3] and state.over
    rows = GAME.score(state)
    assert all(row["total"] == row["shipping"] + row["farm"] + row["village"] + row["fairs"] for row in rows)
    assert min(row["rank"] for row in rows) == 1 and any(row["winner"] for row in rows)


def play_random_game(session: Session, rng: random.Random) -> None:
    game = session.game
    while game.current_player(session.state) != TERMINAL:
        session.play(rng.choice(session.game.legal_moves(session.state)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_saved_game_reloads_and_replays_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    """A whole game through the SQLite store, then a restart: the reopened game is identical."""
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        session = Session.new(store, "keyper", ["Ann", "Bo", "Cy", "Di"][:players])
        play_random_game(session, random.Random(players))
        assert session.is_over
        final, history, game_id = session.state, session.history, session.id
    with GameStore(path) as store:
        reopened = Session.open(store, game_id)
        assert reopened.state == final
        assert [str(m) for m in reopened.history] == [str(m) for m in history]
        assert reopened.game.score(reopened.state) == session.game.score(final)
