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
from collections import Counter
from pathlib import Path
from typing import Any

from tests.web.pagekit import LOG_COUNT, TIMEOUT, log_count, sends_move
from tests.web.apikit import english, notation

CROPS = ("hops", "vegetables", "apples", "wine", "wheat")


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
    page.locator("#flow:not([hidden]) .flow-verb").first.wait_for()
    page.evaluate("() => { window.noReload = true; }")
    game = api.get()
    seat = game["to_move"]
    player = ["Alice", "Bob"][seat]
    assert f"{player} decides" in page.inner_text("#flow-who")
    page.screenshot(path=str(shots / "touch-02-table-actions.png"))
    start = log_count(page)

    page.click(".flow-verb[data-verb='play']")
    worker = page.locator(".flow-token").first.get_attribute("data-token")
    page.locator(".flow-token").first.click()
    spaces = page.locator(f".board[data-seat='{seat}'] .space.choice")
    assert spaces.count() > 0  # the legal spaces light up on the player's own board
    expected = {m.split()[2] for m in game["choices"] if m.startswith(f"play {worker} ")}
    lit = set(spaces.evaluate_all("els => els.map(e => e.dataset.label)"))
    assert lit == expected
    page.screenshot(path=str(shots / "touch-03-place-worker.png"))
    label = sorted(lit)[0]
    played = sends_move(page, lambda: page.locator(f".board[data-seat='{seat}'] .space.choice[data-label='{label}']")
                       .click())
    assert played["status"] == 200 and notation(played["played"][0]) == f"play {worker} {label}"
    wait_log(page, start + len(played["played"]))
    page.locator(f".board[data-seat='{seat}'] g.worker[data-worker='{worker}'][data-label='{label}']").wait_for()
    while api.get()["view"]["pending"]:  # the worker's ability may ask: decline it by tapping
        sends_move(page, lambda: page.click(".flow-verb[data-verb='decline']", timeout=30000))
    undo(page)
    while api.get()["view"]["actions"]:  # back to the start of the turn
        undo(page)
    wait_log(page, start)
    assert page.locator(f".board[data-seat='{seat}'] g.worker").count() == 0
    assert page.locator(".flow-verb[data-verb='play']").count() == 1

    # ---------------------------------------------------------------- a refused bid, then a bid with the stepper
    stones = api.private(seat)["view"]["players"][seat]["stones"]
    missing = next(crop for crop in CROPS if not stones[crop])
    have = next(crop for crop in CROPS if stones[crop])
    page.click(".flow-verb[data-verb='bid']")
    office = page.locator("#land-office .slot.choice")
    assert office.count() == 6
    tile = office.first.get_attribute("data-label")
    office.first.click()  # the land-office tile itself is tapped
    assert page.locator(".stepper-row").count() == 5  # every crop: the table does not learn what is behind the screen
    page.click(f".stepper-row[data-crop='{missing}'] .more")
    refused = sends_move(page, lambda: page.click(".flow-send"))
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
    phone.locator("#flow:not([hidden]) .flow-verb[data-verb='bid']").click()
    phone.locator("#land-office .slot.choice").first.wait_for()
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # nothing off the side
    phone.screenshot(path=str(shots / "touch-11-phone-flow-de.png"), full_page=True)

    # ---------------------------------------------------------------- harvest: tap a tile of the own board
    page.click(".flow-verb[data-verb='harvest']")
    tiles = page.locator(f".board[data-seat='{seat}'] .hex.choice")
    assert tiles.count() >= 1 and page.locator(".board .hex.choice").count() == tiles.count()  # only own tiles light up
    first = tiles.first.get_attribute("data-label")
    harvested = sends_move(page, tiles.first.click)
    assert harvested["status"] == 200 and (notation(harvested["played"][0]) or "").startswith(f"harvest {first}")
    page.locator(f".board[data-seat='{seat}'] .hex[data-label='{first}'][data-harvested='true']").wait_for()
    if api.get()["view"]["pending"]:  # the rest of the group in one tap, then done
        group = [m.split()[1] for m in api.get()["choices"] if m.startswith("harvest ") and "/" not in m]
        page.click(".flow-harvest-all")
        for label in group:
            page.locator(f".board[data-seat='{seat}'] .hex[data-label='{label}'][data-harvested='true']").wait_for()
        if api.get()["view"]["pending"]:
            sends_move(page, lambda: page.click(".flow-verb[data-verb='done']"))
    page.locator("#turn", has_text="Actions taken: A").wait_for()

    page.click(".flow-verb[data-verb='bid']")
    page.locator(f"#land-office .slot.choice[data-label='{tile}']").click()
    held = api.private(seat)["view"]["players"][seat]["stones"]
    bid = [crop for crop in CROPS for _ in range(held[crop])][:2]  # two stones: the whole bid is one move
    for crop in bid:
        page.click(f".stepper-row[data-crop='{crop}'] .more")
    assert page.inner_text(f".stepper-row[data-crop='{bid[0]}'] .count") == str(bid.count(bid[0]))
    page.screenshot(path=str(shots / "touch-05-bid-stepper.png"))
    placed = sends_move(page, lambda: page.click(".flow-send"))
    assert notation(placed["played"][0]) == f"bid {tile} {' '.join(bid)}"  # one move (issue 10), then the refill at once
    assert any("take field tile" in english(line) or "event" in english(line) for line in placed["played"][1:])  # the refill names the piece
    page.locator("#error").wait_for(state="hidden")
    page.locator(f".board[data-seat='{seat}'] .warehouse-tile[data-label='{tile}']").wait_for()

    # ---------------------------------------------------------------- end the turn by tapping
    while (game := api.get())["to_move"] == seat and game["view"]["active"] == seat:
        wait_log(page, len(game["log"]))  # the page shows this very position (a refill may have drawn an event)
        choices = game["choices"]
        verb = "end" if "end" in choices else "done" if "done" in choices else "decline"
        button = page.locator(f"#flow[data-seat='{seat}'] .flow-verb[data-verb='{verb}']")
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
                assert f"{['Alice', 'Bob'][decider]} decides" in page.inner_text("#flow-who")
                assert pending["event"] in page.inner_text("#pending")
                if len(asked) == 1 and not who:
                    page.screenshot(path=str(shots / "touch-06-event.png"))
                who.append(decider)
                decline = page.locator(".flow-verb[data-verb='decline']")
                target = decline if decline.count() else page.locator(".flow-verb, .flow-token").first
                assert sends_move(page, target.click)["status"] in (200, 422)
                continue
        legal = api.private(decider)["legal"]
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
"""Random legal moves made by tapping in the second test: abilities, payments, events come up on the way."""


def tokens_of(move: str) -> list[str]:
    """As the flows split a move: "harvest B3/wine" -> harvest, B3, /wine."""
    verb, *args = move.split()
    tokens = [verb]
    if verb in ("gain", "take", "flip"):  # one unordered pick: whole arguments, in any order
        return [verb, *args]
    for arg in args:
        label, cut, crop = arg.partition("/")
        tokens += [label, f"/{crop}"] if cut else [arg]
    return tokens


def tap(page: Any, move: str, choices: list[str]) -> dict[str, Any]:
    """Make `move` on the table by tapping the flow panel's buttons (the stepper for stones); the API's answer."""
    tokens = tokens_of(move)

    def longer(prefix: list[str]) -> bool:
        """Whether a longer choice goes on from ``prefix`` (for one unordered pick: holds its picks in any order)."""
        def extends(t: list[str]) -> bool:
            if prefix[0] in ("gain", "take", "flip"):
                return t[0] == prefix[0] and not Counter(prefix[1:]) - Counter(t[1:])
            return t[:len(prefix)] == prefix
        return any(len(t) > len(prefix) and extends(t) for t in map(tokens_of, choices))

    verb = page.locator(f"#flow .flow-verb[data-verb='{tokens[0]}']")
    if verb.count():  # (a decision with one verb skips its button)
        if len(tokens) == 1 and not longer(tokens):
            return sends_move(page, verb.click)
        verb.click()
    for i, token in enumerate(tokens[1:], start=1):
        if page.locator("#flow .stepper").count():  # every stone of the bid or payment, then one send
            for crop in tokens[i:]:
                page.click(f".stepper-row[data-crop='{crop}'] .more")
            return sends_move(page, lambda: page.click(".flow-send"))
        button = page.locator(f"#flow .flow-token[data-token='{token}']")
        if i == len(tokens) - 1 and not longer(tokens):
            return sends_move(page, button.click)
        button.click()
    return sends_move(page, lambda: page.click("#flow .flow-finish"))


def test_random_legal_moves_are_all_made_by_tapping(server: int, browser: Any) -> None:
    """Every legal move can be reached in the flow panel: random ones of three players, each tapped."""
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    created = page.request.post(f"{base}/api/games", data={"players": ["Alice", "Bob", "Cara"]}).json()
    api = Api(page, base, created["id"])
    page.goto(f"{base}/games/{created['id']}")
    rng = random.Random(11)
    verbs: set[str] = set()
    for _ in range(TOUCH_MOVES):
        game = api.get()
        if game["to_move"] is None:
            break
        page.locator(f"#flow[data-seat='{game['to_move']}']").wait_for()
        wait_log(page, len(game["log"]))
        legal = api.private(game["to_move"])["legal"]
        others = [m for m in legal if m != "end"]
        move = rng.choice(others) if others and rng.random() < 0.8 else rng.choice(legal)
        try:
            answer = tap(page, move, game["choices"])
        except Exception as error:  # name the move the flow panel could not send
            raise AssertionError(f"tapping {move!r} (choices {game['choices']}) sent nothing: {error}") from error
        assert answer["status"] == 200, (move, answer)
        assert notation(answer["played"][0]) == move
        verbs.add(move.split()[0])
    print(f"\ntapped verbs: {sorted(verbs)}")
    assert {"play", "bid", "end"} <= verbs, verbs


def test_a_two_pick_choice_takes_its_picks_in_either_order(server: int, browser: Any) -> None:
    """Two stones from the supply (Day Labourer): wheat first still offers every crop second, and the panel
    says "Pick 1 of 2" (before issue 10 only wheat could follow wheat: the choices were in crop order)."""
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{base}/")
    result = page.evaluate("""async () => {
      const flows = await import("/static/games/key_harvest/flows.js");
      const crops = ["hops", "vegetables", "apples", "wine", "wheat"];
      const choices = [];
      crops.forEach((a, i) => crops.slice(i).forEach((b) => choices.push(`gain ${a} ${b}`)));
      choices.push("decline");
      return {
        afterWheat: flows.nextTokens(choices, ["gain", "wheat"]),
        afterHops: flows.nextTokens(choices, ["gain", "hops"]),
        both: flows.nextTokens(choices, ["gain", "wheat", "hops"]),
        bidPattern: flows.isStepperPattern(["bid", "C3"]),
      };
    }""")
    assert sorted(result["afterWheat"]["next"]) == sorted(CROPS) and not result["afterWheat"]["complete"]
    assert sorted(result["afterHops"]["next"]) == sorted(CROPS)
    assert result["both"] == {"next": [], "complete": True}
    assert result["bidPattern"] is True
