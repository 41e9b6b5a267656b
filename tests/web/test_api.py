"""The JSON API (docs/api.md): every endpoint, every error path, and what stays hidden."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.apikit import claim_seat, english, notation, offered, post_move, post_undo, seat_offered, seat_url
from web.table import get_table


def seed_of(app: Flask, game_id: str) -> str:
    with app.app_context():
        return get_table().store.get(game_id).seed


def legal_for(client: FlaskClient, game: dict[str, Any]) -> list[str]:
    """The legal moves of whoever is to move, read from their private page."""
    seat = client.get(f"/api/games/{game['id']}").get_json()["to_move"]
    url = seat_url(client, game["id"], seat)
    legal: list[str] = seat_offered(client, url)
    return legal


# ---------------------------------------------------------------- creating, listing, deleting


def test_create_game_sets_up_the_table(game: dict[str, Any]) -> None:
    view = game["view"]
    assert game["players"] == ["Alice", "Bob", "Cara"] and game["status"] == "playing"
    assert len([t for t in view["land_office"] if t]) == 6  # spec 2.1 step 6
    assert all(len(p["tiles"]) == 2 for p in view["players"])  # start pairs
    assert view["bag"]["field_tiles"] == 56 - 2 * 3 - 6 and view["bag"]["events"] == 12
    assert any("take field tile" in english(line) for line in game["log"])  # names the physical piece
    assert game["warnings"] and "PROVISIONAL" in english(game["warnings"][0])


def test_list_and_delete(client: FlaskClient, game: dict[str, Any]) -> None:
    listed = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert client.delete(f"/api/games/{game['id']}").status_code == 404


@pytest.mark.parametrize("payload,status,words", [
    ("not json", 400, "JSON object"),
    ({"players": "Alice"}, 400, "list of names"),
    ({"players": ["Alice", ""]}, 400, "player 2 needs a name"),
    ({"players": ["Alice", "Alice"]}, 400, "Alice is named twice"),
    ({"players": ["Alice"]}, 400, "2 to 4 players"),
    ({"players": ["A", "B", "C", "D", "E"]}, 400, "2 to 4 players"),
    ({"players": ["Alice", "Bob"], "options": {"turn_direction": "sideways"}}, 400, "turn_direction"),
    ({"players": ["Alice", "Bob"], "options": {"no_such_flag": "1"}}, 400, "unknown option"),
    ({"players": ["Alice", "Bob"], "options": "fast"}, 400, "options must be"),
    ({"game": "chess", "players": ["Alice", "Bob"]}, 404, "unknown game"),
])
def test_create_game_refuses_bad_requests(client: FlaskClient, payload: Any, status: int, words: str) -> None:
    if isinstance(payload, str):
        response = client.post("/api/games", data=payload, content_type="application/json")
    else:
        response = client.post("/api/games", json=payload)
    assert response.status_code == status
    assert words in response.get_json()["error"]["reason"]
    assert client.get("/api/games").get_json()["games"] == []  # nothing was stored


def test_variant_flags_are_offered_with_defaults(client: FlaskClient) -> None:
    data = client.get("/api/games/options/key-harvest").get_json()
    flags = {o["name"]: o for o in data["options"]}
    assert len(flags) == 14 and flags["turn_direction"]["default"] == "clockwise"
    assert client.get("/api/games/options/chess").status_code == 404


def test_options_chosen_at_creation_are_kept(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["A", "B"], "options": {"min_scoring_group_size": 2}})
    assert response.get_json()["view"]["options"]["min_scoring_group_size"] == "2"


# ---------------------------------------------------------------- moves and undo


def test_a_legal_move_is_played_and_logged(client: FlaskClient, game: dict[str, Any]) -> None:
    bid = next(m for m in legal_for(client, game) if m.startswith("bid"))
    response = post_move(client, game["id"], bid)
    assert response.status_code == 200
    data = response.get_json()
    played = [english(line) for line in data["played"]]
    assert notation(data["played"][0]) == bid  # a bid is one move with all its stones (issue 10)
    # then the refill draw at once, naming the piece: a field tile for the land office, or an event first
    assert "from the box" in played[1] and ("into the land office" in played[1] or "take event tile" in played[1])
    pending = data["game"]["view"]["pending"]
    if pending is not None and pending["kind"] == "bid_more":  # a second tile, or done (as text/plain)
        done = post_move(client, game["id"], "done")
        assert done.status_code == 200 and notation(done.get_json()["played"][0]) == "done"


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(client: FlaskClient,
                                                                       game: dict[str, Any]) -> None:
    before = client.get(f"/api/games/{game['id']}").get_json()
    response = post_move(client, game["id"], "add wheat")
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["rule"] == "R-D4" and error["move"] == "add wheat" and "fixed" in error["reason"]
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert after["log"] == before["log"] and after["view"] == before["view"]


@pytest.mark.parametrize("payload,content_type", [
    ("", "text/plain"), ("end", "text/plain"), (json.dumps({"move": 3, "version": 0}), "application/json"),
    (json.dumps({"nomove": "end", "version": 0}), "application/json"), ("[1, 2]", "application/json"),
    (json.dumps({"move": "fly away", "version": 0}), "application/json"),
    (json.dumps({"move": "end", "version": "latest"}), "application/json"),
    (json.dumps({"move": "end", "version": True}), "application/json"),
])
def test_malformed_moves_are_400(client: FlaskClient, game: dict[str, Any], payload: str, content_type: str) -> None:
    response = client.post(f"/api/games/{game['id']}/moves", data=payload, content_type=content_type)
    if content_type != "application/json":  # not JSON at all: refused before the API reads it (docs/security.md)
        assert response.status_code == 415
        assert response.get_json()["error"]["type"] == "UnsupportedMediaType"
        return
    assert response.status_code == 400
    assert response.get_json()["error"]["type"] == "MalformedInputError"


def test_undo_takes_back_a_move_but_never_the_setup(client: FlaskClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}"
    refused = post_undo(client, game["id"])  # only the setup's draws so far
    assert refused.status_code == 409 and "nothing to undo" in refused.get_json()["error"]["reason"]
    harvest = next(m for m in legal_for(client, game) if m.startswith("play"))
    before = client.get(url).get_json()
    post_move(client, game["id"], harvest)
    undone = post_undo(client, game["id"])
    assert undone.status_code == 200
    assert undone.get_json()["game"]["view"] == before["view"]


def test_unknown_games_are_404_everywhere(client: FlaskClient) -> None:
    for method, path in [("get", ""), ("delete", ""), ("post", "/moves"), ("post", "/undo"), ("get", "/score"),
                         ("get", "/seats"), ("get", "/stream"), ("get", "/private/abc")]:
        response = getattr(client, method)(f"/api/games/nope{path}", json={"move": "end", "version": 0})
        assert response.status_code == 404, (method, path)
        assert response.get_json()["error"]["type"] == "UnknownGameError"


def test_unknown_routes_answer_json(client: FlaskClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and response.get_json()["error"]["type"] == "NotFound"


# ---------------------------------------------------------------- score


def test_score_is_a_projection_until_the_end(client: FlaskClient, game: dict[str, Any]) -> None:
    data = client.get(f"/api/games/{game['id']}/score").get_json()
    assert data["final"] is False
    assert [row["name"] for row in data["players"]] == ["Alice", "Bob", "Cara"]
    assert all(row["majority_points"] is None for row in data["players"])  # majorities would reveal screens
    # the two start tiles lie in different regions (DE 587): two groups of one, 1 + 2 x 1 points
    assert all(row["largest_group_points"] == 1 and row["second_group_points"] == 2 for row in data["players"])


# ---------------------------------------------------------------- hidden information


def test_the_shared_view_shows_no_screen_no_removed_event_and_no_seed(app: Flask, client: FlaskClient,
                                                                      game: dict[str, Any]) -> None:
    seed = seed_of(app, game["id"])
    public = client.get(f"/api/games/{game['id']}").get_json()
    assert all(p["stones"] is None for p in public["view"]["players"])
    assert public["view"]["removed_events"] is None and public["view"]["bag"]["events_in_bag"] is None
    lines = [english(line) for line in public["log"]]
    stones = [line for line in lines if "starting stone" in line and "spec 2.2" not in line]
    removed = [line for line in lines if "back in the box" in line]
    assert len(stones) == 9 and all("in secret" in line for line in stones)
    assert len(removed) == 2 and all("without looking" in line for line in removed)
    for path in ("", "/score", "/seats", "/stream"):
        response = client.get(f"/api/games/{game['id']}{path}")
        text = next(response.response).decode() if path == "/stream" else response.get_data(as_text=True)
        text += next(response.response).decode() if path == "/stream" else ""
        assert seed not in text, path
    assert seed not in client.get("/api/games").get_data(as_text=True)


def test_private_pages_show_only_their_own_screen(client: FlaskClient, game: dict[str, Any]) -> None:
    seats = [claim_seat(client, game["id"], seat) for seat in range(3)]
    assert len({s["url"] for s in seats}) == 3 and all(len(s["url"].rsplit("/", 1)[1]) == 32 for s in seats)
    for seat in seats:
        page = client.get(seat["url"]).get_json()
        assert page["seat"] == seat["seat"] and page["name"] == seat["name"]
        stones = [p["stones"] for p in page["view"]["players"]]
        assert sum(stones[seat["seat"]].values()) == 3  # their own three starting stones
        assert all(s is None for i, s in enumerate(stones) if i != seat["seat"])
        own = [line for line in map(english, page["log"]) if line.startswith(f"{seat['name']} draws 1 ")]
        assert len(own) == 3 and all("in secret" not in line for line in own)
    to_move = client.get(f"/api/games/{game['id']}").get_json()["to_move"]
    assert all(bool(seat_offered(client, s["url"])) == (s["seat"] == to_move) for s in seats)


def test_a_wrong_private_token_opens_nothing(client: FlaskClient, game: dict[str, Any]) -> None:
    url = seat_url(client, game["id"], 0)
    assert client.get(url[:-1] + ("0" if url[-1] != "0" else "1")).status_code == 404
    other = client.post("/api/games", json={"players": ["X", "Y"]}).get_json()
    assert client.get(url.replace(game["id"], other["id"])).status_code == 404


# ---------------------------------------------------------------- live updates


def read_event(chunks: Any) -> dict[str, Any]:
    """The next server-sent event's data (heartbeats skipped)."""
    while True:
        chunk = next(chunks).decode()
        if chunk.startswith("event:"):
            data: dict[str, Any] = json.loads(chunk.split("data: ", 1)[1])
            return data


def test_stream_sends_the_game_then_every_change(client: FlaskClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}"
    response = client.get(f"{url}/stream")
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    first = read_event(chunks)
    assert first["game"]["log"] == game["log"]
    other_device = post_move(client, game["id"], "end")
    assert other_device.status_code == 200
    update = read_event(chunks)
    assert update["version"] == first["version"] + 1
    assert update["game"]["view"]["active"] != game["view"]["active"]
    post_move(client, game["id"], "add wheat")  # refused: no update is sent
    post_move(client, game["id"], "end")
    assert read_event(chunks)["version"] == first["version"] + 2
    response.close()


def test_deleting_a_game_ends_its_streams(client: FlaskClient, game: dict[str, Any]) -> None:
    response = client.get(f"/api/games/{game['id']}/stream")
    chunks = iter(response.response)
    read_event(chunks)
    client.delete(f"/api/games/{game['id']}")
    assert read_event(chunks)["event"] == "deleted"
    with pytest.raises(StopIteration):
        read_event(chunks)


# ---------------------------------------------------------------- colours


def test_players_can_come_with_colours(client: FlaskClient) -> None:
    players = [{"name": "Alice", "colour": "#FF0000"}, {"name": "Bob", "colour": "#0000ff"}]
    created = client.post("/api/games", json={"players": players}).get_json()
    assert created["players"] == ["Alice", "Bob"] and created["colours"] == ["#ff0000", "#0000ff"]
    assert client.get(f"/api/games/{created['id']}").get_json()["colours"] == ["#ff0000", "#0000ff"]


def test_default_colours_differ_by_seat(game: dict[str, Any]) -> None:
    assert len(set(game["colours"])) == 3


@pytest.mark.parametrize("colours,words", [
    (["#ff0000", "#ff0000"], "different colour"),
    (["red", "#0000ff"], "#rrggbb"),
    (["#ff0000", ""], "#rrggbb"),
])
def test_bad_colours_are_refused(client: FlaskClient, colours: list[str], words: str) -> None:
    players = [{"name": name, "colour": colour} for name, colour in zip(["Alice", "Bob"], colours)]
    response = client.post("/api/games", json={"players": players})
    assert response.status_code == 400 and words in response.get_json()["error"]["reason"]
    assert client.get("/api/games").get_json()["games"] == []
