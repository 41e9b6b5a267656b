"""The panel's serial protocol (hardware/PROTOCOL.md): frames, message types, a stream parser.

Pure functions and one small parser class, no I/O: the link (``link.py``) and the tests feed it
bytes. The firmware has its own MicroPython copy (``hardware/firmware/kproto.py``); the tests
run each against the other.

A frame is ``AA 55 | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC16 (2 bytes, big-endian)``,
the CRC (CRC-16/CCITT-FALSE) taken over LEN, SEQ, TYPE and the payload.
"""

from __future__ import annotations

from dataclasses import dataclass

PROTOCOL_VERSION = 2
VERSIONS = (1, 2)
"""The versions this host speaks: it says HELLO with the newest, and again with the board's own if the board
answers with an older one of these (a board flashed before SHOW existed keeps working)."""
SYNC = b"\xaa\x55"
HEADER = 5  # sync (2), length, sequence, type
OVERHEAD = HEADER + 2
MAX_PAYLOAD = 240

# Message types.
HELLO = 0x01  # host -> board: [protocol version]
WELCOME = 0x02  # board -> host: [version, buttons, leds (2), boot id (4)] + firmware name
ACK = 0x03  # either way: [sequence acknowledged]
ERROR = 0x04  # either way: [code] + text
LIGHTS = 0x10  # host -> board: runs of [start (2), count, r, g, b]; the whole strip, shown at once
SHOW = 0x11  # host -> board (v2): runs of [start (2), count, r, g, b, effect]; the whole strip, shown at once
BUTTON = 0x20  # board -> host: [button index, kind]
PING = 0x30  # host -> board: []
PONG = 0x31  # board -> host: [boot id (4)]

NAMES = {HELLO: "HELLO", WELCOME: "WELCOME", ACK: "ACK", ERROR: "ERROR", LIGHTS: "LIGHTS", SHOW: "SHOW",
         BUTTON: "BUTTON", PING: "PING", PONG: "PONG"}
RELIABLE = frozenset({LIGHTS, SHOW, BUTTON})
"""Types the receiver acknowledges (ACK) and the sender repeats until it does (HELLO is repeated
until WELCOME answers it, PING until PONG does)."""

# Button event kinds and error codes.
PRESS = 1
HOLD = 2
ERR_NEED_HELLO = 1
ERR_VERSION = 2
ERR_BAD_PAYLOAD = 3

RUN_SIZE = 6
MAX_RUNS = MAX_PAYLOAD // RUN_SIZE
SHOW_RUN_SIZE = 7
MAX_SHOW_RUNS = MAX_PAYLOAD // SHOW_RUN_SIZE

# SHOW effects.
STEADY = 0
BLINK = 1  # the colour for BLINK_MS, then an eighth of it for BLINK_MS, from the frame's arrival on
BLINK_MS = 500


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


@dataclass(frozen=True, slots=True)
class Frame:
    """One message: its sequence number, type and payload."""

    seq: int
    type: int
    payload: bytes = b""

    def encode(self) -> bytes:
        """The frame's bytes on the wire."""
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"a payload holds at most {MAX_PAYLOAD} bytes, not {len(self.payload)}")
        body = bytes((len(self.payload), self.seq & 0xFF, self.type)) + self.payload
        crc = crc16(body)
        return SYNC + body + bytes((crc >> 8, crc & 0xFF))

    def __str__(self) -> str:
        return f"{NAMES.get(self.type, hex(self.type))}#{self.seq}[{self.payload.hex()}]"


class Parser:
    """Turns a byte stream into frames; noise, bad CRCs and cut frames are dropped and counted."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.frames = 0
        self.dropped = 0  # frames that failed their CRC or length check, or were cut short
        self.noise = 0  # bytes skipped while looking for a frame start

    def feed(self, data: bytes) -> list[Frame]:
        """Every whole frame completed by ``data`` (a partial one waits for more bytes)."""
        buffer = self._buffer
        buffer += data
        frames: list[Frame] = []
        while True:
            start = buffer.find(SYNC)
            if start < 0:
                keep = 1 if buffer[-1:] == SYNC[:1] else 0
                self.noise += len(buffer) - keep
                del buffer[: len(buffer) - keep]
                return frames
            if start:
                self.noise += start
                del buffer[:start]
            if len(buffer) < HEADER:
                return frames
            length = buffer[2]
            if length > MAX_PAYLOAD:
                self._skip_bad()
                continue
            if len(buffer) < OVERHEAD + length:
                return frames
            body = bytes(buffer[2:HEADER + length])
            crc = buffer[HEADER + length] << 8 | buffer[HEADER + length + 1]
            if crc16(body) != crc:
                self._skip_bad()
                continue
            del buffer[: OVERHEAD + length]
            self.frames += 1
            frames.append(Frame(body[1], body[2], body[3:]))

    def drop_partial(self) -> list[Frame]:
        """The line went quiet in the middle of a frame: drop that frame, and return the whole
        frames found in the bytes after its start (a cut frame's length may have swallowed them)."""
        if not self._buffer:
            return []
        self._skip_bad()
        frames = self.feed(b"")
        return frames + self.drop_partial() if self._buffer else frames

    @property
    def pending(self) -> int:
        """Bytes waiting for the rest of their frame."""
        return len(self._buffer)

    def _skip_bad(self) -> None:
        """A false start or a damaged frame: look for the next start after this one."""
        self.dropped += 1
        del self._buffer[:2]


# Payloads.

Colour = tuple[int, int, int]
Run = tuple[int, int, Colour]
"""``(first pixel, how many pixels, (r, g, b))``."""


def lights_payload(runs: list[Run]) -> bytes:
    """A LIGHTS payload: the whole strip as runs of one colour (pixels in no run are off)."""
    if len(runs) > MAX_RUNS:
        raise ValueError(f"a LIGHTS message holds at most {MAX_RUNS} runs, not {len(runs)}")
    out = bytearray()
    for start, count, (r, g, b) in runs:
        out += bytes((start >> 8, start & 0xFF, count, r, g, b))
    return bytes(out)


def parse_lights(payload: bytes) -> list[Run]:
    if len(payload) % RUN_SIZE:
        raise ValueError(f"a LIGHTS payload is runs of {RUN_SIZE} bytes, not {len(payload)} bytes")
    return [((payload[i] << 8) | payload[i + 1], payload[i + 2], (payload[i + 3], payload[i + 4], payload[i + 5]))
            for i in range(0, len(payload), RUN_SIZE)]


ShowRun = tuple[int, int, Colour, int]
"""``(first pixel, how many pixels, (r, g, b), effect)``."""


def show_payload(runs: list[ShowRun]) -> bytes:
    """A SHOW payload (protocol v2): the whole strip as runs of one colour and effect (pixels in no run are off)."""
    if len(runs) > MAX_SHOW_RUNS:
        raise ValueError(f"a SHOW message holds at most {MAX_SHOW_RUNS} runs, not {len(runs)}")
    out = bytearray()
    for start, count, (r, g, b), effect in runs:
        out += bytes((start >> 8, start & 0xFF, count, r, g, b, effect))
    return bytes(out)


def parse_show(payload: bytes) -> list[ShowRun]:
    if len(payload) % SHOW_RUN_SIZE:
        raise ValueError(f"a SHOW payload is runs of {SHOW_RUN_SIZE} bytes, not {len(payload)} bytes")
    return [((payload[i] << 8) | payload[i + 1], payload[i + 2], (payload[i + 3], payload[i + 4], payload[i + 5]),
             payload[i + 6]) for i in range(0, len(payload), SHOW_RUN_SIZE)]


def steady_runs(runs: list[ShowRun], waiting: float) -> list[Run]:
    """``runs`` as a LIGHTS state for a board of protocol v1, which cannot blink: a blinking run steady at
    ``waiting`` of its colour."""
    return [(start, count, colour if effect == STEADY else _scaled(colour, waiting))
            for start, count, colour, effect in runs]


def _scaled(colour: Colour, factor: float) -> Colour:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


@dataclass(frozen=True, slots=True)
class Welcome:
    """What the board says about itself after HELLO."""

    version: int
    buttons: int
    leds: int
    boot_id: int
    firmware: str


def parse_welcome(payload: bytes) -> Welcome:
    if len(payload) < 8:
        raise ValueError(f"a WELCOME payload has at least 8 bytes, not {len(payload)}")
    return Welcome(payload[0], payload[1], payload[2] << 8 | payload[3], int.from_bytes(payload[4:8], "big"),
                   payload[8:].decode("utf-8", "replace"))
