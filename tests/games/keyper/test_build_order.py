"""Two players building at once (spec 4.8 "Order", rulebook L633): when the active player and a follower both build
or upgrade on one field, they decide one building at a time, in turn, the active player first. Variant flag
``build_order`` (``alternate``, the rulebook's; ``active_first``: the active player uses all their actions first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.game import CHANCE
from companion.games.keyper import Keyper
from companion.games.keyper.state import State
from companion.session import Session
from companion.store import GameStore
from tests.games.keyper.table import GAME, built, field, goods, new_game, play


def units(s: State) -> list[tuple[int, int]]:
    """The pending uses (seat, units), next first."""
    return [(t.seat, t.n) for t in reversed(s.tasks) if t.kind == "use"]


def followed(code: str, **options: str) -> State:
    """Seat 1 (A) places orange on board 1's ``code`` field, B passes, C follows with white: 2 + bonus each."""
    s = new_game(4, **options)
    return play(s, f"place orange {field(s, 1, code)}", "pass", "follow white")


def a_build(s: State) -> str:
    return next(str(m) for m in GAME.legal_moves(s) if m.verb == "build")


def test_on_a_build_field_the_two_build_in_turn_the_active_player_first() -> None:
    """L633: A builds, then C, then A again; 3 builds each on the orange build field (orange keyple: +1)."""
    s = followed("build@orange")
    assert units(s) == [(0, 1), (2, 1)] * 3
    assert GAME.current_player(s) == 0
    s = play(s, a_build(s))
    assert GAME.current_player(s) == 2 and units(s) == [(2, 1)] + [(0, 1), (2, 1)] * 2
    s = play(s, a_build(s))
    assert GAME.current_player(s) == 0


def test_done_leaves_the_rest_of_ones_builds_and_the_other_goes_on() -> None:
    """4.6: any unit may go unused; the active player's ``done`` ends their building here, the follower keeps all 3."""
    s = followed("build@orange")
    s = play(s, "done")
    assert units(s) == [(2, 1)] * 3 and GAME.current_player(s) == 2


def test_upgrades_alternate_too() -> None:
    """L633 names building and upgrading: on the grey upgrade field (no bonus for orange) 2 upgrades each, in turn."""
    s = new_game(4)
    for seat in (0, 2):
        s = goods(built(s, seat, "farm", {1: ("cow_shed", False)}), seat, brick=2, timber=2, stone=2, clay=2, log=2,
                  rock=2)
    s = play(s, f"place orange {field(s, 1, 'upgrade@grey')}", "pass", "follow white")
    assert units(s) == [(0, 1), (2, 1)] * 2
    upgrade = next(str(m) for m in GAME.legal_moves(s) if m.verb == "upgrade")
    s = play(s, upgrade)
    assert s.players[0].farm[0].upgraded and GAME.current_player(s) == 2


def test_the_active_first_flag_keeps_all_the_active_players_builds_first() -> None:
    s = followed("build@orange", build_order="active_first")
    assert units(s) == [(0, 3), (2, 3)]


def test_yields_that_are_not_builds_do_not_alternate() -> None:
    """A resource field: each takes their yield in one go, the active player first (L508 governs shortfalls)."""
    s = new_game(4)
    s = play(s, f"place orange {field(s, 1, 'animal:pig')}", "pass", "follow white")
    assert units(s) == [(0, 2), (2, 2)]


def old_log() -> tuple[list[tuple[str, bool]], State]:
    """A game in notation 1: A (orange) builds once then stops, C (white, the follower) builds once then stops (each
    has 3 builds, and the goods for one)."""
    s = GAME.setup(["Ann", "Bo", "Cy", "Di"], GAME.options({"build_order": "active_first"}))
    log: list[tuple[str, bool]] = []
    while GAME.current_player(s) == CHANCE:
        move = GAME.chance_outcomes(s)[0][0]
        log.append((str(move), True))
        s = GAME.apply(s, move)
    assert GAME.current_player(s) == 0
    moves = [f"place orange {field(s, 1, 'build@orange')}", "pass", "follow white"]
    s = play(s, *moves)
    for _ in range(2):
        moves += [a_build(s), "done"]
        s = play(s, *moves[-2:])
    return log + [(m, False) for m in moves], s


def test_an_old_save_is_rewritten_with_the_builds_in_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game stored before L633 (notation 1, no ``build_order`` flag) reopens: its log is rewritten A, C, A, C
    (A's build, C's build, A's done, C's done); the reopened game's players hold what they built."""
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    log, old_final = old_log()
    assert [t for t, _ in log[-4:]][1::2] == ["done", "done"]
    a_built, c_built = log[-4][0], log[-2][0]
    old_options = {k: v for k, v in GAME.options().items() if k != "build_order"}
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = store.create("keyper", ["Ann", "Bo", "Cy", "Di"], old_options, "seed", GAME.edition(), notation=1)
        store.append(game_id, 0, log)
    with GameStore(path) as store:
        session = Session.open(store, game_id)
        texts = [str(m) for m in session.history]
        assert store.get(game_id).notation == Keyper.notation
    assert len(texts) == len(log) and texts[-4:] == [a_built, c_built, "done", "done"]
    for seat in (0, 2):
        assert session.state.players[seat] == old_final.players[seat]


def test_a_log_without_followers_is_left_as_it_is() -> None:
    log = [("start 1", True), ("keyper 1", False)]
    assert GAME.upgrade_log(log, 1) == log


def test_the_table_shows_all_the_builds_left_to_each_not_only_this_turns() -> None:
    """The waiting line counts the deciding player's builds still to come on the field (3, then C's 3, then A's 2)."""
    s = followed("build@orange")
    assert GAME.view(s, None)["waiting"]["units"] == 3
    s = play(s, a_build(s))
    assert GAME.view(s, None)["waiting"]["units"] == 3 and GAME.current_player(s) == 2
    s = play(s, a_build(s))
    assert GAME.view(s, None)["waiting"]["units"] == 2
