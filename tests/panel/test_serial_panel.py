"""The big panel: the board simulator (the firmware's code) on socket:// driving a real session."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest

from companion.session import Session
from firmware_bridge.commands import Button
from firmware_bridge.config import PanelConfig
from firmware_bridge.controller import PanelController
from firmware_bridge.lights import DIM, STATUS_COLOURS, scale
from firmware_bridge.link import SerialPanel, button_index
from firmware_bridge.panel import SimulatedPanel
from firmware_bridge.sim import BoardSimulator
from tests.panel.test_gpio import bid_first_tile, office


def wait_for(check: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.005)
    return check()


@pytest.fixture
def big_panel(board: BoardSimulator, config: PanelConfig) -> Iterator[SerialPanel]:
    panel = SerialPanel(config.serial, url=board.url)
    assert panel.link.connected.wait(3), panel.status()
    yield panel
    panel.close()


@pytest.fixture
def both(big_panel: SerialPanel, session: Session) -> Iterator[tuple[PanelController, SimulatedPanel]]:
    """The board and the tablet's virtual panel, together on one game."""
    virtual = SimulatedPanel()
    control = PanelController([virtual, big_panel], hold_seconds=0.2, error_seconds=0.3,
                              rng_for=lambda s: random.Random(5))
    control.follow(session)
    yield control, virtual
    control.close()


def test_draw_on_the_board_refills_the_office_and_the_strip_follows(
        both: tuple[PanelController, SimulatedPanel], board: BoardSimulator, config: PanelConfig,
        session: Session) -> None:
    status = config.serial.status
    alice = config.serial.seats[0]
    assert wait_for(lambda: board.pixels[alice[0]] == (255, 0, 0))  # Alice to move: her segment is lit
    bid_first_tile(session)
    assert wait_for(lambda: board.pixels[status] == STATUS_COLOURS["draw"])
    board.click(button_index(config.serial, Button.DRAW))
    assert wait_for(lambda: None not in office(session))
    assert wait_for(lambda: board.pixels[status] == STATUS_COLOURS["ready"])
    segment = board.pixels[alice[0]:alice[0] + alice[1]]
    assert segment == [(255, 0, 0)] * alice[1]
    _, virtual = both
    assert virtual.lights.status == "ready"  # the tablet's virtual panel shows the same


def test_a_refused_press_on_the_board_turns_the_status_pixel_red(
        both: tuple[PanelController, SimulatedPanel], board: BoardSimulator, config: PanelConfig,
        session: Session) -> None:
    control, _ = both
    board.click(button_index(config.serial, Button.DRAW))
    assert wait_for(lambda: board.pixels[config.serial.status] == STATUS_COLOURS["error"])
    assert control.message["text"] == "nothing waits for a draw now: it is Alice's turn"
    assert wait_for(lambda: board.pixels[config.serial.status] == STATUS_COLOURS["ready"])


def test_undo_on_the_board_needs_the_hold(both: tuple[PanelController, SimulatedPanel], board: BoardSimulator,
                                          config: PanelConfig, session: Session) -> None:
    session.play("end")
    bob = config.serial.seats[1]
    assert wait_for(lambda: board.pixels[bob[0]] == (0, 0, 255))
    undo = button_index(config.serial, Button.UNDO)
    board.click(undo)
    time.sleep(0.1)
    assert str(session.history[-1]) == "end"
    board.click(undo, hold=0.6)
    assert wait_for(lambda: session.game.current_player(session.state) == 0)
    assert wait_for(lambda: board.pixels[bob[0]] == scale((0, 0, 255), DIM))


def test_after_a_replug_the_strip_shows_the_current_state(
        both: tuple[PanelController, SimulatedPanel], board: BoardSimulator, config: PanelConfig,
        session: Session) -> None:
    board.unplug()
    board.reset()
    session.play("end")  # Bob's turn while the board is away
    board.plug()
    bob = config.serial.seats[1]
    assert wait_for(lambda: board.pixels[bob[0]] == (0, 0, 255), timeout=2)
    assert board.pixels[config.serial.seats[0][0]] == scale((255, 0, 0), DIM)
