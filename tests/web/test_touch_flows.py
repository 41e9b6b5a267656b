"""The tablet's touch flows, setup guide and scoring screen in real Chromium.

A 2-player game is created with the form, which leads to the setup guide; its steps are walked
and checked against the game's draws. On the shared table, moves are made by tapping (never by
typed notation): a worker is placed on a highlighted space of the SVG board, taken back with
Undo, a bid with a crop the player lacks is refused with rule R-D3 and changes nothing, a bid is
placed with the stepper and fixed with Done, the turn is ended. The game is then played on
through the API up to an event every player answers; the panel asks them one by one in turn
order and the answers are tapped. At the end the scoring screen shows the breakdown, the
tie-breaks and the chart, and rescoring with entered stones. Screenshots:
test-output/screenshots/touch-*.png. Two shorter tests: the tie-break sentences, and 80 random
legal moves of a 3-player game each made by tapping (every legal move is reachable in the panel).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from tests.web.pagekit import LOG_COUNT, TIMEOUT, log_count, sends_first_options, sends_move
from tests.web.apikit import english, notation
from tests.web.pickkit import node, option_ids, random_picks, tap, tap_decision

CROPS = ("hops", "vegetables", "apples", "wine", "wheat")
BOX = "#flow-options"
"""The table's picker."""
PIECES = ".board .hex, #land-office .slot, .warehouse-tile, .board .beside li, .board ul.workers li, #town li"
"""The pictures of tiles and workers a tap may pick (an empty space may lie under a worker: its button is tapped)."""


class Api:
    """The game through its JSON API, as a second device would use it."""

    def __init__(self, page: Any, base: str, game_id: str) -> None:
        self.request = page.request
        self.path = f"{base}/api/games/{game_id}"
        self.seats: dict[int, str] = {}
        """The seats' private API links, each claimed on first use (the setup guide shows unclaimed seats' codes)."""
        self.base = base

    def claim(self, join_page: str) -> str:
        """A seat's private API link: the seat claimed with its join code, as a second device does."""
        answer = self.request.post(self.path + "/join/" + join_page.rsplit("/", 1)[1], data={})
        assert answer.ok, answer.text()
        url: str = answer.json()["url"]
        return url

    def get(self, rest: str = "") -> dict[str, Any]:
        answer = self.request.get(self.path + rest)
        assert answer.ok, answer.text()
        data: dict[str, Any] = answer.json()
        return data

    def private(self, seat: int) -> dict[str, Any]:
        if seat not in self.seats:
            self.seats[seat] = self.claim(self.get("/seats")["seats"][seat]["page"])
        data: dict[str, Any] = self.request.get(self.base + self.seats[seat]).json()
        return data

    def private_moves(self, seat: int) -> list[str]:
        """The seat's moves now, in notation (its page picks them)."""
        self.private(seat)
        moves: list[str] = self.request.get(self.base + self.seats[seat] + "/moves").json()["moves"]
        return moves

    def play(self, move: str) -> dict[str, Any]:
        version = self.request.get(self.path).json()["version"]
        answer = self.request.post(self.path + "/moves", data={"move": move, "version": version})
        assert answer.ok, (move, answer.text())
        data: dict[str, Any] = answer.json()
        return data



def wait_log(page: Any, count: int) -> None:
    page.wait_for_function(f"() => ({LOG_COUNT})() === {count}", timeout=TIMEOUT)



def undo(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())  # the shared screen asks first
    with page.expect_response(lambda r: r.url.endswith("/undo")) as answer:
        page.click("#undo")
    assert answer.value.ok, answer.value.text()


def test_touch_flows_setup_guide_and_scoring(server: int, browser: Any, shots: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # ---------------------------------------------------------------- the setup guide
    page.goto(f"{base}/")
    names = page.locator("#new-game input[name='player']")
    names.nth(1).wait_for()
    names.nth(0).fill("Alice")
    names.nth(1).fill("Bob")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/setup$"))
    game_id = page.url.split("/")[-2]
    api = Api(page, base, game_id)
    guide = api.get("/setup")["guide"]
    steps = page.locator(".setup-step")
    steps.first.wait_for()
    assert steps.count() == 7
    seen = []
    for step in range(7):
        current = page.locator(".setup-step:not([hidden])")
        assert current.count() == 1 and current.get_attribute("data-step") == str(step + 1)
        seen.append(current.get_attribute("data-key"))
        text = current.inner_text()
        if seen[-1] == "setup_step_box":
            assert "For 2 players" in text and "6 labourers A–F" in text and "60 harvest stones" in text
        if seen[-1] == "setup_step_seats":
            assert f"{['Alice', 'Bob'][guide['first_player']]} starts" in text
        if seen[-1] == "setup_step_start_tiles":  # each player's start tile and its twin, by label and crop
            for seat, tiles in enumerate(guide["start_tiles"]):
                row = current.locator(f".seat-row[data-seat='{seat}']")
                assert [row.locator(".tile").nth(i).get_attribute("data-label") for i in range(2)] == \
                    [tile["label"] for tile in tiles]
                assert tiles[0]["crop"] in row.inner_text()
        if seen[-1] == "setup_step_stones":
            assert "3 stones" in text and "54 stones" in text  # spec 2.2: 60 - 2 x 3
            assert current.locator(".seat-qr").count() == 2
        if seen[-1] == "setup_step_office":
            labels = current.locator(".office-tiles .tile").evaluate_all("els => els.map(e => e.dataset.label)")
            assert labels == [tile["label"] for tile in guide["land_office"]]
        if seen[-1] == "setup_step_events":
            assert "All 14 event tiles" in text and "46 field tiles" in text
        page.screenshot(path=str(shots / f"touch-01-setup-{step + 1}.png"), full_page=True)
        if step < 6:
            page.click("#setup-next")
    page.click("#setup-back")
    assert page.locator(".setup-step:not([hidden])").get_attribute("data-step") == "6"
    page.click("#setup-start")
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))

    # ---------------------------------------------------------------- a worker on a tapped space, then undo
    page.locator("#flow:not([hidden]) #flow-options button[data-pick]").first.wait_for()
    page.evaluate("() => { window.noReload = true; }")
    game = api.get()
    seat = game["to_move"]
    player = ["Alice", "Bob"][seat]
    table = api.path
    assert f"{player} decides" in page.inner_text("#flow-who")
    page.screenshot(path=str(shots / "touch-02-table-actions.png"))
    start = log_count(page)
    board = f".board[data-seat='{seat}']"

    labourers = next(g for g in game["pick"]["groups"] if g["ask"]["id"] == "kh.ask.place_labourer")
    worker = labourers["options"][0]["id"]
    tap(page, BOX, worker, f"{board} .beside li")  # the labourer beside the board is tapped
    spaces = page.locator(f"{board} .space.lit")
    assert spaces.count() > 0  # the legal spaces light up on the player's own board, and only there
    assert page.locator(".space.lit").count() == spaces.count()
    lit = set(spaces.evaluate_all("els => els.map(e => e.dataset.label)"))
    assert lit == set(option_ids(node(page, table, [worker], game["version"])))
    assert worker in page.inner_text(f"{BOX} .pick-path")  # what was picked, in words
    page.screenshot(path=str(shots / "touch-03-place-worker.png"))
    label = sorted(lit)[0]
    played = sends_move(page, lambda: page.locator(f"{board} .space.lit[data-component='{label}']").click())
    assert played["status"] == 200 and notation(played["played"][0]) == f"play {worker} {label}"
    wait_log(page, start + len(played["played"]))
    page.locator(f"{board} g.worker[data-worker='{worker}'][data-label='{label}']").wait_for()
    while (game := api.get())["view"]["pending"]:  # the worker's ability may ask: decline it by tapping
        wait_log(page, len(game["log"]))
        if "decline" in option_ids(game["pick"]):
            sends_move(page, lambda: page.click(f"{BOX} button[data-pick='decline']"))
        else:
            sends_first_options(page, BOX)
    undo(page)
    while api.get()["view"]["actions"]:  # back to the start of the turn
        undo(page)
    wait_log(page, start)
    assert page.locator(f"{board} g.worker").count() == 0
    page.locator(f"{BOX} button[data-pick='{worker}']").wait_for()

    # ---------------------------------------------------------------- a refused bid, then a bid of counted stones
    stones = api.private(seat)["view"]["players"][seat]["stones"]
    missing = next(crop for crop in CROPS if not stones[crop])
    office = page.locator("#land-office .slot.lit")
    assert office.count() == 6
    tile = office.first.get_attribute("data-label")
    tap(page, BOX, tile, "#land-office .slot")  # the land-office tile itself is tapped
    # every crop: the table does not learn what is behind the screen
    assert page.locator(f"{BOX} .pick-group").count() == 5
    assert page.locator(f"{BOX} button[data-pick]").count() <= 40
    tap(page, BOX, f"{missing}*1")
    assert "1" in page.inner_text(f"{BOX} .pick-words")  # the bid in words before it is sent
    refused = sends_move(page, lambda: page.click(f"{BOX} button[data-pick-send]"))
    # the shared tablet must not say why (the stones behind the screen): the player's own page does
    assert refused["status"] == 422 and refused["error"]["rule"] == "SCREEN"
    assert refused["error"]["reason"] == "Not possible: check your screen."
    page.locator("#error .rule[data-rule='SCREEN']").wait_for()
    assert missing in page.inner_text("#error")
    assert log_count(page) == start and api.get()["view"]["land_office"] == game["view"]["land_office"]
    page.screenshot(path=str(shots / "touch-04-refused.png"))

    phone = browser.new_context(viewport={"width": 400, "height": 860}, locale="de-DE").new_page()
    phone.set_default_timeout(TIMEOUT)
    phone.goto(f"{base}/games/{game_id}/setup")
    phone.locator(".setup-step[data-step='3']").wait_for(state="attached")
    phone.click("#setup-next")
    phone.click("#setup-next")
    assert "Startplättchen" in phone.inner_text(".setup-step:not([hidden]) h2")
    phone.screenshot(path=str(shots / "touch-10-phone-setup-de.png"), full_page=True)
    phone.goto(f"{base}/games/{game_id}")
    phone.locator("#land-office .slot.lit").first.wait_for()
    tap(phone, BOX, tile, "#land-office .slot")
    assert "Wie viele Erntesteine Weizen?" in phone.inner_text(BOX)  # the stones of a bid, in German
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # nothing off the side
    phone.screenshot(path=str(shots / "touch-11-phone-flow-de.png"), full_page=True)

    # ---------------------------------------------------------------- harvest: tap a tile of the own board
    tap(page, BOX, "harvest")
    tiles = page.locator(f"{board} .hex.lit")
    assert tiles.count() >= 1 and page.locator(".board .hex.lit").count() == tiles.count()  # only own tiles light up
    first = tiles.first.get_attribute("data-label")
    harvested = sends_move(page, tiles.first.click)
    assert harvested["status"] == 200 and (notation(harvested["played"][0]) or "").startswith(f"harvest {first}")
    page.locator(f"{board} .hex[data-label='{first}'][data-harvested='true']").wait_for()
    while (game := api.get())["view"]["pending"]:  # the rest of the group, each tile tapped, then done
        wait_log(page, len(game["log"]))
        group = [o for o in option_ids(game["pick"]) if o != "done"]
        if group:
            sends_move(page, lambda: page.locator(f"{board} .hex.lit[data-component='{group[0]}']").click())
            page.locator(f"{board} .hex[data-label='{group[0]}'][data-harvested='true']").wait_for()
        else:
            sends_move(page, lambda: page.click(f"{BOX} button[data-pick='done']"))
    page.locator("#turn", has_text="Actions taken: A").wait_for()

    held = api.private(seat)["view"]["players"][seat]["stones"]
    bid = [crop for crop in CROPS for _ in range(held[crop])][:2]  # two stones: the whole bid is one move
    counts = [f"{crop}*{bid.count(crop)}" for crop in dict.fromkeys(bid)]
    tap(page, BOX, tile, "#land-office .slot")
    for count in counts:
        tap(page, BOX, count)
    page.screenshot(path=str(shots / "touch-05-bid-picks.png"))
    placed = sends_move(page, lambda: page.click(f"{BOX} button[data-pick-send]"))
    assert notation(placed["played"][0]) == f"bid {tile} {' '.join(bid)}"  # one move (issue 10), then the refill at once
    assert any("take field tile" in english(line) or "event" in english(line) for line in placed["played"][1:])  # the refill names the piece
    page.locator("#error").wait_for(state="hidden")
    page.locator(f"{board} .warehouse-tile[data-label='{tile}']").wait_for()

    # ---------------------------------------------------------------- end the turn by tapping
    while (game := api.get())["to_move"] == seat and game["view"]["active"] == seat:
        wait_log(page, len(game["log"]))  # the page shows this very position (a refill may have drawn an event)
        choices = option_ids(game["pick"])
        verb = next((v for v in ("end", "done", "decline") if v in choices), None)
        if verb is None:  # an event drawn by the refill that cannot be declined: its first choices, tapped
            page.locator(f"#flow[data-seat='{seat}'] {BOX} button.pick").first.wait_for(timeout=2 * TIMEOUT)
            sends_first_options(page, BOX)
            continue
        button = page.locator(f"#flow[data-seat='{seat}'] {BOX} button[data-pick='{verb}']")
        button.wait_for(timeout=2 * TIMEOUT)
        sends_move(page, button.click)
    page.locator(f"#flow[data-seat='{1 - seat}']").wait_for()

    # ---------------------------------------------------------------- on to an event, answered on the table
    rng = random.Random(3)
    asked: dict[tuple[int, str], list[int]] = {}  # (track length, event) -> who the panel asked, in order
    drawer: dict[tuple[int, str], int] = {}
    while True:
        game = api.get()
        if game["to_move"] is None:
            break
        decider = game["to_move"]
        pending = game["view"]["pending"]
        if pending and pending["kind"] == "event" and len(asked) <= 6:
            key = (len(game["view"]["event_track"]), pending["event"])
            who = asked.setdefault(key, [])
            if not who or who[-1] != decider:
                drawer.setdefault(key, game["view"]["active"])
                page.locator(f"#flow[data-seat='{decider}']").wait_for()
                wait_log(page, len(game["log"]))
                assert f"{['Alice', 'Bob'][decider]} decides" in page.inner_text("#flow-who")
                assert pending["event"] in page.inner_text("#pending")
                if len(asked) == 1 and not who:
                    page.screenshot(path=str(shots / "touch-06-event.png"))
                who.append(decider)
                ids, confirm = random_picks(page, table, game["version"], rng,
                                            first=lambda options: "decline" if "decline" in options else options[0])
                assert tap_decision(page, BOX, ids, confirm)["status"] in (200, 422)
                continue
        legal = api.private_moves(decider)
        moves = [m for m in legal if m != "end"] if rng.random() < 0.7 else legal
        api.play(rng.choice(moves or legal))
    # the panel asked each player in turn order, the drawer first (spec 6.2)
    assert any(who == [drawer[key], 1 - drawer[key]] for key, who in asked.items()), asked

    # ---------------------------------------------------------------- the scoring screen
    final = page.locator("#final")
    final.wait_for(state="visible")
    score = api.get("/score")
    rows = score["players"]
    assert score["final"] is True
    chart = final.locator("svg.score-chart")
    assert chart.locator(".bar").count() == 2
    for seat_row, row in enumerate(rows):
        bar = chart.locator(f".bar[data-seat='{seat_row}']")
        assert bar.get_attribute("data-total") == str(row["total"])
        parts = {el["part"]: int(el["points"]) for el in bar.locator("rect.seg").evaluate_all(
            "els => els.map(e => ({part: e.dataset.part, points: e.dataset.points}))")}
        assert sum(parts.values()) == row["total"]
        body = final.locator(f"tbody tr[data-seat='{seat_row}']")
        assert body.locator("td[data-part='majority_points']").inner_text() == str(row["majority_points"])
    notes = final.locator(".tiebreaks li").all_inner_texts()
    if rows[0]["total"] == rows[1]["total"]:
        assert "tie on" in notes[0]
    else:
        assert notes == ["No tie: no tie-break was needed."]
    final.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "touch-07-final-score.png"), full_page=True)

    # stones entered by the players: seat 0 holds one of each crop, seat 1 nothing
    for crop in CROPS:
        page.fill(f"#stones-form input[data-seat='0'][data-crop='{crop}']", "1")
        page.fill(f"#stones-form input[data-seat='1'][data-crop='{crop}']", "0")
    with page.expect_response(lambda r: r.url.endswith("/score") and r.request.method == "POST") as answer:
        page.click("#rescore")
    rescored = answer.value.json()["players"]
    assert [row["majority_points"] for row in rescored] == [5, 0]
    final.locator(".rescored").wait_for()
    assert final.locator("tbody tr[data-seat='0'] td[data-part='majority_points']").inner_text() == "5"
    assert final.locator(".bar[data-seat='0']").get_attribute("data-total") == str(rescored[0]["total"])
    page.screenshot(path=str(shots / "touch-08-rescored.png"), full_page=True)
    assert api.get("/score")["players"] == rows  # the stored game did not change
    page.fill("#stones-form input[data-seat='1'][data-crop='wheat']", "-2")
    page.click("#rescore")
    page.locator("#error", has_text="whole number").wait_for()
    page.click("#score-tracked")
    assert final.locator(".rescored").count() == 0
    assert final.locator("tbody tr[data-seat='0'] td[data-part='majority_points']").inner_text() == \
        str(rows[0]["majority_points"])

    # ---------------------------------------------------------------- the bag, and German
    bag = page.locator("#bag")
    assert "Out of the bag" in bag.inner_text() and "never shows the order" in bag.inner_text()
    page.goto(f"{base}/games/{game_id}?lang=de")
    page.locator("#final").wait_for(state="visible")
    assert "Gleichstände" in page.inner_text("#final") and "Steine hinter den Sichtschirmen" in page.inner_text("#final")
    page.screenshot(path=str(shots / "touch-09-final-de.png"), full_page=True)
    assert errors == []


def test_tie_breaks_are_named_on_the_scoring_screen(server: int, browser: Any) -> None:
    """The scoring screen's sentences for each tie-break of R-END (spec 8), from score rows as the API gives them."""
    page = browser.new_context(locale="en-US").new_page()
    page.goto(f"http://127.0.0.1:{server}/")
    page.locator("#new-game").wait_for()

    def notes(rows: list[tuple[str, int, int, int]], tiles_rule: str = "fields_only") -> list[str]:
        given = [{"name": n, "total": total, "tiebreak": {"tiles": tiles, "stones": stones}} for n, total, tiles, stones in rows]
        found: list[str] = page.evaluate(
            "([rows, rule]) => import('/static/games/key_harvest/scoring.js').then(m => m.tiebreakNotes(rows, {tiebreak_tiles: rule}))",
            [given, tiles_rule])
        return found

    assert notes([("Alice", 30, 12, 2), ("Bob", 28, 14, 5)]) == ["No tie: no tie-break was needed."]
    assert notes([("Alice", 30, 12, 2), ("Bob", 30, 10, 5)]) == [
        "Alice and Bob tie on 30 points: more tiles on the board decide (Alice 12, Bob 10)."]
    assert notes([("Alice", 30, 12, 2), ("Bob", 30, 12, 5)]) == [
        "Alice and Bob tie on 30 points and 12 tiles on the board: more stones left decide (Alice 2, Bob 5)."]
    assert notes([("Alice", 30, 12, 2), ("Bob", 30, 12, 2)]) == [
        "Alice and Bob tie on 30 points, tiles and stones: they share the place."]
    three = notes([("Alice", 30, 12, 2), ("Bob", 30, 12, 5), ("Cara", 30, 9, 7)], "fields_and_workers")
    assert three == ["Alice, Bob and Cara tie on 30 points: more tiles and workers on the board decide "
                     "(Alice 12, Bob 12, Cara 9). Then more stones left decide (Alice 2, Bob 5, Cara 7)."]


TOUCH_MOVES = 80
"""Random decisions made by tapping in the second test: abilities, payments, events come up on the way."""


def test_random_decisions_are_all_made_by_tapping(server: int, browser: Any) -> None:
    """Random decisions of three players, each picked among what the decider's own page offers and tapped on the
    table (a lit component where the picture draws it, else the picker's button): each is played as picked."""
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    created = page.request.post(f"{base}/api/games", data={"players": ["Alice", "Bob", "Cara"]}).json()
    api = Api(page, base, created["id"])
    page.goto(f"{base}/games/{created['id']}")
    rng = random.Random(11)
    verbs: set[str] = set()
    taps = []
    for _ in range(TOUCH_MOVES):
        game = api.get()
        if game["to_move"] is None:
            break
        seat = game["to_move"]
        page.locator(f"#flow[data-seat='{seat}']").wait_for()
        wait_log(page, len(game["log"]))
        api.private(seat)
        mine = api.base + api.seats[seat]
        version = game["version"]

        def shared(chosen: list[str], options: list[str]) -> list[str]:
            on_table = set(option_ids(node(page, api.path, chosen, version)))
            return [o for o in options if o in on_table]

        while True:  # a decision the seat may make and the table offers (a bid of 9 or more is made on the phone)
            ids, confirm = random_picks(page, mine, version, rng, allowed=shared,
                                        first=lambda options: rng.choice([o for o in options if o != "end"] or options))
            if node(page, api.path, ids, version)["done"]:
                break
        view = game["view"]
        pieces = {tile["label"] for p in view["players"] for tile in p["tiles"] + p["warehouse"]}
        pieces |= {label for label in view["land_office"] if label} | set("ABCDEFGHIJKL")
        on_picture = rng.random() < 0.5  # half the decisions tap the lit tiles and workers, half the buttons
        answer = tap_decision(page, BOX, ids, confirm, lambda pick: PIECES if on_picture and pick in pieces else None)
        assert answer["status"] == 200, (ids, answer)
        move = notation(answer["played"][0]) or ""
        verbs.add(move.split()[0])
        taps.append(len(ids) + confirm)
    print(f"\ntapped verbs: {sorted(verbs)}; taps per decision: median {sorted(taps)[len(taps) // 2]}, most {max(taps)}")
    assert {"play", "bid", "end"} <= verbs, verbs
    assert max(taps) <= 8
