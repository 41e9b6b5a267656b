"""Issue 10 on the real service (waitress in a subprocess): many devices post the same move at once and exactly
one is applied; `companion play --resume` in another process moves and the service follows, never a 500."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests.web.apikit import notation
from tests.web.test_serve import request


def test_many_devices_post_the_same_move_at_once_and_exactly_one_is_applied(server: int) -> None:
    status, game = request(server, "POST", "/api/games", {"players": ["Alice", "Bob", "Cara"]})
    assert status == 201
    path = f"/api/games/{game['id']}/moves"
    barrier = threading.Barrier(16)
    answers: list[tuple[int, dict[str, Any]]] = []

    def tap() -> None:
        barrier.wait()
        answers.append(request(server, "POST", path, {"move": "end", "version": game["version"]}))  # type: ignore[arg-type]

    threads = [threading.Thread(target=tap) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(code for code, _ in answers)
    assert codes == [200] + [409] * 15
    stale = [body for code, body in answers if code == 409]
    assert all(body["error"]["reason"] == "the table has moved on" for body in stale)
    assert all(body["game"]["version"] == game["version"] + 1 for body in stale)  # the fresh game comes along
    _, now = request(server, "GET", f"/api/games/{game['id']}")
    assert now["view"]["active"] == (game["view"]["active"] + 1) % 3  # one turn ended, nobody lost theirs
    assert sum(notation(line) == "end" for line in now["log"]) == 1  # type: ignore[union-attr]


def test_a_move_without_a_version_is_refused(server: int) -> None:
    _, game = request(server, "POST", "/api/games", {"players": ["Alice", "Bob"]})
    status, body = request(server, "POST", f"/api/games/{game['id']}/moves", {"move": "end"})
    assert status == 428 and "version" in body["error"]["reason"]  # type: ignore[index]
    _, after = request(server, "GET", f"/api/games/{game['id']}")
    assert after["log"] == game["log"]


def test_the_terminal_and_the_service_share_one_store(server: int, tmp_path: Path) -> None:
    _, game = request(server, "POST", "/api/games", {"players": ["Alice", "Bob"]})
    stream = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    stream.request("GET", f"/api/games/{game['id']}/stream")
    events = stream.getresponse()

    def next_update() -> dict[str, Any]:
        while True:
            line = events.fp.readline().decode()
            if line.startswith("data: "):
                data: dict[str, Any] = json.loads(line[6:])
                return data

    assert next_update()["version"] == game["version"]
    terminal = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "--resume", game["id"], "--data", str(tmp_path)],
        input="end\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert terminal.returncode == 0, terminal.stderr
    started = time.monotonic()
    update = next_update()  # the stream's tick notices the other process's move
    assert update["version"] == game["version"] + 1 and notation(update["game"]["log"][-1]) == "end"
    assert time.monotonic() - started < 5
    status, body = request(server, "POST", f"/api/games/{game['id']}/moves", {"move": "end", "version": game["version"]})
    assert status == 409 and body["game"]["version"] == game["version"] + 1  # type: ignore[index]
    status, body = request(server, "POST", f"/api/games/{game['id']}/moves",
                           {"move": "end", "version": game["version"] + 1})
    assert status == 200 and body["game"]["view"]["active"] == game["view"]["active"]  # type: ignore[index]
    stream.close()
