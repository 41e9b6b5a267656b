"""Where the companion keeps its files."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.paths import default_data_dir, default_db_path


def test_keydom_data_dir_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "mine"
    assert (tmp_path / "mine").is_dir()
    assert default_db_path() == tmp_path / "mine" / "games.sqlite3"


def test_xdg_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KEYDOM_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "keydom-companion"
    assert default_data_dir().is_dir()


def test_home_fallback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KEYDOM_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / ".local" / "share" / "keydom-companion"
    assert default_data_dir().is_dir()
