"""The hand-held USB scanner: the key events a keyboard-wedge scanner sends (spelled with the kernel's key codes,
Shift included) become the scanned text, and the text the component it names; foreign codes are refused with a
message; the device is grabbed while read and released on close."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from evdev import ecodes

from companion.codes import load_registry
from companion.core.errors import ForeignCodeError, UnknownCodeError
from companion.core.messages import Message, render
from firmware_bridge.handscanner import HandScanner, LineDecoder, Scan, ScannerUnavailable, open_device
from tests.panel.scannerkit import US_KEYS, Event, FakeDevice, typed, wait_for

REGISTRY = load_registry()

def test_the_kernel_key_codes_a_us_scanner_sends_read_as_the_sticker_text_shift_included() -> None:
    assert (ecodes.KEY_LEFTSHIFT, ecodes.KEY_K, ecodes.KEY_SEMICOLON, ecodes.KEY_ENTER) == (42, 37, 39, 28)
    decoder = LineDecoder("us")
    assert decoder.lines(typed("KEYDOM:2:KH:F:C4:U")) == ["KEYDOM:2:KH:F:C4:U"]
    assert decoder.lines(typed("keydom:2:KH:E:Q", end="KEY_TAB")) == ["keydom:2:KH:E:Q"]  # lower case, Tab ends
    keypad = {**US_KEYS, "2": ("KEY_KP2", False), "3": ("KEY_KP3", False)}  # digits from the numeric keypad
    assert decoder.lines(typed("KEYDOM:2:KH:L:3:B", keypad, end="KEY_KPENTER")) == ["KEYDOM:2:KH:L:3:B"]
    # a held key repeats (value 2): each repeat types again, as on a keyboard; an empty line (Enter alone) is no scan
    held = [(ecodes.EV_KEY, ecodes.KEY_A, 1), (ecodes.EV_KEY, ecodes.KEY_A, 2), (ecodes.EV_KEY, ecodes.KEY_A, 0)]
    assert decoder.lines([*held, *typed("")]) == ["aa"]


def test_a_scanner_set_to_a_german_keyboard_types_through_the_german_layout() -> None:
    """On QWERTZ the Y and Z keys swap and ':' is Shift+'.': the same scan arrives as other key codes."""
    german = {**US_KEYS, "y": ("KEY_Z", False), "z": ("KEY_Y", False), ":": ("KEY_DOT", True), "-": ("KEY_SLASH", False)}
    events = list(typed("KEYDOM:2:KH:L:3:B", german))
    assert LineDecoder("de").lines(events) == ["KEYDOM:2:KH:L:3:B"]
    assert LineDecoder("us").lines(events) != ["KEYDOM:2:KH:L:3:B"]  # read with the wrong layout it is another text


def feed(scanner: HandScanner, events: Iterator[Event]) -> list[Scan]:
    return [scan for scan in (scanner.feed(*event) for event in events) if scan is not None]


def test_the_scanner_is_grabbed_while_read_and_each_scan_names_its_component() -> None:
    device = FakeDevice()
    scans: list[Scan] = []
    scanner = HandScanner(device, REGISTRY, scans.append, poll_seconds=0.05)
    scanner.start()
    assert device.grabbed and scanner.running  # exclusive: the console does not get the scanner's keys
    device.send(typed("KEYDOM:2:KH:F:C4:U"))
    device.send(typed("KEYDOM:2:KH:L:2:C"))
    wait_for(lambda: len(scans) == 2)
    assert [s.component.code if s.component else None for s in scans] == ["KH:F:C4:U", "KH:L:2:C"]
    assert scans[1].component is not None and (scans[1].component.kind, scans[1].component.key) == ("labourer", "C")
    scanner.close()
    assert not device.grabbed and device.closed and not scanner.running
    scanner.close()  # twice is fine


def test_an_unplugged_scanner_stops_with_a_reason() -> None:
    device = FakeDevice()
    scanner = HandScanner(device, REGISTRY, lambda scan: None, poll_seconds=0.05)
    scanner.start()
    device.unplugged = True
    device.send(iter([]))
    wait_for(lambda: not scanner.running)
    assert scanner.error is not None and isinstance(scanner.error.text, Message)
    assert scanner.error.text.id == "core.scanner.gone" and device.path in str(scanner.error)
    scanner.close()


@pytest.mark.parametrize("text, error, message", [
    ("https://example.com/x", ForeignCodeError, "core.code.foreign"),  # another product's QR code
    ("KEYDOM:1:KH:E:Q", ForeignCodeError, "core.code.other_version"),  # a withdrawn version-1 sticker
    ("KEYDOM:2:KH:F:ZZ9:U", UnknownCodeError, "core.code.unknown"),
])
def test_codes_the_companion_did_not_print_are_refused_in_both_languages(text: str, error: type[Exception],
                                                                         message: str) -> None:
    scans: list[Scan] = []
    (scan,) = feed(HandScanner(FakeDevice(), REGISTRY, scans.append), typed(text))
    assert scan.component is None and isinstance(scan.error, error) and scans == [scan]
    assert isinstance(scan.error.text, Message) and scan.error.text.id == message
    english, german = render(scan.error.text, "en"), render(scan.error.text, "de")
    assert english != german and "{" not in english + german


def test_a_device_that_is_not_there_is_refused_with_its_path() -> None:
    with pytest.raises(ScannerUnavailable, match="/dev/input/event99 is no input device"):
        open_device("/dev/input/event99")


def _uinput_usable() -> bool:
    try:
        from evdev import UInput

        UInput().close()
        return True
    except Exception:
        return False


@pytest.mark.skipif(not _uinput_usable(), reason="/dev/uinput is not usable here (the recorded events above run)")
def test_a_virtual_scanner_device_types_a_code_that_the_grabbed_reader_names() -> None:
    import evdev

    keys = [ecodes.ecodes[name] for name, _ in US_KEYS.values()] + [ecodes.KEY_LEFTSHIFT, ecodes.KEY_ENTER]
    with evdev.UInput({ecodes.EV_KEY: keys}, name="Keydom test barcode scanner") as virtual:
        time.sleep(0.5)  # udev makes the node
        device = open_device("auto")
        scans: list[Scan] = []
        scanner = HandScanner(device, REGISTRY, scans.append, poll_seconds=0.05)
        scanner.start()
        for type_, code, value in typed("KEYDOM:2:KH:T:H"):
            virtual.write(type_, code, value)
        virtual.syn()
        wait_for(lambda: len(scans) == 1)
        scanner.close()
    assert scans[0].component is not None and scans[0].component.code == "KH:T:H"
