"""Panel benchmark (issue 5): button -> light latency and serial round-trip time.

1. GPIO: gpiozero's MockFactory (PWM mock pins) with the panel's pin map, a real Key Harvest
   session in a temporary SQLite store. Each sample drives the NEXT button's pin low and waits
   until the seat LEDs show the new player (the move is validated, committed to SQLite, the
   lights computed and written to the RGB LEDs). Refused presses (DRAW with nothing to draw,
   which turns the status LED red) are measured too.
2. Serial: the board simulator (the firmware's own code, hardware/firmware/panel_fw.py) on a
   loopback socket, with the product's timings (20 ms debounce, reporting on the leading edge).
   Each sample sets the NEXT button's level in the simulated board and waits until the strip
   shows the next player's segment: scan -> BUTTON frame -> bridge -> session -> LIGHTS frame ->
   strip. Then PING -> PONG round trips.

Run: ``.venv/bin/python benchmarks/panel.py``. Bounded: fixed sample counts, each sample times
out after 2 s. The goal: a press shows on the lights within 30 ms. Numbers: docs/benchmarks.md.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from companion.session import Session  # noqa: E402
from companion.store import GameStore  # noqa: E402
from firmware_bridge.commands import Button  # noqa: E402
from firmware_bridge.config import load_config  # noqa: E402
from firmware_bridge.controller import PanelController  # noqa: E402
from firmware_bridge.link import SerialPanel, button_index  # noqa: E402
from firmware_bridge.panel import GpioPanel  # noqa: E402
from firmware_bridge.sim import BoardSimulator  # noqa: E402

PRESSES = 200
PINGS = 500
TIMEOUT = 2.0


def summary(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100)
    print(f"{name:<44} n={len(ms):>4}  p50 {q[49]:6.2f} ms  p90 {q[89]:6.2f} ms  p99 {q[98]:6.2f} ms  "
          f"max {ms[-1]:6.2f} ms", flush=True)


def wait(check: Callable[[], bool], changed: threading.Event | None = None) -> None:
    """Until ``check()``; with ``changed``, sleep on that event between checks (a busy loop would
    hold the GIL and slow down the threads being measured)."""
    deadline = time.perf_counter() + TIMEOUT
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError("the lights did not change within 2 s")
        if changed is not None:
            changed.wait(0.005)
            changed.clear()


def new_session(folder: Path) -> tuple[GameStore, Session]:
    store = GameStore(folder / "games.sqlite3")
    return store, Session.new(store, "key-harvest", ["Alice", "Bob"], colours=["#ff0000", "#0000ff"],
                              seed="panel-benchmark")


def ready_to_end(session: Session, rng: random.Random) -> None:
    """Play random legal moves (untimed) until the player to move may end the turn (NEXT)."""
    while "end" not in {str(m) for m in session.game.legal_moves(session.state)}:
        if session.is_over:
            raise RuntimeError("the benchmark game ended; use more seats or fewer presses")
        session.play(rng.choice(session.game.legal_moves(session.state)))


def gpio_benchmark(folder: Path) -> None:
    config = load_config()
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    store, session = new_session(folder)
    with GpioPanel(config.gpio, pin_factory=factory) as panel:
        control = PanelController([panel], error_seconds=0.2)
        control.follow(session)
        red_pin = factory.pin(config.gpio.seats[0][0])
        next_pin = factory.pin(config.gpio.buttons[Button.NEXT])
        draw_pin = factory.pin(config.gpio.buttons[Button.DRAW])
        status_red = factory.pin(config.gpio.status[0])
        accepted, refused = [], []
        rng = random.Random(1)
        for _ in range(PRESSES):
            ready_to_end(session, rng)
            alice_lit = red_pin.state == 1.0
            started = time.perf_counter()
            next_pin.drive_low()
            wait(lambda: (red_pin.state == 1.0) != alice_lit)
            accepted.append(time.perf_counter() - started)
            next_pin.drive_high()
            time.sleep(0.025)  # past the 20 ms bounce time
        for _ in range(PRESSES // 2):
            started = time.perf_counter()
            draw_pin.drive_low()
            wait(lambda: status_red.state == 1.0)
            refused.append(time.perf_counter() - started)
            draw_pin.drive_high()
            wait(lambda: status_red.state == 0.0)  # the red light ends after error_seconds
            time.sleep(0.025)
        control.close()
    store.close()
    summary("GPIO: NEXT press -> seat LEDs (move saved)", accepted)
    summary("GPIO: refused DRAW -> red status LED", refused)


def serial_benchmark(folder: Path) -> None:
    config = load_config()
    store, session = new_session(folder)
    changed = threading.Event()
    with BoardSimulator(leds=62, buttons=5, on_show=lambda pixels: changed.set()).start() as board:
        panel = SerialPanel(config.serial, url=board.url)
        if not panel.link.connected.wait(3):
            raise RuntimeError(f"the simulator did not answer: {panel.status()}")
        control = PanelController([panel])
        control.follow(session)
        index = button_index(config.serial, Button.NEXT)
        alice = config.serial.seats[0][0]
        wait(lambda: board.pixels[alice] in ((255, 0, 0), (31, 0, 0)))
        latencies = []
        rng = random.Random(2)
        for _ in range(PRESSES):
            ready_to_end(session, rng)
            time.sleep(0.01)  # let those lights reach the strip first
            before = board.pixels[alice]
            changed.clear()
            started = time.perf_counter()
            board.press(index)
            wait(lambda: board.pixels[alice] != before, changed)
            latencies.append(time.perf_counter() - started)
            board.release(index)
            time.sleep(0.045)  # released for longer than the 20 ms debounce
        summary("serial: NEXT on the board -> strip (move saved)", latencies)
        rtts = [rtt for rtt in (panel.link.ping() for _ in range(PINGS)) if rtt is not None]
        summary("serial: PING -> PONG round trip", rtts)
        stats = panel.link.status()["stats"]
        print(f"{'serial: link counters':<44} retries {stats['retries']}, dropped {stats['dropped']}, "
              f"lost {stats['lost']}")
        control.close()
    store.close()


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "gpio").mkdir()
        (Path(tmp) / "serial").mkdir()
        gpio_benchmark(Path(tmp) / "gpio")
        serial_benchmark(Path(tmp) / "serial")
    print("goal: a press shows on the lights within 30 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
