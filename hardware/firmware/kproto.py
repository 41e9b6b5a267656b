# Keydom panel protocol, firmware side (MicroPython; also runs under CPython for the tests).
# The frame format is in hardware/PROTOCOL.md:
#   AA 55 | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC16 big-endian over LEN..PAYLOAD
# No pins here: main.py does the hardware.

VERSION = 2  # the newest version this firmware speaks
OLDEST = 1  # a host saying HELLO with any version from OLDEST to VERSION is answered in that version
SYNC0 = 0xAA
SYNC1 = 0x55
MAX_PAYLOAD = 240

HELLO = 0x01
WELCOME = 0x02
ACK = 0x03
ERROR = 0x04
LIGHTS = 0x10
SHOW = 0x11  # v2: LIGHTS with an effect byte per run
BUTTON = 0x20
PING = 0x30
PONG = 0x31

PRESS = 1
HOLD = 2
ERR_NEED_HELLO = 1
ERR_VERSION = 2
ERR_BAD_PAYLOAD = 3
STEADY = 0
BLINK = 1  # the colour for BLINK_MS, then an eighth of it for BLINK_MS
BLINK_MS = 500


def crc16(data, crc=0xFFFF):
    # CRC-16/CCITT-FALSE
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def encode(seq, kind, payload=b""):
    body = bytes((len(payload), seq & 0xFF, kind)) + bytes(payload)
    crc = crc16(body)
    return bytes((SYNC0, SYNC1)) + body + bytes((crc >> 8, crc & 0xFF))


class Parser:
    # Bytes in, (seq, type, payload) tuples out. Bad frames are skipped and counted.

    def __init__(self):
        self.buf = bytearray()
        self.dropped = 0
        self.noise = 0

    def feed(self, data):
        buf = self.buf
        buf.extend(data)
        out = []
        while True:
            start = _find_sync(buf)
            if start < 0:
                keep = 1 if len(buf) and buf[-1] == SYNC0 else 0
                self.noise += len(buf) - keep
                self.buf = buf = buf[len(buf) - keep:]
                return out
            if start:
                self.noise += start
                self.buf = buf = buf[start:]
            if len(buf) < 5:
                return out
            length = buf[2]
            if length > MAX_PAYLOAD:
                self.dropped += 1
                self.buf = buf = buf[2:]
                continue
            if len(buf) < length + 7:
                return out
            body = bytes(buf[2:5 + length])
            crc = (buf[5 + length] << 8) | buf[6 + length]
            if crc16(body) != crc:
                self.dropped += 1
                self.buf = buf = buf[2:]
                continue
            self.buf = buf = buf[length + 7:]
            out.append((body[1], body[2], body[3:]))

    def drop_partial(self):
        # the line went quiet inside a frame: drop it, keep any whole frames after its start
        out = []
        while len(self.buf):
            self.dropped += 1
            self.buf = self.buf[2:]
            out.extend(self.feed(b""))
        return out


def _find_sync(buf):
    for i in range(len(buf) - 1):
        if buf[i] == SYNC0 and buf[i + 1] == SYNC1:
            return i
    return -1
