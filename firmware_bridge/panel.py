"""The ``Panel`` interface and two of its back ends: simulated (the tablet's virtual panel) and GPIO.

A panel reports presses to one handler, ``on_press(button, kind)`` with ``kind`` ``PRESS`` or
``HOLD`` (a long press), and shows ``Lights``. It knows no rules: the controller turns presses
into moves and the session's state into lights. ``close()`` is idempotent; panels work with
``with``. The serial back end is ``firmware_bridge.link.SerialPanel``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from types import TracebackType
from typing import Any

from firmware_bridge.commands import HOLD_BUTTONS, Button
from firmware_bridge.config import GpioConfig
from firmware_bridge.lights import BLINK_SECONDS, DIM, NO_GAME, OFF, Colour, Lights, scale
from firmware_bridge.protocol import HOLD, PRESS

PressHandler = Callable[[Button, int], None]
"""Called with a button and ``PRESS`` or ``HOLD``."""


def _ignore(button: Button, kind: int) -> None:
    pass


class Panel(ABC):
    """Buttons in, lights out."""

    name = "panel"

    def __init__(self) -> None:
        self.on_press: PressHandler = _ignore
        self.lights: Lights = NO_GAME
        self._closed = False

    @abstractmethod
    def show(self, lights: Lights) -> None:
        """Make the lights show ``lights``."""

    def status(self) -> dict[str, Any]:
        """For the tablet: which back end, and whether it works."""
        return {"panel": self.name, "ok": not self._closed}

    def close(self) -> None:
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class SimulatedPanel(Panel):
    """A panel with no hardware: the tablet's virtual panel draws its ``lights`` (its presses
    reach the controller through the web API)."""

    name = "simulated"

    def show(self, lights: Lights) -> None:
        self.lights = lights


class GpioPanel(Panel):
    """Buttons and RGB LEDs on the Raspberry Pi header, through gpiozero.

    :param config: the pin map (``GpioConfig``).
    :param hold_seconds: how long a hold button (UNDO) must be held.
    :param pin_factory: gpiozero's pin factory (``None``: gpiozero's default; tests pass a
        ``MockFactory(pin_class=MockPWMPin)``).
    """

    name = "gpio"

    def __init__(self, config: GpioConfig, hold_seconds: float = 1.0, pin_factory: Any = None) -> None:
        super().__init__()
        from gpiozero import PWMLED, RGBLED, Button as GpioButton

        self._devices: list[Any] = []
        try:
            self.buttons: dict[Button, Any] = {}
            for button, pin in config.buttons.items():
                device = GpioButton(pin, pull_up=True, bounce_time=config.bounce_ms / 1000 or None,
                                    hold_time=hold_seconds, pin_factory=pin_factory)
                self._devices.append(device)
                self.buttons[button] = device
                device.when_pressed = self._handler(button, PRESS)
                if button in HOLD_BUTTONS:
                    device.when_held = self._handler(button, HOLD)
            active_high = not config.common_anode
            self.seat_leds = [RGBLED(*pins, active_high=active_high, pin_factory=pin_factory) for pins in config.seats]
            self._devices += self.seat_leds
            self.status_led = RGBLED(*config.status, active_high=active_high, pin_factory=pin_factory)
            self._devices.append(self.status_led)
            self.alert_led = (None if config.alert is None
                              else PWMLED(config.alert, active_high=active_high, pin_factory=pin_factory))
            if self.alert_led is not None:
                self._devices.append(self.alert_led)
            self.indicator_leds = [RGBLED(*pins, active_high=active_high, pin_factory=pin_factory)
                                   for pins in config.indicators]
            self._devices += self.indicator_leds
            self._blinking: dict[int, Colour] = {}  # seat -> the colour its LED blinks in now
        except Exception:
            self.close()
            raise

    def _handler(self, button: Button, kind: int) -> Callable[[], None]:
        return lambda: self.on_press(button, kind)

    def show(self, lights: Lights) -> None:
        if self._closed:
            return
        self.lights = lights
        for seat, led in enumerate(self.seat_leds):
            colour = lights.seats[seat] if seat < len(lights.seats) else OFF
            if seat in lights.waiting:
                self._blink(seat, led, colour)
            else:
                self._blinking.pop(seat, None)
                led.value = _unit(colour)  # stops a blink
        self.status_led.value = _unit(lights.status_colour)
        if self.alert_led is not None:
            self.alert_led.value = 1.0 if lights.alert else 0.0
        for index, led in enumerate(self.indicator_leds):
            led.value = _unit(lights.indicator(index))

    def _blink(self, seat: int, led: Any, colour: Colour) -> None:
        """A waiting seat: its colour and ``DIM`` of it in turn, in gpiozero's background thread (left running
        when it already blinks in this colour, so new lights do not restart its rhythm)."""
        if self._blinking.get(seat) == colour:
            return
        self._blinking[seat] = colour
        led.blink(on_time=BLINK_SECONDS, off_time=BLINK_SECONDS, on_color=_unit(colour),
                  off_color=_unit(scale(colour, DIM)), background=True)

    def close(self) -> None:
        """Close every device (idempotent); the pins go back to inputs."""
        for device in getattr(self, "_devices", []):
            device.close()
        self._devices = []
        super().close()


def _unit(colour: Colour) -> tuple[float, float, float]:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255)
