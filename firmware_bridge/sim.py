"""A panel board simulator: the firmware's own code (``hardware/firmware``) behind a TCP socket or a pty.

The board logic is ``panel_fw.Firmware``, the same file the Pico runs; this module only stands in
for the pins (button levels set by ``press``/``release``, the strip kept as ``pixels``) and for
USB (a socket the bridge opens as ``socket://127.0.0.1:PORT``, or a pseudo-terminal path).
``reset()`` restarts the firmware as a power cycle would; ``unplug()`` drops the line.

    python -m firmware_bridge.sim            # prints the socket:// URL, serves until Ctrl-C
    python -m firmware_bridge.sim --pty      # prints a /dev/pts/N path instead
"""

from __future__ import annotations

import argparse
import importlib
import os
import secrets
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

Colour = tuple[int, int, int]


def firmware_dir() -> Path:
    """``hardware/firmware`` of this checkout."""
    path = Path(__file__).resolve().parents[1] / "hardware" / "firmware"
    if not (path / "panel_fw.py").exists():
        raise FileNotFoundError(f"the panel firmware is not at {path}: the simulator runs from a source checkout")
    return path


def load_firmware() -> ModuleType:
    """The firmware's ``panel_fw`` module, imported under CPython."""
    folder = str(firmware_dir())
    if folder not in sys.path:
        sys.path.append(folder)
    return importlib.import_module("panel_fw")


def ticks_ms() -> int:
    """A millisecond counter that wraps like the Pico's ``time.ticks_ms``."""
    return int(time.monotonic() * 1000) & 0x3FFFFFFF


class BoardSimulator:
    """One simulated board; ``start()`` serves it on a socket (default) or a pty (``pty=True``)."""

    def __init__(self, leds: int = 64, buttons: int = 12, pty: bool = False, debounce_ms: int = 20,
                 hold_ms: int = 1000, on_show: Callable[[list[Colour]], None] | None = None) -> None:
        self.leds, self.buttons, self.use_pty = leds, buttons, pty
        self.debounce_ms, self.hold_ms = debounce_ms, hold_ms
        self.on_show = on_show
        self.levels = [False] * buttons
        self.pixels: list[Colour] = [(0, 0, 0)] * leds
        self.boots = 0
        self.url = ""
        self._lock = threading.RLock()
        self._module = load_firmware()
        self._client: socket.socket | None = None
        self._plugged = threading.Event()
        self._plugged.set()
        self._stopping = threading.Event()
        self._server: socket.socket | None = None
        self._pty: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        self.firmware: Any = None
        self.reset()

    # ------------------------------------------------------------ the board

    def reset(self) -> None:
        """Restart the firmware (a new boot id; it forgets the host until HELLO)."""
        with self._lock:
            self.boots += 1
            self.firmware = self._module.Firmware(self.leds, self.buttons, self._write, self._show,
                                                  secrets.randbits(32), name="keydom-sim 2.0",
                                                  debounce_ms=self.debounce_ms, hold_ms=self.hold_ms)

    def press(self, index: int) -> None:
        self.levels[index] = True

    def release(self, index: int) -> None:
        self.levels[index] = False

    def click(self, index: int, hold: float = 0.0) -> None:
        """Press for debounce + ``hold`` seconds, then release."""
        self.press(index)
        time.sleep(self.debounce_ms / 1000 * 2 + hold)
        self.release(index)
        time.sleep(self.debounce_ms / 1000 * 2)

    def _show(self, pixels: list[Colour]) -> None:
        self.pixels = list(pixels)
        if self.on_show is not None:
            self.on_show(self.pixels)

    def _write(self, data: bytes) -> None:
        if self._pty is not None:
            try:
                os.write(self._pty[0], data)
            except OSError:
                pass
        elif self._client is not None:
            try:
                self._client.sendall(data)
            except OSError:
                self._drop_client()

    # ------------------------------------------------------------ the line

    def start(self) -> BoardSimulator:
        if self.use_pty:
            import tty

            master, slave = os.openpty()
            tty.setraw(slave)
            self._pty = (master, slave)
            self.url = os.ttyname(slave)
        else:
            server = socket.socket()
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            self._server = server
            self.url = f"socket://127.0.0.1:{server.getsockname()[1]}"
        self._thread = threading.Thread(target=self._run, name="panel board simulator", daemon=True)
        self._thread.start()
        return self

    def unplug(self) -> None:
        """Drop the line; the host's port fails and nobody can connect until ``plug()``."""
        self._plugged.clear()
        with self._lock:
            self._drop_client()

    def plug(self) -> None:
        self._plugged.set()

    def inject(self, data: bytes) -> None:
        """Send raw bytes to the host (noise, a cut frame, a repeated frame)."""
        self._write(data)

    def close(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with self._lock:
            self._drop_client()
        if self._server is not None:
            self._server.close()
        if self._pty is not None:
            for fd in self._pty:
                os.close(fd)
            self._pty = None

    def __enter__(self) -> BoardSimulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _drop_client(self) -> None:
        if self._client is not None:
            try:
                self._client.close()
            except OSError:
                pass
            self._client = None

    def _source(self) -> int | None:
        """The descriptor the host's bytes arrive on (accepting a connection if needed)."""
        if self._pty is not None:
            return self._pty[0]
        if self._client is not None:
            return self._client.fileno()
        assert self._server is not None
        ready, _, _ = select.select([self._server], [], [], 0.002)
        if ready:
            client, _ = self._server.accept()
            if not self._plugged.is_set():
                client.close()
                return None
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._client = client
        return None

    def _run(self) -> None:
        while not self._stopping.is_set():
            source = self._source()
            data = b""
            if source is not None:
                try:
                    ready, _, _ = select.select([source], [], [], 0.001)
                    if ready:
                        data = os.read(source, 4096)
                        if not data and self._pty is None:
                            with self._lock:
                                self._drop_client()  # the host closed the port
                except (OSError, ValueError):
                    with self._lock:
                        self._drop_client()
            with self._lock:
                now = ticks_ms()
                if data:
                    self.firmware.receive(data, now)
                self.firmware.tick(self.levels, now)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.sim", description=__doc__.split("\n")[0])
    parser.add_argument("--pty", action="store_true", help="serve on a pseudo-terminal instead of a socket")
    parser.add_argument("--leds", type=int, default=64)
    args = parser.parse_args(argv)
    with BoardSimulator(leds=args.leds, pty=args.pty).start() as board:
        print(f"panel board simulator on {board.url}  (companion serve --panel serial:{board.url})", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
