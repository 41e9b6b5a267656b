"""Bounded input (issue 11): bodies over 1 MB, long or unprintable names, long flags and moves are refused with a
reason and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.apikit import version_of


def test_a_20_mb_body_is_a_json_413(client: FlaskClient) -> None:
    answer = client.post("/api/games", data=b"{" + b" " * (20 * 1024 * 1024) + b"}", content_type="application/json")
    assert answer.status_code == 413
    assert "at most 1048576" in answer.get_json()["error"]["reason"]
    assert client.get("/api/games").get_json()["games"] == []


def test_a_data_pack_over_the_limit_is_refused(client: FlaskClient) -> None:
    answer = client.put("/api/data/la-granja", data=b"[" + b"0," * 600_000 + b"0]", content_type="application/json")
    assert answer.status_code == 413 and answer.get_json()["error"]["type"] == "RequestEntityTooLarge"


@pytest.mark.parametrize("players, words", [
    (["A" * 100_000, "Bob"], "at most 40"),
    (["A" * 41, "Bob"], "at most 40"),
    (["Al\x00ice", "Bob"], "cannot be shown"),
    (["Al\u202eice", "Bob"], "cannot be shown"),
    (["A", "B", "C", "D", "E"], "2 to 4 players"),
    ([f"p{n}" for n in range(10_000)], "2 to 4 players"),
])
def test_player_names_are_bounded(client: FlaskClient, players: list[str], words: str) -> None:
    answer = client.post("/api/games", json={"players": players})
    assert answer.status_code == 400 and words in answer.get_json()["error"]["reason"]
    assert client.get("/api/games").get_json()["games"] == []


def test_forty_printable_characters_are_a_name(client: FlaskClient) -> None:
    assert client.post("/api/games", json={"players": ["Ä" * 40, "Bob 😀"]}).status_code == 201


@pytest.mark.parametrize("options", [{"turn_direction": "x" * 41}, {"x" * 41: "1"}, {"turn_direction": True}])
def test_variant_flags_are_short_text(client: FlaskClient, options: dict[str, Any]) -> None:
    answer = client.post("/api/games", json={"players": ["A", "B"], "options": options})
    assert answer.status_code == 400 and answer.get_json()["error"]["reason"]


@pytest.mark.parametrize("version", [1.5, float("inf"), "1e3", True, -1, 2**70, [1]])
def test_versions_are_whole_numbers(client: FlaskClient, game: dict[str, Any], version: Any) -> None:
    answer = client.post(f"/api/games/{game['id']}/moves", json={"move": "end", "version": version})
    assert answer.status_code == 400 and "whole number" in answer.get_json()["error"]["reason"]


def test_a_move_is_at_most_500_characters(client: FlaskClient, game: dict[str, Any]) -> None:
    version = version_of(client, game["id"])
    answer = client.post(f"/api/games/{game['id']}/moves", json={"move": "end " + "x" * 600, "version": version})
    assert answer.status_code == 400 and "at most 500" in answer.get_json()["error"]["reason"]
    assert version_of(client, game["id"]) == version
