"""The hardware documents follow the code: generated wiring is current, the protocol table matches."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from firmware_bridge import protocol as P

ROOT = Path(__file__).resolve().parents[2]


def test_wiring_tables_and_diagrams_are_generated_from_the_current_pin_maps() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "hardware" / "tools" / "wiring.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    wiring = (ROOT / "hardware" / "WIRING.md").read_text()
    assert "| GPIO19 | 35 | UNDO button |" in wiring  # from firmware_bridge/data/panel.json
    assert "| GP16 | 21 | LED strip DIN |" in wiring  # from hardware/firmware/config.py
    assert (ROOT / "hardware" / "wiring-gpio.svg").read_text().startswith("<svg")


def test_protocol_md_lists_every_message_type_with_its_code() -> None:
    text = (ROOT / "hardware" / "PROTOCOL.md").read_text()
    documented = {int(code, 16): name for code, name in re.findall(r"^\| 0x([0-9A-F]{2}) \| ([A-Z]+) \|", text, re.M)}
    assert documented == P.NAMES
    assert f"version {P.PROTOCOL_VERSION}" in text.splitlines()[0]
