"""A hand-held USB code scanner (a "keyboard wedge"): it types each scanned code, then Enter.

The scanner reads a sticker's QR code (``KEYDOM:2:KH:F:C4:U``, ``docs/stickers.md``) and types it like a
keyboard. On the Pi nothing has a focused window, so ``HandScanner`` reads the device's key events itself with
python-evdev, **grabbed exclusively** (its keys reach no console or other program), turns them into text lines
(``LineDecoder``: the key codes of the scanner's keyboard layout, Shift held or not, Enter or Tab ends a line),
and each line into the component it names through the code registry (``CodeRegistry.by_payload``). Each scan,
named or refused, goes to one callback: the web service feeds it to the tablet's scan station.

Reading ``/dev/input/event*`` needs the ``input`` group (``sudo usermod -aG input pi``; README, "Installing on a
Raspberry Pi"). ``open_device("auto")`` takes the first input device whose name says scanner or barcode; any
other device is named by its path (best ``/dev/input/by-id/usb-...-event-kbd``, which survives re-plugging).
"""

from __future__ import annotations

import logging
import select
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.codes.registry import CodeRegistry, Component
from companion.core.errors import CompanionError, MalformedInputError, UnknownCodeError
from companion.core.messages import msg

log = logging.getLogger(__name__)

# Linux key codes (linux/input-event-codes.h): what the kernel reports, whichever python-evdev is installed
EV_KEY = 1
KEY_UP, KEY_DOWN, KEY_REPEAT = 0, 1, 2
SHIFT_KEYS = frozenset({42, 54})  # KEY_LEFTSHIFT, KEY_RIGHTSHIFT
LINE_END_KEYS = frozenset({28, 96, 15})  # KEY_ENTER, KEY_KPENTER, KEY_TAB

_LETTER_ROWS = {16: "qwertyuiop", 30: "asdfghjkl", 44: "zxcvbnm"}
KEYPAD: dict[int, tuple[str, str]] = {code: (ch, ch) for code, ch in zip(
    (71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 98, 55), "789-456+1230./*")}
"""The numeric keypad (some scanners type digits there), the same in every layout."""
_US: dict[int, tuple[str, str]] = {
    **{code + i: (ch, ch.upper()) for code, row in _LETTER_ROWS.items() for i, ch in enumerate(row)},
    **{2 + i: (digit, shifted) for i, (digit, shifted) in enumerate(zip("1234567890", "!@#$%^&*()"))},
    12: ("-", "_"), 13: ("=", "+"), 26: ("[", "{"), 27: ("]", "}"), 39: (";", ":"), 40: ("'", '"'),
    41: ("`", "~"), 43: ("\\", "|"), 51: (",", "<"), 52: (".", ">"), 53: ("/", "?"), 57: (" ", " "),
    **KEYPAD,
}
_DE: dict[int, tuple[str, str]] = {
    **_US,
    21: ("z", "Z"), 44: ("y", "Y"),  # QWERTZ
    **{2 + i: (digit, shifted) for i, (digit, shifted) in enumerate(zip("1234567890", '!"§$%&/()='))},
    12: ("ß", "?"), 26: ("ü", "Ü"), 27: ("+", "*"), 39: ("ö", "Ö"), 40: ("ä", "Ä"), 41: ("^", "°"),
    43: ("#", "'"), 51: (",", ";"), 52: (".", ":"), 53: ("-", "_"), 83: (",", ","),
}
LAYOUTS: dict[str, dict[int, tuple[str, str]]] = {"us": _US, "de": _DE}
"""The keyboard layout the scanner types in (most scanners ship set to US; many can be set to German)."""
MAX_LINE = 200
"""A line longer than this is no code (a stuck key): it is dropped."""


class ScannerUnavailable(CompanionError):
    """The hand-held scanner cannot be read: not found, not permitted, taken by another program, unplugged."""


class LineDecoder:
    """Key events in, text lines out: key presses (and a held key's repeats) typed with the Shift state, a line
    ended by Enter or Tab. Other events (``EV_MSC`` scan codes, ``EV_SYN`` reports) are ignored."""

    def __init__(self, layout: str = "us") -> None:
        if layout not in LAYOUTS:
            raise MalformedInputError(f"unknown scanner keyboard layout {layout!r}; use one of {', '.join(LAYOUTS)}")
        self.keys = LAYOUTS[layout]
        self._shift: set[int] = set()
        self._typed: list[str] = []

    def feed(self, type_: int, code: int, value: int) -> str | None:
        """Take one event; the finished line when it ends one (empty lines are skipped), else None."""
        if type_ != EV_KEY:
            return None
        if code in SHIFT_KEYS:
            (self._shift.add if value != KEY_UP else self._shift.discard)(code)
            return None
        if value == KEY_UP:
            return None
        if code in LINE_END_KEYS:
            line, self._typed = "".join(self._typed), []
            return line if 0 < len(line) <= MAX_LINE else None
        typed = self.keys.get(code)
        if typed is not None:
            self._typed.append(typed[1] if self._shift else typed[0])
        return None

    def lines(self, events: Iterable[tuple[int, int, int]]) -> list[str]:
        """The lines a sequence of ``(type, code, value)`` events types."""
        return [line for line in (self.feed(*event) for event in events) if line is not None]


@dataclass(frozen=True, slots=True)
class Scan:
    """One scanned line: the component it names, or the registry's refusal (``error.text`` is a message)."""

    text: str
    component: Component | None
    error: UnknownCodeError | None = None


def resolve(registry: CodeRegistry, text: str) -> Scan:
    """The component a scanned ``text`` names, or the refusal."""
    try:
        return Scan(text, registry.by_payload(text))
    except UnknownCodeError as error:
        return Scan(text, None, error)


def open_device(spec: str) -> Any:
    """The input device at path ``spec``, or with ``auto`` the first whose name says scanner or barcode
    (an ``evdev.InputDevice``); ``ScannerUnavailable`` with the reason otherwise."""
    try:
        import evdev
    except ImportError:
        raise ScannerUnavailable(msg("core.scanner.no_evdev")) from None
    path = spec.strip()
    if path == "auto":
        for candidate in evdev.list_devices():
            try:
                device = evdev.InputDevice(candidate)
            except OSError:
                continue
            if any(word in device.name.lower() for word in ("scanner", "barcode", "bar code")):
                return device
            device.close()
        raise ScannerUnavailable(msg("core.scanner.none_found"))
    try:
        return evdev.InputDevice(path)
    except PermissionError:
        raise ScannerUnavailable(msg("core.scanner.no_permission", path=path)) from None
    except OSError:
        raise ScannerUnavailable(msg("core.scanner.missing", path=path)) from None


class HandScanner:
    """Reads one scanner device on its own thread (``start``/``close``), grabbed, each line to ``on_scan``.

    ``device`` is an ``evdev.InputDevice`` (or anything with ``fd``, ``read()``, ``grab()``, ``ungrab()`` and
    ``close()``); ``error`` says why reading stopped (the scanner was unplugged or taken).
    """

    def __init__(self, device: Any, registry: CodeRegistry, on_scan: Callable[[Scan], None], layout: str = "us",
                 poll_seconds: float = 0.25) -> None:
        self.device = device
        self.registry = registry
        self.on_scan = on_scan
        self.decoder = LineDecoder(layout)
        self.poll_seconds = poll_seconds
        self.error: CompanionError | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def feed(self, type_: int, code: int, value: int) -> Scan | None:
        """One key event; the scan it completes (also given to ``on_scan``), else None."""
        line = self.decoder.feed(type_, code, value)
        if line is None:
            return None
        scan = resolve(self.registry, line)
        self.on_scan(scan)
        return scan

    def start(self) -> None:
        """Grab the device (no other program sees its keys) and read it on a daemon thread."""
        try:
            self.device.grab()
        except OSError:
            raise ScannerUnavailable(msg("core.scanner.busy", path=str(getattr(self.device, "path", "?")))) from None
        self._thread = threading.Thread(target=self._run, name="hand scanner", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                ready, _, _ = select.select([self.device.fd], [], [], self.poll_seconds)
                events = list(self.device.read()) if ready else []
            except BlockingIOError:
                continue
            except OSError:  # unplugged
                self.error = ScannerUnavailable(msg("core.scanner.gone", path=str(getattr(self.device, "path", "?"))))
                log.error("%s", self.error)
                return
            for event in events:
                self.feed(event.type, event.code, event.value)

    def close(self) -> None:
        """Stop reading, release the grab and the device; closing twice is fine."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        try:
            self.device.ungrab()
        except OSError:
            pass  # never grabbed, or already gone
        self.device.close()
