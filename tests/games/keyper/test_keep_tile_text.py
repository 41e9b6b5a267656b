"""A keep tile's resources as one move's text, however many keyples rest there (found by the 1,000-game run: a
13-keyple keep tile's move could not be read back, so the game could not be replayed)."""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInputError
from companion.games.keyper.moves import KEEP_TILE_MOST, parse_move


def test_a_full_keep_tile_reads_back_from_its_text() -> None:
    """Spec 2.3, 4.1: up to 32 - 8 keyples rest on one keep tile, each giving a resource; the move names them all."""
    kinds = ("ruby", "gold", "rock", "clay", "wheat", "log") * 4
    move = parse_move("keep " + " ".join(kinds))
    assert move.args == kinds and len(kinds) == KEEP_TILE_MOST
    assert parse_move(str(move)) == move


def test_more_resources_than_a_keep_tile_can_hold_are_refused() -> None:
    with pytest.raises(MalformedInputError):
        parse_move("keep " + " ".join(["clay"] * (KEEP_TILE_MOST + 1)))
