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


def test_install_json_checks_the_file_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    import json

    from companion.core.errors import MalformedInputError
    from companion.paths import install_json

    target = tmp_path / "data.json"
    target.write_text('{"good": true}\n')

    def check(path: Path) -> None:
        if not json.loads(path.read_text()).get("good"):
            raise MalformedInputError("not good")

    with pytest.raises(MalformedInputError, match="not good"):
        install_json(target, {"good": False}, check)
    assert json.loads(target.read_text()) == {"good": True} and [p.name for p in tmp_path.iterdir()] == ["data.json"]
    install_json(target, {"good": 2}, check)
    assert json.loads(target.read_text()) == {"good": 2}
