"""Generate the panel's wiring tables and diagrams from the pin maps (the one text source).

Sources: the GPIO pin map in ``firmware_bridge/data/panel.json`` and the Pico's pins in
``hardware/firmware/config.py``. Writes ``hardware/WIRING.md`` (tables),
``hardware/wiring-gpio.svg`` and ``hardware/wiring-pico.svg``. ``--check`` fails if the
committed files differ from what the sources give (the tests run it).

    python hardware/tools/wiring.py [--check]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"

# Raspberry Pi 40-pin header: BCM GPIO -> physical pin.
PI_PIN = {0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37,
          14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40}
PI_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
# Raspberry Pi Pico: GPn -> physical pin.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17, 14: 19,
            15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
PICO_GROUND = (3, 8, 13, 18, 23, 28, 33, 38)
COLOURS = ("red", "green", "blue")
PIN_NOTES = {0: " (GPIO0 is ID_SD: no HAT with an ID EEPROM)", 2: " (the Pi's 1.8 kohm pull-up: a faint glow before start)",
             3: " (the Pi's 1.8 kohm pull-up: a faint glow before start)", 14: " (serial console off: raspi-config)",
             15: " (serial console off: raspi-config)"}
"""What to know about a pin that has a second use on the Pi."""
INK = {"red": "#c0392b", "green": "#239b56", "blue": "#2471a3", "button": "#333333", "data": "#7d3c98",
       "power": "#ca6f1e", "ground": "#000000"}

Row = tuple[str, str, str, str]
"""(board pin, physical pin, part, how)."""


def gpio_rows() -> list[Row]:
    config = json.loads((ROOT / "firmware_bridge" / "data" / "panel.json").read_text())["gpio"]
    rows: list[Row] = []
    for name, pin in config["buttons"].items():
        how = "button to GND (internal pull-up)" + (", acts when held 1 s" if name == "UNDO" else "")
        rows.append((f"GPIO{pin}", str(PI_PIN[pin]), f"{name} button", how))
    for seat, pins in enumerate(config["seats"], start=1):
        for colour, pin in zip(COLOURS, pins):
            rows.append((f"GPIO{pin}", str(PI_PIN[pin]), f"seat {seat} RGB LED, {colour}", "resistor to the LED's anode"))
    for colour, pin in zip(COLOURS, config["status"]):
        rows.append((f"GPIO{pin}", str(PI_PIN[pin]), f"status RGB LED, {colour}", "resistor to the LED's anode"))
    if config["alert"] is not None:
        rows.append((f"GPIO{config['alert']}", str(PI_PIN[config["alert"]]), "alert LED (amber)",
                     "resistor to the LED's anode"))
    for light, pins in enumerate(config.get("indicators", []), start=1):
        for colour, pin in zip(COLOURS, pins):
            rows.append((f"GPIO{pin}", str(PI_PIN[pin]), f"indicator {light} RGB LED, {colour}",
                         "resistor to the LED's anode" + PIN_NOTES.get(pin, "")))
    rows.append(("GND", ", ".join(map(str, PI_GROUND[:4])), "LED cathodes, buttons' other side", "common ground"))
    return rows


def pico_config() -> dict[str, object]:
    tree = ast.parse((HARDWARE / "firmware" / "config.py").read_text())
    values: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = ast.literal_eval(node.value)
    return values


def pico_rows() -> list[Row]:
    config = pico_config()
    panel = json.loads((ROOT / "firmware_bridge" / "data" / "panel.json").read_text())["serial"]
    names: list[str] = panel["buttons"]
    rows: list[Row] = []
    for index, pin in enumerate(config["BUTTON_PINS"]):  # type: ignore[arg-type]
        name = names[index] if index < len(names) and names[index] else "spare"
        rows.append((f"GP{pin}", str(PICO_PIN[pin]), f"{name} (button {index})", "button to GND (internal pull-up)"))
    strip = config["STRIP_PIN"]
    rows.append((f"GP{strip}", str(PICO_PIN[strip]), "LED strip DIN", "through a 330 ohm resistor (and a 74AHCT125 "
                                                                           "level shifter for long strips)"))
    rows.append(("VBUS", "40", "LED strip +5V (short strips only)", "or a separate 5 V supply, see BOM"))
    rows.append(("GND", ", ".join(map(str, PICO_GROUND[:4])), "LED strip GND, buttons' other side", "common ground"))
    return rows


def segments_table() -> str:
    panel = json.loads((ROOT / "firmware_bridge" / "data" / "panel.json").read_text())["serial"]
    lines = ["| Pixels | Light |", "|---|---|"]
    for seat, (start, count) in enumerate(panel["seats"], start=1):
        lines.append(f"| {start}-{start + count - 1} | seat {seat} |")
    lines.append(f"| {panel['status']} | status |")
    if panel["alert"] is not None:
        lines.append(f"| {panel['alert']} | alert |")
    for light, pixel in enumerate(panel.get("indicators", []), start=1):
        lines.append(f"| {pixel} | indicator {light} |")
    return "\n".join(lines)


def table(rows: list[Row], board: str) -> str:
    lines = [f"| {board} | Physical pin | Part | How |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return "\n".join(lines)


def markdown() -> str:
    return f"""# Panel wiring

Generated by `hardware/tools/wiring.py` from `firmware_bridge/data/panel.json` (the GPIO pin map,
the strip's segments, the board's button order) and `hardware/firmware/config.py` (the Pico's
pins). Edit those, then run `python hardware/tools/wiring.py`; the tests check this file is current.

## GPIO panel on the Raspberry Pi header

Pins are BCM numbers (`GPIO5`) and physical header pins (29). RGB LEDs are common cathode
(set `"common_anode": true` in panel.json for common-anode LEDs, whose common pin then goes to 3V3).
The two indicator LEDs show what the game names (Key Market: the goods the weather favours and
spoils); they use the header's last free pins, some of which have a second use on the Pi (noted).
A panel without them: `"indicators": []` in panel.json.

{table(gpio_rows(), "Pi GPIO")}

![GPIO wiring](wiring-gpio.svg)

## Pico panel (USB serial)

{table(pico_rows(), "Pico pin")}

The strip's pixels (config `serial.seats`, `serial.status`, `serial.alert`, `serial.indicators`):

{segments_table()}

![Pico wiring](wiring-pico.svg)
"""


def svg(title: str, board: str, rows: list[Row]) -> str:
    """A two-column diagram: the board's pins on the left, the parts on the right, one wire each."""
    top, step = 70, 26
    height = top + step * len(rows) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="{height}" viewBox="0 0 1000 {height}" '
           'font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           f'<text x="20" y="30" font-size="18" font-weight="bold">{escape(title)}</text>',
           f'<rect x="20" y="{top - 22}" width="200" height="{step * len(rows) + 14}" rx="8" fill="#e8f3e8" '
           'stroke="#239b56"/>',
           f'<text x="30" y="{top - 28}" font-weight="bold">{escape(board)}</text>',
           f'<text x="670" y="{top - 28}" font-weight="bold">Part</text>']
    for i, (pin, physical, part, how) in enumerate(rows):
        y = top + i * step
        ink = (INK["button"] if "button" in part else INK["ground"] if pin == "GND" else INK["power"]
               if pin == "VBUS" else INK["data"] if "strip" in part else
               next((INK[c] for c in COLOURS if c in part), INK["power"]))
        out.append(f'<text x="30" y="{y + 4}">{escape(pin)} (pin {escape(physical)})</text>')
        out.append(f'<circle cx="220" cy="{y}" r="4" fill="{ink}"/>')
        out.append(f'<line x1="220" y1="{y}" x2="660" y2="{y}" stroke="{ink}" stroke-width="2"/>')
        out.append(f'<text x="300" y="{y - 4}" font-size="10" fill="#555">{escape(how)}</text>')
        out.append(f'<text x="670" y="{y + 4}">{escape(part)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def outputs() -> dict[Path, str]:
    return {
        HARDWARE / "WIRING.md": markdown(),
        HARDWARE / "wiring-gpio.svg": svg("Keydom panel on the Raspberry Pi header", "Raspberry Pi", gpio_rows()),
        HARDWARE / "wiring-pico.svg": svg("Keydom panel board (Raspberry Pi Pico)", "Pico", pico_rows()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed files are out of date")
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print(f"out of date: {', '.join(stale)}; run python hardware/tools/wiring.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
