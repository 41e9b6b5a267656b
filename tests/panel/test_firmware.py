"""The firmware's logic (hardware/firmware/panel_fw.py) under CPython, with no pins: debounce,
long press, acknowledged button events, the LED buffer."""

from __future__ import annotations

from typing import Any

from firmware_bridge import protocol as P
from firmware_bridge.sim import load_firmware

fw = load_firmware()


class Host:
    """The host's side of a wire to one Firmware: frames sent and frames received."""

    def __init__(self, buttons: int = 3, leds: int = 10) -> None:
        self.received: list[P.Frame] = []
        self.parser = P.Parser()
        self.shown: list[list[tuple[int, int, int]]] = []
        self.board: Any = fw.Firmware(leds, buttons, self._from_board, self.shown.append, boot_id=0xCAFE,
                                      debounce_ms=20, hold_ms=1000, retry_ms=100, retries=3)

    def _from_board(self, data: bytes) -> None:
        self.received += self.parser.feed(data)

    def send(self, frame: P.Frame, now: int = 0) -> None:
        self.board.receive(frame.encode(), now)

    def hello(self) -> P.Welcome:
        self.send(P.Frame(1, P.HELLO, bytes((P.PROTOCOL_VERSION,))))
        return P.parse_welcome(self.received.pop().payload)

    def of_type(self, kind: int) -> list[P.Frame]:
        return [f for f in self.received if f.type == kind]


def run(board: Any, levels: list[bool], start: int, stop: int, step: int = 5) -> None:
    for now in range(start, stop, step):
        board.tick(levels, now)


def test_a_bouncing_press_is_one_press_reported_at_once() -> None:
    buttons = fw.Buttons(2, debounce_ms=20, hold_ms=1000)
    events = buttons.scan([1, 0], 100)
    assert events == [(0, P.PRESS)]  # the first contact counts: no debounce delay
    for now, level in enumerate([0, 1, 0, 1, 0, 1] * 3, start=101):  # the contact bounces for 18 ms
        events += buttons.scan([level, 0], now)
    for now in range(120, 200, 5):
        events += buttons.scan([1, 0], now)
    assert events == [(0, P.PRESS)]
    for now, level in enumerate([0, 1, 0, 0, 1, 0], start=200):  # released, bouncing
        events += buttons.scan([level, 0], now)
    for now in range(210, 260, 5):
        events += buttons.scan([0, 0], now)
    events += buttons.scan([1, 0], 300)  # a second press, after the first one settled
    assert events == [(0, P.PRESS), (0, P.PRESS)]


def test_a_long_press_sends_hold_once() -> None:
    buttons = fw.Buttons(1, debounce_ms=20, hold_ms=1000)
    events = []
    for now in range(0, 2500, 10):
        events += buttons.scan([1], now)
    assert events == [(0, P.PRESS), (0, P.HOLD)]
    for now in range(2500, 2600, 10):
        events += buttons.scan([0], now)
    assert events == [(0, P.PRESS), (0, P.HOLD)]


def test_welcome_tells_the_version_and_sizes() -> None:
    host = Host(buttons=3, leds=10)
    welcome = host.hello()
    assert (welcome.version, welcome.buttons, welcome.leds, welcome.boot_id) == (2, 3, 10, 0xCAFE)


def test_lights_before_hello_ask_for_hello() -> None:
    host = Host()
    host.send(P.Frame(5, P.LIGHTS, P.lights_payload([(0, 2, (9, 9, 9))])))
    assert host.received[-1].type == P.ERROR and host.received[-1].payload[0] == P.ERR_NEED_HELLO
    assert host.shown == []


def test_a_newer_protocol_is_refused() -> None:
    host = Host()
    host.send(P.Frame(1, P.HELLO, bytes((P.PROTOCOL_VERSION + 1,))))
    assert host.received[-1].type == P.ERROR and host.received[-1].payload[0] == P.ERR_VERSION
    assert not host.board.greeted


def test_lights_are_acknowledged_shown_once_and_clipped_to_the_strip() -> None:
    host = Host(leds=10)
    host.hello()
    lights = P.Frame(7, P.LIGHTS, P.lights_payload([(0, 3, (255, 0, 0)), (8, 5, (0, 0, 255))]))
    host.send(lights)
    host.send(lights)  # a repeat (our ACK was lost): acknowledged again, not shown again
    assert [f.payload for f in host.of_type(P.ACK)] == [b"\x07", b"\x07"]
    assert host.shown == [[(255, 0, 0)] * 3 + [(0, 0, 0)] * 5 + [(0, 0, 255)] * 2]


def test_a_button_event_is_repeated_until_acknowledged_then_given_up() -> None:
    host = Host()
    host.hello()
    run(host.board, [True, False, False], 0, 50)  # pressed: one event
    first = host.of_type(P.BUTTON)
    assert [f.payload for f in first] == [bytes((0, P.PRESS))]
    run(host.board, [False, False, False], 50, 260)  # no ACK: sent again every 100 ms, same sequence
    repeats = host.of_type(P.BUTTON)
    assert len(repeats) == 3 and {f.seq for f in repeats} == {first[0].seq}
    host.send(P.Frame(2, P.ACK, bytes((first[0].seq,))), 260)
    run(host.board, [False, False, False], 260, 800)
    assert len(host.of_type(P.BUTTON)) == 3  # acknowledged: no more repeats
    run(host.board, [False, True, False], 800, 850)
    run(host.board, [False, False, False], 850, 1400)  # never acknowledged: given up after 3 retries
    assert host.board.lost == 1 and len(host.of_type(P.BUTTON)) == 3 + 4


def test_ping_answers_with_the_boot_id_even_before_hello() -> None:
    host = Host()
    host.send(P.Frame(3, P.PING))
    assert host.received[-1] == P.Frame(host.received[-1].seq, P.PONG, (0xCAFE).to_bytes(4, "big"))
