"""Saved games in one SQLite file: each game's record and its move log.

Every write is one transaction, committed (and synced to disk) before the call returns,
so a move the companion has confirmed survives a crash or a power cut.
"""

from __future__ import annotations

import base64
import builtins
import json
import logging
import secrets
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.core.errors import CorruptSaveError, DiskFullError, StaleMoveError, StoreError, UnknownGameError
from companion.core.messages import Message, Text, msg

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
"""Stored in ``PRAGMA user_version``; raise it (and add a migration) when the tables change."""

PLAYING = "playing"
OVER = "over"

_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    edition TEXT NOT NULL,
    colours TEXT NOT NULL,
    status TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    notation INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    is_chance INTEGER NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""

_SEATS = """
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    claim TEXT NOT NULL,
    token TEXT,
    claimed TEXT,
    PRIMARY KEY (game_id, seat)
)
"""
"""Each seat's credential (schema 2): ``claim`` is the one-time code its QR code carries until a device claims the
seat; ``token`` is then the SHA-256 of the seat's secret link (the secret itself is never stored). Created on
demand (``IF NOT EXISTS``), so files of schema 1 and early files of schema 2 get it too."""

_RETURNED = """
CREATE TABLE IF NOT EXISTS returned (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
)
"""
"""The draws an undo put back, in the order they came out (``n`` from 0): the next chance steps give them again
first (``Session``), so an undo never lets the table draw anew. Part of the stored game, written in the same
transaction as the log; created on demand like ``seats``."""

ON_DEMAND = frozenset({"returned"})
"""Tables a file may still lack (the store creates them when it opens the file)."""

_COLUMNS = {
    "games": ["id", "game", "players", "options", "seed", "edition", "colours", "status", "created", "updated",
              "version", "notation"],
    "moves": ["game_id", "ply", "text", "is_chance", "created"],
    "seats": ["game_id", "seat", "claim", "token", "claimed"],
    "returned": ["game_id", "n", "text"],
}


@dataclass(frozen=True)
class GameRecord:
    """One stored game, without its moves. Timestamps are ISO 8601 in UTC."""

    id: str
    game: str
    players: tuple[str, ...]
    options: dict[str, str]
    seed: str
    edition: dict[str, Any]
    colours: tuple[str, ...]
    status: str
    created: str
    updated: str
    version: int = 0
    """Raised by every change to the game's log (a move, an undo): a move chosen from an older one is stale."""
    notation: int = 1
    """The version of the game's move notation its log is written in (``Game.notation``)."""


@dataclass(frozen=True)
class SeatRow:
    """One seat's credential: its claim code, and once claimed the hash of its secret link and when."""

    seat: int
    claim: str
    token: str | None
    claimed: str | None


@dataclass(frozen=True)
class Damaged:
    """A stored game that cannot be played, and why."""

    id: str
    reason: str


CHANGE = Message("core.store.what.change")
"""What a write saves when it names nothing else."""


def _store_error(error: sqlite3.OperationalError, what: Message) -> StoreError:
    """SQLite's refusal to write as the companion's error: the disk is full, the file is locked, or else."""
    text = str(error).lower()
    if "full" in text:
        return DiskFullError(msg("core.store.disk_full", what=what))
    if "locked" in text or "busy" in text:
        return StoreError(msg("core.store.locked", what=what))
    return StoreError(msg("core.store.unwritable", what=what, error=str(error)))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class GameStore:
    """The saved games in the SQLite file at ``path`` (created if missing).

    One connection shared by threads (a web server's requests) behind a lock.
    """

    def __init__(self, path: str | Path, lock_wait: float = 5.0, refuse_writes: Text | None = None) -> None:
        self.path = Path(path)
        self.refuse_writes = refuse_writes
        """Why this store takes no change (a stand-in for a file the companion must not write), or ``None``."""
        self._lock = threading.Lock()
        # Autocommit mode: transactions are opened explicitly in _transaction(); a lock held elsewhere is waited
        # for ``lock_wait`` seconds.
        self._db: sqlite3.Connection | None = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=lock_wait
        )
        try:
            self._prepare()
        except sqlite3.DatabaseError as error:
            self.close()
            raise CorruptSaveError(f"{self.path} is not a companion save file ({error})") from error
        except CorruptSaveError:
            self.close()
            raise

    def _prepare(self) -> None:
        """Check the file's schema version, create the tables in a new file, set durability."""
        db = self._conn
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise CorruptSaveError(
                f"{self.path} was written by a newer companion (schema {version}, this one reads {SCHEMA_VERSION})"
            )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        if version == 0:
            with self._transaction() as tx:
                # Checked again inside the transaction: another process may have just set the file up.
                if tx.execute("PRAGMA user_version").fetchone()[0] == 0:
                    if tx.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                        raise CorruptSaveError(f"{self.path} is an SQLite file of some other program")
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            tx.execute(statement)
                    tx.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        elif version < SCHEMA_VERSION:
            self._migrate(version)
        for table, statement in (("seats", _SEATS), ("returned", _RETURNED)):
            if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() is None:
                with self._transaction() as tx:
                    tx.execute(statement)
        for table, expected in _COLUMNS.items():
            found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if found != expected:
                raise CorruptSaveError(f"{self.path} has a damaged schema: table {table!r} has columns {found}")

    def _migrate(self, version: int) -> None:
        """Bring a file of an older schema up to date, after copying it aside (``<name>.v<N>.bak``)."""
        backup = self.path.with_name(f"{self.path.name}.v{version}.bak")
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(FULL)")
            if not backup.exists():
                shutil.copy2(self.path, backup)
            with self._transaction() as tx:
                if tx.execute("PRAGMA user_version").fetchone()[0] != version:
                    return  # another process migrated it meanwhile
                if version == 1:  # schema 2: each game's version (stale moves are refused) and its log's notation
                    tx.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
                    tx.execute("UPDATE games SET version = (SELECT count(*) FROM moves WHERE game_id = games.id)")
                    tx.execute("ALTER TABLE games ADD COLUMN notation INTEGER NOT NULL DEFAULT 1")
                tx.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        log.info("migrated %s from schema %d to %d (backup: %s)", self.path, version, SCHEMA_VERSION, backup)

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise sqlite3.ProgrammingError("the game store is closed")
        return self._db

    @contextmanager
    def _transaction(self, what: Message = CHANGE) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises. SQLite's refusals
        become ``DiskFullError`` (the disk is full) or ``StoreError`` (locked, unwritable), naming ``what`` was
        not saved."""
        if self.refuse_writes is not None:
            raise StoreError(msg("core.store.refused", what=what, reason=self.refuse_writes))
        db = self._conn
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as error:
            raise _store_error(error, what) from error

    @contextmanager
    def _write(self, game_id: str, expected: int | None = None, what: Message = CHANGE) -> Iterator[sqlite3.Connection]:
        """A locked transaction on an existing game, whose ``updated`` time it sets and whose version it raises.

        With ``expected``, the game must still be at that version (else ``StaleMoveError``): another process
        or device that changed it first wins, and this change is refused whole."""
        with self._lock, self._transaction(what) as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGameError(msg("core.store.no_game", game=game_id))
            if expected is not None and row[0] != expected:
                raise StaleMoveError(row[0])
            db.execute("UPDATE games SET updated = ?, version = version + 1 WHERE id = ?", (_now(), game_id))
            yield db

    def create(
        self, game: str, players: Sequence[str], options: Mapping[str, str], seed: str,
        edition: Mapping[str, Any] | None = None, colours: Sequence[str] = (), notation: int = 1,
    ) -> str:
        """Store a new game and return its id: short, and too random to guess.

        ``edition`` is the printed data the game is played with (e.g. a board layout), kept so
        the game replays on it even after other data is installed.
        """
        game_id = base64.b32encode(secrets.token_bytes(10)).decode().lower()  # never starts with "-"
        now = _now()
        with self._lock, self._transaction(msg("core.store.what.new_game")) as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (game_id, game, json.dumps(list(players)), json.dumps(dict(options)), seed,
                 json.dumps(dict(edition or {})), json.dumps(list(colours)), PLAYING, now, now, notation),
            )
        return game_id

    def get(self, game_id: str) -> GameRecord:
        """The record of game ``game_id``; ``UnknownGameError`` if there is none."""
        with self._lock:
            row = self._conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(msg("core.store.no_game", game=game_id))
        return self._record(row)

    def list(self) -> list[GameRecord]:
        """Every stored game whose record can be read, newest first (``damaged`` names the others)."""
        with self._lock:
            rows = self._conn.execute("SELECT * FROM games ORDER BY created DESC, rowid DESC").fetchall()
        records = []
        for row in rows:
            try:
                records.append(self._record(row))
            except CorruptSaveError:
                continue
        return records

    def damaged(self) -> builtins.list[Damaged]:
        """The stored games whose record cannot be read, each with the reason."""
        with self._lock:
            rows = self._conn.execute("SELECT * FROM games ORDER BY created DESC, rowid DESC").fetchall()
        found = []
        for row in rows:
            try:
                self._record(row)
            except CorruptSaveError as error:
                found.append(Damaged(str(row[0]), str(error)))
        return found

    def restore(self, row: Sequence[Any], moves: Sequence[Sequence[Any]]) -> None:
        """Store a game copied from another file as it was: its record's row and its moves' rows."""
        with self._lock, self._transaction(msg("core.store.what.salvaged_game")) as db:
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", tuple(row))
            db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", [tuple(m) for m in moves])

    def delete(self, game_id: str) -> None:
        """Remove a game and its moves."""
        with self._write(game_id, what=msg("core.store.what.deletion")) as db:
            db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM returned WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def moves(self, game_id: str) -> builtins.list[tuple[int, str, bool]]:
        """The move log of a game as ``(ply, text, is_chance)``, in order."""
        with self._lock:
            db = self._conn
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise UnknownGameError(msg("core.store.no_game", game=game_id))
            rows = db.execute(
                "SELECT ply, text, is_chance FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        return [(ply, text, bool(is_chance)) for ply, text, is_chance in rows]

    def returned(self, game_id: str) -> builtins.list[str]:
        """The draws an undo put back that have not come out again, in order (their move texts)."""
        with self._lock:
            rows = self._conn.execute("SELECT text FROM returned WHERE game_id = ? ORDER BY n", (game_id,)).fetchall()
        return [str(text) for (text,) in rows]

    @staticmethod
    def _set_returned(db: sqlite3.Connection, game_id: str, returned: Sequence[str] | None) -> None:
        """Replace the game's put-back draws by ``returned`` (``None``: leave them)."""
        if returned is None:
            return
        db.execute("DELETE FROM returned WHERE game_id = ?", (game_id,))
        db.executemany("INSERT INTO returned VALUES (?, ?, ?)", [(game_id, n, text) for n, text in enumerate(returned)])

    def version(self, game_id: str) -> int:
        """The game's version now (every change to its log raises it)."""
        with self._lock:
            row = self._conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(msg("core.store.no_game", game=game_id))
        return int(row[0])

    def append(
        self, game_id: str, ply: int, moves: Sequence[tuple[str, bool]], expected: int | None = None,
        status: str | None = None, returned: Sequence[str] | None = None,
    ) -> int:
        """Add ``moves`` (text, is_chance) to a game's log from ``ply`` on, in one transaction, and set its
        ``status`` and its put-back draws (``returned``) if given; the new version. ``StaleMoveError`` if the game
        is no longer at ``expected``."""
        with self._write(game_id, expected, msg("core.store.what.move")) as db:
            try:
                db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                               [(game_id, ply + n, text, int(is_chance), _now()) for n, (text, is_chance) in enumerate(moves)])
            except sqlite3.IntegrityError:  # those plies were written by someone else
                raise StaleMoveError(self._version_in(db, game_id)) from None
            if status is not None:
                db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))
            self._set_returned(db, game_id, returned)
            return self._version_in(db, game_id)

    def truncate(self, game_id: str, ply: int, expected: int | None = None, returned: Sequence[str] | None = None) -> int:
        """Delete the moves from ``ply`` on (for undo), and set the put-back draws (``returned``) if given; the new
        version (``StaleMoveError`` as ``append``)."""
        with self._write(game_id, expected, msg("core.store.what.undo")) as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            self._set_returned(db, game_id, returned)
            db.execute("UPDATE games SET status = ? WHERE id = ?", (PLAYING, game_id))
            return self._version_in(db, game_id)

    def rewrite(self, game_id: str, moves: Sequence[tuple[str, bool]], notation: int, expected: int | None = None) -> int:
        """Replace a game's whole log by the same log in ``notation`` (upgraded); the new version."""
        with self._write(game_id, expected) as db:
            db.execute("UPDATE games SET notation = ? WHERE id = ?", (notation, game_id))
            db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
            db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                           [(game_id, n, text, int(is_chance), _now()) for n, (text, is_chance) in enumerate(moves)])
            return self._version_in(db, game_id)

    def set_status(self, game_id: str, status: str) -> None:
        """Record the game's status (``PLAYING`` or ``OVER``)."""
        with self._write(game_id, what=msg("core.store.what.status")) as db:
            db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    # ---------------------------------------------------------------- seat credentials

    def seat_rows(self, game_id: str, seats: int, new_claim: Callable[[], str]) -> builtins.list[SeatRow]:
        """Every seat's credential row, in seat order; a seat without one gets a fresh claim code first."""
        query = "SELECT seat, claim, token, claimed FROM seats WHERE game_id = ? AND seat < ? ORDER BY seat"
        with self._lock:
            rows = self._conn.execute(query, (game_id, seats)).fetchall()
            if len(rows) < seats:
                with self._transaction() as db:
                    if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                        raise UnknownGameError(msg("core.store.no_game", game=game_id))
                    for seat in range(seats):
                        db.execute("INSERT OR IGNORE INTO seats VALUES (?, ?, ?, NULL, NULL)",
                                   (game_id, seat, new_claim()))
                    rows = db.execute(query, (game_id, seats)).fetchall()
        return [SeatRow(int(seat), claim, token, claimed) for seat, claim, token, claimed in rows]

    def claim_seat(self, game_id: str, claim: str, token: str) -> int | None:
        """Give the unclaimed seat whose claim code is ``claim`` the credential ``token`` (a hash); its seat, or
        ``None`` if no unclaimed seat of the game has that code (the code works once)."""
        with self._lock, self._transaction() as db:
            row = db.execute("SELECT seat FROM seats WHERE game_id = ? AND claim = ? AND token IS NULL",
                             (game_id, claim)).fetchone()
            if row is None:
                return None
            db.execute("UPDATE seats SET token = ?, claimed = ? WHERE game_id = ? AND seat = ?",
                       (token, _now(), game_id, row[0]))
            return int(row[0])

    def reset_seat(self, game_id: str, seat: int, claim: str) -> None:
        """Forget a seat's credential (its old link stops working) and give it a new claim code."""
        with self._lock, self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO seats VALUES (?, ?, ?, NULL, NULL)", (game_id, seat, claim))

    @staticmethod
    def _version_in(db: sqlite3.Connection, game_id: str) -> int:
        return int(db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0])

    def close(self) -> None:
        """Close the file; calling it again does nothing."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @staticmethod
    def _record(row: tuple[Any, ...]) -> GameRecord:
        game_id, game, players, options, seed, edition, colours, status, created, updated, version, notation = row
        try:
            player_list = json.loads(players)
            option_map = json.loads(options)
            edition_map = json.loads(edition)
            if not isinstance(edition_map, dict):
                raise ValueError("edition is not a map")
            colour_list = json.loads(colours)
            if not (isinstance(colour_list, list) and all(isinstance(c, str) for c in colour_list)):
                raise ValueError("colours is not a list")
            if not (isinstance(player_list, list) and all(isinstance(p, str) for p in player_list)):
                raise ValueError("players is not a list of names")
            if not (isinstance(option_map, dict) and all(isinstance(v, str) for v in option_map.values())):
                raise ValueError("options is not a map of names to values")
            if not all(isinstance(v, str) for v in (game_id, game, seed, status, created, updated)):
                raise ValueError("a text field holds something else")
            number, notation_number = int(version), int(notation)
        except (ValueError, TypeError) as error:
            raise CorruptSaveError(f"saved game {game_id!r} has a damaged record: {error}") from error
        return GameRecord(game_id, game, tuple(player_list), option_map, seed, edition_map, tuple(colour_list),
                          status, created, updated, number, notation_number)
