"""La Granja through the JSON API and its pages: create, move, refusal with the rule, undo, the setup
guide, and hidden information (spec ../shared/rules/la-granja.md 2.3, 3.4: hands and the secret
donkey choice never reach the shared table before the reveal)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from tests.web.apikit import english, offered, post_move, post_undo, seat_offered, seat_url

# Task moves a player may always make to move the game on, most neutral first (never anytime actions).
PREFERRED = ("done", "pass", "skip", "die", "option", "take", "extra", "discard", "donkey", "stall", "release",
             "upgrade", "deliver", "draw", "place")


def create(client: FlaskClient, players: list[str] | None = None) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "la-granja", "players": players or ["Ana", "Ben", "Cleo"]})
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def seat_urls(client: FlaskClient, game_id: str) -> list[str]:
    seats = len(client.get(f"/api/games/{game_id}").get_json()["players"])
    return [seat_url(client, game_id, seat) for seat in range(seats)]


def private(client: FlaskClient, url: str) -> dict[str, Any]:
    """The seat's private view, with its moves now in notation as ``legal`` (its page picks them)."""
    data: dict[str, Any] = client.get(url).get_json()
    return {**data, "legal": seat_offered(client, url)}


def play(client: FlaskClient, game_id: str, move: str) -> dict[str, Any]:
    response = post_move(client, game_id, move)
    assert response.status_code == 200, (move, response.get_json())
    data: dict[str, Any] = response.get_json()
    return data


def private_play(client: FlaskClient, url: str, move: str) -> dict[str, Any]:
    """A move from a seat's private page (issue 10: ``POST .../private/<token>/moves`` with the version seen)."""
    version = private(client, url)["version"]
    response = client.post(f"{url}/moves", json={"move": move, "version": version})
    assert response.status_code == 200, (move, response.get_json())
    data: dict[str, Any] = response.get_json()
    return data


def decider(game: dict[str, Any]) -> int:
    """The seat to move, or at the simultaneous donkey step the first seat still to choose."""
    if game["view"]["to_move"] == "simultaneous":
        seat: int = game["view"]["waiting"]["deciders"][0]
        return seat
    assert isinstance(game["to_move"], int) and game["to_move"] >= 0, game["to_move"]
    return int(game["to_move"])


def step(client: FlaskClient, game_id: str, urls: list[str]) -> str:
    """The decider makes the first of their legal moves in PREFERRED order (from their private page)."""
    seat = decider(client.get(f"/api/games/{game_id}").get_json())
    legal = private(client, urls[seat])["legal"]
    move = min((m for m in legal if m.split()[0] in PREFERRED), key=lambda m: PREFERRED.index(m.split()[0]))
    private_play(client, urls[seat], move)
    return move


def test_create_a_game_shows_round_phase_decider_and_provisional_data(client: FlaskClient) -> None:
    game = create(client)
    view = game["view"]
    assert game["game"] == "la-granja" and game["title"] == "La Granja"
    assert view["round"] == 1 and view["phase"] == "farm"
    assert game["to_move"] == view["turn_order"][0] == view["waiting"]["player"]
    assert view["waiting"]["kind"] == "play"
    assert any("placeholders" in english(w) for w in game["warnings"]) and view["data"]["provisional"]
    assert [p["vp"] for p in view["players"]] == [1, 1, 1]
    assert all([(e["round"], e["source"], e["amount"], english(e["note"])) for e in p["ledger"]] == [(1, "V1", 1, "start")]
               for p in view["players"])
    options = client.get("/api/games/options/la-granja").get_json()
    assert (options["min_players"], options["max_players"]) == (1, 4)
    assert {o["name"] for o in options["options"]} >= {"lock_removal", "hide_vp", "marker_limit"}


def test_a_move_an_illegal_move_and_undo(client: FlaskClient) -> None:
    game = create(client)
    gid, first = game["id"], game["to_move"]
    refused = post_move(client, gid, "roof R1")
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["rule"] == "3.1" and "cards to place" in error["reason"] and error["move"] == "roof R1"
    assert client.get(f"/api/games/{gid}").get_json()["log"] == game["log"]  # nothing changed
    malformed = post_move(client, gid, "die four")
    assert malformed.status_code == 400
    answer = play(client, gid, "done")
    assert answer["played"] and answer["game"]["to_move"] != first
    undone = post_undo(client, gid).get_json()["game"]
    assert undone["to_move"] == first and undone["log"] == game["log"]


def test_the_shared_table_never_sees_a_hand(client: FlaskClient) -> None:
    game = create(client)
    gid = game["id"]
    urls = seat_urls(client, gid)
    hands = [private(client, url)["view"]["players"][seat]["hand"] for seat, url in enumerate(urls)]
    assert all(len(hand) == 4 for hand in hands)
    mine = private(client, urls[game["to_move"]])
    assert any(m.startswith("place ") for m in mine["legal"])  # the decider's own page offers the cards
    public = client.get(f"/api/games/{gid}").get_json()
    assert not any(m.split()[0] in ("place", "discard") for m in offered(client, gid))
    assert all(p["hand"] is None and p["hand_size"] == 4 for p in public["view"]["players"])
    assert all(line["id"] in ("lg.log.start", "lg.log.lock", "lg.log.reveal", "lg.log.card_hidden")
               for line in public["log"])
    other = private(client, urls[(game["to_move"] + 1) % 3])["view"]["players"]
    assert [p["hand"] is None for p in other].count(False) == 1  # each page sees its own hand only


def test_hidden_donkeys_until_the_reveal_in_json_and_stream(client: FlaskClient) -> None:
    """Spec 3.4 step 1: every seat chooses at once, in secret, on its own page; the table sees who has chosen."""
    game = create(client)
    gid = game["id"]
    urls = seat_urls(client, gid)
    for _ in range(200):
        if client.get(f"/api/games/{gid}").get_json()["view"]["waiting"]["kind"] == "donkey":
            break
        step(client, gid, urls)
    public = client.get(f"/api/games/{gid}").get_json()
    assert public["view"]["to_move"] == "simultaneous"
    assert public["view"]["waiting"] == {"kind": "donkey", "player": None, "count": 0, "detail": "",
                                         "deciders": [0, 1, 2]}
    assert offered(client, gid) == []  # the shared table offers no donkey: the seat pages do
    for seat, url in enumerate(urls):   # every seat may choose now, only for itself
        assert private(client, url)["legal"] == [f"donkey {seat + 1} {d}" for d in (1, 2, 3, 4)]
    other = client.post(f"{urls[0]}/moves", json={"move": "donkey 2 3", "version": private(client, urls[0])["version"]})
    assert other.status_code >= 400       # a page chooses for its own seat only
    chosen = {2: "donkey 3 2", 0: "donkey 1 3"}   # Cleo first: nobody waits for the seat before
    for seat, move in chosen.items():
        private_play(client, urls[seat], move)
        table = client.get(f"/api/games/{gid}").get_json()
        assert english(table["log"][-1]) == f"{['Ana', 'Ben', 'Cleo'][seat]} chose a donkey marker face down"
        assert [p["donkey"] for p in table["view"]["players"]] == [None, None, None]
        assert private(client, urls[seat])["view"]["players"][seat]["donkey"] == int(move.split()[2])
        assert private(client, urls[1])["view"]["players"][seat]["donkey"] is None
    table = client.get(f"/api/games/{gid}").get_json()
    assert [p["donkey_chosen"] for p in table["view"]["players"]] == [True, False, True]
    with client.get(f"/api/games/{gid}/stream", buffered=False) as stream:
        first = b""
        for chunk in stream.response:
            first += chunk
            if b"\n\ndata" in first or first.count(b"\n\n") >= 2:
                break
    event = json.loads(first.split(b"data: ", 1)[1].split(b"\n", 1)[0])
    text = json.dumps(event)
    assert event["game"]["view"]["waiting"]["deciders"] == [1]
    assert "donkey 1 3" not in text and "donkey 3 2" not in text and '"donkey": 3' not in text
    assert all(p["hand"] is None for p in event["game"]["view"]["players"])
    private_play(client, urls[1], "donkey 2 1")   # the last choice: all revealed together
    final = client.get(f"/api/games/{gid}").get_json()
    assert [p["donkey"] for p in final["view"]["players"]] == [3, 1, 2]
    assert "The donkey markers are turned up together: Ana: 3 donkeys, Ben: 1 donkey, Cleo: 2 donkeys" \
        in [english(line) for line in final["log"]]


def test_setup_guide_names_the_pieces_and_draws(client: FlaskClient) -> None:
    game = create(client)
    guide = client.get(f"/api/games/{game['id']}/setup").get_json()["guide"]
    view = game["view"]
    assert guide["players"] == 3 and guide["turn_order"] == view["turn_order"]
    assert guide["first_player"] == view["turn_order"][0]
    assert {"piece": "yield_dice", "count": 7} in guide["table"]
    assert {"piece": "craft_markers_each_building", "count": 3} in guide["table"]
    assert {"piece": "markers", "count": 25} in guide["each_player"]
    locked = {b["building"]: b["lock"] for b in view["buildings"] if b["lock"]}
    assert {lock["building"]: lock["lock"] for lock in guide["locks"]} == locked and len(locked) == 3
    assert [r["marker"] for r in guide["roof_display"]] == [r["marker"] for r in view["roof_display"]]
    assert len(guide["roof_display"]) == 3  # 3 players: 3 of round 1's 4 markers
    assert [m["holder"] for m in guide["market"]] == view["turn_order"]
    assert guide["siesta_stack"] == list(reversed(view["turn_order"]))  # start player on top
    assert guide["cards_each"] == 4 and guide["draw_pile"] == 66 - 12
    assert set(guide) == {"players", "data", "table", "each_player", "first_player", "turn_order", "solo_turn_marker",
                          "locks", "roof_display", "roof_stacks", "roofs_per_round", "market", "siesta_stack",
                          "cards_each", "draw_pile"}  # which cards each holds: only the private pages


@pytest.mark.parametrize("players", [["Solo"], ["Ana", "Ben", "Cleo", "Dora"]])
def test_setup_guide_for_solo_and_four(client: FlaskClient, players: list[str]) -> None:
    game = create(client, players)
    guide = client.get(f"/api/games/{game['id']}/setup").get_json()["guide"]
    if len(players) == 1:
        assert guide["solo_turn_marker"] in (2, 3) and len(guide["roof_display"]) == 2
        assert sorted(m["holder"] for m in guide["market"] if m["holder"] != "neutral") == [0]
    else:
        assert guide["solo_turn_marker"] is None and len(guide["roof_display"]) == 4
        assert {"piece": "yield_dice", "count": 9} in guide["table"]


def test_la_granja_pages_use_their_own_templates(client: FlaskClient) -> None:
    game = create(client)
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'data-page="lg-table"' in html and "/static/games/la_granja/la_granja.js" in html and 'id="dice"' in html
    url = seat_urls(client, game["id"])[0]
    seat = client.get(f"/games/{game['id']}/seat/{url.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert 'data-page="lg-seat"' in seat and 'id="legal"' in seat and 'id="hand"' in seat
    index = client.get("/").get_data(as_text=True)
    assert 'value="la-granja"' in index


def test_a_whole_game_through_the_api_never_shows_a_secret_before_its_time(client: FlaskClient) -> None:
    """Six rounds, each decision made from the decider's private page; every public answer on the way
    offers no private move, shows no hand, and no donkey before the last player has chosen."""
    game = create(client)
    gid = game["id"]
    urls = seat_urls(client, gid)
    for _ in range(2000):
        public = client.get(f"/api/games/{gid}").get_json()
        if public["status"] == "over":
            break
        view = public["view"]
        assert not any(m.split()[0] in ("place", "discard", "donkey") for m in offered(client, gid))
        assert all(p["hand"] is None for p in view["players"])
        if view["waiting"]["kind"] == "donkey":
            assert all(p["donkey"] is None for p in view["players"])
        step(client, gid, urls)
    else:
        raise AssertionError("the game did not end")
    assert public["to_move"] is None and offered(client, gid) == [] and public["view"]["round"] == 6
    score = client.get(f"/api/games/{gid}/score").get_json()
    assert score["final"] is True
    assert sorted(row["rank"] for row in score["players"]) in ([1, 2, 3], [1, 1, 2], [1, 1, 3], [1, 2, 2], [1, 1, 1])
    assert all("V15" in row["ledger"] and row["total"] == row["vp"] + row["conversion_points"] for row in score["players"])
    assert all(p["hand"] is not None for p in public["view"]["players"])  # the end shows everything


def pick_ids(node: dict[str, Any]) -> list[str]:
    return [option["id"] for group in node["groups"] for option in group["options"]]


def test_decisions_by_picks_the_table_never_offers_a_card_of_a_hand(client: FlaskClient) -> None:
    """Issue 27: the table's first pick holds no card of a hand; the decider's page picks a card of the hand, then
    its side, and the move is made from the picks with the version they were chosen from."""
    game = create(client)
    gid, seat = game["id"], game["to_move"]
    url = seat_urls(client, gid)[seat]
    mine = private(client, url)
    hand = [str(card) for card in mine["view"]["players"][seat]["hand"]]
    public = client.get(f"/api/games/{gid}").get_json()
    assert "done" in pick_ids(public["pick"]) and not set(hand) & set(pick_ids(public["pick"]))
    assert set(hand) <= set(pick_ids(mine["pick"]))
    sides = client.post(f"{url}/picks", json={"picks": [hand[0]], "version": mine["version"]}).get_json()
    assert pick_ids(sides) == ["field", "cart", "helper", "ext"]
    assert [english(group["ask"]) for group in sides["groups"]] == [f"How do you place card {hand[0]}?"]
    made = client.post(f"{url}/moves", json={"picks": [hand[0], "field"], "version": mine["version"]})
    assert made.status_code == 200, made.get_json()
    assert int(hand[0]) in [f["card"] for f in private(client, url)["view"]["players"][seat]["fields"]]
    stale = client.post(f"{url}/moves", json={"picks": [hand[1], "field"], "version": mine["version"]})
    assert stale.status_code == 409  # a decision chosen from an old version is refused
