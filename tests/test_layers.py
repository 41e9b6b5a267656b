"""The core knows nothing of the web service, GPIO or serial (brief: companion/ is the core)."""

from __future__ import annotations

import subprocess
import sys


def test_the_core_and_its_commands_import_no_web_or_hardware_library() -> None:
    code = (
        "import sys, companion.cli, companion.console, companion.session, companion.simulate, companion.games;"
        "companion.games.find_game('key-harvest');"
        "print(sorted(m for m in ('flask', 'werkzeug', 'waitress', 'web', 'gpiozero', 'serial') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
