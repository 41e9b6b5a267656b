"""Undo and stale moves on Keyper's shared table, in real Chromium, with a second browser watching.

A few moves are tapped on the table (each picked at run time from what the flow offers, not from a recorded game).
Undo asks first, naming the move (cancelled, nothing happens); confirmed, it takes back exactly the last move: the table and the watcher, live,
show the game exactly as before that move (same DOM), and the API's log is the log before it. Then the watcher loses
its live connection and stays on an older version while the table moves on (a move, taken back again, so the
watcher's move is still legal in the game as it stands): the watcher's tap is refused with "the table has moved on"
(HTTP 409, not a rule), changes nothing, and the watcher shows the game as it is; tapped again, the move is played.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import LOG_COUNT, TIMEOUT
from tests.web.test_key_market_seat import PANEL, canonical, difference
from tests.web.test_keyper_browser import NAMES, tap_move

MOVES = 4
"""Moves tapped before the Undo."""
LOCAL = (PANEL, "#played", "#error", "#connection")
"""What a page shows of its own doing (the lines of its last move, its error, its connection): left out when its
game is compared."""


def api_game(page: Any, base: str, game_id: str) -> dict[str, Any]:
    answer = page.request.get(f"{base}/api/games/{game_id}")
    assert answer.ok, answer.text()
    data: dict[str, Any] = answer.json()
    return data


def caught_up(page: Any, lines: int) -> None:
    page.wait_for_function(f"() => ({LOG_COUNT})() === {lines}")


def tap_any(page: Any) -> dict[str, Any]:
    """On the table: the decider's first verb that is not "done" (else "done"), then its first words; the answer."""
    page.locator("#flow:not([hidden]) .flow-verb").first.wait_for()
    verbs = page.locator("#flow .flow-verb").evaluate_all("els => els.map(e => e.dataset.verb)")
    return tap_move(page, "#flow", next((v for v in verbs if v != "done"), "done"))


def test_undo_takes_back_the_last_move_everywhere_and_a_stale_move_is_refused(browser: Any, tmp_path: Path,
                                                                              shots: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = Session.new(store, "keyper", NAMES, seed="kp-undo").id
    errors: list[str] = []

    def new_page() -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    with serving(tmp_path) as (port, _):
        base = f"http://127.0.0.1:{port}"
        table, watcher = new_page(), new_page()
        dialogs: list[str] = []
        answers = [False]  # the first Undo is cancelled, every later one confirmed

        def confirm(dialog: Any) -> None:
            dialogs.append(dialog.message)
            if answers.pop(0) if answers else True:
                dialog.accept()
            else:
                dialog.dismiss()

        table.on("dialog", confirm)
        for page in (table, watcher):
            page.goto(f"{base}/games/{game_id}")
            page.locator("#boards .country-board").first.wait_for()

        # ------------------------------------------------ a few moves by taps; the watcher follows each
        before: dict[str, Any] = {}
        for _ in range(MOVES):
            game = api_game(table, base, game_id)
            caught_up(table, len(game["log"]))
            caught_up(watcher, len(game["log"]))
            before = {"game": game, "table": canonical(table, LOCAL), "watcher": canonical(watcher, LOCAL)}
            answer = tap_any(table)
            assert answer["status"] == 200, answer
        game = api_game(table, base, game_id)
        assert len(game["log"]) > len(before["game"]["log"]) and game["undo"]["possible"], game["undo"]
        caught_up(watcher, len(game["log"]))
        assert canonical(watcher, LOCAL) != before["watcher"]
        title = table.locator("#undo").get_attribute("title") or ""
        assert title.startswith("Undo: take back ")
        named = title.removeprefix("Undo: take back ")  # the last move in words, as the log has it
        assert named in table.locator("#log li").first.inner_text()
        table.screenshot(path=str(shots / "kp-undo-1-before.png"), full_page=True)

        # ------------------------------------------------ Undo: asked; cancelled, nothing happens
        table.click("#undo")
        table.wait_for_timeout(500)
        assert dialogs == [f"Take back {named}?"]
        assert api_game(table, base, game_id)["version"] == game["version"]
        assert len(game["log"]) == int(table.evaluate(LOG_COUNT)) == int(watcher.evaluate(LOG_COUNT))

        # ------------------------------------------------ confirmed: exactly the last move taken back
        table.click("#undo")
        table.wait_for_function(f"() => ({LOG_COUNT})() === {len(before['game']['log'])}")
        assert dialogs == [f"Take back {named}?"] * 2
        undone = api_game(table, base, game_id)
        assert undone["log"] == before["game"]["log"]
        assert undone["view"] == before["game"]["view"] and undone["version"] > game["version"]
        caught_up(watcher, len(before["game"]["log"]))
        assert canonical(watcher, LOCAL) == before["watcher"], difference((canonical(watcher, LOCAL),), (before["watcher"],))
        assert canonical(table, LOCAL) == before["table"], difference((canonical(table, LOCAL),), (before["table"],))
        assert table.inner_text("#played").startswith("Take back: ")
        table.screenshot(path=str(shots / "kp-undo-2-after.png"), full_page=True)

        # ------------------------------------------------ the watcher drops off and stays on this version
        watcher.route("**/stream", lambda route: route.abort())
        watcher.reload()
        watcher.locator("#boards .country-board").first.wait_for()
        caught_up(watcher, len(undone["log"]))
        stale_view = canonical(watcher, LOCAL)
        assert tap_any(table)["status"] == 200  # the table moves on...
        table.click("#undo")  # ...and back: the same position, a newer version
        table.wait_for_function(f"() => ({LOG_COUNT})() === {len(undone['log'])}")
        now = api_game(table, base, game_id)
        assert now["view"] == undone["view"] and now["version"] > undone["version"]
        table_now = canonical(table, LOCAL)
        assert canonical(watcher, LOCAL) == stale_view  # no update reached the watcher

        refused = tap_any(watcher)  # a move legal in the game as it stands, chosen from the old version
        assert refused["status"] == 409 and refused["error"]["type"] == "StaleMoveError", refused
        watcher.locator("#error:not([hidden])").get_by_text(
            "The table has moved on: look at the table again and choose anew.").wait_for()
        watcher.screenshot(path=str(shots / "kp-undo-3-stale.png"), full_page=True)
        table.wait_for_timeout(300)
        after = api_game(table, base, game_id)
        assert (after["version"], after["log"], after["view"]) == (now["version"], now["log"], now["view"])
        assert canonical(table, LOCAL) == table_now and table.locator("#error").is_hidden()
        # the watcher was shown the game as it is: tapped anew, its move is played
        played = tap_any(watcher)
        assert played["status"] == 200, played
        table.wait_for_function(f"() => ({LOG_COUNT})() > {len(now['log'])}")
    assert errors == []
