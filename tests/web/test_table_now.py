""""At the table now" says what the table does physically after the last move, compactly (issue 27): before the first
player move it is empty (the setup is the setup guide's, /games/<id>/setup), the first move's lines do not repeat the
setup, and on a 1280x800 tablet the decision (#flow) is in view without scrolling on the first turn of every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.apikit import notation, offered
from tests.web.pagekit import TIMEOUT
from tests.web.test_table_screen import Device

GAMES = ("key-harvest", "la-granja", "keyper", "key-market")
PLAYERS = ["Ann", "Ben", "Cy"]
VIEWPORT = {"width": 1280, "height": 800}


@pytest.mark.parametrize("name", GAMES)
def test_the_setup_is_not_at_the_table_now(client: FlaskClient, name: str) -> None:
    game = client.post("/api/games", json={"game": name, "players": PLAYERS}).get_json()
    assert game["log"] and game["table_now"] == []  # the setup's draws are in the log and the setup guide only
    assert client.get(f"/games/{game['id']}/setup").status_code == 200
    move = offered(client, game["id"])[0]
    after = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": game["version"]}).get_json()
    now = after["game"]["table_now"]
    assert now and notation(now[0]) in (move, None)  # the move first, then what it set off
    assert now == after["game"]["log"][len(game["log"]):]  # nothing of the setup again


@pytest.mark.parametrize("name", GAMES)
def test_the_decision_is_in_view_on_a_1280x800_tablet(server: int, browser: Any, name: str) -> None:
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport=VIEWPORT, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    game = page.request.post(f"{base}/api/games", data={"game": name, "players": PLAYERS}).json()
    page.goto(f"{base}/games/{game['id']}")
    for turn in range(2):  # the first turn, then the turn after a move made on another device
        page.locator("#flow:not([hidden]) #flow-options > *").first.wait_for()
        page.wait_for_timeout(300)  # the page's late parts (notices, the panel) are drawn
        top = page.evaluate("() => document.querySelector('#flow').getBoundingClientRect().top")
        assert 0 <= top < VIEWPORT["height"] - 120, (turn, top)  # its question and first options in view
        assert page.evaluate("() => window.scrollY") == 0
        if turn == 0:
            assert page.locator("#table-now").is_hidden()
            Device(browser, base, game["id"]).move(random.Random(3))
            page.locator("#table-now:not([hidden])").wait_for()
