"""Where the companion keeps its files."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def install_json(target: Path, data: Any, check: Callable[[Path], object]) -> None:
    """Write ``data`` next to ``target``, check that file with the core's loader, then move it in place.

    A refused file is removed and ``target`` is untouched; a crash midway leaves at most a stray temp file.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, ensure_ascii=False)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        check(Path(temp))
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
