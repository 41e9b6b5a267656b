"""An independent tester's attacks on the service (docs/security.md, docs/api.md): each was a 500, a leak or a way
round the rules before it was fixed. Every refused request gets a clear 4xx and changes nothing stored."""

from __future__ import annotations

import ast
import io
import json
import re
import socket
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from companion.core.messages import Message, catalogs, render
from tests.web.apikit import claim_seat, english, offered, version_of
from tests.web.conftest import serving
from tests.web import test_fuzz
from tests.web.test_fuzz import Fuzzer, game_ids, stored
from web import api, create_app
from web.camera import get_camera
from web.messages import add_web_catalogs
from web.table import get_table


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CAMERA": "samples", "CAMERA_THREAD": False,
                      "STREAM_HEARTBEAT_SECONDS": 0.05})
    yield app
    with app.app_context():
        get_camera().close()
    app.extensions["keydom_table"].close()


def new_game(client: FlaskClient, name: str, players: int = 3) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": name, "players": ["Ann", "Bo", "Cy", "Di"][:players]})
    assert answer.status_code == 201, answer.get_json()
    game: dict[str, Any] = answer.get_json()
    return game


def refused_cleanly(answer: Any, status: int = 400) -> dict[str, Any]:
    """The JSON error of a refusal with ``status`` and a reason."""
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True)[:300])
    error: dict[str, Any] = answer.get_json()["error"]
    assert error["reason"]
    return error


# ---------------------------------------------------------------- numbers in other scripts' digits


@pytest.mark.parametrize("digits", ["²", "١٢", "１", "9" * 5000])
def test_a_version_in_other_digits_is_a_clear_400_and_plays_nothing(app: Flask, tmp_path: Path, digits: str) -> None:
    """str.isdigit() is true for "²" and "١٢", which int() refuses or reads: a version is ASCII digits only."""
    client = app.test_client()
    game = new_game(client, "key-harvest")
    before = stored(tmp_path)
    move = offered(client, game["id"])[0]
    refused_cleanly(client.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": digits}))
    refused_cleanly(client.post(f"/api/games/{game['id']}/moves", json={"move": move}, headers={"If-Match": digits}))
    refused_cleanly(client.post(f"/api/games/{game['id']}/undo", json={"version": digits}))
    assert stored(tmp_path) == before


@pytest.mark.parametrize("seat", ["²", "١", "9" * 5000])
def test_a_camera_seat_in_other_digits_is_a_clear_400(app: Flask, seat: str) -> None:
    client = app.test_client()
    game = new_game(client, "key-harvest")
    token = claim_seat(client, game["id"], 0)["url"].rsplit("/", 1)[1]
    for path in (f"/camera/station?game={game['id']}&seat={seat}",
                 f"/camera/board?game={game['id']}&seat={seat}&token={token}"):
        error = refused_cleanly(client.get(path))
        assert error["message"]["id"] == "core.camera.bad_seat"


# ---------------------------------------------------------------- bodies nested past the parser's depth


JSON_ROUTES = [("POST", "/api/games/{id}/moves"), ("POST", "/api/games/{id}/undo"), ("POST", "/api/games"),
               ("POST", "/api/games/{id}/score"), ("PUT", "/api/data/la-granja"),
               ("PUT", "/api/data/la-granja/cards"), ("POST", "/api/panel/press"), ("POST", "/api/panel/choice"),
               ("POST", "/api/panel/follow"), ("POST", "/camera/station/scan"),
               ("POST", "/api/games/{id}/private/{token}/moves")]


@pytest.mark.parametrize(("method", "route"), JSON_ROUTES)
def test_a_body_nested_too_deep_is_a_clear_400_and_changes_nothing(app: Flask, tmp_path: Path, method: str,
                                                                   route: str) -> None:
    """200 kB of brackets: Python's JSON parser gives up with a RecursionError, which is not a ValueError."""
    client = app.test_client()
    game = new_game(client, "key-harvest")
    token = claim_seat(client, game["id"], 0)["url"].rsplit("/", 1)[1]
    before = stored(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    answer = client.open(route.format(id=game["id"], token=token), method=method, data=deep,
                         content_type="application/json")
    refused_cleanly(answer)
    assert stored(tmp_path) == before


# ---------------------------------------------------------------- bodies sent in chunks


OVER_LIMIT = b'{"players": ["Ann", "Bo"], "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
"""2 MB of JSON that would be a good request but for its length."""
CHUNKED_ROUTES = [("POST", "/api/games"), ("POST", "/api/games/{id}/moves"), ("PUT", "/api/data/la-granja"),
                  ("POST", "/api/games/{id}/seats/0/reissue"), ("POST", "/api/games/{id}/join/{code}"),
                  ("DELETE", "/api/games/{id}"), ("POST", "/camera/station/scan")]
"""Routes that read their body, and routes that never read it (reissue, join, delete): the limit holds for both."""


def chunked(client: FlaskClient, method: str, path: str, body: bytes) -> Any:
    """``body`` sent as a server hands on a ``Transfer-Encoding: chunked`` request: no Content-Length."""
    return client.open(path, method=method, input_stream=io.BytesIO(body),
                       headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"})


@pytest.mark.parametrize(("method", "route"), CHUNKED_ROUTES)
def test_a_chunked_body_over_the_limit_is_a_json_413_and_changes_nothing(app: Flask, tmp_path: Path, method: str,
                                                                         route: str) -> None:
    """Without a Content-Length the limit was never checked and the body was read as empty: a 400 that named the
    wrong problem, and the routes that do not read their body acted on the request."""
    client = app.test_client()
    game = new_game(client, "key-harvest")
    code = client.get(f"/api/games/{game['id']}/seats").get_json()["seats"][0]["page"].rsplit("/", 1)[1]
    before = stored(tmp_path), client.get(f"/api/games/{game['id']}/seats").get_json()
    error = refused_cleanly(chunked(client, method, route.format(id=game["id"], code=code), OVER_LIMIT), 413)
    assert error["type"] == "RequestEntityTooLarge" and error["message"]["id"] == "web.http.too_large"
    assert (stored(tmp_path), client.get(f"/api/games/{game['id']}/seats").get_json()) == before


def test_a_chunked_body_within_the_limit_is_read(app: Flask) -> None:
    """A client that streams a small request (no Content-Length) is served like any other; it was read as empty."""
    client = app.test_client()
    answer = chunked(client, "POST", "/api/games", b'{"players": ["Ann", "Bo"]}')
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["players"] == ["Ann", "Bo"]


def chunks(body: bytes, size: int = 65536) -> bytes:
    """``body`` in HTTP/1.1 chunked framing."""
    framed = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size]) for i in range(0, len(body), size))
    return framed + b"0\r\n\r\n"


def read_answer(conn: socket.socket) -> tuple[bytes, bytes]:
    """The status line and body of the next answer on ``conn`` (a body of Content-Length bytes)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += conn.recv(65536) or pytest.fail(f"the server closed the connection: {answer[:200]!r}")
    head, _, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length: *(\d+)", head)
    assert length is not None, head
    while len(body) < int(length.group(1)):
        body += conn.recv(65536) or pytest.fail("the server closed the connection")
    return head.split(b"\r\n", 1)[0], body


def test_the_real_server_refuses_a_chunked_body_over_the_limit(tmp_path: Path) -> None:
    """What `companion serve` (uvicorn, the Flask app behind a2wsgi) does with a chunked body: over the limit a JSON
    413 that changes nothing, and the connection serves the next request; within the limit, the request served."""
    with serving(tmp_path) as (port, _), socket.create_connection(("127.0.0.1", port), timeout=15) as conn:
        def post(body: bytes) -> tuple[bytes, bytes]:
            conn.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n".encode() + chunks(body))
            return read_answer(conn)

        status, body = post(OVER_LIMIT)
        assert status.startswith(b"HTTP/1.1 413 "), (status, body[:200])
        error = json.loads(body)["error"]
        assert error["type"] == "RequestEntityTooLarge" and "at most 1048576" in error["reason"]
        assert game_ids(tmp_path) == []
        status, body = post(b'{"players": ["Ann", "Bo"]}')
        assert status.startswith(b"HTTP/1.1 201 "), (status, body[:200])
        assert [game for _, game in game_ids(tmp_path)] == ["key-harvest"]
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


# ---------------------------------------------------------------- the pairing page's way on


@pytest.mark.parametrize("target", ["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/\\evil.example",
                                    "/\u00a0/evil.example", "//evil.example", "https://evil.example"])
def test_pairing_never_leads_to_another_site(app: Flask, target: str) -> None:
    """Browsers drop tabs and newlines from a URL: "/<TAB>/evil.example" is "//evil.example", another site."""
    client = app.test_client()
    lan = {"REMOTE_ADDR": "192.168.1.40"}
    pin = app.config["TABLE_PIN"]
    answer = client.post("/pair", data={"pin": pin, "next": target}, environ_base=lan)
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/"
    again = client.get("/pair", query_string={"next": target}, environ_base=lan)  # already paired: straight on
    assert again.status_code == 303 and again.headers["Location"] == "/"


def test_pairing_still_leads_on_to_a_page_of_this_site(app: Flask) -> None:
    client = app.test_client()
    answer = client.post("/pair", data={"pin": app.config["TABLE_PIN"], "next": "/games/abc/join/0f?x=1"},
                         environ_base={"REMOTE_ADDR": "192.168.1.40"})
    assert answer.headers["Location"] == "/games/abc/join/0f?x=1"


# ---------------------------------------------------------------- the panel's input


def test_the_panels_move_and_version_are_bounded_like_the_apis(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client, "key-harvest")
    refused_cleanly(client.post("/api/panel/choice", json={"move": "x" * 100_000, "game": game["id"]}))
    assert client.get("/api/panel").get_json()["choice"] is None  # nothing kept, nothing sent to the panel streams
    for version in (10**4000, -1, 2**63):
        refused_cleanly(client.post("/api/panel/press", json={"button": "OK", "version": version, "game": game["id"]}))


# ---------------------------------------------------------------- moves from behind a screen on the shared table


def private_move(app: Flask, game_id: str, seed: int) -> tuple[int, str]:
    """Play random legal moves until the decider may make a move the shared table is not offered (a card from the
    hand, goods from behind the screen): that seat and move."""
    rng = random.Random(seed)
    with app.app_context():
        session = get_table().session(game_id)
        game = session.game
        for _ in range(400):
            state = session.state
            who = game.current_player(state)
            assert who != TERMINAL
            if who not in (CHANCE, SIMULTANEOUS):
                public = {str(m) for m in game.public_moves(state)}
                hidden = [str(m) for m in game.legal_moves(state) if str(m) not in public]
                if hidden:
                    return who, rng.choice(hidden)
            session.play(rng.choice(game.legal_moves(state)), session.version)
    raise AssertionError("no private move came up")


@pytest.mark.parametrize("name", ["la-granja", "key-market"])
def test_the_shared_table_cannot_play_a_move_made_from_behind_a_screen(app: Flask, tmp_path: Path, name: str) -> None:
    """La Granja's cards from the hand and Key Market's payments from behind the screen are made on the seat's own
    page (docs/api.md): played from the table, a legal one was applied, an illegal one refused; so the table could
    try cards until one was taken and learn the hand. Both are now refused alike and change nothing."""
    client = app.test_client()
    game = new_game(client, name)
    seat, move = private_move(app, game["id"], 5)
    version = version_of(client, game["id"])
    before = stored(tmp_path)
    error = refused_cleanly(client.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": version}),
                            422)
    assert error["rule"] == "SCREEN"
    # chosen from an older version it is stale like any move (a 422 here, and a 409 for one not legal, told which)
    refused_cleanly(client.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": version - 1}), 409)
    assert stored(tmp_path) == before
    mine = claim_seat(client, game["id"], seat)["url"]
    assert client.post(f"{mine}/moves", json={"move": move, "version": version}).status_code == 200


# ---------------------------------------------------------------- the draws are the companion's


@pytest.fixture
def draw_by_button(tmp_path: Path) -> Iterator[Flask]:
    (tmp_path / "panel.json").write_text(json.dumps({"draw_by_button": True}))
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CAMERA": "off"})
    yield app
    app.extensions["keydom_table"].close()


def test_no_device_chooses_what_is_drawn(draw_by_button: Flask, tmp_path: Path) -> None:
    """With the panel's DRAW button (draw_by_button), the game waits at each draw: the tablet or a seat's phone
    naming the outcome ("draw A6") chose which tile came out of the bag. Only the DRAW button draws."""
    app = draw_by_button
    client = app.test_client()
    game = new_game(client, "key-harvest")
    rng = random.Random(2)
    with app.app_context():
        session = get_table().session(game["id"])
        while session.game.current_player(session.state) != CHANCE:
            session.play(rng.choice(session.game.legal_moves(session.state)), session.version)
        outcome = str(session.game.chance_outcomes(session.state)[-1][0])
    seat = claim_seat(client, game["id"], 0)["url"]
    version = version_of(client, game["id"])
    before = stored(tmp_path)
    for url in (f"/api/games/{game['id']}/moves", f"{seat}/moves"):
        error = refused_cleanly(client.post(url, json={"move": outcome, "version": version}), 422)
        assert error["rule"] == "CHANCE"
    assert stored(tmp_path) == before
    pressed = client.post("/api/panel/press", json={"button": "DRAW", "game": game["id"], "version": version})
    assert pressed.get_json()["result"]["ok"] is True and version_of(client, game["id"]) > version


# ---------------------------------------------------------------- what the table may score


def test_key_market_scores_entered_screens_only_when_every_screen_is_given(app: Flask, tmp_path: Path) -> None:
    """Before the end, an entry leaving out "gold" or "goods" kept the companion's count of what is behind that
    screen, so the tablet read every player's gold and goods off the totals."""
    client = app.test_client()
    game = new_game(client, "key-market")
    private_move(app, game["id"], 3)  # some way into the game: the screens differ
    for hidden in ([{}, {}, {}], [{"gold": 0}, {"gold": 0}, {"gold": 0}], [{"goods": {}}] * 3):
        error = refused_cleanly(client.post(f"/api/games/{game['id']}/score", json={"hidden": hidden}))
        assert english(error["message"]).startswith("before the end, give every player's screen")
    whole = client.post(f"/api/games/{game['id']}/score", json={"hidden": [{"gold": 0, "goods": {}}] * 3})
    assert whole.status_code == 200 and [row["gold"] for row in whole.get_json()["players"]] == [0, 0, 0]


# ---------------------------------------------------------------- the camera's seat credential


def test_the_camera_refuses_a_seats_board_without_its_link_alike_and_in_words(app: Flask) -> None:
    """A missing, a made-up and another seat's link are all 403 (docs/security.md), with a message the page shows
    in the player's language (a made-up link was a 404 and the refusals were English text only)."""
    client = app.test_client()
    game = new_game(client, "key-harvest")
    bobs = claim_seat(client, game["id"], 1)["url"].rsplit("/", 1)[1]
    for token, expected in (("", "web.camera.seat_link_needed"), ("0" * 32, "web.camera.seat_link_other"),
                            (bobs, "web.camera.seat_link_other")):
        error = refused_cleanly(client.get(f"/camera/board?game={game['id']}&seat=0&token={token}"), 403)
        assert error["message"]["id"] == expected
        if token:
            assert render(Message.from_json(error["message"]), "de").startswith("Diese private Seite gehört nicht Ann")


# ---------------------------------------------------------------- the real server's streams


def raw_status(port: int, request: bytes) -> bytes:
    """The status line the real server answers to the bytes of ``request``."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as conn:
        conn.sendall(request)
        return conn.recv(4096).split(b"\r\n", 1)[0]


def test_a_stream_with_a_cookie_that_is_not_utf8_is_refused_not_a_500(tmp_path: Path) -> None:
    """The streams are served on uvicorn's loop, past Flask: a Cookie header of bytes that are not UTF-8 (any page
    can be sent one by a broken client) made the stream a 500 before any check ran."""
    with serving(tmp_path, "--lan-test") as (port, _):
        for path in ("/api/games/x/stream", "/api/panel/stream"):
            status = raw_status(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
                                + b"Cookie: keydom_paired=\xff\xfe\r\n\r\n")
            assert status == b"HTTP/1.1 401 Unauthorized", status  # no pairing read from it: like no cookie
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


# ---------------------------------------------------------------- images sent to the camera


def test_images_sent_to_the_camera_are_refused_in_json(app: Flask, tmp_path: Path) -> None:
    """The camera reads its own source only: no route takes an image. One sent anyway (too big, corrupt, to a
    route that only reads) gets a JSON refusal the camera page can show, never an HTML error page."""
    client = app.test_client()
    game = new_game(client, "key-harvest")
    before = stored(tmp_path)
    jpeg = b"\xff\xd8\xff\xe0" + bytes(random.Random(1).getrandbits(8) for _ in range(4000))
    big = refused_cleanly(client.post(f"/camera/station/scan?game={game['id']}", data=jpeg * 600,
                                      content_type="image/jpeg"), 413)
    assert big["type"] == "RequestEntityTooLarge"
    corrupt = refused_cleanly(client.post(f"/camera/station/scan?game={game['id']}", data=jpeg,
                                          content_type="image/jpeg"))
    assert corrupt["message"]["id"] == "core.camera.scan_empty"
    for path in ("/camera/board", "/camera/table", "/camera/frame.jpg"):
        refused_cleanly(client.post(path, data=jpeg, content_type="image/jpeg"), 405)
    assert stored(tmp_path) == before


# ---------------------------------------------------------------- the fuzzer over every game


class EveryGameFuzzer(Fuzzer):
    """tests/web/test_fuzz.py's fuzzer with a live game of each of the four games (it keeps Key Harvest and La
    Granja only), numbers in other scripts' digits and bodies nested past the parser's depth."""

    GAMES = ("key-harvest", "la-granja", "keyper", "key-market")

    def live_games(self) -> list[str]:
        kinds = {game for _, game in game_ids(self.data_dir)}
        for name in self.GAMES:
            if name not in kinds:
                assert self.client.post("/api/games", json={"game": name, "players": ["Al", "Bo", "Cy"]}).status_code == 201
        return super().live_games()

    def body(self, path: str) -> tuple[bytes | None, str]:
        if self.rng.random() < 0.1:
            return self.rng.choice([b"[" * 50_000 + b"]" * 50_000, b'{"version": "\xc2\xb2", "move": "end"}',
                                    b'{"payload": "' + "١٢".encode() + b'"}']), "application/json"
        return super().body(path)


def test_fuzzed_requests_on_every_game_are_refused_cleanly_and_change_nothing(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_fuzz, "Fuzzer", EveryGameFuzzer)
    monkeypatch.setattr(test_fuzz, "REQUESTS", 2500)
    monkeypatch.setattr(test_fuzz, "SEED", 16)
    monkeypatch.setattr(test_fuzz, "ODD_TEXT", [*test_fuzz.ODD_TEXT, "²", "١٢", "９" * 3])
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CAMERA": "samples", "CAMERA_THREAD": False,
                      "STREAM_HEARTBEAT_SECONDS": 0.01})
    with app.app_context():
        get_camera().step()
    try:
        test_fuzz.test_fuzzed_requests_are_refused_cleanly_and_change_nothing(app, tmp_path)
    finally:
        with app.app_context():
            get_camera().close()
        app.extensions["keydom_table"].close()


# ---------------------------------------------------------------- guessing the PIN from many addresses


def test_pin_guesses_from_one_ipv6_network_share_one_limit(app: Flask) -> None:
    """A phone on an IPv6 network may take any of 2**64 addresses of its /64 (privacy addresses): counted per address,
    it could guess the 6-digit PIN at 5 tries per address. The attempts are counted per /64."""
    pin = app.config["TABLE_PIN"]
    wrong = "0" * 6 if pin != "0" * 6 else "1" * 6
    for n in range(1, 6):
        guess = app.test_client().post("/pair", data={"pin": wrong}, environ_base={"REMOTE_ADDR": f"2001:db8:1:2::{n}"})
        assert guess.status_code == 401
    held = app.test_client().post("/pair", data={"pin": pin}, environ_base={"REMOTE_ADDR": "2001:db8:1:2:abcd::9"})
    assert held.status_code == 429
    other = app.test_client().post("/pair", data={"pin": pin}, environ_base={"REMOTE_ADDR": "2001:db8:1:3::1"})
    assert other.status_code == 303  # another network is not held up; nor is an IPv4 address (test_security.py)


# ---------------------------------------------------------------- every refusal is a message


def web_messages() -> dict[str, set[str]]:
    """Every ``msg("web....", ...)`` written in web/*.py, with the parameters it is given."""
    found: dict[str, set[str]] = {}
    for path in (Path(__file__).parents[2] / "web").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "msg" and node.args
                    and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("web.")):
                found[str(node.args[0].value)] = {k.arg for k in node.keywords if k.arg}
    return found | {key: {"code"} for key in api.HTTP_MESSAGES.values()} | {"web.http.error": {"code"}}


def test_every_web_message_is_in_english_and_german_with_the_same_placeholders() -> None:
    add_web_catalogs()
    english, german = catalogs()["en"].messages, catalogs()["de"].messages
    written = web_messages()
    assert len(written) >= 20
    for key, given in written.items():
        assert key in english and key in german, key
        assert set(re.findall(r"\{(\w+)\}", english[key])) == set(re.findall(r"\{(\w+)\}", german[key])) <= given, key
        assert english[key] != german[key], key


@pytest.mark.parametrize(("method", "path", "body", "headers", "status"), [
    ("POST", "/api/games", "[]", {}, 400),
    ("POST", "/api/games", '{"players": "Al,Bo"}', {}, 400),
    ("POST", "/api/games/{id}/moves", '{"move": "end"}', {}, 428),
    ("POST", "/api/games/{id}/moves", '{"move": "end", "version": 1.5}', {}, 400),
    ("POST", "/api/panel/press", '{"button": "FIRE"}', {}, 400),
    ("POST", "/api/games/{id}/moves", '{"move": "end", "version": 0}', {"Origin": "http://evil.example"}, 403),
    ("GET", "/api/games", None, {"Host": "evil.example"}, 421),
    ("GET", "/api/no/such/route", None, {}, 404),
    ("DELETE", "/api/games", None, {}, 405),
    ("POST", "/camera/station/scan", "x" * 2_000_000, {}, 413),
])
def test_every_refusal_is_a_message_the_page_shows_in_its_language(app: Flask, method: str, path: str,
                                                                   body: str | None, headers: dict[str, str],
                                                                   status: int) -> None:
    client = app.test_client()
    game = new_game(client, "key-harvest")
    answer = client.open(path.format(id=game["id"]), method=method, data=body, headers=headers,
                         content_type="application/json" if body is not None else None)
    error = refused_cleanly(answer, status)
    german = render(Message.from_json(error["message"]), "de")
    assert german and german != render(Message.from_json(error["message"]), "en") and "web." not in german


# ---------------------------------------------------------------- data packs a game cannot be played on


@pytest.mark.parametrize(("name", "path", "value"), [
    ("keyper", ("fairs", "private"), []),  # no private fair to deal: every new game was a 500
    ("la-granja", ("prices", "sell", "olive"), -1),  # games got stuck with no legal move
    ("la-granja", ("farm", "extra_deliveries"), -1),
    ("key-market", ("season_board", "round"), -1),  # a move then crashed inside the rules
    ("key-market", ("season_board", "winter"), -1),
])
def test_a_data_pack_no_game_can_be_played_on_is_refused_and_changes_nothing(app: Flask, tmp_path: Path, name: str,
                                                                              path: tuple[str, ...],
                                                                              value: Any) -> None:
    """Accepted by /data, these packs broke every new game later. The loader refuses them with the reason."""
    client = app.test_client()
    pack = client.get(f"/api/data/{name}").get_json()["data"]
    where = pack
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    before = stored(tmp_path), sorted(p.name for p in tmp_path.iterdir())
    refused_cleanly(client.put(f"/api/data/{name}", json=pack))
    refused_cleanly(client.put(f"/api/data/{name}/{path[0]}", json=pack[path[0]]))
    assert (stored(tmp_path), sorted(p.name for p in tmp_path.iterdir())) == before
    assert client.post("/api/games", json={"game": name, "players": ["Ann", "Bo", "Cy", "Di"]}).status_code == 201


# ---------------------------------------------------------------- a seat's link acts for its seat only


@pytest.mark.parametrize("name", ["la-granja", "keyper", "key-market"])
def test_a_seats_link_cannot_make_another_seats_secret_choice(app: Flask, tmp_path: Path, name: str) -> None:
    """At a simultaneous secret choice (La Granja's donkeys, Keyper's folds, Key Market's payment and Market Day)
    each seat chooses on its own page: one seat's link sending another seat's choice is refused (rule SEAT)."""
    client = app.test_client()
    game = new_game(client, name)
    rng = random.Random(7)
    with app.app_context():
        session = get_table().session(game["id"])
        state = session.state
        while session.game.current_player(state) != SIMULTANEOUS or len(session.game.deciders(state)) < 2:
            assert session.game.current_player(state) != TERMINAL
            session.play(rng.choice(session.game.legal_moves(state)), session.version)
            state = session.state
        mine, other = session.game.deciders(state)[:2]
        theirs = next(str(m) for m in session.game.legal_moves(state) if session.game.seat_of(state, m) == other)
    version = version_of(client, game["id"])
    before = stored(tmp_path)
    error = refused_cleanly(client.post(f"{claim_seat(client, game['id'], mine)['url']}/moves",
                                        json={"move": theirs, "version": version}), 422)
    assert error["rule"] == "SEAT"
    assert stored(tmp_path) == before
    assert client.post(f"{claim_seat(client, game['id'], other)['url']}/moves",
                       json={"move": theirs, "version": version}).status_code == 200


@pytest.mark.parametrize("name", ["keyper", "key-market"])
def test_a_whole_table_the_camera_does_not_read_is_refused_in_words(app: Flask, name: str) -> None:
    client = app.test_client()
    game = new_game(client, name)
    error = refused_cleanly(client.get(f"/camera/table?game={game['id']}"))
    assert error["message"]["id"] == "web.camera.no_table_read"
    assert render(Message.from_json(error["message"]), "de").startswith("Die Kamera liest keinen ganzen")
