"""The virtual panel in real Chromium: lights mirrored from the game, buttons clickable, UNDO held."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from companion.session import SEAT_COLOURS
from tests.web.conftest import browser, server, shots  # noqa: F401  (fixtures)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def test_the_virtual_panel_in_the_browser(server: int, browser: Any, shots: Path) -> None:  # noqa: F811
    base = f"http://127.0.0.1:{server}"
    game = post(f"{base}/api/games", {"players": [{"name": "Alice", "colour": "#ff0000"},
                                                  {"name": "Bob", "colour": "#0000ff"}]})
    mover = game["to_move"]
    page = browser.new_context(viewport={"width": 900, "height": 700}).new_page()
    page.goto(f"{base}/games/{game['id']}/panel")
    lamp = page.locator(f".panel-light[data-seat='{mover}']")
    lamp.wait_for()
    assert lamp.get_attribute("data-colour") == ["#ff0000", "#0000ff"][mover]
    assert page.locator("#panel-status").get_attribute("data-status") == "ready"
    page.screenshot(path=str(shots / "panel-01-ready.png"), full_page=True)

    page.click("button[data-button='DRAW']")  # nothing to draw: refused, red light, the reason
    page.locator("#panel-message.refused", has_text="nothing waits for a draw").wait_for()
    assert page.locator("#panel-status").get_attribute("data-status") == "error"
    page.screenshot(path=str(shots / "panel-02-refused.png"), full_page=True)

    page.click("button[data-button='NEXT']")  # ends the turn: the other seat lights up
    other = page.locator(f".panel-light[data-seat='{1 - mover}']")
    page.wait_for_function(f"() => document.querySelector(\".panel-light[data-seat='{1 - mover}']\")"
                           f".dataset.colour === '{['#ff0000', '#0000ff'][1 - mover]}'")
    assert other.get_attribute("data-colour") == ["#ff0000", "#0000ff"][1 - mover]

    undo = page.locator("button[data-button='UNDO']")
    undo.click()  # a short click: only the hint
    page.locator("#panel-message", has_text="keep holding UNDO").wait_for()
    box = undo.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    page.wait_for_timeout(1300)
    page.mouse.up()
    page.locator("#panel-message", has_text="End your turn").wait_for()
    page.wait_for_function(f"() => document.querySelector(\".panel-light[data-seat='{mover}']\")"
                           f".dataset.colour === '{['#ff0000', '#0000ff'][mover]}'")
    page.screenshot(path=str(shots / "panel-03-undone.png"), full_page=True)


def test_the_virtual_panel_on_the_table_page_plays_on_the_table(server: int, browser: Any, shots: Path) -> None:  # noqa: F811
    """NEXT pressed on the table page's own panel ends the turn, and the table shows the other player."""
    base = f"http://127.0.0.1:{server}"
    game = post(f"{base}/api/games", {"players": ["Alice", "Bob"]})
    mover = game["to_move"]
    names = ["Alice", "Bob"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/games/{game['id']}")
    page.locator("#turn", has_text=names[mover]).wait_for()
    page.locator(f"#virtual-panel .panel-light[data-seat='{mover}']").wait_for()
    page.click("#virtual-panel button[data-button='NEXT']")
    page.locator("#turn", has_text=names[1 - mover]).wait_for()
    lit = SEAT_COLOURS[1 - mover]
    page.wait_for_function(
        f"() => document.querySelector(\"#virtual-panel .panel-light[data-seat='{1 - mover}']\").dataset.colour === '{lit}'")
    page.locator("#virtual-panel").screenshot(path=str(shots / "panel-04-on-table.png"))


def test_the_virtual_panel_blinks_followers_and_shows_the_weather(tmp_path: Path, browser: Any,  # noqa: F811
                                                                  shots: Path) -> None:
    """Keyper's follower still to be asked blinks, with a note (spec 4.3); Key Market's indicators name the goods
    the weather favours and spoils (spec 3.4), in the good's colour."""
    from companion.core.messages import msg, render
    from companion.games.key_market import rules as km_rules
    from companion.games.key_market.panel import GOOD_COLOURS
    from companion.store import GameStore
    from tests.panel.test_game_signals import drive, following, new
    from tests.web.conftest import serving

    with GameStore(tmp_path / "games.sqlite3") as store:
        keyper = new(store, "keyper")
        drive(keyper, following)
        waiting = keyper.game.panel_signals(keyper.state).waiting
        market = new(store, "key-market")
        drive(market, lambda s: s.state.stage == "farming" and s.state.season == "spring")
        weather = km_rules.weather_now(market.state)
        ids = keyper.id, market.id
    with serving(tmp_path) as (port, _):
        page = browser.new_context(viewport={"width": 900, "height": 700}).new_page()
        page.goto(f"http://127.0.0.1:{port}/games/{ids[0]}/panel")
        lamp = page.locator(f".panel-light.blinking[data-seat='{waiting[0]}']")
        lamp.wait_for()
        assert page.locator(".panel-light.blinking").count() == len(waiting)
        page.locator(".panel-waiting", has_text="may be asked next").first.wait_for()
        assert page.locator("#panel-indicators").is_hidden()
        page.screenshot(path=str(shots / "panel-05-followers.png"), full_page=True)
        page.goto(f"http://127.0.0.1:{port}/games/{ids[1]}/panel")
        favoured = page.locator("[data-indicator='favoured']")
        favoured.wait_for()
        assert favoured.locator(".panel-light").get_attribute("data-colour") == GOOD_COLOURS[weather.round]
        said = render(msg("km.panel.favoured", good=msg(f"km.good.{weather.round}")), "en")
        assert said.startswith("the weather favours ") and said in favoured.inner_text()
        spoiled = page.locator("[data-indicator='spoiled']")
        assert spoiled.locator(".panel-light").get_attribute("data-colour") == GOOD_COLOURS[weather.square]
        page.screenshot(path=str(shots / "panel-06-weather.png"), full_page=True)


def test_a_table_pages_panel_stays_on_its_game_while_the_panel_follows_another(server: int, browser: Any,  # noqa: F811
                                                                                shots: Path) -> None:
    """On a Keyper table, a move in a Key Market game (the physical panel follows it) leaves the page's panel on
    Keyper: it names Keyper and its players, says which game the physical panel follows, suggests a Keyper move,
    and DRAW pressed there answers for Keyper (and brings the physical panel back to Keyper)."""
    base = f"http://127.0.0.1:{server}"
    keyper = post(f"{base}/api/games", {"game": "keyper", "players": ["Ann", "Ben", "Cy"]})
    market = post(f"{base}/api/games", {"game": "key-market", "players": ["Dee", "Eve", "Fay"]})
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US").new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/games/{keyper['id']}")
    page.locator("#panel-game", has_text="Keyper: Ann, Ben, Cy").wait_for()
    with urllib.request.urlopen(f"{base}/api/games/{market['id']}", timeout=10) as response:
        version = json.loads(response.read())["version"]
    move = post(f"{base}/api/panel/choice", {"game": market["id"], "move": None})  # the panel follows Key Market
    assert move["game"] == market["id"] and version >= 0
    page.locator("#panel-follows", has_text="Key Market: Dee, Eve, Fay").wait_for()
    assert page.inner_text("#panel-game") == "Keyper: Ann, Ben, Cy"
    placeholder = page.get_attribute("#panel-move", "placeholder") or ""
    assert placeholder and not placeholder.startswith("bid ")
    assert page.inner_text("#panel-next").startswith("A move for OK, for example: ")
    page.locator("#virtual-panel").screenshot(path=str(shots / "panel-05-own-game.png"))
    page.click("#virtual-panel button[data-button='DRAW']")
    page.locator("#panel-follows").wait_for(state="hidden")  # DRAW acted on Keyper: the panel follows it now
    assert page.inner_text("#panel-game") == "Keyper: Ann, Ben, Cy"
