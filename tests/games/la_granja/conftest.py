"""Every La Granja test runs with an empty data folder: the shipped data pack, whatever the machine has installed."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def empty_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
