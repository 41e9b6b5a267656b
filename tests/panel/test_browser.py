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
    page.wait_for_function(f"document.querySelector(\".panel-light[data-seat='{1 - mover}']\")"
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
    page.locator("#panel-message", has_text="End your turn (end)").wait_for()
    page.wait_for_function(f"document.querySelector(\".panel-light[data-seat='{mover}']\")"
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
        f"document.querySelector(\"#virtual-panel .panel-light[data-seat='{1 - mover}']\").dataset.colour === '{lit}'")
    page.locator("#virtual-panel").screenshot(path=str(shots / "panel-04-on-table.png"))
