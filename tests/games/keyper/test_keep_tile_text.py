"""The keep tile's resources as one move (spec 4.1, A1, Ex 6): one move per distinct outcome, the resources sorted,
however many keyples rest there. A 13-keyple keep tile once offered one move per ordered choice (hundreds of
thousands, 1.26 GB); today each multiset once. Text in any order (as older saves wrote it) reads as the same move."""

from __future__ import annotations

import itertools

import pytest

from companion.core.errors import MalformedInputError
from companion.games.keyper.moves import KEEP_TILE_MOST, parse_move
from companion.games.keyper.rules import keep_outcomes
from companion.games.keyper.state import PK, State
from tests.games.keyper.table import GAME, new_game, play, turn


def keeping(*colours: str) -> State:
    """Seat 1 plays the Keyper with ``colours`` on the keep tile: they are laid down and it chooses their resources."""
    s = turn(new_game(3), 0)
    s = play(s.player(0, keep_tile=tuple(PK(c) for c in colours)), "keyper 1")
    assert (s.top.kind, s.top.n) == ("keeptile", len(colours))  # type: ignore[union-attr]
    return s


def test_a_full_keep_tile_reads_back_from_its_text_in_any_order() -> None:
    """Spec 2.3, 4.1: up to 32 - 8 keyples rest on one keep tile, each giving a resource; the move names them all,
    sorted, whatever order they were written in."""
    kinds = ("ruby", "gold", "rock", "clay", "wheat", "log") * 4
    move = parse_move("keep " + " ".join(kinds))
    assert move.args == tuple(sorted(kinds)) and len(kinds) == KEEP_TILE_MOST
    assert parse_move(str(move)) == move
    assert parse_move("keep log clay") == parse_move("keep clay log")


def test_more_resources_than_a_keep_tile_can_hold_are_refused() -> None:
    with pytest.raises(MalformedInputError):
        parse_move("keep " + " ".join(["clay"] * (KEEP_TILE_MOST + 1)))


def test_each_outcome_is_offered_once_and_every_possible_one_is() -> None:
    """A1: the moves are exactly the distinct multisets of one listed resource per keyple (checked against every
    ordered choice)."""
    colours = ("grey", "white", "orange", "black", "black", "green")
    s = keeping(*colours)
    offered = [m for m in GAME.legal_moves(s) if m.verb == "keep"]
    yields = s.edition.keep_tile
    brute = {tuple(sorted(c)) for c in itertools.product(*(yields[c] for c in colours))}
    assert sorted(m.args for m in offered) == sorted(brute)
    assert len(offered) == len(set(offered))


def test_a_big_keep_tile_offers_a_few_thousand_moves_not_hundreds_of_thousands() -> None:
    """The 11-keyple keep tile that offered 420,000 ordered choices: one move per distinct outcome."""
    colours = ("orange", "brown", "grey", "white", "white", "black", "blue", "green", "black", "white", "orange")
    outcomes = keep_outcomes([GAME.data.keep_tile[c] for c in colours])
    assert len(outcomes) == len(set(outcomes)) <= 3000
    assert all(len(o) == len(colours) and list(o) == sorted(o) for o in outcomes)


def test_a_keep_move_in_any_order_gives_the_same_resources() -> None:
    """Ex 6: the resources go to the player, whatever order the move names them in (an old save's text replays)."""
    s = keeping("grey", "white")
    a = play(s, "keep rock clay")
    b = play(s, "keep clay rock")
    assert a.players[0].goods == b.players[0].goods
    for kind in ("clay", "rock"):
        assert a.players[0].good(kind) == s.players[0].good(kind) + 1


def test_a_resource_the_colours_do_not_list_is_refused_and_changes_nothing() -> None:
    """4.1: one green keyple and one black cannot give two gems."""
    s = keeping("green", "black")
    error = GAME.validate(s, parse_move("keep gold ruby"))
    assert error is not None and error.rule == "4.1"
    assert GAME.validate(s, parse_move("keep wheat gold")) is None
    assert GAME.validate(s, parse_move("keep gold wheat")) is None
