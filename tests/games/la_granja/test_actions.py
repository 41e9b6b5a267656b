"""Anytime actions on your own turn (spec 3.1, 4.3.4-4.3.7) and the farm phase's automatic steps."""

from __future__ import annotations

from tests.games.la_granja.table import SHIPPED, at, edit, edition_with, new_game, refused, set_card, task

A, B = 0, 1


def _my_turn(**changes):  # type: ignore[no-untyped-def]
    game, s = new_game(2)
    return game, task(edit(s, A, **changes), "play", A, 1)


def test_buy_and_sell_at_the_printed_prices_upgraded_goods_never() -> None:
    game, s = _my_turn(silver=10, goods={"food": 1})
    s = game.play(s, "buy olive")
    assert s.players[A].silver == 10 - SHIPPED.buy["olive"] == 7 and s.players[A].goods["olive"] == 1
    s = game.play(s, "sell olive")
    assert s.players[A].silver == 7 + SHIPPED.sell["olive"] == 8
    assert refused(game, s, "sell food").rule == "1.9"
    assert refused(game, s, "buy wine").rule == "1.9"
    assert refused(game, s, "sell grain").rule == "4.3.4"
    assert refused(game, edit(s, A, silver=2), "buy grain").rule == "4.3.4"


def test_upgrade_from_storage_or_a_field_at_its_cost_and_free_upgrades_from_a_grant() -> None:
    game, s = _my_turn(silver=4, goods={"grape": 1, "pig": 1}, fields=((1, True),))
    s = game.play(s, "upgrade grape")
    p = s.players[A]
    assert p.goods["wine"] == 1 and p.goods["grape"] == 0 and p.silver == 4 - SHIPPED.upgrade_cost["grape"]
    crop = SHIPPED.cards[1].field
    s = game.play(s, f"upgrade {crop}:field")
    assert s.players[A].fields == ((1, False),)
    assert s.players[A].goods["wine" if crop == "grape" else "food"] >= 1
    assert refused(game, s, "upgrade wine").rule == "1.9"
    assert refused(game, edit(s, A, silver=0), "upgrade pig").rule == "4.3.5"
    g = game.play(edit(s, A, silver=0, trade=1), "trade upgrade")    # two free upgrades
    assert (g.stack[-1].kind, g.stack[-1].n) == ("upgrade", 2)
    assert refused(game, g, "upgrade free pig pig").rule == "4.3.5"   # one pig: the grant is refused as a whole
    one = task(edit(g, A, goods={"olive": 1}), "upgrade", A, 1)
    assert refused(game, one, "upgrade free olive pig").rule == "4.3.5"  # a grant of one upgrades one
    assert game.play(g, "done").stack[-1].kind == "play"               # none: the grant is forgone
    g = game.play(g, "upgrade free pig")                               # one of two: the grant ends
    assert g.players[A].goods["meat"] == 1 and g.players[A].silver == 0
    assert g.stack[-1].kind == "play"


def test_a_trade_good_buys_one_of_five_things() -> None:
    game, s = _my_turn(trade=5, silver=0, hand=(11, 12))
    assert game.play(s, "trade silver").players[A].silver == 4
    crops = game.play(s, "trade crops")
    assert refused(game, crops, "take olive olive").rule == "4.3.3"
    assert game.play(crops, "take olive grape").players[A].goods["grape"] == 1
    card = game.play(s, "trade card")
    assert {str(m) for m in game.legal_moves(card)} >= {"place 11 field", "draw", "skip"}
    assert game.play(s, "trade pig").players[A].goods["pig"] == 1
    assert refused(game, edit(s, A, trade=0), "trade silver").rule == "4.3.7"
    assert refused(game, s, "trade gold").rule == "4.3.7"


def test_income_growth_and_the_gemuesehaendler_choice() -> None:
    def income(raw):  # type: ignore[no-untyped-def]
        set_card(raw, 60, extension={"income": {"silver": 2, "olive": 1}})
    game, s = new_game(2, edition=edition_with(income))
    s = edit(s, A, extensions=(60,), crafts=(("handelshaus", True), ("gemuese", True), ("feinkost", False)))
    silver, trade = s.players[A].silver, s.players[A].trade
    s = at(s, "income")
    p = s.players[A]
    assert p.silver == silver + 3 + 2 and p.goods["olive"] == 1
    assert p.trade == trade                        # Feinkostladen still front up: no income yet
    assert (s.stack[-1].kind, s.stack[-1].player) == ("take", A)
    s = game.play(s, "take pig")
    assert s.players[A].goods["pig"] == 1


def test_round_scoring_flips_new_craft_markers_and_the_next_roof_markers_come_out() -> None:
    game, s = new_game(3)
    s = edit(s, A, crafts=(("wagner", False),))
    s = at(s, "scoring")
    assert s.round == 2 and s.players[A].crafts == (("wagner", True),)
    assert s.stack[-1].kind == "reveal"            # 3 of round 2's four markers, at random
    for _ in range(3):
        s = game.play(s, str(game.chance_outcomes(s)[0][0]))
    assert len(s.display) == 3 and all(SHIPPED.roofs[r].round == 2 for r in s.display)
    assert len(s.roof_box) >= 1                     # the fourth went back to the box unseen
