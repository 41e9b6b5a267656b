"""Keyper (Richard Breese, R&D Games) on the companion's core: 2 to 4 players (spec ../shared/rules/keyper.md).

This package so far holds the printed data (``data.py``, ``data/``), the tiles' scoring rules (``tiles.py``), the
final score by best assignment (``scoring.py``) and the table snapshot scorer (``snapshot.py``); the rules engine
comes next (issue 14).
"""

from __future__ import annotations

from pathlib import Path

from companion.core.messages import add_catalog_folder

add_catalog_folder(Path(__file__).resolve().parent / "locale")  # the registry adds it too, once registered
