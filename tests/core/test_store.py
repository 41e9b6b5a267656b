"""The SQLite game store: records, move logs, durability settings, damaged files."""

from __future__ import annotations

import re
import sqlite3
import threading
from pathlib import Path

import pytest

from companion.core.errors import CorruptSaveError, StaleMoveError, UnknownGameError
from companion.store import OVER, PLAYING, SCHEMA_VERSION, GameStore


def test_create_and_get(store: GameStore) -> None:
    game_id = store.create("toy", ["Ann", "Bob"], {"target": "15"}, "s33d")
    record = store.get(game_id)
    assert (record.id, record.game, record.players, record.options, record.seed, record.status) == (
        game_id, "toy", ("Ann", "Bob"), {"target": "15"}, "s33d", PLAYING,
    )
    assert record.created == record.updated
    assert len(game_id) >= 12 and game_id.replace("-", "").replace("_", "").isalnum()
    assert store.create("toy", ["Ann", "Bob"], {}, "s33d") != game_id


def test_record_is_frozen(store: GameStore) -> None:
    record = store.get(store.create("toy", ["Ann", "Bob"], {}, "x"))
    with pytest.raises(AttributeError):
        record.status = OVER  # type: ignore[misc]


def test_unknown_id(store: GameStore) -> None:
    for call in (
        lambda: store.get("nope"),
        lambda: store.moves("nope"),
        lambda: store.append("nope", 0, [("draw", False)]),
        lambda: store.version("nope"),
        lambda: store.truncate("nope", 0),
        lambda: store.set_status("nope", OVER),
        lambda: store.delete("nope"),
    ):
        with pytest.raises(UnknownGameError):
            call()


def test_moves_append_truncate(store: GameStore) -> None:
    game_id = store.create("toy", ["Ann", "Bob"], {}, "x")
    assert store.moves(game_id) == []
    assert store.append(game_id, 0, [("token 3", True)]) == 1
    assert store.append(game_id, 1, [("draw", False), ("token 5", True)]) == 2
    assert store.moves(game_id) == [(0, "token 3", True), (1, "draw", False), (2, "token 5", True)]
    with pytest.raises(StaleMoveError):  # ply 2 was written already: the whole batch is refused
        store.append(game_id, 2, [("stop", False), ("token 1", True)])
    assert len(store.moves(game_id)) == 3
    store.truncate(game_id, 1)
    assert store.moves(game_id) == [(0, "token 3", True)]


def test_a_change_from_an_older_version_is_refused_whole(store: GameStore) -> None:
    game_id = store.create("toy", ["Ann", "Bob"], {}, "x")
    assert store.version(game_id) == 0
    assert store.append(game_id, 0, [("token 3", True)], expected=0) == 1
    with pytest.raises(StaleMoveError) as stale:
        store.append(game_id, 1, [("draw", False), ("token 4", True)], expected=0)
    assert stale.value.version == 1
    with pytest.raises(StaleMoveError):
        store.truncate(game_id, 0, expected=0)
    assert store.moves(game_id) == [(0, "token 3", True)] and store.version(game_id) == 1
    assert store.truncate(game_id, 0, expected=1) == 2


def test_a_schema_1_file_is_backed_up_and_migrated(db_path: Path) -> None:
    with sqlite3.connect(db_path) as raw:  # the schema of the previous release, with one game of 2 moves
        raw.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, options TEXT NOT NULL,"
            " seed TEXT NOT NULL, edition TEXT NOT NULL, colours TEXT NOT NULL, status TEXT NOT NULL,"
            " created TEXT NOT NULL, updated TEXT NOT NULL);"
            "CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL,"
            " text TEXT NOT NULL, is_chance INTEGER NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game_id, ply));"
            "INSERT INTO games VALUES ('g1', 'toy', '[\"A\", \"B\"]', '{}', 's', '{}', '[]', 'playing', 't', 't');"
            "INSERT INTO moves VALUES ('g1', 0, 'token 3', 1, 't'), ('g1', 1, 'draw', 0, 't');"
            "PRAGMA user_version=1;"
        )
    with GameStore(db_path) as store:
        assert store.get("g1").version == 2
        assert store.moves("g1") == [(0, "token 3", True), (1, "draw", False)]
    backup = db_path.with_name(db_path.name + ".v1.bak")
    with sqlite3.connect(backup) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (1,)
        assert raw.execute("SELECT count(*) FROM moves").fetchone() == (2,)


def test_status_and_updated(store: GameStore) -> None:
    game_id = store.create("toy", ["Ann", "Bob"], {}, "x")
    store.set_status(game_id, OVER)
    record = store.get(game_id)
    assert record.status == OVER and record.updated > record.created


def test_list_newest_first_and_delete(store: GameStore) -> None:
    ids = [store.create("toy", ["Ann", "Bob"], {}, str(n)) for n in range(4)]
    store.append(ids[1], 0, [("token 1", True)])
    assert [record.id for record in store.list()] == ids[::-1]
    store.delete(ids[1])
    assert [record.id for record in store.list()] == [ids[3], ids[2], ids[0]]
    with pytest.raises(UnknownGameError):
        store.moves(ids[1])
    with sqlite3.connect(store.path) as raw:
        assert raw.execute("SELECT count(*) FROM moves").fetchone() == (0,)


def test_writes_are_committed(store: GameStore, db_path: Path) -> None:
    game_id = store.create("toy", ["Ann", "Bob"], {}, "x")
    store.append(game_id, 0, [("token 2", True)])
    with GameStore(db_path) as other:
        assert other.get(game_id).players == ("Ann", "Bob")
        assert other.moves(game_id) == [(0, "token 2", True)]


def test_durability_settings(store: GameStore, db_path: Path) -> None:
    assert store._conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_close_is_idempotent_and_final(db_path: Path) -> None:
    store = GameStore(db_path)
    store.close()
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):
        store.list()
    with GameStore(db_path) as again:
        pass
    with pytest.raises(sqlite3.ProgrammingError):
        again.list()


def test_empty_file_becomes_a_store(db_path: Path) -> None:
    db_path.touch()
    with GameStore(db_path) as store:
        assert store.list() == []


def test_garbage_file(db_path: Path) -> None:
    db_path.write_bytes(b"this is a shopping list, not a saved game\n" * 200)
    with pytest.raises(CorruptSaveError, match="not a companion save file"):
        GameStore(db_path)


def test_foreign_sqlite_file(db_path: Path) -> None:
    with sqlite3.connect(db_path) as raw:
        raw.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(CorruptSaveError, match="some other program"):
        GameStore(db_path)


def test_damaged_schema(db_path: Path) -> None:
    GameStore(db_path).close()
    with sqlite3.connect(db_path) as raw:
        raw.execute("ALTER TABLE moves DROP COLUMN created")
    with pytest.raises(CorruptSaveError, match="damaged schema"):
        GameStore(db_path)


def test_newer_schema(db_path: Path) -> None:
    GameStore(db_path).close()
    with sqlite3.connect(db_path) as raw:
        raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(CorruptSaveError, match="newer companion"):
        GameStore(db_path)


def test_damaged_record(store: GameStore) -> None:
    game_id = store.create("toy", ["Ann", "Bob"], {}, "x")
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE games SET players = '{not json' WHERE id = ?", (game_id,))
    with pytest.raises(CorruptSaveError, match=game_id):
        store.get(game_id)


def test_shared_between_threads(store: GameStore) -> None:
    def play(n: int) -> None:
        game_id = store.create("toy", [f"P{n}", "Q"], {}, str(n))
        for ply in range(20):
            store.append(game_id, ply, [("draw", False)], expected=ply)

    threads = [threading.Thread(target=play, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    records = store.list()
    assert len(records) == 8
    assert all(len(store.moves(record.id)) == 20 for record in records)


def test_game_ids_are_safe_on_a_command_line_and_in_a_url(store: GameStore) -> None:
    """An id starting with "-" made `companion play --resume ID` read it as an option."""
    ids = {store.create("toy", ["A", "B"], {}, "seed") for _ in range(300)}
    assert len(ids) == 300
    assert all(re.fullmatch(r"[a-z2-7]{16}", game_id) for game_id in ids)
