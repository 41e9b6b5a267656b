"""Safe on the home network (issue 11, docs/security.md): seats belong to their players, the table PIN pairs LAN
devices, cross-site requests and foreign Host names are refused."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.messages import Message, render
from tests.web.apikit import claim_seat, offered, post_move, seat_offered, version_of
from web import create_app

LAN = {"REMOTE_ADDR": "192.168.1.23"}
OWN = "http://localhost"
"""The test client's own origin (its default Host is localhost)."""


def seats_of(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = client.get(f"/api/games/{game_id}/seats").get_json()["seats"]
    return seats


# ---------------------------------------------------------------- seats belong to their players


def test_the_seat_list_hands_out_join_codes_never_private_links(client: FlaskClient, game: dict[str, Any]) -> None:
    seats = seats_of(client, game["id"])
    assert [s["claimed"] for s in seats] == [False] * 3
    assert all("/join/" in s["page"] and "url" not in s for s in seats)
    mine = claim_seat(client, game["id"], 1)
    seats = seats_of(client, game["id"])
    assert seats[1] == {"seat": 1, "name": "Bob", "claimed": True, "page": None}  # the tablet shows "claimed"
    text = client.get(f"/api/games/{game['id']}/seats").get_data(as_text=True)
    assert mine["url"].rsplit("/", 1)[1] not in text


def join_code(client: FlaskClient, game_id: str, seat: int) -> str:
    return str(seats_of(client, game_id)[seat]["page"].rsplit("/", 1)[1])


def test_a_join_code_works_once(client: FlaskClient, game: dict[str, Any]) -> None:
    code = join_code(client, game["id"], 0)
    page = client.post(f"/games/{game['id']}/join/{code}", headers={"Origin": OWN})  # the join page's button
    assert page.status_code == 303 and "/seat/" in page.headers["Location"]
    assert client.get(page.headers["Location"]).status_code == 200
    again = client.post(f"/api/games/{game['id']}/join/{code}", json={})
    assert again.status_code == 404 and "already used" in again.get_json()["error"]["reason"]
    # the phone shows it in its player's language (messages as data)
    assert render(Message.from_json(again.get_json()["error"]["message"]), "de").startswith(
        "Der Code dieses Platzes wurde schon benutzt")
    link = f"/games/{game['id']}/join/{code}"
    for used in (client.get(link, headers={"Accept-Language": "de"}),
                 client.post(link, headers={"Origin": OWN, "Accept-Language": "de"})):
        assert used.status_code == 404  # the page says why, in the phone's language
        assert 'id="not-found"' in used.get_data(as_text=True)
        assert "Der Code dieses Platzes wurde schon benutzt" in used.get_data(as_text=True)
    assert client.get(f"/games/{game['id']}/join/{code}/qr.svg").status_code == 404  # no QR code of a claimed seat


def test_opening_a_join_link_only_asks(client: FlaskClient, game: dict[str, Any]) -> None:
    """A link previewer, a browser's prefetch or a phone's QR preview opens the link without the player: that alone
    burnt the one-time code. Opening it now shows whose seat it is and a button; only the button claims it."""
    code = join_code(client, game["id"], 1)
    link = f"/games/{game['id']}/join/{code}"
    for _ in range(3):
        for opened in (client.get(link), client.head(link), client.get(link, headers={"Purpose": "prefetch"})):
            assert opened.status_code == 200 and opened.headers["Cache-Control"] == "no-store"
    page = client.get(link).get_data(as_text=True)
    assert 'id="join-form"' in page and 'method="post"' in page and f'action="{link}"' in page
    assert "Bob" in page and 'id="join-button"' in page
    assert [s["claimed"] for s in seats_of(client, game["id"])] == [False] * 3
    assert join_code(client, game["id"], 1) == code  # the same code still works
    claimed = client.post(link, headers={"Origin": OWN})
    assert claimed.status_code == 303 and claimed.headers["Cache-Control"] == "no-store"
    seat_page = client.get(claimed.headers["Location"])
    assert seat_page.status_code == 200
    assert [s["claimed"] for s in seats_of(client, game["id"])] == [False, True, False]


def test_the_join_page_speaks_the_phones_language(client: FlaskClient, game: dict[str, Any]) -> None:
    link = seats_of(client, game["id"])[2]["page"]
    english = client.get(link, headers={"Accept-Language": "en"}).get_data(as_text=True)
    german = client.get(link, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Take this seat" in english and "Diesen Platz nehmen" in german
    assert "Cara" in english and "Cara" in german


def test_an_unknown_join_code_is_refused_in_words(client: FlaskClient, game: dict[str, Any]) -> None:
    for path in (f"/games/{game['id']}/join/{'0' * 16}", "/games/no-such-game/join/abc"):
        for answer in (client.get(path), client.post(path, headers={"Origin": OWN})):
            assert answer.status_code == 404 and 'id="not-found"' in answer.get_data(as_text=True)
    assert "already used or replaced" in client.get(f"/games/{game['id']}/join/{'0' * 16}").get_data(as_text=True)
    assert [s["claimed"] for s in seats_of(client, game["id"])] == [False] * 3


def test_another_site_cannot_press_the_join_button(client: FlaskClient, game: dict[str, Any]) -> None:
    """The button posts a form: a page on another site could post the same form (a hidden one, on load) and take
    the seat for whoever opened it. The same-origin check of every POST refuses it."""
    link = seats_of(client, game["id"])[0]["page"]
    for headers in ({"Origin": FOREIGN}, {"Origin": "null"}, {"Referer": FOREIGN + "/x"}):
        answer = client.post(link, headers=headers)
        assert answer.status_code == 403 and answer.get_json()["error"]["type"] == "CrossSiteRequest"
    assert [s["claimed"] for s in seats_of(client, game["id"])] == [False] * 3


def test_a_seats_private_answers_need_its_own_credential(client: FlaskClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    alice, bob = claim_seat(client, gid, 0), claim_seat(client, gid, 1)
    assert client.get(alice["url"]).get_json()["seat"] == 0
    assert client.get(bob["url"]).get_json()["seat"] == 1
    for wrong in ("", "0" * 32, "not-a-token"):
        assert client.get(f"/api/games/{gid}/private/{wrong}").status_code == 404
        assert client.get(f"/games/{gid}/seat/{wrong}").status_code == 404
    # Alice's token names seat 0 only: her link opens nothing for Bob
    version = version_of(client, gid)
    to_move = client.get(f"/api/games/{gid}").get_json()["to_move"]
    other = claim_seat(client, gid, (to_move + 1) % 3)  # a seat that is not to move
    legal = seat_offered(client, claim_seat(client, gid, to_move)["url"])
    refused = client.post(f"{other['url']}/moves", json={"move": legal[0], "version": version})
    assert refused.status_code == 422 and version_of(client, gid) == version
    # the camera's board against a seat: only with that seat's token
    assert client.get(f"/camera/board?game={gid}&seat=0").status_code == 403
    bobs = bob["url"].rsplit("/", 1)[1]
    assert client.get(f"/camera/board?game={gid}&seat=0&token={bobs}").status_code == 403


def test_reissuing_a_seat_invalidates_its_old_link(client: FlaskClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    old = claim_seat(client, gid, 2)
    assert client.get(old["url"]).status_code == 200
    answer = client.post(f"/api/games/{gid}/seats/2/reissue", json={})
    assert answer.status_code == 200
    fresh = answer.get_json()["seats"][2]
    assert fresh["claimed"] is False and fresh["page"]
    assert client.get(old["url"]).status_code == 404
    assert client.get(old["page"]).status_code == 404
    assert client.post(f"{old['url']}/moves", json={"move": "end", "version": 0}).status_code == 404
    new = client.post(f"/api/games/{gid}/join/{fresh['page'].rsplit('/', 1)[1]}", json={}).get_json()
    assert new["seat"] == 2 and new["url"] != old["url"] and client.get(new["url"]).status_code == 200
    assert client.post(f"/api/games/{gid}/seats/7/reissue", json={}).status_code == 404


def test_seat_credentials_survive_a_restart(tmp_path: Path) -> None:
    first = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    client = first.test_client()
    gid = client.post("/api/games", json={"players": ["A", "B"]}).get_json()["id"]
    url = claim_seat(client, gid, 0)["url"]
    first.extensions["keydom_table"].close()
    second = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    again = second.test_client()
    assert again.get(url).status_code == 200
    assert seats_of(again, gid)[0]["claimed"] is True
    second.extensions["keydom_table"].close()


# ---------------------------------------------------------------- cross-site requests


FOREIGN = "http://evil.example"


def test_cross_site_posts_are_refused_and_change_nothing(client: FlaskClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    before = client.get(f"/api/games/{gid}").get_json()
    version = before["version"]
    move = offered(client, before["id"])[0]
    attempts = [
        # simple requests a page on another site can send without asking (a form, text/plain)
        ("post", f"/api/games/{gid}/moves", {"data": {"move": move, "version": str(version)}}, {"Origin": FOREIGN}),
        ("post", f"/api/games/{gid}/moves", {"data": f'{{"move": "{move}", "version": {version}}}',
                                             "content_type": "text/plain"}, {"Origin": FOREIGN}),
        ("post", f"/api/games/{gid}/moves", {"data": f'{{"move": "{move}", "version": {version}}}',
                                             "content_type": "text/plain"}, {}),  # no Origin, still not JSON
        ("post", f"/api/games/{gid}/undo", {"data": {"version": str(version)}}, {"Referer": FOREIGN + "/page"}),
        # preflighted-style: JSON from a foreign origin
        ("post", f"/api/games/{gid}/moves", {"json": {"move": move, "version": version}}, {"Origin": FOREIGN}),
        ("post", f"/api/games/{gid}/moves", {"json": {"move": move, "version": version}}, {"Origin": "null"}),
        ("post", f"/api/games/{gid}/undo", {"json": {"version": version}}, {"Origin": FOREIGN}),
        ("delete", f"/api/games/{gid}", {}, {"Origin": FOREIGN}),
        ("post", "/api/panel/press", {"json": {"button": "NEXT", "game": gid}}, {"Origin": FOREIGN}),
        ("put", "/api/data/la-granja/donkeys", {"json": {"provisional": False}}, {"Origin": FOREIGN}),
        ("delete", "/api/data/key-harvest", {}, {"Referer": FOREIGN + "/"}),
        ("post", f"/api/games/{gid}/seats/0/reissue", {"json": {}}, {"Origin": FOREIGN}),
        ("post", "/api/games", {"json": {"players": ["X", "Y"]}}, {"Origin": "http://localhost:9999"}),
    ]
    for method, path, body, headers in attempts:
        answer = getattr(client, method)(path, headers=headers, **body)
        assert answer.status_code in (403, 415), (method, path, headers, answer.status_code)
        assert answer.get_json()["error"]["type"] in ("CrossSiteRequest", "UnsupportedMediaType")
    after = client.get(f"/api/games/{gid}").get_json()
    assert after["version"] == version and after["log"] == before["log"]
    assert len(client.get("/api/games").get_json()["games"]) == 1
    assert seats_of(client, gid)[0]["page"] is not None


def test_our_own_pages_may_change_things(client: FlaskClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    move = offered(client, game["id"])[0]
    for headers in ({"Origin": OWN}, {"Referer": f"{OWN}/games/{gid}"}, {}):
        answer = post_move_with(client, gid, move, headers)
        assert answer.status_code in (200, 422), answer.get_json()
        assert answer.status_code != 403


def post_move_with(client: FlaskClient, gid: str, move: str, headers: dict[str, str]) -> Any:
    return client.post(f"/api/games/{gid}/moves", json={"move": move, "version": version_of(client, gid)},
                       headers=headers)


# ---------------------------------------------------------------- the Host allow-list


def test_a_foreign_host_is_refused(client: FlaskClient, game: dict[str, Any]) -> None:
    for base in ("http://evil.example", "http://attacker.example:8000"):
        answer = client.get(f"/api/games/{game['id']}", base_url=base)
        assert answer.status_code == 421 and answer.get_json()["error"]["type"] == "ForeignHost"
        assert client.get("/", base_url=base).status_code == 421
        assert client.post("/api/games", json={"players": ["A", "B"]}, base_url=base).status_code == 421
    for base in ("http://127.0.0.1:8000", "http://localhost", "http://[::1]:8000"):
        assert client.get(f"/api/games/{game['id']}", base_url=base).status_code == 200, base


def test_allowed_hosts_are_configurable(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "ALLOW_HOSTS": ("keydom.example",),
                      "PUBLIC_URL": "http://table.example:8000"})
    client = app.test_client()
    assert client.get("/api/games", base_url="http://keydom.example:8000").status_code == 200
    assert client.get("/api/games", base_url="http://table.example:8000").status_code == 200
    assert client.get("/api/games", base_url="http://other.example:8000").status_code == 421
    app.extensions["keydom_table"].close()


# ---------------------------------------------------------------- pairing with the table PIN


def lan_client(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update(LAN)
    return client


def test_an_unpaired_lan_device_gets_nothing(app: Flask, game: dict[str, Any]) -> None:
    lan = lan_client(app)
    for path in ("/api/games", f"/api/games/{game['id']}", f"/api/games/{game['id']}/seats", "/api/panel",
                 f"/camera/board?game={game['id']}"):
        answer = lan.get(path)
        assert answer.status_code == 401, path
        assert answer.get_json()["error"]["type"] == "NotPaired"
    created = lan.post("/api/games", json={"players": ["A", "B"]}, headers={"Origin": OWN})
    assert created.status_code == 401
    for page in ("/", f"/games/{game['id']}", "/data"):
        answer = lan.get(page)
        assert answer.status_code == 303 and answer.headers["Location"].startswith("/pair?next="), page
    assert lan.get("/pair").status_code == 200
    with lan.get("/static/favicon.svg") as icon:  # what the pairing page is drawn with
        assert icon.status_code == 200


def test_pairing_with_the_pin_opens_the_service_and_leads_on(app: Flask, game: dict[str, Any]) -> None:
    lan = lan_client(app)
    code = seats_of(app.test_client(), game["id"])[1]["page"]
    answer = lan.get(code)  # the seat's QR code, scanned by an unpaired phone
    assert answer.status_code == 303
    pairing = answer.headers["Location"]
    assert pairing.startswith("/pair?next=")
    assert lan.get(pairing).status_code == 200
    wrong = lan.post("/pair", data={"pin": "x", "next": code}, headers={"Origin": OWN})
    assert wrong.status_code == 401
    paired = lan.post("/pair", data={"pin": app.config["TABLE_PIN"], "next": code}, headers={"Origin": OWN})
    assert paired.status_code == 303 and paired.headers["Location"] == code
    cookie = paired.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Expires=" in cookie
    assert 'id="join-button"' in lan.get(code).get_data(as_text=True)  # on to the seat's join page
    claimed = lan.post(code, headers={"Origin": OWN})  # its button: the seat is this phone's
    assert claimed.status_code == 303 and "/seat/" in claimed.headers["Location"]
    assert lan.get(claimed.headers["Location"]).status_code == 200
    assert lan.get("/api/games").status_code == 200
    assert lan.post("/pair", data={"pin": app.config["TABLE_PIN"], "next": "//evil.example/x"},
                    headers={"Origin": OWN}).headers["Location"] == "/"  # never on to another site
    assert lan.post("/pair", data={"pin": app.config["TABLE_PIN"]}, headers={"Origin": FOREIGN}).status_code == 403


def test_pin_attempts_are_rate_limited(app: Flask) -> None:
    lan = lan_client(app)
    pin = app.config["TABLE_PIN"]
    wrong = "0" * 6 if pin != "0" * 6 else "1" * 6
    for _ in range(5):
        assert lan.post("/pair", data={"pin": wrong}, headers={"Origin": OWN}).status_code == 401
    waiting = lan.post("/pair", data={"pin": pin}, headers={"Origin": OWN})  # even the right PIN must wait
    assert waiting.status_code == 429 and 'data-problem="pair_wait"' in waiting.get_data(as_text=True)
    assert lan.get("/api/games").status_code == 401
    other = app.test_client()
    other.environ_base.update({"REMOTE_ADDR": "192.168.1.24"})  # another address is not held up
    assert other.post("/pair", data={"pin": pin}, headers={"Origin": OWN}).status_code == 303


def test_the_pin_and_key_are_kept_private_and_reset_unpairs(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    pin = app.config["TABLE_PIN"]
    assert len(pin) == 6 and pin.isdigit()
    for name in ("pin", "secret_key"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600
    lan = lan_client(app)
    assert lan.post("/pair", data={"pin": pin}, headers={"Origin": OWN}).status_code == 303
    assert lan.get("/api/games").status_code == 200
    app.extensions["keydom_table"].close()
    same = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    assert same.config["TABLE_PIN"] == pin  # kept across restarts
    same.extensions["keydom_table"].close()
    reset = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "RESET_PIN": True})
    still = reset.test_client()
    still.environ_base.update(LAN)
    cookie = lan.get_cookie("keydom_paired")
    assert cookie is not None
    still.set_cookie("keydom_paired", cookie.value)
    assert still.get("/api/games").status_code == 401  # the old pairing no longer holds
    reset.extensions["keydom_table"].close()


def test_loopback_needs_no_pairing(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.get("/api/games").status_code == 200
    assert post_move(client, game["id"], offered(client, game["id"])[0]).status_code in (200, 422)


@pytest.mark.parametrize("address", ["::1", "127.0.0.5", "::ffff:127.0.0.1"])
def test_every_loopback_form_is_local(app: Flask, address: str) -> None:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": address})
    assert client.get("/api/games").status_code == 200
