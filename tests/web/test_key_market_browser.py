"""A whole season (Winter of year 1) of a 3-player Key Market game played by tapping, in real Chromium.

The game is started on the tablet, its setup guide walked (the weather markers, turn order and farmhouse tiles
named as the companion drew them). Then every decision is picked by taps (issue 27: the piece or action, then where,
then the payment, in words): the territory boards on the shared table,
the secret farmhouse payments and Market Day commitments on each player's own page (its own browser context),
farming, the sales of Market Day and the upkeep of the Season End on the shared table, while a second browser
watches the table live. Checked on the way: a secret choice never shows on the watching table before the reveal
(spec 3.7: only "has chosen"), the reveal shows everyone's goods together; a sale's price on the button is the
market's price (spec 3.7 L418-422) and is the gold the seller gets; the market board shows each row's count and
prices; the Season End checklist; the next season starts. Screenshots: test-output/screenshots/km-*.png.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from companion.games import find_game
from companion.games.key_market import market as mk
from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import LOG_COUNT, TIMEOUT, log_count

NAMES = ["Ana", "Ben", "Cleo"]
GOODS = ["fruit", "veg", "wheat", "sheep", "fish", "lux"]
ENGLISH = {"fruit": "fruit", "veg": "vegetables", "wheat": "wheat", "sheep": "sheep", "fish": "fish", "lux": "luxury goods"}


class Api:
    """The game through its JSON API (to know what to check; every move is tapped)."""

    def __init__(self, page: Any, base: str, game_id: str) -> None:
        self.request = page.request
        self.path = f"{base}/api/games/{game_id}"
        self.seats = [self.claim(seat) for seat in self.get("/seats")["seats"]]

    def claim(self, seat: dict[str, Any]) -> dict[str, Any]:
        answer = self.request.post(self.path + "/join/" + seat["page"].rsplit("/", 1)[1], data={})
        assert answer.ok, answer.text()
        links: dict[str, Any] = answer.json()
        return links

    def get(self, rest: str = "") -> dict[str, Any]:
        answer = self.request.get(self.path + rest)
        assert answer.ok, answer.text()
        data: dict[str, Any] = answer.json()
        return data

    def private(self, seat: int) -> dict[str, Any]:
        """The seat's private view, with its moves now in notation as ``legal`` (its page picks them)."""
        path = "/private/" + self.seats[seat]["url"].rsplit("/", 1)[1]
        return {**self.get(path), "legal": self.get(path + "/moves")["moves"]}


def caught_up(api: Api, *pages: Any) -> None:
    """Wait until every page shows the game's whole log (the move and the draws after it)."""
    lines = len(api.get()["log"])
    for page in pages:
        page.wait_for_function(f"() => ({LOG_COUNT})() === {lines}")


def is_move(response: Any) -> bool:
    return bool(response.url.endswith("/moves") and response.request.method == "POST")


def tap_picks(page: Any, box: str, picks: list[str], then_first: bool = False) -> dict[str, Any]:
    """In the picker ``box`` (``#flow-options`` on the table, ``#legal`` on a seat page): tap each pick of ``picks``
    in turn (none: the first option; ``css:SELECTOR``: a tap on that element of the page, a lit component), with
    ``then_first`` the first option of each next pick, and OK where the decision is shown in words
    before it is sent (a payment, a purchase); the API's answer to the move sent, with its HTTP ``status``."""
    sent: list[Any] = []

    def listen(request: Any) -> None:  # the request, not its answer: the page draws the next decision after that
        if request.url.endswith("/moves") and request.method == "POST":
            sent.append(request)

    page.on("request", listen)
    made = 0  # the picks of ``picks`` made so far (a pick refused as out of date starts them again)
    try:
        for _ in range(600):
            if sent:
                answer = sent[0].response()
                data: dict[str, Any] = answer.json()
                data["status"] = answer.status
                return data
            ok = page.locator(f"{box} .pick-done button[data-pick-send]:not([disabled])")
            following = page.locator(f"{box} .pick-group button.pick:not([disabled])")
            if not page.locator(f"{box} .pick-head").count() and following.count():
                made = 0  # at the first pick, waiting for a tap
            if made < len(picks):
                pick = picks[made]
                wanted = page.locator(pick[4:] if pick.startswith("css:") else
                                      f"{box} button.pick[data-pick='{pick}']:not([disabled])")
                if wanted.count():
                    wanted.click()
                    made += 1
            elif made == 0 and following.count():  # no picks given: the first option
                following.first.click()
                made = 1
            elif made and then_first and following.count():
                following.first.click()
                made += 1
            elif made and ok.count():
                ok.click()
            page.wait_for_timeout(50)
    finally:
        page.remove_listener("request", listen)
    raise AssertionError(f"the picks {picks} never sent a move")


def goods_of(text: Any) -> list[str]:
    """The goods a move's words name (each ``km.count.good`` message, as often as it counts)."""
    if isinstance(text, list):
        return [good for part in text for good in goods_of(part)]
    if not isinstance(text, dict):
        return []
    if text.get("id") == "km.count.good":
        return [text["params"]["good"]["id"].rsplit(".", 1)[1]] * int(text["params"]["n"])
    return [good for value in text.get("params", {}).values() for good in goods_of(value)]


def first_picks(page: Any, box: str) -> list[str]:
    """The ids of the first pick's options in ``box``."""
    page.locator(f"{box} button.pick").first.wait_for()
    ids: list[str] = page.locator(f"{box} button.pick").evaluate_all("els => els.map(e => e.dataset.pick)")
    return ids


def test_a_whole_season_of_three_players_by_tapping(server: int, browser: Any, shots: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    errors: list[str] = []

    def new_page(width: int, height: int) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    page = new_page(1280, 1000)
    page.goto(f"{base}/")
    page.select_option("#game-select", "key-market")
    page.locator("#variants select[name='weather_shape']").wait_for(state="attached")
    names = page.locator("#new-game input[name='player']")
    for i, name in enumerate(NAMES):
        names.nth(i).fill(name)
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/setup$"))
    game_id = page.url.split("/")[-2]
    api = Api(page, base, game_id)
    guide = api.get("/setup")["guide"]
    game = find_game("key-market")
    edition = game.with_data(game.data_pack().shipped())  # the server's data folder is new: the shipped pack

    # ---------------------------------------------------------------- the setup guide names the companion's draws
    steps = page.locator(".setup-step")
    steps.first.wait_for()
    count = steps.count()
    seen = {}
    for step in range(count):
        current = page.locator(".setup-step:not([hidden])")
        seen[current.get_attribute("data-key")] = current.inner_text()
        page.screenshot(path=str(shots / f"km-01-setup-{step + 1}.png"), full_page=True)
        if step < count - 1:
            page.click("#setup-next")
    weather = seen["km_setup.step_weather"]
    for (square, round_), (square_good, round_good) in zip(guide["weather"][:3], guide["weather_goods"][:3]):
        assert f"square {square}: {ENGLISH[square_good]}; round {round_}: {ENGLISH[round_good]}" in weather
    assert [NAMES[seat] for seat in guide["turn_order"]] == \
        re.findall("|".join(NAMES), seen["km_setup.step_order"])[:3]
    for seat, tile in enumerate(guide["farmhouses"]):
        assert f"{NAMES[seat]} farmhouse tile {tile}" in seen["km_setup.step_farmhouses"]
    assert f"board {guide['dealt'][0]}, side {guide['dealt'][1].upper()}" in seen["km_setup.step_boards"]
    page.click("#setup-start")
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    page.locator("#flow:not([hidden]) #flow-options button.pick").first.wait_for()

    # a second browser watches the table live; each player's own page in its own browser
    watcher = new_page(1280, 1000)
    watcher.goto(f"{base}/games/{game_id}")
    watcher.locator("#market tr[data-good]").first.wait_for()
    seats = []
    for seat in api.seats:
        own = new_page(420, 900)
        own.goto(base + seat["page"])
        own.locator("#my-goods").get_by_text(re.compile("gold")).wait_for()
        seats.append(own)

    # ---------------------------------------------------------------- Winter of year 1, decision by decision
    secrets: dict[int, list[str]] = {}
    sold: list[tuple[int, str, int]] = []
    checked = set()
    for _ in range(150):
        game = api.get()
        view = game["view"]
        if (view["year"], view["season"]) != (1, "winter"):
            break
        before = log_count(watcher)
        stage = view["stage"]
        if view["to_move"] == "simultaneous":
            verb = "pay" if stage == "pay" else "commit"
            seat = view["deciders"][0]
            answer = tap_picks(seats[seat], "#legal", [], then_first=True)
            assert answer["status"] == 200, answer
            secrets[seat] = goods_of(answer["played"][0])  # the maker's own log line names the goods
            if len(view["deciders"]) > 1:  # not revealed yet: the table says only who has chosen
                card = watcher.locator(f"#players .km-player[data-seat='{seat}'] .badge.secret[data-chosen='true']")
                card.wait_for()
                text = watcher.inner_text("body")
                html = watcher.content()
                assert "Brought to market" not in text and "bring to market" not in text
                assert "data-picked" not in html
                assert f"{NAMES[seat]} chose in secret" in watcher.inner_text("#log")  # the log masks it too
                public = api.get()["view"]["players"][seat]
                assert public["secret"] is None and public["goods"] is None
                own = "You bring to market" if stage == "commit" else "Your farmhouse payment"
                seats[seat].locator("#my-secret").get_by_text(own).wait_for()  # the maker's own page shows it
                if stage == "commit" and "commit" not in checked:
                    watcher.screenshot(path=str(shots / "km-03-secret-commit-watcher.png"), full_page=True)
                    seats[seat].screenshot(path=str(shots / "km-04-secret-commit-seat.png"), full_page=True)
                checked.add(stage)
            else:
                watcher.wait_for_function(f"() => ({LOG_COUNT})() > {before}")
                if stage == "commit":  # the reveal: everyone's goods at once
                    for shown_seat, shown in secrets.items():
                        goods = shown
                        card = watcher.locator(f"#players .km-player[data-seat='{shown_seat}']")
                        card.get_by_text("Brought to market").wait_for()
                        for good in set(goods):
                            assert f"{goods.count(good)} {ENGLISH[good]}" in card.inner_text()
                    checked.add("reveal")
                secrets = {}
            caught_up(api, page, watcher)
            continue
        seat = view["to_move"]
        assert isinstance(seat, int)
        page.locator(f"#flow[data-seat='{seat}'] #flow-options button.pick").first.wait_for()
        verbs = first_picks(page, "#flow-options")
        if stage == "farming" and view["harvests"].get(str(seat)) and "harvest" not in checked:
            watcher.locator(f"#players .km-player[data-seat='{seat}'] .harvest-total").wait_for()
            page.screenshot(path=str(shots / "km-02-table-farming.png"), full_page=True)
            checked.add("harvest")
        if stage == "market" and "sell" in verbs and not sold:
            page.locator("#flow-options button.pick[data-pick='sell']").click()
            page.locator("#flow-options .pick-head").wait_for()
            assert page.inner_text("#flow-options .pick-ask") == "Sell which good?"
            good = page.locator("#flow-options button.pick").first.get_attribute("data-pick")
            row = next(r for r in view["market"] if r["good"] == good)
            price = mk.sell_price(edition.data, row["n"], int(view["options"]["covered_sell_price"]))
            assert price == row["sell"]  # the market board's price is the market's
            shown = watcher.locator(f"#market tr[data-good='{good}'] td.sell").inner_text()
            assert shown == f"{price} gold"
            # the market row of each good on offer is lit: a tap on it is the same pick
            assert page.locator(f"#market tr.lit[data-component='{good}']").count() == 1
            gold = api.private(seat)["view"]["players"][seat]["gold"]
            # a tap on the lit row picks the good; then one of it, if more could be sold
            answer = tap_picks(page, "#flow-options", [f"css:#market tr.lit[data-component='{good}']"], then_first=True)
            assert answer["status"] == 200, answer
            watcher.locator("#log li", has_text=f"sell 1 {ENGLISH[good]} for {price} gold").first.wait_for()
            assert api.private(seat)["view"]["players"][seat]["gold"] == gold + price
            sold.append((seat, good, price))
            page.screenshot(path=str(shots / "km-05-table-market.png"), full_page=True)
        else:
            preferred = {"farming": ["produce", "done"], "market": ["sell", "pass", "gold"],
                         "early": ["done", "pass"], "upkeep": ["keep"]}.get(stage, [])
            verb = next((v for v in preferred if v in verbs), verbs[0])
            if stage == "upkeep" and "season-end" not in checked:
                watcher.locator("#season-end:not([hidden]) .check.order li").first.wait_for()
                assert "Market removals" in watcher.inner_text("#season-end")
                assert "deciding now" in watcher.inner_text(f"#season-end li[data-seat='{seat}'][data-upkeep='deciding']")
                watcher.screenshot(path=str(shots / "km-06-season-end.png"), full_page=True)
                checked.add("season-end")
            if stage == "place":  # the new board: beside which board, turned how, the first worker's field, in words
                # a question with one answer is skipped: only one place beside, or one way to turn it
                assert page.inner_text("#flow-options .pick-ask") in ("Where does the new board go?",
                                                                       "Which way is it turned?",
                                                                       "Your first worker on which field?")
                assert not re.search(r"-?\d+,-?\d+|column|row", page.inner_text("#flow-options"))
            answer = tap_picks(page, "#flow-options", [verb], then_first=True)
            assert answer["status"] == 200, answer
        watcher.wait_for_function(f"() => ({LOG_COUNT})() > {before}")
        caught_up(api, page, watcher)
    else:
        raise AssertionError("Winter never ended")

    assert {"pay", "commit", "reveal", "harvest"} <= checked and sold
    watcher.wait_for_function("() => document.querySelector('#turn').innerText.includes('Year 1, spring')")
    territory = watcher.locator("#territory")  # spec 2.2 step 15: each board, who laid it, its fields (public)
    assert territory.locator(".field").count() == 27
    assert territory.locator(".field[data-component^='KM:F:']").count() == 27  # each field its sticker's id
    assert territory.locator(".field[data-good='lux'] .shape").first.inner_text() == "village"
    assert not re.search(r"-?\d+,-?\d+", territory.inner_text())  # no grid position on the screen
    for board in api.get()["view"]["boards"]:
        line = territory.locator(f".boards-list li[data-board='{board['board']}']").inner_text()
        assert line.startswith(f"Board {board['board']}, side {board['side'].upper()} laid by {NAMES[board['seat']]}")
        assert "8 resource fields:" in line and "Village: centre." in line and ("round" in line or "square" in line)
        assert "top left: " in line and "bottom right: " in line
    watcher.screenshot(path=str(shots / "km-07-spring.png"), full_page=True)
    assert errors == []


def test_the_final_screen_ranks_the_players_with_the_best_split_item_by_item(browser: Any, shots: Path,
                                                                            tmp_path: Path) -> None:
    """Spec 5: the players ranked winner first, each with every scoring item (manor, gold, the goods' best split into
    sets and pairs, guild members) and the total; the seed of the draws."""
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "key-market", NAMES, seed="km-final")
        rng = random.Random("km-final")
        while not session.is_over:
            session.play(rng.choice(session.game.legal_moves(session.state)))
        game_id, rows = session.id, session.view(None)["score"]
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    with serving(tmp_path) as (port, _):
        page.goto(f"http://127.0.0.1:{port}/games/{game_id}")
        page.locator("#final:not([hidden]) .final-row").first.wait_for()
        ranked = page.locator("#final .final-row")
        order = sorted(range(3), key=lambda seat: (rows[seat]["rank"], seat))
        assert ranked.evaluate_all("els => els.map(e => Number(e.dataset.seat))") == order
        for shown, seat in enumerate(order):
            row = ranked.nth(shown)
            assert row.get_attribute("data-total") == str(rows[seat]["total"])
            items = row.locator(".final-items li")
            assert items.evaluate_all("els => els.map(e => Number(e.dataset.vp))") == [i["vp"] for i in rows[seat]["items"]]
            for item in rows[seat]["items"]:
                if item["kind"] == "pair":
                    word = "pair" if item["count"] == 1 else "pairs"
                    assert f"{item['count']} {word} of {ENGLISH[item['what']]}: {item['vp']} VP" in row.inner_text()
        assert "km-final" in page.inner_text("#final .seed")
        page.screenshot(path=str(shots / "km-08-final.png"), full_page=True)
    context.close()


def test_every_stage_draws_for_two_and_four_players(browser: Any, tmp_path: Path) -> None:
    """Tables of 2 players (the small board, no favour track) and 4, caught at every stage of the calendar (spec 3):
    the table and a seat page draw without a script error, with no identifier or placeholder shown raw."""
    caught: list[tuple[str, int]] = []
    with GameStore(tmp_path / "games.sqlite3") as store:
        for players in (2, 4):
            session = Session.new(store, "key-market", NAMES[:players] + ["Dora"][:players - 3], seed=f"km-{players}")
            rng = random.Random(players)
            stages: set[str] = set()
            while not session.is_over and len(stages) < 7:
                stage = session.state.stage
                if stage not in stages:
                    stages.add(stage)
                    copy = Session.new(store, "key-market", session.players, seed=f"km-{players}")
                    for move in session.history:
                        if not move.is_chance:
                            copy.play(move)
                    caught.append((copy.id, players))
                session.play(rng.choice(session.game.legal_moves(session.state)))
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serving(tmp_path) as (port, _):
        base = f"http://127.0.0.1:{port}"
        for game_id, players in caught:
            api = Api(page, base, game_id)
            for path in (f"/games/{game_id}", api.seats[0]["page"]):
                page.goto(base + path)
                page.locator("#log li").first.wait_for()
                page.wait_for_timeout(300)
                text = page.inner_text("body")
                assert not re.findall(r"\bkm_\w+|\b(?:ui|km)\.\w+\.[\w.]+|\{\w+\}|\[object \w+\]|undefined|NaN", text), (players, path)
            page.goto(f"{base}/games/{game_id}")
            page.locator("#market tr[data-good]").first.wait_for()
            assert page.locator("#market tr[data-good]").count() == 6
            assert page.locator("#players .km-player").count() == players
    assert errors == [] and len(caught) >= 10


def test_a_guild_bonus_the_player_places_is_offered_in_words(browser: Any, tmp_path: Path) -> None:
    """L678-680: guild 2's apprentice gives +1 to a square field of the player's choice: on the table, ``produce`` then
    asks which field for the guild, each offered as the table names it (its good, where it lies on whose board),
    never as the move's token (``2a:3,0``) or a grid position; each field offered is lit on the territory."""
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "key-market", NAMES, seed="kmp-25")
        rng = random.Random(25)
        while not any(str(m).startswith("produce 2a:") for m in session.game.legal_moves(session.state)):
            assert not session.is_over
            session.play(rng.choice(session.game.legal_moves(session.state)))
        game_id = session.id
        choices = [str(m) for m in session.game.legal_moves(session.state) if m.verb == "produce"]
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    with serving(tmp_path) as (port, _):
        page.goto(f"http://127.0.0.1:{port}/games/{game_id}")
        page.locator("#flow:not([hidden]) button.pick[data-pick='produce']").click()
        page.locator("#flow-options .pick-head").wait_for()
        assert page.inner_text("#flow-options .pick-ask") == "Which fields for the Drapers' Guild?"
        options = page.locator("#flow-options button.pick")
        labels = options.evaluate_all("els => els.map(e => [e.dataset.pick, e.innerText])")
        assert len(labels) == len(choices) > 1  # the first eligible field (no token) and each other one
        for pick, label in labels:
            assert re.fullmatch(r"the \w+ field at the [a-z ]+ of \w+'s board", label), label
            assert pick.startswith("KM:F:") and page.locator(f"#territory .field.lit[data-component='{pick}']").count() == 1
            assert not re.search(r"\d+[amj]:|-?\d+,-?\d+|km_|\{\w+\}|undefined", label), label
    context.close()
