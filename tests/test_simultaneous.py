"""Issue 10: a simultaneous secret choice (La Granja's donkeys) is made on every seat's page at once. A seat's
choice counts even if other seats chose since the version it saw; anything else since makes it stale."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.core.errors import IllegalMoveError, StaleMoveError
from companion.core.game import SIMULTANEOUS
from companion.core.messages import render
from companion.session import Session
from companion.store import GameStore


def at_the_donkeys(store: GameStore) -> Session:
    session = Session.new(store, "la-granja", ["Ana", "Ben", "Cy"], seed="donkeys")
    rng = random.Random(3)
    game = session.game
    while game.current_player(session.state) != SIMULTANEOUS:
        session.play(rng.choice(game.legal_moves(session.state)), session.version)
    return session


def choice_of(session: Session, seat: int) -> str:
    game = session.game
    return next(str(m) for m in game.legal_moves(session.state) if game.seat_of(session.state, m) == seat)


def test_every_seat_chooses_from_the_version_it_saw(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = at_the_donkeys(store)
        game, seen = session.game, session.version
        assert game.deciders(session.state) == (0, 1, 2)
        first = choice_of(session, 0)
        with pytest.raises(IllegalMoveError):  # a seat chooses only its own marker
            session.play(choice_of(session, 1), seen, seat=0)
        session.play(first, seen, seat=0)
        assert game.deciders(session.state) == (1, 2)
        with pytest.raises(StaleMoveError):  # Ana chose since this version: her second tap is stale
            session.play(first, seen, seat=0)
        session.play(choice_of(session, 2), seen, seat=2)  # Cy saw the same version: Ana's choice changes nothing for him
        assert [render(line) for line in session.export(None)["log"][-2:]] == ["Ana chose a donkey marker face down",
                                                                           "Cy chose a donkey marker face down"]  # not yet shown
        session.play(choice_of(session, 1), seen, seat=1)
        assert game.current_player(session.state) != SIMULTANEOUS
        assert any("turned up together" in render(line) for line in session.export(None)["log"][-2:])  # the reveal
