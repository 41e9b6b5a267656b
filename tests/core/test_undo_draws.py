"""Undo past a draw, over the real games: the drawn pieces go back and come out again, in the same order, at the
next draws, so an undo never lets the table draw anew; the tablet names each piece to put back as the table may
read it (a hidden draw stays hidden); the put-back pieces are part of the stored game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.core.game import CHANCE, Move
from companion.core.messages import render
from companion.session import Session
from companion.store import GameStore

GAMES = {"key-harvest": 3, "la-granja": 3, "keyper": 3, "key-market": 3}


def bids_that_refill(session: Session) -> list[Move]:
    """The bids open now that take a land-office tile, so the office is refilled from the box (R-D5)."""
    game, state = session.game, session.state
    return [m for m in game.legal_moves(state)
            if str(m).startswith("bid ") and game.current_player(game.apply(state, m)) == CHANCE]


def test_undone_key_harvest_bids_give_the_same_tiles_again_in_the_same_order(tmp_path: Path) -> None:
    """R-D5: two bids each refilled the land office; both undone, two other bids refill it with the same tiles, in
    the order they came out, even after the store was closed and opened again."""
    path = tmp_path / "games.sqlite3"
    chooser = random.Random(5)
    with GameStore(path) as store:
        session = Session.new(store, "key-harvest", ["Ann", "Ben", "Cy"], seed="refill")
        played, tiles = [], []
        for _ in range(2):
            move = chooser.choice(bids_that_refill(session))
            new = session.play(move)
            assert len(new) > 1, "the bid refilled the land office"
            played.append(move)
            tiles += new[1:]
        lines = [render(line, "en") for line in session.undo_info()["lines"]]
        assert lines[0].startswith("Take back: ") and played[1].args[0] in lines[0]
        assert lines[1:] == [f"Put back what was drawn: {render(session.export(None)['log'][-1], 'en')}",
                             "It comes out again at the next draw."]
        session.undo()
        session.undo()
        game_id = session.id
    with GameStore(path) as store:
        again = Session.open(store, game_id)
        came_out = []
        for _ in range(2):
            other = [m for m in bids_that_refill(again) if m not in played]
            came_out += again.play(chooser.choice(other))[1:]
        assert came_out == tiles


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_undone_move_played_again_draws_the_very_same_pieces(name: str, tmp_path: Path) -> None:
    """Over a random game: each move that set off draws is undone (the lines name each draw as the table's log
    does, hidden draws masked) and played again: the same pieces come out in the same order; the game reopened
    from the store is the same, put-back pieces included."""
    chooser = random.Random(name)
    path = tmp_path / "games.sqlite3"
    players = ["Ann", "Ben", "Cy"][:GAMES[name]]
    with GameStore(path) as store:
        session = Session.new(store, name, players, seed=f"undo-{name}")
        undone = 0
        for _ in range(150):
            if session.is_over or undone >= 12:
                break
            state = session.state
            move = chooser.choice(session.game.legal_moves(state))
            before = len(session.history)
            new = session.play(move)
            if len(new) < 2:
                continue
            table_log = session.export(None)["log"]
            info = session.undo_info()
            if not info["possible"]:
                break  # the game is over
            assert info["draws"] == table_log[before + 1:]
            assert len(info["lines"]) == len(new) + 1
            assert render(info["lines"][-1], "de") and "{" not in render(info["lines"][-1], "de")
            session.undo()
            assert len(session.history) == before and session.state == state
            assert session.play(move) == new
            undone += 1
        assert undone, "some move set off a draw"
        if session.undo_info()["possible"] and len(session.history) > session.last_decision + 1:
            session.undo()  # leave put-back pieces in the store
    with GameStore(path) as store:
        reopened = Session.open(store, session.id)
        assert (reopened.state, reopened.history, reopened._returned) == (session.state, session.history,
                                                                           session._returned)
