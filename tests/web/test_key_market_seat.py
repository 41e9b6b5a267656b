"""Key Market's farmhouse payment (spec 2.2 step 17, a secret simultaneous choice) picked by taps on each player's
own page (issue 27: the two goods in any order, then OK on the payment in words), in real Chromium, while the shared table and a second watching browser learn only who has chosen.

Two games of the same seed stand at the payment: in game A every seat taps its payment on its own page; in game B
(the control twin) each seat pays something else through the API. Until the last seat has chosen, the shared table
of A and of B show the same text and DOM (only the public "has chosen" may change: the indistinguishability test of
the trust issue), and the watcher's page before and after a choice differs only in who has chosen. The reveal then
shows every payment at once. A payment naming goods the seat does not hold (a tampered request) is refused on the
seat page with its reason and rule (spec 4.2), and changes nothing anywhere.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import LOG_COUNT, TIMEOUT, log_count, sends_move
from tests.web.test_key_market_browser import ENGLISH, NAMES, Api, tap_picks

SEED = "km-seat"
CANONICAL = r"""(root, { leaveOut, hideChosen }) => {
  // the DOM as text, a tag a line, attributes sorted (their order follows the order scripts set them in), without the
  // elements `leaveOut` selects. With hideChosen, the public marks of who has chosen are set back to "choosing" and
  // the log, Undo (now possible) and the lines of the last move are left out: what is left must not change when a
  // seat chooses in secret.
  const copy = root.cloneNode(true);
  for (const el of copy.querySelectorAll(leaveOut.join(', ') || ':not(*)')) el.remove();
  if (hideChosen) {
    for (const el of copy.querySelectorAll('[data-chosen]')) {
      el.setAttribute('data-chosen', 'false');
      el.classList.remove('chosen');
      el.textContent = '';
    }
    for (const el of copy.querySelectorAll('#log, #table-now, #played, #undo')) el.remove();
  }
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim();
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const attrs = [...node.attributes].filter((a) => a.value || a.name !== 'style') // an emptied style: none
      .map((a) => `${a.name}="${a.value}"`).sort().join(' ');
    return `<${node.localName} ${attrs}>\n${[...node.childNodes].map(walk).filter(Boolean).join('\n')}\n</${node.localName}>`;
  };
  return walk(copy);
}"""
PANEL = "#virtual-panel"
"""The virtual panel mirrors the one physical panel, which blinks and follows whichever game moved last: left out of
the pages compared (tests/panel/test_web.py keeps secret choices off it)."""


def canonical(page: Any, leave_out: tuple[str, ...] = (PANEL,), hide_chosen: bool = False) -> str:
    """The page's DOM as comparable text (``CANONICAL``)."""
    text: str = page.locator("html").evaluate(CANONICAL, {"leaveOut": list(leave_out), "hideChosen": hide_chosen})
    return re.sub(r' data-version="\d+"', "", text)  # the version a hidden picker last showed: not shown


def twin_games(folder: Path) -> list[str]:
    """Two games of the same seed and the same public moves, both waiting for the farmhouse payments."""
    ids = []
    with GameStore(folder / "games.sqlite3") as store:
        for _ in range(2):
            session = Session.new(store, "key-market", NAMES, seed=SEED)
            while session.state.stage != "pay":
                session.play(session.game.legal_moves(session.state)[0])
            ids.append(session.id)
    return ids


def shared(page: Any, ids: list[str]) -> tuple[str, str]:
    """The page's visible text and its DOM, the game ids written alike; the virtual panel left out (it names the
    game the physical panel follows, which is one of the two)."""
    text, dom = page.inner_text("body").replace(page.inner_text(PANEL), ""), canonical(page)
    for game_id in ids:
        text, dom = text.replace(game_id, "GAME"), dom.replace(game_id, "GAME")
    return text, dom


def difference(one: tuple[str, ...], other: tuple[str, ...]) -> str:
    """The lines of text and DOM (a tag a line) where two pages differ, for an assertion's message."""
    lines = [difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
             for a, b in zip(one, other)]
    return "\n".join(line for diff in lines for line in diff)


def caught_up(api: Api, *pages: Any) -> None:
    lines = len(api.get()["log"])
    for page in pages:
        page.wait_for_function(f"() => ({LOG_COUNT})() === {lines}")


def tap_payment(seat_page: Any, move: str) -> dict[str, Any]:
    """On a seat page: the goods of ``move`` (``pay SEAT GOOD GOOD``) picked one by one, the second first (a payment
    is unordered), then OK on the payment in words; the API's answer."""
    goods = move.split()[2:]
    answer = tap_picks(seat_page, "#legal", list(reversed(goods)))
    return answer


def test_the_farmhouse_payments_are_tapped_in_secret_and_revealed_together(browser: Any, tmp_path: Path,
                                                                           shots: Path) -> None:
    game_a, game_b = ids = twin_games(tmp_path)
    errors: list[str] = []

    def new_page(width: int, height: int) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    with serving(tmp_path, "--streams-per-device", "8") as (port, _):  # five live pages of game A on this machine
        base = f"http://127.0.0.1:{port}"
        table, twin, watcher = new_page(1280, 1000), new_page(1280, 1000), new_page(1100, 900)
        api, api_b = Api(table, base, game_a), Api(twin, base, game_b)
        for page, game_id in ((table, game_a), (twin, game_b), (watcher, game_a)):
            page.goto(f"{base}/games/{game_id}")
            page.locator("#pending .chooser").first.wait_for()
        seats = []
        for link in api.seats:
            own = new_page(420, 900)
            own.goto(base + link["page"])
            own.locator("#legal button.pick").first.wait_for()
            seats.append(own)
        caught_up(api, table, watcher)
        caught_up(api_b, twin)
        for page in (table, twin, watcher):
            page.locator("#connection[data-state='live']").wait_for()
        assert shared(table, ids) == shared(twin, ids), difference(shared(table, ids), shared(twin, ids))
        market_before = {r["good"]: r["n"] for r in api.get()["view"]["market"]}

        # ------------------------------------------------ a payment of goods Ana does not hold: refused on her page
        mine = api.private(0)
        goods = mine["view"]["players"][0]["goods"]
        farmhouse = mine["view"]["players"][0]["farmhouse"]
        lacking = next(g for g in ("fruit", "veg", "wheat", "sheep", "fish", "lux") if not goods.get(g) and g != farmhouse)
        offered = mine["legal"][0]
        box = seats[0].locator("#legal")
        assert box.locator(".pick-ask").first.inner_text() == "Which two goods pay for the farmhouse?"
        for good in offered.split()[2:]:
            box.locator(f"button.pick[data-pick='{good}']:not([disabled])").click()
        send = box.locator(".pick-done button[data-pick-send]:not([disabled])")
        send.wait_for()  # a payment is shown in words before it is sent
        words = ", ".join(f"1 {ENGLISH[g]}" for g in offered.split()[2:])
        assert box.locator(".pick-words").inner_text() == f"pay the farmhouse with {words}"
        wrong = " ".join(["pay", "1", *sorted([farmhouse, lacking], key=list(ENGLISH).index)])

        def tamper(route: Any, request: Any) -> None:  # the request rewritten on its way: goods Ana lacks
            sent = json.loads(request.post_data)
            route.continue_(post_data=json.dumps({"move": wrong, "version": sent["version"]}))

        seats[0].route("**/moves", tamper)
        version, table_before, watcher_before = api.get()["version"], shared(table, ids), shared(watcher, ids)
        refused = sends_move(seats[0], lambda: send.click())
        seats[0].unroute("**/moves", tamper)
        assert refused["status"] == 422 and refused["error"]["rule"] == "4.2", refused
        reason = seats[0].locator("#error:not([hidden]) .reason")
        reason.wait_for()
        assert reason.inner_text() == "You do not hold that behind your screen (goods brought to market cannot pay)."
        assert seats[0].locator("#error .rule[data-rule='4.2']").count() == 1
        seats[0].locator("#my-secret").get_by_text("You have not chosen yet").wait_for()
        seats[0].screenshot(path=str(shots / "km-seat-1-refused.png"), full_page=True)
        table.wait_for_timeout(500)  # nothing reaches the shared pages: no update, no reason
        assert api.get()["version"] == version and api.private(0)["legal"] == mine["legal"]
        assert shared(table, ids) == table_before and shared(watcher, ids) == watcher_before
        assert all(page.locator("#error").is_hidden() for page in (table, watcher, seats[1], seats[2]))
        for page in (table, watcher, seats[1], seats[2]):
            assert "You do not hold that" not in page.inner_text("body")

        # ------------------------------------------------ each seat pays by taps; the twin pays something else
        paid: dict[int, str] = {}
        for seat in range(3):
            options = api.private(seat)["legal"]
            twin_options = api_b.private(seat)["legal"]
            assert options == twin_options and len(options) >= 2
            paid[seat] = options[seat % len(options)]
            other = options[(seat + 1) % len(options)]
            assert other != paid[seat]
            before, watcher_before = log_count(watcher), shared(watcher, ids)
            hidden_before = canonical(watcher, hide_chosen=True)
            answer = tap_payment(seats[seat], paid[seat])
            assert answer["status"] == 200, answer
            token = api_b.seats[seat]["url"].rsplit("/", 1)[1]
            twin_answer = twin.request.post(f"{base}/api/games/{game_b}/private/{token}/moves",
                                            data={"move": other, "version": api_b.get()["version"]})
            assert twin_answer.ok, twin_answer.text()
            yours = f"Your farmhouse payment: {', '.join(f'1 {ENGLISH[g]}' for g in paid[seat].split()[2:])}"
            if seat < 2:
                # the table says only who has chosen, the same whatever was chosen
                for page in (table, watcher, twin):
                    page.locator(f"#pending .chooser[data-seat='{seat}'][data-chosen='true']").wait_for()
                caught_up(api, table, watcher)
                caught_up(api_b, twin)
                assert shared(table, ids) == shared(twin, ids), difference(shared(table, ids), shared(twin, ids))
                assert shared(watcher, ids) != watcher_before  # it does show that this seat has chosen...
                hidden_after = canonical(watcher, hide_chosen=True)
                assert hidden_after == hidden_before, difference((hidden_after,), (hidden_before,))  # ...and no more
                assert f"{NAMES[seat]} chose in secret" in watcher.inner_text("#log")
                assert "Farmhouse payments shown together" not in watcher.inner_text("body")
                seats[seat].locator("#my-secret").get_by_text(yours).wait_for()  # the payer's own page shows it
                for other_seat in range(seat + 1, 3):  # the others' own pages: only their own choice, if any
                    assert seats[other_seat].inner_text("#my-secret") == "You have not chosen yet."
                if seat == 1:
                    watcher.screenshot(path=str(shots / "km-seat-2-watcher-secret.png"), full_page=True)
                    seats[seat].screenshot(path=str(shots / "km-seat-3-seat-chosen.png"), full_page=True)
            else:
                watcher.wait_for_function(f"() => ({LOG_COUNT})() > {before}")
                caught_up(api, table, watcher)

        # ------------------------------------------------ the reveal: every payment at once, on every shared page
        shown = ", ".join(f"{NAMES[seat]}: " + ", ".join(f"1 {ENGLISH[g]}" for g in paid[seat].split()[2:])
                          for seat in range(3))
        for page in (table, watcher):
            assert f"Farmhouse payments shown together: {shown}" in page.inner_text("#log")
            market = {row.get_attribute("data-good"): int(row.get_attribute("data-n") or 0)
                      for row in page.locator("#market tr[data-good]").all()}
            added = {g: sum(p.split()[2:].count(g) for p in paid.values()) for g in market}
            assert market == {g: market_before[g] + added[g] for g in market}
        twin.wait_for_function("() => document.querySelector('#log').innerText.includes('shown together')")
        assert f"Farmhouse payments shown together: {shown}" not in twin.inner_text("#log")  # B paid otherwise
        watcher.screenshot(path=str(shots / "km-seat-4-reveal.png"), full_page=True)
    assert errors == []
