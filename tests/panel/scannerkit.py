"""Helpers for the hand-held scanner's tests: the key events a USB keyboard-wedge scanner sends, spelled with the
kernel's key codes (from python-evdev's ``ecodes``), and an input device stand-in."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from evdev import ecodes

Event = tuple[int, int, int]

US_KEYS = {**{ch: (f"KEY_{ch.upper()}", False) for ch in "abcdefghijklmnopqrstuvwxyz"},
           **{ch: (f"KEY_{ch}", False) for ch in "0123456789"},
           ":": ("KEY_SEMICOLON", True), "/": ("KEY_SLASH", False), ".": ("KEY_DOT", False), "-": ("KEY_MINUS", False)}


def typed(text: str, keys: dict[str, tuple[str, bool]] = US_KEYS, end: str = "KEY_ENTER") -> Iterator[Event]:
    """The events a USB keyboard wedge sends for ``text`` and Enter, as evtest shows them: for each key its scan
    code (EV_MSC), the key going down, a report (EV_SYN), and up again; Shift held around shifted characters."""
    def key(name: str, value: int) -> Iterator[Event]:
        code = ecodes.ecodes[name]
        yield ecodes.EV_MSC, ecodes.MSC_SCAN, 0x70000 + code
        yield ecodes.EV_KEY, code, value
        yield ecodes.EV_SYN, ecodes.SYN_REPORT, 0

    for ch in text:
        name, shifted = keys[ch.lower()] if ch.isalpha() else keys[ch]
        shifted = shifted or ch.isupper()
        if shifted:
            yield from key("KEY_LEFTSHIFT", 1)
        yield from key(name, 1)
        yield from key(name, 0)
        if shifted:
            yield from key("KEY_LEFTSHIFT", 0)
    yield from key(end, 1)
    yield from key(end, 0)


class FakeDevice:
    """An input device as HandScanner uses it: a readable fd, queued events, grab and close recorded."""

    path = "/dev/input/by-id/usb-Fake_Scanner-event-kbd"

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        self.fd = self._read
        self.events: list[Any] = []
        self.grabbed = self.closed = False
        self.unplugged = False
        self._lock = threading.Lock()

    def send(self, events: Iterator[Event]) -> None:
        with self._lock:
            self.events += [type("InputEvent", (), {"type": t, "code": c, "value": v}) for t, c, v in events]
        os.write(self._write, b"x")

    def read(self) -> Iterator[Any]:
        if self.unplugged:
            raise OSError(19, "No such device")
        os.read(self._read, 4096)
        with self._lock:
            events, self.events = self.events, []
        return iter(events)

    def grab(self) -> None:
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def close(self) -> None:
        self.closed = True
        os.close(self._read)
        os.close(self._write)


def wait_for(condition: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)
