"""The registry of games, found by name."""

from __future__ import annotations

from typing import Any

from companion.core.errors import UnknownGameError
from companion.core.game import Game


def _load() -> dict[str, Game[Any, Any]]:
    from companion.games.key_harvest import KeyHarvest
    from companion.games.la_granja import LaGranja

    games: list[Game[Any, Any]] = [KeyHarvest(), LaGranja()]
    return {game.name: game for game in games}


GAMES: dict[str, Game[Any, Any]] = {}


def registered() -> list[Game[Any, Any]]:
    """Every registered game, in registry order."""
    if not GAMES:
        GAMES.update(_load())
    return list(GAMES.values())


def find_game(name: str) -> Game[Any, Any]:
    """The game registered under ``name`` (for example ``key-harvest``)."""
    registered()
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
