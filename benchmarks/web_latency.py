"""Tablet service benchmark: move -> live update latency and move throughput (issue 3).

Starts ``companion serve`` on a free loopback port with a throw-away games folder, creates a
2-player Key Harvest game, connects 10 live clients to its server-sent events stream and:

1. plays up to ``MOVES`` moves one at a time ("end" alternating with a random legal move) and
   measures, for every (move, client) pair, the time from just before the move's POST to the
   arrival of the ``update`` event carrying the version that move produced;
2. posts ``THROUGHPUT_MOVES`` "end" moves back to back (each after the previous answer) and
   reports POST /moves requests per second, with the 10 clients still connected.

Run: ``.venv/bin/python benchmarks/web_latency.py`` or ``python3 benchmarks/web_latency.py``.
Standard library only (plus the project, which the server subprocess imports). Everything is
bounded: at most ``MOVES`` + ``THROUGHPUT_MOVES`` moves and a hard ``HARD_TIMEOUT`` seconds, after
which a watchdog stops the server. docs/benchmarks.md records the numbers.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CLIENTS = 10
MOVES = 300
THROUGHPUT_MOVES = 200
HARD_TIMEOUT = 60.0  # seconds for the whole run
REQUEST_TIMEOUT = 10.0  # seconds for one HTTP request
DELIVERY_TIMEOUT = 5.0  # seconds to wait for every client to see one update
GOAL_P99_MS = 50.0


class Watchdog:
    """Enforces the overall time limit: past the deadline, stops the server so every wait fails."""

    def __init__(self, seconds: float, server: subprocess.Popen[bytes]) -> None:
        self.deadline = time.monotonic() + seconds
        self._timer = threading.Timer(seconds, self._expire, args=(server,))
        self._timer.daemon = True
        self._timer.start()

    def _expire(self, server: subprocess.Popen[bytes]) -> None:
        print(f"web_latency: hard timeout ({HARD_TIMEOUT:.0f} s) reached, stopping the server", file=sys.stderr)
        server.kill()

    def check(self) -> None:
        """Raise if the overall deadline has passed."""
        if time.monotonic() > self.deadline:
            raise TimeoutError("benchmark exceeded its overall time limit")

    def cancel(self) -> None:
        self._timer.cancel()


class LiveClient(threading.Thread):
    """One tablet page: its own connection to the SSE stream, recording when each update arrives."""

    def __init__(self, port: int, game_id: str, device: int = 0) -> None:
        super().__init__(daemon=True)
        self.source = f"127.0.1.{device + 1}"  # each client its own loopback address: a device each (at most 4
        # streams of a game per device, issue 11)
        self.port = port
        self.game_id = game_id
        self.arrivals: dict[int, float] = {}  # version -> time.perf_counter() at the event's end
        self.latest = -1
        self.sizes: list[int] = []  # bytes of each update event's data, in arrival order
        self.error: BaseException | None = None
        self.changed = threading.Condition()
        self._sock: socket.socket | None = None
        self._stopping = False

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection(HOST, self.port, timeout=HARD_TIMEOUT, source_address=(self.source, 0))
            conn.connect()
            self._sock = conn.sock
            conn.request("GET", f"/api/games/{self.game_id}/stream", headers={"Accept": "text/event-stream"})
            response = conn.getresponse()
            if response.status != 200:
                raise RuntimeError(f"stream answered {response.status}")
            event, version, data = "", None, ""
            while True:
                line = response.readline()
                if not line:
                    return  # the server closed the stream
                if line in (b"\n", b"\r\n"):  # the end of one event
                    arrived = time.perf_counter()
                    if event == "update":
                        self.sizes.append(len(data.encode()))
                        if version is None:  # no id line: read the version from the JSON
                            version = int(json.loads(data)["version"])
                        self._record(version, arrived)
                    elif event == "deleted":
                        return
                    event, version, data = "", None, ""
                    continue
                text = line.decode("utf-8").rstrip("\r\n")
                if text.startswith(":"):
                    continue  # comment: connected / heartbeat
                field, _, value = text.partition(":")
                value = value.removeprefix(" ")
                if field == "event":
                    event = value
                elif field == "id":
                    version = int(value)
                elif field == "data":
                    data = f"{data}\n{value}" if data else value
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            if not self._stopping:
                self.error = error
            with self.changed:
                self.changed.notify_all()

    def _record(self, version: int, arrived: float) -> None:
        with self.changed:
            self.arrivals.setdefault(version, arrived)
            self.latest = max(self.latest, version)
            self.changed.notify_all()

    def wait_for(self, version: int, timeout: float) -> bool:
        """Wait until this client has seen ``version`` (or a later one)."""
        end = time.monotonic() + timeout
        with self.changed:
            while self.latest < version and self.error is None:
                left = end - time.monotonic()
                if left <= 0 or not self.is_alive():
                    return False
                self.changed.wait(min(left, 0.5))
        return self.latest >= version

    def stop(self) -> None:
        """Hang up: shutting the socket down wakes the thread blocked reading it."""
        self._stopping = True
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._sock.close()


class Api:
    """A keep-alive JSON client for the service (one connection, used by the main thread only)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)

    def call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> tuple[int, Any]:
        body = None if payload is None else json.dumps(payload)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None

    def ok(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Any:
        status, answer = self.call(method, path, payload)
        if status >= 300:
            raise RuntimeError(f"{method} {path} -> {status}: {answer}")
        return answer

    def close(self) -> None:
        self.conn.close()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(port: int, data: Path, log: Path) -> subprocess.Popen[bytes]:
    """``companion serve`` in a subprocess (loopback only), output to ``log``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    command = [sys.executable, "-c", "from web.cli import main; main()",
               "serve", "--host", HOST, "--port", str(port), "--data", str(data)]
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def wait_for_port(port: int, server: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"the server did not open port {port} within {timeout:.0f} s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)


def percentile(ordered: list[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n * p / 100)
    return ordered[int(rank) - 1]


def open_clients(port: int, game_id: str, version: int, watchdog: Watchdog) -> list[LiveClient]:
    """Connect ``CLIENTS`` live clients and wait until each shows the current version."""
    clients = [LiveClient(port, game_id, device) for device in range(CLIENTS)]
    for client in clients:
        client.start()
    for client in clients:
        watchdog.check()
        if not client.wait_for(version, DELIVERY_TIMEOUT):
            raise RuntimeError(f"a live client did not connect: {client.error}")
    return clients


def close_clients(clients: list[LiveClient]) -> None:
    for client in clients:
        client.stop()
    for client in clients:
        client.join(timeout=2)


def legal_moves(api: Api, seat_urls: dict[int, str], to_move: Any) -> list[str]:
    if not isinstance(to_move, int):
        return []
    return list(api.ok("GET", seat_urls[to_move])["legal"])


def measure_latency(api: Api, game: dict[str, Any], seat_urls: dict[int, str], clients: list[LiveClient],
                    watchdog: Watchdog, rng: random.Random) -> tuple[list[float], list[float], dict[str, Any]]:
    """Play up to ``MOVES`` moves one at a time; latency of every (move, client) pair, in ms.

    Each move is posted only after every client has seen the previous one, so updates never
    queue behind each other; fetching the legal moves happens outside the timed span. Also
    returns each POST's round trip (until its answer), in ms.
    """
    posted: dict[int, float] = {}  # version -> perf_counter just before its POST
    round_trips: list[float] = []
    for number in range(MOVES):
        watchdog.check()
        legal = legal_moves(api, seat_urls, game["to_move"])
        if not legal:
            break  # the game is over
        move = "end" if number % 2 == 0 and "end" in legal else rng.choice(legal)
        before = time.perf_counter()
        answer = api.ok("POST", f"/api/games/{game['id']}/moves", {"move": move, "version": game["version"]})
        round_trips.append((time.perf_counter() - before) * 1000.0)
        game = answer["game"]
        version = int(game["version"])
        posted[version] = before
        for client in clients:
            if not client.wait_for(version, DELIVERY_TIMEOUT):
                raise RuntimeError(f"a live client missed version {version}: {client.error}")
        if game["to_move"] is None:
            break
    latencies = [(client.arrivals[version] - sent) * 1000.0
                 for version, sent in posted.items() for client in clients]
    return latencies, round_trips, game


def reach_end_turn(api: Api, game: dict[str, Any], seat_urls: dict[int, str], rng: random.Random,
                   watchdog: Watchdog) -> dict[str, Any]:
    """Play random legal moves (untimed) until "end" is legal for the player to move."""
    for _ in range(50):
        watchdog.check()
        legal = legal_moves(api, seat_urls, game["to_move"])
        if "end" in legal:
            return game
        if not legal:
            raise RuntimeError("the game ended before the throughput run")
        game = api.ok("POST", f"/api/games/{game['id']}/moves",
                      {"move": rng.choice(legal), "version": game["version"]})["game"]
    raise RuntimeError('"end" did not become legal within 50 moves')


def measure_throughput(api: Api, game: dict[str, Any], clients: list[LiveClient],
                       watchdog: Watchdog) -> tuple[float, float, int]:
    """POST "end" ``THROUGHPUT_MOVES`` times back to back; requests/s, and with delivery to all clients."""
    path = f"/api/games/{game['id']}/moves"
    count = 0
    start = time.perf_counter()
    for _ in range(THROUGHPUT_MOVES):
        watchdog.check()
        game = api.ok("POST", path, {"move": "end", "version": game["version"]})["game"]
        count += 1
    posted = time.perf_counter() - start
    last = int(game["version"])
    for client in clients:
        if not client.wait_for(last, DELIVERY_TIMEOUT):
            raise RuntimeError(f"a live client missed version {last}: {client.error}")
    delivered = max(client.arrivals[last] for client in clients) - start
    return count / posted, count / delivered, count


def claim_seats(api: Api, game_id: str) -> dict[int, str]:
    """Each seat's private API link, claimed through its join code as a phone does (issue 11)."""
    seats = api.ok("GET", f"/api/games/{game_id}/seats")["seats"]
    return {seat["seat"]: api.ok("POST", f"/api/games/{game_id}/join/{seat['page'].rsplit('/', 1)[1]}", {})["url"]
            for seat in seats}


def run(watchdog: Watchdog, port: int) -> None:
    rng = random.Random(3)
    api = Api(port)
    clients: list[LiveClient] = []
    try:
        game = api.ok("POST", "/api/games", {"players": ["Alice", "Bob"]})
        seat_urls = claim_seats(api, game["id"])
        clients = open_clients(port, game["id"], int(game["version"]), watchdog)

        latencies, round_trips, game = measure_latency(api, game, seat_urls, clients, watchdog, rng)
        ordered = sorted(latencies)
        p99 = percentile(ordered, 99)
        print(f"move -> update latency, {len(round_trips)} moves x {CLIENTS} clients = {len(ordered)} samples "
              f"(POST answers of ~{len(json.dumps(game)) // 1000} kB; stream updates: first "
              f"{clients[0].sizes[0] / 1000:.1f} kB, then median {sorted(clients[0].sizes[1:])[len(clients[0].sizes[1:]) // 2] / 1000:.1f} kB, "
              f"last {clients[0].sizes[-1] / 1000:.1f} kB):")
        print(f"  p50 {percentile(ordered, 50):.2f} ms  p90 {percentile(ordered, 90):.2f} ms  "
              f"p99 {p99:.2f} ms  max {ordered[-1]:.2f} ms")
        trips = sorted(round_trips)
        print(f"  (POST /moves round trip alone: p50 {percentile(trips, 50):.2f} ms  "
              f"p99 {percentile(trips, 99):.2f} ms  max {trips[-1]:.2f} ms)")
        print(f"  goal p99 < {GOAL_P99_MS:.0f} ms on loopback: {'met' if p99 < GOAL_P99_MS else 'NOT met'}")

        close_clients(clients)  # throughput runs on a fresh game, with fresh live clients
        game = api.ok("POST", "/api/games", {"players": ["Alice", "Bob"]})
        seat_urls = claim_seats(api, game["id"])
        clients = open_clients(port, game["id"], int(game["version"]), watchdog)
        game = reach_end_turn(api, game, seat_urls, rng, watchdog)
        posted_rate, delivered_rate, count = measure_throughput(api, game, clients, watchdog)
        print(f'move throughput, {count} x POST /moves "end" back to back, {CLIENTS} live clients connected:')
        print(f"  {posted_rate:.0f} requests/s ({delivered_rate:.0f} moves/s counting until the last client "
              f"had the last update)")
    finally:
        close_clients(clients)
        api.close()


def serve_and_run(name: str, describe: Callable[[int], str], body: Callable[[int, subprocess.Popen[bytes], Watchdog], None]
                  ) -> int:
    """Start ``companion serve`` on a free port with a throw-away data folder, print ``describe(port)``, run
    ``body(port, server, watchdog)``, stop the server; 1 (with the server's log) if anything failed."""
    with tempfile.TemporaryDirectory(prefix=f"keydom-{name}-") as folder:
        log = Path(folder) / "server.log"
        port = free_port()
        server = start_server(port, Path(folder) / "games", log)
        watchdog = Watchdog(HARD_TIMEOUT, server)
        try:
            wait_for_port(port, server)
            print(describe(port))
            body(port, server, watchdog)
        except Exception as error:  # noqa: BLE001 - any failure: report it with the server log
            print(f"{name}: failed: {error}", file=sys.stderr)
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            if tail:
                print(f"server output (tail):\n{tail}", file=sys.stderr)
            return 1
        finally:
            watchdog.cancel()
            stop_server(server)
    return 0


def main() -> int:
    return serve_and_run(
        "web_latency",
        lambda port: (f"companion serve on {HOST}:{port} (uvicorn, Flask in 32 threads), {CLIENTS} SSE clients, "
                      f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"),
        lambda port, server, watchdog: run(watchdog, port))


if __name__ == "__main__":
    sys.exit(main())
