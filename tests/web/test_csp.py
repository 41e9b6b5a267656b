"""The pages' Content-Security-Policy and other security headers (docs/security.md): every page runs only this
site's scripts and styles (no inline script or style, no eval), is framed by no site, posts forms only here, and
still works under it in Chromium (no CSP violation on any page; the live updates, the join button and the camera's
frames work).

Browser tests wait with a function (``page.wait_for_function("() => ...")``): Playwright polls a bare expression
with ``eval`` in the page, which the policy refuses once the expression is not true at once."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

import companion.games as registry
from tests.web.apikit import claim_seat
from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT

WEB = Path(__file__).resolve().parents[2] / "web"
POLICY = {"default-src": {"'self'"}, "object-src": {"'none'"}, "base-uri": {"'self'"}, "form-action": {"'self'"},
          "frame-ancestors": {"'none'"}}
"""Every page's policy (``default-src`` stands for scripts, styles, images, connections)."""
LAN = {"REMOTE_ADDR": "192.168.1.23"}


def policy(header: str) -> dict[str, set[str]]:
    """A Content-Security-Policy header as directive -> its sources."""
    found: dict[str, set[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            assert words[0] not in found, f"{words[0]} twice"
            found[words[0]] = set(words[1:])
    return found


def pages(client: FlaskClient) -> list[str]:
    """A path of every kind of page: each game's table, setup guide, seat page and join page, and the shared ones
    (the pairing page: ``PAIRING``, which this machine is sent on from)."""
    paths = ["/", "/camera", "/panel", "/data", "/data/key-harvest/layout", "/data/la-granja/cards",
             "/games/no-such-game"]
    for game in registry.games():
        players = ["Ann", "Bo", "Cy", "Di"][:max(2, game.min_players)]
        game_id = client.post("/api/games", json={"game": game.name, "players": players}).get_json()["id"]
        join = client.get(f"/api/games/{game_id}/seats").get_json()["seats"][1]["page"]
        paths += [f"/games/{game_id}", f"/games/{game_id}/setup", claim_seat(client, game_id, 0)["page"], join]
    return paths


def test_every_page_has_a_strict_policy_and_the_other_headers(client: FlaskClient) -> None:
    for path in pages(client):
        answer = client.get(path)
        assert answer.status_code in (200, 404) and answer.mimetype == "text/html", path
        found = policy(answer.headers["Content-Security-Policy"])
        assert found == POLICY, path  # no 'unsafe-inline', 'unsafe-eval', data: or blob: anywhere
        assert answer.headers["X-Content-Type-Options"] == "nosniff", path
        assert answer.headers["Referrer-Policy"] in ("no-referrer", "same-origin"), path
        assert answer.headers["X-Frame-Options"] == "DENY", path


def test_refusals_and_the_pairing_page_carry_the_policy_too(client: FlaskClient) -> None:
    pairing = client.get("/pair", environ_base=LAN)
    assert pairing.status_code == 200
    inline = Inline()
    inline.feed(pairing.get_data(as_text=True))
    assert inline.found == []
    for answer in (pairing, client.get("/", environ_base=LAN), client.get("/", base_url="http://evil.example"),
                   client.get("/api/games", environ_base=LAN), client.get("/games/x/join/y")):
        assert policy(answer.headers["Content-Security-Policy"]) == POLICY


class Inline(HTMLParser):
    """What a strict policy refuses in a page: inline scripts, style elements and attributes, event handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        data_block = names.get("type") == "application/json"  # data, never run: no policy applies to it
        self._script = tag == "script" and "src" not in names and not data_block
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"{tag} {name}=" for name in names if name == "style" or name.startswith("on")]
        self.found += [f"{tag} {name}={value}" for name, value in attrs
                       if name in ("href", "src", "action") and (value or "").lower().startswith("javascript:")]

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.found.append(f"<script>{data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        self._script = False


def test_no_page_has_inline_script_or_style(client: FlaskClient) -> None:
    for path in pages(client):
        inline = Inline()
        inline.feed(client.get(path).get_data(as_text=True))
        assert inline.found == [], path


def test_no_script_evaluates_text() -> None:
    """``eval``, ``new Function`` and string timers need 'unsafe-eval', which the policy does not give."""
    for script in [*(WEB / "static" / "js").glob("*.js"), *(WEB / "games").rglob("*.js")]:
        text = script.read_text()
        assert not re.search(r"\beval\(|\bFunction\(|set(Timeout|Interval)\(\s*[\"'`]", text), script.name


# ---------------------------------------------------------------- in Chromium


def watch(page: Any, errors: list[str]) -> Any:
    """``page`` reporting every console error (Chromium logs each CSP violation there), page error and
    ``securitypolicyviolation`` event into ``errors``."""
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.add_init_script("document.addEventListener('securitypolicyviolation', (e) => console.error("
                         "`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));")
    return page


def test_every_page_works_under_the_policy_in_chromium(tmp_path: Path, browser: Any) -> None:
    errors: list[str] = []
    with serving(tmp_path) as (port, _):
        base = f"http://127.0.0.1:{port}"
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        context.set_default_timeout(TIMEOUT)
        page = watch(context.new_page(), errors)

        def post(path: str, body: dict[str, Any]) -> Any:
            answer = page.request.post(base + path, data=body, headers={"Origin": base})
            assert answer.ok, answer.text()
            return answer.json()

        for game in registry.games():
            players = ["Ann", "Bo", "Cy", "Di"][:max(2, game.min_players)]
            game_id = post("/api/games", {"game": game.name, "players": players})["id"]
            page.goto(f"{base}/games/{game_id}")
            page.locator("#connection[data-state='live']").wait_for()  # its live stream is open
            page.locator("#log li").first.wait_for()
            page.wait_for_function("() => [...document.querySelectorAll('#seats img.seat-qr')]"
                                   ".some(i => i.complete && i.naturalWidth > 0)")
            page.locator("#join-address").wait_for()  # the note beside the codes (was an inline script)
            join = page.locator("#seats li[data-seat='0'] a").first.get_attribute("href")
            page.goto(f"{base}/games/{game_id}/setup")
            page.locator("#setup-next").wait_for()
            page.goto(base + join)
            page.click("#join-button")  # the form posts under form-action 'self' and goes on to the seat
            page.wait_for_url(re.compile(rf"/games/{game_id}/seat/[0-9a-f]{{32}}$"))
            page.locator("#log li").first.wait_for()
            page.locator("#connection[data-state='live']").wait_for()
        page.goto(f"{base}/camera")
        page.wait_for_function("() => document.getElementById('cam-frame').naturalWidth > 0", timeout=30_000)
        assert style_of(page, ".camera-grid", "display") == "grid"  # its styles (were a style element) apply
        page.goto(f"{base}/data")
        assert style_of(page, ".data-sections", "list-style-type") == "none"  # as are the data forms' (likewise)
        for path in ("/", "/panel", "/data/key-harvest/layout", "/data/la-granja/cards", "/?lang=de"):
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            assert page.locator("h1, h2").first.inner_text().strip(), path  # the strings came in (i18n.js ran)
    assert errors == []


def style_of(page: Any, selector: str, name: str) -> str:
    value: str = page.locator(selector).first.evaluate(f"el => getComputedStyle(el).getPropertyValue('{name}')")
    return value
