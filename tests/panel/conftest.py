"""Fixtures for the panel: gpiozero's MockFactory, a Key Harvest session in SQLite that waits for
physical draws, a GPIO panel on mock pins driving it, and the board simulator."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.core.game import CHANCE
from companion.session import Session
from companion.store import GameStore
from firmware_bridge.config import PanelConfig, load_config
from firmware_bridge.controller import PanelController
from firmware_bridge.panel import GpioPanel
from firmware_bridge.sim import BoardSimulator

HOLD = 0.5  # UNDO's long press in these tests (the product's default is 1 s)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's own mock pins (PWM-capable, for the RGB LEDs), restored afterwards."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "games.sqlite3") as opened:
        yield opened


def settle(session: Session, seed: int = 1) -> None:
    """Make the chance steps the game waits for (the setup's deals), with a fixed random source."""
    rng = random.Random(seed)
    while session.game.current_player(session.state) == CHANCE:
        session.play(session.game.sample_chance(session.state, rng))


@pytest.fixture
def session(store: GameStore) -> Session:
    """Key Harvest for Alice and Bob, set up, waiting for physical draws (auto_chance off)."""
    game = Session.new(store, "key-harvest", ["Alice", "Bob"], auto_chance=False, seed="panel-tests",
                       colours=["#ff0000", "#0000ff"])
    settle(game)  # seed 1: Alice starts
    return game


@pytest.fixture
def config() -> PanelConfig:
    return load_config()


@pytest.fixture
def gpio(mock_factory: MockFactory, config: PanelConfig) -> Iterator[GpioPanel]:
    with GpioPanel(config.gpio, hold_seconds=HOLD) as panel:
        yield panel  # type: ignore[misc]


@pytest.fixture
def controller(gpio: GpioPanel, session: Session) -> Iterator[PanelController]:
    control = PanelController([gpio], hold_seconds=HOLD, error_seconds=0.3, rng_for=lambda s: random.Random(3))
    control.follow(session)
    yield control
    control.close()


@pytest.fixture
def board() -> Iterator[BoardSimulator]:
    """The firmware's own code behind a socket, with short debounce and hold times."""
    with BoardSimulator(leds=62, buttons=5, debounce_ms=5, hold_ms=400).start() as simulated:
        yield simulated
