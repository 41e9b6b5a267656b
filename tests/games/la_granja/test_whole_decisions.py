"""One decision is one move (issue 10): a set of goods, the discard down to the hand limit, the free upgrades of a
grant, a set of deliveries and the markers to free are each one move, checked and made as a whole or refused
as a whole; unordered picks are listed once, in canonical order, and accepted in any order."""

from __future__ import annotations

from collections import Counter

from companion.games.la_granja import rules
from companion.games.la_granja.moves import parse_move
from tests.games.la_granja.table import at, edit, new_game, refused, task
from tests.games.la_granja.test_examples import _wagner_ready

A, B = 0, 1


def test_die_three_lists_each_pair_of_crops_once_and_takes_them_in_any_order() -> None:
    """Spec 1.4 face 3 / 4.3.3: two different crops. Grape first is the same move as grape last."""
    game, s = new_game(2)
    s = task(s, "take", A, 2, "olive,grain,grape")
    takes = [str(m) for m in game.legal_moves(s) if m.verb == "take"]
    assert takes == ["take olive grain", "take olive grape", "take grain grape"]
    assert parse_move("take grape olive") == parse_move("take olive grape")
    t = game.play(s, "take grape olive")
    assert (t.players[A].goods["grape"], t.players[A].goods["olive"]) == (1, 1)
    assert refused(game, s, "take grape grape").rule == "4.3.3"


def test_deliveries_are_one_move_refused_as_a_whole() -> None:
    """4.3.12: several deliveries at once; a bad second delivery refuses the first too. Deliveries left over stay
    for later in the turn (a purchase may come first), as on the table; ``done`` ends them."""
    game, s = new_game(2)
    s = task(edit(s, A, silver=5, goods={"grain": 1}), "deliver", A, 3, "donkey")
    error = refused(game, s, "deliver handelshaus/1=silver handelshaus=wine")
    assert error.rule == "4.3.12" and error.reason.startswith("delivery 2 (handelshaus=wine):")
    assert refused(game, s, "deliver handelshaus=silver handelshaus/1=grain").rule == "4.2:rows"  # row first
    t = game.play(s, "deliver handelshaus/1=silver handelshaus=grain")
    assert t.players[A].silver == 4 and t.players[A].goods["grain"] == 0
    assert (t.stack[-1].kind, t.stack[-1].n) == ("deliver", 1)   # one left for later in the turn (after a purchase)
    t = game.play(game.play(t, "buy olive"), "deliver handelshaus=olive")
    assert t.stack == s.stack[:-1]             # all three made
    assert game.play(s, "done").stack == s.stack[:-1]


def test_each_set_of_deliveries_is_listed_once_in_an_order_that_can_be_made() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, silver=2, goods={"grain": 1, "olive": 1}), "deliver", A, 3, "donkey")
    batches = [m for m in game.legal_moves(s) if m.verb == "deliver"]
    sets = Counter(rules.batch_key(m.args) for m in batches)
    assert max(sets.values()) == 1 and len(sets) == len(batches)
    assert rules.batch_key(("handelshaus/1=silver", "handelshaus=grain")) == \
        rules.batch_key(("handelshaus/1=grain", "handelshaus=silver"))
    assert all(game.validate(s, m) is None for m in batches)
    assert max(len(m.args) for m in batches) == 3
    assert parse_move("deliver handelshaus/1=olive handelshaus=silver") in batches
    assert parse_move("deliver handelshaus/1=silver handelshaus=olive") not in batches   # the same set, once
    assert game.validate(s, parse_move("deliver handelshaus/1=silver handelshaus=olive")) is None  # any order


def test_a_delivery_that_asks_a_decision_ends_the_batch_and_the_rest_waits() -> None:
    """Completing Wagner gives its delivery at once (spec 4.3.12): it must be the batch's last delivery; the
    donkey deliveries left follow Wagner's."""
    game, s = new_game(2)
    x = _wagner_ready(edit(s, A, silver=2), A, 2)
    x = x.copy()
    x.stack = x.stack[:-1] + (rules.Task("deliver", A, 3, "donkey"),)
    error = refused(game, x, "deliver wagner=meat handelshaus/1=silver")
    assert error.rule == "4.3.12" and "asks a decision first" in error.reason
    y = game.play(x, "deliver wagner=meat")
    assert [(t.kind, t.n, t.arg) for t in y.stack[-2:]] == [("deliver", 2, "donkey"), ("deliver", 1, "wagner")]
    assert y.players[A].silver == 2
    y = game.play(y, "deliver handelshaus/1=silver")          # Wagner's delivery
    assert (y.stack[-1].kind, y.stack[-1].n) == ("deliver", 2)


def test_a_free_grant_and_a_discard_are_one_move() -> None:
    game, s = new_game(2)
    g = task(edit(s, A, goods={"olive": 2}), "upgrade", A, 2)
    assert "upgrade free olive olive" in [str(m) for m in game.legal_moves(g)]
    t = game.play(g, "upgrade free olive olive")
    assert (t.players[A].goods["olive"], t.players[A].goods["food"]) == (0, 2) and t.stack == g.stack[:-1]
    d = at(edit(s, A, hand=(1, 2, 3, 4, 5)), "refill")
    assert [str(m) for m in game.legal_moves(d) if m.verb == "discard"][:2] == ["discard 1 2", "discard 1 3"]


def test_markers_to_free_are_one_move() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, goods={"olive": 2}, trade=1), "release", A, 2)
    assert refused(game, s, "release olive").rule == "4.2:markers"
    assert refused(game, s, "release wine olive").rule == "4.2:markers"
    assert "release olive olive" in [str(m) for m in game.legal_moves(s)]
    t = game.play(s, "release trade olive")
    assert (t.players[A].goods["olive"], t.players[A].trade) == (1, 0)
