"""Scoring a table snapshot (docs/key-market-snapshot.md): each VP source, the items, ``total`` and ``rank``; a
malformed snapshot is refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.games.key_market.data import Edition
from companion.games.key_market.snapshot import score_snapshot

EXAMPLE = Path(__file__).parent / "data" / "snapshot.json"


def example() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXAMPLE.read_text("utf-8"))
    return loaded


def test_the_documented_example_scores_each_source(edition: Edition) -> None:
    result = score_snapshot(example(), edition)
    red, blue, green = result["players"]
    master = edition.guild_tiles[5].vp["M"]
    assert (red["manor"], red["retired"], red["gold"], red["pairs"], red["master_abilities"]) == (15, 30, 17, 10, 25)
    assert red["guild_members"] == master and red["total"] == 97 + master
    assert blue["pairs"] + blue["master_abilities"] == 39 and blue["total"] == 4 + 39 + 2 * master
    assert green["total"] == 15 + 35 + 5 == blue["total"]  # tied: Green is higher in the tiebreak
    assert [p["rank"] for p in result["players"]] == [1, 3, 2]
    assert result["data"]["provisional"] == ["guild_tiles"] and "PROVISIONAL" in result["warnings"][0]
    assert {"category": "pairs", "kind": "pair", "what": "lux", "count": 1, "vp": 5} in red["items"]


def test_the_tiebreak_decides_equal_totals(edition: Edition) -> None:
    snap = {"players": [{"name": "A", "gold": 10}, {"name": "B", "gold": 10}], "tiebreak": ["B", "A"]}
    assert [p["rank"] for p in score_snapshot(snap, edition)["players"]] == [2, 1]
    shared = score_snapshot({"players": snap["players"]}, edition)
    assert [p["rank"] for p in shared["players"]] == [1, 1] and "tiebreak" in shared["warnings"][0]


@pytest.mark.parametrize(("snap", "words"), [
    ([], "JSON object"),
    ({"players": [{"name": "A", "gold": -1}]}, "at least 0"),
    ({"players": [{"name": "A", "goods": {"gems": 1}}]}, "counts fruit"),
    ({"players": [{"name": "A", "guilds": {"17": "M"}}]}, "1 to 16"),
    ({"players": [{"name": "A", "guilds": {"1": "M"}}]}, "column"),
    ({"players": [{"name": "A", "guilds": {"2": "X"}}]}, "A, J or M"),
    ({"players": [{"name": "A", "golds": 3}]}, "unknown keys"),
    ({"players": [{"name": "A"}], "tiebreak": ["B"]}, "tiebreak"),
    ({"players": [{"name": "A"}], "options": {"region": "hex"}}, "region"),
    ({"game": "la-granja", "players": []}, "not key-market"),
])
def test_a_malformed_snapshot_is_refused_with_the_reason(edition: Edition, snap: Any, words: str) -> None:
    with pytest.raises(MalformedInputError, match=words):
        score_snapshot(snap, edition)


def test_a_finished_game_s_snapshot_scores_as_the_game_does() -> None:
    from tests.games.key_market.table import GAME, play, random_game

    for players in (2, 4):
        state = play(GAME.setup([f"P{i + 1}" for i in range(players)], GAME.options()), *random_game(players, 7))
        scored = GAME.score_snapshot(GAME.snapshot(state))
        assert [(r["total"], r["rank"]) for r in scored["players"]] == \
            [(r["total"], r["rank"]) for r in GAME.score(state)]


def test_rescoring_with_what_players_report_from_behind_their_screens() -> None:
    from companion.core.errors import MalformedInputError
    from tests.games.key_market.table import GAME, play, random_game

    state = play(GAME.setup(["A", "B"], GAME.options()), *random_game(2, 3))
    rows = GAME.score_with_hidden(state, [{"gold": 100, "goods": {"fruit": 2}}, None])
    assert rows[0]["gold"] == 100 and rows[0]["pairs"] == 5 and rows[0]["rank"] == 1
    assert rows[1]["total"] == GAME.score(state)[1]["total"]
    with pytest.raises(MalformedInputError):
        GAME.score_with_hidden(state, [None])
    with pytest.raises(MalformedInputError):
        GAME.score_with_hidden(state, [{"silver": 3}, None])
