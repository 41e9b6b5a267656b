"""Key Harvest rules, one legal and one illegal case per rule ID of spec sections 3, 4 and 7.

Events (section 6) are in test_events.py and worker abilities (section 5) in
test_workers.py. The spec's worked examples (section 12) are in test_examples.py, so the
positions here are different ones. Setup, notation, hidden information, the variant flags
of section 10.3 and a meta-test that every rule ID is cited close the file.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, TERMINAL
from companion.games.key_harvest import KeyHarvest, rules
from companion.games.key_harvest.moves import parse_move
from companion.games.key_harvest.variants import VARIANT_FLAGS

from .rulekit import (
    ALICE,
    BOB,
    CARA,
    allow,
    decline_all,
    fields_of,
    harvested_of,
    kinds,
    layout,
    legal,
    office_of,
    pending_event,
    play,
    refuse,
    seats,
    stones,
    three,
    workers_of,
)

# --------------------------------------------------------------------------- section 3: turns

# Alice: a group B2-B3-C3 (wheat, wheat, wine), 2 wheat, her own warehouse tile 20 bid {wheat}.
TURN = {"fields": ["B2", "B3", "C3"], "stones": {"wheat": 2, "wine": 1}, "warehouse": [("20", {"wheat": 1})],
        "workers": {"A3": "A"}}
TURN_CROPS = {"B2": "wheat", "B3": "wheat", "C3": "wine"}


def turn_table(**kw: Any) -> tuple[KeyHarvest, Any]:
    return three(TURN, crops=TURN_CROPS, **kw)


def test_r_t1_two_different_actions_then_only_end() -> None:
    """R-T1: up to two actions, each a different one; after A and B only ending the turn is left."""
    game, state = turn_table()
    state = allow(game, state, "harvest B2", "done", "play C C2", "decline")
    assert state.actions == "AB"
    assert legal(game, state) == {"end"}


@pytest.mark.parametrize("before, move", [
    (("harvest B2", "done"), "harvest C3"),                     # A twice
    (("buy 20",), "buy 20"),                                     # C twice (the tile is gone, C is used)
    (("harvest B2", "done", "remove A3"), "bid 10 wheat"),     # a third action
])
def test_r_t1_an_action_twice_or_a_third_action_is_refused(before: tuple[str, ...], move: str) -> None:
    """R-T1: each of A-D at most once per turn, so at most two actions."""
    game, state = turn_table()
    state = play(game, state, *before)
    refuse(game, state, move, "R-T1")


def test_r_t2_buying_then_bidding_is_allowed() -> None:
    """R-T2: C then D is fine."""
    game, state = turn_table()
    state = allow(game, state, "buy 20")
    state = allow(game, state, "bid 10 wheat")
    state = play(game, state, "draw 16")
    assert state.actions == "CD"
    assert "20" in fields_of(state, ALICE) and [t for t, _ in state.player(ALICE).warehouse] == [
        layout().space("10")]


def test_r_t2_buying_after_bidding_is_refused() -> None:
    """R-T2: once D has been done this turn, C is no longer allowed (even for one's own tile)."""
    game, state = turn_table()
    state = play(game, state, "bid 10 wheat", "draw 16")
    refuse(game, state, "buy 20", "R-T2")


def test_r_t3_removing_a_worker_is_action_b() -> None:
    """R-T3: removing is action B; with a different second action the turn is legal."""
    game, state = turn_table()
    state = allow(game, state, "remove A3", "harvest B2", "done")
    assert state.actions == "BA"
    assert workers_of(state, ALICE) == {} and "A" in state.player(ALICE).beside


@pytest.mark.parametrize("first, second", [
    (("remove A3",), "play C C2"),
    (("play C C2", "decline"), "remove A3"),
])
def test_r_t3_playing_and_removing_in_one_turn_is_refused(first: tuple[str, ...], second: str) -> None:
    """R-T3: playing and removing a worker are both action B."""
    game, state = turn_table()
    state = play(game, state, *first)
    refuse(game, state, second, "R-T3")


# Alice's Unskilled Labourer (D) on B2 touches A2, A3, B3 (A3 and B3 harvested). Bob's
# warehouse holds tile B2 bid {hops}; Alice has 1 hops and 2 wheat.
DISPLACE = {"fields": ["A2", "A3", "B3"], "harvested": ["A3", "B3"], "workers": {"B2": "D"},
            "stones": {"hops": 1, "wheat": 2}}
DISPLACE_BOB = {"warehouse": [("B2", {"hops": 1})]}


def displace_table(alice: dict[str, Any] | None = None, **kw: Any) -> tuple[KeyHarvest, Any]:
    return three({**DISPLACE, **(alice or {})}, DISPLACE_BOB, **kw)


def test_r_t4_bonus_replacement_and_events_do_not_count_as_actions() -> None:
    """R-T4: a displacement bonus (with its ability) and an event drawn in the turn are not actions."""
    game, state = displace_table(bag_events="P")
    state = allow(game, state, "buy B2", "bonus A4", "flip A3")
    assert state.actions == "C"
    state = allow(game, state, "bid 10 wheat")
    state = play(game, state, "event P")
    state = decline_all(game, state)
    state = play(game, state, "draw 16", "done")
    assert state.actions == "CD"
    assert legal(game, state) == {"end"}


def test_r_t4_a_bonus_is_no_extra_action() -> None:
    """R-T4: while the bonus is pending no action can be slipped in, and after C (with a bonus)
    and D a third action is still refused."""
    game, state = displace_table()
    state = play(game, state, "buy B2")
    refuse(game, state, "harvest A2", "R-X2")
    state = play(game, state, "bonus A4", "decline", "bid 10 wheat", "draw 16", "done")
    refuse(game, state, "harvest A2", "R-T1")


def test_r_t5_a_turn_without_actions() -> None:
    """R-T5: ending the turn with no action at all is allowed (passing)."""
    game, state = turn_table()
    after = allow(game, state, "end")
    assert after.active == BOB and after.actions == ""
    assert after.players == state.players and after.office == state.office


def test_r_t5_the_turn_cannot_end_inside_an_action() -> None:
    """R-T5: passing is allowed between actions, not while an action (a harvest) is unfinished."""
    game, state = turn_table()
    state = play(game, state, "harvest B2")
    refuse(game, state, "end", "R-A2")


# --------------------------------------------------------------------------- 4.1 action A

# Alice: group {B2, B3, C3, C4} (C3 harvested links it) and the single tile A5. Her
# Apprentice on B4 touches B3, C3, C4 and A5 but workers never connect.
HARVEST = {"fields": ["B2", "B3", "C3", "C4", "A5"], "harvested": ["C3"], "workers": {"B4": "A"}}
HARVEST_CROPS = {"B2": "wheat", "B3": "wheat", "C3": "wine", "C4": "vegetables", "A5": "wine"}


def harvest_table(options: dict[str, str] | None = None, **kw: Any) -> tuple[KeyHarvest, Any]:
    return three(HARVEST, crops=HARVEST_CROPS, options=options, **kw)


def test_r_a1_a_group_is_linked_through_harvested_tiles() -> None:
    """R-A1: B2 and C4 are one group through the harvested C3, so one action harvests both."""
    game, state = harvest_table()
    state = allow(game, state, "harvest B2", "harvest C4", "done")
    assert harvested_of(state, ALICE) == {"B2", "C3", "C4"}
    assert state.player(ALICE).stones == stones(wheat=1, vegetables=1)


def test_r_a1_workers_do_not_connect_groups() -> None:
    """R-A1: the Apprentice on B4 touches both groups, yet A5 is another group; a tile not on
    the board is no group at all."""
    game, state = harvest_table()
    refuse(game, state, "harvest 10", "R-A1")
    state = play(game, state, "harvest B3")
    error = refuse(game, state, "harvest A5")
    assert error.rule in {"R-A1", "R-A2"}


def test_r_a2_any_number_of_tiles_at_least_one() -> None:
    """R-A2: one tile of the group is enough; the others stay unharvested."""
    game, state = harvest_table()
    state = allow(game, state, "harvest B3", "done")
    assert harvested_of(state, ALICE) == {"B3", "C3"}


def test_r_a2_only_unharvested_tiles() -> None:
    """R-A2: an already harvested tile cannot be harvested, nor a tile twice in one action."""
    game, state = harvest_table()
    refuse(game, state, "harvest C3", "R-A2")
    state = play(game, state, "harvest B2")
    refuse(game, state, "harvest B2", "R-A2")


def test_r_a3_one_stone_of_the_crop_and_the_tile_flips() -> None:
    """R-A3: each harvested tile gives one stone of its crop from the supply and is flipped."""
    game, state = harvest_table()
    after = allow(game, state, "harvest C4", "done")
    assert after.player(ALICE).stones == stones(vegetables=1)
    assert after.supply[1] == state.supply[1] - 1
    assert "C4" in harvested_of(after, ALICE)


def test_r_a3_no_other_crop_while_the_crop_is_available() -> None:
    """R-A3: the stone is of the tile's crop; a substitute is refused while that crop is in the supply."""
    game, state = harvest_table()
    refuse(game, state, "harvest B2/wine", "R-A4")


def test_r_a4_substitute_leaves_the_tile_unharvested() -> None:
    """R-A4: with one wheat left the player orders the tiles; the second takes another crop and
    stays unharvested, so it can be harvested later."""
    game, state = harvest_table(supply={"wheat": 1, "wine": 5, "vegetables": 5, "hops": 5, "apples": 5})
    state = allow(game, state, "harvest B3")
    assert legal(game, state) >= {"harvest B2/wine", "harvest B2/hops"}
    assert "harvest B2" not in legal(game, state)
    state = allow(game, state, "harvest B2/wine", "done")
    assert state.player(ALICE).stones == stones(wheat=1, wine=1)
    assert harvested_of(state, ALICE) == {"B3", "C3"}
    assert state.supply[4] == 0


def test_r_a4_substitution_needs_a_shortage_and_an_available_crop() -> None:
    """R-A4: with no wheat the plain harvest is refused, and so is a substitute that is out too."""
    game, state = harvest_table(supply={"wheat": 0, "apples": 0, "wine": 3, "vegetables": 3, "hops": 3})
    refuse(game, state, "harvest B2", "R-A4")
    refuse(game, state, "harvest B2/apples", "R-A4")


def test_r_a5_a_tile_flipped_back_gives_again() -> None:
    """R-A5: the Unskilled Labourer flips the harvested C3 back; then it can be harvested."""
    game, state = harvest_table()
    state = allow(game, state, "play D D3", "flip C3")
    state = allow(game, state, "harvest C3", "done")
    assert state.player(ALICE).stones == stones(wine=1)


def test_r_a5_a_harvested_tile_gives_nothing_more() -> None:
    """R-A5: harvested in one turn, B2 is still harvested in Alice's next turn."""
    game, state = harvest_table()
    state = play(game, state, "harvest B2", "done", "end", "end", "end")
    assert state.active == ALICE
    refuse(game, state, "harvest B2", "R-A2")


def test_r_a6_a_single_tile_is_a_group_by_default() -> None:
    """R-A6: the isolated A5 can be harvested (single_tile_group_harvestable=true)."""
    game, state = harvest_table()
    state = allow(game, state, "harvest A5")
    assert "A5" in harvested_of(state, ALICE)


def test_r_a6_single_tiles_are_not_harvestable_under_the_flag() -> None:
    """R-A6: with single_tile_group_harvestable=false A5 is refused, the group still harvests."""
    game, state = harvest_table({"single_tile_group_harvestable": "false"})
    refuse(game, state, "harvest A5", "R-A6")
    assert "harvest B2" in legal(game, state)


# --------------------------------------------------------------------------- 4.2 action B

# Alice: field tiles A2, A3, B2, C3, C4, D2 and her Apprentice (1) on B4 (touching C3, C4).
# Spaces: B1 touches 2 (A2, B2); C1 touches 1; C2 and D3 touch 3; B3 touches 3 but is
# next to B4; A4 touches 1 and is next to B4.
PLACE = {"fields": ["A2", "A3", "B2", "C3", "C4", "D2"], "workers": {"B4": "A"}, "stones": {"wheat": 1}}
# Alice: a ring around C3 (touching 6 tiles); her Merchant (G, 4) stands on C3.
RING = ["B3", "B4", "C2", "C4", "D2", "D3"]


def place_table(**kw: Any) -> tuple[KeyHarvest, Any]:
    return three(PLACE, **kw)


def test_r_b1_a_worker_goes_on_an_empty_space() -> None:
    """R-B1: B1 holds no field tile, so the Day Labourer may stand there."""
    game, state = place_table()
    state = allow(game, state, "play C B1", "decline")
    assert workers_of(state, ALICE) == {"B1": "C", "B4": "A"}


def test_r_b1_not_on_a_field_tile() -> None:
    """R-B1: B2 holds a field tile."""
    game, state = place_table()
    refuse(game, state, "play C B2", "R-B1")


def test_r_b2_a_strictly_higher_worker_replaces() -> None:
    """R-B2: the Day Labourer (2) replaces the Apprentice (1) on B4."""
    game, state = place_table()
    state = allow(game, state, "play C B4", "decline")
    assert workers_of(state, ALICE) == {"B4": "C"}


def test_r_b2_equal_values_never_replace() -> None:
    """R-B2: the Casual Labourer (1) may not replace the Apprentice (1)."""
    game, state = place_table()
    refuse(game, state, "play B B4", "R-B2")


@pytest.mark.parametrize("move", ["play E D3", "play B C2", "play D C2"])
def test_r_b3_at_least_value_neighbouring_tiles(move: str) -> None:
    """R-B3: D3 and C2 touch 3 field tiles, enough for values 3, 2 and 1 ("at least")."""
    game, state = place_table()
    assert move in legal(game, state)
    assert game.validate(state, parse_move(move)) is None


@pytest.mark.parametrize("move", ["play D C1", "play E B1", "play E B4"])
def test_r_b3_too_few_neighbouring_tiles(move: str) -> None:
    """R-B3: C1 touches 1 and B1 2 tiles; replacing on B4 (2 tiles) still needs 3 for a 3."""
    game, state = place_table()
    refuse(game, state, move, "R-B3")


def test_r_b4_the_replaced_worker_does_not_count_as_a_neighbour() -> None:
    """R-B4: no other worker touches B4, and the one being replaced stands on B4 itself."""
    game, state = seats({**PLACE, "workers": {"B4": "A", "D1": "B"}})
    state = allow(game, state, "play D B4")
    assert workers_of(state, ALICE) == {"B4": "D", "D1": "B"}


@pytest.mark.parametrize("move", ["play E B3", "play B A4"])
def test_r_b4_workers_may_not_touch(move: str) -> None:
    """R-B4: B3 and A4 are next to the Apprentice on B4."""
    game, state = place_table()
    refuse(game, state, move, "R-B4")


def test_r_b5_workers_stay_when_their_tiles_go() -> None:
    """R-B5: the Overseer on C2 sends C3 to the fallow area; it and the Apprentice on B4 keep
    their places though both now touch fewer tiles than at placement."""
    game, state = place_table()
    state = allow(game, state, "play F C2", "fallow C3")
    assert workers_of(state, ALICE) == {"B4": "A", "C2": "F"}
    assert state.stack == () and state.actions == "B"
    c2 = state.layout.space("C2")
    assert (state.layout.neighbours[c2] & state.player(ALICE).fields).bit_count() == 2


def test_r_b5_no_recheck_after_placement() -> None:
    """R-B5: nothing asks to move the Overseer although a fresh placement there would now be
    illegal (R-B3); a bonus move is refused because no bonus is pending."""
    game, state = place_table()
    state = play(game, state, "play F C2", "fallow C3")
    c2 = state.layout.space("C2")
    error = rules.placement_error(state, ALICE, "E", c2, lifted=c2)
    assert error is not None and error.rule == "R-B3"
    refuse(game, state, "bonus C1")
    assert "F" not in state.player(ALICE).beside


@pytest.mark.parametrize("alice, move, replaced, back", [
    (PLACE, "play C B4", "A", "beside"),
    ({"fields": RING, "workers": {"C3": "G"}}, "play J C3", "G", "town"),
])
def test_r_b6_a_replaced_worker_goes_back_to_its_supply(alice: dict[str, Any], move: str, replaced: str,
                                                         back: str) -> None:
    """R-B6: a replaced labourer goes beside its owner's board, a townsfolk to the town board;
    no bonus placement is offered."""
    game, state = seats(alice)
    state = allow(game, state, move)
    assert "bonus" not in kinds(state)
    assert replaced not in workers_of(state, ALICE).values()
    assert replaced in (state.town if back == "town" else state.player(ALICE).beside)


def test_r_b6_a_replaced_worker_cannot_be_played_again_at_once() -> None:
    """R-B6: the Apprentice replaced on B4 has a legal space (A1) but cannot be played this turn."""
    game, state = place_table()
    state = play(game, state, "play C B4", "decline")
    refuse(game, state, "play A A1", "R-T3")
    later = play(game, state, "end", "end", "end")
    assert "play A A1" in legal(game, later)


def test_r_b7_an_optional_ability_may_be_declined() -> None:
    """R-B7: the Day Labourer may be placed just for its points."""
    game, state = place_table()
    state = allow(game, state, "play C C2")
    assert state.top.kind == "ability"
    state = allow(game, state, "decline")
    assert state.player(ALICE).stones == stones(wheat=1)
    assert workers_of(state, ALICE)["C2"] == "C"


def test_r_b7_the_overseer_is_mandatory() -> None:
    """R-B7: the Overseer's ability cannot be declined."""
    game, state = place_table()
    state = play(game, state, "play F C2")
    refuse(game, state, "decline", "R-B7")


@pytest.mark.parametrize("alice, move, worker, back", [
    (PLACE, "remove B4", "A", "beside"),
    ({"fields": RING, "workers": {"C3": "G"}}, "remove C3", "G", "town"),
])
def test_r_b8_removing_a_worker_triggers_nothing(alice: dict[str, Any], move: str, worker: str, back: str) -> None:
    """R-B8: a removed labourer goes beside the board, a townsfolk to the town; no ability."""
    game, state = seats(alice)
    state = allow(game, state, move)
    assert state.stack == () and workers_of(state, ALICE) == {}
    assert worker in (state.town if back == "town" else state.player(ALICE).beside)


def test_r_b8_only_own_workers_can_be_removed() -> None:
    """R-B8: A1 is empty, and the worker on D5 stands on Bob's board, not Alice's."""
    game, state = three(PLACE, {"fields": ["C5"], "workers": {"D5": "A"}})
    refuse(game, state, "remove A1", "R-B8")
    refuse(game, state, "remove D5", "R-B8")


# --------------------------------------------------------------------------- 4.3 action C

BUY_ALICE = {"stones": {"wheat": 1, "wine": 2, "hops": 2}, "warehouse": [("22", {"apples": 1})]}
BUY_BOB = {"warehouse": [("20", {"wheat": 1, "wine": 1}), ("21", {"hops": 2})]}
BUY_CARA = {"warehouse": [("23", {"wine": 1}), ("24", {"vegetables": 3})]}


def buy_table(alice: dict[str, Any] | None = None) -> tuple[KeyHarvest, Any]:
    return three({**BUY_ALICE, **(alice or {})}, BUY_BOB, BUY_CARA)


@pytest.mark.parametrize("first, second", [("20", "21"), ("22", "23")])
def test_r_c1_one_or_two_tiles_from_any_warehouses(first: str, second: str) -> None:
    """R-C1: two tiles in one action C, from one warehouse or from two (one's own included)."""
    game, state = buy_table()
    state = allow(game, state, f"buy {first}", f"buy {second}")
    assert {first, second} <= fields_of(state, ALICE)
    assert state.actions == "C" and state.stack == ()


def test_r_c1_only_warehouse_tiles_and_at_most_two() -> None:
    """R-C1: a land-office tile is in no warehouse; a third tile is refused."""
    game, state = buy_table()
    refuse(game, state, "buy 10", "R-C1")
    state = play(game, state, "buy 22", "buy 23")
    refuse(game, state, "buy 20")


def test_r_c2_own_bid_goes_to_the_supply() -> None:
    """R-C2: buying one's own tile pays nothing more; the bid goes to the supply."""
    game, state = buy_table()
    after = allow(game, state, "buy 22", "done")
    assert after.player(ALICE).stones == state.player(ALICE).stones
    assert after.supply[2] == state.supply[2] + 1
    assert after.player(ALICE).warehouse == ()


def test_r_c2_the_bid_does_not_come_back_to_the_buyer() -> None:
    """R-C2: even without stones one's own tile can be bought, and the bid is not regained;
    an opponent's tile is refused to a player who has no stones (R-C3)."""
    game, state = buy_table({"stones": {}})
    refuse(game, state, "buy 23", "R-C3")
    after = allow(game, state, "buy 22")
    assert sum(after.player(ALICE).stones) == 0


def test_r_c3_the_owner_gets_the_payment_and_the_bid() -> None:
    """R-C3: Alice pays exactly the bid (wheat, wine); Bob puts payment and bid behind his screen."""
    game, state = buy_table()
    after = allow(game, state, "buy 20", "done")
    assert after.player(ALICE).stones == stones(wine=1, hops=2)
    assert after.player(BOB).stones == stones(wheat=2, wine=2)
    assert after.supply == state.supply


def test_r_c3_the_bid_must_be_matched_exactly() -> None:
    """R-C3: 3 vegetables cannot be matched with other crops."""
    game, state = buy_table({"stones": {"wheat": 5, "wine": 5}})
    refuse(game, state, "buy 24", "R-C3")


def test_r_c4_the_tile_goes_to_its_own_label_unharvested() -> None:
    """R-C4: tile 21 goes onto Alice's space 21, unharvested side up."""
    game, state = buy_table()
    state = allow(game, state, "buy 21", "done")
    assert "21" in fields_of(state, ALICE) and "21" not in harvested_of(state, ALICE)
    assert [state.label(t) for t, _ in state.player(BOB).warehouse] == ["20"]


def test_r_c4_a_label_that_is_not_on_the_board() -> None:
    """R-C4: there is no space Q9 on the board."""
    game, state = buy_table()
    refuse(game, state, "buy Q9", "R-C4")


# Alice: A2, A3, B3 (wine, wine, wheat); her Apprentice on B2. Bob's warehouse: B2 {wheat};
# Cara's: 23 {wine}. Alice has 1 wheat.
BONUS_ALICE = {"fields": ["A2", "A3", "B3"], "workers": {"B2": "A"}, "stones": {"wheat": 1}}
BONUS_CROPS = {"A2": "wine", "A3": "wine", "B3": "wheat"}


def bonus_table() -> tuple[KeyHarvest, Any]:
    return three(BONUS_ALICE, {"warehouse": [("B2", {"wheat": 1})]}, {"warehouse": [("23", {"wine": 1})]},
                 crops=BONUS_CROPS)


def test_r_c5_a_bought_tile_displaces_the_buyers_worker() -> None:
    """R-C5: tile B2 lands under Alice's Apprentice; the displacement bonus is offered."""
    game, state = bonus_table()
    state = allow(game, state, "buy B2")
    assert "B2" in fields_of(state, ALICE) and workers_of(state, ALICE) == {}
    assert state.top.kind == "bonus" and "bonus A4" in legal(game, state)


def test_r_c5_the_worker_cannot_stay_under_the_tile() -> None:
    """R-C5: the Apprentice cannot go back onto B2, which now holds the tile."""
    game, state = bonus_table()
    state = play(game, state, "buy B2")
    refuse(game, state, "bonus B2", "R-X2")


def test_r_c6_bonus_stones_pay_for_the_second_tile() -> None:
    """R-C6: the re-placed Apprentice takes 1 wine, which pays for Cara's tile 23."""
    game, state = bonus_table()
    state = allow(game, state, "buy B2", "bonus A4", "take A3", "buy 23")
    assert {"B2", "23"} <= fields_of(state, ALICE)
    assert state.player(ALICE).stones == stones()
    assert state.player(CARA).stones == stones(wine=2)


def test_r_c6_without_the_bonus_the_second_tile_is_unaffordable() -> None:
    """R-C6: declining the bonus leaves Alice without wine; tile 23 is refused."""
    game, state = bonus_table()
    state = play(game, state, "buy B2", "decline")
    refuse(game, state, "buy 23")


# --------------------------------------------------------------------------- 4.4 action D

BID = {"fields": ["B2"], "stones": {"wheat": 2, "vegetables": 1}}


def bid_table(alice: dict[str, Any] | None = None, **kw: Any) -> tuple[KeyHarvest, Any]:
    return three({**BID, **(alice or {})}, **kw)


def test_r_d1_a_free_warehouse_space_allows_one_tile() -> None:
    """R-D1: with one tile in the warehouse, one more may be taken (and no third)."""
    game, state = bid_table({"warehouse": [("20", {"hops": 1})]})
    state = allow(game, state, "bid 10 wheat")
    state = play(game, state, "draw 16")
    assert len(state.player(ALICE).warehouse) == 2
    assert state.stack == ()


def test_r_d1_a_full_warehouse_refuses_action_d() -> None:
    """R-D1: two tiles already in the warehouse."""
    game, state = bid_table({"warehouse": [("20", {"hops": 1}), ("21", {"hops": 1})]})
    refuse(game, state, "bid 10 wheat", "R-D1")


def test_r_d2_two_tiles_one_at_a_time() -> None:
    """R-D2: an empty warehouse takes two tiles, the second after the first's refill."""
    game, state = bid_table()
    state = allow(game, state, "bid 10 wheat")
    state = play(game, state, "draw 16")
    assert "bid 16 wheat" in legal(game, state)
    state = allow(game, state, "bid 16 vegetables")
    state = play(game, state, "draw 17")
    assert [state.label(t) for t, _ in state.player(ALICE).warehouse] == ["10", "16"]
    assert None not in office_of(state)


def test_r_d2_only_land_office_tiles_and_no_second_tile_without_space() -> None:
    """R-D2: tile 20 is not in the land office; with one warehouse tile already, the action ends
    after one tile."""
    game, state = bid_table({"warehouse": [("20", {"hops": 1})]})
    refuse(game, state, "bid 21 wheat", "R-D2")
    state = play(game, state, "bid 10 wheat", "draw 16")
    refuse(game, state, "bid 11 wheat", "R-T1")


def test_r_d3_a_bid_of_several_stones_of_any_crops() -> None:
    """R-D3: the bid is one or more stones, in any mix; it is public."""
    game, state = bid_table()
    state = allow(game, state, "bid 10 vegetables wheat wheat")
    assert state.player(ALICE).warehouse[0][1] == stones(wheat=2, vegetables=1)
    assert game.view(state, BOB)["players"][ALICE]["warehouse"][0]["bid"]["wheat"] == 2


def test_r_d3_a_bid_needs_stones_from_behind_the_screen() -> None:
    """R-D3: no hops to bid; a player with no stones cannot do action D at all."""
    game, state = bid_table()
    refuse(game, state, "bid 10 hops", "R-D3")
    refuse(game, state, "bid 10 hops wheat", "R-D3")
    refuse(game, state, "bid 10", "R-D3")  # a bid names one or more stones
    game, broke = bid_table({"stones": {}})
    assert not any(m.startswith("bid") for m in legal(game, broke))
    refuse(game, broke, "bid 10 wheat", "R-D3")


def test_r_d3_one_bid_is_one_move_refused_as_a_whole() -> None:
    """R-D3 (issue 10): a bid with a stone too many is refused whole: no stone is placed, no tile taken,
    and the player can still make the bid they can pay."""
    game, state = bid_table()
    held = state.player(ALICE).stones
    wheat = held[4]
    refuse(game, state, "bid 10 " + " ".join(["wheat"] * (wheat + 1)), "R-D3")
    assert state.player(ALICE).warehouse == () and state.player(ALICE).stones == held
    assert "bid 10 " + " ".join(["wheat"] * wheat) in legal(game, state)
    assert game.parse_move("bid 10 wheat vegetables wheat") == game.parse_move("bid 10 vegetables wheat wheat")
    assert str(game.parse_move("bid 10 WHEAT veg")) == "bid 10 vegetables wheat"


def test_r_d4_stones_are_added_only_while_bidding() -> None:
    """R-D4: the bid's stones are all named in the bid itself."""
    game, state = bid_table({"warehouse": [("20", {"hops": 1})]})
    state = allow(game, state, "bid 10 wheat wheat")
    state = play(game, state, "draw 16")
    assert dict(state.player(ALICE).warehouse)[state.layout.space("10")] == stones(wheat=2)


def test_r_d4_a_placed_bid_is_fixed() -> None:
    """R-D4: once placed the bid cannot grow."""
    game, state = bid_table({"warehouse": [("20", {"hops": 1})]})
    state = play(game, state, "bid 10 wheat", "draw 16")
    refuse(game, state, "add wheat", "R-D4")


def test_r_d5_refill_at_once_and_events_resolve_first() -> None:
    """R-D5: the refill comes right after the bid; an event drawn is placed and resolved, then
    the same space is drawn for again."""
    game, state = bid_table(bag_events="P", track="MN")
    state = play(game, state, "bid 10 wheat")
    assert game.current_player(state) == CHANCE and None in office_of(state)
    state = play(game, state, "event P")
    assert state.track == "MNP" and state.top.kind == "event"
    state = decline_all(game, state)
    assert game.current_player(state) == CHANCE
    state = play(game, state, "draw 16")
    assert office_of(state)[0] == "16"


def test_r_d5_no_second_tile_before_the_refill() -> None:
    """R-D5: the second tile waits until the empty space has been refilled."""
    game, state = bid_table()
    state = play(game, state, "bid 10 wheat")
    refuse(game, state, "bid 11 vegetables")


def test_r_d6_an_empty_bag_leaves_the_space_empty() -> None:
    """R-D6: with nothing in the bag the space stays empty and play goes on."""
    game, state = bid_table(bag=[])
    state = allow(game, state, "bid 10 wheat")
    assert game.current_player(state) == ALICE
    assert office_of(state)[0] is None
    state = allow(game, state, "bid 11 vegetables")
    assert office_of(state)[:2] == [None, None]


def test_r_d6_no_draw_from_an_empty_bag() -> None:
    """R-D6: no draw is pending, so a draw cannot be entered."""
    game, state = bid_table(bag=[])
    state = play(game, state, "bid 10 wheat")
    refuse(game, state, "draw 16", "CHANCE")


# --------------------------------------------------------------------------- 4.5 displacement


def test_r_x1_the_tile_takes_the_space() -> None:
    """R-X1: tile B2 lands on Alice's B2; her Unskilled Labourer is lifted off."""
    game, state = displace_table()
    state = allow(game, state, "buy B2")
    assert "B2" in fields_of(state, ALICE) and "B2" not in workers_of(state, ALICE)
    assert state.top.kind == "bonus" and state.top.worker == "D"


def test_r_x1_the_worker_cannot_stay() -> None:
    """R-X1: the displaced worker cannot be put back on B2."""
    game, state = displace_table()
    state = play(game, state, "buy B2")
    refuse(game, state, "bonus B2", "R-X2")


def test_r_x2_bonus_replacement_fires_the_ability_again() -> None:
    """R-X2: re-placed on A4 (touching A3 and B3) the Unskilled Labourer flips both back."""
    game, state = displace_table()
    state = allow(game, state, "buy B2", "bonus A4", "flip A3 B3")
    assert workers_of(state, ALICE) == {"A4": "D"}
    assert harvested_of(state, ALICE) == set()
    assert state.actions == "C"


@pytest.mark.parametrize("space", ["C1", "A1", "B4"])
def test_r_x2_bonus_space_must_satisfy_b1_b3_b4(space: str) -> None:
    """R-X2: C1, A1 and B4 touch a single field tile; a value-2 worker needs two."""
    game, state = displace_table()
    state = play(game, state, "buy B2")
    refuse(game, state, f"bonus {space}", "R-X2")


@pytest.mark.parametrize("alice, moves, worker, where", [
    ({}, ("buy B2", "decline"), "D", "beside"),                  # does not want to
    ({"fields": RING, "harvested": [], "workers": {"C3": "G"}}, ("buy C3",), "G", "town"),  # cannot
])
def test_r_x3_a_displaced_worker_not_replaced_returns(alice: dict[str, Any], moves: tuple[str, ...], worker: str,
                                                      where: str) -> None:
    """R-X3: a displaced labourer not re-placed goes beside its board; a townsfolk with no legal
    space left goes back to the town board."""
    game, state = three({**DISPLACE, **alice}, {"warehouse": [("B2", {"hops": 1}), ("C3", {"hops": 1})]})
    state = allow(game, state, *moves)
    assert state.stack == ()
    assert worker not in workers_of(state, ALICE).values()
    assert worker in (state.player(ALICE).beside if where == "beside" else state.town)


def test_r_x3_a_declined_worker_is_off_the_board() -> None:
    """R-X3: after declining, no bonus can be made any more; the worker scores nothing."""
    game, state = displace_table()
    state = play(game, state, "buy B2", "decline")
    refuse(game, state, "bonus A4")
    assert game.score(state)[ALICE]["worker_points"] == 0


# The Bailiff chain (DE 483): Alice's ring around C3 and B2; Bob's isolated tiles C3 and B2.
CHAIN_ALICE = {"fields": ["A2", "A3", "B1", "B3", "B4", "C2", "C4", "D2", "D3"], "stones": {"wheat": 6}}
CHAIN_BOB = {"fields": ["C3", "B2"]}


def test_r_x4_displacement_chains() -> None:
    """R-X4: the Bailiff seizes C3 from under itself, is re-placed on B2, seizes B2 from under
    itself again and, with no space left, goes back to the town."""
    game, state = three(CHAIN_ALICE, CHAIN_BOB)
    state = allow(game, state, "play I C3", "seize C3", "pay wheat wheat wheat")
    assert state.top.kind == "bonus" and legal(game, state) == {"bonus B2", "decline"}
    state = allow(game, state, "bonus B2", "seize B2", "pay wheat wheat wheat")
    assert {"B2", "C3"} <= fields_of(state, ALICE) and fields_of(state, BOB) == set()
    assert state.player(BOB).stones == stones(wheat=6)
    assert "I" in state.town and state.stack == () and state.actions == "B"


def test_r_x4_each_link_of_the_chain_is_checked() -> None:
    """R-X4: in the chain the re-placement still needs 4 neighbouring tiles (A4 has 3)."""
    game, state = three(CHAIN_ALICE, CHAIN_BOB)
    state = play(game, state, "play I C3", "seize C3", "pay wheat wheat wheat")
    refuse(game, state, "bonus A4", "R-X2")


def test_r_x5_a_replaced_worker_gets_no_bonus() -> None:
    """R-X5: the Apprentice replaced on B4 just goes beside the board."""
    game, state = place_table()
    state = allow(game, state, "play C B4")
    assert "bonus" not in kinds(state) and "A" in state.player(ALICE).beside


def test_r_x5_no_bonus_move_after_a_replacement() -> None:
    """R-X5: a bonus placement for the replaced Apprentice is refused."""
    game, state = place_table()
    state = play(game, state, "play C B4", "decline")
    refuse(game, state, "bonus A1")


# --------------------------------------------------------------------------- 7. end of the game

END_ALICE = {"fields": ["B2", "B3"], "stones": {"wheat": 2}}
NINE = "MNOQRSTUV"


def trigger(**kw: Any) -> tuple[KeyHarvest, Any]:
    """Alice's action D refill places the 10th event (P); all decline; the refill ends with 16."""
    game, state = three(END_ALICE, options=kw.pop("options", None), track=NINE, bag_events="PWX", **kw)
    state = play(game, state, "bid 10 wheat", "event P")
    assert state.end_trigger == ALICE
    state = decline_all(game, state)
    return game, play(game, state, "draw 16", "done")


def test_r_end1_the_tenth_event_is_resolved_and_starts_the_end() -> None:
    """R-END1: P goes on space 10, every player may take part, and the end is triggered."""
    game, state = three(END_ALICE, track=NINE, bag_events="P")
    state = play(game, state, "bid 10 wheat", "event P")
    assert len(state.track) == 10 and state.track[-1] == "P"
    assert state.top.kind == "event" and state.top.player == ALICE
    assert game.view(state, None)["end"]["triggered"]


def test_r_end1_the_ninth_event_does_not_end_the_game() -> None:
    """R-END1: only space 10 triggers the end; after the 9th the game goes on normally."""
    game, state = three(END_ALICE, track=NINE[:8], bag_events="P")
    state = decline_all(game, play(game, state, "bid 10 wheat", "event P"))
    assert len(state.track) == 9 and state.end_trigger == -1
    state = play(game, state, "draw 16", "done", "end")
    assert not game.view(state, None)["end"]["triggered"] and state.turns_left == -1


def test_r_end2_the_trigger_player_completes_the_turn() -> None:
    """R-END2: after triggering the end in action D, Alice still takes her second action."""
    game, state = trigger()
    assert state.active == ALICE and state.actions == "D"
    state = allow(game, state, "harvest B2", "done")
    assert state.actions == "DA"


def test_r_end2_completing_the_turn_gives_no_extra_action() -> None:
    """R-END2: the rest of the turn is just the rest of it; a third action is refused."""
    game, state = trigger()
    state = play(game, state, "harvest B2", "done")
    refuse(game, state, "play A A2", "R-T1")


@pytest.mark.parametrize("extra, order", [
    ("2", [BOB, CARA, ALICE, BOB, CARA, ALICE]),
    ("1", [BOB, CARA, ALICE, BOB, CARA]),
])
def test_r_end3_extra_rounds(extra: str, order: list[int]) -> None:
    """R-END3: two more turns each, the trigger player last (DE); with
    final_extra_turns_for_trigger_player=1 the trigger player gets only one (IT)."""
    game, state = trigger(options={"final_extra_turns_for_trigger_player": extra})
    state = play(game, state, "end")
    seen = []
    while not game.is_over(state):
        seen.append(state.active)
        state = play(game, state, "end")
    assert seen == order
    assert game.current_player(state) == TERMINAL


def test_r_end3_no_move_after_the_last_turn() -> None:
    """R-END3: once the last extra turn is over, every move is refused."""
    game, state = trigger()
    state = play(game, state, *["end"] * 7)
    assert game.is_over(state) and game.legal_moves(state) == []
    refuse(game, state, "end", "R-END3")
    refuse(game, state, "harvest B3", "R-END3")


def test_r_end4_refills_go_on_and_later_events_are_ignored() -> None:
    """R-END4: in the final rounds a refill that draws an event ignores it (out of play, not
    resolved) and goes on to a field tile."""
    game, state = trigger()
    state = play(game, state, "end", "end", "end")  # Alice's trigger turn ends, Bob and Cara pass
    assert state.active == ALICE
    state = play(game, state, "bid 11 wheat", "event W")
    assert state.ignored == "W" and len(state.track) == 10
    assert game.current_player(state) == CHANCE and "event" not in kinds(state)
    state = play(game, state, "draw 17")
    assert None not in office_of(state)


def test_r_end4_an_ignored_event_is_not_placed_nor_resolved() -> None:
    """R-END4: after the 10th no event reaches the track; its choices are refused."""
    game, state = trigger()
    state = play(game, state, "end", "end", "end", "bid 11 wheat", "event X")
    assert state.track == NINE + "P" and "X" not in state.bag_events
    refuse(game, state, "decline")


# --------------------------------------------------------------------------- 2. setup


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> KeyHarvest:
    """KeyHarvest() as shipped: no user layout file, so the 56-space default board."""
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    game = KeyHarvest()
    assert game.layout.size == 56
    return game


def force_setup(n: int, seed: int, game: KeyHarvest | None = None) -> tuple[KeyHarvest, Any, list[str]]:
    """``game.setup`` with every chance move forced (a seeded pick among the outcomes)."""
    game = game or KeyHarvest(layout())
    state = game.setup(["Alice", "Bob", "Cara", "Dan"][:n], game.options())
    rng = random.Random(seed)
    log = []
    while game.current_player(state) == CHANCE:
        move = rng.choice([m for m, _ in game.chance_outcomes(state)])
        log.append(str(move))
        state = game.play(state, move)
    return game, state, log


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("n, supply, fields_in_bag, events_in_bag, removed", [
    (2, 54, 46, 14, 0),
    (3, 51, 44, 12, 2),
    (4, 48, 42, 12, 2),
])
def test_setup_state(shipped: KeyHarvest, n: int, supply: int, fields_in_bag: int, events_in_bag: int,
                     removed: int, seed: int) -> None:
    """Spec 2.1-2.3: 3 stones each, the supply, 6 land-office tiles, a start pair per player
    unharvested, the bag's tiles (56 - 2N - 6) and events, 2 hidden removed events with 3-4 players."""
    game, state, _ = force_setup(n, seed, shipped)
    assert game.current_player(state) in range(n) and state.started and state.stack == ()
    assert [sum(p.stones) for p in state.players] == [3] * n
    assert sum(state.supply) == supply
    assert len(state.office_tiles) == 6
    pairs = {frozenset(pair) for pair in state.layout.start_pairs}
    for p in state.players:
        assert p.fields.bit_count() == 2 and p.harvested == 0 and p.workers == () and p.warehouse == ()
        assert frozenset(i for i in range(state.layout.size) if p.fields >> i & 1) in pairs
        assert p.beside == "ABCDEF"
    assert state.bag_fields.bit_count() == fields_in_bag
    assert len(state.bag_events) == events_in_bag and len(state.removed) == removed
    for viewer in (None, *range(n)):
        view = game.view(state, viewer)
        assert view["removed_events"] is None and view["bag"]["events"] == events_in_bag
        assert (view["bag"]["events_in_bag"] is None) == (n > 2)
    assert state.track == "" and state.fallow == 0 and state.set_aside == "" and state.town == "GHIJKL"
    assert game.invariant_violations(state) == []


@pytest.mark.parametrize("n, composition", [
    (2, [1, 1, 1, 1, 2]),
    (3, [1, 2, 2, 2, 2]),
    (4, [2, 2, 2, 3, 3]),
])
def test_setup_starting_stone_mix(shipped: KeyHarvest, n: int, composition: list[int]) -> None:
    """Spec 2.2: 2 players 1,1,1,1,2 (each has one of the fifth crop and two different others);
    3 players 2,2,2,2,1; 4 players 3,3,2,2,2."""
    for seed in range(6):
        _, state, _ = force_setup(n, seed, shipped)
        held = [sum(p.stones[c] for p in state.players) for c in range(5)]
        assert sorted(held) == composition
        if n == 2:
            fifth = held.index(2)
            for p in state.players:
                assert p.stones[fifth] == 1 and max(p.stones) == 1


def test_setup_land_office_is_filled_before_the_events_enter_the_bag(shipped: KeyHarvest) -> None:
    """Spec 2.1 step 6-7: the six land-office draws are always field tiles."""
    game = shipped
    state = game.setup(["Alice", "Bob", "Cara"], game.options())
    while game.current_player(state) == CHANCE:
        outcomes = [str(m) for m, _ in game.chance_outcomes(state)]
        if state.top.kind == "draw":
            assert not any(o.startswith("event") for o in outcomes)
        state = game.play(state, outcomes[-1])


# --------------------------------------------------------------------------- notation


def notation_positions() -> list[tuple[KeyHarvest, Any]]:
    game = KeyHarvest(layout())
    start = game.setup(["Alice", "Bob", "Cara"], game.options())
    positions = [(game, start)]
    _, after_setup, _ = force_setup(4, 3)
    positions.append((KeyHarvest(layout()), after_setup))
    positions.append(place_table())
    positions.append(buy_table())
    positions.append(harvest_table(supply={"wheat": 0, "wine": 2, "hops": 1, "vegetables": 0, "apples": 1}))
    g, s = displace_table()
    positions.append((g, play(g, s, "buy B2")))
    g, s = bid_table()
    positions.append((g, play(g, s, "bid 10 wheat")))
    positions.append((g, play(g, s, "bid 10 wheat")))
    g, s = three({"fields": RING + ["A1"], "harvested": ["B3", "C2"], "stones": {"wheat": 3, "wine": 2}},
                 {"fields": ["C1"], "warehouse": [("21", {"wine": 1})]})
    positions += [(g, play(g, s, f"play {w} C3")) for w in "ABCDEGHIKL"]
    positions.append(pending_event("O"))
    positions.append(pending_event("Z"))
    positions.append(pending_event("U", {"fields": ["B2"]}, None, None))
    return positions


def test_notation_round_trip_for_every_legal_move() -> None:
    """parse_move(str(m)) == m for every legal move (chance moves included) in many positions."""
    count = 0
    for game, state in notation_positions():
        for move in game.legal_moves(state):
            assert parse_move(str(move)) == move
            assert game.parse_move(str(move)) == move
            count += 1
    assert count > 150


@pytest.mark.parametrize("text", [
    "", "   ", "fly A1", "harvest", "play A", "play Q A1", "play A A1 B2", "bid 10 gold", "bid", "pay gold",
    "remove A-1", "event A", "first 9", "gain", "gain wheat wheat wheat", "harvest B2/plutonium", "swap B2",
])
def test_notation_malformed_text(text: str) -> None:
    """Unreadable move text raises MalformedInputError (a ValueError) naming the problem."""
    with pytest.raises(MalformedInputError) as raised:
        parse_move(text)
    assert str(raised.value)
    game, state = place_table()
    with pytest.raises(ValueError):
        game.play(state, text)


def test_notation_is_case_and_space_tolerant() -> None:
    assert parse_move("  PLAY c b1 ") == parse_move("play C B1")
    assert parse_move("bid 10 yellow") == parse_move("bid 10 wheat")


# --------------------------------------------------------------------------- hidden information


def test_view_hides_other_screens() -> None:
    """view(state, seat) shows only that seat's stones; view(state, None) shows none."""
    _, state, _ = force_setup(3, 5)
    game = KeyHarvest(layout())
    for seat in range(3):
        players = game.view(state, seat)["players"]
        for other, shown in enumerate(players):
            if other == seat:
                assert shown["stones"] is not None and sum(shown["stones"].values()) == 3
            else:
                assert shown["stones"] is None
    assert all(p["stones"] is None for p in game.view(state, None)["players"])


def test_view_does_not_depend_on_hidden_facts() -> None:
    """Two tables differing only in Bob's stones and the removed events look the same to Alice
    and to the shared screen."""
    game, one = three({"stones": {"wheat": 1}}, {"stones": {"wine": 3}}, removed="MN", bag_events="OPQRSTUVWXYZ")
    _, two = three({"stones": {"wheat": 1}}, {"stones": {"hops": 2, "apples": 1}}, removed="YZ",
                   bag_events="MNOPQRSTUVWX", supply=dict(zip(("hops", "vegetables", "apples", "wine", "wheat"),
                                                              one.supply)))
    for viewer in (ALICE, None):
        a, b = game.view(one, viewer), game.view(two, viewer)
        assert a == b
        assert a["removed_events"] is None


def test_view_and_log_hide_setup_secrets() -> None:
    """The removed events and the other players' starting stones are masked in the log."""
    game = KeyHarvest(layout())
    state = game.setup(["Alice", "Bob", "Cara"], game.options())
    while game.current_player(state) == CHANCE:
        move = game.legal_moves(state)[0]
        step = state.top
        if step.kind == "remove_event":
            lines = [str(game.describe(state, move, v)) for v in (None, 0, 1, 2)]  # in English
            assert all(line == "put one event tile back in the box without looking at it" for line in lines)
        if step.kind == "stone":
            assert f"draws 1 {move.args[0]} starting stone" in str(game.describe(state, move, step.player))
            for viewer in ((step.player + 1) % 3, None):
                line = str(game.describe(state, move, viewer))
                assert "in secret" in line and move.args[0] not in line
        state = game.play(state, move)
    assert len(state.removed) == 2
    for viewer in (None, 0, 1, 2):
        assert game.view(state, viewer)["removed_events"] is None


# --------------------------------------------------------------------------- variant flags (10.3)


def _next_player(options: dict[str, str]) -> Any:
    game, state = three(options=options)
    return play(game, state, "end").active


def _group_score(options: dict[str, str]) -> Any:
    game, state = three({"fields": ["A1", "A2", "D5"]}, options=options)
    return game.score(state)[ALICE]["total"]


def _single_harvest(options: dict[str, str]) -> Any:
    game, state = harvest_table(options)
    error = game.validate(state, parse_move("harvest A5"))
    return error and error.rule


def _final_turns(options: dict[str, str]) -> Any:
    game, state = trigger(options=options)
    state = play(game, state, "end")
    count = 0
    while not game.is_over(state):
        state, count = play(game, state, "end"), count + 1
    return count


def _seventh_timing(options: dict[str, str]) -> Any:
    """Holiday (Y) on space 7: Bob removes his worker and falls from 7 to 6 board tiles."""
    seven = {"fields": ["B1", "B2", "B3", "B4", "B5", "C1", "C2"]}
    game, state = pending_event("Y", seven, {**seven, "fields": seven["fields"][:6], "workers": {"D5": "A"}}, seven,
                                track="MNOPQR", options=options)
    state = play(game, state, "remove D5")
    return state.track


def _tiebreak(options: dict[str, str]) -> Any:
    game, state = three({"fields": ["A1", "A2", "A3"]}, {"fields": ["A1", "A2"], "workers": {"B1": "A"}},
                        options=options)
    return [row["rank"] for row in game.score(state)]


def _exact_adjacency(options: dict[str, str]) -> Any:
    game, state = place_table(options=options)
    error = game.validate(state, parse_move("play B C2"))
    return error and error.rule


def _bonus_replaces_lower(options: dict[str, str]) -> Any:
    game, state = displace_table({"workers": {"B2": "D", "A4": "A"}}, options=options)
    return "bonus A4" in legal(game, play(game, state, "buy B2"))


def _lawyer(options: dict[str, str]) -> Any:
    game, state = three({"fields": RING + ["A2"], "workers": {"A1": "A"}}, options=options)
    state = play(game, state, "play J C3", "reuse A1")
    return state.top.kind, workers_of(state, ALICE).get("A1")


def _gift_forwarding(options: dict[str, str]) -> Any:
    game, state = pending_event("O", {"fields": ["B2"]}, {"fields": ["C4"]}, {"fields": ["D1"]}, options=options)
    state = play(game, state, "give B2", "forward")
    return "forward" in legal(game, state)


def _events_only_end(options: dict[str, str]) -> Any:
    game, state = three(END_ALICE, track=NINE, bag=[], bag_events="P", options=options)
    state = decline_all(game, play(game, state, "bid 10 wheat", "event P"))
    return game.is_over(state)


def _purchase_payee(options: dict[str, str]) -> Any:
    game, state = three({"fields": RING, "stones": {"wheat": 2}}, {"warehouse": [("20", {"wine": 2})]},
                        options=options)
    state = play(game, state, "play G C3", "buy 20", "pay wheat wheat")
    return state.player(BOB).stones


def _ignored_disposal(options: dict[str, str]) -> Any:
    game, state = trigger(options=options)
    state = play(game, state, "end", "end", "end", "bid 11 wheat", "event W")
    return state.ignored, "W" in state.bag_events


def _seventh_guard(options: dict[str, str]) -> Any:
    game, state = pending_event("P", {"fields": ["B2"]}, bag=[], track="MNOQRS", options=options)
    return decline_all(game, state).track


FLAG_CASES: dict[str, tuple[Any, str, Any, Any]] = {
    # flag: (scenario, other value, result with the default, result with the other value)
    "turn_direction": (_next_player, "counterclockwise", BOB, CARA),
    "min_scoring_group_size": (_group_score, "2", 4, 2),
    "single_tile_group_harvestable": (_single_harvest, "false", None, "R-A6"),
    "final_extra_turns_for_trigger_player": (_final_turns, "1", 6, 5),
    "seventh_check_timing": (_seventh_timing, "before_resolution", "OPQRY", "MNOPQRY"),
    "tiebreak_tiles": (_tiebreak, "fields_and_workers", [1, 2, 3], [1, 1, 3]),
    "worker_adjacency": (_exact_adjacency, "exactly", None, "R-B3"),
    "bonus_replacement_can_replace_lower": (_bonus_replaces_lower, "false", True, False),
    "lawyer_mode": (_lawyer, "lift_and_replace", ("ability", "A"), ("bonus", None)),
    "gift_forwarding": (_gift_forwarding, "not_last_in_order", True, False),
    "events_only_bag_end": (_events_only_end, "it_immediate", False, True),
    "ability_purchase_payee": (_purchase_payee, "supply", stones(wheat=2, wine=2), stones(wine=2)),
    "ignored_event_disposal": (_ignored_disposal, "back_to_bag", ("W", False), ("", True)),
    "seventh_rule_guard": (_seventh_guard, "off", "MNOQRSP", "OQRSP"),
}


def test_every_variant_flag_has_a_case() -> None:
    """Spec 10.3 lists 14 flags; each one is exercised below."""
    assert sorted(FLAG_CASES) == sorted(spec.name for spec in VARIANT_FLAGS)
    assert len(FLAG_CASES) == 14


@pytest.mark.parametrize("flag", sorted(FLAG_CASES))
def test_variant_flag_changes_behaviour(flag: str) -> None:
    """Each variant flag of spec 10.3 changes what happens (default vs the other value)."""
    scenario, other, with_default, with_other = FLAG_CASES[flag]
    default = next(spec.default for spec in VARIANT_FLAGS if spec.name == flag)
    assert scenario({flag: default}) == with_default
    assert scenario({flag: other}) == with_other


# --------------------------------------------------------------------------- meta-test

SPEC_NAME = Path("shared") / "rules" / "key-harvest.md"
RULE_ID = re.compile(r"`(R-[A-Z]+\d+(?:-\d+)?)`")


def spec_rule_ids() -> list[str]:
    for parent in Path(__file__).resolve().parents:
        path = parent / SPEC_NAME
        if path.exists():
            text = path.read_text(encoding="utf-8")
            body = text[text.index("\n## 3."):text.index("\n## 9.")]
            return sorted(set(RULE_ID.findall(body)))
    pytest.skip(f"{SPEC_NAME} not found above {Path(__file__).parent}")


def cited(rule: str, text: str) -> int:
    """Occurrences of ``rule`` as written (R-EV7-1) or in a test name (r_ev7_1)."""
    pattern = re.escape(rule).replace(r"\-", "[-_]")
    return len(re.findall(rf"(?<![A-Za-z0-9]){pattern}(?![0-9])(?!-[0-9])", text, flags=re.I))


def test_every_rule_id_is_cited_at_least_twice() -> None:
    """Every rule ID of spec sections 3-8 appears in the test files at least twice."""
    ids = spec_rule_ids()
    assert len(ids) >= 45
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(Path(__file__).parent.glob("test_*.py")))
    missing = {rule: cited(rule, text) for rule in ids if cited(rule, text) < 2}
    assert missing == {}
