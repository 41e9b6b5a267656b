"""`companion serve` runs the app on uvicorn (web/streams.py): requests and live updates over a real socket."""

from __future__ import annotations

import http.client
import json
import time


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
    assert response.getheader("Server") == "keydom"  # companion serve, not Flask's development server
    assert response.getheader("X-Content-Type-Options") == "nosniff"  # served outside Flask, with its headers
    assert "frame-ancestors 'none'" in response.getheader("Content-Security-Policy", "")

    def next_event() -> dict[str, object]:
        while True:
            line = response.fp.readline().decode()
            if line.startswith("data: "):
                data: dict[str, object] = json.loads(line[6:])
                return data

    first = next_event()
    started = time.perf_counter()
    status, _ = request(server, "POST", f"/api/games/{game['id']}/moves", {"move": "end", "version": game["version"]})
    update = next_event()
    elapsed = time.perf_counter() - started
    assert status == 200 and update["version"] == first["version"] + 1  # type: ignore[operator]
    assert elapsed < 2.0  # arrives at once, not when a buffer fills (latency is measured by the benchmark)
    stream.close()
