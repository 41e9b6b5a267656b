"""The service over a damaged store (issue 11, docs/store.md): it starts, the index page and GET /api/games say
what is wrong, damaged games are listed with the reason while the others play on, and a full disk refuses the move
with 507 and loses nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.errors import DiskFullError
from companion.store import GameStore
from web import create_app
from tests.web.apikit import offered, post_move, version_of


def make(data: Path) -> Flask:
    return create_app({"TESTING": True, "DATA_DIR": str(data), "CAMERA": "off", "STORE_LOCK_WAIT": 0.2})


@pytest.fixture
def two_games(tmp_path: Path) -> tuple[str, str]:
    """A Key Harvest and a La Granja game stored in ``tmp_path`` by a service that then stopped."""
    app = make(tmp_path)
    client = app.test_client()
    first = client.post("/api/games", json={"players": ["Alice", "Bob"]}).get_json()["id"]
    second = client.post("/api/games", json={"game": "la-granja", "players": ["Ann", "Bo"]}).get_json()["id"]
    app.extensions["keydom_table"].close()
    return first, second


@pytest.fixture
def restarted(tmp_path: Path, two_games: tuple[str, str]) -> Iterator[Any]:
    """Start the service again on ``tmp_path`` (after the test damaged it): its test client."""
    apps: list[Flask] = []

    def start() -> FlaskClient:
        apps.append(make(tmp_path))
        return apps[-1].test_client()

    yield start
    for app in apps:
        app.extensions["keydom_table"].close()


def sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    try:
        for statement in statements:
            db.execute(statement)
        db.commit()
    finally:
        db.close()


def test_a_damaged_move_log_lists_that_game_and_the_other_plays_on(tmp_path: Path, two_games: tuple[str, str],
                                                                   restarted: Any) -> None:
    damaged, fine = two_games
    sql(tmp_path / "games.sqlite3", f"UPDATE moves SET text = 'garbage' WHERE game_id = '{damaged}' AND ply = 2")
    client = restarted()
    games = client.get("/api/games").get_json()
    assert [g["id"] for g in games["games"]] == [fine]
    assert games["damaged"][0]["id"] == damaged and "cannot be replayed" in games["damaged"][0]["reason"]
    assert games["store"]["ok"]
    answer = client.get(f"/api/games/{damaged}")
    assert answer.status_code == 500 and "cannot be replayed" in answer.get_json()["error"]["reason"]
    assert damaged in client.get("/").get_data(as_text=True)
    assert client.get(f"/api/games/{fine}").status_code == 200


def test_a_damaged_record_lists_that_game_and_the_other_plays_on(tmp_path: Path, two_games: tuple[str, str],
                                                                 restarted: Any) -> None:
    damaged, fine = two_games
    sql(tmp_path / "games.sqlite3", f"UPDATE games SET colours = '[1' WHERE id = '{damaged}'")
    client = restarted()
    games = client.get("/api/games").get_json()
    assert [g["id"] for g in games["games"]] == [fine]
    assert [d["id"] for d in games["damaged"]] == [damaged] and "damaged record" in games["damaged"][0]["reason"]


def test_a_foreign_file_is_reported_and_no_game_is_written(tmp_path: Path, restarted: Any) -> None:
    for path in tmp_path.glob("games.sqlite3*"):
        path.unlink()
    sql(tmp_path / "games.sqlite3", "CREATE TABLE photos (name TEXT)")
    before = (tmp_path / "games.sqlite3").read_bytes()
    client = restarted()
    store = client.get("/api/games").get_json()["store"]
    assert not store["ok"] and not store["writable"] and "another program" in store["reason"]
    refused = client.post("/api/games", json={"players": ["Alice", "Bob"]})
    assert refused.status_code == 503 and "will not write to it" in refused.get_json()["error"]["reason"]
    page = client.get("/").get_data(as_text=True)
    assert "another program" in page and "will not write to it" in page
    assert (tmp_path / "games.sqlite3").read_bytes() == before


def test_a_truncated_file_starts_with_what_could_be_read(tmp_path: Path, two_games: tuple[str, str],
                                                         restarted: Any) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(path.read_bytes()[:4096 * 2])
    client = restarted()
    games = client.get("/api/games").get_json()
    assert not games["store"]["ok"] and "moved to games.sqlite3.damaged-" in games["store"]["reason"]
    assert client.post("/api/games", json={"players": ["Alice", "Bob"]}).status_code == 201


def test_a_locked_store_is_reported_then_used_once_free(tmp_path: Path, two_games: tuple[str, str],
                                                        restarted: Any) -> None:
    other = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    other.execute("PRAGMA journal_mode=DELETE")
    other.execute("BEGIN EXCLUSIVE")
    try:
        client = restarted()
        store = client.get("/api/games").get_json()["store"]
        assert not store["ok"] and "locked by another program" in store["reason"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    games = client.get("/api/games").get_json()
    assert games["store"]["ok"] and {g["id"] for g in games["games"]} == set(two_games)


def test_a_full_disk_refuses_the_move_with_507_and_loses_nothing(app: Flask, client: FlaskClient,
                                                                 game: dict[str, Any],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    before = client.get(f"/api/games/{game['id']}").get_json()
    move = offered(client, before["id"])[0]

    def full(*args: Any, **kwargs: Any) -> int:
        raise DiskFullError("the disk is full: the move was not saved")

    with monkeypatch.context() as patch:
        patch.setattr(GameStore, "append", full)
        answer = post_move(client, game["id"], move)
    assert answer.status_code == 507
    assert answer.get_json()["error"]["reason"] == "the disk is full: the move was not saved"
    assert client.get(f"/api/games/{game['id']}").get_json() == before
    assert post_move(client, game["id"], move).status_code == 200  # room again: the same move is saved


def test_a_full_disk_in_sqlite_itself(app: Flask, client: FlaskClient, game: dict[str, Any]) -> None:
    store: GameStore = app.extensions["keydom_table"].store
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count={pages}")
    answer = client.post("/api/games", json={"players": [f"{'x' * 39}{n}" for n in range(4)]})
    for _ in range(50):  # new games until the pages run out
        if answer.status_code != 201:
            break
        answer = client.post("/api/games", json={"players": [f"{'x' * 39}{n}" for n in range(4)]})
    assert answer.status_code == 507
    assert answer.get_json()["error"]["reason"] == "the disk is full: the new game was not saved"
    assert version_of(client, game["id"]) == game["version"]


def test_a_full_disk_refuses_a_data_pack_with_507(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    pack = client.get("/api/data/la-granja").get_json()["data"]

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("os.fsync", full)
    answer = client.put("/api/data/la-granja", json=pack)
    assert answer.status_code == 507 and answer.get_json()["error"]["reason"] == "the disk is full: the data was not saved"
    assert not client.get("/api/data/la-granja").get_json()["installed"]
