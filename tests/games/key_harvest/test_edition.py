"""A stored game keeps the board layout it was started on."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.core.errors import CorruptSaveError
from companion.games.key_harvest import KeyHarvest, user_layout_path
from companion.session import Session
from companion.store import GameStore
from tests.games.key_harvest.table import t20_layout


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    import companion.games as registry

    monkeypatch.setattr(registry, "GAMES", {})  # a fresh KeyHarvest() that reads the user layout
    return tmp_path


def test_installing_a_layout_does_not_change_a_stored_game(data_dir: Path) -> None:
    path = data_dir / "games.sqlite3"
    with GameStore(path) as store:
        session = Session.new(store, "key-harvest", ["Alice", "Bob"])
        session.play("end")
        before, game_id = session.state, session.id
        assert session.game.layout.provisional
    user_layout_path().write_text(json.dumps(t20_layout().to_json()))  # a different board is installed
    import companion.games as registry

    registry.GAMES.clear()
    with GameStore(path) as store:
        reopened = Session.open(store, game_id)
        assert reopened.state == before
        assert reopened.game.layout == before.layout
        newer = Session.new(store, "key-harvest", ["Cara", "Dan"])
        assert newer.game.layout.name == "T20" and not newer.game.data_warnings()


def test_a_damaged_stored_layout_is_a_corrupt_save(data_dir: Path) -> None:
    path = data_dir / "games.sqlite3"
    with GameStore(path) as store:
        game_id = Session.new(store, "key-harvest", ["Alice", "Bob"]).id
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET edition = ? WHERE id = ?", (json.dumps({"layout": {"spaces": []}}), game_id))
    with GameStore(path) as store, pytest.raises(CorruptSaveError, match=game_id):
        Session.open(store, game_id)


def test_edition_round_trip() -> None:
    game = KeyHarvest(t20_layout())
    assert game.with_edition(game.edition()).layout == game.layout
