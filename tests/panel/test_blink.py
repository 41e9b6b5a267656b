"""Protocol v2 (hardware/PROTOCOL.md): SHOW frames make a waiting seat's segment blink and light the indicator
pixels; a board flashed with protocol v1 keeps working on LIGHTS frames, the waiting seat steady at HALF."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.config import PanelConfig
from firmware_bridge.lights import HALF, IndicatorLight, Lights, scale
from firmware_bridge.link import CONNECTED, SerialPanel, strip_runs
from firmware_bridge.sim import BoardSimulator
from tests.panel.test_firmware import Host, run
from tests.panel.test_link import wait_for

RED, BLUE, WHEAT = (255, 0, 0), (0, 0, 255), (255, 210, 0)
WAITING = Lights(seats=(RED, BLUE), status="ready", waiting=(1,),
                 indicators=(IndicatorLight("favoured", "wheat", WHEAT), IndicatorLight("spoiled", "fish", BLUE)))


def test_show_payload_round_trip_and_limits() -> None:
    runs = [(0, 15, (1, 2, 3), P.STEADY), (300, 2, (255, 0, 9), P.BLINK)]
    assert P.parse_show(P.show_payload(runs)) == runs
    with pytest.raises(ValueError, match="at most 34 runs"):
        P.show_payload([(0, 1, (0, 0, 0), P.STEADY)] * (P.MAX_SHOW_RUNS + 1))
    assert P.steady_runs(runs, 0.5) == [(0, 15, (1, 2, 3)), (300, 2, (128, 0, 4))]


def test_strip_runs_blink_the_waiting_seat_and_light_the_indicators(config: PanelConfig) -> None:
    (first, count), (second, count2) = config.serial.seats[:2]
    runs = strip_runs(config.serial, WAITING)
    assert (first, count, RED, P.STEADY) in runs and (second, count2, BLUE, P.BLINK) in runs
    assert [(p, c) for p, n, c, e in runs if p in config.serial.indicators] == [(62, WHEAT), (63, BLUE)]


def test_the_firmware_blinks_a_show_run_and_still_takes_lights_frames() -> None:
    """The firmware's own code: a blinking run alternates every 500 ms between its colour and an eighth of it."""
    host = Host(leds=4)
    assert host.hello().version == 2
    host.send(P.Frame(5, P.SHOW, P.show_payload([(0, 2, (255, 16, 8), P.BLINK), (3, 1, (9, 9, 9), P.STEADY)])), 1000)
    assert host.shown[-1] == [(255, 16, 8), (255, 16, 8), (0, 0, 0), (9, 9, 9)]
    run(host.board, [False] * 3, 1000, 1600, 50)
    assert host.shown[-1] == [(31, 2, 1), (31, 2, 1), (0, 0, 0), (9, 9, 9)]  # dim half: >> 3
    run(host.board, [False] * 3, 1600, 2100, 50)
    assert host.shown[-1][0] == (255, 16, 8)
    shows = len(host.shown)
    host.send(P.Frame(6, P.LIGHTS, P.lights_payload([(0, 4, (1, 1, 1))])), 2100)  # a v1 frame: steady again
    run(host.board, [False] * 3, 2100, 3500, 50)
    assert host.shown[shows:] == [[(1, 1, 1)] * 4]
    host.send(P.Frame(7, P.SHOW, b"\x00" * 6), 3500)
    assert host.received[-1].type == P.ERROR and host.received[-1].payload[0] == P.ERR_BAD_PAYLOAD


def test_the_firmware_answers_a_v1_host_in_v1() -> None:
    host = Host()
    host.send(P.Frame(1, P.HELLO, bytes((1,))))
    assert P.parse_welcome(host.received.pop().payload).version == 1 and host.board.greeted


@pytest.fixture
def board() -> Iterator[BoardSimulator]:
    with BoardSimulator(leds=64, buttons=5, debounce_ms=5, hold_ms=400).start() as simulated:
        yield simulated


def segment(board: BoardSimulator, config: PanelConfig, seat: int) -> tuple[int, int, int]:
    return board.pixels[config.serial.seats[seat][0]]


def test_a_board_blinks_the_waiting_seat(board: BoardSimulator, config: PanelConfig) -> None:
    panel = SerialPanel(config.serial, url=board.url)
    try:
        assert panel.link.connected.wait(3), panel.status()
        assert panel.status()["board"]["protocol"] == 2
        panel.show(WAITING)
        assert wait_for(lambda: board.pixels[62] == WHEAT and board.pixels[63] == BLUE)
        seen: set[Any] = set()
        deadline = time.monotonic() + 1.3
        while time.monotonic() < deadline:
            seen.add((segment(board, config, 0), segment(board, config, 1)))
            time.sleep(0.02)
        assert seen == {(RED, BLUE), (RED, (0, 0, BLUE[2] >> 3))}  # seat 1 steady, seat 2 blinking
    finally:
        panel.close()


def test_a_board_flashed_with_protocol_v1_keeps_working(board: BoardSimulator, config: PanelConfig) -> None:
    """An old board answers HELLO v2 with ERROR 2 and its version 1, and knows no SHOW: greeted again in v1, it
    gets LIGHTS frames, the waiting seat steady at HALF of its colour."""
    firmware = board.firmware
    handle = firmware.handle

    def old(seq: int, kind: int, payload: bytes, now: int) -> None:
        if kind == P.HELLO and payload[:1] != b"\x01":
            firmware.send(P.ERROR, bytes((P.ERR_VERSION, 1)) + b"protocol version differs")
        elif kind != P.SHOW:  # v1 firmware ignores a type it does not know (no ACK)
            handle(seq, kind, payload, now)

    firmware.handle = old
    panel = SerialPanel(config.serial, url=board.url)
    try:
        assert wait_for(lambda: panel.link.state == CONNECTED), panel.status()
        assert panel.status()["board"]["protocol"] == 1
        panel.show(WAITING)
        assert wait_for(lambda: segment(board, config, 1) == scale(BLUE, HALF))
        assert segment(board, config, 0) == RED and board.pixels[62] == WHEAT
        time.sleep(0.6)
        assert segment(board, config, 1) == scale(BLUE, HALF) and panel.link.state == CONNECTED
    finally:
        panel.close()
