"""The tablet in real Chromium (Playwright driving the system's browser).

A table is created through the index page's form; a second device watches the same table;
an illegal move is refused with its rule; a move appears on the other device without a
reload; undo. Screenshots of the screens go to test-output/screenshots/ for a person to see.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pagekit import accept_dialogs

def test_a_table_in_the_browser(server: int, browser: Any, shots: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    tablet = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    tablet.goto(f"{base}/")
    names = tablet.locator("input[name='player']")
    names.nth(0).fill("Alice")
    names.nth(1).fill("Bob")
    tablet.screenshot(path=str(shots / "01-new-game.png"), full_page=True)
    tablet.locator("form#new-game button[type='submit']").click()
    tablet.wait_for_url("**/setup")  # a new game opens on its setup guide
    tablet.click("#setup-start")
    tablet.wait_for_url("**/games/*")
    tablet.locator(".board[data-seat='1']").wait_for()
    assert tablet.locator("#warnings .notice a[href='/data']").count() == 1  # one quiet line for provisional data
    assert tablet.locator(".board").count() == 2
    assert len([t for t in tablet.inner_text("#land-office").split() if t.strip() not in ("—", "-")]) >= 6
    tablet.screenshot(path=str(shots / "02-table.png"), full_page=True)

    phone = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
    phone.goto(tablet.url)
    phone.locator(".board[data-seat='1']").wait_for()
    first_turn = phone.inner_text("#turn")

    tablet.click("#expert summary")  # the notation box: the experts' fallback to the touch flows
    tablet.fill("#move", "add wheat")
    tablet.click("#play")
    tablet.locator("#error", has_text="R-D4").wait_for()
    tablet.screenshot(path=str(shots / "03-refused.png"), full_page=True)

    tablet.fill("#move", "end")
    tablet.click("#play")
    phone.wait_for_function("turn => document.querySelector('#turn').innerText !== turn", arg=first_turn,
                            timeout=3000)  # the other device updates live, without a reload
    assert phone.inner_text("#turn") != first_turn
    phone.screenshot(path=str(shots / "04-second-device.png"), full_page=True)

    asked = accept_dialogs(tablet)
    tablet.click("#undo")
    phone.wait_for_function("turn => document.querySelector('#turn').innerText === turn", arg=first_turn,
                            timeout=3000)
    assert len(asked) == 1 and asked[0].startswith("Take back ") and asked[0].endswith(": End your turn?")
    # the shared screen asks first, naming the move (and whose it was: the first player is drawn)
