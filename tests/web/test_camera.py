"""The camera page's endpoints: frames with outlines, the codes, the board read and scored, the
disagreements with a tracked game, the scan station; a missing camera leaves the service running."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.apikit import claim_seat
from web import create_app
from web.camera import get_camera
from tests.vision.photos import BOARD, board_photo, save, tile_photo
from tests.web.apikit import english, post_move


def make_app(tmp_path: Path, camera: str) -> Flask:
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "CAMERA": camera, "CAMERA_THREAD": False})


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))  # no user layout: the shipped one


@pytest.fixture
def photo_app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, str(save(board_photo(), tmp_path / "alice.png")))
    yield app
    with app.app_context():
        get_camera().close()
    app.extensions["keydom_table"].close()


def steps(app: Flask, n: int) -> None:
    with app.app_context():
        for _ in range(n):
            get_camera().step()


def test_with_the_camera_off_the_page_says_so_and_the_rest_runs(tmp_path: Path) -> None:
    client = make_app(tmp_path, "off").test_client()
    assert client.get("/camera/codes").get_json()["status"] == "off"
    response = client.get("/camera/frame.jpg")
    assert response.status_code == 503 and "--camera" in response.get_json()["error"]["reason"]
    page = client.get("/camera")
    assert page.status_code == 200 and b"js/camera.js" in page.data
    assert client.get("/api/games").status_code == 200


def test_a_missing_camera_is_reported_and_the_service_runs_on(tmp_path: Path) -> None:
    client = make_app(tmp_path, "usb:37").test_client()
    info = client.get("/camera/codes").get_json()
    assert info["status"] == "unavailable" and "no USB camera at index 37" in info["error"]
    assert client.get("/camera/board").status_code == 503
    assert client.post("/api/games", json={"players": ["Alice", "Bob"]}).status_code == 201


def test_the_latest_frame_has_the_recognised_stickers_outlined(photo_app: Flask) -> None:
    client = photo_app.test_client()
    assert client.get("/camera/codes").get_json()["status"] == "waiting"
    assert client.get("/camera/frame.jpg").status_code == 503
    steps(photo_app, 2)
    info = client.get("/camera/codes").get_json()
    assert info["status"] == "live" and info["frame"] == 2 and info["size"] == [1920, 1080]
    assert {c["code"] for c in info["codes"]} == set(BOARD) and all(c["present"] for c in info["codes"])
    response = client.get("/camera/frame.jpg")
    assert response.mimetype == "image/jpeg" and response.headers["X-Frame-Number"] == "2"
    image = cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (720, 1280, 3)
    corner = info["codes"][0]["corners"][0]
    x, y = int(corner[0] * 1280 / 1920), int(corner[1] * 720 / 1080)
    patch = image[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3).astype(int)
    assert any(g > 150 and g > b + 60 and g > r + 60 for b, g, r in patch)  # the green outline of a confirmed code


def test_the_board_alone_scores_its_workers_and_groups(photo_app: Flask) -> None:
    steps(photo_app, 2)
    board = photo_app.test_client().get("/camera/board").get_json()
    assert board["read"]["conflicts"] == [] and len(board["player"]["tiles"]) == 5
    score = board["score"]
    assert (score["worker_points"], score["largest_group_points"], score["second_group_points"]) == (6, 3, 2)
    assert score["majority_points"] is None and score["total"] == 11 and board["disagreements"] is None


def test_the_board_read_uses_the_layout_the_table_installed_on_the_tablet(tmp_path: Path) -> None:
    """A crop corrected in the layout form (saved in this service's --data folder, not the user's
    default one) shows in the board read."""
    photo_app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "tablet"), "CAMERA_THREAD": False,
                            "CAMERA": str(save(board_photo(), tmp_path / "alice.png"))})
    client = photo_app.test_client()
    steps(photo_app, 2)
    before = client.get("/camera/board").get_json()["player"]["tiles"][0]
    layout = client.get("/api/data/key-harvest/layout").get_json()["data"]
    space = next(s for s in layout["spaces"] if s["label"] == before["label"])
    space["crop"] = "wine" if before["crop"] != "wine" else "hops"
    assert client.put("/api/data/key-harvest/layout", json=layout).status_code == 200
    after = next(t for t in client.get("/camera/board").get_json()["player"]["tiles"] if t["label"] == before["label"])
    assert after["crop"] == space["crop"] != before["crop"]
    with photo_app.app_context():
        get_camera().close()
    photo_app.extensions["keydom_table"].close()


@pytest.mark.parametrize("seed", ["camera-1", "camera-test"])  # Bob starts with G2/G3, or with B5/B6 (on the photo)
def test_the_board_against_a_game_lists_what_differs_and_scores_the_table(photo_app: Flask, seed: str) -> None:
    from companion.session import Session
    from web.table import get_table

    client = photo_app.test_client()
    with photo_app.app_context():
        game_id = Session.new(get_table().store, "key-harvest", ["Alice", "Bob"], seed=seed).id
        session = get_table().session(game_id)
        tracked = session.game.snapshot(session.state)["players"]  # type: ignore[attr-defined]
    steps(photo_app, 2)
    token = claim_seat(client, game_id, 0)["url"].rsplit("/", 1)[1]
    board = client.get(f"/camera/board?game={game_id}&seat=0&token={token}").get_json()
    in_game = {t["label"]: t["harvested"] for t in tracked[0]["tiles"]}
    on_photo = {code.split(":")[2]: code.endswith("H") for code in BOARD if code.startswith("KH:F")}
    diff = board["disagreements"]
    assert diff["tiles_only_on_photo"] == sorted(set(on_photo) - set(in_game))
    assert diff["tiles_only_in_game"] == sorted(set(in_game) - set(on_photo))
    assert diff["tiles_other_side_up"] == sorted(t for t in set(on_photo) & set(in_game) if on_photo[t] != in_game[t])
    assert diff["workers_only_on_photo"] == ["C", "H"] and diff["workers_only_in_game"] == []
    assert board["player"]["name"] == "Alice" and board["seat"] == 0
    on_bobs_board = sorted(set(on_photo) & {t["label"] for t in tracked[1]["tiles"]})
    if on_bobs_board:  # the photo shows a tile the game has on Bob's board: no score, and why
        assert board["score"] is None and f"tile {on_bobs_board[0]} is also on Alice's board" in english(board["score_error"])
    else:  # Alice's board as photographed: workers 2 + 4, groups 3 + 2 x 1; majorities hidden until the end
        score = board["score"]
        assert (score["worker_points"], score["largest_group_points"], score["second_group_points"]) == (6, 3, 2)
        assert score["majority_points"] is None and score["total"] == 11 and board["score_error"] is None
    assert client.get(f"/camera/board?game={game_id}&seat=5&token=x").status_code == 400
    assert client.get("/camera/board?game=nope&seat=0").status_code == 404


def test_a_game_whose_boards_are_not_read_is_refused_with_a_reason(photo_app: Flask) -> None:
    client = photo_app.test_client()
    game = client.post("/api/games", json={"game": "la-granja", "players": ["Ana", "Ben"]}).get_json()
    token = claim_seat(client, game["id"], 0)["url"].rsplit("/", 1)[1]
    steps(photo_app, 2)
    response = client.get(f"/camera/board?game={game['id']}&seat=0&token={token}")
    assert response.status_code == 400
    assert "does not read La Granja boards" in response.get_json()["error"]["reason"]
    assert client.get(f"/camera/station?game={game['id']}").status_code == 200  # the station names any sticker


def test_the_scan_station_offers_the_moves_naming_the_tile_shown(tmp_path: Path) -> None:
    setup = make_app(tmp_path, "off").test_client()
    game: dict[str, Any] = setup.post("/api/games", json={"players": ["Alice", "Bob"]}).get_json()
    with setup.application.app_context():
        from web.table import get_table

        session = get_table().session(game["id"])
        bid = next(str(m) for m in session.game.legal_moves(session.state) if str(m).startswith("bid "))
    label = bid.split()[1]  # a land-office tile the player may bid on
    app = make_app(tmp_path, str(save(tile_photo(f"KH:F:{label}:U"), tmp_path / "tile.png")))
    client = app.test_client()
    assert client.get("/camera/station").get_json() == {"offer": None, "in_view": 0}
    steps(app, 2)
    offer = client.get(f"/camera/station?game={game['id']}").get_json()["offer"]
    assert offer["code"] == f"KH:F:{label}:U" and [label] in [start["picks"] for start in offer["starts"]]
    assert all(label in start["picks"] for start in offer["starts"])
    assert client.get("/camera/station").get_json()["offer"]["starts"] == []  # no game chosen: named, no moves
    # the station is a shared screen: it leads on to the table's picks (every bid the screens could pay), never
    # only what Alice can pay
    node = client.post(f"/api/games/{game['id']}/picks", json={"picks": [label], "version": offer["version"]}).get_json()
    crops = {option["id"].split("*")[0] for group in node["groups"] for option in group["options"]}
    assert crops == {"hops", "vegetables", "apples", "wine", "wheat"}
    played = post_move(client, game["id"], bid, offer["version"])  # the version of the offer
    assert played.status_code == 200


def test_the_camera_page_in_chromium_reads_the_sample_board_in_english_and_german(
        server: int, browser: Any, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"http://127.0.0.1:{server}/camera?lang=en")
    page.wait_for_selector("#cam-codes li[data-code]", timeout=30000)
    page.wait_for_selector("#cam-score:not([hidden])", timeout=30000)
    assert page.text_content("h1") == "Camera"
    assert page.get_attribute("#cam-status", "data-state") == "live"
    assert "field tiles" in (page.text_content("#cam-board-summary") or "")
    assert "Total" in (page.text_content("#cam-score") or "")
    page.wait_for_function("() => document.getElementById('cam-frame').naturalWidth > 0", timeout=30000)
    page.screenshot(path=str(shots / "camera.png"), full_page=True)
    page.goto(f"http://127.0.0.1:{server}/camera?lang=de")
    page.wait_for_selector("#cam-score:not([hidden])", timeout=30000)
    assert page.text_content("h1") == "Kamera" and "Summe" in (page.text_content("#cam-score") or "")
    page.close()


def test_the_whole_table_is_shown_with_each_difference_from_the_game_in_words(tmp_path: Path) -> None:
    """Issue 16: one frame of the whole table, each board given to its player, compared with the stored game in
    words; public information only (no stones, no majorities before the end)."""
    from companion.codes import load_registry
    from tests.vision.tables import table_scene

    table = table_scene(load_registry(), 3, "table-easy", seed=505)
    app = make_app(tmp_path, str(save(table.scene.image, tmp_path / "table.png")))
    client = app.test_client()
    steps(app, 1)
    alone = client.get("/camera/table").get_json()
    assert alone["names"] == ["Player 1", "Player 2", "Player 3"] and alone["differences"] is None
    assert sorted(b["seat"] for b in alone["read"]["boards"]) == [0, 1, 2]
    game_id = client.post("/api/games", json={"players": ["Ann", "Bo", "Cy"], "seed": 5}).get_json()["id"]
    shown = client.get(f"/camera/table?game={game_id}").get_json()
    lines = [english(line) for line in shown["differences"]]
    on_bo = [p["tiles"][0]["label"] for p in table.snapshot["players"] if p["name"] == "Bo"][0]
    assert any(line.startswith(f"the table shows {on_bo} on Bo's board; the game has it") or
               line.startswith(f"the game has {on_bo} ") and line.endswith("the table shows it on Bo's board")
               for line in lines)
    assert any(line.startswith("the event track shows ") for line in lines)
    assert all(p["stones"] == {} for p in shown["snapshot"]["players"])
    assert shown["score"] and all(row["majority_points"] is None for row in shown["score"])
    with app.app_context():
        get_camera().close()
    app.extensions["keydom_table"].close()


def test_the_camera_page_in_chromium_shows_the_whole_table_and_its_differences_in_english_and_german(
        tmp_path: Path, browser: Any, shots: Path) -> None:
    from companion.codes import load_registry
    from tests.vision.tables import table_scene
    from tests.web.conftest import serving

    table = table_scene(load_registry(), 3, "table-easy", seed=505)
    photo = save(table.scene.image, tmp_path / "table.png")
    with serving(tmp_path, "--camera", str(photo)) as (port, _):
        page = browser.new_page(viewport={"width": 1280, "height": 1100})
        import urllib.request
        import json as json_module
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", method="POST",
                                         data=json_module.dumps({"players": ["Ann", "Bo", "Cy"], "seed": 5}).encode(),
                                         headers={"Content-Type": "application/json"})
        game_id = json_module.loads(urllib.request.urlopen(request).read())["id"]
        page.goto(f"http://127.0.0.1:{port}/camera?lang=en&game={game_id}")
        page.wait_for_selector("#cam-table-diff li", timeout=60000)
        boards = page.text_content("#cam-table-boards") or ""
        assert all(name in boards for name in ("Ann:", "Bo:", "Cy:"))
        assert "Event track: " + " ".join(table.snapshot["event_track"]) == page.text_content("#cam-table-track")
        assert "the event track shows" in (page.text_content("#cam-table-diff") or "")
        page.wait_for_function("() => document.getElementById('cam-frame').naturalWidth > 0", timeout=30000)
        page.screenshot(path=str(shots / "camera-table.png"), full_page=True)
        page.goto(f"http://127.0.0.1:{port}/camera?lang=de&game={game_id}")
        page.wait_for_selector("#cam-table-diff li", timeout=60000)
        assert "Der ganze Tisch" == page.text_content("#cam-table-heading")
        assert "auf den Ereignisfeldern liegen" in (page.text_content("#cam-table-diff") or "")
        page.close()
