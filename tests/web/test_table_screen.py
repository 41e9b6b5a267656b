"""The shared table page of both games in Chromium (issue 13): "At the table now" shows the physical instructions of
the last move whichever device made it, one quiet notice for provisional data, the bag's labels, and the final
screen ranked with each VP source in words, the tie-break and the seed (English and German)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.core.game import CHANCE
from companion.core.messages import Message, render
from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import LOG_COUNT, TIMEOUT, log_count

GAMES = [("key-harvest", ["Ana", "Ben"]), ("la-granja", ["Ana", "Ben"])]
COMMANDS = re.compile(r"\bcompanion (data|play|serve|score|simulate)\b|\.json\b|docs/")
"""What a player's screen must never show: a command line or a file path."""
CODES = re.compile(r"\bV\d{1,2}\b")
"""La Granja's ledger codes (V1-V16): players read the sources in words."""


def said(text: Any, language: str = "en") -> str:
    """A text of the API as a reader of ``language`` sees it."""
    return render(Message.from_json(text), language) if isinstance(text, dict) else str(text)


class Device:
    """Another device at the table (a phone): its own browser context, its own claimed seats."""

    def __init__(self, browser: Any, base: str, game_id: str) -> None:
        self.request = browser.new_context().request
        self.path = f"{base}/api/games/{game_id}"
        seats = self.get("/seats")["seats"]
        self.urls = [self.post("/join/" + seat["page"].rsplit("/", 1)[1], {})["url"] for seat in seats]
        self.base = base

    def get(self, rest: str = "") -> dict[str, Any]:
        answer = self.request.get(self.path + rest)
        assert answer.ok, answer.text()
        data: dict[str, Any] = answer.json()
        return data

    def post(self, rest: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.request.post(self.path + rest, data=body)
        assert answer.ok, answer.text()
        data: dict[str, Any] = answer.json()
        return data

    def move(self, rng: random.Random) -> dict[str, Any]:
        """One legal move of the seat to decide, from its private page; the public game after it."""
        game = self.get()
        seat = game["deciders"][0]
        mine = self.request.get(self.base + self.urls[seat]).json()
        legal = self.request.get(self.base + self.urls[seat] + "/moves").json()["moves"]
        move = "end" if "end" in legal else rng.choice(legal)
        answer = self.request.post(f"{self.base}{self.urls[seat]}/moves",
                                   data={"move": move, "version": mine["version"]})
        assert answer.ok, answer.text()
        public: dict[str, Any] = answer.json()["game"]
        return public


def box_lines(page: Any) -> list[str]:
    lines: list[str] = page.locator("#table-now-list li").all_inner_texts()
    return lines


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_at_the_table_now_shows_a_move_made_on_another_device_until_the_next(
        server: int, browser: Any, shots: Path, name: str, players: list[str]) -> None:
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    game = page.request.post(f"{base}/api/games", data={"game": name, "players": players}).json()
    phone = Device(browser, base, game["id"])
    page.goto(f"{base}/games/{game['id']}")
    page.locator("#log li").first.wait_for()
    rng = random.Random(13)
    shown: list[str] = []
    for turn in range(2):
        after = phone.move(rng)
        now = after["table_now"]
        assert now and now == after["log"][len(after["log"]) - len(now):]  # the last lines of the public log
        expected = [said(line) for line in now]
        page.wait_for_function("lines => JSON.stringify([...document.querySelectorAll('#table-now-list li')]"
                               ".map(li => li.innerText)) === JSON.stringify(lines)", arg=expected)
        assert page.locator("#table-now").is_visible()
        box = page.locator("#table-now").bounding_box()
        assert box is not None and box["y"] < 800  # near the top: in view without scrolling
        if turn:  # the next move replaced the lines of the one before
            assert box_lines(page) == expected and expected != shown
        shown = expected
        assert log_count(page) == len(after["log"])  # the whole log, rebuilt from the updates' new lines
    page.screenshot(path=str(shots / f"table-now-{name}.png"))
    if after["undo"]["possible"]:  # an undo from another device: the log shrinks, the box shows what is left
        phone.post("/undo", {"version": after["version"]})
        now = phone.get()
        page.wait_for_function(f"() => ({LOG_COUNT})() === {len(now['log'])}")
        page.wait_for_function("lines => JSON.stringify([...document.querySelectorAll('#table-now-list li')]"
                               ".map(li => li.innerText)) === JSON.stringify(lines)",
                               arg=[said(line) for line in now["table_now"]])


def test_one_quiet_notice_per_game_links_to_the_data_page_and_stays_dismissed(server: int, browser: Any) -> None:
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    ids = {name: page.request.post(f"{base}/api/games", data={"game": name, "players": players}).json()["id"]
           for name, players in GAMES}
    for name, game_id in ids.items():
        page.goto(f"{base}/games/{game_id}")
        page.locator("#warnings .notice").wait_for()
        assert page.locator("#warnings li").count() == 1  # one line, however many values are provisional
        assert page.locator("#warnings .notice a").get_attribute("href") == "/data"
        assert page.locator(".banner:visible, #provisional").count() == 0  # no second banner
        text = page.inner_text("body")
        assert not COMMANDS.search(text), COMMANDS.search(text)
        assert len(page.inner_text("#warnings").splitlines()) == 1
        page.goto(f"{base}/games/{game_id}/setup")  # the setup guide: the same notice, sections named in words
        page.locator("#warnings .notice").wait_for()
        assert page.locator("#warnings li").count() == 1
        text = page.inner_text("body")
        assert not COMMANDS.search(text), COMMANDS.search(text)
        assert "roof_markers" not in text and "siesta," not in text
    page.goto(f"{base}/games/{ids['key-harvest']}")
    page.locator("#warnings .notice-dismiss").click()
    assert page.locator("#warnings").is_hidden()
    page.reload()
    page.locator("#log li").first.wait_for()
    page.wait_for_timeout(300)
    assert page.locator("#warnings").is_hidden()  # remembered for this game
    page.goto(f"{base}/games/{ids['la-granja']}")
    page.locator("#warnings .notice").wait_for()  # the other game still shows its notice


def test_the_bag_lists_the_labels_of_the_tiles_still_in_it(server: int, browser: Any) -> None:
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    game = page.request.post(f"{base}/api/games", data={"players": ["Ana", "Ben"]}).json()
    page.goto(f"{base}/games/{game['id']}")
    page.locator("#bag .bag-labels summary").click()
    page.locator("#bag .bag-list dd").first.wait_for(state="attached")  # (filled when the view arrives)
    text = page.inner_text("#bag .bag-list")
    assert "[object" not in text
    inside = game["view"]["bag"]["fields"]
    listed = [word for dd in page.locator("#bag .bag-list dd").all_text_contents() for word in dd.split()]
    assert sorted(listed) == sorted(inside) and len(inside) > 10  # every label in the bag, once


def finished(folder: Path, name: str, players: list[str], seed: int) -> dict[str, Any]:
    """A game played to its end with random legal moves, stored in ``folder``'s games file; its id, seed, rows."""
    store = GameStore(folder / "games.sqlite3")
    try:
        session = Session.new(store, name, players, seed=f"final-{name}-{seed}")
        rng = random.Random(seed)
        while not session.is_over:
            assert session.game.current_player(session.state) != CHANCE
            session.play(rng.choice(session.game.legal_moves(session.state)))
        return {"id": session.id, "seed": session.export()["seed"], "score": session.game.score(session.state)}
    finally:
        store.close()


def test_the_final_screens_rank_the_players_with_each_source_in_words_and_the_seed(
        tmp_path: Path, browser: Any, shots: Path) -> None:
    games = {name: finished(tmp_path, name, players, 7) for name, players in [("key-harvest", ["Ana", "Ben", "Cleo"]),
                                                                             ("la-granja", ["Ana", "Ben", "Cleo"])]}
    with serving(tmp_path) as (port, _):
        for name, game in games.items():
            rows = game["score"]
            ranked = sorted(range(len(rows)), key=lambda seat: (rows[seat]["rank"], seat))
            assert rows[ranked[0]]["rank"] == 1
            for language in ("en", "de"):
                page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                page.set_default_timeout(TIMEOUT)
                page.goto(f"http://127.0.0.1:{port}/games/{game['id']}?lang={language}")
                page.locator("#final:not([hidden])").wait_for()
                final = page.inner_text("#final")
                assert game["seed"] in final  # the draws can be checked
                assert not CODES.search(final), CODES.search(final)
                if name == "key-harvest":
                    rows_shown = page.locator("#final table.final tbody tr")
                    seats = rows_shown.evaluate_all("rs => rs.map(r => +r.dataset.seat)")
                    words = {"en": ["Workers", "Largest group", "Second group", "Majorities"],
                             "de": ["Arbeiter", "Größte Gruppe", "Zweitgrößte Gruppe", "Mehrheiten"]}[language]
                    tiebreak = "#final .tiebreaks li"
                else:
                    seats = page.locator("#final .final-row").evaluate_all("rs => rs.map(r => +r.dataset.seat)")
                    words = [render(Message(f"lg.source.{code.lower()}"), language) for code in ("V1", "V15")]
                    tiebreak = "#final .tiebreaks li"
                    first = page.inner_text(f"#final .final-row[data-seat='{ranked[0]}']")
                    assert rows[ranked[0]]["name"] in first
                assert seats == ranked  # winner first, then by rank
                for word in words:
                    assert word in final, (word, final)
                assert page.locator(tiebreak).count() >= 1
                page.screenshot(path=str(shots / f"final-{name}-{language}.png"), full_page=True)
                page.set_viewport_size({"width": 390, "height": 844})  # a phone: the ranking fits its width
                assert page.evaluate("() => document.querySelector('#final').scrollWidth <= 390")
                page.locator("#final").screenshot(path=str(shots / f"final-{name}-{language}-phone.png"))
                page.context.close()


def test_a_page_that_missed_an_update_fetches_the_whole_game(server: int, browser: Any) -> None:
    """An update whose log follows a version the page never had (a slow stream dropped one): the page does not
    patch its log with it but fetches the whole game."""
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    setup = page.request.post(f"{base}/api/games", data={"players": ["Ana", "Ben"]}).json()
    answer = page.request.post(f"{base}/api/games/{setup['id']}/moves",
                               data={"move": "end", "version": setup["version"]})
    game = answer.json()["game"]
    path = f"/api/games/{game['id']}"
    old = {**game, "version": game["version"] - 1, "log": game["log"][:1], "table_now": []}  # what the page has
    missed = {**game, "log": game["log"][-1:], "log_start": len(game["log"]) - 1, "log_base": game["version"] - 2}
    events = "".join(f"event: update\nid: {g['version']}\n"
                     f"data: {json.dumps({'event': 'update', 'version': g['version'], 'game': g})}\n\n"
                     for g in (old, missed))
    page.route(f"**{path}/stream", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream"}, body=f"retry: 60000\n: connected\n\n{events}"))
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if request.url.endswith(path) else None)
    page.goto(f"{base}/games/{game['id']}")
    page.wait_for_function(f"() => ({LOG_COUNT})() === {len(game['log'])}")
    page.wait_for_function(f"() => document.querySelectorAll('#table-now-list li').length === {len(game['table_now'])}")
    page.wait_for_timeout(500)
    assert len(fetched) >= 2  # the page's first fetch, and the fetch after the update it could not apply
    assert log_count(page) == len(game["log"])
