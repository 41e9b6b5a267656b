"""/panel chooses among the games in progress (issue 13): the latest moved in by default, any other by the chooser,
and never a finished game unless it is asked for by its own address."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.messages import Message, render
from tests.web.apikit import post_move
from tests.web.pagekit import TIMEOUT
from tests.web.test_tablet_api import finish
from web import create_app
from web.table import get_table


def make_app(folder: Path) -> Flask:
    return create_app({"TESTING": True, "DATA_DIR": str(folder), "STREAM_HEARTBEAT_SECONDS": 0.05})


@pytest.fixture
def apps(tmp_path: Path) -> Iterator[list[Flask]]:
    """Apps on one data folder (a restart is a second one); all closed after."""
    made: list[Flask] = []
    yield made
    for app in made:
        app.extensions["keydom_panel"].close()
        app.extensions["keydom_table"].close()


def new_game(client: FlaskClient, *players: str) -> str:
    answer = client.post("/api/games", json={"players": list(players)})
    assert answer.status_code == 201
    game_id: str = answer.get_json()["id"]
    return game_id


def offered(client: FlaskClient) -> tuple[list[str], str | None]:
    """The chooser's games on /panel, and the one the page shows."""
    html = client.get("/panel").get_data(as_text=True)
    options = re.findall(r'<option value="([^"]+)"', html)
    shown = re.search(r'id="virtual-panel" data-game-id="([^"]*)"', html)
    return options, shown.group(1) if shown else None


def test_panel_offers_the_games_in_progress_and_never_follows_a_finished_one(tmp_path: Path,
                                                                             apps: list[Flask]) -> None:
    apps.append(make_app(tmp_path))
    client = apps[0].test_client()
    first, done = new_game(client, "Ann", "Bob"), new_game(client, "Cid", "Dee")
    finish(apps[0], done)  # its moves are the latest: the panel followed it to its end
    assert client.get("/api/panel").get_json()["game"] == done
    assert offered(client) == ([first], first)  # only the game in progress, chosen for the table
    second = new_game(client, "Eve", "Fay")
    assert post_move(client, first, "end").status_code == 200  # the first game moved last
    assert offered(client) == ([first, second], first)

    apps.append(make_app(tmp_path))  # the service restarts: it follows the latest game in progress
    client = apps[1].test_client()
    assert client.get("/api/panel").get_json()["game"] == first
    assert client.get(f"/games/{done}").status_code == 200  # the finished game is opened on the tablet...
    assert client.get(f"/api/games/{done}").get_json()["game"] == "key-harvest"
    assert client.get("/api/panel").get_json()["game"] == first  # ...the panel stays on the game in progress
    assert post_move(client, second, "end").status_code == 200
    assert client.get("/api/panel").get_json()["game"] == second  # a move in a game in progress: followed
    html = client.get(f"/games/{done}/panel").get_data(as_text=True)  # asked for by its address: shown
    assert f'data-game-id="{done}"' in html


def test_with_only_finished_games_the_panel_follows_none(tmp_path: Path, apps: list[Flask]) -> None:
    apps.append(make_app(tmp_path))
    client = apps[0].test_client()
    finish(apps[0], new_game(client, "Ann", "Bob"))
    assert client.get("/api/panel").get_json()["game"] is not None
    html = client.get("/panel").get_data(as_text=True)
    assert "<option" not in html and 'id="panel-no-games"' in html
    assert client.get("/api/panel").get_json()["game"] is None


def test_the_chooser_drives_the_panel(server: int, browser: Any, shots: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(TIMEOUT)
    ids = [page.request.post(f"{base}/api/games", data={"players": names}).json()["id"]
           for names in (["Ann", "Bob"], ["Cid", "Dee", "Eve"])]
    page.goto(f"{base}/panel")
    page.locator("#panel-game", has_text="Cid, Dee, Eve").wait_for()  # the latest game by default
    assert page.locator("#panel-chooser option").all_inner_texts() == ["Key Harvest: Cid, Dee, Eve",
                                                                       "Key Harvest: Ann, Bob"]
    assert page.input_value("#panel-chooser") == ids[1]
    page.select_option("#panel-chooser", ids[0])
    page.locator("#panel-game", has_text="Ann, Bob").wait_for()
    assert page.request.get(f"{base}/api/panel").json()["game"] == ids[0]
    assert page.locator(".panel-seat").count() == 2
    page.screenshot(path=str(shots / "panel-chooser-phone.png"), full_page=True)
    page.goto(f"{base}/panel?lang=de")
    page.locator("#panel-game", has_text="Ann, Bob").wait_for()  # the game chosen stays chosen
    assert page.input_value("#panel-chooser") == ids[0]
    assert page.inner_text("label[for='panel-chooser']").startswith("Das Spiel")


# ---------------------------------------------------------------- a table page's panel is its own game's (issue 27)

GAMES = ("key-harvest", "la-granja", "keyper", "key-market")


def new_of(client: FlaskClient, game: str, *players: str) -> str:
    answer = client.post("/api/games", json={"game": game, "players": list(players)})
    assert answer.status_code == 201, answer.get_json()
    game_id: str = answer.get_json()["id"]
    return game_id


def test_a_table_pages_panel_shows_and_acts_on_its_own_game(tmp_path: Path, apps: list[Flask]) -> None:
    """On a Keyper table while the panel followed a finished La Granja game: the table page's panel names Keyper and
    its players, shows Keyper's lights, says which game the physical panel follows, and OK plays on Keyper."""
    apps.append(make_app(tmp_path))
    client = apps[0].test_client()
    keyper = new_of(client, "keyper", "Ann", "Ben", "Cy")
    granja = new_of(client, "la-granja", "Dee", "Eve", "Fay", "Gus")
    finish(apps[0], granja)  # the panel followed La Granja to its end
    assert client.get("/api/panel").get_json()["game"] == granja
    shown = client.get(f"/api/panel?game={keyper}").get_json()
    assert (shown["game"], shown["title"], shown["players"]) == (keyper, "Keyper", ["Ann", "Ben", "Cy"])
    assert shown["lights"]["status"] != "over" and len(shown["lights"]["seats"]) == 3
    assert shown["follows"] == {"game": granja, "title": "La Granja", "players": ["Dee", "Eve", "Fay", "Gus"]}
    assert shown["message"]["text"] == "" and shown["choice"] is None

    move, version = shown["example"], shown["version"]
    assert client.post("/api/panel/choice", json={"move": move, "game": keyper}).status_code == 200
    before = client.get(f"/api/games/{granja}").get_json()["version"]
    pressed = client.post("/api/panel/press", json={"button": "OK", "game": keyper, "version": version}).get_json()
    assert pressed["result"]["ok"], pressed
    assert pressed["panel"]["game"] == keyper and pressed["panel"]["follows"]["game"] == keyper
    assert client.get(f"/api/games/{keyper}").get_json()["version"] > version  # played on Keyper...
    assert client.get(f"/api/games/{granja}").get_json()["version"] == before  # ...not on La Granja


def test_a_table_pages_stream_sends_its_own_game(tmp_path: Path, apps: list[Flask]) -> None:
    apps.append(make_app(tmp_path))
    client = apps[0].test_client()
    market = new_of(client, "key-market", "Ann", "Ben", "Cy")
    keyper = new_of(client, "keyper", "Dee", "Eve", "Fay")  # the panel follows the latest game: Keyper
    assert client.get("/api/panel").get_json()["game"] == keyper
    response = client.get(f"/api/panel/stream?game={market}")
    first = next(response.response)  # type: ignore[call-overload]
    state = json.loads((first.decode() if isinstance(first, bytes) else first).split("data: ", 1)[1])
    response.close()
    assert (state["game"], state["title"], state["follows"]["game"]) == (market, "Key Market", keyper)
    assert client.get("/api/panel/stream?game=nope").status_code == 404


@pytest.mark.parametrize("name", GAMES)
def test_next_and_the_example_for_ok_are_moves_of_the_game_shown(name: str, tmp_path: Path,
                                                                  apps: list[Flask]) -> None:
    """The panel never suggests another game's move (it said "bid C2 wheat" everywhere): its example for OK is a
    move the table may play in this game now, and NEXT's move is named in the table's words."""
    apps.append(make_app(tmp_path))
    client = apps[0].test_client()
    game_id = new_of(client, name, "Ann", "Ben", "Cy")
    new_of(client, "key-harvest" if name != "key-harvest" else "keyper", "Dee", "Eve", "Fay")
    state = client.get(f"/api/panel?game={game_id}").get_json()
    with apps[0].app_context():
        session = get_table().session(game_id)
        offered = [str(m) for m in session.game.public_moves(session.state)]
    assert state["example"] in offered
    assert state["example_words"] is not None
    for said in (state["next"], state["example_words"]):
        for language in ("en", "de"):
            words = render(Message.from_json(said) if isinstance(said, dict) else said or "-", language)
            assert words and not re.search(r"[{}]|\b[a-z]+_[a-z]+\b", words), words
