"""Keyper's spring season played by tapping, in real Chromium, with a second browser watching.

The game is started with the new-game form and its setup guide walked (the display, the boats and the start player
as the API drew them; the private fairs only as a count). Then the spring season is played to the first turn of
summer: every public decision tapped pick by pick on the shared table (the first turn on the picture: the keyple in
the keep area, the board, the field), the follower offers answered on the private pages (a follow and a pass, spec
4.3), the season's fairs and the summer folds on the private pages; the opening offers a handful of picks, never
every move at once (issue 27). A second browser
watches the table live; neither it nor the table ever shows a private fair that is not held (checked against the
deals, text and DOM, after every move). The end-of-season checklist with its results; the German table shows no
English catalog phrase. Screenshots: test-output/screenshots/kp-*.png.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import LOG_COUNT, TIMEOUT, sends_move
from tests.web.pickkit import node, option_ids, random_picks, tap, tap_decision
from tests.web.test_german_walk import english_phrases, visible_english
from tests.web.test_la_granja_browser import Api

NAMES = ["Ana", "Ben", "Cleo"]
MAX_DECISIONS = 400


def wait_log_past(page: Any, count: int) -> None:
    page.wait_for_function(f"() => ({LOG_COUNT})() > {count}", timeout=TIMEOUT)


def wait_version(page: Any, lines: int) -> None:
    """Until the page shows the game as the API answered it (its log has as many lines)."""
    page.wait_for_function(f"() => ({LOG_COUNT})() >= {lines}", timeout=TIMEOUT)


def picture(pick: str) -> str | None:
    """Where the table draws the component a pick names: a field or a country board (tapped there, not on a
    button)."""
    if re.fullmatch(r"\d+\.\d+", pick):
        return "#boards .kp-field"
    if re.fullmatch(r"board-\d", pick):
        return "#boards .country-board"
    return None


def tap_picks(page: Any, box: str, api_path: str, rng: random.Random, first: Any = None,
              on_picture: bool = False) -> dict[str, Any]:
    """A decision picked at random through the picks API (``first`` chooses the first pick), tapped in ``box`` (a
    field or a board on the picture with ``on_picture``); the API's answer to the move sent."""
    version = page.request.get(api_path).json()["version"]
    page.wait_for_function(f"() => document.body.dataset.version === '{version}'")
    page.locator(f"{box} button[data-pick]").first.wait_for()
    ids, confirm = random_picks(page, api_path, version, rng, first=first)
    return tap_decision(page, box, ids, confirm, picture if on_picture else lambda pick: None)


def private_fairs(api: Api) -> set[str]:
    """Every private fair dealt and not held yet (the deals, as each seat's own page has them)."""
    dealt = set()
    for seat in api.seats:
        own = api.get("/private/" + seat["url"].rsplit("/", 1)[1])
        dealt |= {f for f in own["view"]["players"][own["seat"]]["private_fairs"] or [] if f}
    held = {h["fair"] for p in api.get()["view"]["players"] for h in p["held"]}
    return dealt - held


def shows_no_secret(page: Any, secrets: set[str], fairs_offered: bool = False) -> None:
    """Neither the visible text nor the DOM (attributes included) names a private fair (``fairs_offered``: but the
    table's picks at a fair step, which offer every fair of the season no one has shown, the held one among them)."""
    if fairs_offered:
        text = page.evaluate("() => { const b = document.body.cloneNode(true); b.querySelector('#flow-options')?.remove(); return b.textContent; }")
        dom = page.evaluate("() => { const b = document.body.cloneNode(true); b.querySelector('#flow-options')?.remove(); return b.outerHTML; }")
    else:
        text, dom = page.inner_text("body"), page.content()
    found = [f for f in secrets if re.search(rf"\b{f}\b", text) or re.search(rf"\b{f}\b", dom)]
    assert found == [], f"a private fair on a shared page: {found}"


def test_the_spring_season_by_tapping_with_followers_and_a_watcher(server: int, browser: Any, shots: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # ---------------------------------------------------------------- new game and the setup guide
    page.goto(f"{base}/")
    page.select_option("#game-select", "keyper")
    page.locator("#variants select[name='tiebreak']").wait_for(state="attached")  # Keyper's house rules
    assert "Breaking a tie" in page.inner_text("#variants") or page.locator("#variants").is_hidden()
    names = page.locator("#new-game input[name='player']")
    for i, name in enumerate(NAMES):
        names.nth(i).fill(name)
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/setup$"))
    game_id = page.url.split("/")[-2]
    api = Api(page, base, game_id)
    guide = api.get("/setup")["guide"]
    secrets = private_fairs(api)
    assert len(secrets) == 9  # 3 seasons x 3 players, dealt before the first turn
    steps = page.locator(".setup-step")
    steps.first.wait_for()
    assert steps.count() == 7
    for step in range(7):
        current = page.locator(".setup-step:not([hidden])")
        key = current.get_attribute("data-key")
        text = current.inner_text()
        if key == "kp_setup.step_box":
            assert "For 3 players" in text and "3 country boards, spring side up" in text
        if key == "kp_setup.step_players":
            assert "12 home tiles" in text or f"{len(guide['each_player']['home_tiles'])} home tiles" in text
        if key == "kp_setup.step_display":
            assert current.locator("[data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)") == guide["display"]
        if key == "kp_setup.step_boats":
            assert current.locator("[data-boat]").evaluate_all("els => els.map(e => e.dataset.boat)") == guide["boats"]
        if key == "kp_setup.step_fairs":
            assert "3 private fairs" in text
        if key == "kp_setup.step_ready":
            assert f"{NAMES[guide['start']]} starts" in text
        shows_no_secret(page, secrets)
        page.screenshot(path=str(shots / f"kp-01-setup-{step + 1}.png"), full_page=True)
        if step < 6:
            page.click("#setup-next")
    page.click("#setup-start")
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    page.locator("#flow:not([hidden]) #flow-options button[data-pick]").first.wait_for()
    assert page.locator("#boards .country-board").count() == 3 and page.locator("#players .player-board").count() == 3
    display = page.locator("#display [data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)")
    assert display == api.get()["view"]["display"]
    # issue 27: the opening is a handful of picks (the keyples and the Keyper), not every move at once
    first = api.get()
    offered = page.locator("#flow-options button[data-pick]").evaluate_all("els => els.map(e => e.dataset.pick)")
    assert 2 <= len(offered) <= 8 and "keyper" in offered, offered  # of some 1,500 moves the opening allows
    assert offered == option_ids(first["pick"])
    lit = page.locator("#players .keep-area .lit[data-component]").evaluate_all("els => els.map(e => e.dataset.component)")
    assert lit and set(lit) <= set(offered), lit

    # the watcher: a second browser on the table; each player's private page in its own browser context
    watch_context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    watch_context.set_default_timeout(TIMEOUT)
    watcher = watch_context.new_page()
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    watcher.goto(f"{base}/games/{game_id}")
    watcher.locator("#boards .country-board").first.wait_for()
    seats = []
    seat_tokens = [seat["url"].rsplit("/", 1)[1] for seat in api.seats]
    for seat in api.seats:
        own = browser.new_context(viewport={"width": 420, "height": 900}, locale="en-US")
        own.set_default_timeout(TIMEOUT)
        seat_page = own.new_page()
        seat_page.on("pageerror", lambda error: errors.append(str(error)))
        seat_page.goto(base + seat["page"])
        seat_page.locator("#my-fairs [data-fair]").first.wait_for()
        own_view = api.get("/private/" + seat["url"].rsplit("/", 1)[1])
        mine = own_view["view"]["players"][own_view["seat"]]["private_fairs"]
        assert seat_page.locator("#my-fairs [data-fair]").evaluate_all("els => els.map(e => e.dataset.fair)") == mine
        seats.append(seat_page)
    seats[0].screenshot(path=str(shots / "kp-02-seat.png"), full_page=True)

    # a typed move the rules refuse: its rule ID and reason, nothing changes (spec 4.11)
    lines = len(api.get()["log"])
    page.click("#expert summary")
    page.fill("#move", "place orange 9.9")
    refused = sends_move(page, lambda: page.click("#play"))
    assert refused["status"] == 422 and refused["error"]["rule"], refused
    page.locator(f"#error .rule[data-rule='{refused['error']['rule']}']").wait_for()
    assert len(api.get()["log"]) == lines
    page.click("#expert summary")

    # the first turn on the picture: a keyple of the keep area, then a board, then a field lit on it
    api_path = f"{base}/api/games/{game_id}"
    colour = page.locator("#players .keep-area .lit[data-component]").first.get_attribute("data-component") or ""
    tap(page, "#flow-options", colour, "#players .keep-area [data-component]")
    page.locator("#boards .country-board.lit").first.wait_for()
    assert page.locator("#flow-options .pick-path").inner_text().lower().startswith(colour)
    boards = node(page, api_path, [colour], first["version"])
    board = next(i for i in option_ids(boards) if i.startswith("board-"))
    tap(page, "#flow-options", board, "#boards .country-board")
    fields = option_ids(node(page, api_path, [colour, board], first["version"]))
    assert fields and all(f.startswith(board[6:] + ".") for f in fields), fields
    assert sorted(page.locator("#boards .kp-field.lit").evaluate_all("els => els.map(e => e.dataset.component)")) == sorted(fields)
    page.screenshot(path=str(shots / "kp-02-table-fields-lit.png"), full_page=True)
    field = fields[0]
    after = option_ids(node(page, api_path, [colour, board, field], first["version"]))
    if after:
        tap(page, "#flow-options", field, "#boards .kp-field")
        answer = sends_move(page, lambda: page.locator(f"#flow-options button[data-pick='{after[0]}']").click())
    else:
        answer = sends_move(page, lambda: page.locator(f"#boards .kp-field.lit[data-component='{field}']").click())
    assert answer["status"] == 200, answer

    # ---------------------------------------------------------------- spring, decision by decision
    rng = random.Random(27)
    followed = passed = 0
    seen: list[str] = []
    shot: set[str] = set()
    for _ in range(MAX_DECISIONS):
        game = api.get()
        view = game["view"]
        if view["season"] == "summer" and view["waiting"] and view["waiting"]["kind"] == "turn":
            break
        waiting = view["waiting"]
        kind, seat = waiting["kind"], waiting["seat"]
        seen.append(kind)
        before = len(game["log"])
        wait_version(page, before)
        if kind not in shot and kind in ("follow", "fairs", "fold", "use"):
            shot.add(kind)
            page.screenshot(path=str(shots / f"kp-03-table-{kind}.png"), full_page=True)
        if kind == "follow":
            # spec 4.3: who may follow, and the yields alone and together, on the table and the follower's page
            page.locator("#pending .follow-offer").wait_for()
            pending = page.inner_text("#pending")
            assert NAMES[waiting["follow"]["placer"]] in pending and NAMES[seat] in pending
            assert f"gets {waiting['follow']['alone']}, with a follower each gets {waiting['follow']['together']}" in pending
            own = seats[seat]
            own.locator("#seat-offer.follow-note:not([hidden])").wait_for()
            own_path = f"{base}/api/games/{game_id}/private/{seat_tokens[seat]}"
            if followed == 0 or (passed > 0 and followed < 3):
                answer = tap_picks(own, "#legal", own_path, rng, first=lambda options: next(o for o in options if o != "pass"))
                followed += 1
            elif passed == 0:
                answer = tap_picks(own, "#legal", own_path, rng, first=lambda options: "pass")
                passed += 1
            else:
                answer = tap_picks(page, "#flow-options", api_path, rng, first=lambda options: "pass")
            if "follow" not in shot or followed + passed == 1:
                own.screenshot(path=str(shots / "kp-04-seat-follow.png"), full_page=True)
        elif kind == "fold":
            # each seat folds in secret on its own page; the table only says who is still folding
            assert page.locator("#flow-options button").count() == 0
            decider = waiting["deciders"][0]
            answer = tap_picks(seats[decider], "#legal", f"{base}/api/games/{game_id}/private/{seat_tokens[decider]}", rng)
        elif kind == "fairs":
            # the table points to the private page; its picks offer every fair of the season no one has shown (the
            # one held among them: naming it tells nothing), the seat's page only its own
            assert "own page" in page.inner_text("#flow-private")
            offered = set(option_ids(game["pick"]))
            dealt = {f for f in private_fairs(api) if f.startswith({"spring": "SP", "summer": "SU", "autumn": "AU"}[view["season"]])}
            assert dealt <= offered, (dealt, offered)
            answer = tap_picks(seats[seat], "#legal", f"{base}/api/games/{game_id}/private/{seat_tokens[seat]}", rng)
        else:
            page.wait_for_function(f"() => document.querySelector('#flow')?.dataset.seat === '{seat}'")
            finish = kind == "use" and not len(seen) % 4
            answer = tap_picks(page, "#flow-options", api_path, rng, on_picture=kind == "turn",
                               first=lambda options: "done" if finish and "done" in options
                               else next((o for o in options if o != "done"), "done"))
        assert answer["status"] == 200, answer
        wait_log_past(watcher, before)
        secrets = private_fairs(api)
        now = api.get()["view"]["waiting"]
        fairs_now = bool(now and now["kind"] == "fairs")
        shows_no_secret(watcher, secrets, fairs_now)
        shows_no_secret(page, secrets, fairs_now)
    else:
        raise AssertionError(f"spring did not end: {seen[-12:]}")

    # ---------------------------------------------------------------- after spring: checklist, boards, privacy
    assert followed >= 1 and passed >= 1, (followed, passed)
    assert {"turn", "use", "follow", "fairs", "fold"} <= set(seen), set(seen)
    game = api.get()
    assert game["view"]["season"] == "summer"
    watcher.wait_for_function("() => document.querySelector('#turn')?.textContent.includes('summer')")
    # the checklist stays until summer's first turn is played, every step done with its result
    first = game["view"]["waiting"]["seat"]
    check = watcher.locator("#season-end")
    check.wait_for()
    assert "End of spring" in watcher.inner_text("#season-end-heading")
    statuses = check.locator("[data-step]").evaluate_all("els => els.map(e => [e.dataset.step, e.dataset.status])")
    assert [s for _, s in statuses] == ["done"] * 9, statuses
    start_line = check.locator("[data-step='start']").inner_text()
    assert "Next start player" in start_line
    claim_line = check.locator("[data-step='claim'] .step-result").inner_text()
    for p in game["view"]["players"]:
        assert p["name"] in claim_line
    boats = check.locator("[data-step='boats'] .step-result").inner_text()
    assert boats.count("boat with") == len(game["view"]["boats"]) and not re.search(r"\bB\d\b", boats), boats
    watcher.screenshot(path=str(shots / "kp-05-watcher-summer.png"), full_page=True)
    # the folded boards show the revealed layouts; keyples all back home
    layouts = watcher.locator("#boards .country-board").evaluate_all("els => els.map(e => e.dataset.layout)")
    assert layouts == [b["layout"] for b in game["view"]["boards"]] and all("/summer/" in x for x in layouts)
    assert NAMES[first] in page.inner_text("#flow-who")

    # the same table in German: no English catalog phrase on it
    german = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    german.set_default_timeout(TIMEOUT)
    de = german.new_page()
    de.on("pageerror", lambda error: errors.append(str(error)))
    de.goto(f"{base}/games/{game_id}?lang=de")
    de.locator("#boards .country-board").first.wait_for()
    de.locator("#season-end-steps li").first.wait_for()
    de.wait_for_timeout(500)
    assert de.evaluate("document.documentElement.lang") == "de"
    assert "Sommer" in de.inner_text("#turn")
    assert visible_english(de, english_phrases()) == {}
    de.screenshot(path=str(shots / "kp-06-table-de.png"), full_page=True)
    de.goto(seats[0].url)
    de.locator("#my-fairs [data-fair]").first.wait_for()
    de.wait_for_timeout(300)
    assert visible_english(de, english_phrases()) == {}
    assert errors == []


def test_a_two_player_game_to_the_end_ranked_with_the_assignment(browser: Any, shots: Path, tmp_path: Path) -> None:
    """A 2-player game played to its end (random legal moves through the session), then the table: the setup guide
    names each player's 9th keyple; the final screen ranks the players with farm, village, fairs and shipping points,
    the best assignment tile by tile as the core scored it (spec 5.2) and the seed."""
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "keyper", ["Ana", "Ben"], seed="kp-end")
        rng = random.Random("kp-end")
        while not session.is_over:
            session.play(rng.choice(session.game.legal_moves(session.state)))
        game_id = session.id
        rows = session.game.score(session.state)
    with serving(tmp_path) as (port, _):
        base = f"http://127.0.0.1:{port}"
        context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        guide = page.request.get(f"{base}/api/games/{game_id}/setup").json()["guide"]
        assert sorted(guide["ninth"]) == ["0", "1"] and all(len(c) == 1 for c in guide["ninth"].values())
        page.goto(f"{base}/games/{game_id}/setup")
        page.locator(".setup-step").first.wait_for()
        page.click("#setup-next")
        page.click("#setup-next")
        ninth = page.locator(".setup-step:not([hidden]) .ninth li").all_inner_texts()
        assert len(ninth) == 2 and all("also takes:" in line for line in ninth)
        page.goto(f"{base}/games/{game_id}")
        final = page.locator("#final")
        final.locator(".final-row").first.wait_for()
        order = sorted(range(2), key=lambda seat: (rows[seat]["rank"], seat))
        assert final.locator(".final-row").evaluate_all("els => els.map(e => Number(e.dataset.seat))") == order
        for seat in order:
            row, shown = rows[seat], final.locator(f".final-row[data-seat='{seat}']")
            assert shown.get_attribute("data-total") == str(row["total"]) and shown.get_attribute("data-rank") == str(row["rank"])
            text = shown.inner_text()
            assert f"farm {row['farm']} · village {row['village']} · fairs {row['fairs']} · shipping {row['shipping']}" in text
            plots = shown.locator(".assignment tbody tr").evaluate_all("els => els.map(e => e.dataset.plot)")
            assert plots == [tile["plot"] for tile in row["tiles"]]
            points = shown.locator(".assignment tbody td.total").all_inner_texts()
            assert points == [str(tile["points"]) for tile in row["tiles"]]
        seed = page.locator("#final .seed").get_attribute("data-seed")
        assert seed and seed in page.inner_text("#final")
        assert "The game is over" in page.inner_text("#turn")
        page.screenshot(path=str(shots / "kp-07-final.png"), full_page=True)
        assert errors == []
