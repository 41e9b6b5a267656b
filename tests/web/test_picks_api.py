"""Decisions as picks over the JSON API (issue 27, docs/api.md): the next pick only, one decision sent as one move
with the version it was chosen from, stale and malformed picks refused without changing anything."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import games
from tests.web.apikit import seat_url

GAMES = [game.name for game in games()]


def new_game(client: FlaskClient, name: str) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": name, "players": ["Ann", "Ben", "Cy"]})
    assert answer.status_code == 201
    data: dict[str, Any] = answer.get_json()
    return data


def walk(client: FlaskClient, path: str, first: dict[str, Any], version: int) -> tuple[list[str], dict[str, Any]]:
    """Take the first option of every pick until the picks make a move: the ids picked and the last node."""
    picked: list[str] = []
    node = first
    while node["done"] is None:
        picked.append(node["groups"][0]["options"][0]["id"])
        answer = client.post(f"{path}/picks", json={"picks": picked, "version": version})
        assert answer.status_code == 200, answer.get_json()
        node = answer.get_json()
    return picked, node


@pytest.mark.parametrize("name", GAMES)
def test_a_decision_picked_option_by_option_is_played_as_one_move(client: FlaskClient, name: str) -> None:
    game = new_game(client, name)
    path = f"/api/games/{game['id']}"
    if not game["pick"]["groups"]:  # a secret step first (nothing for the table to pick): not this test's
        pytest.skip("the first decision is made behind the screens")
    picked, node = walk(client, path, game["pick"], game["version"])
    assert [c["id"] for c in node["chosen"]] == picked and all(c["words"] for c in node["chosen"])
    before = len(client.get(path).get_json()["log"])
    answer = client.post(f"{path}/moves", json={"picks": picked, "version": game["version"]})
    assert answer.status_code == 200, answer.get_json()
    after = answer.get_json()["game"]
    assert after["version"] > game["version"] and len(after["log"]) > before


@pytest.mark.parametrize("name", GAMES)
def test_picks_from_an_old_version_are_stale_and_change_nothing(client: FlaskClient, name: str) -> None:
    game = new_game(client, name)
    path = f"/api/games/{game['id']}"
    if not game["pick"]["groups"]:
        pytest.skip("the first decision is made behind the screens")
    picked, _ = walk(client, path, game["pick"], game["version"])
    assert client.post(f"{path}/moves", json={"picks": picked, "version": game["version"]}).status_code == 200
    now = client.get(path).get_json()
    again = client.post(f"{path}/moves", json={"picks": picked, "version": game["version"]})
    assert again.status_code == 409 and again.get_json()["error"]["type"] == "StaleMoveError"
    asked = client.post(f"{path}/picks", json={"picks": picked[:1], "version": game["version"]})
    assert asked.status_code == 409
    assert client.get(path).get_json()["version"] == now["version"]


@pytest.mark.parametrize("picks", [["x"] * 17, "bid", [1], [""], [None], ["a" * 65], {"a": 1}])
def test_malformed_picks_get_a_clear_error(client: FlaskClient, game: dict[str, Any], picks: Any) -> None:
    path = f"/api/games/{game['id']}"
    for endpoint in ("/picks", "/moves"):
        answer = client.post(path + endpoint, json={"picks": picks, "version": game["version"]})
        assert answer.status_code == 400, (endpoint, answer.get_json())
        assert answer.get_json()["error"]["message"]["id"] in {"web.refuse.picks_list", "core.refuse.picks_too_many"}
    assert client.get(path).get_json()["version"] == game["version"]


def test_picks_no_move_starts_with_are_refused(client: FlaskClient, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['id']}"
    for endpoint in ("/picks", "/moves"):
        answer = client.post(path + endpoint, json={"picks": ["no-such-piece"], "version": game["version"]})
        assert answer.status_code == 400
        assert answer.get_json()["error"]["message"]["id"] == "core.refuse.picks_unknown"
    incomplete = client.post(f"{path}/moves", json={"picks": [], "version": game["version"]})
    assert incomplete.status_code == 400
    assert client.get(path).get_json()["version"] == game["version"]


def test_a_seat_picks_its_own_decision_and_no_other(client: FlaskClient, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['id']}"
    tokens = {seat: seat_url(client, game["id"], seat) for seat in range(3)}
    deciding = game["to_move"]
    mine = client.get(tokens[deciding]).get_json()
    assert mine["deciding"] and mine["pick"]["groups"]
    other = tokens[(deciding + 1) % 3]
    assert client.get(other).get_json()["pick"] is None
    first = mine["pick"]["groups"][0]["options"][0]["id"]
    refused = client.post(f"{other}/picks", json={"picks": [first], "version": mine["version"]})
    assert refused.status_code == 400
    picked, _ = walk(client, tokens[deciding], mine["pick"], mine["version"])
    played = client.post(f"{tokens[deciding]}/moves", json={"picks": picked, "version": mine["version"]})
    assert played.status_code == 200, played.get_json()
