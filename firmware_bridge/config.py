"""The panel's configuration: pin maps and timings, from package defaults and a user file.

Defaults are ``firmware_bridge/data/panel.json``; a ``panel.json`` in the data folder overrides
any key (sections ``gpio`` and ``serial`` key by key). Unknown buttons or bad pins are refused
with a sentence naming the key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.game import MAX_INDICATORS
from companion.core.messages import LANGUAGES
from firmware_bridge.commands import Button


@dataclass(frozen=True)
class GpioConfig:
    buttons: dict[Button, int]
    bounce_ms: int
    seats: tuple[tuple[int, int, int], ...]
    status: tuple[int, int, int]
    alert: int | None
    common_anode: bool
    indicators: tuple[tuple[int, int, int], ...] = ()
    """The game's indicator lights (RGB LEDs), in order (``Lights.indicators``)."""


@dataclass(frozen=True)
class SerialConfig:
    url: str
    buttons: tuple[Button | None, ...]
    """Button index on the board -> its name (``None``: not used)."""
    seats: tuple[tuple[int, int], ...]
    """Per seat, the first pixel and the number of pixels of its segment of the strip."""
    status: int
    alert: int | None
    indicators: tuple[int, ...] = ()
    """The pixel of each indicator light, in order."""


@dataclass(frozen=True)
class PanelConfig:
    hold_seconds: float
    error_seconds: float
    draw_by_button: bool
    gpio: GpioConfig
    serial: SerialConfig
    language: str = "en"
    """The table's language: the panel's messages (refusals, hints, the moves made) are written in it."""


def load_config(path: Path | None = None) -> PanelConfig:
    """The defaults, overridden by the JSON file at ``path`` if it exists."""
    data: dict[str, Any] = json.loads(resources.files("firmware_bridge").joinpath("data/panel.json").read_text())
    if path is not None and path.exists():
        try:
            user = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise MalformedInputError(f"{path}: not a readable JSON panel config ({error})") from error
        if not isinstance(user, dict):
            raise MalformedInputError(f"{path}: a panel config is a JSON object")
        for key, value in user.items():
            if key in ("gpio", "serial") and isinstance(value, dict):
                data[key] = {**data[key], **value}
            else:
                data[key] = value
    try:
        return _build(data)
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedInputError(f"panel config{f' {path}' if path else ''}: {error}") from error


def _button(name: Any) -> Button:
    try:
        return Button(str(name).upper())
    except ValueError:
        raise ValueError(f"unknown button {name!r}; buttons are {', '.join(b.value for b in Button)}") from None


def _language(value: Any) -> str:
    if value not in LANGUAGES:
        raise ValueError(f"language {value!r} is not one of {', '.join(LANGUAGES)}")
    return str(value)


def _pin(value: Any) -> int:
    if not isinstance(value, int) or not 0 <= value <= 27:
        raise ValueError(f"{value!r} is not a GPIO pin number (BCM 0-27)")
    return value


def _indicators(value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_INDICATORS:
        raise ValueError(f"indicators is a list of at most {MAX_INDICATORS} lights, not {value!r}")
    return value


def _triple(value: Any) -> tuple[int, int, int]:
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError(f"an RGB light needs three pins [red, green, blue], not {value!r}")
    return (_pin(value[0]), _pin(value[1]), _pin(value[2]))


def _build(data: dict[str, Any]) -> PanelConfig:
    gpio, serial = data["gpio"], data["serial"]
    config = PanelConfig(
        hold_seconds=float(data["hold_seconds"]),
        error_seconds=float(data["error_seconds"]),
        draw_by_button=bool(data["draw_by_button"]),
        language=_language(data.get("language", "en")),
        gpio=GpioConfig(
            buttons={_button(name): _pin(pin) for name, pin in gpio["buttons"].items()},
            bounce_ms=int(gpio["bounce_ms"]),
            seats=tuple(_triple(pins) for pins in gpio["seats"]),
            status=_triple(gpio["status"]),
            alert=None if gpio["alert"] is None else _pin(gpio["alert"]),
            common_anode=bool(gpio["common_anode"]),
            indicators=tuple(_triple(pins) for pins in _indicators(gpio.get("indicators", []))),
        ),
        serial=SerialConfig(
            url=str(serial["url"]),
            buttons=tuple(None if name is None else _button(name) for name in serial["buttons"]),
            seats=tuple((int(start), int(count)) for start, count in serial["seats"]),
            status=int(serial["status"]),
            alert=None if serial["alert"] is None else int(serial["alert"]),
            indicators=tuple(int(pixel) for pixel in _indicators(serial.get("indicators", []))),
        ),
    )
    pins = [*config.gpio.buttons.values(), *(p for seat in config.gpio.seats for p in seat), *config.gpio.status,
            *([config.gpio.alert] if config.gpio.alert is not None else []),
            *(p for light in config.gpio.indicators for p in light)]
    doubled = sorted({p for p in pins if pins.count(p) > 1})
    if doubled:
        raise ValueError(f"gpio pins used twice: {doubled}")
    if len(config.serial.buttons) > 12:
        raise ValueError("the board has at most 12 buttons")
    return config
