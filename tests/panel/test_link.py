"""The serial bridge against the firmware's own code (the board simulator) over socket:// and
loop://: handshake, lights, buttons, and a line that drops, repeats, garbles, resets and unplugs."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.link import CONNECTED, CONNECTING, INCOMPATIBLE, SerialLink, Timings
from firmware_bridge.sim import BoardSimulator
from tests.panel.faults import FaultyLine

RED, GREEN = (255, 0, 0), (0, 255, 0)


def wait_for(check: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.005)
    return check()


class Presses:
    def __init__(self) -> None:
        self.events: list[tuple[int, int]] = []

    def __call__(self, index: int, kind: int) -> None:
        self.events.append((index, kind))


@pytest.fixture
def presses() -> Presses:
    return Presses()


@pytest.fixture
def line(board: BoardSimulator) -> Iterator[FaultyLine]:
    faulty = FaultyLine(board.url)
    yield faulty
    faulty.close()


@pytest.fixture
def link(line: FaultyLine, presses: Presses) -> Iterator[SerialLink]:
    opened = SerialLink(line.url, presses).start()
    assert opened.connected.wait(3), opened.status()
    yield opened
    opened.close()


def test_handshake_lights_and_a_button(board: BoardSimulator, link: SerialLink, presses: Presses) -> None:
    assert link.status()["board"] == {"firmware": "keydom-sim 2.0", "buttons": 5, "leds": 62, "protocol": 2}
    link.set_lights([(0, 15, RED), (60, 1, GREEN)])
    assert wait_for(lambda: board.pixels[:15] == [RED] * 15 and board.pixels[60] == GREEN)
    assert board.pixels[15:60] == [(0, 0, 0)] * 45
    board.click(2)
    assert wait_for(lambda: presses.events == [(2, P.PRESS)])
    board.click(3, hold=0.5)
    assert wait_for(lambda: presses.events[1:] == [(3, P.PRESS), (3, P.HOLD)])
    assert link.ping() is not None


def test_garbage_and_cut_frames_are_dropped_and_counted(board: BoardSimulator, link: SerialLink,
                                                        presses: Presses, line: FaultyLine) -> None:
    board.inject(bytes(random.Random(1).randrange(256) for _ in range(500)))
    board.inject(P.Frame(77, P.BUTTON, b"\x01\x01").encode()[:-3])  # a frame cut short
    board.click(1)
    assert wait_for(lambda: (1, P.PRESS) in presses.events)
    assert presses.events.count((1, P.PRESS)) == 1
    stats = link.status()["stats"]
    assert stats["noise"] + stats["dropped"] > 0
    link.set_lights([(0, 3, GREEN)])
    assert wait_for(lambda: board.pixels[:3] == [GREEN] * 3)
    assert link.state == CONNECTED


def test_garbage_towards_the_board_does_not_stop_it(board: BoardSimulator, link: SerialLink,
                                                    line: FaultyLine) -> None:
    noise = random.Random(2)
    line.to_board = lambda data: bytes(noise.randrange(256) for _ in range(40)) + data
    link.set_lights([(5, 5, RED)])
    assert wait_for(lambda: board.pixels[5:10] == [RED] * 5)
    assert board.firmware.parser.noise > 0


def test_dropped_bytes_are_made_good_by_retries(board: BoardSimulator, link: SerialLink, line: FaultyLine) -> None:
    lost = random.Random(3)
    line.to_board = lambda data: bytes(b for b in data if lost.random() > 0.05)
    for shade in range(1, 30):
        link.set_lights([(0, 62, (shade, 0, 0))])
        time.sleep(0.01)
    assert wait_for(lambda: board.pixels[0] == (29, 0, 0), timeout=5)  # the last state always arrives
    assert link.status()["stats"]["retries"] > 0


def test_a_repeated_button_frame_is_one_press(board: BoardSimulator, link: SerialLink, presses: Presses,
                                              line: FaultyLine) -> None:
    line.to_host = lambda data: data + data  # every frame arrives twice
    board.click(4)
    assert wait_for(lambda: (4, P.PRESS) in presses.events)
    time.sleep(0.2)
    assert presses.events == [(4, P.PRESS)]
    assert link.status()["stats"]["duplicates"] >= 1


def test_a_board_reset_gets_the_whole_light_state_again(board: BoardSimulator, link: SerialLink) -> None:
    link.set_lights([(0, 15, RED)])
    assert wait_for(lambda: board.pixels[0] == RED)
    board.reset()  # power cycle: the strip is dark and the board has forgotten the host
    assert board.firmware.pixels[0] == (0, 0, 0)
    assert wait_for(lambda: board.pixels[0] == RED, timeout=2)
    assert link.state == CONNECTED


def test_unplug_and_replug_reconnects_within_two_seconds(board: BoardSimulator, line: FaultyLine,
                                                        link: SerialLink, presses: Presses) -> None:
    link.set_lights([(15, 15, GREEN)])
    assert wait_for(lambda: board.pixels[15] == GREEN)
    line.cut()
    board.reset()  # the board lost power with the cable
    assert wait_for(lambda: link.state == CONNECTING, timeout=2)
    link.set_lights([(15, 15, RED)])  # the game goes on while unplugged
    replugged = time.monotonic()
    assert wait_for(lambda: board.pixels[15] == RED, timeout=2)
    assert time.monotonic() - replugged < 2
    board.click(0)
    assert wait_for(lambda: (0, P.PRESS) in presses.events)
    assert link.status()["stats"]["lost"] == 1


def test_a_port_that_does_not_exist_is_a_message(presses: Presses) -> None:
    link = SerialLink("/dev/ttyKEYDOM-missing", presses, Timings(reconnect=0.05)).start()
    try:
        assert wait_for(lambda: "could not open port" in link.message)
        assert "/dev/ttyKEYDOM-missing" in link.message
        assert link.state == CONNECTING and not link.connected.is_set()
        link.set_lights([(0, 1, RED)])  # no crash, kept for when the board appears
    finally:
        link.close()


def test_a_loop_port_without_a_board_says_no_board_answers(presses: Presses) -> None:
    """loop:// hears its own HELLO back: not a board, so the link keeps waiting and says why."""
    link = SerialLink("loop://", presses, Timings(retry=0.02, reconnect=0.05)).start()
    try:
        assert wait_for(lambda: "no answer from a panel board" in link.message)
        assert not link.connected.is_set()
    finally:
        link.close()


def test_a_board_with_another_protocol_version_is_named(board: BoardSimulator, presses: Presses) -> None:
    board.firmware.handle = lambda seq, kind, payload, now: board.firmware.send(
        P.ERROR, bytes((P.ERR_VERSION, 9)) + b"protocol version differs")
    link = SerialLink(board.url, presses).start()
    try:
        assert wait_for(lambda: link.state == INCOMPATIBLE)
        assert "speaks panel protocol v9" in link.message and "flash" in link.message
    finally:
        link.close()


def test_pty_transport(presses: Presses) -> None:
    """The simulator on a pseudo-terminal, opened by its device path like a real board."""
    with BoardSimulator(leds=10, buttons=2, pty=True, debounce_ms=5).start() as board:
        link = SerialLink(board.url, presses).start()
        try:
            assert link.connected.wait(3), link.status()
            link.set_lights([(0, 10, GREEN)])
            assert wait_for(lambda: board.pixels == [GREEN] * 10)
        finally:
            link.close()
