"""The start of a game (issue 13): names and colours first, Start in view on a tablet and a phone, the house rules
folded under "House rules" in plain words (label, choices, what it changes, the rule it changes shown small), and
the games list naming what a finished game's button does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.core.messages import catalogs
from companion.games import games
from companion.store import OVER, GameStore
from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT
from web.messages import add_web_catalogs

SIZES = {"tablet": (1280, 800), "phone": (390, 844)}
FLAGS = {"key-harvest": 14, "la-granja": 6, "keyper": 26, "key-market": 22}
"""Each game's house rules on the new-game form."""
JARGON = re.compile(r"\bR-[A-Z]+\d|\b[a-z]+_[a-z_]+\b|§")
"""Spec rule IDs, raw flag or choice names (snake_case) and section signs: never a label, a choice or a help."""


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_house_rule_of_every_game_has_plain_words(language: str) -> None:
    add_web_catalogs()
    messages = catalogs()[language].messages
    missing, jargon = [], []
    for game in games():
        for option in game.option_specs:
            for part in ("label", "help", *(f"choice.{choice}" for choice in option.choices)):
                text = messages.get(f"ui.variants.{option.name}.{part}")
                if not isinstance(text, str) or not text.strip():
                    missing.append(f"{game.name}: {option.name}.{part}")
                elif JARGON.search(text):
                    jargon.append(f"{game.name}: {option.name}.{part} = {text!r}")
    assert missing == [] and jargon == []
    assert sum(len(game.option_specs) for game in games()) >= 20  # Key Harvest's 14 and La Granja's 6 at least


def start_page(browser: Any, server: int, size: str, language: str = "en") -> Any:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{server}/?lang={language}")
    page.locator("#variants select").first.wait_for(state="attached")
    return page


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0 and (
        box["x"] + box["width"] <= size["width"])


@pytest.mark.parametrize("game", FLAGS)
@pytest.mark.parametrize("size", SIZES)
def test_start_is_in_view_with_the_house_rules_folded(server: int, browser: Any, shots: Path, size: str,
                                                      game: str) -> None:
    page = start_page(browser, server, size)
    page.select_option("#game-select", game)
    page.wait_for_function("n => document.querySelectorAll('#variants [data-option]').length === n",
                           arg=FLAGS[game])
    names = page.locator("#new-game input[name='player']")
    assert names.count() == 4 and page.locator("#new-game input[name='colour']").count() == 4
    assert all(in_view(page, sel) for sel in ("#new-game input[name='player'] >> nth=0",
                                                "#new-game input[name='colour'] >> nth=3", "#start"))
    rules = page.locator("#house-rules")
    assert rules.evaluate("d => d.open") is False and not page.locator("#variants select").first.is_visible()
    assert page.inner_text("#house-rules summary").startswith("House rules")
    players_top = page.locator("#players").bounding_box()["y"]
    assert players_top < rules.bounding_box()["y"] < page.locator("#start").bounding_box()["y"]
    page.screenshot(path=str(shots / f"start-{game}-{size}.png"))
    page.click("#house-rules summary")
    page.locator("#variants select").first.wait_for()
    page.screenshot(path=str(shots / f"start-{game}-{size}-house-rules.png"), full_page=True)


@pytest.mark.parametrize("game", FLAGS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_house_rules_speak_plain_words(server: int, browser: Any, shots: Path, game: str, language: str) -> None:
    page = start_page(browser, server, "tablet", language)
    page.select_option("#game-select", game)
    page.locator("#variants select").first.wait_for(state="attached")
    page.wait_for_function("n => document.querySelector('#variants [data-option]') && "
                           "document.querySelectorAll('#variants [data-option]').length === n", arg=FLAGS[game])
    summary = page.inner_text("#house-rules summary")
    assert summary.startswith("Hausregeln" if language == "de" else "House rules")
    page.click("#house-rules summary")
    fields = page.locator("#variants [data-option]")
    assert fields.count() == FLAGS[game]
    for i in range(fields.count()):
        field = fields.nth(i)
        label = field.locator("label").inner_text()
        help_text = field.locator(".help").inner_text()
        choices = field.locator("option").all_inner_texts()
        ref = field.locator(".ref")
        words = " ".join([label, help_text.replace(ref.inner_text() if ref.count() else "", ""), *choices])
        assert not JARGON.search(words), (field.get_attribute("data-option"), words)
        assert ref.count() == 1 and (ref.inner_text().strip().startswith("ändert Regel" if language == "de"
                                                                         else "changes rule"))
        assert float(ref.evaluate("r => parseFloat(getComputedStyle(r).fontSize)")) < float(
            field.locator("label").evaluate("l => parseFloat(getComputedStyle(l).fontSize)"))
        marked = [c for c in choices if c.endswith("(Standard)" if language == "de" else "(default)")]
        default = field.locator("select").evaluate("s => s.options[s.selectedIndex].text")
        assert marked == [default]  # the default is marked, and chosen
    if game == "key-harvest":
        bag = page.locator("#variants [data-option='events_only_bag_end']")
        assert "R-EV7-5" not in bag.locator("label").inner_text()
        page.select_option("#option-events_only_bag_end", "it_immediate")
        assert ("1 geändert" if language == "de" else "1 changed") in page.inner_text("#house-rules summary")
    page.screenshot(path=str(shots / f"start-{game}-{language}-house-rules.png"), full_page=True)


def test_choosing_the_same_game_again_keeps_the_house_rules_chosen(server: int, browser: Any) -> None:
    """Choosing the game already shown asks nothing and keeps the form: a house rule changed there stays changed."""
    page = start_page(browser, server, "tablet")
    page.wait_for_load_state("networkidle")
    game = page.locator("#game-select").input_value()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/games/options/" in request.url else None)
    page.click("#house-rules summary")
    rule = page.locator("#variants select").first
    other = rule.evaluate("s => [...s.options].find((o) => !o.selected).value")
    rule.select_option(other)
    page.select_option("#game-select", game)
    page.wait_for_load_state("networkidle")
    assert asked == [] and page.locator("#variants select").first.input_value() == other


def test_a_finished_game_offers_its_result_not_resume(tmp_path: Path, browser: Any) -> None:
    """The games list: "Resume" only for a game in progress; a finished game's button says "See the result"."""
    with serving(tmp_path) as (port, _):
        base = f"http://127.0.0.1:{port}"
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT)
        ids = [page.request.post(f"{base}/api/games", data={"players": [name, "Bob"]}).json()["id"]
               for name in ("Ann", "Zoe")]
        store = GameStore(tmp_path / "games.sqlite3")
        store.set_status(ids[1], OVER)  # Zoe's game is over (as its last move leaves it)
        store.close()
        for language, resume, result in (("en", "Resume", "See the result"), ("de", "Fortsetzen", "Ergebnis ansehen")):
            page.goto(f"{base}/?lang={language}")
            page.locator(f"#game-list li[data-id='{ids[1]}']").wait_for()
            playing = page.locator(f"#game-list li[data-id='{ids[0]}'] .game-actions a")
            over = page.locator(f"#game-list li[data-id='{ids[1]}'] .game-actions a")
            assert playing.inner_text() == resume and over.inner_text() == result
            assert over.get_attribute("href") == f"/games/{ids[1]}"
        over.click()
        page.wait_for_url(f"**/games/{ids[1]}")
