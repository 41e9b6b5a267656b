"""Spec section 10's worked examples T1-T10, each as a player would see it at the table."""

from __future__ import annotations

import pytest

from companion.games.la_granja import rules
from companion.games.la_granja.scoring import Holdings, conversion, rank
from companion.games.la_granja.state import FREE, NEUTRAL
from tests.games.la_granja.table import SHIPPED, at, edit, edition_with, new_game, refused, set_card, task

A, B, C, D = 0, 1, 2, 3


def test_t1_three_player_draft_two_passes_and_the_shared_last_die() -> None:
    game, s = new_game(3)
    s = edit(s, C, goods={"pig": 1})
    s = at(s, "roll")
    silver = [p.silver for p in s.players]
    s = game.play(s, "roll 1 2 3 4 4 5 6")
    assert len(s.dice) == 7 == rules.dice_count(3)
    s = game.play(s, "die 4")                      # A: +4 silver
    s = game.play(s, "die 6")                      # B: 2 silver
    s = game.play(s, "option silver")
    s = game.play(s, "die 3")                      # C: olive + grape
    s = game.play(s, "take olive grape")
    s = game.play(s, "die 5")                      # A: 2 siesta steps
    s = game.play(s, "option siesta")
    assert s.order == (A, B, C)                    # turn order waits for transport step 2
    s = game.play(s, "die 4")                      # B: +4 silver
    s = game.play(s, "die 1")                      # C: pig into the free sty space
    assert s.dice == (2,)
    assert [len(p.dice) for p in s.players] == [2, 2, 2]
    # The last die, a 2, is resolved by A, then B, then C; nobody may take it into a slot.
    assert (s.stack[-1].kind, s.stack[-1].player, s.stack[-1].arg) == ("face", A, "2")
    assert refused(game, s, "die 2").rule == "4.2:dice"
    s = game.play(s, "option crop")
    s = game.play(s, "take grain")
    assert s.stack[-1].player == B
    assert refused(game, s, "die 2").rule == "4.2:dice"   # B may not take a third die
    s = game.play(s, "option crop")
    s = game.play(s, "take olive")
    s = game.play(s, "option card")
    s = game.play(s, "draw")
    s = game.play(s, str(game.chance_outcomes(s)[0][0]))
    a, b, c = s.players
    assert a.silver - silver[A] == 4 and s.position(A) == 2
    assert b.silver - silver[B] == 6
    assert (c.goods["olive"], c.goods["grape"], c.goods["pig"]) == (1, 1, 2)
    assert [p.faces for p in s.players] == [3, 3, 3]
    assert s.phase == "transport"


def test_t2_donkey_availability_within_rounds_1_to_3_and_4_to_6() -> None:
    game, s = new_game(2)
    s = at(edit(s, A, donkeys_used=(3, 1)), "donkey", round=3)
    assert s.stack[-1].kind == "donkey" and game.deciders(s) == (A, B)
    assert sorted(m.args[1] for m in game.legal_moves(s) if game.seat_of(s, m) == A) == ["2", "4"]
    assert refused(game, s, "donkey 1 3").rule == "4.2:donkey"
    s = game.play(s, "donkey 1 4")
    s = game.play(s, "donkey 2 1")
    s = game.play(s, "donkeys 4 1")
    s = at(s, "scoring")                            # round 3 ends: all four come back
    assert s.round == 4 and s.players[A].donkeys_used == ()
    s = at(s, "donkey")
    assert sorted(m.args[1] for m in game.legal_moves(s) if game.seat_of(s, m) == A) == ["1", "2", "3", "4"]
    s = game.play(game.play(game.play(s, "donkey 1 4"), "donkey 2 2"), "donkeys 4 2")
    s = at(s, "siesta")
    s = at(s, "scoring")
    s = at(s, "donkey")
    assert s.round == 5
    assert sorted(m.args[1] for m in game.legal_moves(s) if game.seat_of(s, m) == A) == ["1", "2", "3"]


def test_t2_siesta_stacking_sets_the_new_turn_order() -> None:
    game, s = new_game(4)
    hats = {2: 2, 4: 0, 3: 1}   # the provisional D-09 mapping: 2 donkeys 2 hats, 4 none, 3 one
    assert all(SHIPPED.hats[d] == h for d, h in hats.items())
    siesta = ((D, C, A), (), (B,)) + ((),) * (SHIPPED.siesta_top - 2)
    s = edit(edit(edit(edit(s, A, donkey=2), B, donkey=4), C, donkey=2), D, donkey=3)
    s = at(s, "siesta", round=3, siesta=siesta, order=(A, B, C, D))
    assert s.siesta[2] == (B, A, C)       # bottom to top: C on top of A on top of B
    assert s.siesta[1] == (D,)
    assert s.order == (C, A, B, D)
    s = at(s, "scoring")
    assert s.siesta[0] == (D, B, A, C)    # top to bottom C, A, B, D


def test_t2_round_scoring_four_stalls_and_a_siesta_space_worth_two() -> None:
    game, s = new_game(4)
    pos = SHIPPED.siesta_vp.index(2)
    market = list(s.market)
    market[:] = [FREE] * len(market)
    for i in range(4):
        market[i] = A
    siesta = [tuple(x for x in stack if x != A) for stack in s.siesta]
    siesta[pos] = (A,)
    s = edit(s, A, rows=(("wagner", 0, (True, True, False)),))  # markers at a building score nothing
    before = s.players[A].vp
    s = at(s, "scoring", market=tuple(market), siesta=tuple(siesta))
    assert s.players[A].vp - before == 6
    assert {e.source: e.amount for e in s.players[A].ledger if e.round == 1 and e.source in ("V13", "V14")} == \
        {"V13": 4, "V14": 2}


def _wagner_ready(s, seat, round_):  # type: ignore[no-untyped-def]
    s = edit(s, seat, rows=(("wagner", seat, (True, True, False)),), goods={"meat": 1})
    site = s.sites["wagner"]
    rows = list(site.rows)
    rows[seat] = seat
    s = s.copy()
    s.sites = {**s.sites, "wagner": type(site)(site.lock, site.first_vp, site.craft_left, tuple(rows),
                                                   site.completed_by)}
    s.round = round_
    return task(s, "deliver", seat, 1, "donkey")


@pytest.mark.parametrize("lock_removal", ["distinct_buildings", "completions"])
def test_t3_completing_a_craft_building_first_and_later(lock_removal: str) -> None:
    game, s = new_game(2, options={"lock_removal": lock_removal})
    assert s.sites["gemischt"].lock == 1
    siesta_value = SHIPPED.siesta_vp[s.position(A)]
    x = _wagner_ready(s, A, 2)
    vp = x.players[A].vp
    x = game.play(x, "deliver wagner=meat")
    p = x.players[A]
    assert p.vp - vp == 4 + siesta_value           # +1 first, +1 lock 1, +2 round 2, + siesta value
    assert x.locks_removed == (1,) and x.sites["gemischt"].lock == 0
    assert p.craft("wagner") is False              # front up, taken now
    assert x.stack[-1].kind == "deliver" and x.stack[-1].arg == "wagner"   # its immediate delivery
    assert x.sites["wagner"].completed_by == (A,) and not x.sites["wagner"].first_vp
    assert refused(game, x, "deliver wagner=food").rule == "4.2:completed"
    # (b) round 4: B completes Wagner too, with an active Gemischtwarenladen.
    y = game.play(x, "done")
    y = _wagner_ready(edit(y, B, crafts=(("gemischt", True),)), B, 4)
    vp = y.players[B].vp
    y = game.play(y, "deliver wagner=meat")
    gain = y.players[B].vp - vp - SHIPPED.siesta_vp[y.position(B)]
    if lock_removal == "distinct_buildings":
        assert gain == 6 and y.locks_removed == (1,)
    else:
        assert gain == 7 and y.locks_removed == (1, 2)


def _t4_edition():  # type: ignore[no-untyped-def]
    def change(raw):  # type: ignore[no-untyped-def]
        set_card(raw, 1, cart={"symbols": ["olive", "grain"], "vp": 4})
        raw["market"]["spaces"] = [
            {"id": "M1", "q": 0, "r": 0, "value": 4}, {"id": "M2", "q": 1, "r": 0, "value": 3},
            {"id": "M3", "q": -1, "r": 0, "value": 5}, {"id": "M4", "q": 4, "r": 0, "value": 2},
            {"id": "M5", "q": 0, "r": 1, "value": 6}, {"id": "M6", "q": 0, "r": -1, "value": 6}]
        raw["market"]["start"] = ["M4", "M2", "M1", "M3"]
    return edition_with(change)


@pytest.mark.parametrize("fleischer", [False, True])
def test_t4_completing_a_market_cart_displaces_the_lower_neighbour(fleischer: bool) -> None:
    game, s = new_game(4, edition=_t4_edition())
    s = s.copy()
    s.market = (FREE, B, C, FREE, FREE, FREE)
    crafts = (("fleischer", True),) if fleischer else ()
    s = edit(s, A, carts=((1, (False, False)),), goods={"grain": 1}, fields=((4, True),), crafts=crafts)
    assert s.edition.cards[4].field == "olive"
    s = task(s, "deliver", A, 2, "donkey")
    vp, trade = s.players[A].vp, s.players[A].trade
    s = game.play(s, "deliver cart1=olive:field cart1=grain")     # both deliveries, one move
    p = s.players[A]
    assert p.vp - vp == (6 if fleischer else 5)
    assert p.trade - trade == 1
    assert p.carts == () and s.discards[-1] == 1
    assert s.market == (A, FREE, C, FREE, FREE, FREE)   # the 3 goes back to B, the 5 stays


def test_t5_cart_value_taken_everywhere_removes_the_holder_and_lower_neighbours() -> None:
    def change(raw):  # type: ignore[no-untyped-def]
        set_card(raw, 1, cart={"symbols": ["olive", "grain"], "vp": 3})
        raw["market"]["spaces"] = [
            {"id": "M1", "q": 0, "r": 0, "value": 3}, {"id": "M2", "q": 1, "r": 0, "value": 2},
            {"id": "M3", "q": -1, "r": 0, "value": 2}, {"id": "M4", "q": 0, "r": 1, "value": 4},
            {"id": "M5", "q": 0, "r": -1, "value": 5}, {"id": "M6", "q": 3, "r": 0, "value": 3}]
        raw["market"]["start"] = ["M2", "M1", "M4", "M5"]
    game, s = new_game(4, edition=edition_with(change))
    P, Q, R, S = A, B, C, D
    s = s.copy()
    s.market = (Q, R, P, S, FREE, P)
    s = task(edit(s, P, carts=((1, (True, False)),), goods={"grain": 1}), "deliver", P, 1, "donkey")
    vp = s.players[P].vp
    s = game.play(s, "deliver cart1=grain")
    assert s.players[P].vp - vp == 3 + 1 + 1
    assert s.market == (P, FREE, P, S, FREE, P)


def test_t6_extension_cost_different_kinds_and_the_hand_limit() -> None:
    game, s = new_game(2)
    hand = s.players[A].hand
    s = edit(s, A, extensions=(60, 61), silver=3, vp=3, fields=((1, True),), goods={"wine": 1, "grain": 1, "pig": 1})
    s = task(s, "play", A, 1)
    card = hand[0]
    assert refused(game, s, f"place {card} ext silver silver grain").rule == "4.3.1"
    assert refused(game, s, f"place {card} ext trade silver grape").rule == "A-08"
    assert refused(game, s, f"place {card} ext silver wine").rule == "4.3.1"
    for payment in ("silver olive:field wine", "vp grain pig"):
        t = game.play(s, f"place {card} ext {payment}")
        p = t.players[A]
        assert len(p.extensions) == 3 and rules.hand_limit(t, p) == 6
    t = game.play(s, f"place {card} ext silver olive:field wine")
    assert t.players[A].fields == ((1, False),) and t.players[A].goods["wine"] == 0


def test_t6_round_one_two_extensions_with_a_trade_good_then_refill_to_five() -> None:
    game, s = new_game(2)
    first, second = s.players[A].hand[:2]
    p = s.players[A]
    assert (p.vp, p.silver, p.trade) == (1, 1, 1)
    s = game.play(s, f"place {first} ext silver")
    assert refused(game, s, f"place {second} ext vp silver").rule == "4.3.1"   # no silver left
    s = game.play(s, "trade silver")
    s = game.play(s, f"place {second} ext silver vp")
    p = s.players[A]
    assert p.extensions == (first, second) and p.vp == 0 and p.silver == 3 and p.trade == 0
    s = game.play(s, "done")                               # B places nothing
    while s.stack[-1].kind == "deal":
        s = game.play(s, str(game.chance_outcomes(s)[0][0]))
    assert len(s.players[A].hand) == 5 == rules.hand_limit(s, s.players[A])
    assert s.stack[-1].kind == "discard" and s.stack[-1].player == B   # B kept 4 cards: down to 3
    assert refused(game, s, f"discard {first}").rule == "4.2:hand"
    s = game.play(s, f"discard {s.players[B].hand[0]}")
    assert len(s.players[B].hand) == 3


def test_t7_roof_markers_reverse_order_in_round_one_and_rising_prices() -> None:
    game, s = new_game(3)
    assert len(s.display) == 3
    s = at(s, "roof")
    assert [t.player for t in reversed(s.stack)] == [C, B, A]
    for seat in (C, B, A):
        assert s.stack[-1].player == seat
        silver, vp = s.players[seat].silver, s.players[seat].vp
        s = game.play(s, f"roof {s.display[0]}")
        assert s.players[seat].silver == silver - 1 and s.players[seat].vp == vp   # slot 1: +0
    # round 2: A's second marker costs 2 and gives slot 2's +1
    s2 = task(edit(at(s, "roof", round=2, display=("R5",)), A, silver=2, bought_roof=False), "roof", A)
    s2 = game.play(s2, "roof R5")
    assert s2.players[A].silver == 0 and s2.players[A].ledger[-1].amount == 1
    # round 5: a third marker costs 5 and gives slot 3's value
    s5 = task(edit(s, A, silver=5, roofs=(("R1", True), ("R5", True)), bought_roof=False), "roof", A)
    s5.round, s5.display = 5, ("R17",)
    vp = s5.players[A].vp
    s5 = game.play(s5, "roof R17")
    assert s5.players[A].vp - vp == SHIPPED.roof_slot_vp[2] and s5.players[A].silver == 0
    # illegal: a 6th marker, a second in one round, too little silver
    full = tuple((r, True) for r in ("R1", "R2", "R3", "R4", "R6"))
    s6 = task(edit(s, A, silver=9, roofs=full, bought_roof=False), "roof", A)
    s6.round, s6.display = 5, ("R17",)
    assert refused(game, s6, "roof R17").rule == "4.2:roof"
    assert refused(game, task(edit(s6, A, roofs=(), bought_roof=True), "roof", A), "roof R17").rule == "4.2:roof"
    assert refused(game, task(edit(s6, A, roofs=(), silver=4), "roof", A), "roof R17").rule == "4.3.9"


@pytest.mark.parametrize(("pigs", "sty_extensions", "after"), [(2, 0, 2), (2, 1, 3), (4, 4, 5), (1, 0, 1)])
def test_t8_one_piglet_only_with_two_pigs_and_room(pigs: int, sty_extensions: int, after: int) -> None:
    def change(raw):  # type: ignore[no-untyped-def]
        for card in (40, 41, 42, 43):
            set_card(raw, card, extension={"sty": 1})
    game, s = new_game(2, edition=edition_with(change))
    s = edit(s, A, goods={"pig": pigs}, extensions=(40, 41, 42, 43)[:sty_extensions])
    s = at(s, "growth")
    assert s.players[A].goods["pig"] == after


def test_t8_face_one_with_a_full_sty_sells_the_pig() -> None:
    game, s = new_game(2)
    s = at(edit(s, A, goods={"pig": 2}), "roll")
    s = game.play(s, "roll 1 2 3 4 5")
    silver = s.players[A].silver
    s = game.play(s, "die 1")
    assert s.players[A].goods["pig"] == 2 and s.players[A].silver == silver + SHIPPED.sell["pig"]


def test_t9_final_conversion_and_the_tie_breaker_on_silver() -> None:
    sell = {"olive": 1, "grain": 1, "grape": 2, "pig": 2}
    a = conversion(Holdings("A", 27, 12, 2, {"olive": 1, "grain": 1, "grape": 0, "pig": 0}), sell)
    b = conversion(Holdings("B", 30, 9, 0, {}), sell)
    assert a == {"silver_total": 22, "conversion_points": 4, "rest_silver": 2}
    assert b == {"silver_total": 9, "conversion_points": 1, "rest_silver": 4}
    rows = [{"total": 27 + 4, "rest_silver": 2}, {"total": 30 + 1, "rest_silver": 4}]
    rank(rows)
    assert [r["rank"] for r in rows] == [2, 1]
    shared = [{"total": 31, "rest_silver": 2}, {"total": 31, "rest_silver": 2}]
    rank(shared)
    assert all(r["winner"] for r in shared)


def test_t9_game_score_after_round_six_converts_and_ranks() -> None:
    game, s = new_game(2)
    s = edit(s, A, silver=12, trade=2, goods={"olive": 1, "grain": 1, "wine": 1}, fields=((1, True),))
    s = edit(s, B, silver=9, trade=0)
    s = at(s, "scoring", round=6, market=(FREE,) * len(s.market))
    assert s.over and game.is_over(s)
    rows = game.score(s)
    a, b = rows
    assert a["silver_total"] == 12 + 8 + SHIPPED.sell["olive"] + SHIPPED.sell["grain"]   # wine, field grape: 0
    assert a["ledger"]["V15"] == a["conversion_points"] and a["total"] == a["vp"] + a["conversion_points"]
    assert sum(r["winner"] for r in rows) >= 1


def test_t10_solo_dice_start_player_lowest_removed_in_round_two() -> None:
    game, s = new_game(1, order="2")
    assert s.solo_start
    s = at(s, "roll", round=2)
    s = game.play(s, "roll 2 5 1 6 3")
    s = game.play(s, "die 6")
    s = game.play(s, "option silver")
    assert s.dice == (2, 3, 5)          # the 1 went
    s = game.play(s, "die 5")
    s = game.play(s, "option siesta")
    assert s.dice == (3,)               # the 2 went; the last die is the 3
    assert s.stack[-1].kind == "take" and s.stack[-1].n == 2
    s = game.play(s, "take olive grain")
    assert s.players[0].faces == 3 and s.players[0].dice == (6, 5)


def test_t10_solo_dice_second_player_highest_removed_in_round_five() -> None:
    game, s = new_game(1, order="3")
    assert not s.solo_start
    s = at(s, "roll", round=5)
    s = game.play(s, "roll 4 6 6 2 1")
    assert s.dice == (1, 2, 4, 6)       # a 6 went before the first pick
    s = game.play(s, "die 4")
    assert s.dice == (1, 2)             # the other 6 went
    s = game.play(s, "die 1")
    assert s.dice == (2,) and s.stack[-1].arg == "2"
    assert s.players[0].faces == 3


def test_t10_solo_neutral_places_first_and_removes_the_players_lower_neighbours() -> None:
    def change(raw):  # type: ignore[no-untyped-def]
        for card in range(1, 67):
            set_card(raw, card, cart={"symbols": ["olive", "grain"], "vp": 4})
        raw["market"]["spaces"] = [
            {"id": "M1", "q": 0, "r": 0, "value": 2}, {"id": "M2", "q": 1, "r": 0, "value": 3},
            {"id": "M3", "q": 5, "r": 0, "value": 4}, {"id": "M4", "q": 6, "r": 0, "value": 5},
            {"id": "M5", "q": 1, "r": -1, "value": 4}, {"id": "M6", "q": 3, "r": 3, "value": 4}]
        raw["market"]["start"] = ["M1", "M2", "M3", "M4"]
    game, s = new_game(1, order="3", edition=edition_with(change))
    assert s.market[:2] == (NEUTRAL, 0) or s.market[:2] == (0, NEUTRAL)
    s = s.copy()
    s.market = (0, 0, FREE, FREE, FREE, FREE)
    s.round = 5
    s = at(s, "neutral_before")
    assert s.stack[-1].kind == "neutral"
    vp = s.players[0].vp
    s = game.play(s, str(game.chance_outcomes(s)[0][0]))
    # M5 touches both of the player's stalls (on a 2 and a 3): both go back, no VP for anyone
    assert s.market == (FREE, FREE, FREE, FREE, NEUTRAL, FREE)
    assert s.players[0].vp == vp
    assert s.stack[-1].kind == "donkey"   # then the player's transport phase


def test_solo_neutral_without_stalls_to_remove_places_hard_to_remove_and_apart() -> None:
    def change(raw):  # type: ignore[no-untyped-def]
        for card in range(1, 67):
            set_card(raw, card, cart={"symbols": ["olive", "grain"], "vp": 4})
        raw["market"]["spaces"] = [
            {"id": "M1", "q": 0, "r": 0, "value": 2}, {"id": "M2", "q": 1, "r": 0, "value": 3},
            {"id": "M3", "q": 2, "r": 0, "value": 4}, {"id": "M4", "q": 9, "r": 0, "value": 5},
            {"id": "M5", "q": 3, "r": 0, "value": 4}, {"id": "M6", "q": 6, "r": 0, "value": 4},
            {"id": "M7", "q": 7, "r": 0, "value": 6}]
        raw["market"]["start"] = ["M1", "M2", "M3", "M4"]
    game, s = new_game(1, order="2", edition=edition_with(change))
    s = s.copy()
    s.market = (NEUTRAL, FREE, FREE, FREE, FREE, FREE, FREE)
    s = at(s, "neutral_after")
    s = game.play(s, str(game.chance_outcomes(s)[0][0]))
    # M6 touches the 6 (easier to remove); of M3 and M5, M5 is farther from the neutral on M1
    assert s.market == (NEUTRAL, FREE, FREE, FREE, NEUTRAL, FREE, FREE)
