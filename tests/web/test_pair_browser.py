"""Pairing a phone in Chromium (issue 11): the tablet shows a seat's QR code, the phone opens its join link, enters
the table PIN once, takes the seat with one tap and lands on it; the tablet then shows the seat as claimed.
Screenshots: pair-*.png."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serving
from tests.web.pagekit import TIMEOUT


def lan_address() -> str | None:
    """This machine's address on its network (not loopback), as a phone would reach it."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect(("192.0.2.1", 9))  # sends nothing: only picks the route's source address
            address: str = udp.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


@pytest.fixture
def lan_server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`companion serve` listening on every address; yields (the tablet's base on loopback, the phone's base).
    Without a network address, the phone uses loopback too and the server runs with the test-only --lan-test
    (then the tablet pairs too: loopback counts as the LAN)."""
    address = lan_address()
    with serving(tmp_path, "--host", "0.0.0.0", *(["--lan-test"] if address is None else [])) as (port, _):
        yield f"http://127.0.0.1:{port}", f"http://{address or '127.0.0.1'}:{port}"


def pair(page: Any, pin: str) -> None:
    page.locator("#pair-form").wait_for()
    page.fill("#pin", pin)
    page.click("#pair-button")


def test_a_phone_pairs_with_one_scan_and_one_pin(lan_server: tuple[str, str], browser: Any, shots: Path,
                                                  tmp_path: Path) -> None:
    tablet_base, phone_base = lan_server
    log = (tmp_path / "serve.log").read_text()
    pin = (tmp_path / "pin").read_text().strip()
    assert f"Table PIN: {pin}" in log  # what companion serve printed at start
    errors: list[str] = []

    tablet_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    tablet_context.set_default_timeout(TIMEOUT)
    tablet = tablet_context.new_page()
    tablet.on("pageerror", lambda error: errors.append(str(error)))
    tablet.goto(tablet_base + "/")
    if "/pair" in tablet.url:  # --lan-test: this machine counts as the LAN, the tablet pairs first
        pair(tablet, pin)
    created = tablet.request.post(tablet_base + "/api/games", data={"players": ["Alice", "Bob"]},
                                  headers={"Origin": tablet_base})
    assert created.status == 201, created.text()
    game_id = created.json()["id"]
    tablet.goto(f"{tablet_base}/games/{game_id}")
    tablet.locator("#seats li[data-seat='0'][data-claimed='false'] img.seat-qr").wait_for()
    tablet.wait_for_function("() => [...document.querySelectorAll('#seats img.seat-qr')].every(i => i.complete)")
    tablet.locator("#seats").screenshot(path=str(shots / "pair-1-tablet-qr.png"))
    join = tablet.locator("#seats li[data-seat='0'] a").get_attribute("href") or ""
    assert re.fullmatch(rf"/games/{game_id}/join/[0-9a-f]+", join), join

    # the phone: scans the QR code (its join link), is asked the PIN once, lands on its seat
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", is_mobile=True)
    phone_context.set_default_timeout(TIMEOUT)
    phone = phone_context.new_page()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(phone_base + join)
    assert "/pair?next=" in phone.url
    phone.locator("#pair-form").wait_for()
    phone.fill("#pin", "000000" if pin != "000000" else "111111")  # a wrong PIN first: refused, asked again
    phone.click("#pair-button")
    phone.locator("#pair-problem[data-problem='pair_wrong']").wait_for()
    phone.screenshot(path=str(shots / "pair-2-wrong-pin.png"), full_page=True)
    pair(phone, pin)
    phone.wait_for_url(re.compile(rf"/games/{game_id}/join/[0-9a-f]+$"))  # the seat's join page: one tap takes it
    assert "Alice" in phone.inner_text("#join-seat")
    seats = tablet.request.get(f"{tablet_base}/api/games/{game_id}/seats").json()["seats"]
    assert [seat["claimed"] for seat in seats] == [False, False]  # opening the link claimed nothing
    phone.screenshot(path=str(shots / "pair-3-join.png"), full_page=True)
    phone.click("#join-button")
    phone.wait_for_url(re.compile(rf"/games/{game_id}/seat/[0-9a-f]{{32}}$"))
    phone.locator("#log li").first.wait_for()
    assert phone.inner_text("#seat-name").startswith("Alice") or "Alice" in phone.inner_text("body")
    phone.screenshot(path=str(shots / "pair-4-phone-seat.png"), full_page=True)
    cookies = {c["name"]: c for c in phone_context.cookies()}
    assert cookies["keydom_paired"]["httpOnly"] and cookies["keydom_paired"]["sameSite"] == "Strict"

    # the tablet shows the seat as claimed (no link, no QR code), with a way to give it a new link
    tablet.locator("#seats li[data-seat='0'][data-claimed='true'] button.reissue").wait_for()
    assert tablet.locator("#seats li[data-seat='0'] img, #seats li[data-seat='0'] a").count() == 0
    tablet.locator("#seats").screenshot(path=str(shots / "pair-5-tablet-claimed.png"))

    # the join link works once: opened again (a photo of the QR code), it opens nothing
    again = phone_context.new_page()
    again.goto(phone_base + join)
    assert again.locator("#not-found").count() == 1
    assert errors == []
