"""A damaged store says so and keeps the rest (issue 11, docs/store.md): one test per kind of damage, with the
documented outcome. The service starts in every case; undamaged games are never lost; the damaged file is never
deleted (it is moved aside, or left untouched when it is not the companion's)."""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import DiskFullError, StoreError
from companion.salvage import StoreHealth, open_store
from companion.store import GameStore

GAMES = 30
MOVES = 20


def fill(path: Path) -> dict[str, tuple[Any, list[Any]]]:
    """A store of ``GAMES`` games with ``MOVES`` moves each (texts long enough to span many pages); every game's
    record row and move rows by id."""
    with GameStore(path) as store:
        for n in range(GAMES):
            game_id = store.create("toy", [f"A{n}", f"B{n}"], {}, seed=f"seed{n}")
            store.append(game_id, 0, [(f"move {n}.{ply} " + "x" * 150, False) for ply in range(MOVES)])
    return contents(path)


def contents(path: Path) -> dict[str, tuple[Any, list[Any]]]:
    db = sqlite3.connect(path)
    try:
        return {row[0]: (row, db.execute("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (row[0],)).fetchall())
                for row in db.execute("SELECT * FROM games")}
    finally:
        db.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def original(db_path: Path) -> dict[str, tuple[Any, list[Any]]]:
    return fill(db_path)


@pytest.fixture
def opened(db_path: Path) -> Iterator[list[tuple[GameStore, StoreHealth]]]:
    """``open_store`` results, closed afterwards."""
    found: list[tuple[GameStore, StoreHealth]] = []
    yield found
    for store, _ in found:
        store.close()


def open_checked(db_path: Path, opened: list[tuple[GameStore, StoreHealth]], wait: float = 0.2) -> tuple[
        GameStore, StoreHealth]:
    result = open_store(db_path, wait)
    opened.append(result)
    return result


def kept_file(db_path: Path) -> Path:
    (kept,) = [p for p in db_path.parent.glob(f"{db_path.name}.damaged-*") if not p.name.endswith((".json", "-wal",
                                                                                                   "-shm"))]
    return kept


def salvaged_exactly(store: GameStore, original: dict[str, tuple[Any, list[Any]]]) -> set[str]:
    """The salvaged games, each checked to be byte for byte what it was."""
    now = contents(store.path)
    for game_id, (row, moves) in now.items():
        assert original[game_id] == (row, moves)
    return set(now)


def test_a_healthy_store_is_ok(db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    store, health = open_checked(db_path, opened)
    assert health.ok and health.writable and not health.damaged
    assert len(store.list()) == GAMES


def test_a_missing_or_empty_file_is_a_new_store(db_path: Path, opened: list[Any]) -> None:
    db_path.write_bytes(b"")
    store, health = open_checked(db_path, opened)
    assert health.ok and store.list() == []
    store.create("toy", ["A", "B"], {}, seed="s")
    assert len(store.list()) == 1


def test_a_truncated_file_is_moved_aside_and_its_readable_games_kept(db_path: Path, original: dict[str, Any],
                                                                      opened: list[Any]) -> None:
    data = db_path.read_bytes()
    db_path.write_bytes(data[: len(data) * 2 // 3])
    before = digest(db_path)
    store, health = open_checked(db_path, opened)
    assert not health.ok and health.writable and "was damaged" in str(health.reason or "")
    assert digest(kept_file(db_path)) == before  # kept as it was
    saved = salvaged_exactly(store, original)
    assert saved and len(saved) < GAMES
    assert saved.isdisjoint(d.id for d in health.damaged)
    store.create("toy", ["A", "B"], {}, seed="s")  # the new file plays on


def test_garbage_pages_in_the_middle_lose_only_the_games_on_them(db_path: Path, original: dict[str, Any],
                                                                  opened: list[Any]) -> None:
    data = bytearray(db_path.read_bytes())
    page = 4096
    middle = len(data) // page // 2
    data[middle * page:(middle + 2) * page] = random.Random(1).randbytes(2 * page)
    db_path.write_bytes(bytes(data))
    store, health = open_checked(db_path, opened)
    assert not health.ok and "was damaged" in str(health.reason or "")
    saved = salvaged_exactly(store, original)
    assert len(saved) >= GAMES - 4  # two pages hold the moves of a few games at most
    assert {d.id for d in health.damaged} | saved == set(original)  # the rest are named as damaged
    assert all("cannot be read" in d.reason for d in health.damaged)


def test_a_garbage_header_is_moved_aside_and_every_game_salvaged(db_path: Path, original: dict[str, Any],
                                                                  opened: list[Any]) -> None:
    data = bytearray(db_path.read_bytes())
    data[:100] = b"\xde\xad" * 50
    db_path.write_bytes(bytes(data))
    store, health = open_checked(db_path, opened)
    assert not health.ok and health.writable and "does not start like an SQLite file" in str(health.reason or "")
    assert kept_file(db_path).read_bytes() == bytes(data)
    assert salvaged_exactly(store, original) == set(original)  # the companion's own header is written back


def test_a_foreign_sqlite_file_is_never_touched(db_path: Path, opened: list[Any]) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
        db.execute("INSERT INTO photos VALUES ('holiday.jpg')")
    db.close()
    before, stat = digest(db_path), db_path.stat()
    store, health = open_checked(db_path, opened)
    assert not health.ok and not health.writable
    assert "another program" in str(health.reason or "") and "will not write to it" in str(health.reason or "")
    with pytest.raises(StoreError, match="not saved"):
        store.create("toy", ["A", "B"], {}, seed="s")
    assert digest(db_path) == before and db_path.stat().st_mtime_ns == stat.st_mtime_ns
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]


def test_a_newer_schema_is_never_touched(db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA user_version=3")
    db.close()
    before = digest(db_path)
    store, health = open_checked(db_path, opened)
    assert not health.ok and not health.writable and "newer companion" in str(health.reason or "")
    assert digest(db_path) == before


def test_a_locked_file_is_waited_for_then_reported(db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("PRAGMA journal_mode=DELETE")
    other.execute("BEGIN EXCLUSIVE")
    try:
        store, health = open_checked(db_path, opened)
        assert not health.ok and health.retry and "locked by another program" in str(health.reason or "")
    finally:
        other.execute("ROLLBACK")
        other.close()
    store, health = open_checked(db_path, opened)
    assert health.ok and len(store.list()) == GAMES
    assert not list(db_path.parent.glob("*.damaged-*"))


@pytest.mark.parametrize("table", ["moves", "games"])
def test_a_missing_table_names_every_game_damaged_and_keeps_the_file(db_path: Path, original: dict[str, Any],
                                                                      opened: list[Any], table: str) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute(f"DROP TABLE {table}")
    db.close()
    store, health = open_checked(db_path, opened)
    assert not health.ok and f"table {table!r} is missing" in str(health.reason or "")
    assert {d.id for d in health.damaged} == set(original) and store.list() == []
    assert kept_file(db_path).exists()


def test_a_damaged_schema_is_moved_aside(db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("ALTER TABLE games DROP COLUMN colours")
    db.close()
    store, health = open_checked(db_path, opened)
    assert not health.ok and "has columns" in str(health.reason or "")
    assert {d.id for d in health.damaged} == set(original)
    assert kept_file(db_path).exists()


def test_a_garbled_schema_text_is_moved_aside(db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA writable_schema=ON")
        db.execute("UPDATE sqlite_master SET sql = 'CREATE TABLE moves (' WHERE name = 'moves'")
    db.close()
    store, health = open_checked(db_path, opened)
    assert not health.ok and health.writable and "malformed" in str(health.reason or "")
    assert kept_file(db_path).exists() and store.list() == []


def test_one_damaged_record_is_named_and_the_others_listed(db_path: Path, original: dict[str, Any],
                                                            opened: list[Any]) -> None:
    victim = sorted(original)[3]
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET players = '{{' WHERE id = ?", (victim,))
    db.close()
    store, health = open_checked(db_path, opened)
    assert health.ok  # the file is sound: only one record is not
    assert [d.id for d in store.damaged()] == [victim] and "damaged record" in store.damaged()[0].reason
    assert {r.id for r in store.list()} == set(original) - {victim}


def test_the_damaged_games_are_still_named_after_a_restart(db_path: Path, original: dict[str, Any],
                                                             opened: list[Any]) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TABLE moves")
    db.close()
    store, first = open_checked(db_path, opened)
    store.close()
    _, again = open_checked(db_path, opened)
    assert again.ok and {d.id for d in again.damaged} == {d.id for d in first.damaged}
    assert all(".damaged-" in d.reason for d in again.damaged)


def test_a_full_disk_refuses_the_move_and_loses_nothing(db_path: Path, original: dict[str, Any]) -> None:
    game_id = sorted(original)[0]
    with GameStore(db_path) as store:
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count={pages}")
        version = store.version(game_id)
        with pytest.raises(DiskFullError, match="the disk is full: the move was not saved"):
            store.append(game_id, MOVES, [("big " + "y" * 20_000, False)] * 5, expected=version)
        assert store.version(game_id) == version and len(store.moves(game_id)) == MOVES
        store._conn.execute(f"PRAGMA max_page_count={pages * 10}")
        store.append(game_id, MOVES, [("next", False)], expected=version)  # room again: it plays on
    assert contents(db_path)[game_id][1][:MOVES] == original[game_id][1]


def test_nothing_is_ever_deleted(db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TABLE moves")
    db.close()
    before = digest(db_path)
    open_checked(db_path, opened)
    assert digest(kept_file(db_path)) == before
    assert os.path.exists(f"{kept_file(db_path)}.json")


def test_a_write_lock_on_a_wal_file_lets_games_be_read_and_refuses_writes_clearly(
        db_path: Path, original: dict[str, Any], opened: list[Any]) -> None:
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process in the middle of a write (the file is in WAL mode)
    try:
        store, health = open_checked(db_path, opened)
        assert health.ok and len(store.list()) == GAMES  # readers are not blocked by a writer in WAL mode
        game_id = sorted(original)[0]
        with pytest.raises(StoreError, match="another program holds the game store: the move was not saved"):
            store.append(game_id, MOVES, [("next", False)], expected=store.version(game_id))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert contents(db_path) == original


def test_a_salvage_that_cannot_write_a_new_file_still_starts(db_path: Path, original: dict[str, Any],
                                                             opened: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TABLE moves")
    db.close()

    def full(self: GameStore, row: Any, moves: Any) -> None:
        raise DiskFullError("the disk is full: the salvaged game was not saved")

    monkeypatch.setattr(GameStore, "restore", full)
    monkeypatch.setattr("companion.salvage._read_what_can_be_read", lambda kept: ([((), [])], []))
    store, health = open_checked(db_path, opened)
    assert not health.ok and not health.writable and "a new store cannot be written" in str(health.reason or "")
    assert kept_file(db_path).exists()


def test_the_stores_health_reads_in_german_too(tmp_path: Path) -> None:
    """Issue 13: the reason the tablet's start page shows (``say(store.reason)``) is a message, German for a
    German table; the JSON keeps the English ``reason`` and adds the ``message``."""
    from companion.core.messages import Message, render

    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database" * 300)
    _, health = open_store(path)
    assert isinstance(health.reason, Message)
    german = render(health.reason, "de")
    assert "beschädigt" in german and "aufbewahrt, nie gelöscht" in german and "was damaged" not in german
    assert health.to_json()["reason"] == str(health.reason) and health.to_json()["message"]["id"] == health.reason.id
