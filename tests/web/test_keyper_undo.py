"""Undo and stale moves on Keyper's shared table, in real Chromium, with a second browser watching.

A few decisions are tapped on the table, pick by pick (each picked at run time from what the picks offer, not from a
recorded game).
Undo asks first, naming the move (cancelled, nothing happens); confirmed, it takes back exactly the last move: the table and the watcher, live,
show the game exactly as before that move (same DOM), and the API's log is the log before it. Then the watcher loses
its live connection and stays on an older version while the table moves on (a move, taken back again, so the
watcher's move is still legal in the game as it stands): the watcher's first pick is refused as made on an old
version (HTTP 409, not a rule) and changes nothing; the watcher shown the game as it is (reloaded: its live
connection is down), the same decision tapped again is played.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import LOG_COUNT, TIMEOUT
from tests.web.test_key_market_seat import PANEL, canonical, difference
from tests.web.pickkit import node, option_ids, tap_decision
from tests.web.test_keyper_browser import NAMES

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


def shown(page: Any) -> str:
    """The game as ``page`` shows it (``canonical``, without what the page does itself nor the version it drew)."""
    return re.sub(r' data-version="\d+"', "", canonical(page, LOCAL))


def caught_up(page: Any, lines: int) -> None:
    page.wait_for_function(f"() => ({LOG_COUNT})() === {lines}")


def first_decision(page: Any, api_path: str, version: int) -> tuple[list[str], bool]:
    """The decision made by the first option of each pick (the first that is not "done" at the start): its picks
    and whether it asks OK."""
    chosen: list[str] = []
    found = node(page, api_path, chosen, version)
    while True:
        options = option_ids(found)
        if found["done"] and not options:
            return chosen, bool(found["done"]["confirm"])
        chosen.append(next((o for o in options if o != "done"), options[0]) if not chosen else options[0])
        found = node(page, api_path, chosen, version)


def tap_any(page: Any, base: str, game_id: str) -> dict[str, Any]:
    """On the table: the first decision offered (see ``first_decision``) tapped pick by pick; the answer."""
    game = api_game(page, base, game_id)
    page.wait_for_function(f"() => document.body.dataset.version === '{game['version']}'")
    page.locator("#flow:not([hidden]) #flow-options button[data-pick]").first.wait_for()
    ids, confirm = first_decision(page, f"{base}/api/games/{game_id}", game["version"])
    return tap_decision(page, "#flow-options", ids, confirm)


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
            before = {"game": game, "table": shown(table), "watcher": shown(watcher)}
            answer = tap_any(table, base, game_id)
            assert answer["status"] == 200, answer
        game = api_game(table, base, game_id)
        assert len(game["log"]) > len(before["game"]["log"]) and game["undo"]["possible"], game["undo"]
        caught_up(watcher, len(game["log"]))
        assert shown(watcher) != before["watcher"]
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
        assert shown(watcher) == before["watcher"], difference((shown(watcher),), (before["watcher"],))
        assert shown(table) == before["table"], difference((shown(table),), (before["table"],))
        assert table.inner_text("#played").startswith("Take back: ")
        table.screenshot(path=str(shots / "kp-undo-2-after.png"), full_page=True)

        # ------------------------------------------------ the watcher drops off and stays on this version
        watcher.route("**/stream", lambda route: route.abort())
        watcher.reload()
        watcher.locator("#boards .country-board").first.wait_for()
        caught_up(watcher, len(undone["log"]))
        stale_view = shown(watcher)
        assert tap_any(table, base, game_id)["status"] == 200  # the table moves on...
        table.click("#undo")  # ...and back: the same position, a newer version
        table.wait_for_function(f"() => ({LOG_COUNT})() === {len(undone['log'])}")
        now = api_game(table, base, game_id)
        assert now["view"] == undone["view"] and now["version"] > undone["version"]
        table_now = shown(table)
        assert shown(watcher) == stale_view  # no update reached the watcher

        # a decision legal in the game as it stands, picked on the old version: its first pick is refused
        ids, _ = first_decision(watcher, f"{base}/api/games/{game_id}", now["version"])
        with watcher.expect_response(lambda r: r.url.endswith("/picks") and r.request.method == "POST") as answer:
            watcher.locator(f"#flow-options button[data-pick='{ids[0]}']").click()
        refused = answer.value.json()
        assert answer.value.status == 409 and refused["error"]["type"] == "StaleMoveError", refused
        watcher.screenshot(path=str(shots / "kp-undo-3-stale.png"), full_page=True)
        table.wait_for_timeout(300)
        after = api_game(table, base, game_id)
        assert (after["version"], after["log"], after["view"]) == (now["version"], now["log"], now["view"])
        assert shown(table) == table_now and table.locator("#error").is_hidden()
        # the watcher shown the game as it is (its live connection down: reloaded): tapped anew, it is played
        watcher.reload()
        played = tap_any(watcher, base, game_id)
        assert played["status"] == 200, played
        table.wait_for_function(f"() => ({LOG_COUNT})() > {len(now['log'])}")
    assert errors == []
