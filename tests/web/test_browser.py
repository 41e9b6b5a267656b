"""The tablet in real Chromium (Playwright driving the system's browser).

A table is created through the index page's form; a second device watches the same table;
an illegal move is refused with its rule; a move appears on the other device without a
reload; undo. Screenshots of the screens go to test-output/screenshots/ for a person to see.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture
def browser() -> Iterator[object]:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed (.ci/run installs the Debian package)")
        pytest.skip("Chromium is not installed: apt-get install chromium")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def test_a_table_in_the_browser(server: int, browser: object) -> None:
    base = f"http://127.0.0.1:{server}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    tablet = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()  # type: ignore[attr-defined]
    tablet.goto(f"{base}/")
    names = tablet.locator("input[name='player']")
    names.nth(0).fill("Alice")
    names.nth(1).fill("Bob")
    tablet.screenshot(path=str(SHOTS / "01-new-game.png"), full_page=True)
    tablet.locator("form#new-game button[type='submit']").click()
    tablet.wait_for_url("**/games/*")
    tablet.locator(".board[data-seat='1']").wait_for()
    assert "PROVISIONAL" in tablet.inner_text("#warnings")
    assert tablet.locator(".board").count() == 2
    assert len([t for t in tablet.inner_text("#land-office").split() if t.strip() not in ("—", "-")]) >= 6
    tablet.screenshot(path=str(SHOTS / "02-table.png"), full_page=True)

    phone = browser.new_context(viewport={"width": 420, "height": 900}).new_page()  # type: ignore[attr-defined]
    phone.goto(tablet.url)
    phone.locator(".board[data-seat='1']").wait_for()
    first_turn = phone.inner_text("#turn")

    tablet.fill("#move", "add wheat")
    tablet.click("#play")
    tablet.locator("#error", has_text="R-D4").wait_for()
    tablet.screenshot(path=str(SHOTS / "03-refused.png"), full_page=True)

    tablet.fill("#move", "end")
    tablet.click("#play")
    phone.wait_for_function("turn => document.querySelector('#turn').innerText !== turn", arg=first_turn,
                            timeout=3000)  # the other device updates live, without a reload
    assert phone.inner_text("#turn") != first_turn
    phone.screenshot(path=str(SHOTS / "04-second-device.png"), full_page=True)

    tablet.click("#undo")
    phone.wait_for_function("turn => document.querySelector('#turn').innerText === turn", arg=first_turn,
                            timeout=3000)
