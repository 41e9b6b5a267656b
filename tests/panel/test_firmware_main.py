"""hardware/firmware/main.py (the Pico's pin code) run under CPython against stand-ins for
MicroPython's machine, neopixel, micropython, time, select and USB serial: greeted, it shows the
lights on the strip at the configured brightness and reports a button wired to GND."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from firmware_bridge import protocol as P
from firmware_bridge.sim import firmware_dir

HARNESS = textwrap.dedent('''
    import sys, types, json
    sys.path.insert(0, sys.argv[1])
    incoming = bytearray(bytes.fromhex(sys.argv[2]))
    out = bytearray()
    state = {"now": 0, "strip": [], "led": None, "kbd": None}

    class Pin:
        IN, OUT, PULL_UP = 0, 1, 2
        def __init__(self, n, mode=None, pull=None):
            self.n = n
        def value(self, v=None):
            if v is None:  # button GP2 (DRAW) goes to GND at 300 ms
                return 0 if self.n == 2 and state["now"] >= 300 else 1
            state["led"] = bool(v)

    class NeoPixel(list):
        def __init__(self, pin, n):
            super().__init__([(0, 0, 0)] * n)
        def write(self):
            state["strip"] = list(self)

    def ticks_ms():
        state["now"] += 1
        if state["now"] > 600:
            raise SystemExit
        return state["now"]

    machine = types.SimpleNamespace(Pin=Pin, unique_id=lambda: b"\\x01\\x02\\x03\\x04")
    fake_time = types.SimpleNamespace(ticks_ms=ticks_ms, ticks_cpu=lambda: 7, sleep_ms=lambda ms: None)
    class Poll:
        def register(self, stream, mask): pass
        def poll(self, timeout): return [1] if incoming else []
    fake_select = types.SimpleNamespace(poll=Poll, POLLIN=1)
    class In:
        def read(self, n):
            data = bytes(incoming[:n]); del incoming[:n]; return data
    class Out:
        def write(self, data): out.extend(data)
    sys.modules.update(machine=machine, neopixel=types.SimpleNamespace(NeoPixel=NeoPixel),
                       micropython=types.SimpleNamespace(kbd_intr=lambda c: state.update(kbd=c)),
                       time=fake_time, select=fake_select)
    sys.stdin = types.SimpleNamespace(buffer=In())
    real_stdout = sys.stdout
    sys.stdout = types.SimpleNamespace(buffer=Out())
    try:
        exec(open(sys.argv[1] + "/main.py").read(), {"__name__": "__main__"})
    except SystemExit:
        pass
    sys.stdout = real_stdout
    real_stdout.write(json.dumps({"out": out.hex(), "strip": state["strip"][:3], "led": state["led"],
                                  "kbd": state["kbd"]}))
''')


def test_main_greets_shows_and_reports_a_button(tmp_path: Path) -> None:
    import json

    stream = (P.Frame(1, P.HELLO, bytes((P.PROTOCOL_VERSION,))).encode()
              + P.Frame(2, P.LIGHTS, P.lights_payload([(0, 2, (200, 100, 0))])).encode())
    harness = tmp_path / "harness.py"
    harness.write_text(HARNESS)
    run = subprocess.run([sys.executable, str(harness), str(firmware_dir()), stream.hex()],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    frames = P.Parser().feed(bytes.fromhex(result["out"]))
    kinds = [f.type for f in frames]
    assert kinds[:2] == [P.WELCOME, P.ACK]
    assert P.parse_welcome(frames[0].payload).leds == 64  # config.STRIP_LEDS
    assert P.BUTTON in kinds and frames[kinds.index(P.BUTTON)].payload == bytes((0, P.PRESS))
    assert result["strip"] == [[100, 50, 0], [100, 50, 0], [0, 0, 0]]  # BRIGHTNESS 0.5
    assert result["led"] is True and result["kbd"] == -1  # greeted; Ctrl-C off for binary frames
