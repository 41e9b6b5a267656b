"""The GPIO panel on gpiozero's MockFactory driving a real session (SQLite store): presses become
moves, the lights follow turns, refusals, undo and resume."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from companion.core.game import CHANCE
from companion.session import Session
from companion.store import GameStore
from firmware_bridge.config import PanelConfig
from firmware_bridge.controller import PanelController
from firmware_bridge.lights import DIM, STATUS_COLOURS, Colour, scale
from firmware_bridge.panel import GpioPanel
from tests.panel.conftest import HOLD

RED, BLUE = (255, 0, 0), (0, 0, 255)


def rgb(factory: MockFactory, pins: tuple[int, int, int]) -> Colour:
    """What an RGB LED shows, read back from its mock pins."""
    return (round(factory.pin(pins[0]).state * 255), round(factory.pin(pins[1]).state * 255),
            round(factory.pin(pins[2]).state * 255))


def tap(factory: MockFactory, pin: int, seconds: float = 0.05) -> None:
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()
    time.sleep(0.03)


def wait_for(check: Callable[[], bool], timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.005)
    return check()


def office(session: Session) -> list[str | None]:
    tiles: list[str | None] = session.view(None)["land_office"]
    return tiles


def bid_first_tile(session: Session) -> None:
    """The player to move bids on a land office tile (the tile leaves the office: R-B4 refill pending)."""
    move = next(m for m in session.game.legal_moves(session.state) if str(m).startswith("bid "))
    session.play(move)
    while session.game.current_player(session.state) != CHANCE:
        session.play("done" if "done" in map(str, session.game.legal_moves(session.state))
                     else str(session.game.legal_moves(session.state)[0]))


def test_draw_button_refills_the_land_office(controller: PanelController, mock_factory: MockFactory,
                                              config: PanelConfig, session: Session, store: GameStore) -> None:
    bid_first_tile(session)
    assert None in office(session)
    status = config.gpio.status
    assert rgb(mock_factory, status) == STATUS_COLOURS["draw"]  # the status light asks for DRAW
    moves_before = len(session.history)
    tap(mock_factory, config.gpio.buttons["DRAW"])  # type: ignore[index]
    assert wait_for(lambda: None not in office(session))
    assert len(session.history) == moves_before + 1
    assert str(session.history[-1]).startswith("draw ")
    assert controller.message["ok"] and "take field tile" in controller.message["text"]
    # stored: the draw is in SQLite and a reopened game has the full office
    assert None not in office(Session.open(store, session.id, auto_chance=False))
    assert rgb(mock_factory, status) == STATUS_COLOURS["ready"]


def test_draw_with_nothing_to_draw_is_refused_and_flashes_the_error_light(
        controller: PanelController, mock_factory: MockFactory, config: PanelConfig, session: Session) -> None:
    before = session.history
    tap(mock_factory, config.gpio.buttons["DRAW"])  # type: ignore[index]
    assert wait_for(lambda: rgb(mock_factory, config.gpio.status) == STATUS_COLOURS["error"])
    said = {key: value for key, value in controller.message.items() if key != "message"}  # the text, not the data
    assert said == {"ok": False, "button": "DRAW", "text": "nothing waits for a draw now: it is Alice's turn"}
    assert session.history == before
    # the error light goes back to the game's status after error_seconds
    assert wait_for(lambda: rgb(mock_factory, config.gpio.status) == STATUS_COLOURS["ready"])


def test_seat_lights_follow_the_turn_and_next_ends_it(controller: PanelController, mock_factory: MockFactory,
                                                      config: PanelConfig, session: Session) -> None:
    alice, bob = config.gpio.seats[0], config.gpio.seats[1]
    assert session.game.current_player(session.state) == 0
    assert rgb(mock_factory, alice) == RED and rgb(mock_factory, bob) == scale(BLUE, DIM)
    tap(mock_factory, config.gpio.buttons["NEXT"])  # type: ignore[index]
    assert wait_for(lambda: session.game.current_player(session.state) == 1)
    assert str(session.history[-1]) == "end"
    assert rgb(mock_factory, alice) == scale(RED, DIM) and rgb(mock_factory, bob) == BLUE
    assert [rgb(mock_factory, pins) for pins in config.gpio.seats[2:]] == [(0, 0, 0), (0, 0, 0)]  # no seats 3, 4


def test_next_in_the_middle_of_a_bid_is_refused_by_the_core(controller: PanelController, mock_factory: MockFactory,
                                                          config: PanelConfig, session: Session) -> None:
    bid = next(m for m in session.game.legal_moves(session.state) if str(m).startswith("bid "))
    session.play(bid)  # the whole bid; the land office waits for its refill (DRAW), then a second tile or done
    tap(mock_factory, config.gpio.buttons["DRAW"])  # type: ignore[index]
    assert wait_for(lambda: session.game.current_player(session.state) == 0)
    before = session.history
    tap(mock_factory, config.gpio.buttons["NEXT"])  # type: ignore[index]
    assert wait_for(lambda: not controller.message["ok"])
    assert controller.message["text"].endswith("[R-D2]")  # the core's reason and rule ID (spec R-D2)
    assert "or say done" in controller.message["text"]
    assert session.history == before


def test_undo_needs_a_long_press(controller: PanelController, mock_factory: MockFactory, config: PanelConfig,
                                 session: Session) -> None:
    alice, bob = config.gpio.seats[0], config.gpio.seats[1]
    session.play("end")  # Bob's turn now, played on the tablet: the lights follow too
    assert wait_for(lambda: rgb(mock_factory, bob) == BLUE)
    undo = config.gpio.buttons["UNDO"]  # type: ignore[index]
    tap(mock_factory, undo, seconds=HOLD / 4)  # a brush of the hand
    assert session.game.current_player(session.state) == 1
    assert "keep holding UNDO" in controller.message["text"]
    tap(mock_factory, undo, seconds=HOLD * 2)  # held: undo
    assert wait_for(lambda: session.game.current_player(session.state) == 0)
    assert controller.message["ok"] and controller.message["button"] == "UNDO"
    assert re.fullmatch(r"took back: (Alice|Bob): End your turn", controller.message["text"])
    assert rgb(mock_factory, alice) == RED and rgb(mock_factory, bob) == scale(BLUE, DIM)


def test_a_bouncing_contact_is_one_press(controller: PanelController, mock_factory: MockFactory,
                                         config: PanelConfig, session: Session) -> None:
    pin = mock_factory.pin(config.gpio.buttons["NEXT"])  # type: ignore[index]
    for _ in range(4):  # contact bounce: four edges within a few milliseconds
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    assert wait_for(lambda: len(session.history) > 0 and str(session.history[-1]) == "end")
    time.sleep(0.1)
    assert session.game.current_player(session.state) == 1  # ended once, not twice (Bob still to move)


def test_lights_after_resume_match_the_lights_before(mock_factory: MockFactory, config: PanelConfig,
                                                     session: Session, store: GameStore) -> None:
    session.play("end")
    with GpioPanel(config.gpio, hold_seconds=HOLD) as first:
        control = PanelController([first])
        control.follow(session)
        before = [rgb(mock_factory, pins) for pins in (*config.gpio.seats, config.gpio.status)]
        control.close()
    assert before[1] == BLUE
    with GpioPanel(config.gpio, hold_seconds=HOLD) as second:  # after a restart
        control = PanelController([second])
        control.follow(Session.open(store, session.id, auto_chance=False))
        after = [rgb(mock_factory, pins) for pins in (*config.gpio.seats, config.gpio.status)]
        control.close()
    assert after == before


def test_every_device_is_closed_and_the_pins_freed(mock_factory: MockFactory, config: PanelConfig) -> None:
    panel = GpioPanel(config.gpio)
    devices = list(panel.buttons.values()) + panel.seat_leds + [panel.status_led]
    panel.close()
    panel.close()  # idempotent
    assert all(device.closed for device in devices)
    with GpioPanel(config.gpio) as again:  # the same pins can be opened again
        assert not again.closed


def test_a_pin_map_using_a_pin_twice_is_refused(tmp_path: pytest.TempPathFactory) -> None:
    from pathlib import Path

    from companion.core.errors import MalformedInputError
    from firmware_bridge.config import load_config

    path = Path(str(tmp_path)) / "panel.json"
    path.write_text('{"gpio": {"alert": 5}}')  # 5 is DRAW's pin
    with pytest.raises(MalformedInputError, match=r"gpio pins used twice: \[5\]"):
        load_config(path)
