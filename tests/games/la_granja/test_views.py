"""What each player may see: hands, the secret donkey choice, hidden VP, masked log lines; the ledger."""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, SIMULTANEOUS
from companion.core.messages import render
from companion.games.la_granja.moves import parse_move
from tests.games.la_granja.table import at, edit, new_game, refused, task

A, B, C = 0, 1, 2


def test_a_hand_is_seen_only_by_its_owner() -> None:
    game, s = new_game(3)
    view = game.view(s, A)
    assert view["players"][A]["hand"] == list(s.players[A].hand)
    assert view["players"][B]["hand"] is None and view["players"][B]["hand_size"] == 4
    assert game.view(s, None)["players"][A]["hand"] is None


def test_donkey_choices_stay_secret_until_everyone_has_chosen() -> None:
    """Spec 3.4 step 1: every seat chooses at once, in secret; the table sees who has chosen, never what."""
    game, s = new_game(3)
    s = at(s, "donkey")
    assert game.current_player(s) == SIMULTANEOUS and game.deciders(s) == (A, B, C)
    assert game.view(s, None)["to_move"] == "simultaneous"
    assert game.view(s, None)["waiting"]["deciders"] == [A, B, C]
    s = game.play(s, "donkey 3 2")                   # C chooses first: no seat waits for another
    assert game.deciders(s) == (A, B) and game.seat_of(s, parse_move("donkey 1 3")) == A
    s = game.play(s, "donkey 1 3")
    assert game.deciders(s) == (B,)
    assert game.view(s, A)["players"][A]["donkey"] == 3
    for viewer in (B, C, None):
        assert game.view(s, viewer)["players"][A]["donkey"] is None
    table = game.view(s, None)
    assert [p["donkey_chosen"] for p in table["players"]] == [True, False, True]
    assert table["waiting"]["deciders"] == [B] and table["waiting"]["player"] is None
    assert render(game.prompt_text(s, ["A", "B", "C"])).startswith("B (seat 2): choose a donkey marker in secret")
    # the log line does not tell either
    before = at(s, "donkey")
    assert game.is_secret(before, parse_move("donkey 1 3"))
    assert render(game.describe(before, parse_move("donkey 1 3"), B)) == "A chose a donkey marker face down"
    assert render(game.describe(before, parse_move("donkey 1 3"), None)) == "A chose a donkey marker face down"
    assert render(game.describe(before, parse_move("donkey 1 3"), A)) == "A lays the 3-donkey marker face down"
    # B's legal moves do not depend on A's or C's choice; a seat that has chosen is refused publicly
    assert [str(m) for m in game.legal_moves(s)] == ["donkey 2 1", "donkey 2 2", "donkey 2 3", "donkey 2 4"]
    assert refused(game, s, "donkey 1 4").rule == "3.4"
    assert refused(game, s, "done").rule == "3.4"
    s = game.play(s, "donkey 2 1")
    # the reveal: a companion step with one outcome, then everyone sees every marker
    assert game.current_player(s) == CHANCE
    reveal = game.chance_outcomes(s)
    assert [(str(m), w) for m, w in reveal] == [("donkeys 3 1 2", 1)]
    assert render(game.describe(s, reveal[0][0], None)) == (
        "The donkey markers are turned up together: A: 3 donkeys, B: 1 donkey, C: 2 donkeys")
    s = game.play(s, "donkeys 3 1 2")
    assert [game.view(s, None)["players"][seat]["donkey"] for seat in (A, B, C)] == [3, 1, 2]


def test_the_reveal_cannot_be_forged() -> None:
    game, s = new_game(2)
    s = game.play(game.play(at(s, "donkey"), "donkey 1 3"), "donkey 2 1")
    assert refused(game, s, "donkeys 1 3").rule == "CHANCE"


def test_old_form_donkey_is_unreadable_with_a_hint() -> None:
    with pytest.raises(MalformedInputError, match="donkey SEAT MARKER"):
        parse_move("donkey 3")


def test_drawn_cards_are_masked_in_other_players_log() -> None:
    game, s = new_game(2)
    s = task(s, "card", A)
    s = game.play(s, "draw")
    move = game.chance_outcomes(s)[0][0]
    assert render(game.describe(s, move, B)) == "A takes a card (only they see which)"
    assert f"farm card {move.args[0]}" in render(game.describe(s, move, A))


def test_hidden_vp_shows_only_your_own_until_the_end() -> None:
    game, s = new_game(2, options={"hide_vp": "yes"})
    view = game.view(s, A)
    assert view["players"][A]["vp"] == 1 and view["players"][B]["vp"] is None and view["score"] is None
    open_view = game.view(new_game(2)[1], A)
    assert open_view["players"][B]["vp"] == 1


def test_every_vp_is_a_ledger_entry_with_its_source_and_reason() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, silver=2), "deliver", A, 1)
    s = game.play(s, "adjust vp 3 Helper 12: three VP for two pigs")
    entry = s.players[A].ledger[-1]
    assert (entry.source, entry.amount, entry.note) == ("V16", 3, "Helper 12: three VP for two pigs")
    assert game.score(s)[A]["ledger"] == {"V1": 1, "V16": 3}
    assert refused(game, s, "adjust vp -9 oops").rule == "D-01"
    assert str(parse_move("adjust  VP  +3  Helper 12:  three")) == "adjust vp +3 Helper 12: three"


def test_roof_marker_used_once_and_only_in_its_phase() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, roofs=(("R8", True), ("R14", True), ("R16", False))), "deliver", A, 1)
    assert s.edition.roofs["R8"].effect == "card" and s.edition.roofs["R8"].phase == "farm"
    s.phase = "transport"
    assert refused(game, s, "use R8").rule == "4.3.10"            # a farm-phase marker
    t = game.play(s, "use R14")                                   # a delivery, in the transport phase
    assert t.stack[-1].kind == "deliver" and t.players[A].roofs[1] == ("R14", False)
    assert refused(game, t, "use R14").rule == "4.3.10"
    r = task(edit(s, A, roofs=(("R16", True), ("R14", False), ("R24", False))), "deliver", A, 1)
    assert refused(game, r, "use R16 R24").rule == "A-14"         # not another refresh marker
    assert game.play(r, "use R16 R14").players[A].roofs == (("R16", False), ("R14", True), ("R24", False))


@pytest.mark.parametrize("text", ["", "fly", "die x", "roll 7", "place", "adjust vp lots"])
def test_unreadable_moves_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(MalformedInputError):
        parse_move(text)


def test_every_generated_move_reads_back_as_itself() -> None:
    import random

    game, s = new_game(4)
    rng = random.Random(2)
    for _ in range(400):
        if game.is_over(s):
            break
        moves = game.legal_moves(s) if game.current_player(s) != CHANCE else [m for m, _ in game.chance_outcomes(s)]
        for move in moves:
            assert parse_move(str(move)) == move
        s = game.apply(s, rng.choice(moves))


def test_the_view_counts_markers_in_use_out_of_twenty_five() -> None:
    game, s = new_game(2)
    start = game.view(s, A)["players"][A]["markers_in_use"]
    assert start == 2                                  # the trade good and the market stall
    s = edit(s, A, goods={"olive": 2, "pig": 1}, fields=((1, True), (2, False)),
             rows=(("wagner", 0, (True, True, False)),), carts=((60, (True, False)),))
    assert game.view(s, A)["players"][A]["markers_in_use"] == start + 3 + 1 + 2 + 1


def test_placing_fewer_than_two_cards_in_round_one_is_noted_in_the_log() -> None:
    game, s = new_game(2)
    assert render(game.describe(s, parse_move("done"), None)) == "A: done after 0 cards (round 1 allows 2)"
