"""The registry of games, found by name.

Each game is one package here (its rules) and one folder ``web/games/<package>/`` (its web view); a new game
is one more line in ``PACKAGES``.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from companion.core.errors import UnknownGameError
from companion.core.game import Game
from companion.core.messages import add_catalog_folder, msg

PACKAGES = (
    "key_harvest",
    "la_granja",
    "keyper",
    "key_market",
)
"""The games' packages, the default game first; each exports its game class as ``GAME``."""

GAMES: dict[str, Game[Any, Any]] = {}


def _registered() -> dict[str, Game[Any, Any]]:
    """``GAMES``, filled from ``PACKAGES`` on the first call."""
    if not GAMES:
        for package in PACKAGES:
            module = import_module(f"{__name__}.{package}")
            game: Game[Any, Any] = module.GAME()
            GAMES[game.name] = game
            add_catalog_folder(Path(module.__file__ or "").parent / "locale")  # the game's messages
    return GAMES


def games() -> list[Game[Any, Any]]:
    """Every registered game, the default first."""
    return list(_registered().values())


def find_game(name: str) -> Game[Any, Any]:
    """The game registered under ``name`` (for example ``key-harvest``)."""
    try:
        return _registered()[name.strip().lower()]
    except KeyError:
        raise UnknownGameError(msg("core.refuse.unknown_game", name=name, known=sorted(GAMES))) from None


def default_game() -> Game[Any, Any]:
    """The game a new game is when none is named."""
    return games()[0]


def package_of(game: Game[Any, Any]) -> str | None:
    """The package of ``game`` under ``companion/games/`` (the name of its web view's folder too); ``None`` for a
    game defined elsewhere (a test's)."""
    module = type(game).__module__
    prefix = f"{__name__}."
    return module.removeprefix(prefix).split(".")[0] if module.startswith(prefix) else None
