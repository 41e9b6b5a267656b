"""Many open streams benchmark (issue 11): does a move still reach every live page at once?

Starts ``companion serve`` on a free loopback port with a throw-away games folder, creates a
2-player Key Harvest game and opens ``STREAMS`` server-sent event streams on it, each from its own
loopback address (127.0.1.x: a device each, so the per-device cap does not apply), then:

1. plays ``MOVES`` moves one at a time ("end" alternating with a random legal move) and measures,
   for every (move, stream) pair, the time from just before the move's POST to the arrival of the
   ``update`` event with the version that move produced; each move is posted once every stream has
   the previous one;
2. times plain requests (GET /api/games/<id>) while the streams stay open.

The streams are read by one thread with a selector (not a thread each), so the client keeps up.
Run: ``.venv/bin/python benchmarks/streams.py [STREAMS]``. Bounded: ``MOVES`` moves and a hard
``HARD_TIMEOUT`` seconds, after which a watchdog stops the server. docs/benchmarks.md records the numbers.
"""

from __future__ import annotations

import os
import random
import re
import selectors
import socket
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_latency import (  # noqa: E402
    HOST, Api, Watchdog, claim_seats, free_port, percentile, serve_and_run)

STREAMS = 200
MOVES = 100
PLAIN_REQUESTS = 200
HARD_TIMEOUT = 120.0
DELIVERY_TIMEOUT = 5.0
GOAL_P99_MS = 50.0
VERSION = re.compile(rb"\nid: (\d+)\n")


class Streams:
    """``count`` raw SSE connections, each from its own loopback address, read by one selector."""

    def __init__(self, port: int, game_id: str, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.latest: dict[socket.socket, int] = {}
        self.arrivals: dict[socket.socket, dict[int, float]] = {}
        self.tails: dict[socket.socket, bytes] = {}
        for n in range(count):
            sock = socket.create_connection((HOST, port), timeout=10,
                                            source_address=(f"127.0.{1 + n // 250}.{1 + n % 250}", 0))
            sock.sendall(f"GET /api/games/{game_id}/stream HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.latest[sock], self.arrivals[sock], self.tails[sock] = -1, {}, b""

    def pump(self, timeout: float) -> None:
        """Read whatever arrived within ``timeout`` seconds, noting when each version reached each stream."""
        for key, _ in self.selector.select(timeout):
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            now = time.perf_counter()
            chunk = sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("the server closed a stream")
            text = self.tails[sock] + chunk
            for match in VERSION.finditer(text):
                version = int(match.group(1))
                self.arrivals[sock].setdefault(version, now)
                self.latest[sock] = max(self.latest[sock], version)
            self.tails[sock] = text[-64:]  # an id line split across two reads

    def wait_for(self, version: int, watchdog: Watchdog) -> None:
        end = time.monotonic() + DELIVERY_TIMEOUT
        while min(self.latest.values()) < version:
            watchdog.check()
            if time.monotonic() > end:
                missing = sum(1 for v in self.latest.values() if v < version)
                raise RuntimeError(f"{missing} streams did not get version {version}")
            self.pump(0.5)

    def close(self) -> None:
        for sock in list(self.latest):
            self.selector.unregister(sock)
            sock.close()
        self.selector.close()


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time (Linux), a measure that the machine's load does not inflate."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(port: int, pid: int, count: int, watchdog: Watchdog) -> None:
    rng = random.Random(11)
    api = Api(port)
    game = api.ok("POST", "/api/games", {"players": ["Alice", "Bob"]})
    seats = claim_seats(api, game["id"])
    started = time.perf_counter()
    streams = Streams(port, game["id"], count)
    try:
        streams.wait_for(int(game["version"]), watchdog)
        print(f"{count} streams open and showing the game in {time.perf_counter() - started:.2f} s")
        posted: dict[int, float] = {}
        cpu = cpu_seconds(pid)
        trips: list[float] = []
        for number in range(MOVES):
            watchdog.check()
            legal = api.ok("GET", seats[game["to_move"]])["legal"] if isinstance(game["to_move"], int) else []
            if not legal:
                break
            move = "end" if number % 2 == 0 and "end" in legal else rng.choice(legal)
            before = time.perf_counter()
            game = api.ok("POST", f"/api/games/{game['id']}/moves", {"move": move, "version": game["version"]})["game"]
            trips.append((time.perf_counter() - before) * 1000.0)
            posted[int(game["version"])] = before
            streams.wait_for(int(game["version"]), watchdog)
        cpu = cpu_seconds(pid) - cpu
        latencies = sorted((streams.arrivals[sock][version] - sent) * 1000.0
                           for version, sent in posted.items() for sock in streams.arrivals)
        p99 = percentile(latencies, 99)
        print(f"move -> update latency, {len(posted)} moves x {count} streams = {len(latencies)} samples:")
        print(f"  p50 {percentile(latencies, 50):.2f} ms  p90 {percentile(latencies, 90):.2f} ms  "
              f"p99 {p99:.2f} ms  max {latencies[-1]:.2f} ms")
        ordered = sorted(trips)
        print(f"  (POST /moves round trip alone: p50 {percentile(ordered, 50):.2f} ms  "
              f"p99 {percentile(ordered, 99):.2f} ms; server CPU {cpu / len(posted) * 1000:.1f} ms per move, "
              f"all included)")
        print(f"  goal p99 < {GOAL_P99_MS:.0f} ms on loopback: {'met' if p99 < GOAL_P99_MS else 'NOT met'}")
        plain: list[float] = []
        for _ in range(PLAIN_REQUESTS):
            watchdog.check()
            before = time.perf_counter()
            api.ok("GET", f"/api/games/{game['id']}")
            plain.append((time.perf_counter() - before) * 1000.0)
            streams.pump(0)
        plain.sort()
        print(f"GET /api/games/<id> with the {count} streams open, {PLAIN_REQUESTS} requests: "
              f"p50 {percentile(plain, 50):.2f} ms  p99 {percentile(plain, 99):.2f} ms")
    finally:
        streams.close()
        api.close()


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else STREAMS

    def describe(port: int) -> str:
        load = " ".join(f"{n:.2f}" for n in os.getloadavg())
        return (f"companion serve on {HOST}:{port} (uvicorn + Flask in 32 threads), {count} SSE streams, "
                f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average before: {load}")

    def body(port: int, server: Any, watchdog: Watchdog) -> None:
        run(port, server.pid, count, watchdog)
        print(f"load average after: {' '.join(f'{n:.2f}' for n in os.getloadavg())}")

    return serve_and_run("streams", describe, body)


if __name__ == "__main__":
    sys.exit(main())
