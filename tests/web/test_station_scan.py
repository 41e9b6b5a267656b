"""The scan station without the camera: a code's text typed into the station's field (or typed there by a scanner
plugged into the tablet) or read by the Pi's hand-held USB scanner names the piece and offers the moves that
mention it; codes the companion did not print are refused in the reader's language."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.core.messages import Message, render
from tests.panel.scannerkit import FakeDevice, typed, wait_for
from tests.web.apikit import post_move
from tests.web.conftest import serving
from web import create_app
from web.camera import get_camera


def make_app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "CAMERA": "off", "CAMERA_THREAD": False,
                       **config})


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    app = make_app(tmp_path)
    yield app
    with app.app_context():
        get_camera().close()
    app.extensions["keydom_table"].close()


def a_bid(app: Flask) -> tuple[str, str, str]:
    """A new two-player game, a bid its first player can pay and the tile's label (the land office's tiles)."""
    client = app.test_client()
    game = client.post("/api/games", json={"players": ["Alice", "Bob"]}).get_json()
    with app.app_context():
        from web.table import get_table

        session = get_table().session(game["id"])
        bid = next(str(m) for m in session.game.legal_moves(session.state) if str(m).startswith("bid "))
    return game["id"], bid, bid.split()[1]


def test_a_code_typed_into_the_station_names_the_tile_and_offers_its_moves(app: Flask) -> None:
    game, bid, label = a_bid(app)
    client = app.test_client()
    answer = client.post(f"/camera/station/scan?game={game}", json={"payload": f"KEYDOM:2:KH:F:{label}:U"})
    assert answer.status_code == 200
    offer = answer.get_json()["offer"]
    assert (offer["code"], offer["source"]) == (f"KH:F:{label}:U", "scanner")
    assert [label] in [start["picks"] for start in offer["starts"]]  # the bid, picked from the tile on
    assert all(label in start["picks"] for start in offer["starts"]) and all(start["words"] for start in offer["starts"])
    # the station keeps offering it (the camera is off, nothing else is in view)...
    assert client.get(f"/camera/station?game={game}").get_json()["offer"]["code"] == f"KH:F:{label}:U"
    assert post_move(client, game, bid, offer["version"]).status_code == 200  # ...and a move is played from it
    lower = client.post("/camera/station/scan", json={"payload": " keydom:2:kh:l:1:a \n"}).get_json()["offer"]
    assert (lower["code"], lower["kind"], lower["starts"]) == ("KH:L:1:A", "labourer", [])  # no game chosen


@pytest.mark.parametrize("payload, message", [
    ("https://example.com/menu", "core.code.foreign"),
    ("keydom:1:KH:F:A1:U", "core.code.other_version"),
    ("KEYDOM:2:KH:F:Q9:U", "core.code.unknown"),
])
def test_a_code_the_companion_did_not_print_is_refused_and_shown(app: Flask, payload: str, message: str) -> None:
    client = app.test_client()
    answer = client.post("/camera/station/scan", json={"payload": payload})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["type"] in ("ForeignCodeError", "UnknownCodeError") and error["message"]["id"] == message
    german = render(Message.from_json(error["message"]), "de")
    assert german != error["reason"] and "{" not in german
    station = client.get("/camera/station").get_json()
    assert station["offer"] is None and station["refused"]["message"]["id"] == message


def test_a_scan_without_text_is_refused_and_changes_nothing(app: Flask) -> None:
    client = app.test_client()
    for body in ({}, {"payload": "  "}, {"payload": 7}, ["KEYDOM:2:KH:E:M"]):
        answer = client.post("/camera/station/scan", json=body)
        assert answer.status_code == 400 and answer.get_json()["error"]["type"] == "MalformedInputError"
    assert client.get("/camera/station").get_json() == {"offer": None, "in_view": 0}


def test_the_pis_hand_held_scanner_feeds_the_station(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    device = FakeDevice()
    monkeypatch.setattr("web.camera.open_device", lambda spec: device)
    app = make_app(tmp_path, SCANNER="auto")
    try:
        game, _, label = a_bid(app)
        assert device.grabbed
        client = app.test_client()
        assert client.get("/camera/station").get_json()["hand_scanner"] == {"state": "reading", "error": None}
        device.send(typed(f"KEYDOM:2:KH:F:{label}:H"))
        wait_for(lambda: client.get("/camera/station").get_json()["offer"] is not None)
        offer = client.get(f"/camera/station?game={game}").get_json()["offer"]
        assert offer["code"] == f"KH:F:{label}:H" and [label] in [start["picks"] for start in offer["starts"]]
    finally:
        with app.app_context():
            get_camera().close()
        app.extensions["keydom_table"].close()
    assert not device.grabbed and device.closed


def test_a_hand_held_scanner_that_cannot_be_read_is_reported_and_the_service_runs(app: Flask, tmp_path: Path) -> None:
    broken = make_app(tmp_path, SCANNER="/dev/input/event99")
    client = broken.test_client()
    station = client.get("/camera/station").get_json()
    assert station["hand_scanner"]["state"] == "stopped"
    assert station["hand_scanner"]["error"]["id"] == "core.scanner.missing"
    assert client.post("/camera/station/scan", json={"payload": "KEYDOM:2:KH:E:M"}).status_code == 200  # the field works
    broken.extensions["keydom_table"].close()


def test_the_station_field_in_chromium_names_a_typed_code_and_plays_a_move_naming_it(
        tmp_path: Path, browser: Any, shots: Path) -> None:
    with serving(tmp_path, "--camera", "off") as (port, _):
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", method="POST",
                                         data=json.dumps({"players": ["Alice", "Bob"]}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            game = json.load(answer)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game['id']}/moves", timeout=30) as answer:
            moves = json.load(answer)["moves"]
        harvest = next(move for move in moves if move.startswith("harvest "))  # R-H: a start tile
        label = harvest.split()[1]
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/camera?lang=en&game={game['id']}")
        page.wait_for_function(f"() => document.getElementById('cam-game').value === '{game['id']}'")
        page.fill("#cam-scan", f"KEYDOM:2:KH:F:{label}:U")
        page.press("#cam-scan", "Enter")  # a scanner on the tablet ends each scan with Enter
        button = page.locator("#cam-moves button", has_text="Harvest").filter(has_text=label)
        button.wait_for(timeout=30000)
        assert "(scanned)" in (page.text_content("#cam-station") or "") and page.input_value("#cam-scan") == ""
        page.screenshot(path=str(shots / "camera-station-scan.png"), full_page=True)
        button.click()
        page.wait_for_function("() => document.getElementById('cam-played').textContent.length > 0")
        assert label in (page.text_content("#cam-played") or "") and "harvest " not in (page.text_content("body") or "")
        page.goto(f"http://127.0.0.1:{port}/camera?lang=de")
        page.fill("#cam-scan", "https://example.com/menu")
        page.press("#cam-scan", "Enter")
        page.wait_for_function("() => document.getElementById('cam-station').textContent.includes('Nicht gelesen')")
        assert "kein Aufkleber des Keydom Companion" in (page.text_content("#cam-station") or "")
        page.close()
