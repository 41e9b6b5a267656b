"""Live updates that hold no request thread (issue 11): the ASGI app that ``companion serve`` runs on uvicorn.

The two stream routes (``GET /api/games/<id>/stream``, ``GET /api/panel/stream``) are served here with asyncio:
an open stream is a few objects on the event loop, not a thread. Every other request goes to the Flask app
through a2wsgi's ``WSGIMiddleware`` (a pool of ``threads`` worker threads). The Table and the panel call their
listeners from worker threads (and gpiozero's or the serial link's threads); a :class:`Fanout` hands each change
to the loop with one ``loop.call_soon_threadsafe``, encodes it once and queues it on every stream of that game.

Each device (client address) keeps at most ``per_device`` streams of one game (and of the panel): a new stream
closes the oldest, so a phone that reconnects (its old connection not yet noticed as dead) is never locked out.
The Flask routes in web/api.py and web/panel.py stay: the test client and any plain WSGI server use them.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask, Response
from werkzeug.test import EnvironBuilder
from werkzeug.http import parse_cookie

from companion.core.errors import CompanionError
from web.messages import dumps
from web.security import SECURITY_HEADERS
from web.table import EXTENSION as TABLE, Table

log = logging.getLogger(__name__)
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

PER_DEVICE = 4
"""Default cap of streams one device keeps open on one game (and on the panel)."""
BACKLOG = 32
"""Updates queued for one slow stream before the oldest are dropped (a page that misses one fetches the whole game:
each update's log is a delta from the one before, see ``Table.delta``)."""
GAME_STREAM = re.compile(r"/api/games/([^/]+)/stream")
PANEL_STREAM = "/api/panel/stream"
SECURITY = [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]
"""The headers of every answer (web/security.py) on the answers served here, outside Flask."""
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
           (b"x-accel-buffering", b"no"), *SECURITY]
CLOSE = b""
"""Queued on a stream to end it (evicted by a newer stream of its device, or the server stops)."""


@dataclass(frozen=True)
class Caller:
    """Who opens a stream: what a Flask before_request hook would read from the request."""

    client: str
    """The peer's address (no proxy headers are trusted)."""
    path: str
    headers: Mapping[str, str]
    """Header names in lower case."""
    cookies: Mapping[str, str]

    @classmethod
    def of(cls, scope: Scope) -> Caller:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        client = scope.get("client") or ("", 0)
        return cls(str(client[0]), str(scope.get("path", "")), headers, cookies_of(headers.get("cookie", "")))


def cookies_of(header: str) -> dict[str, str]:
    """The cookies of a Cookie header as Flask reads them; none from one whose bytes are not UTF-8 (a broken or
    hostile client: no pairing can be read from it)."""
    try:
        return dict(parse_cookie(header))
    except UnicodeDecodeError:
        return {}


def authorize(app: Flask, caller: Caller) -> tuple[int, dict[str, Any]] | None:
    """The request checks of every other request (web.security: the Host allow-list, pairing off the loopback), run
    for a stream: the streams served here never pass through Flask's before_request hooks. ``None`` lets the
    stream open; ``(status, JSON body)`` refuses it."""
    from web.security import check_request

    headers = {name: value for name, value in caller.headers.items() if name not in ("content-length", "content-type")}
    environ = EnvironBuilder(path=caller.path, method="GET", headers=list(headers.items()),
                             environ_base={"REMOTE_ADDR": caller.client}).get_environ()
    with app.request_context(environ):
        refusal = check_request()
    if refusal is None:
        return None
    response, status = refusal if isinstance(refusal, tuple) else (refusal, refusal.status_code)
    body = response.get_json(silent=True) if isinstance(response, Response) else None
    return status, body or {"error": {"type": "Refused", "reason": "this device may not follow the table"}}


class Stream:
    """One open stream: the encoded events waiting to be sent to it."""

    def __init__(self, device: tuple[str, str]) -> None:
        self.device = device
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()

    def push(self, data: bytes) -> None:
        """Queue ``data`` (on the loop); a stream that does not keep up loses its oldest updates, not memory."""
        if data and self.outbox.qsize() >= BACKLOG:
            self.outbox.get_nowait()
        self.outbox.put_nowait(data)


class Fanout:
    """The streams of one game (or of the panel) in one event loop; ``put`` may be called from any thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, encode: Callable[[dict[str, Any]], bytes]) -> None:
        self.loop = loop
        self.encode = encode
        self.streams: set[Stream] = set()
        self.ticker: asyncio.Task[None] | None = None

    def put(self, update: dict[str, Any]) -> None:
        """A change (from a worker thread, under the Table's lock): handed to the loop, nothing else."""
        try:
            self.loop.call_soon_threadsafe(self._deliver, update)
        except RuntimeError:  # the loop is closed: the server is stopping
            pass

    def _deliver(self, update: dict[str, Any]) -> None:
        data = self.encode(update)
        for stream in list(self.streams):
            stream.push(data)
            if update.get("event") == "deleted":
                self.streams.discard(stream)
                stream.push(CLOSE)


def sse(update: dict[str, Any]) -> bytes:
    """A game's update as a server-sent event (the same text as web/api.py's ``sse``)."""
    return f"event: {update['event']}\nid: {update['version']}\ndata: {dumps(update)}\n\n".encode()


class PanelFanout(Fanout):
    """The panel's streams of one page kind: /panel's (``game_id`` ``None``: the game the physical panel follows) or
    one table page's (its own game). After each change of the panel, the state is read again as those pages show it
    (``PanelService.state``), in a worker thread (it reads a game's session, whose lock a move may hold); a state
    read before a newer one was sent is dropped."""

    def __init__(self, loop: asyncio.AbstractEventLoop, service: Any, game_id: str | None) -> None:
        super().__init__(loop, lambda state: panel_event(state, service.problems))
        self.service = service
        self.game_id = game_id
        self.asked = 0
        self.sent = 0
        self.unlisten: Callable[[], None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    def _deliver(self, update: dict[str, Any]) -> None:
        self.asked += 1
        task = self.loop.create_task(self._send_state(self.asked))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _send_state(self, number: int) -> None:
        try:
            state = await asyncio.to_thread(self.service.state, self.game_id)
        except Exception:  # the game was deleted...: the next change tries again
            log.exception("cannot read the panel's state for game %s", self.game_id)
            return
        if number <= self.sent:
            return
        self.sent = number
        data = self.encode(state)
        for stream in list(self.streams):
            stream.push(data)


class Hub:
    """The open streams of the server: per game, per device, and the panel's."""

    def __init__(self, app: Flask, per_device: int = PER_DEVICE) -> None:
        self.app = app
        self.table: Table = app.extensions[TABLE]
        self.per_device = max(1, per_device)
        self.heartbeat = float(app.config["STREAM_HEARTBEAT_SECONDS"])
        self.tick = min(self.heartbeat, float(app.config["STREAM_SYNC_SECONDS"]))
        self.games: dict[str, Fanout] = {}
        self.panels: dict[str | None, PanelFanout] = {}
        self.devices: dict[tuple[str, str], deque[Stream]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def count(self) -> int:
        """How many streams are open."""
        return sum(len(streams) for streams in self.devices.values())

    def open(self, stream: Stream) -> None:
        """Count ``stream`` against its device; past the cap, the device's oldest stream is closed."""
        streams = self.devices.setdefault(stream.device, deque())
        streams.append(stream)
        while len(streams) > self.per_device:
            streams.popleft().push(CLOSE)

    def close(self, stream: Stream) -> None:
        streams = self.devices.get(stream.device)
        if streams is not None and stream in streams:
            streams.remove(stream)
            if not streams:
                del self.devices[stream.device]

    def close_all(self) -> None:
        """End every stream (the server stops); callable from any thread, e.g. a signal handler."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._close_all)

    def _close_all(self) -> None:
        for streams in self.devices.values():
            for stream in streams:
                stream.push(CLOSE)

    # ---------------------------------------------------------------- games

    def follow_game(self, game_id: str, stream: Stream) -> None:
        """Add ``stream`` to the game's fan-out (registered with the Table on the game's first stream)."""
        loop = asyncio.get_running_loop()
        fanout = self.games.get(game_id)
        if fanout is None:
            fanout = self.games[game_id] = Fanout(loop, sse)
            self.table.add_listener(game_id, fanout)
            fanout.ticker = loop.create_task(self._sync(game_id, fanout))
        fanout.streams.add(stream)

    def unfollow_game(self, game_id: str, stream: Stream) -> None:
        fanout = self.games.get(game_id)
        if fanout is None:
            return
        fanout.streams.discard(stream)
        if not fanout.streams:
            del self.games[game_id]
            self.table.stop_listening(game_id, fanout)
            if fanout.ticker is not None:
                fanout.ticker.cancel()

    async def _sync(self, game_id: str, fanout: Fanout) -> None:
        """Every tick, one catch-up of the game with the store (moves stored by another process), per game."""
        while True:
            await asyncio.sleep(self.tick)
            try:
                await asyncio.to_thread(self.table.refresh, game_id)
            except Exception:  # a damaged store...: the streams stay, the next tick tries again
                log.exception("cannot catch game %s up with the store", game_id)

    # ---------------------------------------------------------------- panel

    def follow_panel(self, stream: Stream, game_id: str | None) -> None:
        """Add ``stream`` to the panel's fan-out for ``game_id`` (a table page's game; ``None``: /panel's)."""
        fanout = self.panels.get(game_id)
        if fanout is None:
            service = self.app.extensions["keydom_panel"]
            fanout = self.panels[game_id] = PanelFanout(asyncio.get_running_loop(), service, game_id)
            fanout.unlisten = service.controller.listen(fanout.put)
        fanout.streams.add(stream)

    def unfollow_panel(self, stream: Stream, game_id: str | None) -> None:
        fanout = self.panels.get(game_id)
        if fanout is None:
            return
        fanout.streams.discard(stream)
        if not fanout.streams:
            del self.panels[game_id]
            if fanout.unlisten is not None:
                fanout.unlisten()


def panel_event(state: dict[str, Any], problems: list[str]) -> bytes:
    return f"event: panel\ndata: {dumps({**state, 'problems': problems})}\n\n".encode()


class StreamingApp:
    """The ASGI app of ``companion serve``: the streams natively, everything else through Flask in threads."""

    def __init__(self, app: Flask, threads: int = 32, per_device: int = PER_DEVICE) -> None:
        self.flask = app
        self.wsgi = WSGIMiddleware(app, workers=threads)  # type: ignore[arg-type]
        self.hub = Hub(app, per_device)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            match = GAME_STREAM.fullmatch(scope["path"])
            if match or scope["path"] == PANEL_STREAM:
                self.hub.loop = asyncio.get_running_loop()
                caller = Caller.of(scope)
                refusal = authorize(self.flask, caller)
                if refusal is not None:
                    return await send_json(send, *refusal)
                if match:
                    return await self.game_stream(match.group(1), caller, receive, send, scope["method"] == "HEAD")
                if scope["method"] == "HEAD":
                    return await send_head(send)
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                return await self.panel_stream(caller, receive, send, (query.get("game") or [""])[0] or None)
        await self.wsgi(scope, receive, send)  # type: ignore[arg-type]

    async def game_stream(self, game_id: str, caller: Caller, receive: Receive, send: Send,
                          head: bool = False) -> None:
        """``: connected``, the game now, then every change, heartbeats, and ``deleted`` ending the stream."""
        from web.api import STATUS

        hub = self.hub
        try:
            session = await asyncio.to_thread(hub.table.session, game_id)
        except CompanionError as error:
            status = next((code for kind, code in STATUS.items() if isinstance(error, kind)), 400)
            return await send_json(send, status, {"error": {"type": type(error).__name__, "reason": str(error)}})
        if head:  # the headers only, and no listener left behind
            return await send_head(send)
        stream = Stream((caller.client, game_id))
        hub.follow_game(game_id, stream)  # before the first snapshot: no change falls between the two
        try:
            first = await asyncio.to_thread(hub.table.first_update, session)
            hub.open(stream)
            await self._serve(stream, b": connected\n\n" + sse(first), receive, send)
        finally:
            hub.unfollow_game(game_id, stream)
            hub.close(stream)

    async def panel_stream(self, caller: Caller, receive: Receive, send: Send, game_id: str | None = None) -> None:
        """The panel's state now and after every change of lights or message, as /panel shows it or (``game_id``)
        as that game's table page shows it; heartbeats."""
        from web.api import STATUS

        hub = self.hub
        service = self.flask.extensions["keydom_panel"]
        stream = Stream((caller.client, f"{PANEL_STREAM}?{game_id or ''}"))
        hub.follow_panel(stream, game_id)  # before the first state: no change falls between the two
        try:
            try:
                first = await asyncio.to_thread(service.state, game_id)
            except CompanionError as error:
                status = next((code for kind, code in STATUS.items() if isinstance(error, kind)), 400)
                return await send_json(send, status, {"error": {"type": type(error).__name__, "reason": str(error)}})
            hub.open(stream)
            await self._serve(stream, panel_event(first, service.problems), receive, send)
        finally:
            hub.unfollow_panel(stream, game_id)
            hub.close(stream)

    async def _serve(self, stream: Stream, first: bytes, receive: Receive, send: Send) -> None:
        """Send ``first``, then what the stream's outbox gets, with heartbeats, until it is closed or the client
        hangs up."""
        async def hang_up() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            stream.push(CLOSE)

        watcher = asyncio.create_task(hang_up())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            await send({"type": "http.response.body", "body": first, "more_body": True})
            while True:
                try:
                    async with asyncio.timeout(self.hub.heartbeat):  # a timer, not a task per event (wait_for)
                        data = await stream.outbox.get()
                except TimeoutError:
                    data = b": heartbeat\n\n"
                if not data:  # CLOSE
                    break
                await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the client is gone
            pass
        finally:
            watcher.cancel()


async def send_head(send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": b""})


async def send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *SECURITY]})
    await send({"type": "http.response.body", "body": data})
