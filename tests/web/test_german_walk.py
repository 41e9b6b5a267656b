"""A German walk through every page of both games in real Chromium: no English text from the catalogs.

For each game: a new game, a few moves, a refusal typed in the expert box; then the index with the new-game
form (that game's house rules), the table, the setup guide, a private page, the data forms, the camera page,
the virtual panel and the pairing page, all in German. A catalog entry's English (a phrase of two words or
more that the German catalog does not also use) found in a page's visible text is a finding. It fails the test,
unless the phrase is part of plain text the API sent (the core's English, not yet a ``Message``): that is
reported as an expected failure, naming each phrase, until the core's texts reach the pages as messages. Screenshots at 1280x800 and 390x844:
test-output/screenshots/de-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.core.messages import catalogs
from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT
from web.messages import add_web_catalogs

PLACEHOLDER = re.compile(r"\{\w+\}")
GAMES = {"key-harvest": ("kh", "layout", "add wheat"), "la-granja": ("lg", "cards", "deliver 9"),
         "keyper": ("kp", "boards", "place orange 9.9"),
         "key-market": ("km", "market", "sell lux 9")}
"""Each game: its screenshots' prefix, a data form to open and a move the rules refuse."""
VIEWPORTS = {"wide": (1280, 800), "phone": (390, 844)}


def english_phrases() -> dict[str, str]:
    """Each English phrase of the catalogs (the text between placeholders, two words or more) that no German
    entry contains, with its message id."""
    add_web_catalogs()
    english, german = catalogs()["en"].messages, catalogs()["de"].messages
    german_text = "\n".join(text for entry in german.values() for text in (entry if isinstance(entry, tuple) else (entry,)))
    found: dict[str, str] = {}
    for key, entry in english.items():
        if german.get(key) == entry:
            continue
        for text in entry if isinstance(entry, tuple) else (entry,):
            for part in PLACEHOLDER.split(text):
                phrase = part.strip(" :;,.()…·-–—\"'!?")
                if len(phrase.split()) >= 2 and phrase not in german_text:
                    found.setdefault(phrase, key)
    return found


def visible_english(page: Any, phrases: dict[str, str]) -> dict[str, str]:
    """The English phrases in the page's visible text; a catalog id shown as it is (a missing string), an
    unfilled placeholder and a message shown as an object (``[object Object]``: text not rendered) too."""
    text = page.inner_text("body")
    found = {phrase: key for phrase, key in phrases.items() if phrase in text}
    return found | {raw: raw for raw in re.findall(r"\bui\.[\w.-]+|\{\w+\}|\[object \w+\]", text)}


def plain_strings(value: Any) -> list[str]:
    """The plain text in an API answer (a message, ``{"id", "params"}``, is data the page renders)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [] if {"id", "params"} <= value.keys() else [s for v in value.values() for s in plain_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in plain_strings(v)]
    return []


def shoot(page: Any, shots: Path, name: str) -> None:
    for label, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=str(shots / f"de-{name}-{label}.png"), full_page=True)


def play_a_few_moves(page: Any, base: str, game_id: str, count: int = 3) -> None:
    """The first move offered, ``count`` times (through the API: the walk is about the pages' words)."""
    path = f"{base}/api/games/{game_id}"
    for _ in range(count):
        offered = page.request.get(f"{path}/moves").json()
        if not offered["moves"]:
            break
        page.request.post(f"{path}/moves", data={"move": offered["moves"][0], "version": offered["version"]})


def claim(page: Any, base: str, game_id: str) -> str:
    seat = page.request.get(f"{base}/api/games/{game_id}/seats").json()["seats"][0]
    links = page.request.post(f"{base}/api/games/{game_id}/join/" + seat["page"].rsplit("/", 1)[1], data={}).json()
    return str(links["page"])


def test_the_german_pages_show_no_english(server: int, browser: Any, shots: Path, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{server}"
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    phrases = english_phrases()
    findings: dict[str, dict[str, str]] = {}
    core_text: list[str] = []  # the plain text in the API's answers about the games walked

    def read_api(path: str) -> None:
        core_text.extend(plain_strings(page.request.get(base + path).json()))

    def visit(name: str, url: str, ready: str, before: Any = None) -> None:
        page.goto(url)
        if before is not None:
            before()
        page.locator(ready).first.wait_for()
        page.wait_for_timeout(600)  # live data and late strings
        assert page.evaluate("document.documentElement.lang") == "de", name
        findings[name] = visible_english(page, phrases)
        shoot(page, shots, name)

    page.goto(f"{base}/?lang=de")  # remembered from here on
    for game, (short, section, refused) in GAMES.items():
        answer = page.request.post(f"{base}/api/games", data={"game": game, "players": ["Ana", "Ben", "Cleo"]})
        assert answer.ok, answer.text()
        game_id = answer.json()["id"]
        play_a_few_moves(page, base, game_id)
        visit(f"{short}-index", f"{base}/", "#variants select",
              lambda: (page.select_option("#game-select", game), page.click("#house-rules summary")))
        visit(f"{short}-setup", f"{base}/games/{game_id}/setup", "#setup-steps > *")

        def refuse() -> None:
            page.locator("#expert summary").first.click()
            page.fill("#move", refused)
            page.click("#play")
            page.locator("#error:not([hidden])").wait_for()

        visit(f"{short}-table", f"{base}/games/{game_id}", "#log li", refuse)
        seat = claim(page, base, game_id)
        visit(f"{short}-seat", base + seat, "#log li")
        for path in ("", "/setup", "/private/" + seat.rsplit("/", 1)[1]):
            read_api(f"/api/games/{game_id}{path}")
        visit(f"{short}-data", f"{base}/data/{game}/{section}", "#data-form")
    visit("data", f"{base}/data", ".data-sections")
    visit("camera", f"{base}/camera", "#cam-status")
    visit("panel", f"{base}/panel", "#panel-title")
    (tmp_path / "lan").mkdir()
    with serving(tmp_path / "lan", "--lan-test") as (port, _):  # a device that is not paired yet
        visit("pair", f"http://127.0.0.1:{port}/pair", "#pairing")

    assert errors == []
    plain = "\n".join(core_text)
    ours = {name: {p: k for p, k in found.items() if p not in plain} for name, found in findings.items()}
    ours = {name: found for name, found in ours.items() if found}
    assert ours == {}, f"English catalog text the pages show on German pages: {ours}"
    theirs = {name: found for name, found in findings.items() if found}
    if theirs:
        pytest.xfail(f"English the core sends as plain text (not yet a Message): {theirs}")
