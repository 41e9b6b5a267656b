"""Sessions over the toy game: playing, saving, resuming, undo, secrecy of the seed, chance."""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tests.core.toy_game import Draw, OverTheTop, Stop, Token

from companion.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    MalformedInputError,
    UndoError,
    UnknownGameError,
)
from companion.core.game import CHANCE, Move
from companion.core.messages import render
from companion.core.rng import step_rng, weighted_choice
from companion.session import CHANCE_RULE, Session
from companion.store import OVER, PLAYING, GameStore

pytestmark = pytest.mark.usefixtures("toy")

PLAYERS = ["Ann", "Bob"]


def new(store: GameStore, seed: str = "fixed", **kwargs: object) -> Session:
    return Session.new(store, "toy", PLAYERS, seed=seed, **kwargs)  # type: ignore[arg-type]


def careful(session: Session) -> str:
    """A simple player: draw while the hand is small, then stop."""
    seat = session.game.current_player(session.state)
    return "draw" if sum(session.state.hands[seat]) < 10 else "stop"


def play_out(session: Session) -> None:
    while not session.is_over:
        session.play(careful(session))


def snapshot(session: Session) -> tuple[object, list[Move], list[tuple[int, str, bool]]]:
    return session.state, session.history, session._store.moves(session.id)


def test_toy_moves_round_trip(toy: OverTheTop) -> None:
    for move in (Draw(), Stop(), *(Token(n) for n in range(1, 7))):
        assert toy.parse_move(str(move)) == move
    with pytest.raises(MalformedInputError):
        toy.parse_move("token six")


def test_new_makes_the_setup_draws(store: GameStore) -> None:
    session = new(store)
    assert [type(move) for move in session.history] == [Token, Token]
    assert [is_chance for _, _, is_chance in store.moves(session.id)] == [True, True]
    assert session.game.current_player(session.state) == 0
    assert (session.players, session.options, session.status) == (("Ann", "Bob"), {"target": "15"}, PLAYING)
    assert not session.is_over
    assert store.get(session.id).seed == "fixed"


def test_chance_uses_step_rng(store: GameStore, toy: OverTheTop) -> None:
    session = new(store, seed="abc")
    state = toy.setup(PLAYERS, toy.options())
    first = weighted_choice(step_rng("abc", 0), toy.chance_outcomes(state))
    assert session.history[0] == first


def test_new_without_seed_draws_a_secret_one(store: GameStore) -> None:
    seeds = {store.get(Session.new(store, "toy", PLAYERS).id).seed for _ in range(3)}
    assert len(seeds) == 3 and all(len(seed) == 32 for seed in seeds)


def test_new_refuses_bad_setups(store: GameStore) -> None:
    with pytest.raises(MalformedInputError, match="2 to 4 players"):
        Session.new(store, "toy", ["Ann"])
    with pytest.raises(MalformedInputError, match="unknown option"):
        Session.new(store, "toy", PLAYERS, {"colour": "red"})
    with pytest.raises(UnknownGameError):
        Session.new(store, "no-such-game", PLAYERS)
    assert store.list() == []


def test_play_is_committed(store: GameStore, db_path: Path) -> None:
    session = new(store)
    assert session.play("stop") == [Stop()]
    drawn = session.play(Draw())
    assert drawn[0] == Draw() and isinstance(drawn[1], Token) and len(drawn) == 2
    with GameStore(db_path) as other:
        assert other.moves(session.id)[2:] == [(2, "stop", False), (3, "draw", False), (4, str(drawn[1]), True)]


def test_illegal_move_changes_nothing(store: GameStore) -> None:
    session = new(store)
    before = snapshot(session)
    with pytest.raises(IllegalMoveError) as refused:
        session.play("token 3")
    assert refused.value.rule == CHANCE_RULE
    with pytest.raises(MalformedInputError):
        session.play("jump")
    assert snapshot(session) == before


def test_illegal_move_error_is_the_games_own(store: GameStore, toy: OverTheTop, monkeypatch: pytest.MonkeyPatch) -> None:
    session = new(store)
    error = IllegalMoveError("T-9", "not on Sundays", "stop")
    monkeypatch.setattr(toy, "validate", lambda state, move: error)
    with pytest.raises(IllegalMoveError) as refused:
        session.play("stop")
    assert refused.value is error
    assert len(store.moves(session.id)) == 2


def test_no_move_after_the_end(store: GameStore) -> None:
    session = new(store)
    play_out(session)
    before = snapshot(session)
    with pytest.raises(IllegalMoveError) as refused:
        session.play("stop")
    assert refused.value.rule == "T-END"
    assert snapshot(session) == before


def test_resume_after_restart(db_path: Path) -> None:
    with GameStore(db_path) as store:
        session = new(store)
        for _ in range(3):
            session.play(careful(session))
        state, history, export = session.state, session.history, session.export(0)
    with GameStore(db_path) as store:
        again = Session.open(store, session.id)
        assert (again.state, again.history, again.export(0)) == (state, history, export)
        play_out(again)
        assert store.get(again.id).status == OVER


def test_several_games_list_and_delete(store: GameStore) -> None:
    sessions = [new(store, seed=str(n)) for n in range(3)]
    sessions[1].play("stop")
    assert [record.id for record in store.list()] == [s.id for s in reversed(sessions)]
    store.delete(sessions[1].id)
    assert [record.id for record in store.list()] == [sessions[2].id, sessions[0].id]
    with pytest.raises(UnknownGameError):
        Session.open(store, sessions[1].id)
    assert Session.open(store, sessions[0].id).history == sessions[0].history


def test_undo_a_player_move(store: GameStore) -> None:
    session = new(store)
    seen: list[list[Move]] = []
    session.subscribe(lambda _, moves: seen.append(moves))
    before = snapshot(session)
    session.play("stop")
    assert session.undo() == Stop()
    assert snapshot(session) == before
    assert seen == [[Stop()], []]


def test_undo_two_player_moves_in_a_row(store: GameStore) -> None:
    session = Session.new(store, "toy", ["Ann", "Bob", "Cy"], seed="x")
    before = snapshot(session)
    session.play("stop")
    session.play("stop")
    session.undo()
    session.undo()
    assert snapshot(session) == before


def test_undo_takes_back_a_draw_and_the_same_token_comes_out_again(store: GameStore) -> None:
    session = new(store)
    before = snapshot(session)
    session.play("draw")
    token = session.history[-1]
    assert isinstance(token, Token)
    info = session.undo_info()
    assert info["possible"] and info["move"] == "draw" and info["draws"] == [str(token)]
    assert [render(line, "en") for line in info["lines"]] == [
        "Take back: draw", f"Put back what was drawn: {token}", "It comes out again at the next draw."]
    assert session.undo() == Draw()
    assert snapshot(session) == before  # the token is back in the bag
    for _ in range(3):  # undoing again and again never draws anew
        assert session.play("draw") == [Draw(), token]
        session.undo()


def test_put_back_tokens_come_out_in_the_order_they_came_out_whoever_draws(store: GameStore) -> None:
    session = new(store, seed="order")
    session.play("draw")
    session.play("draw")
    first, second = session.history[-3], session.history[-1]
    session.undo()
    session.undo()
    assert session.play("stop") == [Stop()]  # Ann stops: Bob draws what Ann had drawn, then what he had drawn
    assert session.play("draw") == [Draw(), first]
    assert session.play("draw") == [Draw(), second]


def test_a_put_back_draw_that_is_no_longer_possible_waits_its_turn(store: GameStore) -> None:
    session = new(store, seed="wait")
    session.play("draw")
    token = session.history[-1]
    session.undo()
    store.truncate(session.id, len(session.history), session.version, ["token 9", str(token)])  # no 9 in the bag
    again = Session.open(store, session.id)
    assert again.play("draw") == [Draw(), token]
    assert store.returned(session.id) == ["token 9"]


def test_put_back_draws_survive_reopening_the_store(db_path: Path) -> None:
    with GameStore(db_path) as store:
        session = new(store, seed="reopen")
        session.play("draw")
        token = session.history[-1]
        session.undo()
        game_id = session.id
    with GameStore(db_path) as store:
        assert store.returned(game_id) == [str(token)]
        again = Session.open(store, game_id)
        assert again.play("draw") == [Draw(), token]
        assert store.returned(game_id) == []


def test_a_draw_named_at_the_table_uses_up_its_put_back_token(store: GameStore) -> None:
    session = new(store, seed="named", auto_chance=False)
    while session.game.current_player(session.state) == CHANCE:  # the secret starting tokens
        session.play(session.next_draw(random.Random(0)))
    session.play("draw")
    session.play(session.next_draw(random.Random(1)))
    token = session.history[-1]
    session.undo()
    session.play("draw")
    assert session.next_draw(random.Random(2)) == token  # the panel's DRAW gives it again
    session.play(token)
    assert store.returned(session.id) == []


def test_undo_refused_before_any_player_move(store: GameStore) -> None:
    session = new(store)  # only the secret starting tokens are in the log
    before = snapshot(session)
    with pytest.raises(UndoError, match="nothing to undo"):
        session.undo()
    assert snapshot(session) == before


def test_undo_refused_on_an_empty_log(store: GameStore) -> None:
    session = new(store, auto_chance=False)
    with pytest.raises(UndoError, match="nothing to undo"):
        session.undo()


def test_undo_refused_after_the_end(store: GameStore) -> None:
    session = new(store)
    session.play("stop")
    session.play("stop")
    assert session.is_over
    with pytest.raises(UndoError, match="game is over"):
        session.undo()


def test_seed_is_secret_until_the_end(store: GameStore) -> None:
    session = new(store, seed="very-secret-seed")
    for _ in range(2):
        session.play(careful(session))
        shown = [session.export(), *(session.export(seat) for seat in (0, 1))]
        shown += [session.view(seat) for seat in (None, 0, 1)]
        assert "very-secret-seed" not in json.dumps(shown)
        assert "seed" not in session.export()
    play_out(session)
    assert session.export()["seed"] == "very-secret-seed"
    assert session.view(None)["seed"] == "very-secret-seed"
    assert session.export()["status"] == OVER


def test_export_masks_secret_draws(store: GameStore) -> None:
    session = new(store)
    first, second = session.history
    assert session.export(0)["log"] == [str(first), "token ?"]
    assert session.export(1)["log"] == ["token ?", str(second)]
    assert session.export()["log"] == ["token ?", "token ?"]
    assert session.export()["game"] == "toy" and session.export()["players"] == PLAYERS


def test_same_seed_same_draws(store: GameStore) -> None:
    one, two = new(store, seed="twin"), new(store, seed="twin")
    play_out(one)
    play_out(two)
    assert one.history == two.history and len(one.history) > 4
    others = [new(store, seed=f"other-{n}") for n in range(5)]
    assert any(other.history[:2] != one.history[:2] for other in others)


def test_forced_outcomes_without_auto_chance(store: GameStore, db_path: Path) -> None:
    session = new(store, auto_chance=False)
    assert session.history == [] and session.game.current_player(session.state) == CHANCE
    for text, rule in (("draw", CHANCE_RULE), ("token 7", "T-BAG")):
        with pytest.raises(IllegalMoveError) as refused:
            session.play(text)
        assert refused.value.rule == rule
    assert session.play("token 6") == [Token(6)]
    session.play("token 6")
    session.play("draw")
    with pytest.raises(IllegalMoveError) as refused:
        session.play("stop")
    assert refused.value.rule == CHANCE_RULE
    session.play("token 6")  # Ann has 12, still under 15
    session.play("draw")
    session.play("token 5")  # Bob has 11
    session.play("draw")
    with pytest.raises(IllegalMoveError, match="no 6 left"):
        session.play("token 6")
    assert session.undo() == Draw()
    session.play("draw")
    session.play("token 5")  # Ann goes to 17 and loses
    assert session.is_over and session.state.loser == 0
    assert store.get(session.id).status == OVER
    with GameStore(db_path) as other:
        assert Session.open(other, session.id, auto_chance=False).state == session.state


def test_session_refuses_what_is_no_outcome(store: GameStore, toy: OverTheTop, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even if a game's validate lets it through, a chance step must be one of its outcomes."""
    session = new(store, auto_chance=False)
    monkeypatch.setattr(toy, "validate", lambda state, move: None)
    for move in ("stop", "token 7"):
        with pytest.raises(IllegalMoveError) as refused:
            session.play(move)
        assert refused.value.rule == CHANCE_RULE
    assert store.moves(session.id) == []


def test_auto_chance_refuses_forced_outcomes(store: GameStore) -> None:
    session = new(store)
    with pytest.raises(IllegalMoveError) as refused:
        session.play(Token(1))
    assert refused.value.rule == CHANCE_RULE


def test_open_finishes_a_draw_cut_short(store: GameStore) -> None:
    """A crash between storing a player's draw and its chance step: reopening makes the same draw."""
    session = new(store)
    session.play("draw")
    history = session.history
    store.truncate(session.id, len(history) - 1)
    again = Session.open(store, session.id)
    assert again.history == history
    assert store.moves(session.id)[-1] == (len(history) - 1, str(history[-1]), True)


def tamper(store: GameStore, sql: str, *args: object) -> None:
    with sqlite3.connect(store.path) as raw:
        raw.execute(sql, args)


@pytest.mark.parametrize(
    ("sql", "ply"),
    [
        ("UPDATE moves SET text = 'token 9' WHERE ply = 3", 3),  # not in the bag
        ("UPDATE moves SET text = 'fly away' WHERE ply = 2", 2),  # unreadable
        ("UPDATE moves SET is_chance = 0 WHERE ply = 1", 1),  # a draw stored as a player's move
        ("UPDATE moves SET ply = 9 WHERE ply = 3", 9),  # a gap in the log
        ("UPDATE moves SET text = 'token 3' WHERE ply = 2", 2),  # a draw nobody asked for
    ],
)
def test_tampered_move_rows(store: GameStore, sql: str, ply: int) -> None:
    session = new(store)
    session.play("draw")
    tamper(store, sql)
    with pytest.raises(CorruptSaveError, match=rf"{session.id}: move {ply} "):
        Session.open(store, session.id)


def test_unknown_game_in_the_record(store: GameStore) -> None:
    session = new(store)
    tamper(store, "UPDATE games SET game = 'chess' WHERE id = ?", session.id)
    with pytest.raises(CorruptSaveError, match=session.id):
        Session.open(store, session.id)


def test_bad_options_in_the_record(store: GameStore) -> None:
    session = new(store)
    tamper(store, """UPDATE games SET options = '{"target": "99"}' WHERE id = ?""", session.id)
    with pytest.raises(CorruptSaveError, match=session.id):
        Session.open(store, session.id)


def test_garbage_file_at_open(db_path: Path) -> None:
    db_path.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(CorruptSaveError):
        GameStore(db_path)


def test_listeners(store: GameStore, caplog: pytest.LogCaptureFixture) -> None:
    session = new(store)
    calls: list[tuple[Session, list[Move]]] = []

    def broken(_: Session, __: list[Move]) -> None:
        raise RuntimeError("the tablet went away")

    session.subscribe(broken)
    unsubscribe = session.subscribe(lambda s, moves: calls.append((s, moves)))
    with caplog.at_level(logging.ERROR, logger="companion.session"):
        new_moves = session.play("draw")
    assert calls == [(session, new_moves)]
    assert "the tablet went away" in caplog.text and session.id in caplog.text
    unsubscribe()
    unsubscribe()
    session.play(careful(session))
    assert len(calls) == 1


def test_random_playouts_replay_exactly(db_path: Path) -> None:
    """Many games with random moves and undos: every one reopens exactly."""
    chooser = random.Random(7)
    with GameStore(db_path) as store:
        finished = []
        for n in range(30):
            session = Session.new(store, "toy", PLAYERS + ["Cy", "Di"][: n % 3], {"target": "20"}, seed=f"p{n}")
            while not session.is_over:
                session.play(chooser.choice(session.game.legal_moves(session.state)))
                if chooser.random() < 0.3:
                    try:
                        session.undo()
                    except UndoError:
                        pass
            finished.append(session)
    with GameStore(db_path) as store:
        for session in finished:
            again = Session.open(store, session.id)
            assert (again.state, again.history, again.export()) == (session.state, session.history, session.export())


CHILD = """
import sys
import companion.games as registry
from companion.session import Session
from companion.store import GameStore
from tests.core.toy_game import OverTheTop

registry.GAMES["toy"] = OverTheTop()
store = GameStore(sys.argv[1])
for n in range(10_000):
    session = Session.new(store, "toy", ["Ann", "Bob", "Cy"], seed=f"crash-{n}")
    print(session.id, len(session.history), flush=True)
    while not session.is_over:
        seat = session.game.current_player(session.state)
        session.play("draw" if sum(session.state.hands[seat]) < 11 else "stop")
        print(session.id, len(session.history), flush=True)
"""


def test_killed_process_loses_no_returned_move(db_path: Path) -> None:
    here = Path(__file__).parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here.parents[1]), str(here)])}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    reported: dict[str, int] = {}
    try:
        while len(reported) < 4 or sum(reported.values()) < 60:
            line = child.stdout.readline()
            assert line, child.stderr.read() if child.stderr else "the child stopped"
            game_id, count = line.split()
            reported[game_id] = int(count)
    finally:
        child.kill()  # SIGKILL: no clean-up, no flushing, mid-transaction if it so happens
        child.communicate()
    assert child.returncode == -9
    with GameStore(db_path) as store:
        for game_id, count in reported.items():
            assert len(store.moves(game_id)) >= count
            assert len(Session.open(store, game_id).history) >= count


def test_two_players_of_one_name_are_refused_and_nothing_is_stored(db_path: Path) -> None:
    """A snapshot, a camera's board and a score row name each player: two of one name could not be told apart."""
    with GameStore(db_path) as store:
        with pytest.raises(MalformedInputError) as refused:
            Session.new(store, "toy", ["Ann", "Bob", " Ann "], {"target": "20"})
        assert str(refused.value) == "Ann is named twice: every player needs their own name"
        assert store.list() == []
