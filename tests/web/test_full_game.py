"""A whole 2-player Key Harvest game played through the tablet's pages in real Chromium.

The game is created with the index page's form. Both seats play from their private pages
(two pages of the tablet's browser context), each decision picked at random (a seeded
`random.Random`) by tapping the picker's options one by one. A second device (the "phone", its own browser context) watches the table and
must follow every change live, without a reload. On the way: a move typed on the table is
refused with its rule ID, a move is taken back with Undo, events are drawn; at the end the
final scoring shows on both devices. Screenshots go to test-output/screenshots/full-game-*.png.

The moves are reproducible; the draws are not (the server gives each new game a random seed).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any
from tests.web.apikit import english, notation
from tests.web.pickkit import random_picks, tap_decision

SEED = 1848
"""Seeds the choice of moves (which picks of #legal are tapped)."""
KEEP_PLAYING = 0.75
"""How often a non-"end" move is chosen when "end" is also legal: turns last, events get drawn."""
MAX_CLICKS = 2500
TIME_BUDGET = 540.0
"""Seconds for the whole game; seeded random 2-player games take ~250-500 decisions, each a few taps (one round
trip to the picks API per tap: 246 decisions took 276 s on the 2-core machine)."""
STEP_TIMEOUT = 15_000
"""Milliseconds any one page may take to show a change."""
REFUSE_AFTER = 20
UNDO_AFTER = 10
SNAPSHOT_AT = 120
PHONE_EVERY = 40

LOG_COUNT = "() => Number(document.querySelector('#log')?.getAttribute('start') || 0)"
"""How many lines the page's log has (#log shows the last ones, `start` is the count)."""
WAIT_LOG = "n => Number(document.querySelector('#log')?.getAttribute('start') || -1) === n"


def log_count(page: Any) -> int:
    count: int = page.evaluate(LOG_COUNT)
    return count


def wait_log(page: Any, count: int) -> None:
    """Wait until the page shows a log of exactly `count` lines (i.e. it has caught up with the game)."""
    try:
        page.wait_for_function(WAIT_LOG, arg=count, timeout=STEP_TIMEOUT)
    except Exception as error:
        raise AssertionError(f"{page.url} shows {log_count(page)} log lines, not {count}") from error


OFFERS = "#legal button[data-pick], #legal button[data-pick-send]"
"""A seat page's picker offering a decision."""


def first_picks(page: Any) -> list[str]:
    """The options of the first pick on a seat page."""
    ids: list[str] = page.locator("#legal button[data-pick]").evaluate_all("bs => bs.map(b => b.dataset.pick)")
    return ids


def choose(rng: random.Random, moves: list[str]) -> str:
    others = [move for move in moves if move != "end"]
    if "end" in moves and (not others or rng.random() >= KEEP_PLAYING):
        return "end"
    return rng.choice(others)


def private_path(page: Any, base: str) -> str:
    """A seat page's private API path."""
    game_id, token = page.evaluate("() => [document.body.dataset.gameId, document.body.dataset.token]")
    return f"{base}/api/games/{game_id}/private/{token}"


def open_expert(page: Any) -> None:
    """Open the table's notation box (closed by default under the touch flows)."""
    page.evaluate("() => { document.querySelector('#expert').open = true; }")


def text_of(page: Any, selector: str) -> str:
    text: str = page.locator(selector).text_content() or ""
    return text


def check_phone(phone: Any, tablet: Any, count: int, where: str) -> None:
    """The phone, which never reloads, shows what the tablet shows."""
    wait_log(tablet, count)
    wait_log(phone, count)
    assert text_of(phone, "#turn") == text_of(tablet, "#turn"), f"phone #turn differs {where}"
    assert text_of(phone, "#log") == text_of(tablet, "#log"), f"phone #log differs {where}"


def test_a_whole_game_through_the_pages(server: int, browser: Any, shots: Path) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # the browser fixture has checked it is there

    base = f"http://127.0.0.1:{server}"
    started = time.monotonic()
    rng = random.Random(SEED)

    # ---------------------------------------------------------------- a new game through the form
    first = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    first.set_default_timeout(STEP_TIMEOUT)
    tablet = first.new_page()
    tablet.goto(f"{base}/")
    names = tablet.locator("#new-game input[name='player']")
    names.nth(1).wait_for()
    names.nth(0).fill("Alice")
    names.nth(1).fill("Bob")
    tablet.screenshot(path=str(shots / "full-game-01-new-game.png"), full_page=True)
    tablet.locator("#new-game button[type='submit']").click()
    tablet.wait_for_url(re.compile(r"/games/[^/]+/setup$"))  # a new game opens on its setup guide
    tablet.click("#setup-start")
    tablet.wait_for_url(re.compile(r"/games/[^/]+$"))
    game_id = tablet.url.rstrip("/").split("/")[-1]
    tablet.locator(".board[data-seat='1']").wait_for()
    tablet.locator("#seats a").nth(1).wait_for()

    assert tablet.locator(".board[data-seat]").count() == 2
    assert tablet.locator("#land-office li").count() == 6
    assert tablet.locator("#land-office li.filled").count() == 6, text_of(tablet, "#land-office")
    assert tablet.locator("#warnings .notice a[href='/data']").count() == 1  # one quiet line for provisional data
    assert tablet.locator("#final").is_hidden()
    tablet.evaluate("() => { window.noReload = true; }")
    tablet.screenshot(path=str(shots / "full-game-02-table-setup.png"), full_page=True)
    count = log_count(tablet)
    assert count > 0

    # ---------------------------------------------------------------- the phone watches the same table
    phone = browser.new_context(viewport={"width": 420, "height": 900}, locale="en-US").new_page()
    phone.set_default_timeout(STEP_TIMEOUT)
    phone.goto(tablet.url)
    phone.locator(".board[data-seat='1']").wait_for()
    phone.evaluate("() => { window.noReload = true; }")
    check_phone(phone, tablet, count, "at setup")

    # ---------------------------------------------------------------- the seats' private pages
    links = tablet.locator("#seats a")
    assert links.count() == 2
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(2)]
    assert all(re.search(rf"/games/{re.escape(game_id)}/join/[^/]+$", href) for href in hrefs), hrefs
    seats = []
    for href in hrefs:  # a join link asks; its button claims the seat once and leads to the seat's own page
        page = first.new_page()
        page.goto(f"{base}{href}" if href.startswith("/") else href)
        page.click("#join-button")
        page.locator("#log li").first.wait_for()
        assert re.search(rf"/games/{re.escape(game_id)}/seat/[^/]+$", page.url), page.url
        seats.append(page)
    tablet.locator("#seats li[data-claimed='true']").nth(1).wait_for()  # the tablet shows both seats claimed
    for page in seats:
        wait_log(page, count)

    # ---------------------------------------------------------------- play until the game is over
    clicks = 0
    stale = stale_in_a_row = 0
    events: list[str] = []
    refused = undone = snapshot = type_next = False
    phone_checks = 0
    while True:
        # Every page catches up with the last move; then the one seat whose page offers moves decides.
        wait_log(tablet, count)
        for page in seats:
            wait_log(page, count)
        if tablet.locator("#final").is_visible():  # rendered with the log the tablet shows: the game is over
            break
        offering = [seat for seat, page in enumerate(seats) if page.locator(OFFERS).count()]
        deadline = time.monotonic() + STEP_TIMEOUT / 1000
        while len(offering) != 1:  # a seat page may show a refresh that crossed the last move; the next one is right
            assert time.monotonic() < deadline, f"{len(offering)} seat pages offer moves after {clicks} clicks"
            seats[0].wait_for_timeout(20)
            offering = [seat for seat, page in enumerate(seats) if page.locator(OFFERS).count()]
        seat = offering[0]
        page = seats[seat]

        elapsed = time.monotonic() - started
        assert clicks < MAX_CLICKS and elapsed < TIME_BUDGET, (
            f"the game has not ended after {clicks} moves and {elapsed:.0f} s; "
            f"the table says {text_of(tablet, '#turn')!r}")

        if clicks >= SNAPSHOT_AT and not snapshot:
            snapshot = True
            tablet.screenshot(path=str(shots / "full-game-03-table-mid-game.png"), full_page=True)
            page.screenshot(path=str(shots / "full-game-05-seat-page.png"), full_page=True)

        moves = first_picks(page)
        if not moves:  # re-rendered between the two looks: look again
            continue
        mine = private_path(page, base)
        private = page.request.get(mine).json()
        turn_before = text_of(tablet, "#turn")
        typed, type_next = type_next, False
        actor = tablet if typed else page
        actor.bring_to_front()  # a tab left behind gets no animation frames, and click's checks wait for them
        move = None
        try:
            if typed:  # this one is typed on the table, in the notation box (the experts' fallback)
                move = choose(rng, page.request.get(mine + "/moves").json()["moves"])
                with actor.expect_response(lambda r: r.url.endswith("/moves") and r.request.method == "POST") as answer:
                    open_expert(tablet)
                    tablet.fill("#move", move)
                    tablet.click("#play")
                status, result = answer.value.status, answer.value.json()
            else:  # picked: the first pick as a player would (ending the turn now and then), the rest at random
                ids, confirm = random_picks(page, mine, private["version"], rng, first=lambda options: choose(rng, options))
                result = tap_decision(page, "#legal", ids, confirm)
                status = result["status"]
                move = notation(result["played"][0]) if status == 200 else None
        except (PlaywrightTimeout, AssertionError):
            status = None
        if status is None or status in (409, 422):
            # The page showed the buttons of a refresh that crossed the last move (its log new, its
            # moves not yet): the button went away, or the game refused the move. Look again.
            stale += 1
            stale_in_a_row += 1
            assert stale_in_a_row <= 10, f"seat {seat}'s page keeps offering moves the game refuses ({move!r})"
            type_next = typed
            page.wait_for_timeout(50)
            continue
        assert status == 200, f"{move!r}: HTTP {status} {result}"
        clicks += 1
        stale_in_a_row = 0
        played: list[Any] = result["played"]
        game: dict[str, Any] = result["game"]
        assert played and notation(played[0]) == move, (move, played)
        count = len(game["log"])
        wait_log(page, count)
        if typed:  # the table takes it, clears the refusal and lists what the move caused; the seat page follows
            tablet.locator("#error").wait_for(state="hidden")
            assert tablet.input_value("#move") == ""
            assert english(played[0]) in text_of(tablet, "#played")

        drawn = [english(line) for line in played if (notation(line) or "").startswith("event ")]
        if drawn:
            wait_log(tablet, count)
            assert tablet.locator("#event-track li.filled").count() >= 1, text_of(tablet, "#event-track")
            assert drawn[0] in text_of(actor, "#played")  # the page the move came from lists what it caused
            if not events:
                check_phone(phone, tablet, count, f"after the first event ({drawn[0]!r})")
                phone_checks += 1
            events += drawn

        if not undone and clicks >= UNDO_AFTER and len(played) == 1 and game["to_move"] is not None:
            # Nothing was drawn after this move: it can be taken back, and the table is as before.
            undone = True
            wait_log(tablet, count)
            tablet.bring_to_front()
            tablet.once("dialog", lambda dialog: dialog.accept())  # the shared screen asks first
            tablet.click("#undo")
            count -= 1
            wait_log(tablet, count)
            assert text_of(tablet, "#turn") == turn_before
            tablet.locator("#error").wait_for(state="hidden")
            wait_log(page, count)
            page.locator("#legal button[data-pick]").first.wait_for()
            assert sorted(first_picks(page)) == sorted(moves), "undo did not bring back the same decision"
            check_phone(phone, tablet, count, "after undo")
            phone_checks += 1
            continue

        if not refused and clicks >= REFUSE_AFTER and game["to_move"] is not None and game["view"]["pending"] is None:
            # A turn with nothing pending: "add" belongs to a bid being placed, so the rules refuse it.
            refused = True
            wait_log(tablet, count)
            tablet.bring_to_front()
            open_expert(tablet)
            tablet.fill("#move", "add wheat")
            tablet.click("#play")
            tablet.locator("#error", has_text="R-D4").wait_for()
            tablet.locator("#error").scroll_into_view_if_needed()
            tablet.screenshot(path=str(shots / "full-game-04-refused-move.png"))
            assert log_count(tablet) == count  # refused: nothing changed
            assert tablet.input_value("#move") == "add wheat"
            type_next = True

        if clicks % PHONE_EVERY == 0:
            check_phone(phone, tablet, count, f"after {clicks} clicks")
            phone_checks += 1
            if clicks == PHONE_EVERY * 2:
                phone.screenshot(path=str(shots / "full-game-07-phone-mid-game.png"), full_page=True)

    # ---------------------------------------------------------------- the end: final scoring
    seconds = time.monotonic() - started
    print(f"\n{clicks} moves (one typed on the table, the rest clicked on the seat pages), {len(events)} events drawn, "
          f"{stale} stale retries, {phone_checks} phone checks, {seconds:.1f} s")
    assert refused, "no turn came up to try a refused move on"
    assert undone, "no move came up that could be undone"
    assert events, "no event was drawn during the whole game"
    assert tablet.locator("#event-track li.filled").count() >= 1

    score = tablet.request.get(f"{base}/api/games/{game_id}/score").json()
    assert score["final"] is True
    rows = score["players"]
    for screen in (tablet, phone):
        final = screen.locator("#final")
        final.wait_for(state="visible")
        assert "Final score" in final.inner_text()
        headers = final.locator("thead th").all_text_contents()
        assert len(headers) == 7 and "Rank" in headers and "Majorities" in headers, headers
        body = final.locator("tbody tr")
        assert body.count() == 2
        ranked = sorted(rows, key=lambda row: (row["rank"], rows.index(row)))  # winner first, ties in seat order
        for place, row in enumerate(ranked):
            cells = [c.strip() for c in body.nth(place).locator("th, td").all_text_contents()]
            assert cells == [str(row["rank"]), row["name"], str(row["worker_points"]), str(row["largest_group_points"]),
                             str(row["second_group_points"]), str(row["majority_points"]), str(row["total"])]
            assert row["total"] == (row["worker_points"] + row["largest_group_points"] + row["second_group_points"]
                                    + row["majority_points"])
        winners = [row for row in rows if row["rank"] == 1]
        highlighted = final.locator("tbody tr.winner").all_inner_texts()
        assert winners and len(highlighted) == len(winners), highlighted
        for row in winners:
            assert any(row["name"] in text for text in highlighted)
            assert row["name"] in final.locator("p").first.inner_text()  # the winner line above the table
        assert "Rank" in screen.locator("#score thead").inner_text()  # the score card shows the ranks too
        assert "at the end" not in screen.inner_text("#score")  # majorities are counted now
        assert "over" in text_of(screen, "#turn").lower()
        assert screen.evaluate("() => window.noReload === true"), "the page was reloaded"
    assert tablet.locator("#move").is_disabled() and tablet.locator("#undo").is_disabled()
    for page in seats:
        assert page.locator(OFFERS).count() == 0
    check_phone(phone, tablet, count, "at the end")

    tablet.screenshot(path=str(shots / "full-game-06-final-score.png"), full_page=True)
    phone.screenshot(path=str(shots / "full-game-08-phone-final.png"), full_page=True)
    if not snapshot:  # a short game: still leave a seat page behind for a person to look at
        seats[0].screenshot(path=str(shots / "full-game-05-seat-page.png"), full_page=True)
