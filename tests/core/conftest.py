"""Fixtures for the core tests: the toy game registered for the test's duration, and a store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.core.toy_game import OverTheTop

import companion.games as registry
from companion.store import GameStore


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> OverTheTop:
    """Register the toy game as "toy"; the registry is restored afterwards."""
    game = OverTheTop()
    monkeypatch.setitem(registry.GAMES, game.name, game)
    return game


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[GameStore]:
    with GameStore(db_path) as opened:
        yield opened
