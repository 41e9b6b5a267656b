"""Issue 10: a save file from before versions and one-move decisions opens, is upgraded once, and plays on.

The file is built as the previous release wrote it (schema 1, no version, no notation) holding a Key Harvest game
recorded with the old code in the old notation (tests/games/key_harvest/data/old-log-*.json).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.games.key_harvest.upgrade import upgrade_log
from companion.session import Session
from companion.store import GameStore

OLD_LOGS = Path(__file__).parent / "games" / "key_harvest" / "data"

SCHEMA_1 = """
CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, options TEXT NOT NULL,
    seed TEXT NOT NULL, edition TEXT NOT NULL, colours TEXT NOT NULL, status TEXT NOT NULL, created TEXT NOT NULL,
    updated TEXT NOT NULL);
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL,
    text TEXT NOT NULL, is_chance INTEGER NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game_id, ply));
PRAGMA user_version=1;
"""


def old_save(path: Path, log: str) -> list[tuple[str, bool]]:
    data = json.loads((OLD_LOGS / log).read_text())
    moves = [(text, bool(chance)) for text, chance in data["moves"]]
    with sqlite3.connect(path) as raw:
        raw.executescript(SCHEMA_1)
        raw.execute("INSERT INTO games VALUES ('oldgame', 'key-harvest', ?, ?, 'old-seed', ?, ?, 'playing', 't', 't')",
                    (json.dumps(data["players"]), json.dumps(data["options"]), json.dumps(data["edition"]),
                     json.dumps(["#c0392b", "#2471a3", "#d4ac0d", "#239b56"][:len(data["players"])])))
        raw.executemany("INSERT INTO moves VALUES ('oldgame', ?, ?, ?, 't')",
                        [(ply, text, int(chance)) for ply, (text, chance) in enumerate(moves)])
    return moves


@pytest.mark.parametrize("log", ["old-log-4p-mid-pay.json", "old-log-3p-mid-bid.json", "old-log-2p.json"])
def test_an_old_save_opens_is_upgraded_once_and_plays_on(tmp_path: Path, log: str) -> None:
    path = tmp_path / "games.sqlite3"
    moves = old_save(path, log)
    with GameStore(path) as store:
        assert store.get("oldgame").notation == 1
        session = Session.open(store, "oldgame")
        record = store.get("oldgame")
        assert record.notation == 2 and session.version == record.version
        stored = [(text, chance) for _, text, chance in store.moves("oldgame")]
        upgraded = upgrade_log(moves)
        assert stored[:len(upgraded)] == upgraded  # then only the draws a crash had cut short, if any
        assert not any(text.startswith("add ") for text, _ in stored)
        if not session.is_over:
            legal = session.game.legal_moves(session.state)
            session.play(legal[0], session.version)  # the game goes on in the new notation
        history, version = session.history, session.version
        again = Session.open(store, "oldgame")  # opened again: nothing is rewritten a second time
        assert again.history == history and again.version == version
    assert (tmp_path / "games.sqlite3.v1.bak").exists()  # the file as it was, kept aside before the migration
