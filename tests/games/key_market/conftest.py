"""Key Market's tests play on the shipped data pack, with the game's message catalog read."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.games.key_market as key_market
from companion.core.messages import add_catalog_folder
from companion.games.key_market.data import Edition, shipped_edition

add_catalog_folder(Path(key_market.__file__).parent / "locale")


@pytest.fixture(scope="session")
def edition() -> Edition:
    return shipped_edition()
