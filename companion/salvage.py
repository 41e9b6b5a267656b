"""Opening the game store whatever state its file is in (docs/store.md).

``open_store`` checks the file before the companion uses it (``PRAGMA quick_check``, the schema version, the
tables) and always returns a usable store with a ``StoreHealth`` saying what is wrong:

* a healthy file (or none, or an empty one) is opened as it is;
* a file of another program, or of a newer companion, is never touched: a stand-in store that takes no change
  is returned, and the health says why and where the companion will not write;
* a file locked by another program is waited for (``lock_wait``), then treated the same way, saying so;
* a damaged file of the companion is moved aside (``<name>.damaged-<time>``, never deleted) and every game that
  can still be read is copied into a fresh file; the unreadable ones are listed as damaged, with the reason,
  also after a restart (a ``.json`` report beside the kept file).
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.core.errors import CorruptSaveError
from companion.core.messages import Message, Text, msg
from companion.store import _COLUMNS, ON_DEMAND, SCHEMA_VERSION, Damaged, GameStore

log = logging.getLogger(__name__)

DAMAGED = ".damaged-"
"""Infix of a damaged store file moved aside: ``games.sqlite3.damaged-20260101-120000``."""


@dataclass(frozen=True)
class StoreHealth:
    """What the companion found when it opened its store: ``ok``, else the ``reason`` for a person to read (a
    message, rendered in the reader's language)."""

    ok: bool = True
    reason: Text | None = None
    writable: bool = True
    kept: str | None = None
    """Where the damaged file was moved to (kept, never deleted)."""
    damaged: tuple[Damaged, ...] = field(default_factory=tuple)
    """Games that could not be read, each with the reason."""
    retry: bool = False
    """Whether opening the file again may succeed (it was locked)."""

    def to_json(self) -> dict[str, Any]:
        """The health as JSON: ``reason`` in English, ``message`` the same as data for the browser to render."""
        answer: dict[str, Any] = {"ok": self.ok, "reason": None if self.reason is None else str(self.reason),
                                  "writable": self.writable, "kept": self.kept}
        if isinstance(self.reason, Message):
            answer["message"] = self.reason.to_json()
        return answer


class _Problem(Exception):
    """What is wrong with the file, as a message (``text``)."""

    def __init__(self, text: Message) -> None:
        super().__init__(str(text))
        self.text = text


class _Foreign(_Problem):
    """The file is not the companion's (or is a newer companion's): it must not be touched."""


class _Damaged(_Problem):
    """The file is the companion's but damaged (or unreadable): salvage what can be read."""


def _problem(error: Exception) -> Text:
    """What an error says: our message, else the error's own text (SQLite's, in English)."""
    return error.text if isinstance(error, (_Problem, CorruptSaveError)) else str(error)


def open_store(path: Path, lock_wait: float = 5.0) -> tuple[GameStore, StoreHealth]:
    """The game store at ``path`` and its health; never raises for a bad file (see the module's docstring)."""
    try:
        _inspect(path, lock_wait)
        store = GameStore(path, lock_wait)
    except _Foreign as error:
        return _stand_in(path, msg("core.salvage.foreign", path=str(path), problem=error.text))
    except sqlite3.OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            return _salvage(path, str(error))
        return _stand_in(path, msg("core.salvage.locked", path=str(path), seconds=f"{lock_wait:g}"), retry=True)
    except (_Damaged, sqlite3.DatabaseError, CorruptSaveError) as error:
        return _salvage(path, _problem(error))
    return store, StoreHealth(damaged=tuple(_reports(path)))


def _inspect(path: Path, lock_wait: float) -> None:
    """Raise ``_Foreign`` or ``_Damaged`` for a file that must not or cannot be opened as it is."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as raw:
        if raw.read(16) != b"SQLite format 3\x00":
            raise _Damaged(msg("core.salvage.not_sqlite"))
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=lock_wait)
    try:
        db.execute("BEGIN")  # a read transaction: waits for another program's exclusive lock
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = db.execute("PRAGMA user_version").fetchone()[0]
        ours = tables & set(_COLUMNS)
        if tables and not ours:
            raise _Foreign(msg("core.salvage.other_program", tables=", ".join(sorted(tables))))
        if version > SCHEMA_VERSION:
            raise _Foreign(msg("core.salvage.newer", version=version, ours=SCHEMA_VERSION))
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise _Damaged(msg("core.salvage.quick_check", problems="; ".join(problems[:3])))
        if tables and version == 0:
            raise _Damaged(msg("core.salvage.no_version"))
        for table, expected in _COLUMNS.items():
            found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if version < SCHEMA_VERSION:  # an older schema: the store migrates it after a backup
                found = [c for c in expected if c in found] if set(found) <= set(expected) else found
                expected = [c for c in expected if c in found]
            if not found and table in ON_DEMAND:
                continue
            if not found:
                raise _Damaged(msg("core.salvage.table_missing", table=repr(table)))
            if found != expected:
                raise _Damaged(msg("core.salvage.table_columns", table=repr(table), columns=str(found)))
        db.execute("COMMIT")
    finally:
        db.close()


def _stand_in(path: Path, reason: Text, retry: bool = False) -> tuple[GameStore, StoreHealth]:
    """An empty store in memory that refuses every change with ``reason``; the file at ``path`` is untouched."""
    log.error("game store: %s", reason)
    store = GameStore(":memory:")
    store.refuse_writes = reason
    return store, StoreHealth(ok=False, reason=reason, writable=False, retry=retry)


def _salvage(path: Path, problem: Text) -> tuple[GameStore, StoreHealth]:
    """Move the damaged file aside, copy every readable game into a fresh file at ``path``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}{DAMAGED}{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}{DAMAGED}{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(f"{kept}{suffix}")
    games, damaged = _read_what_can_be_read(kept)
    store: GameStore | None = None
    try:
        store = GameStore(path)
        for row, moves in games:
            store.restore(row, moves)
    except (sqlite3.Error, OSError, CorruptSaveError) as error:
        if store is not None:
            store.close()  # e.g. a full disk: the kept file holds them all
        return _stand_in(path, msg("core.salvage.unwritable", name=path.name, problem=problem, kept=kept.name,
                                   error=str(error)))
    reason = msg("core.salvage.salvaged", name=path.name, problem=problem, kept=kept.name, n=len(games))
    if damaged:
        reason = msg("core.salvage.lost", salvaged=reason, n=len(damaged))
    log.error("game store: %s", reason)
    report = {"problem": str(problem), "reason": str(reason),
              "damaged": [{"id": d.id, "reason": d.reason} for d in damaged]}
    Path(f"{kept}.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return store, StoreHealth(ok=False, reason=reason, kept=str(kept), damaged=tuple(_reports(path)))


def _read_what_can_be_read(damaged_file: Path) -> tuple[list[tuple[tuple[Any, ...], list[tuple[Any, ...]]]],
                                                        list[Damaged]]:
    """Every game whose record and whole log can be read from a copy of ``damaged_file`` (which stays as it
    is), and the games found but unreadable."""
    games: list[tuple[tuple[Any, ...], list[tuple[Any, ...]]]] = []
    damaged: list[Damaged] = []
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.sqlite3"
        for suffix in ("", "-wal"):
            if Path(f"{damaged_file}{suffix}").exists():
                shutil.copyfile(f"{damaged_file}{suffix}", f"{copy}{suffix}")
        _mend_header(copy)
        try:
            db = sqlite3.connect(copy, timeout=0)
        except sqlite3.Error:
            return games, damaged
        try:
            ids = _ids(db, "SELECT id FROM games") | _ids(db, "SELECT id FROM games NOT INDEXED")
            logs = _ids(db, "SELECT DISTINCT game_id FROM moves") | _ids(db, "SELECT game_id FROM moves NOT INDEXED")
            for game_id in sorted(ids | logs):
                try:
                    row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
                    if row is None:
                        raise CorruptSaveError("its record cannot be read")
                    if len(row) != len(_COLUMNS["games"]):
                        raise CorruptSaveError(f"its record has {len(row)} fields, not {len(_COLUMNS['games'])}")
                    GameStore._record(row)
                    moves = db.execute("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)).fetchall()
                    if [m[1] for m in moves] != list(range(len(moves))):
                        raise CorruptSaveError("its move log has gaps")
                    if moves and len(moves[0]) != len(_COLUMNS["moves"]):
                        raise CorruptSaveError("its move log cannot be read")
                    games.append((tuple(row), [tuple(m) for m in moves]))
                except (sqlite3.Error, CorruptSaveError) as error:
                    damaged.append(Damaged(str(game_id), f"cannot be read from the damaged file: {error}"))
        finally:
            db.close()
    return games, damaged


PAGE = 4096
"""The page size the companion's files have (SQLite's default)."""


def _mend_header(copy: Path) -> None:
    """Make a copy of a damaged file readable where its first 100 bytes are the damage: a garbled header is
    replaced by the one the companion writes (UTF-8, pages of ``PAGE`` bytes, schema ``SCHEMA_VERSION``), and the
    page count it states is set to the pages the (maybe truncated) file holds."""
    data = bytearray(copy.read_bytes())
    if len(data) < 100:
        return
    if data[:16] != b"SQLite format 3\x00":
        header = bytearray(100)
        header[:16] = b"SQLite format 3\x00"
        header[16:18] = PAGE.to_bytes(2, "big")
        header[18:24] = bytes([1, 1, 0, 64, 32, 32])  # legacy journal (the WAL, if any, is read as is), payloads
        header[24:28] = header[92:96] = (1).to_bytes(4, "big")  # change counter, valid-for
        header[40:44] = (1).to_bytes(4, "big")  # schema cookie
        header[44:48] = (4).to_bytes(4, "big")  # schema format
        header[56:60] = (1).to_bytes(4, "big")  # UTF-8
        header[60:64] = SCHEMA_VERSION.to_bytes(4, "big")
        header[96:100] = (3_045_000).to_bytes(4, "big")
        data[:100] = header
    size = int.from_bytes(data[16:18], "big")
    page = 65536 if size == 1 else size
    if page >= 512:
        data[28:32] = (len(data) // page).to_bytes(4, "big")
        data[92:96] = data[24:28]  # the page count is valid for this change counter
    copy.write_bytes(bytes(data))


def _ids(db: sqlite3.Connection, query: str) -> set[str]:
    """The game ids ``query`` yields, or as many as it yields before the damage stops it."""
    found: set[str] = set()
    try:
        for (game_id,) in db.execute(query):
            if isinstance(game_id, str):
                found.add(game_id)
    except sqlite3.Error:
        pass
    return found


def _reports(path: Path) -> list[Damaged]:
    """The games earlier salvages could not read (their ``.json`` reports beside the kept files)."""
    found: list[Damaged] = []
    for report in sorted(path.parent.glob(f"{path.name}{DAMAGED}*.json")):
        try:
            data = json.loads(report.read_text(encoding="utf-8"))
            kept = report.name.removesuffix(".json")
            found += [Damaged(str(d["id"]), f"{d['reason']} (in {kept})") for d in data["damaged"]]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found
