"""Every data form of every registered game: (game, section), for the browser tests of /data."""

from __future__ import annotations

from companion.games import games

SECTIONS = [(game.name, section.name) for game in games() if (pack := game.data_pack()) is not None
            for section in pack.schema.sections]
