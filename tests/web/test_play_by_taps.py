"""Whole games played by taps only, in real Chromium (issue 27): for each of the four games, a seeded game of three
players from the first decision to the final score, on the shared tablet for public decisions and on the players'
phones for the private ones, by tapping the options of each pick (no notation typed, no JSON API to move). The taps of
every decision are counted (median <= 3, at most 8), no pick shows more than 40 options, and screenshots of the
screens land in ``test-output/screenshots/`` as ``taps-<lang>-<game>-<device>-<n>.png``.

The driver knows no game: it reads who decides from the public game, finds the device whose picker offers the
decision, and taps a seeded random option (or sends the decision once it is complete) until the game is over.
"""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import games
from tests.web.conftest import chromium, serving
from tests.web.pagekit import TIMEOUT

GAMES = [game.name for game in games()]
PLAYERS = ["Ana", "Ben", "Cleo"]
MAX_OPTIONS = 40
SHOTS_EVERY = 40
"""A screenshot of the deciding device every this many decisions (and at the first and the last)."""
GERMAN_DECISIONS = 25
"""The German game's length: enough decisions to meet every kind of screen of the opening."""

FOLD = """(box) => {
  const first = document.querySelector(`${box} button.pick, ${box} button[data-pick-send]`);
  return {first: first ? first.getBoundingClientRect().bottom + window.scrollY : null,
          height: document.documentElement.scrollHeight, screen: window.innerHeight};
}"""
"""JavaScript: where the decision's first option ends on the page (from its top), and how tall the page is."""
PHONE = {"width": 390, "height": 844}
"""A phone's screen (CSS pixels)."""
PHONE_SCREENS = 3
"""A phone's page is at most this many screens tall while its player decides (issue 27)."""

READY = """([box, version]) => {
  const el = document.querySelector(box);
  return !!el && el.dataset.version === String(version) && el.dataset.busy === 'false';
}"""
"""JavaScript: whether the picker in ``box`` shows ``version`` and waits for a tap."""


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("taps")
    with serving(folder) as (port, _):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser_once() -> Iterator[Any]:
    """One Chromium for the whole module."""
    with chromium() as launched:
        yield launched


class Table:
    """A game's devices: the tablet's table page and each seat's phone page, each in its own browser context."""

    def __init__(self, browser: Any, base: str, game: str, language: str, shots: Path) -> None:
        self.base, self.language, self.shots, self.game_name = base, language, shots, game
        locale = "de-DE" if language == "de" else "en-GB"
        self.tablet_context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
        self.tablet_context.set_default_timeout(TIMEOUT)
        self.tablet = self.tablet_context.new_page()
        self.tablet.goto(f"{base}/?lang={language}")
        answer = self.tablet.request.post(f"{base}/api/games", data={"game": game, "players": PLAYERS})
        assert answer.status == 201, answer.text()
        self.id = answer.json()["id"]
        self.tablet.goto(f"{base}/games/{self.id}")
        self.phones: list[Any] = []
        self.contexts = [self.tablet_context]
        for seat in range(len(PLAYERS)):
            context = browser.new_context(locale=locale, viewport=PHONE, is_mobile=True, has_touch=True)
            context.set_default_timeout(TIMEOUT)
            phone = context.new_page()
            phone.goto(f"{base}/?lang={language}")
            seats = phone.request.get(f"{base}/api/games/{self.id}/seats").json()["seats"]
            phone.goto(base + seats[seat]["page"])
            phone.click("#join-button")  # "Take this seat"
            phone.wait_for_url("**/seat/**")
            self.phones.append(phone)
            self.contexts.append(context)
        self.errors: list[str] = []
        self.below_fold: list[int] = []
        """Versions whose decision began below the fold of the 1280x800 tablet."""
        self.too_tall: list[tuple[int, int]] = []
        """Versions whose deciding phone page was over three screens tall, with its height."""
        self.moves: list[Any] = []
        """Every answer to a move sent by any device (the picker sends a decision itself on its last pick)."""
        for page in [self.tablet, *self.phones]:
            page.on("pageerror", lambda error: self.errors.append(str(error)))
            page.on("response", lambda r: self.moves.append(r) if r.url.endswith("/moves") else None)

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def public(self) -> dict[str, Any]:
        game: dict[str, Any] = self.tablet.request.get(f"{self.base}/api/games/{self.id}").json()
        return game

    def device(self, game: dict[str, Any]) -> tuple[Any, str, str]:
        """The page that offers the decision now, its picker's selector and its name: the tablet when the table
        may pick it, else the phone of a seat that decides."""
        if game["pick"] and game["pick"]["groups"]:
            return self.tablet, "#flow-options", "tablet"
        seat = game["deciders"][0]
        return self.phones[seat], "#legal", f"phone{seat + 1}"

    def decide(self, page: Any, box: str, version: int, rng: random.Random) -> tuple[int, int, Any] | None:
        """Make one decision on ``page`` by taps: (taps, the most options shown at once, the public game after it);
        ``None`` if the table refused it for what is behind the decider's screen (a bid of stones the player may
        not have)."""
        page.wait_for_function(READY, arg=[box, version])
        fold = page.evaluate(FOLD, box)
        if page is self.tablet and fold["first"] is not None and fold["first"] > fold["screen"]:
            if not self.below_fold:
                page.screenshot(path=str(self.shots / f"taps-{self.language}-{self.game_name}-fold.png"),
                                full_page=True)
            self.below_fold.append(version)
        if page is not self.tablet and fold["height"] > PHONE_SCREENS * fold["screen"]:
            if not self.too_tall:
                page.screenshot(path=str(self.shots / f"taps-{self.language}-{self.game_name}-tall.png"),
                                full_page=True)
            self.too_tall.append((version, fold["height"]))
        taps = widest = 0
        while True:
            page.wait_for_function(READY, arg=[box, version])
            options = page.locator(f"{box} button.pick")
            send = page.locator(f"{box} button[data-pick-send]")
            count = options.count()
            widest = max(widest, count)
            can_send = send.count() > 0
            assert count or can_send, f"{self.game_name}: a decision with nothing to pick"
            taps += 1
            if can_send and (not count or rng.random() < 0.6):
                with page.expect_response(lambda r: r.url.endswith("/moves")) as answer:
                    send.first.click()
                return self.answered(answer.value, taps, widest)
            sent = len(self.moves)
            with page.expect_response(lambda r: r.url.endswith("/picks")) as answer:
                options.nth(rng.randrange(count)).click()
            assert answer.value.status == 200, answer.value.text()
            node = answer.value.json()
            if node["done"] and not node["done"]["confirm"] and not node["groups"]:  # the last pick sends it
                for _ in range(500):
                    if len(self.moves) > sent:
                        break
                    page.wait_for_timeout(20)
                assert len(self.moves) > sent
                return self.answered(self.moves[-1], taps, widest)
            assert len(self.moves) == sent  # a pick alone changes nothing

    @staticmethod
    def answered(answer: Any, taps: int, widest: int) -> tuple[int, int, Any] | None:
        """The decision's taps and the game after it once the service played it; ``None`` for a refusal whose reason
        is behind a screen."""
        if answer.status == 422 and answer.json()["error"]["rule"] == "SCREEN":
            return None
        assert answer.status == 200, answer.text()
        return taps, widest, answer.json()["game"]

    def play(self, seed: str, decisions: int | None) -> list[int]:
        """Play by taps until the game is over (or ``decisions`` decisions): the taps of each decision."""
        rng = random.Random(seed)
        counts: list[int] = []
        widest = 0
        game = self.public()
        while game["to_move"] is not None and (decisions is None or len(counts) < decisions):
            page, box, name = self.device(game)
            if len(counts) % SHOTS_EVERY == 0:
                self.shot(page, name, len(counts))
            made = self.decide(page, box, game["version"], rng)
            if made is None:  # "check your screen": the player makes it on their phone, which knows their stones
                page, box = self.phones[game["to_move"]], "#legal"
                made = self.decide(page, box, game["version"], rng)
                assert made is not None
            taps, shown, game = made
            counts.append(taps)
            widest = max(widest, shown)
        self.shot(self.tablet, "tablet", len(counts))
        assert widest <= MAX_OPTIONS, f"{self.game_name}: a pick showed {widest} options"
        (self.shots / f"taps-{self.language}-{self.game_name}-fold.json").write_text(json.dumps(
            {"below_fold": self.below_fold, "too_tall": self.too_tall}))
        assert self.errors == []
        assert self.below_fold == [], (
            f"{self.game_name} ({self.language}): at these decisions the table's first option lay below the tablet's "
            "screen, out of sight until someone scrolls (the first such page whole in taps-<lang>-<game>-fold.png): "
            f"versions {self.below_fold}")
        assert self.too_tall == [], (
            f"{self.game_name} ({self.language}): while a player decided, their phone's page was more than "
            f"{PHONE_SCREENS} screens ({PHONE_SCREENS * PHONE['height']} px) tall, their pieces scrolled far from "
            "their picks (the first such page whole in taps-<lang>-<game>-tall.png): "
            + ", ".join(f"version {version}: {height} px" for version, height in self.too_tall))
        return counts

    def shot(self, page: Any, device: str, n: int) -> None:
        page.screenshot(path=str(self.shots / f"taps-{self.language}-{self.game_name}-{device}-{n:03d}.png"))


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_is_played_by_taps_on_the_tablet_and_the_phones(name: str, service: str, browser_once: Any,
                                                                      shots: Path) -> None:
    table = Table(browser_once, service, name, "en", shots)
    try:
        counts = table.play(f"taps-{name}", None)
        assert table.public()["status"] == "over"
    finally:
        table.close()
    (shots / f"taps-{name}.json").write_text(json.dumps({
        "decisions": len(counts), "median": statistics.median(counts), "max": max(counts),
        "histogram": {str(k): v for k, v in sorted(Counter(counts).items())}}))
    assert statistics.median(counts) <= 3 and max(counts) <= 8, (statistics.median(counts), max(counts))


@pytest.mark.parametrize("name", GAMES)
def test_a_german_table_plays_its_opening_by_taps(name: str, service: str, browser_once: Any, shots: Path) -> None:
    table = Table(browser_once, service, name, "de", shots)
    try:
        counts = table.play(f"taps-de-{name}", GERMAN_DECISIONS)
        assert table.tablet.evaluate("document.documentElement.lang") == "de"
    finally:
        table.close()
    assert len(counts) == GERMAN_DECISIONS or table.public()["status"] == "over"
