"""`companion serve` runs the app on waitress: requests and live updates over a real socket."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen([sys.executable, "-c", "from web.cli import main; main()", "serve", "--port",
                                str(port), "--data", str(tmp_path)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail(f"the server did not start: {(tmp_path / 'serve.log').read_text()}")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def request(port: int, method: str, path: str, body: object = None) -> tuple[int, dict[str, object]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = json.loads(response.read() or b"{}")
    connection.close()
    return response.status, data


def test_serve_plays_a_move_and_streams_it_live(server: int) -> None:
    status, game = request(server, "POST", "/api/games", {"players": ["Alice", "Bob"]})
    assert status == 201
    stream = http.client.HTTPConnection("127.0.0.1", server, timeout=5)
    stream.request("GET", f"/api/games/{game['id']}/stream")
    response = stream.getresponse()
    assert response.status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream")
    assert response.getheader("Server") == "keydom"  # waitress, not Flask's development server

    def next_event() -> dict[str, object]:
        while True:
            line = response.fp.readline().decode()
            if line.startswith("data: "):
                data: dict[str, object] = json.loads(line[6:])
                return data

    first = next_event()
    started = time.perf_counter()
    status, _ = request(server, "POST", f"/api/games/{game['id']}/moves", {"move": "end"})
    update = next_event()
    elapsed = time.perf_counter() - started
    assert status == 200 and update["version"] == first["version"] + 1  # type: ignore[operator]
    assert elapsed < 2.0  # arrives at once, not when a buffer fills (latency is measured by the benchmark)
    stream.close()
