"""Undo past a draw on the shared table: a Key Harvest bid that refilled the land office (R-D5) is taken back; the
answer's lines tell the table to take the bid back and to put the drawn tile back (named as the table's log names
it), and the tablet's Undo shows those lines; the same tile comes out at the next refill."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.core.messages import render
from companion.session import Session
from companion.store import GameStore
from tests.core.test_undo_draws import bids_that_refill
from tests.web.apikit import english, post_undo, played
from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT, accept_dialogs


def test_undo_answers_the_lines_the_table_follows(app: Flask, client: FlaskClient, game: dict[str, Any]) -> None:
    session = app.extensions["keydom_table"].session(game["id"])
    bid = str(bids_that_refill(session)[0])
    before = len(client.get(f"/api/games/{game['id']}").get_json()["log"])
    after = played(client, game["id"], bid)
    assert after["undo"]["possible"], after["undo"]
    drawn = [english(line) for line in after["log"][before + 1:]]  # the bid's line, then what the refill drew
    assert drawn, after["log"]  # a field tile, after any event tiles the bag gave first (R-D5)
    answer = post_undo(client, game["id"])
    assert answer.status_code == 200, answer.get_json()
    lines = [english(line) for line in answer.get_json()["lines"]]
    again_note = ("It comes out again at the next draw." if len(drawn) == 1
                  else "They come out again, in this order, at the next draws.")
    assert lines == [f"Take back: {english(after['undo']['move'])}",
                     *(f"Put back what was drawn: {line}" for line in drawn), again_note]
    again = played(client, game["id"], bid)
    assert [english(line) for line in again["log"][before + 1:]] == drawn  # no new draw for the table


def test_the_tablets_undo_shows_which_tile_to_put_back(browser: Any, tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "key-harvest", ["Ann", "Ben", "Cy"], seed="undo-tablet")
        session.play(bids_that_refill(session)[0])
        tile_line = session.export(None)["log"][-1]
        game_id = session.id
    with serving(tmp_path) as (port, _):
        page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
        page.set_default_timeout(TIMEOUT)
        asked = accept_dialogs(page)
        page.goto(f"http://127.0.0.1:{port}/games/{game_id}")
        page.wait_for_function("() => !document.querySelector('#undo').disabled")
        page.click("#undo")
        page.locator("#played", has_text="Put back what was drawn").wait_for()
        shown = page.inner_text("#played")
        assert f"Put back what was drawn: {render(tile_line, 'en')}" in shown
        assert shown.startswith("Take back: ") and "It comes out again at the next draw." in shown
        assert len(asked) == 1 and "Put back what was drawn" in asked[0]  # the confirmation names it first
