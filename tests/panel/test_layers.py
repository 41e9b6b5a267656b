"""The panel code needs no web framework, and loads gpiozero only when a GPIO panel is built: so
importing it cannot touch a pin."""

from __future__ import annotations

import subprocess
import sys


def test_firmware_bridge_imports_no_web_library_and_no_gpio_until_asked() -> None:
    code = (
        "import sys, firmware_bridge.controller, firmware_bridge.link, firmware_bridge.panel, firmware_bridge.sim;"
        "print(sorted(m for m in ('flask', 'werkzeug', 'waitress', 'web', 'gpiozero') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
