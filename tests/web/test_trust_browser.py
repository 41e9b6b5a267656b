"""Issue 10 in real Chromium: the same move tapped on two tablets at once is applied once; the other tablet
reads "the table has moved on" and shows the game as it is now. Undo names its move and is off when nothing
may be undone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.pagekit import TIMEOUT, accept_dialogs
from tests.web.apikit import notation


def open_table(browser: Any, url: str, live: bool = True) -> Any:
    """A tablet on the table page; without ``live`` its updates never arrive (a tablet on slow Wi-Fi)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(TIMEOUT)
    if not live:
        page.route("**/stream", lambda route: route.abort())
    page.goto(url)
    page.locator(".board[data-seat='1']").wait_for()
    page.click("#expert summary")
    return page


def test_two_tablets_tap_the_same_move_at_once(server: int, browser: Any, shots: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    setup = browser.new_context().new_page()
    game = setup.request.post(f"{base}/api/games", data={"players": ["Alice", "Bob", "Cara"]}).json()
    url = f"{base}/games/{game['id']}"
    # The second tablet's live update must not sneak in between the two taps, or it would (rightly) play a
    # second "end" chosen from the new version: its stream is held back, as on slow Wi-Fi.
    first, second = open_table(browser, url), open_table(browser, url, live=False)
    assert first.locator("#undo").is_disabled()  # only setup draws so far: nothing may be undone
    turn = first.inner_text("#turn")
    for page in (first, second):
        page.fill("#move", "end")
    answers: list[Any] = []
    for page in (first, second):
        page.on("response", lambda r: answers.append(r) if r.url.endswith("/moves") else None)
    # Both taps leave before either answer comes back (no wait between them).
    first.evaluate("document.querySelector('#play').click()")
    second.evaluate("document.querySelector('#play').click()")
    for page in (first, second):  # the winner from its answer (or, for the first, its stream), the other from its 409
        page.wait_for_function("turn => document.querySelector('#turn').innerText !== turn", arg=turn)
    for _ in range(100):  # which of the two taps the service takes first is not ours to choose
        if len(answers) == 2:
            break
        first.wait_for_timeout(50)
    assert sorted(r.status for r in answers) == [200, 409]
    refused = next(r.frame.page for r in answers if r.status == 409)
    refused.locator("#error", has_text="moved on").wait_for()
    log = setup.request.get(f"{base}/api/games/{game['id']}").json()["log"]
    assert [notation(line) for line in log].count("end") == 1  # one turn ended: the next player keeps theirs
    assert second.inner_text("#turn") == first.inner_text("#turn")  # the refused tablet shows the table now
    refused.screenshot(path=str(shots / "trust-01-moved-on.png"))

    undo = first.locator("#undo")
    undo.wait_for(state="attached")
    first.wait_for_function("() => !document.querySelector('#undo').disabled")
    assert "End your turn" in (undo.get_attribute("title") or "")
    asked = accept_dialogs(first)
    undo.click()
    first.wait_for_function("turn => document.querySelector('#turn').innerText === turn", arg=turn)
    assert len(asked) == 1 and asked[0].startswith("Take back ") and asked[0].endswith(": End your turn?")
    # the stream's update may show the turn before the undo's own answer names what was taken back
    first.locator("#played", has_text="Take back: ").filter(has_text="End your turn").wait_for()
