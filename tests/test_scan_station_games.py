"""The scan station asks the game which moves a scanned sticker names (``Game.moves_naming``): Keyper and Key Market
name pieces their own way (a Key Market field by where it lies on the territory, never by its printed cell), so a
player board's corner or a worker like any other offers nothing, rather than a move that merely shares a number."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.codes import load_registry
from companion.core.game import CHANCE, TERMINAL, Game
from companion.games.key_market import KeyMarket
from companion.games.key_market.camera import field_place
from companion.games.keyper import Keyper

REGISTRY = load_registry()


def decisions(game: Game[Any, Any], players: int, seed: int, moves: int) -> Iterator[tuple[Any, list[str]]]:
    """The states of a seeded random game where someone decides in the open, with the moves a shared screen shows."""
    rng = random.Random(seed)
    state = game.setup([f"P{n}" for n in range(players)], game.options())
    for _ in range(moves):
        who = game.current_player(state)
        if who == TERMINAL:
            return
        public = [str(m) for m in game.public_moves(state)]
        if public:
            yield state, public
        state = game.apply(state, game.sample_chance(state, rng) if who == CHANCE else rng.choice(game.legal_moves(state)))


def test_keyper_board_corners_and_other_players_home_tiles_name_no_move() -> None:
    game = Keyper()
    corners = [c for c in REGISTRY.for_game("keyper") if c.kind == "board"]
    homes = [c for c in REGISTRY.for_game("keyper") if c.kind == "home"]
    boats = [c for c in REGISTRY.for_game("keyper") if c.kind == "boat"]
    named_boats = 0
    for state, public in decisions(game, 3, 5, 120):
        seat = game.current_player(state)
        assert all(game.moves_naming(state, c, public) == [] for c in corners)  # "keyper 1" is not corner 1's
        assert all(game.moves_naming(state, c, public) == [] for c in homes if c.group != seat + 1)
        for boat in boats:
            named = game.moves_naming(state, boat, public)
            assert all(f"boat {boat.key}" in move for move in named)
            named_boats += bool(named)
    assert named_boats  # a boat of the season names the placements that would take it


def test_a_key_market_field_names_the_moves_to_its_place_and_a_worker_names_none() -> None:
    game = KeyMarket()
    fields = [c for c in REGISTRY.for_game("key-market") if c.kind == "field"]
    workers = [c for c in REGISTRY.for_game("key-market") if c.kind == "worker"]
    farming = 0
    for state, public in decisions(game, 3, 2, 300):
        seat = game.current_player(state)
        for field in fields:
            place = field_place(state, field)
            named = game.moves_naming(state, field, public)
            if place is None:
                assert named == []  # its board side is not on the table
            else:
                assert named == [m for m in public if f"{place[0]},{place[1]}" in m.split()[1:]]
        if any(m.startswith("hire ") for m in public):
            farming += 1
            assert any(game.moves_naming(state, field, public) for field in fields)
        for worker in workers:
            named = game.moves_naming(state, worker, public)
            if worker.key == "K" and worker.group == seat + 1:
                assert all("key" in move.split() for move in named)
            else:
                assert named == []
    assert farming
