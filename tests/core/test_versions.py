"""Issue 10: a move names the version it was chosen from; a stale one is refused and changes nothing; two
processes share one store; a move the game's code cannot apply is refused before it is stored."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.core.toy_game import Draw, OverTheTop

from companion.core.errors import IllegalMoveError, StaleMoveError, UndoError
from companion.core.messages import msg, render
from companion.session import ENGINE_RULE, Session
from companion.store import GameStore

pytestmark = pytest.mark.usefixtures("toy")

PLAYERS = ["Ann", "Bob"]


def test_a_move_from_an_older_version_is_refused_and_changes_nothing(store: GameStore) -> None:
    session = Session.new(store, "toy", PLAYERS, seed="v")
    seen = session.version
    session.play("stop", seen)  # Ann ends her turn from what she saw
    stored = store.moves(session.id)
    with pytest.raises(StaleMoveError) as stale:
        session.play("stop", seen)  # a second tap on the same screen: Bob would lose his turn
    assert stale.value.version == session.version == seen + 1
    assert store.moves(session.id) == stored and session.game.current_player(session.state) == 1
    session.play("stop", session.version)  # Bob, from the fresh version
    assert session.is_over


def test_the_same_move_posted_at_once_by_many_devices_is_applied_once(store: GameStore) -> None:
    session = Session.new(store, "toy", PLAYERS, seed="v")
    seen = session.version
    outcomes: list[str] = []

    def tap() -> None:
        try:
            session.play("stop", seen)
            outcomes.append("applied")
        except StaleMoveError:
            outcomes.append("stale")

    threads = [threading.Thread(target=tap) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied"] + ["stale"] * 11
    assert [text for _, text, _ in store.moves(session.id)].count("stop") == 1
    assert session.game.current_player(session.state) == 1  # Bob still has his turn


def test_undo_names_its_move_and_refuses_a_stale_version(store: GameStore) -> None:
    session = Session.new(store, "toy", PLAYERS, seed="v")
    assert session.undo_info() == {"possible": False, "move": None, "reason": msg("core.undo.nothing_yet"),
                                   "draws": [], "lines": []}
    assert render(session.undo_info()["reason"], "de") == "es gibt noch nichts zurückzunehmen"
    before = session.version
    session.play("stop", before)
    assert session.undo_info() == {"possible": True, "move": "stop", "reason": None, "draws": [],
                                   "lines": [msg("core.undo.took_back", move="stop")]}
    with pytest.raises(StaleMoveError):
        session.undo(before)
    assert str(session.undo(session.version)) == "stop"
    assert session.version == before + 2  # the undo is a change too: a move chosen before it is stale
    with pytest.raises(StaleMoveError):
        session.play("stop", before + 1)
    with pytest.raises(UndoError):
        session.undo(session.version)


def test_another_process_moves_and_this_one_catches_up(db_path: Path) -> None:
    with GameStore(db_path) as service_store, GameStore(db_path) as terminal_store:
        service = Session.new(service_store, "toy", PLAYERS, seed="two")
        seen = service.version
        changes: list[int] = []
        service.subscribe(lambda s, moves: changes.append(s.version))
        terminal = Session.open(terminal_store, service.id)  # `companion play --resume` beside the service
        terminal.play("stop", terminal.version)
        with pytest.raises(StaleMoveError):  # the tablet's next move, chosen before: a 409, never a 500
            service.play("stop", seen)
        assert changes == [seen + 1]  # the service's listeners heard of the other process's move
        assert service.history == terminal.history and service.version == terminal.version
        service.play("stop", service.version)
        assert terminal.sync() and terminal.is_over


def test_a_write_conflict_between_processes_is_stale_not_a_crash(db_path: Path) -> None:
    """Both processes choose from the same version and write: the second write is refused whole."""
    with GameStore(db_path) as first, GameStore(db_path) as second:
        one = Session.new(first, "toy", PLAYERS, seed="race")
        two = Session.open(second, one.id)
        one.play("stop", one.version)
        two.sync = lambda: False  # type: ignore[method-assign]  # it has not looked yet: only the store can tell
        with pytest.raises(StaleMoveError):
            two.play("stop", two.version)
        assert [text for _, text, _ in first.moves(one.id)].count("stop") == 1
        assert two.history == one.history  # it reloaded what the other process stored


class Fragile(OverTheTop):
    """The toy game with a bug: applying a draw while Bob holds more than 8 raises."""

    def apply(self, state, move):  # type: ignore[no-untyped-def]
        if isinstance(move, Draw) and state.turn == 1 and sum(state.hands[1]) > 8:
            raise ValueError("list.index(x): x not in list")
        return super().apply(state, move)


def test_a_move_the_game_cannot_apply_is_refused_before_it_is_stored(store: GameStore,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games import GAMES

    monkeypatch.setitem(GAMES, "toy", Fragile())
    session = Session.new(store, "toy", PLAYERS, seed="fragile")
    session.play("stop", session.version)
    while sum(session.state.hands[1]) <= 8:
        session.play("draw", session.version)
    stored, version = store.moves(session.id), session.version
    with pytest.raises(IllegalMoveError) as refused:
        session.play("draw", version)
    assert refused.value.rule == ENGINE_RULE and "Nothing was recorded" in refused.value.reason
    assert store.moves(session.id) == stored and session.version == version
    again = Session.open(store, session.id)  # the stored game still opens and goes on
    again.play("stop", again.version)
    assert again.is_over
