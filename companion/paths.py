"""Where the companion keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "keydom-companion"


def default_data_dir() -> Path:
    """``$KEYDOM_DATA_DIR``, else ``$XDG_DATA_HOME/keydom-companion``, else
    ``~/.local/share/keydom-companion``; created if missing."""
    explicit = os.environ.get("KEYDOM_DATA_DIR")
    xdg = os.environ.get("XDG_DATA_HOME")
    if explicit:
        path = Path(explicit).expanduser()
    elif xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore relative paths
        path = Path(xdg) / APP_NAME
    else:
        path = Path.home() / ".local" / "share" / APP_NAME
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db_path() -> Path:
    """The SQLite file holding the saved games."""
    return default_data_dir() / "games.sqlite3"
