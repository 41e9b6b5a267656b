"""A tracked game exported as a table snapshot scores exactly as the engine scores it."""

from __future__ import annotations

import json

import pytest

from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.snapshot import score_snapshot
from companion.simulate import simulate
from tests.games.key_harvest.test_agreement import positions

GAME = KeyHarvest()


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13)])
def test_exported_snapshot_scores_like_the_game(players: int, seed: int) -> None:
    """Positions from random games, mid-game and final: snapshot -> score == game.score (spec 8)."""
    for state in positions(players, seed, {}, every=5):
        snapshot = json.loads(json.dumps(GAME.snapshot(state)))  # through JSON, as a file would go
        scored = score_snapshot(snapshot)["players"]
        assert scored == GAME.score(state)


def test_exported_snapshot_without_positions_uses_the_layout() -> None:
    """Tiles without "at" are placed by label through the layout: same score, provisional flagged."""
    state = positions(4, 21, {}, every=3)[-1]
    snapshot = GAME.snapshot(state)
    for player in snapshot["players"]:
        for tile in player["tiles"]:
            del tile["at"]
    result = score_snapshot(snapshot)
    assert result["players"] == GAME.score(state)
    assert result["layout"]["provisional"] is True


def test_simulated_final_tables_score_alike() -> None:
    result = simulate(GAME, 3, 3, seed="export")
    assert result.ok, result.summary()
