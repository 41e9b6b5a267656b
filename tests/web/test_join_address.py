"""Phones join from the seats' QR codes (issue 13): a service bound to this machine only says so beside the codes and
how to open it to the table; one listening on the LAN gives codes with this machine's LAN address, even to a
tablet that opened it as 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT
from web.pages import qr_svg


def route_out() -> str | None:
    """This machine's IPv4 address on its network, looked up independently of the service (UDP: nothing sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect(("198.51.100.7", 53))
            address: str = udp.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def seats_step(browser: Any, base: str, language: str = "en") -> tuple[Any, str]:
    """The setup guide of a new game on its seats step; the game's id."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(TIMEOUT)
    game_id = page.request.post(f"{base}/api/games", data={"players": ["Ann", "Bob"]}).json()["id"]
    page.goto(f"{base}/games/{game_id}/setup?lang={language}")
    while page.locator(".setup-step:not([hidden]) #seats").count() == 0:
        page.click("#setup-next")
    page.locator("#seats img.seat-qr").first.wait_for()
    page.locator("#join-address").wait_for()
    return page, game_id


def code_carries(page: Any, base: str, game_id: str, address: str) -> bool:
    """Whether the first seat's QR code is exactly the code of its join link at ``address``."""
    link = page.request.get(f"{base}/api/games/{game_id}/seats").json()["seats"][0]["page"]
    return page.request.get(f"{base}{link}/qr.svg").body() == qr_svg(address + link)


def test_on_loopback_only_the_page_says_phones_cannot_join_and_how(tmp_path: Path, browser: Any, shots: Path) -> None:
    with serving(tmp_path) as (port, _):  # as a plain ./run: 127.0.0.1
        base = f"http://127.0.0.1:{port}"
        page, game_id = seats_step(browser, base)
        assert page.request.get(f"{base}/api/join-address").json() == {"url": base, "reachable": False}
        note = page.locator("#join-address")
        assert note.get_attribute("data-reachable") == "false"
        text = note.inner_text()
        assert "only be reached from this machine" in text and "--host 0.0.0.0" in text
        note_box, seats_box = note.bounding_box(), page.locator("#seats").bounding_box()
        assert 0 <= note_box["y"] - (seats_box["y"] + seats_box["height"]) < 40  # right beside the codes
        assert code_carries(page, base, game_id, base)
        page.screenshot(path=str(shots / "setup-seats-local-only.png"), full_page=True)
        page.goto(f"{base}/games/{game_id}/setup?lang=de")
        while page.locator(".setup-step:not([hidden]) #seats").count() == 0:
            page.click("#setup-next")
        page.locator("#join-address").wait_for()
        assert "nur von diesem Gerät" in page.inner_text("#join-address")
        page.goto(f"{base}/games/{game_id}?lang=en")  # the table page's seat codes say it too
        page.locator("#seats img.seat-qr").first.wait_for()
        assert "only be reached from this machine" in page.locator("#join-address").inner_text()


def test_on_the_lan_the_codes_carry_an_address_phones_reach(tmp_path: Path, browser: Any, shots: Path) -> None:
    lan = route_out()
    if lan is None:
        pytest.skip("this machine has no network: no LAN address to find")
    with serving(tmp_path, "--host", "0.0.0.0") as (port, _):
        base = f"http://127.0.0.1:{port}"  # the tablet on the Pi itself
        page, game_id = seats_step(browser, base)
        phones = f"http://{lan}:{port}"
        assert page.request.get(f"{base}/api/join-address").json() == {"url": phones, "reachable": True}
        assert code_carries(page, base, game_id, phones)
        note = page.locator("#join-address")
        assert note.get_attribute("data-reachable") == "true" and phones in note.inner_text()
        assert "--host" not in page.inner_text("main")
        page.screenshot(path=str(shots / "setup-seats-lan.png"), full_page=True)
        with socket.create_connection((lan, port), timeout=5):  # and it is really listening there
            pass


def test_the_public_url_wins(tmp_path: Path, browser: Any) -> None:
    with serving(tmp_path, "--public-url", "http://keydom.local:8000/") as (port, _):
        base = f"http://127.0.0.1:{port}"
        page, game_id = seats_step(browser, base)
        assert page.request.get(f"{base}/api/join-address").json() == {"url": "http://keydom.local:8000",
                                                                       "reachable": True}
        assert code_carries(page, base, game_id, "http://keydom.local:8000")
