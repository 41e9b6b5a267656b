# Keydom panel firmware logic: button debounce and hold, the LED buffer, the protocol.
# No pin access here: main.py reads the pins, drives the strip and moves bytes over USB;
# the tests and the simulator run this same file under CPython.

import kproto as P


class Buttons:
    # Debounced buttons, reporting on the leading edge: a change of level counts at once if the
    # button has kept its previous state for debounce_ms; the contact's bounce right after a
    # change is ignored. So a press costs no debounce delay. scan() returns (index, PRESS) when a
    # press starts and (index, HOLD) once it has lasted hold_ms (the host uses HOLD for buttons
    # that need a long press, e.g. UNDO).

    def __init__(self, count, debounce_ms=20, hold_ms=1000):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.stable = [False] * count
        self.changed = [-debounce_ms] * count
        self.held = [False] * count

    def scan(self, levels, now):
        events = []
        for i in range(len(self.stable)):
            level = bool(levels[i])
            if level != self.stable[i] and _elapsed(now, self.changed[i]) >= self.debounce_ms:
                self.stable[i] = level
                self.changed[i] = now
                if level:
                    self.held[i] = False
                    events.append((i, P.PRESS))
            if self.stable[i] and not self.held[i] and _elapsed(now, self.changed[i]) >= self.hold_ms:
                self.held[i] = True
                events.append((i, P.HOLD))
        return events


class Firmware:
    # The board's side of the link. write(bytes) sends to the host; show(pixels) updates the
    # strip (a list of (r, g, b)). Call receive() with bytes from the host and tick() often.

    def __init__(self, leds, buttons, write, show, boot_id, name="keydom-pico 2.0",
                 debounce_ms=20, hold_ms=1000, retry_ms=100, retries=5):
        self.write = write
        self.show = show
        self.boot_id = boot_id & 0xFFFFFFFF
        self.name = name
        self.pixels = [(0, 0, 0)] * leds  # the state the host asked for (blinking pixels at full colour)
        self.blinking = []  # indices of the pixels that blink
        self.blink_since = 0  # when the state with them arrived (ms)
        self.dark = False  # whether the blinking pixels are in their dim half now
        self.version = P.VERSION  # the version the host greeted us in
        self.buttons = Buttons(buttons, debounce_ms, hold_ms)
        self.parser = P.Parser()
        self.retry_ms = retry_ms
        self.retries = retries
        self.greeted = False
        self.host_seq = -1  # last reliable frame taken from the host (to spot repeats)
        self.seq = 0
        self.queue = []  # button events waiting to be sent
        self.in_flight = None  # [seq, frame bytes, sent at, tries]
        self.lost = 0  # button events given up after every retry

    # From the host.

    def receive(self, data, now):
        for seq, kind, payload in self.parser.feed(data):
            self.handle(seq, kind, payload, now)

    def handle(self, seq, kind, payload, now):
        if kind == P.HELLO:
            if len(payload) < 1 or not P.OLDEST <= payload[0] <= P.VERSION:
                self.send(P.ERROR, bytes((P.ERR_VERSION, P.VERSION)) + b"protocol version differs")
                return
            self.greeted = True
            self.version = payload[0]
            self.host_seq = -1
            self.queue = []
            self.in_flight = None
            leds = len(self.pixels)
            self.send(P.WELCOME, bytes((self.version, len(self.buttons.stable), leds >> 8, leds & 0xFF))
                      + self.boot_id.to_bytes(4, "big") + self.name.encode())
        elif kind == P.PING:
            self.send(P.PONG, self.boot_id.to_bytes(4, "big"))
        elif not self.greeted:
            self.send(P.ERROR, bytes((P.ERR_NEED_HELLO,)) + b"say HELLO first")
        elif kind == P.ACK:
            if self.in_flight is not None and len(payload) == 1 and payload[0] == self.in_flight[0]:
                self.in_flight = None
                self.pump(now)
        elif kind == P.LIGHTS:
            if len(payload) % 6:
                self.send(P.ERROR, bytes((P.ERR_BAD_PAYLOAD,)) + b"LIGHTS is runs of 6 bytes")
                return
            self.send(P.ACK, bytes((seq,)))
            if seq != self.host_seq:
                self.host_seq = seq
                self.set_lights(payload, 6, now)
        elif kind == P.SHOW:
            if len(payload) % 7:
                self.send(P.ERROR, bytes((P.ERR_BAD_PAYLOAD,)) + b"SHOW is runs of 7 bytes")
                return
            self.send(P.ACK, bytes((seq,)))
            if seq != self.host_seq:
                self.host_seq = seq
                self.set_lights(payload, 7, now)

    def set_lights(self, payload, size=6, now=0):
        # runs of [start (2), count, r, g, b] (LIGHTS) or [..., effect] (SHOW): the whole strip
        pixels = [(0, 0, 0)] * len(self.pixels)
        blinking = []
        for i in range(0, len(payload), size):
            start = (payload[i] << 8) | payload[i + 1]
            colour = (payload[i + 3], payload[i + 4], payload[i + 5])
            blink = size == 7 and payload[i + 6] == P.BLINK
            for p in range(start, min(start + payload[i + 2], len(pixels))):
                pixels[p] = colour
                if blink:
                    blinking.append(p)
        self.pixels = pixels
        self.blinking = blinking
        self.blink_since = now
        self.dark = False
        self.show(pixels)

    def blink(self, now):
        # every BLINK_MS the blinking pixels change between their colour and an eighth of it
        if not self.blinking:
            return
        dark = (_elapsed(now, self.blink_since) // P.BLINK_MS) % 2 == 1
        if dark == self.dark:
            return
        self.dark = dark
        shown = list(self.pixels)
        if dark:
            for p in self.blinking:
                r, g, b = shown[p]
                shown[p] = (r >> 3, g >> 3, b >> 3)
        self.show(shown)

    # To the host.

    def tick(self, levels, now):
        for index, kind in self.buttons.scan(levels, now):
            if self.greeted and len(self.queue) < 8:
                self.queue.append(bytes((index, kind)))
        self.blink(now)
        flight = self.in_flight
        if flight is not None and _elapsed(now, flight[2]) >= self.retry_ms:
            if flight[3] >= self.retries:
                self.lost += 1
                self.in_flight = None
            else:
                flight[2] = now
                flight[3] += 1
                self.write(flight[1])
        self.pump(now)

    def pump(self, now):
        if self.in_flight is None and self.queue:
            self.seq = (self.seq + 1) & 0xFF
            frame = P.encode(self.seq, P.BUTTON, self.queue.pop(0))
            self.in_flight = [self.seq, frame, now, 0]
            self.write(frame)

    def send(self, kind, payload=b""):
        self.seq = (self.seq + 1) & 0xFF
        self.write(P.encode(self.seq, kind, payload))


def _elapsed(now, then):
    # milliseconds from then to now, across the wrap of a ticks_ms counter (2**30 on the Pico)
    return (now - then) & 0x3FFFFFFF
