"""Issue 11: live streams hold no request thread, and each device keeps a bounded number of them.

Each "device" is its own loopback address (127.0.0.x): Linux routes all of 127.0.0.0/8 to the loopback.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import serving
from tests.web.test_serve import request
from web import streams


class Follower:
    """One open stream of a game, read line by line."""

    def __init__(self, port: int, game_id: str, device: int = 1, path: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5,
                                                     source_address=(f"127.0.0.{device}", 0))
        self.connection.request("GET", path or f"/api/games/{game_id}/stream")
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()

    def next_event(self) -> dict[str, Any] | None:
        """The next event's data (``None``: the server ended the stream)."""
        while True:
            line = self.response.readline().decode()  # chunks decoded: "" at the end of the body
            if not line:
                return None
            if line.startswith("data: "):
                data: dict[str, Any] = json.loads(line[6:])
                return data

    def close(self) -> None:
        self.connection.close()


def new_game(port: int) -> dict[str, Any]:
    status, game = request(port, "POST", "/api/games", {"players": ["Alice", "Bob"]})
    assert status == 201
    return game


def test_sixty_open_streams_leave_the_moves_through_and_all_get_them(server: int) -> None:
    game = new_game(server)
    followers = [Follower(server, str(game["id"]), device=10 + n) for n in range(60)]  # 60 > the 32 threads
    try:
        assert all((f.next_event() or {}).get("version") == game["version"] for f in followers)
        started = time.perf_counter()
        status, answer = request(server, "POST", f"/api/games/{game['id']}/moves",
                                 {"move": "end", "version": game["version"]})
        answered = time.perf_counter() - started
        assert status == 200 and answered < 1.0
        for follower in followers:
            update = follower.next_event()
            assert update is not None and update["version"] == answer["game"]["version"]  # type: ignore[index]
        assert time.perf_counter() - started < 2.0  # every stream, at once
        status, _ = request(server, "GET", "/api/games")  # other requests too
        assert status == 200
    finally:
        for follower in followers:
            follower.close()


def test_a_device_keeps_four_streams_of_a_game_and_a_new_one_closes_the_oldest(server: int) -> None:
    game, other = new_game(server), new_game(server)
    mine = [Follower(server, str(game["id"]), device=2) for _ in range(4)]
    elsewhere = Follower(server, str(other["id"]), device=2)  # another game: counted apart
    neighbour = Follower(server, str(game["id"]), device=3)  # another device: counted apart
    for follower in [*mine, elsewhere, neighbour]:
        assert follower.next_event() is not None
    reconnected = Follower(server, str(game["id"]), device=2)  # the phone reconnects: never locked out
    try:
        assert (reconnected.next_event() or {}).get("version") == game["version"]
        assert mine[0].next_event() is None  # the oldest was closed
        request(server, "POST", f"/api/games/{game['id']}/moves", {"move": "end", "version": game["version"]})
        for follower in [*mine[1:], reconnected, neighbour]:
            assert (follower.next_event() or {}).get("version") == game["version"] + 1
        request(server, "POST", f"/api/games/{other['id']}/moves", {"move": "end", "version": other["version"]})
        assert (elsewhere.next_event() or {}).get("version") == other["version"] + 1
    finally:
        for follower in [*mine, elsewhere, neighbour, reconnected]:
            follower.close()


def test_deleting_a_game_ends_its_streams_and_the_panel_streams_live(server: int) -> None:
    game = new_game(server)
    follower = Follower(server, str(game["id"]))
    panel = Follower(server, "", path="/api/panel/stream")
    assert follower.next_event() is not None and panel.next_event() is not None
    assert request(server, "HEAD", f"/api/games/{game['id']}/stream")[0] == 200  # headers only, nothing held
    status, _ = request(server, "POST", "/api/panel/press", {"button": "UNDO", "game": game["id"]})
    assert status == 200 and panel.next_event() is not None
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=5)
    connection.request("DELETE", f"/api/games/{game['id']}")
    assert connection.getresponse().status == 204
    connection.close()
    assert (follower.next_event() or {}).get("event") == "deleted"
    assert follower.next_event() is None
    status, error = request(server, "GET", f"/api/games/{game['id']}/stream")
    assert status == 404 and error["error"]["type"] == "UnknownGameError"  # type: ignore[index]
    follower.close()
    panel.close()


def test_serve_stops_on_sigterm_with_streams_open(tmp_path: Path) -> None:
    with serving(tmp_path) as (port, process):
        game = new_game(port)
        followers = [Follower(port, str(game["id"]), device=20 + n) for n in range(5)]
        assert all(f.next_event() is not None for f in followers)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0 and time.monotonic() - started < 5
        assert all(f.next_event() is None for f in followers)  # ended, not cut
        for follower in followers:
            follower.close()
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


def test_authorize_is_the_hook_that_can_refuse_a_stream(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[streams.Caller] = []

    def refuse(flask: Flask, caller: streams.Caller) -> tuple[int, dict[str, Any]]:
        seen.append(caller)
        return 403, {"error": {"type": "Forbidden", "reason": "enter the table's PIN"}}

    monkeypatch.setattr(streams, "authorize", refuse)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    scope = {"type": "http", "method": "GET", "path": "/api/panel/stream", "client": ("192.168.1.7", 50000),
             "headers": [(b"host", b"keydom.local:8000"), (b"cookie", b"pin=1234")]}
    asyncio.run(streams.StreamingApp(app, threads=2)(scope, receive, send))
    assert sent[0]["status"] == 403 and json.loads(sent[1]["body"])["error"]["type"] == "Forbidden"
    assert seen == [streams.Caller("192.168.1.7", "/api/panel/stream",
                                   {"host": "keydom.local:8000", "cookie": "pin=1234"}, {"pin": "1234"})]


def test_the_loopback_addresses_are_devices() -> None:
    """The tests above count on binding a client to 127.0.0.x (Linux)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.42", 0))


def test_the_panel_streams_are_capped_per_device_too(server: int) -> None:
    panels = [Follower(server, "", device=4, path="/api/panel/stream") for _ in range(5)]
    try:
        assert all(p.next_event() is not None for p in panels[1:])
        assert panels[0].next_event() is not None and panels[0].next_event() is None  # the oldest: closed
    finally:
        for panel in panels:
            panel.close()


def test_a_stream_that_does_not_keep_up_keeps_the_latest_updates_and_its_close() -> None:
    async def fill() -> list[bytes]:
        stream = streams.Stream(("127.0.0.1", "g"))
        for n in range(streams.BACKLOG + 10):
            stream.push(b"%d" % n)
        stream.push(streams.CLOSE)
        return [stream.outbox.get_nowait() for _ in range(stream.outbox.qsize())]

    queued = asyncio.run(fill())
    assert queued[0] == b"10" and queued[-2] == b"%d" % (streams.BACKLOG + 9) and queued[-1] == streams.CLOSE


def open_stream(app: Flask, path: str, client: str, headers: list[tuple[bytes, bytes]]) -> list[dict[str, Any]]:
    """The first messages the streaming app sends for a stream request (the client leaves at once)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(0.2)
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    scope = {"type": "http", "method": "GET", "path": path, "client": (client, 50000), "headers": headers}
    asyncio.run(streams.StreamingApp(app, threads=2)(scope, receive, send))
    return sent


def test_streams_pass_the_same_checks_as_every_request(app: Flask) -> None:
    """Issue 11: a stream is refused to an unpaired device on the network and to a foreign Host, like any request."""
    game = app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    path = f"/api/games/{game['id']}/stream"
    unpaired = open_stream(app, path, "192.168.1.7", [(b"host", b"127.0.0.1:8000")])
    assert unpaired[0]["status"] == 401 and json.loads(unpaired[1]["body"])["error"]["type"] == "NotPaired"
    foreign = open_stream(app, path, "127.0.0.1", [(b"host", b"evil.example:8000")])
    assert foreign[0]["status"] == 421
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.7"
    paired = phone.post("/pair", data={"pin": app.config["TABLE_PIN"], "next": "/"})
    assert paired.status_code in (302, 303), paired.get_data(as_text=True)
    cookie = phone.get_cookie("keydom_paired")
    assert cookie is not None
    allowed = open_stream(app, path, "192.168.1.7",
                          [(b"host", b"127.0.0.1:8000"), (b"cookie", f"keydom_paired={cookie.value}".encode())])
    assert allowed[0]["status"] == 200
