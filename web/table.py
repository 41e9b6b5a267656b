"""The table service: one game store, the open sessions, and who is listening to which game."""

from __future__ import annotations

import atexit
import hashlib
import hmac
import logging
import queue
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from flask import Flask, current_app

from companion.core.errors import CorruptSaveError, UnknownGameError
from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, Move
from companion.core.messages import Text, msg
from companion.salvage import StoreHealth, open_store
from companion.session import Session
from companion.store import OVER, Damaged, GameRecord, GameStore, SeatRow

log = logging.getLogger(__name__)

EXTENSION = "keydom_table"


class Inbox(Protocol):
    """Where a listener gets a game's updates: a ``queue.Queue``, or web/streams.py's fan-out to the event loop.
    ``put`` is called from the thread that changed the game, under the Table's lock: it must not block."""

    def put(self, update: dict[str, Any]) -> None: ...


class Table:
    """Games as the web service sees them. Thread-safe: requests are served from several threads."""

    def __init__(self, db_path: Path, lock_wait: float = 5.0) -> None:
        self.db_path = db_path
        self.store, self.health = open_store(db_path, lock_wait)
        self.data_dir = db_path.parent
        """The folder new games read the table's installed data from (layouts, data packs)."""
        self._sessions: dict[str, Session] = {}
        self._listeners: dict[str, list[Inbox]] = {}
        self._sent: dict[str, tuple[int, list[Any]]] = {}
        """Per game: the version and whole log of the last live update (the next one sends only what follows)."""
        self._lock = threading.Lock()
        self.on_change: list[Callable[[Session], None]] = []
        """Told when a game is created or opened and after its every move or undo (the panel follows it)."""
        self._damaged: dict[str, str] = {}
        self._check_games()

    def _check_games(self) -> None:
        """Open every unfinished game once: a record or log that cannot be replayed is listed as damaged (a finished
        game is checked when it is first opened, so that a long history does not slow the start)."""
        self._damaged = {d.id: d.reason for d in (*self.health.damaged, *self.store.damaged())}
        for record in self.store.list():
            if record.status == OVER:
                continue
            try:
                self.session(record.id)
            except CorruptSaveError as error:
                self._damaged[record.id] = str(error)
                log.error("game store: game %s is damaged: %s", record.id, error)

    def games(self) -> tuple[list[GameRecord], list[Damaged]]:
        """The games that can be played, newest first, and the damaged ones with the reason. A store that was
        locked at start is tried again first."""
        if self.health.retry:
            store, health = open_store(self.db_path, lock_wait=0.1)
            if health.retry:
                store.close()
            else:
                self.store.close()
                self.store, self.health = store, health
                self._check_games()
        damaged = dict(self._damaged)
        return ([r for r in self.store.list() if r.id not in damaged],
                [Damaged(game_id, reason) for game_id, reason in damaged.items()])

    def close(self) -> None:
        self.store.close()

    # ---------------------------------------------------------------- games

    def new_game(self, game: str, players: Sequence[str], options: Mapping[str, str],
                 colours: Sequence[str] | None = None) -> Session:
        session = Session.new(self.store, game, players, options, colours=colours, data_dir=self.data_dir)
        with self._lock:
            self._attach(session)
        return session

    def session(self, game_id: str) -> Session:
        """The open session of ``game_id`` (opened from the store on first use), caught up with any moves another
        process stored meanwhile (its listeners hear of them)."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is None:
                try:
                    session = Session.open(self.store, game_id)
                except CorruptSaveError as error:
                    self._damaged[game_id] = str(error)
                    raise
                self._attach(session)
                return session
        session.sync()
        return session

    def refresh(self, game_id: str) -> None:
        """Catch an open game up with the store (a stream's tick): another process may have moved."""
        with self._lock:
            session = self._sessions.get(game_id)
        if session is not None:
            try:
                session.sync()
            except UnknownGameError:  # deleted by another process
                self._forget(game_id)

    def delete(self, game_id: str) -> None:
        self.store.get(game_id)
        self._forget(game_id)
        self.store.delete(game_id)

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._sessions.pop(game_id, None)
            self._sent.pop(game_id, None)
            for listener in self._listeners.pop(game_id, []):
                listener.put({"event": "deleted", "version": -1})

    def _attach(self, session: Session) -> None:
        self._sessions[session.id] = session
        session.subscribe(self._changed)
        for hook in list(self.on_change):
            hook(session)

    # ---------------------------------------------------------------- live updates

    def listen(self, game_id: str) -> queue.Queue[dict[str, Any]]:
        self.session(game_id)
        inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.add_listener(game_id, inbox)
        return inbox

    def add_listener(self, game_id: str, inbox: Inbox) -> None:
        """Give ``inbox`` every update of ``game_id`` from now on (and ``deleted`` at its end)."""
        with self._lock:
            self._listeners.setdefault(game_id, []).append(inbox)

    def stop_listening(self, game_id: str, inbox: Inbox) -> None:
        with self._lock:
            inboxes = self._listeners.get(game_id, [])
            if inbox in inboxes:
                inboxes.remove(inbox)

    def _changed(self, session: Session, moves: list[Move]) -> None:
        for hook in list(self.on_change):
            hook(session)
        with self._lock:
            inboxes = list(self._listeners.get(session.id, []))
            if not inboxes:  # nobody is watching: no need to build the update (the next one carries the whole log)
                self._sent.pop(session.id, None)
                return
            update = {"event": "update", "version": session.version, "game": self.delta(public_game(session))}
            for inbox in inboxes:
                inbox.put(update)

    def first_update(self, session: Session) -> dict[str, Any]:
        """The first event of a stream (added as a listener just before): the whole game. The updates after it may
        then send their log as a delta from it (unless an update already went out since the stream was added)."""
        game = public_game(session)
        with self._lock:
            self._sent.setdefault(session.id, (game["version"], game["log"]))
        return {"event": "update", "version": game["version"], "game": game}

    def delta(self, game: dict[str, Any]) -> dict[str, Any]:
        """``game`` as a live update sends it (called with the lock held, once per change): its log as the lines
        after those it shares with the previous update's (``log_start``, ``log_base`` the version that update had),
        or whole (``log_start`` 0) when there was none. Every stream starts with the whole game, so a page holds
        the previous update's log; one that missed an update sees ``log_base`` differ from its version."""
        log: list[Any] = game["log"]
        previous = self._sent.get(game["id"])
        self._sent[game["id"]] = (game["version"], log)
        if previous is None:
            return game
        base, old = previous
        start = len(old) if log[:len(old)] == old else next(
            (i for i, (a, b) in enumerate(zip(old, log)) if a != b), min(len(old), len(log)))
        return {**game, "log": log[start:], "log_start": start, "log_base": base}

    # ---------------------------------------------------------------- private seats

    def seats(self, session: Session) -> list[SeatRow]:
        """Each seat's credential row (a fresh claim code for a seat that has none yet)."""
        return self.store.seat_rows(session.id, len(session.players), new_claim_code)

    def claim(self, session: Session, code: str) -> tuple[int, str]:
        """Claim the seat whose QR code carries ``code``: its seat and its secret token, handed out this once (only
        its hash is stored). The code then stops working."""
        self.seats(session)
        token = secrets.token_hex(16)
        seat = self.store.claim_seat(session.id, code, token_digest(token))
        if seat is None:
            raise UnknownGameError(msg("core.seat.code_used"))
        return seat, token

    def reissue(self, session: Session, seat: int) -> None:
        """Forget ``seat``'s credential (a lost phone's link stops working) and show a new claim code for it."""
        if not 0 <= seat < len(session.players):
            raise UnknownGameError(msg("core.seat.unknown", seat=seat))
        self.store.reset_seat(session.id, seat, new_claim_code())

    def seat_of(self, session: Session, token: str) -> int:
        """The seat whose credential is ``token``; ``UnknownGameError`` (404) for any other token."""
        digest = token_digest(token)
        for row in self.seats(session):
            if row.token is not None and hmac.compare_digest(row.token, digest):
                return row.seat
        raise UnknownGameError(msg("core.seat.no_private_page"))

    def seat_of_claim(self, session: Session, code: str) -> int:
        """The unclaimed seat whose claim code is ``code`` (for its QR code)."""
        for row in self.seats(session):
            if row.token is None and hmac.compare_digest(row.claim.encode(), code.encode()):
                return row.seat
        raise UnknownGameError(msg("core.seat.no_code"))


def new_claim_code() -> str:
    return secrets.token_hex(8)


def token_digest(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256 (a stolen database does not give the links)."""
    return hashlib.sha256(token.encode()).hexdigest()


def public_game(session: Session) -> dict[str, Any]:
    """What the shared table may show: a function of public information only (no screen, no hidden draw, no seed
    before the end; tests/test_hidden_information.py compares it across states that differ only in hidden things).
    ``version`` is what a move chosen from this view must name. ``log`` is the whole log (``log_start`` 0; a live
    update may carry only its new lines, see ``Table.delta``); ``table_now`` its lines from the last player move on,
    what the table does physically now (none before the first player move: the setup is the setup guide's,
    /games/<id>/setup)."""
    game = session.game
    with session.lock:
        state = session.state
        who = game.current_player(state)
        log = session.export(None)["log"]
        return {
            "id": session.id,
            "game": game.name,
            "title": game.title,
            "players": list(session.players),
            "colours": list(session.colours),
            "status": session.status,
            "version": session.version,
            "to_move": {CHANCE: "chance", TERMINAL: None, SIMULTANEOUS: "simultaneous"}.get(who, who),
            "deciders": list(game.deciders(state)),
            "view": session.view(None),
            "log": log,
            "log_start": 0,
            "table_now": log[session.last_decision:] if session.decided else [],
            "warnings": game.data_warnings(),
            "pick": session.picks(None, []),
            "undo": session.undo_info(),
        }


def move_words(game: Game[Any, Any], state: Any, moves: Sequence[Move]) -> dict[str, Text]:
    """Each offered move's notation and what it does in words (``Game.move_text``), for the buttons."""
    return {str(move): game.move_text(state, move) for move in moves}


def setup_state(session: Session) -> Any:
    """The state when the first player decides: the setup draws replayed from the log."""
    game = session.game
    state = game.setup(session.players, session.options)
    for move in session.history:
        if game.current_player(state) != CHANCE:
            break
        state = game.apply(state, move)
    return state


def get_table() -> Table:
    """The table of the current app."""
    table: Table = current_app.extensions[EXTENSION]
    return table


def init_app(app: Flask) -> None:
    table = Table(Path(app.config["DATA_DIR"]) / "games.sqlite3", float(app.config.get("STORE_LOCK_WAIT", 5.0)))
    app.extensions[EXTENSION] = table
    atexit.register(table.close)
