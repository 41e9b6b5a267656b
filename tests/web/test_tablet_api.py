"""The API behind the tablet's touch flows, setup guide and scoring screen (docs/api.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.table import get_table
from tests.web.apikit import english, offered, post_move, seat_offered, seat_url

CROPS = ("hops", "vegetables", "apples", "wine", "wheat")


def private_of(client: FlaskClient, game_id: str, seat: int) -> dict[str, Any]:
    url = seat_url(client, game_id, seat)
    data: dict[str, Any] = client.get(url).get_json()
    return data


def finish(app: Flask, game_id: str, seed: int = 5) -> None:
    """Play random legal moves until the game is over (the session makes the draws)."""
    rng = random.Random(seed)
    with app.app_context():
        session = get_table().session(game_id)
        while not session.is_over:
            session.play(rng.choice(session.game.legal_moves(session.state)))


# ---------------------------------------------------------------- the choices of the touch flows


def test_the_public_game_offers_the_deciders_moves_without_telling_their_stones(client: FlaskClient,
                                                                                  game: dict[str, Any]) -> None:
    seat = game["to_move"]
    private = private_of(client, game["id"], seat)
    assert set(seat_offered(client, seat_url(client, game["id"], seat))) <= set(offered(client, game["id"]))  # every legal move can be made by touch (a bid of 8 or less)
    office = [label for label in game["view"]["land_office"] if label]
    mine = private["view"]["players"][seat]["stones"]
    missing = next(crop for crop in CROPS if not mine[crop])
    for label in office:  # every bid the screens could pay: nothing tells what is behind this one
        assert {f"bid {label} {crop}" for crop in CROPS} <= set(offered(client, game["id"]))
    before = client.get(f"/api/games/{game['id']}").get_json()
    refused = post_move(client, game["id"], f"bid {office[0]} {missing}")
    # the shared tablet must not tell why (that would say what is behind the screen); the seat's page does
    assert refused.status_code == 422
    assert refused.get_json()["error"] == {"type": "IllegalMoveError", "rule": "SCREEN", "move": f"bid {office[0]} {missing}",
                                           "reason": "Not possible: check your screen.",
                                           "message": {"id": "core.refuse.screen", "params": {}}}
    url = seat_url(client, game["id"], seat)
    precise = client.post(f"{url}/moves", json={"move": f"bid {office[0]} {missing}", "version": game["version"]})
    assert precise.status_code == 422 and precise.get_json()["error"]["rule"] == "R-D3"
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert after["log"] == before["log"] and after["version"] == before["version"]


def test_choices_follow_the_pending_decision_and_vanish_at_the_end(app: Flask, client: FlaskClient,
                                                                   game: dict[str, Any]) -> None:
    office = next(label for label in game["view"]["land_office"] if label)
    seat = game["to_move"]
    crop = next(c for c in CROPS if private_of(client, game["id"], seat)["view"]["players"][seat]["stones"][c])
    played = post_move(client, game["id"], f"bid {office} {crop}").get_json()["game"]
    if played["view"]["pending"]["kind"] != "bid_more":  # the refill drew an event first: its players decide now
        # (an event, or a step it set off: a windfall's stone...)
        assert any("event tile" in english(line) for line in played["log"]) and offered(client, played["id"])
        finish(app, game["id"])
        return
    # the bid is whole and the office refilled: a second tile, or done
    assert "done" in offered(client, played["id"])
    assert {m.split()[1] for m in offered(client, played["id"]) if m.startswith("bid ")} == {
        label for label in played["view"]["land_office"] if label and label != office}  # not the tile bid on
    assert all(len(m.split()) > 2 for m in offered(client, played["id"]) if m.startswith("bid "))  # each names its stones
    assert not any(move.startswith("add ") for move in offered(client, played["id"]))
    finish(app, game["id"])
    over = client.get(f"/api/games/{game['id']}").get_json()
    assert over["to_move"] is None and offered(client, over["id"]) == []


# ---------------------------------------------------------------- the setup guide


def test_the_setup_guide_names_each_piece_for_three_players(client: FlaskClient, game: dict[str, Any]) -> None:
    answer = client.get(f"/api/games/{game['id']}/setup")
    assert answer.status_code == 200
    data = answer.get_json()
    guide = data["guide"]
    assert data["players"] == ["Alice", "Bob", "Cara"] and len(data["colours"]) == 3
    assert guide["events_removed"] == 2 and guide["events_in_bag"] == 12 and guide["supply"] == 51  # spec 2.1, 2.2
    view = game["view"]
    assert guide["land_office"] == [tile for tile in view["land_office_tiles"] if tile]
    for seat, tiles in enumerate(guide["start_tiles"]):
        assert tiles == [{"label": t["label"], "crop": t["crop"]} for t in view["players"][seat]["tiles"]]
    assert guide["first_player"] == view["active"]
    assert isinstance(guide["events_removed"], int) and "stones" not in str(guide["start_tiles"])  # nothing hidden


def test_the_setup_guide_stays_the_setup_after_moves(client: FlaskClient, game: dict[str, Any]) -> None:
    before = client.get(f"/api/games/{game['id']}/setup").get_json()
    assert post_move(client, game["id"], "end").status_code == 200
    assert client.get(f"/api/games/{game['id']}/setup").get_json() == before


def test_the_setup_guide_of_an_unknown_game_is_404(client: FlaskClient) -> None:
    answer = client.get("/api/games/nope/setup")
    assert answer.status_code == 404 and answer.get_json()["error"]["type"] == "UnknownGameError"


# ---------------------------------------------------------------- scoring with entered stones


def test_entered_stones_rescore_without_changing_the_game(client: FlaskClient, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['id']}"
    before = client.get(path).get_json()
    stones = [{"wheat": 4}, {"wheat": 2, "wine": 1}, {"hops": 1}]
    answer = client.post(f"{path}/score", json={"hidden": stones})
    assert answer.status_code == 200
    data = answer.get_json()
    assert data["rescored"] is True and data["final"] is False and data["entered"] == [True, True, True]
    majority = [row["majority_points"] for row in data["players"]]
    assert majority == [1, 1, 1]  # wheat to Alice, wine to Bob, hops to Cara (R-END majorities)
    assert [row["tiebreak"]["stones"] for row in data["players"]] == [4, 3, 1]
    after = client.get(path).get_json()
    assert after["log"] == before["log"] and after["view"] == before["view"]  # nothing stored
    assert client.get(f"{path}/score").get_json()["players"][0]["majority_points"] is None


def test_after_the_end_null_keeps_the_companions_count(app: Flask, client: FlaskClient, game: dict[str, Any]) -> None:
    finish(app, game["id"])
    path = f"/api/games/{game['id']}"
    tracked = client.get(f"{path}/score").get_json()["players"]
    same = client.post(f"{path}/score", json={"hidden": [None, None, None]}).get_json()
    assert same["final"] is True and same["players"] == tracked
    everything = {crop: 1 for crop in CROPS}  # seat 0 says it holds one of each, the others nothing
    others = client.post(f"{path}/score", json={"hidden": [everything, {}, {}]}).get_json()["players"]
    assert others[0]["majority_points"] == 5 and others[1]["majority_points"] == 0
    assert client.get(f"{path}/score").get_json()["players"] == tracked


@pytest.mark.parametrize("payload,words", [
    ("stones", "JSON object"),
    ({}, "list of 3 entries"),
    ({"hidden": {"Alice": {"wheat": 1}}}, "list of 3 entries"),
    ({"hidden": [{"wheat": 1}, {}]}, "list of 3 entries"),
    ({"hidden": [{"wheat": 1}, {}, 3]}, "list of 3 entries"),
    ({"hidden": [{"wheat": 1}, {}, None]}, "before the end"),
    ({"hidden": [{"wheat": -1}, {}, {}]}, "whole number"),
    ({"hidden": [{"wheat": 1.5}, {}, {}]}, "whole number"),
    ({"hidden": [{"wheat": True}, {}, {}]}, "whole number"),
    ({"hidden": [{"corn": 1}, {}, {}]}, "corn"),
    ({"hidden": [{"wheat": 13}, {}, {}]}, "the game has 12"),
    ({"hidden": [{"wheat": 6}, {"wheat": 7}, {}]}, "the game has 12"),
])
def test_bad_stone_entries_are_400_and_change_nothing(client: FlaskClient, game: dict[str, Any], payload: Any,
                                                      words: str) -> None:
    path = f"/api/games/{game['id']}"
    before = client.get(path).get_json()
    if isinstance(payload, str):
        answer = client.post(f"{path}/score", data=payload, content_type="application/json")
    else:
        answer = client.post(f"{path}/score", json=payload)
    assert answer.status_code == 400, answer.get_json()
    error = answer.get_json()["error"]
    assert error["type"] == "MalformedInputError" and words in error["reason"]
    assert client.get(path).get_json()["log"] == before["log"]


def test_rescoring_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.post("/api/games/nope/score", json={"hidden": [{}, {}]}).status_code == 404
