"""The camera page speaks each game's words: a photographed board's contents, points by source and differences come
from the game's board reader as messages, so a Keyper or Key Market board reads as well as a Key Harvest one, in
English and German (the page itself knows no game)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
from flask import Flask

from companion.core.messages import Message, render
from tests.games.keyper.test_camera import BUILT, FAIRS, REGISTRY, board_placements
from tests.vision.photos import board_photo, save
from tests.vision.scenes import render_scene
from tests.web.apikit import claim_seat
from tests.web.conftest import serving
from web import create_app
from web.camera import get_camera


def rendered(lines: list[dict[str, Any]], language: str = "en") -> list[str]:
    return [render(Message.from_json(line), language) for line in lines]


def keyper_photo(tmp_path: Path) -> Path:
    """Ann's Keyper board: seven tiles built (farm and village), two fairs held."""
    path = tmp_path / "keyper-board.png"
    assert cv2.imwrite(str(path), render_scene(board_placements(BUILT + FAIRS), REGISTRY, "easy", 3).image)
    return path


@pytest.fixture
def keyper_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "CAMERA": str(keyper_photo(tmp_path)),
                      "CAMERA_THREAD": False})
    with app.app_context():
        for _ in range(2):  # a sticker counts once seen in two frames in a row
            get_camera().step()
    yield app
    with app.app_context():
        get_camera().close()
    app.extensions["keydom_table"].close()


def test_a_keyper_board_alone_reads_in_keyper_words(keyper_app: Flask) -> None:
    """Spec keyper 5.2: the points by source a photo shows (farm, village, fairs; shipping needs the game)."""
    board = keyper_app.test_client().get("/camera/board").get_json()
    assert board["read"]["conflicts"] == []
    assert render(Message.from_json(board["summary"])) == "tiles built: 7, fairs: 2"
    score = board["score"]
    lines = rendered(board["score_lines"])
    assert lines == [f"Shipping track: {score['shipping']}", f"Farm tiles: {score['farm']}",
                     f"Village tiles: {score['village']}", f"Fairs: {score['fairs']}", f"Total: {score['total']}"]
    assert score["farm"] + score["village"] > 0  # the built tiles score: the lines are not all zero
    assert rendered(board["score_lines"], "de")[0].startswith("Schiffspunkteleiste: ")
    assert "shipping track" in render(Message.from_json(board["note"]))
    assert board["difference_lines"] is None  # no game chosen


def test_a_game_without_a_whole_table_reader_is_refused_in_one_sentence(keyper_app: Flask) -> None:
    """Keyper's boards are read one at a time: the whole-table read says so (HTTP 400), not a server error."""
    answer = keyper_app.test_client().get("/camera/table")
    assert answer.status_code == 400
    assert answer.get_json()["error"]["reason"] == ("The camera does not read a whole Keyper table in one frame: "
                                                    "photograph each player's board.")


def test_a_keyper_board_against_the_game_names_each_difference(keyper_app: Flask) -> None:
    from companion.session import Session
    from web.table import get_table

    client = keyper_app.test_client()
    with keyper_app.app_context():
        game_id = Session.new(get_table().store, "keyper", ["Ann", "Bob"], seed="camera-words").id
    token = claim_seat(client, game_id, 0)["url"].rsplit("/", 1)[1]
    board = client.get(f"/camera/board?game={game_id}&seat=0&token={token}").get_json()
    differs = board["disagreements"]
    assert differs["tiles_only_on_photo"]  # a game just set up has built nothing beyond the home tiles
    lines = rendered(board["difference_lines"])
    assert f"Tiles on the photo, not in the game: {', '.join(differs['tiles_only_on_photo'])}" in lines
    assert len(lines) == sum(1 for items in differs.values() if items)
    assert render(Message.from_json(board["note"])) == \
        "The game's other boards and screens, with this board as photographed."


def test_a_key_harvest_board_keeps_its_words_and_hides_the_majorities(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "CAMERA_THREAD": False,
                      "CAMERA": str(save(board_photo(), tmp_path / "alice.png"))})
    with app.app_context():
        for _ in range(2):
            get_camera().step()
        board = app.test_client().get("/camera/board").get_json()
        get_camera().close()
    app.extensions["keydom_table"].close()
    assert rendered(board["score_lines"]) == ["Workers: 6", "Largest group: 3", "Second group (×2): 2",
                                             "Crop majorities: shown at the end", "Total: 11"]
    assert rendered(board["score_lines"], "de")[3] == "Mehrheiten: am Ende"
    assert render(Message.from_json(board["summary"])) == "field tiles: 5, workers: 2"  # workers C and H


def test_the_camera_page_in_chromium_shows_a_keyper_board_in_english_and_german(
        tmp_path: Path, browser: Any, shots: Path) -> None:
    with serving(tmp_path, "--camera", str(keyper_photo(tmp_path))) as (port, _):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/camera?lang=en")
        page.wait_for_selector("#cam-score li:has-text('Farm tiles')", timeout=30000)
        assert "tiles built: 7, fairs: 2" in (page.text_content("#cam-board-summary") or "")
        assert "Total" in (page.text_content("#cam-score") or "")
        assert "undefined" not in (page.text_content("body") or "")
        assert page.is_hidden("#cam-conflicts")  # no conflict: no empty warning box
        assert page.is_hidden("#cam-table-card")  # Keyper's table is not read in one frame: no empty section
        page.screenshot(path=str(shots / "camera-keyper.png"), full_page=True)
        page.goto(f"http://127.0.0.1:{port}/camera?lang=de")
        page.wait_for_selector("#cam-score li:has-text('Hofplättchen')", timeout=30000)
        assert "Summe" in (page.text_content("#cam-score") or "")
        page.close()


def test_at_the_end_the_whole_table_scores_with_what_lay_behind_the_screens(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Key Harvest (spec 5): once the game is over the stones are public; the table read scores the majorities with
    the game's stones (through the game's table reader, the camera page knowing no game)."""
    import random

    from companion.codes import load_registry
    from companion.session import Session
    from tests.vision.tables import table_scene
    from web.table import get_table

    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    table = table_scene(load_registry(), 3, "table-easy", seed=505)
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "CAMERA_THREAD": False,
                      "CAMERA": str(save(table.scene.image, tmp_path / "table.png"))})
    client = app.test_client()
    with app.app_context():
        get_camera().step()
        session = Session.new(get_table().store, "key-harvest", ["Ann", "Bo", "Cy"], seed="camera-end")
        before = client.get(f"/camera/table?game={session.id}").get_json()
        rng = random.Random(7)
        while not session.is_over:
            session.play(rng.choice(session.game.legal_moves(session.state)), session.version)
        stones = {p["name"]: p["stones"] for p in session.game.snapshot(session.state)["players"]}  # type: ignore[attr-defined]
        after = client.get(f"/camera/table?game={session.id}").get_json()
        get_camera().close()
    app.extensions["keydom_table"].close()
    assert all(p["stones"] == {} for p in before["snapshot"]["players"])
    assert all(row["majority_points"] is None for row in before["score"])
    assert {p["name"]: p["stones"] for p in after["snapshot"]["players"]} == stones
    assert any(stones.values()) and all(row["majority_points"] is not None for row in after["score"])
