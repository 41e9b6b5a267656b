"""The registry: one line per game (its package), each package exporting its game class as ``GAME``."""

from __future__ import annotations

from importlib import import_module

from tests.core.toy_game import OverTheTop

import companion.games as registry


def test_each_package_registers_its_game_under_its_name() -> None:
    found = registry.games()
    assert [registry.package_of(game) for game in found] == list(registry.PACKAGES)
    for package, game in zip(registry.PACKAGES, found):
        assert isinstance(game, import_module(f"companion.games.{package}").GAME)
        assert registry.find_game(game.name) is game
    assert registry.default_game() is found[0]


def test_a_game_defined_outside_the_games_folder_has_no_package() -> None:
    assert registry.package_of(OverTheTop()) is None
