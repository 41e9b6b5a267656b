"""The serial back end: a microcontroller board on a pyserial URL, speaking ``protocol``.

``SerialLink`` owns the port in one reader thread: it opens the URL (a device path, ``loop://``,
``socket://host:port``, ``spy://...``), says HELLO and checks the board's protocol version,
sends the light state as LIGHTS frames that the board acknowledges (repeated until it does),
sends a PING heartbeat, and passes BUTTON events on (acknowledged; repeats are spotted by their
sequence number). Whenever the line fails (unplugged, silent, reset board, garbage) it closes
the port, opens it again every ``reconnect`` seconds and, once the board answers, sends the whole
light state again. A port that does not exist is a message in ``status()``, not a crash.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import serial

from firmware_bridge import protocol as P
from firmware_bridge.commands import Button
from firmware_bridge.config import SerialConfig
from firmware_bridge.lights import HALF, OFF, Lights
from firmware_bridge.panel import Panel

log = logging.getLogger(__name__)

ButtonHandler = Callable[[int, int], None]
"""Called with the board's button index and ``PRESS`` or ``HOLD``."""

CONNECTING, CONNECTED, INCOMPATIBLE, CLOSED = "connecting", "connected", "incompatible", "closed"


@dataclass(frozen=True)
class Timings:
    """The link's clocks, in seconds (tests shorten them)."""

    poll: float = 0.01  # read timeout: how often the thread looks at its clocks
    retry: float = 0.1  # resend an unacknowledged frame after this
    tries: int = 4  # give the line up after this many sends of one frame
    heartbeat: float = 0.25  # PING this often
    silence: float = 1.0  # the board is gone after this long without a byte
    reconnect: float = 0.25  # try to open the port again this often
    incompatible: float = 5.0  # ask a board with another protocol version again after this


class LinkLost(Exception):
    """The board stopped answering or the port failed."""


class SerialLink:
    """One board on one serial URL, kept connected by a thread until ``close()``."""

    def __init__(self, url: str, on_button: ButtonHandler, timings: Timings = Timings(),
                 on_change: Callable[[], None] | None = None) -> None:
        self.url = url
        self.on_button = on_button
        self.on_change = on_change
        self.timings = timings
        self.state = CONNECTING
        self.message = "not started"
        self.welcome: P.Welcome | None = None
        self.stats = {"frames_in": 0, "frames_out": 0, "dropped": 0, "noise": 0, "retries": 0, "duplicates": 0,
                      "connects": 0, "lost": 0}
        self._port: Any = None
        self._parser = P.Parser()
        self._lock = threading.RLock()  # the port's writes, the frame in flight, the wanted lights
        self._runs: list[P.ShowRun] = []
        self._dirty = True
        self._in_flight: tuple[int, bytes] | None = None
        self._sent_at = 0.0
        self._tries = 0
        self._seq = 0
        self._board_seq = -1
        self._hello_seq = -1
        self._heard = 0.0
        self._pinged = 0.0
        self._pong = threading.Event()
        self._stopping = threading.Event()
        self.connected = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ public

    def start(self) -> SerialLink:
        self._thread = threading.Thread(target=self._run, name=f"panel link {self.url}", daemon=True)
        self._thread.start()
        return self

    def set_lights(self, runs: Sequence[P.Run | P.ShowRun]) -> None:
        """The light state the board should show (runs without an effect are steady); sent now if connected,
        again after each reconnect."""
        wanted: list[P.ShowRun] = [run if len(run) == 4 else (*run, P.STEADY) for run in runs]
        P.show_payload(wanted)  # an oversized state raises ValueError here, in the caller, not in the thread
        with self._lock:
            self._runs = wanted
            self._dirty = True
            self._pump(time.monotonic())

    def ping(self, timeout: float = 1.0) -> float | None:
        """Round trip of one PING in seconds, or ``None`` if the board did not answer in time."""
        with self._lock:
            if not self.connected.is_set():
                return None
            self._pinged = time.monotonic()  # no heartbeat PING (whose PONG would look like ours) for a while
            self._pong.clear()
            started = time.perf_counter()
            self._write(P.Frame(self._next_seq(), P.PING))
        if not self._pong.wait(timeout):
            return None
        return time.perf_counter() - started

    def status(self) -> dict[str, Any]:
        board = self.welcome
        return {"url": self.url, "state": self.state, "message": self.message,
                "board": None if board is None else {"firmware": board.firmware, "buttons": board.buttons,
                                                     "leds": board.leds, "protocol": board.version},
                "stats": dict(self.stats)}

    def close(self) -> None:
        """Stop the thread and close the port (idempotent)."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._drop_port()
        self.state = CLOSED

    # ------------------------------------------------------------ the thread

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._open()
                self._serve()
            except (LinkLost, serial.SerialException, OSError, ValueError) as error:
                self._lost(str(error) or type(error).__name__)
            if not self._stopping.is_set():
                wait = self.timings.incompatible if self.state == INCOMPATIBLE else self.timings.reconnect
                self._stopping.wait(wait)

    def _open(self) -> None:
        if self.state != INCOMPATIBLE:
            self._set_state(CONNECTING, f"opening {self.url}")
        port = serial.serial_for_url(self.url, timeout=self.timings.poll, write_timeout=1.0)
        sock = getattr(port, "_socket", None)
        if isinstance(sock, socket.socket):  # socket:// (the simulator): small frames leave at once, no Nagle
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self._lock:
            self._port = port
            self._parser = P.Parser()
        self._handshake()

    def _handshake(self) -> None:
        """HELLO until WELCOME (or give up), then send the whole light state."""
        self.connected.clear()
        with self._lock:
            self._in_flight = None
            self._board_seq = -1
        version = P.PROTOCOL_VERSION
        for _ in range(self.timings.tries):
            with self._lock:
                self._hello_seq = self._next_seq()
                self._write(P.Frame(self._hello_seq, P.HELLO, bytes((version,))))
            deadline = time.monotonic() + self.timings.retry * 2
            while time.monotonic() < deadline and not self._stopping.is_set():
                for frame in self._read():
                    if frame.type == P.WELCOME:
                        self._welcomed(frame)
                        return
                    if frame.type == P.ERROR and frame.payload[:1] == bytes((P.ERR_VERSION,)):
                        theirs = frame.payload[1] if len(frame.payload) > 1 else 0
                        if theirs not in P.VERSIONS or theirs >= version:
                            self._incompatible(theirs)
                        version = theirs  # an older board: greet it in its own version
                        deadline = time.monotonic()
            if self._stopping.is_set():
                raise LinkLost("closing")
        raise LinkLost(f"no answer from a panel board on {self.url} (is the firmware flashed?)")

    def _welcomed(self, frame: P.Frame) -> None:
        welcome = P.parse_welcome(frame.payload)
        if welcome.version not in P.VERSIONS:
            self._incompatible(welcome.version)
        now = time.monotonic()
        with self._lock:
            self.welcome = welcome
            self._heard = self._pinged = now
            self._dirty = True
            self.stats["connects"] += 1
            self.connected.set()
            self._set_state(CONNECTED, f"{welcome.firmware} on {self.url}: {welcome.buttons} buttons, "
                                       f"{welcome.leds} LEDs")
            self._pump(now)

    def _incompatible(self, version: int) -> None:
        reason = (f"the board on {self.url} speaks panel protocol v{version}, this companion v"
                  f"{'/v'.join(map(str, P.VERSIONS))}: flash hardware/firmware/ again (docs/panel.md)")
        self._set_state(INCOMPATIBLE, reason)
        raise LinkLost(reason)

    def _serve(self) -> None:
        while not self._stopping.is_set():
            for frame in self._read():
                self._handle(frame)
            now = time.monotonic()
            if now - self._heard > self.timings.silence:
                raise LinkLost(f"the board on {self.url} went silent")
            with self._lock:
                if self._in_flight is not None and now - self._sent_at >= self.timings.retry:
                    if self._tries >= self.timings.tries:
                        raise LinkLost(f"the board on {self.url} does not acknowledge")
                    self.stats["retries"] += 1
                    self._tries += 1
                    self._sent_at = now
                    self._port.write(self._in_flight[1])
                if now - self._pinged >= self.timings.heartbeat:
                    self._pinged = now
                    self._write(P.Frame(self._next_seq(), P.PING))
                self._pump(now)

    def _read(self) -> list[P.Frame]:
        port = self._port
        data: bytes = port.read(max(1, port.in_waiting))
        if not data:
            frames = self._parser.drop_partial() if self._parser.pending else []  # quiet in mid-frame
            self._count()
            return frames
        frames = self._parser.feed(data)
        self._heard = time.monotonic()
        self.stats["frames_in"] += len(frames)
        self._count()
        return frames

    def _count(self) -> None:
        self.stats["dropped"] = self._parser.dropped
        self.stats["noise"] = self._parser.noise

    def _handle(self, frame: P.Frame) -> None:
        kind = frame.type
        if kind == P.ACK:
            with self._lock:
                if self._in_flight is not None and frame.payload == bytes((self._in_flight[0],)):
                    self._in_flight = None
                    self._pump(time.monotonic())
        elif kind == P.BUTTON:
            with self._lock:
                self._write(P.Frame(self._next_seq(), P.ACK, bytes((frame.seq,))))
                repeat = frame.seq == self._board_seq
                self._board_seq = frame.seq
            if repeat:
                self.stats["duplicates"] += 1
            elif len(frame.payload) == 2:
                self.on_button(frame.payload[0], frame.payload[1])
        elif kind == P.PONG:
            self._pong.set()
            if self.welcome is not None and frame.payload != self.welcome.boot_id.to_bytes(4, "big"):
                log.warning("panel board on %s restarted; greeting it again", self.url)
                self._handshake()
        elif kind == P.ERROR:
            code = frame.payload[0] if frame.payload else 0
            if code == P.ERR_NEED_HELLO:
                log.warning("panel board on %s forgot us (reset?); greeting it again", self.url)
                self._handshake()
            elif code == P.ERR_VERSION:
                self._incompatible(frame.payload[1] if len(frame.payload) > 1 else 0)
            else:
                log.warning("panel board on %s: %s", self.url, frame.payload[1:].decode("utf-8", "replace"))
        elif kind == P.WELCOME and frame.seq != self._hello_seq:
            self._welcomed(frame)  # a late answer to an earlier HELLO is harmless

    # ------------------------------------------------------------ helpers (lock held)

    def _pump(self, now: float) -> None:
        """Send the wanted lights if they changed and nothing is waiting for its ACK."""
        if self._dirty and self._in_flight is None and self.connected.is_set() and self._port is not None:
            frame = self._lights_frame()
            self._in_flight = (frame.seq, frame.encode())
            self._dirty = False
            self._sent_at = now
            self._tries = 1
            try:
                self._write_bytes(self._in_flight[1])
            except (serial.SerialException, OSError):
                pass  # the reader thread notices the failed port and reconnects

    def _lights_frame(self) -> P.Frame:
        """The wanted light state in the board's version: SHOW (v2, with blinking), else LIGHTS (v1: blinking
        runs steady at ``HALF``)."""
        if self.welcome is not None and self.welcome.version >= 2:
            return P.Frame(self._next_seq(), P.SHOW, P.show_payload(self._runs))
        return P.Frame(self._next_seq(), P.LIGHTS, P.lights_payload(P.steady_runs(self._runs, HALF)))

    def _write(self, frame: P.Frame) -> None:
        self._write_bytes(frame.encode())

    def _write_bytes(self, data: bytes) -> None:
        with self._lock:
            if self._port is None:
                return
            self._port.write(data)
            self.stats["frames_out"] += 1

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFF
        return self._seq

    def _lost(self, reason: str) -> None:
        was_connected = self.connected.is_set()
        self.connected.clear()
        self._drop_port()
        if was_connected:
            self.stats["lost"] += 1
        if self.state != INCOMPATIBLE:
            self._set_state(CONNECTING, reason)
        with self._lock:
            self._dirty = True  # resend everything once the board is back

    def _drop_port(self) -> None:
        with self._lock:
            port, self._port = self._port, None
            self._in_flight = None
        if port is not None:
            sock = getattr(port, "_socket", None)  # socket://: pyserial skips close() when shutdown() fails
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            if sock is not None:
                sock.close()

    def _set_state(self, state: str, message: str) -> None:
        if (state, message) != (self.state, self.message):
            self.state, self.message = state, message
            (log.info if state == CONNECTED else log.debug)("panel link %s: %s", self.url, message)
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


class SerialPanel(Panel):
    """A bigger panel on a microcontroller: one segment of an LED strip per seat, up to 12 buttons."""

    name = "serial"

    def __init__(self, config: SerialConfig, url: str | None = None, timings: Timings = Timings()) -> None:
        super().__init__()
        self.config = config
        self.link = SerialLink(url or config.url, self._button, timings)
        self.link.start()

    def _button(self, index: int, kind: int) -> None:
        button = self.config.buttons[index] if index < len(self.config.buttons) else None
        if button is None:
            log.warning("panel board: button %d is not in the panel config", index)
            return
        self.on_press(button, kind)

    def show(self, lights: Lights) -> None:
        self.lights = lights
        self.link.set_lights(strip_runs(self.config, lights))

    def status(self) -> dict[str, Any]:
        return {"panel": self.name, "ok": self.link.state == CONNECTED, **self.link.status()}

    def close(self) -> None:
        self.link.close()
        super().close()


def strip_runs(config: SerialConfig, lights: Lights) -> list[P.ShowRun]:
    """The strip's pixels for ``lights``: each seat's segment (blinking while the seat waits), the status pixel,
    the alert pixel, the indicator pixels."""
    runs: list[P.ShowRun] = []
    for seat, (start, count) in enumerate(config.seats):
        if seat < len(lights.seats) and lights.seats[seat] != OFF:
            runs.append((start, count, lights.seats[seat], P.BLINK if seat in lights.waiting else P.STEADY))
    runs.append((config.status, 1, lights.status_colour, P.STEADY))
    if config.alert is not None and lights.alert:
        runs.append((config.alert, 1, lights.alert_colour, P.STEADY))
    for index, pixel in enumerate(config.indicators):
        if lights.indicator(index) != OFF:
            runs.append((pixel, 1, lights.indicator(index), P.STEADY))
    return runs


def button_index(config: SerialConfig, button: Button) -> int:
    """The board's index of ``button`` (for tests and the simulator)."""
    return config.buttons.index(button)
