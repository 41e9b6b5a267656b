"""The generic JSON API already serves La Granja: a game starts, seat pages keep hands private and
list the seat's legal moves, a move plays, an illegal one is refused with its rule ID."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app
from tests.web.apikit import post_move, seat_offered, seat_url


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app: Flask = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "STREAM_HEARTBEAT_SECONDS": 0.05})
    yield app.test_client()
    app.extensions["keydom_table"].close()


def test_three_player_game_through_the_api(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"game": "la-granja", "players": ["Ana", "Ben", "Cleo"]})
    assert response.status_code == 201
    game = response.get_json()
    assert game["title"] == "La Granja" and "lg.warning.provisional" in json.dumps(game["warnings"])
    assert all(p["hand"] is None and p["hand_size"] == 4 for p in game["view"]["players"])
    assert game["log"][-1]["id"] == "lg.log.card_hidden"       # the deal is masked on the shared table
    seat = game["to_move"]
    mine = client.get(seat_url(client, game["id"], seat)).get_json()
    other = client.get(seat_url(client, game["id"], (seat + 1) % 3)).get_json()
    assert len(mine["view"]["players"][seat]["hand"]) == 4 and "done" in seat_offered(client, seat_url(client, game["id"], seat))
    assert seat_offered(client, seat_url(client, game["id"], (seat + 1) % 3)) == []
    assert other["pick"] is None and other["view"]["players"][seat]["hand"] is None
    refused = post_move(client, game["id"], "donkey 1 2")
    assert refused.status_code >= 400 and refused.get_json()["error"]["rule"] == "3.1"
    played = post_move(client, game["id"], "done")
    assert played.status_code == 200 and played.get_json()["game"]["to_move"] != seat


def test_a_secret_donkey_is_chosen_on_its_own_page_only(client: FlaskClient) -> None:
    """Issue 11: secret choices need the seat's credential; the shared table refuses them without telling why."""
    import random

    game = client.post("/api/games", json={"game": "la-granja", "players": ["Ana", "Ben"]}).get_json()
    rng = random.Random(3)
    while game["to_move"] != "simultaneous":
        seat = game["to_move"]
        legal = seat_offered(client, seat_url(client, game["id"], seat))
        game = post_private(client, game["id"], seat, rng.choice(legal), game["version"]).get_json()["game"]
    mine = client.get(seat_url(client, game["id"], 0)).get_json()
    choice = seat_offered(client, seat_url(client, game["id"], 0))[0]
    refused = post_move(client, game["id"], choice, game["version"])
    assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "SCREEN"
    assert client.get(f"/api/games/{game['id']}").get_json()["log"] == game["log"]  # nothing was chosen
    chosen = post_private(client, game["id"], 0, choice, game["version"])
    assert chosen.status_code == 200 and chosen.get_json()["game"]["view"]["players"][0]["donkey"] is None  # face down


def post_private(client: FlaskClient, game_id: str, seat: int, move: str, version: int) -> Any:
    return client.post(f"{seat_url(client, game_id, seat)}/moves", json={"move": move, "version": version})
