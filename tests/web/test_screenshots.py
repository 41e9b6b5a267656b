"""Every screen of both games, in English and German, at tablet (1280x800) and phone (390x844) size, in real
Chromium: the screenshots a person looks at (issue 13), and what a player would notice on each.

Before the service starts, each game gets one table in the middle of play and one played to the end with random
legal moves (through the session, as the tablet would). Then, per language, every screen is visited and waited
for (its text stops changing), photographed at both sizes into ``test-output/screenshots/`` as
``<lang>-<size>-<game>-<screen>.png`` (``all`` for the screens the games share), and checked:

* the page is in the language asked for (``<html lang>``), with no script error;
* no raw catalog identifier (``lg.table.round``), no unfilled ``{placeholder}``, no ``[object Object]``;
* no word of the other language (one only the other language's catalogs use), the data forms included;
* at phone size nothing is wider than the screen (``scrollWidth <= innerWidth``): no sideways scrolling;
* at both sizes no element sticks out of its box (a long German word pushing a column over the card's edge).

The visits wait for text, not for particular elements, so the test keeps working while the pages change.
"""

from __future__ import annotations

import json
import random
import time
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.session import Session
from companion.store import GameStore
from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT

GAMES = ("key-harvest", "la-granja", "keyper", "key-market")
PLAYERS = ["Ana", "Ben", "Cleo"]
SIZES = {"tablet": (1280, 800), "phone": (390, 844)}
LANGUAGES = ("en", "de")
MID_GAME_MOVES = 25
"""Player moves made on the mid-game table (chance steps are drawn by the session in between)."""

RAW = re.compile(r"\b(?:ui|web|core|kh|lg|kp|km)\.[a-z_]+\.[\w.-]*[a-z_]\b|\{[a-z_]\w*\}|\[object \w+\]"
                 r"|\b[a-z]+_[a-z_]*[a-z]\b|\b[a-z]+:[a-z]+\b|\b(?:undefined|null|NaN|None)\b|(?<![\w.])-\d+,-?\d+\b")
"""What a player must never read: a catalog identifier shown as it is, an unfilled placeholder, an object, a
snake_case id (``village_hall``), a ``key:value`` token (``grain:field``), ``undefined``/``null``/``None``, a raw
coordinate (``-6,0``)."""

OVERFLOW = """() => {
  const width = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 1 && getComputedStyle(e).position !== 'fixed')
    .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string'
         ? '.' + e.className.trim().split(/\\s+/).join('.') : ''));
  const spill = [...document.querySelectorAll('body *')].filter(e => {
    const parent = e.parentElement, box = e.getBoundingClientRect();
    if (!parent || box.width === 0 || getComputedStyle(parent).overflowX !== 'visible') return false;
    return box.right > parent.getBoundingClientRect().right + 2 && parent.getBoundingClientRect().width > 0;
  }).map(e => `${e.tagName.toLowerCase()}.${typeof e.className === 'string' ? e.className : ''} in `
              + `${e.parentElement.tagName.toLowerCase()}.${e.parentElement.className}: ${(e.innerText || '').slice(0, 30)}`);
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8), spill: spill.slice(0, 8)};
}"""
"""JavaScript: how wide the page is against the screen, the first elements that stick out of it, and the first that
stick out of their own box (text spilling over a column's edge, e.g. La Granja's dice columns in German)."""


WORD = re.compile(r"[^\W\d_]{5,}")


def catalog_words(language: str) -> set[str]:
    """Every word of five letters or more in the catalogs' texts in ``language`` (lower case)."""
    from companion.core.messages import catalogs
    from web.messages import add_web_catalogs

    add_web_catalogs()
    words: set[str] = set()
    for text in catalogs()[language].messages.values():
        for one in (text if isinstance(text, tuple) else (text,)):
            words.update(w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", str(one))))
    return words


def foreign_words() -> dict[str, set[str]]:
    """Per language, the words only the other language's catalogs use: one of them on a page is a word of the
    other language (a German building name on an English page, an English log line on a German one)."""
    words = {language: catalog_words(language) for language in LANGUAGES}
    return {language: set.union(*(words[other] for other in LANGUAGES if other != language)) - words[language]
            for language in LANGUAGES}


def play(store: GameStore, game: str, seed: str, moves: int | None) -> str:
    """A new game with ``moves`` random legal player moves (``None``: to the end); its id."""
    session = Session.new(store, game, PLAYERS, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not session.is_over and (moves is None or made < moves):
        session.play(rng.choice(session.game.legal_moves(session.state)))
        made += 1
    assert moves is not None or session.is_over
    return session.id


def settle(page: Any) -> None:
    """Wait until the page's visible text stops changing (live data, late strings, renderers)."""
    page.wait_for_load_state("load")
    last = None
    for _ in range(40):
        text = page.evaluate("document.body ? document.body.innerText : ''")
        if text and text == last:
            return
        last = text
        page.wait_for_timeout(250)


class Walk:
    """One language's visits: each screen photographed at both sizes and checked; the findings gathered."""

    def __init__(self, page: Any, language: str, shots: Path) -> None:
        self.page, self.language, self.shots = page, language, shots
        self.errors: list[str] = []
        self.raw: dict[str, list[str]] = {}
        self.foreign_words = foreign_words()[language] - {name.lower() for name in PLAYERS}
        self.foreign: dict[str, list[str]] = {}
        self.overflow: dict[str, dict[str, Any]] = {}
        self.spill: dict[str, list[str]] = {}
        self.seen: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(f"{self.page.url}: {error}"))

    def visit(self, game: str, screen: str, url: str, then: Callable[[], None] | None = None) -> str:
        """Open ``url`` (and do ``then``), photograph and check it; its visible text."""
        name = f"{game}-{screen}"
        page = self.page
        page.set_viewport_size(dict(zip(("width", "height"), SIZES["tablet"])))
        page.goto(url)
        if then is not None:
            then()
        settle(page)
        assert page.evaluate("document.documentElement.lang") == self.language, name
        text: str = page.inner_text("body")
        assert text.strip(), f"{name} shows nothing"
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            shown = page.inner_text("body")
            found = RAW.findall(shown)
            if found:
                self.raw[f"{size}-{name}"] = sorted(set(found))
            other = {w for w in WORD.findall(shown) if w.lower() in self.foreign_words}
            if other:
                self.foreign[f"{size}-{name}"] = sorted(other)
            measured = page.evaluate(OVERFLOW)
            if size == "phone" and measured["scroll"] > measured["width"]:
                self.overflow[name] = measured
            if measured["spill"]:
                self.spill[f"{size}-{name}"] = measured["spill"]
            page.screenshot(path=str(self.shots / f"{self.language}-{size}-{name}.png"), full_page=True)
        self.seen.append(name)
        return text


def tap_first_pick(page: Any) -> None:
    """Tap the first option of the decision on screen (a pick in progress: the next pick's question and options)."""
    option = page.locator("button.pick").first
    try:
        option.wait_for(timeout=5000)
    except Exception:  # nothing to pick on this screen (another seat decides): it is checked as it is
        return
    option.click()


def claim(page: Any, base: str, game_id: str) -> str:
    """The first seat's private page, claimed as a phone would."""
    seat = page.request.get(f"{base}/api/games/{game_id}/seats").json()["seats"][0]
    links = page.request.post(f"{base}/api/games/{game_id}/join/" + seat["page"].rsplit("/", 1)[1], data={}).json()
    return str(links["page"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_of_both_games_reads_well_at_tablet_and_phone_size(
        language: str, browser: Any, shots: Path, tmp_path: Path) -> None:
    started = time.time() - 1
    folder = tmp_path / "table"
    folder.mkdir()
    with GameStore(folder / "games.sqlite3") as store:
        tables = {game: (play(store, game, f"{game}-mid", MID_GAME_MOVES), play(store, game, f"{game}-end", None),
                         play(store, game, f"{game}-start", 0)) for game in GAMES}
    context = browser.new_context(locale="de-DE" if language == "de" else "en-GB")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    walk = Walk(page, language, shots)
    with serving(folder) as (port, _):
        base = f"http://127.0.0.1:{port}"
        page.goto(f"{base}/?lang={language}")  # remembered from here on
        for game, (mid, end, start) in tables.items():
            def choose(game: str = game) -> None:
                if page.locator("#game-select").count():
                    page.select_option("#game-select", game)
            walk.visit(game, "new-game", f"{base}/", choose)
            walk.visit(game, "setup", f"{base}/games/{mid}/setup")
            walk.visit(game, "first-turn", f"{base}/games/{start}")
            walk.visit(game, "first-pick", f"{base}/games/{start}", lambda: tap_first_pick(page))
            walk.visit(game, "first-seat", base + claim(page, base, start), lambda: tap_first_pick(page))
            walk.visit(game, "table", f"{base}/games/{mid}")
            walk.visit(game, "seat", base + claim(page, base, mid))
            walk.visit(game, "panel", f"{base}/games/{mid}/panel")
            final = walk.visit(game, "end", f"{base}/games/{end}")
            assert all(name in final for name in PLAYERS), f"{game}: the final screen names every player"
            walk.visit(game, "end-seat", base + claim(page, base, end))
        walk.visit("all", "data", f"{base}/data")
        forms = sorted({href for href in page.eval_on_selector_all(
            "a[href^='/data/']", "links => links.map(a => a.getAttribute('href'))") if href.count("/") == 3})
        assert forms, "the data page links to each game's forms"
        for href in forms:
            _, _, game, section = href.split("/")
            walk.visit(game, f"data-{section}", base + href)
        walk.visit("all", "camera", f"{base}/camera")
        walk.visit("all", "panel", f"{base}/panel")
    (tmp_path / "lan").mkdir()
    with serving(tmp_path / "lan", "--lan-test") as (port, _):  # a device not paired yet
        page.goto(f"http://127.0.0.1:{port}/?lang={language}")
        walk.visit("all", "pair", f"http://127.0.0.1:{port}/pair")
    context.close()

    (shots / f"{language}-overflow.json").write_text(json.dumps({"page": walk.overflow, "spill": walk.spill}, indent=1))
    assert walk.errors == []
    (shots / f"{language}-words.json").write_text(json.dumps({"raw": walk.raw, "foreign": walk.foreign}, indent=1))
    assert (walk.raw, walk.foreign) == ({}, {}), f"raw identifiers a player reads: {walk.raw}; words of the other language: {walk.foreign}"
    assert walk.overflow == {}, f"screens wider than a phone (the page scrolls sideways): {walk.overflow}"
    assert walk.spill == {}, f"text sticking out of its box (a column's edge): {walk.spill}"
    written = [shots / f"{language}-{size}-{name}.png" for name in walk.seen for size in SIZES]
    assert all(path.stat().st_mtime >= started for path in written)  # this run's pictures, not an earlier run's
