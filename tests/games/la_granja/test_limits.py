"""Every limit of spec section 4.2, each with a legal and an illegal case (rule IDs in the errors)."""

from __future__ import annotations

from companion.games.la_granja import rules
from companion.games.la_granja.state import FREE
from tests.games.la_granja.table import SHIPPED, at, edit, edition_with, new_game, refused, set_card, stalls, task

A, B = 0, 1


def _playing(**changes):  # type: ignore[no-untyped-def]
    game, s = new_game(2)
    return game, task(edit(s, A, **changes), "play", A, 1)


def test_carts_at_most_three_a_fourth_replaces_one_without_refund() -> None:
    game, s = _playing(carts=((60, (True, False, False)), (61, ()), (62, ())))
    card = s.players[A].hand[0]
    assert refused(game, s, f"place {card} cart").rule == "4.2:carts"
    assert refused(game, s, f"place {card} cart replace 9").rule == "4.2:carts"
    t = game.play(s, f"place {card} cart replace 60")
    assert [c for c, _ in t.players[A].carts] == [61, 62, card] and t.discards[-1] == 60
    game, s = _playing(carts=((61, ()),))
    assert refused(game, s, f"place {card} cart replace 61").rule == "4.2:carts"   # only with 3 in place
    assert len(game.play(s, f"place {card} cart").players[A].carts) == 2


def test_helpers_at_most_three() -> None:
    game, s = _playing(helpers=(60, 61, 62))
    card = s.players[A].hand[0]
    assert refused(game, s, f"place {card} helper").rule == "4.2:helpers"
    assert game.play(s, f"place {card} helper replace 61").players[A].helpers == (60, 62, card)


def test_fields_unlimited_and_a_new_field_starts_empty() -> None:
    game, s = _playing(fields=tuple((c, True) for c in range(60, 66)))
    card = s.players[A].hand[0]
    t = game.play(s, f"place {card} field")
    assert len(t.players[A].fields) == 7 and t.players[A].fields[-1] == (card, False)


def test_one_crop_per_field_growth_only_on_empty_fields() -> None:
    game, s = new_game(2)
    s = at(edit(s, A, fields=((1, True), (2, False))), "growth")
    assert s.players[A].fields == ((1, True), (2, True))
    # crops never leave a field for storage; a delivery from an empty field is refused
    s = task(edit(s, A, fields=((1, False),), carts=((60, (False,) * len(SHIPPED.cards[60].cart_symbols)),)),
             "deliver", A, 1)
    kind = SHIPPED.cards[1].field
    assert refused(game, s, f"deliver wagner/1={kind}:field").rule in ("4.3.12", "4.2:locked")


def test_pigs_within_the_sty() -> None:
    game, s = _playing(goods={"pig": 1}, silver=20)
    t = game.play(s, "buy pig")
    assert t.players[A].goods["pig"] == 2
    assert refused(game, t, "buy pig").rule == "4.2:sty"
    assert refused(game, t, "adjust pig 1 a helper gave a pig").rule == "4.2:sty"


def test_roof_markers_five_and_one_a_round_more_with_schuppenbauer() -> None:
    game, s = new_game(2)
    full = tuple((r, True) for r in ("R1", "R2", "R3", "R4", "R6"))
    s = task(edit(s, A, roofs=full, silver=9), "roof", A)
    s.display = ("R5",)
    assert refused(game, s, "roof R5").rule == "4.2:roof"
    assert SHIPPED.cards[50].roof_slots == 1
    t = game.play(edit(s, A, helpers=(50,)), "roof R5")
    assert len(t.players[A].roofs) == 6
    assert refused(game, edit(s, A, roofs=(), bought_roof=True), "roof R5").rule == "4.2:roof"


def test_hand_equals_the_limit_right_after_farm_step_one_only() -> None:
    game, s = new_game(2)
    s = at(edit(s, A, hand=(1, 2, 3, 4, 5, 6)), "refill")
    assert s.stack[-1].kind == "discard" and s.stack[-1].n == 3
    assert refused(game, s, "discard 1 2 66").rule == "4.2:hand"
    assert refused(game, s, "discard 1 2").rule == "4.2:hand"          # the whole excess at once
    assert refused(game, s, "discard 1 1 2").rule == "4.2:hand"
    s = game.play(s, "discard 3 1 2")                                  # in any order
    assert s.players[A].hand == (4, 5, 6) and s.discards[-3:] == (1, 2, 3)
    # during the round a hand may grow past the limit: a die-2 draw is never refused
    t = task(edit(s, A, hand=(4, 5, 6)), "card", A)
    t = game.play(t, "draw")
    t = game.play(t, str(game.chance_outcomes(t)[0][0]))
    assert len(t.players[A].hand) == 4


def test_deliveries_at_most_the_donkeys_plus_wagner() -> None:
    game, s = new_game(2)
    s = edit(edit(s, A, donkey=2, silver=9, crafts=(), goods={"grain": 2}), B, donkey=1)
    s = at(s, "deliver", order=(A, B))
    assert s.stack[-1].n == 2
    assert refused(game, s, "deliver handelshaus/1=silver handelshaus=grain handelshaus=grain").rule == \
        "4.2:deliveries"                                         # three deliveries with two donkeys
    s = game.play(s, "deliver handelshaus/1=silver handelshaus=grain")
    assert s.stack[-1].player == B                               # A's two deliveries are used up
    assert refused(game, task(s, "extra", A), "deliver handelshaus=olive").rule == "4.2:extra"
    wagner = at(edit(edit(s, A, donkey=2, crafts=(("wagner", True),)), B, donkey=1), "deliver", order=(A, B))
    assert wagner.stack[-1].n == 3


def test_extra_deliveries_at_most_capacity_paid_in_silver() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, silver=5), "extra", A)
    assert refused(game, s, "extra 2").rule == "4.2:extra"        # one extra-delivery symbol at the start
    t = game.play(s, "extra 1")
    assert t.players[A].silver == 4 and t.stack[-1].kind == "deliver" and t.stack[-1].n == 1

    def grey(raw):  # type: ignore[no-untyped-def]
        set_card(raw, 60, extension={"grey_rows": 1})
    game, s = new_game(2, edition=edition_with(grey))
    s = task(edit(s, A, silver=1, extensions=(60,)), "extra", A)
    assert refused(game, s, "extra 2").rule == "4.2:extra"        # capacity 2, but only 1 silver
    assert game.play(edit(s, A, silver=2), "extra 2").players[A].silver == 0


def test_rows_one_per_building_chosen_on_the_first_delivery_then_fixed() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, silver=3), "deliver", A, 3)
    assert refused(game, s, "deliver handelshaus=silver").rule == "4.2:rows"
    assert refused(game, s, "deliver handelshaus/2=silver handelshaus/3=silver").rule == "4.2:rows"
    s = game.play(s, "deliver handelshaus/2=silver")
    assert s.sites["handelshaus"].rows[1] == A
    assert refused(game, task(s, "deliver", A, 1), "deliver handelshaus/3=silver").rule == "4.2:rows"
    b = task(edit(s, B, silver=1), "deliver", B, 1)
    assert refused(game, b, "deliver handelshaus/2=silver").rule == "4.2:rows"
    assert game.play(b, "deliver handelshaus/1=silver").sites["handelshaus"].rows[:2] == (B, A)


def test_no_delivery_to_a_locked_building_until_its_lock_goes() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, goods={"grape": 1}), "deliver", A, 1)
    assert refused(game, s, "deliver gemischt/1=grape").rule == "4.2:locked"
    s.sites = {**s.sites, "gemischt": type(s.sites["gemischt"])(0, True, 2)}
    assert game.play(s, "deliver gemischt/1=grape").players[A].rows[0][0] == "gemischt"


def test_completed_building_and_one_craft_marker_of_each_kind() -> None:
    game, s = new_game(2)
    s = task(edit(s, A, completed=("wagner",), crafts=(("wagner", True),), goods={"food": 1}), "deliver", A, 1)
    assert refused(game, s, "deliver wagner/1=food").rule == "4.2:completed"
    assert game.play(s, "deliver fleischer/1=food").players[A].rows


def test_donkey_markers_used_once_in_rounds_one_to_three() -> None:
    game, s = new_game(2)
    s = at(edit(s, A, donkeys_used=(2,)), "donkey", round=2)
    assert refused(game, s, "donkey 1 2").rule == "4.2:donkey"
    assert game.play(s, "donkey 1 1").players[A].donkey == 1


def test_crops_on_fields_are_never_sold_except_with_feldarbeiter() -> None:
    game, s = _playing(fields=((1, True),))
    kind = SHIPPED.cards[1].field
    assert refused(game, s, f"sell {kind}:field").rule == "4.2:fields"
    assert SHIPPED.cards[35].sell_field_crops
    t = game.play(edit(s, A, helpers=(35,)), f"sell {kind}:field")
    assert t.players[A].fields == ((1, False),) and t.players[A].silver == 1 + SHIPPED.sell[kind]


def test_dice_two_per_player_then_the_shared_last_die() -> None:
    game, s = new_game(2)
    s = game.play(at(s, "roll"), "roll 1 2 3 4 4")
    s = game.play(s, "die 4")
    assert refused(game, task(s, "face", A, arg="5"), "die 1").rule == "4.2:dice"
    s = game.play(s, "die 4")
    s = game.play(s, "die 1")
    s = game.play(s, "die 2")
    s = game.play(s, "option crop")
    s = game.play(s, "take olive")
    assert s.dice == (3,) and s.stack[-1].kind == "take"   # the 3 for A, then for B
    assert refused(game, s, "die 3").rule == "4.2:dice"


def test_market_stall_must_go_on_the_carts_value() -> None:
    game, s = new_game(4)
    s = task(s, "stall", A, 6)
    s.market = (FREE,) * len(s.market)
    sixes = [sp.id for sp in SHIPPED.spaces if sp.value == 6]
    other = next(sp.id for sp in SHIPPED.spaces if sp.value != 6)
    assert refused(game, s, f"stall {other}").rule == "4.3.13"
    assert game.play(s, f"stall {sixes[0]}").market[SHIPPED.space_index(sixes[0])] == A


def test_anytime_actions_only_on_your_own_turn_never_during_the_secret_donkey_choice() -> None:
    game, s = new_game(2)
    s = at(edit(s, A, silver=9), "donkey")
    assert refused(game, s, "buy olive").rule == "3.4"
    t = game.play(task(s, "deliver", A, 1), "buy olive")
    assert t.players[A].goods["olive"] == 1 and t.players[A].silver == 9 - SHIPPED.buy["olive"]
    assert rules.validate(s, game.parse_move("done")) is not None


def test_markers_at_most_twenty_five_a_gain_past_that_first_frees_one() -> None:
    game, s = new_game(2)
    assert rules.markers_in_use(s, A) == 2          # trade good and stall
    s = at(edit(s, A, goods={"olive": 22}, silver=9), "roll")
    assert rules.markers_in_use(s, A) == 24
    s = game.play(s, "roll 3 3 4 5 6")
    s = game.play(s, "die 3")
    s = game.play(s, "take grain grape")           # 26 in use: one must come off first
    assert s.stack[-1].kind == "release" and s.stack[-1].player == A and s.stack[-1].n == 1
    assert refused(game, s, "release wine").rule == "4.2:markers"
    assert refused(game, s, "die 4").rule == "4.2:dice"
    t = game.play(s, "release olive")
    assert rules.markers_in_use(t, A) == 25 and t.players[A].goods["olive"] == 21
    assert t.stack[-1].player == B                  # B goes on picking
    stall = stalls(s, A)[0]
    assert game.play(s, f"release {stall}").market[SHIPPED.space_index(stall)] == FREE
    # with the flag off nothing is asked
    game, s = new_game(2, options={"marker_limit": "off"})
    s = game.play(game.play(at(edit(s, A, goods={"olive": 22}), "roll"), "roll 3 3 4 5 6"), "die 3")
    assert game.play(s, "take grain grape").stack[-1].kind != "release"


def test_extra_deliveries_one_at_a_time_under_the_english_reading() -> None:
    def grey(raw):  # type: ignore[no-untyped-def]
        set_card(raw, 60, extension={"grey_rows": 1})
    game, s = new_game(2, edition=edition_with(grey), options={"extra_purchase": "one_at_a_time"})
    s = task(edit(s, A, silver=5, extensions=(60,)), "extra", A)
    assert refused(game, s, "extra 2").rule == "4.3.14"
    s = game.play(s, "extra 1")
    s = game.play(s, "deliver handelshaus/1=silver")
    assert (s.stack[-1].kind, s.stack[-1].n) == ("extra", 1)     # the second one may still be bought
    s = game.play(s, "extra 1")
    s = game.play(s, "done")
    assert refused(game, s, "extra 1").rule == "4.2:extra"       # capacity 2 used up
    assert game.play(s, "extra 0").players[A].silver == 5 - 2 - 1
