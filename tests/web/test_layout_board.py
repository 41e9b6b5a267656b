"""Key Harvest's layout form draws the board (issue 13): the player taps a space, then where it lies on the printed
board; no coordinates to type. A saved layout is exactly what was tapped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.pagekit import TIMEOUT


def space_at(page: Any, label: str) -> tuple[int, int]:
    cell = page.locator(f".hex-board .cell[data-label='{label}']")
    return int(cell.get_attribute("data-q")), int(cell.get_attribute("data-r"))


def tap(page: Any, q: int, r: int) -> None:
    page.locator(f".hex-board .cell[data-q='{q}'][data-r='{r}']").click()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_saved_layout_is_what_was_tapped(server: int, browser: Any, shots: Path, size: tuple[int, int]) -> None:
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.set_default_timeout(TIMEOUT)
    before = {s["label"]: tuple(s["at"]) for s in page.request.get(f"{base}/api/data/key-harvest/layout").json()[
        "data"]["spaces"]}
    page.goto(f"{base}/data/key-harvest/layout")
    cells = page.locator(".hex-board .cell.space")
    cells.first.wait_for()
    assert cells.count() == 56
    assert page.locator("#data-form input[data-axis]:not([type='hidden'])").count() == 0  # no coordinate to type
    assert page.locator("th[data-t='col_q'], th[data-t='col_r']").count() == 0
    assert space_at(page, "A1") == before["A1"]

    q, r = before["A1"]
    empty = (q - 1, r)  # left of A1: an empty place on the drawn board
    assert page.locator(f".cell.empty[data-q='{empty[0]}'][data-r='{empty[1]}']").count() == 1
    page.locator(".hex-board .cell[data-label='A1']").click()  # pick A1...
    assert "A1" in page.inner_text(".board-status")
    tap(page, *empty)  # ...and put it where it lies on our board
    assert space_at(page, "A1") == empty
    page.locator(".hex-board .cell[data-label='C4']").click()  # two spaces swap
    page.locator(".hex-board .cell[data-label='E6']").click()
    assert space_at(page, "C4") == before["E6"] and space_at(page, "E6") == before["C4"]
    page.locator("tr[data-row='10'] th").click()  # a row of the list picks its space (B4) too
    assert page.locator(".hex-board .cell.picked").get_attribute("data-label") == "B4"
    page.locator(".hex-board .cell[data-label='B4']").click()  # tapping the picked space again puts it down
    assert page.locator(".hex-board .cell.picked").count() == 0
    page.locator(".hex-board .cell[data-label='B4']").click()
    tap(page, *before["A1"])  # B4 goes where A1 was
    page.screenshot(path=str(shots / f"data-layout-board-{size[0]}.png"), full_page=True)
    page.check("#checked-against-box")
    page.click("#data-save")
    page.locator("#data-saved").wait_for()

    saved = page.request.get(f"{base}/api/data/key-harvest/layout").json()
    after = {s["label"]: tuple(s["at"]) for s in saved["data"]["spaces"]}
    expected = before | {"A1": empty, "C4": before["E6"], "E6": before["C4"], "B4": before["A1"]}
    assert after == expected and saved["provisional"] == []
    page.reload()
    page.locator(".hex-board .cell.space").first.wait_for()
    assert space_at(page, "A1") == empty and space_at(page, "B4") == before["A1"]


def test_a_tap_on_an_empty_place_first_asks_for_a_space(server: int, browser: Any) -> None:
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"http://127.0.0.1:{server}/data/key-harvest/layout?lang=de")
    page.locator(".hex-board .cell.empty").first.click()
    assert page.inner_text(".board-status").strip() != ""
    assert page.locator(".hex-board .cell.space").count() == 56
