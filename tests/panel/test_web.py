"""The virtual panel through the web service: presses, the lights' state, the live stream, back ends."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory

from companion.core.errors import MalformedInputError
from companion.session import Session
from web import create_app
from tests.web.apikit import post_move


def make_app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "STREAM_HEARTBEAT_SECONDS": 0.05, **config})


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    (tmp_path / "panel.json").write_text(json.dumps({"draw_by_button": True}))
    app = make_app(tmp_path)
    yield app
    app.extensions["keydom_panel"].close()
    app.extensions["keydom_table"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def new_game(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"players": [{"name": "Alice", "colour": "#ff0000"},
                                                          {"name": "Bob", "colour": "#0000ff"}]})
    assert response.status_code == 201
    game: dict[str, Any] = response.get_json()
    return game


def press(client: FlaskClient, button: str, kind: str = "press") -> dict[str, Any]:
    response = client.post("/api/panel/press", json={"button": button, "kind": kind})
    assert response.status_code == 200
    data: dict[str, Any] = response.get_json()
    return data


def test_the_panel_follows_a_new_game_and_its_lights_show_the_turn(client: FlaskClient) -> None:
    assert client.get("/api/panel").get_json()["game"] is None
    game = new_game(client)
    state = client.get("/api/panel").get_json()
    assert state["game"] == game["id"]
    mover = game["to_move"]
    seats = state["lights"]["seats"]
    assert seats[mover] == ["#ff0000", "#0000ff"][mover]
    assert seats[1 - mover] != seats[mover]  # dim


def test_draw_by_button_refills_the_office_through_the_api(app: Flask, client: FlaskClient) -> None:
    """With "draw_by_button" in panel.json the game waits for DRAW after a land office tile leaves."""
    table = app.extensions["keydom_table"]
    gid = Session.new(table.store, "key-harvest", ["Alice", "Bob"], seed="draw-button").id  # known draws
    session = table.session(gid)  # opened by the service: the panel follows it
    bid = next(str(m) for m in session.game.legal_moves(session.state) if str(m).startswith("bid "))
    assert post_move(client, gid, bid).status_code == 200
    while client.get(f"/api/games/{gid}").get_json()["to_move"] != "chance":
        post_move(client, gid, "done")
    assert None in client.get(f"/api/games/{gid}").get_json()["view"]["land_office"]
    assert client.get("/api/panel").get_json()["lights"]["status"] == "draw"
    result = press(client, "DRAW")
    assert result["result"]["ok"], result
    assert re.fullmatch(r"take field tile \w+ \(\w+\) from the box into the land office",
                        result["result"]["text"])
    assert None not in client.get(f"/api/games/{gid}").get_json()["view"]["land_office"]
    assert result["panel"]["lights"]["status"] == "ready"


def test_undo_puts_a_button_draw_back_and_draw_gives_it_again(app: Flask, client: FlaskClient) -> None:
    """UNDO held after DRAW refilled the land office takes back the last move and the tile, naming the tile; the
    move played again, DRAW gives the same tile (R-D5: an undo never draws anew)."""
    table = app.extensions["keydom_table"]
    gid = Session.new(table.store, "key-harvest", ["Alice", "Bob"], seed="draw-undo").id
    session = table.session(gid)
    bid = next(str(m) for m in session.game.legal_moves(session.state) if str(m).startswith("bid "))
    played = [bid]
    assert post_move(client, gid, bid).status_code == 200
    while client.get(f"/api/games/{gid}").get_json()["to_move"] != "chance":
        post_move(client, gid, "done")
        played.append("done")
    drawn = press(client, "DRAW")["result"]["text"]
    held = press(client, "UNDO", "hold")["result"]
    assert held["ok"] and held["text"].endswith(f"put back what was drawn: {drawn} (it comes out again at the next draw)")
    assert post_move(client, gid, played[-1]).status_code == 200
    assert press(client, "DRAW")["result"]["text"] == drawn


def english(result: dict[str, Any]) -> dict[str, Any]:
    """A press's result as the English panel writes it (``message``, the same as data, left out)."""
    return {key: value for key, value in result.items() if key != "message"}


def test_a_refused_press_says_why_and_changes_nothing(client: FlaskClient) -> None:
    game = new_game(client)
    before = client.get(f"/api/games/{game['id']}").get_json()["log"]
    result = press(client, "DRAW")
    assert english(result["result"]) == {"ok": False, "button": "DRAW",
                                "text": f"nothing waits for a draw now: it is {game['players'][game['to_move']]}'s turn"}
    assert result["panel"]["lights"]["status"] == "error"
    assert client.get(f"/api/games/{game['id']}").get_json()["log"] == before


def test_undo_from_the_virtual_panel_needs_the_hold(client: FlaskClient) -> None:
    game = new_game(client)
    post_move(client, game["id"], "end")
    short = press(client, "UNDO")
    assert short["result"]["ok"] and "keep holding UNDO" in short["result"]["text"]
    assert client.get(f"/api/games/{game['id']}").get_json()["to_move"] != game["to_move"]
    held = press(client, "UNDO", "hold")
    starter = game["players"][game["to_move"]]  # the first player is drawn
    assert english(held["result"]) == {"ok": True, "button": "UNDO", "text": f"took back: {starter}: End your turn"}
    assert client.get(f"/api/games/{game['id']}").get_json()["to_move"] == game["to_move"]


def test_ok_plays_the_move_chosen_on_the_tablet(client: FlaskClient) -> None:
    game = new_game(client)
    assert press(client, "OK")["result"]["text"] == "choose a move on the tablet first, then press OK"
    chosen = client.post("/api/panel/choice", json={"move": "end"}).get_json()
    assert chosen["choice"] == "end"
    assert press(client, "OK")["result"]["ok"]
    assert client.get(f"/api/games/{game['id']}").get_json()["to_move"] == 1 - game["to_move"]
    assert client.get("/api/panel").get_json()["choice"] is None


def test_malformed_presses_are_refused(client: FlaskClient) -> None:
    assert client.post("/api/panel/press", json={"button": "JUMP"}).status_code == 400
    assert client.post("/api/panel/press", json={"button": "DRAW", "kind": "tap"}).status_code == 400
    assert client.post("/api/panel/press", data="x").status_code == 415  # not JSON: refused (docs/security.md)
    missing = client.post("/api/panel/press", json={"button": "DRAW", "game": "nope"})
    assert missing.status_code == 404


def test_the_stream_sends_the_panel_state(client: FlaskClient) -> None:
    new_game(client)
    response = client.get("/api/panel/stream")
    first = next(response.response)  # type: ignore[call-overload]
    text = first.decode() if isinstance(first, bytes) else first
    assert text.startswith("event: panel\n")
    assert json.loads(text.split("data: ", 1)[1])["lights"]["status"] == "ready"
    response.close()


def test_the_virtual_panel_pages(client: FlaskClient) -> None:
    game = new_game(client)
    page = client.get(f"/games/{game['id']}/panel")
    assert page.status_code == 200 and b'id="virtual-panel"' in page.data and b"js/panel.js" in page.data
    assert client.get("/panel").status_code == 200
    assert client.get("/games/nope/panel").status_code == 404
    script = client.get("/static/js/panel.js")
    assert script.status_code == 200 and b"/api/panel/press" in script.data
    script.close()


def test_gpio_and_a_missing_serial_port_alongside_the_virtual_panel(tmp_path: Path) -> None:
    from gpiozero.pins.mock import MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    app = make_app(tmp_path, PANEL="gpio,serial:/dev/ttyKEYDOM-missing", PANEL_PIN_FACTORY=factory)
    try:
        client = app.test_client()
        game = new_game(client)
        state = client.get("/api/panel").get_json()
        assert [p["panel"] for p in state["panels"]] == ["simulated", "gpio", "serial"]
        status = factory.pin(9), factory.pin(10), factory.pin(11)  # the status RGB LED: green = ready
        assert [round(p.state * 255) for p in status] == [0, 170, 40]
        assert game["id"] == state["game"]
    finally:
        app.extensions["keydom_panel"].close()
        app.extensions["keydom_table"].close()
        factory.reset()


def test_gpio_off_a_pi_is_reported_and_the_rest_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import web.panel

    def no_gpio(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no GPIO chip found")

    monkeypatch.setattr(web.panel, "GpioPanel", no_gpio)
    app = make_app(tmp_path, PANEL="gpio")
    try:
        state = app.test_client().get("/api/panel").get_json()
        assert state["problems"] == ["the gpio panel could not start: no GPIO chip found"]
        assert [p["panel"] for p in state["panels"]] == ["simulated"]
    finally:
        app.extensions["keydom_panel"].close()
        app.extensions["keydom_table"].close()


def test_an_unknown_panel_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MalformedInputError, match="unknown panel 'usb'"):
        make_app(tmp_path, PANEL="usb")


def test_serve_closes_the_panel_on_sigterm(tmp_path: Path) -> None:
    """`systemctl stop` sends SIGTERM: the service exits normally, so atexit closes the panel's devices."""
    import signal
    import subprocess
    import sys
    import time

    from firmware_bridge.sim import BoardSimulator

    with BoardSimulator(leds=62, buttons=5).start() as board:
        process = subprocess.Popen([sys.executable, "-c", "from web.cli import main; main()", "serve", "--port", "0",
                                    "--data", str(tmp_path), "--panel", f"serial:{board.url}"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 20
            while not board.firmware.greeted:  # the service has started and greeted the board
                assert time.monotonic() < deadline and process.poll() is None, "the service did not start"
                time.sleep(0.05)
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=10) == 0  # a normal exit (atexit ran), not killed by the signal (-15)
            assert process.stdout is not None
            process.stdout.close()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_a_secret_choice_is_refused_as_oks_move_and_shown_nowhere(app: Flask, client: FlaskClient) -> None:
    """Key Market's farmhouse payment (spec 2.2) is made on each player's own page: the panel's choice refuses it
    (400, the reason) and no panel shows it; DRAW reveals the payments once all are made."""
    from tests.panel.test_game_signals import drive

    table = app.extensions["keydom_table"]
    gid = Session.new(table.store, "key-market", ["Alice", "Bob", "Cara"], seed="secret-choice").id
    session = table.session(gid)
    drive(session, lambda s: s.state.stage == "pay")
    pay = next(str(m) for m in session.game.legal_moves(session.state) if str(m).startswith("pay "))
    events: list[dict[str, Any]] = []
    app.extensions["keydom_panel"].controller.listen(events.append)
    answer = client.post("/api/panel/choice", json={"move": pay, "game": gid})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"]["id"] == "core.refuse.secret_choice"
    state = client.get("/api/panel").get_json()
    assert state["choice"] is None and pay not in json.dumps(state) and pay not in json.dumps(events)
    for seat in session.game.deciders(session.state):
        move = next(m for m in session.game.legal_moves(session.state) if session.game.seat_of(session.state, m) == seat)
        session.play(move, seat=seat)
    assert client.get("/api/panel").get_json()["lights"]["status"] == "draw"
    result = press(client, "DRAW")
    assert result["result"]["ok"] and session.state.stage == "farming"
