"""Key Harvest workers (spec section 5): each ability A-L used legally, and an illegal choice.

Alice plays the worker on C3, the hole in her ring of field tiles B3, B4, C2, C4, D2, D3
(C3 touches all six, so any worker fits). Her tiles A1, B3 and C2 are harvested. Bob has
the isolated tiles C1 and D5 and two warehouse tiles; Cara has A5 and B5, next to each
other. An ability fires when the worker is placed (R-B7) and again on a bonus re-placement
(R-X2) or through the Lawyer.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.game import CHANCE

from .rulekit import (
    ALICE,
    BOB,
    allow,
    fields_of,
    harvested_of,
    kinds,
    legal,
    office_of,
    play,
    refuse,
    stones,
    three,
    workers_of,
)

RING = ["B3", "B4", "C2", "C4", "D2", "D3"]
WA = {"fields": RING + ["A1"], "harvested": ["B3", "C2", "A1"], "stones": {"wheat": 3, "wine": 2},
      "warehouse": [("20", {"hops": 1})]}
WB = {"fields": ["C1", "D5"], "warehouse": [("21", {"wine": 2}), ("22", {"hops": 1})], "stones": {"hops": 1}}
WC = {"fields": ["A5", "B5"]}
# Default T20 crops: B3 wheat, B4 hops, C2 wheat, C4 vegetables, D2 hops, D3 vegetables.


def placed(worker: str, alice: dict[str, Any] | None = None, bob: dict[str, Any] | None = None,
           **kw: Any) -> tuple[Any, Any]:
    """Alice has just played ``worker`` on C3; its ability is pending."""
    game, state = three({**WA, **(alice or {})}, {**WB, **(bob or {})}, WC, **kw)
    state = allow(game, state, f"play {worker} C3")
    assert state.top is not None and state.top.kind == "ability" and state.top.worker == worker
    return game, state


def test_a_apprentice_takes_one_stone_without_flipping() -> None:
    """A: 1 stone of one adjacent unharvested tile's crop; the tile is not flipped."""
    game, state = placed("A")
    assert legal(game, state) == {"take B4", "take C4", "take D2", "take D3", "decline"}
    state = allow(game, state, "take C4")
    assert state.player(ALICE).stones == stones(wheat=3, wine=2, vegetables=1)
    assert "C4" not in harvested_of(state, ALICE)


def test_a_apprentice_illegal_choices() -> None:
    """A: B3 is harvested, A1 is not adjacent; next to harvested tiles only it gives nothing."""
    game, state = placed("A")
    refuse(game, state, "take B3", "R-B7")
    refuse(game, state, "take A1", "R-B7")
    refuse(game, state, "take B4 C4", "R-B7")
    game, state = three(WA)
    state = allow(game, state, "play A B2")  # touches only the harvested B3 and C2
    assert state.stack == () and state.player(ALICE).stones == stones(wheat=3, wine=2)


def test_b_casual_labourer_takes_from_two_tiles() -> None:
    """B: one stone each from up to 2 different adjacent unharvested tiles, no flip."""
    game, state = placed("B")
    state = allow(game, state, "take B4 D3")
    assert state.player(ALICE).stones == stones(wheat=3, wine=2, hops=1, vegetables=1)
    assert harvested_of(state, ALICE) == {"A1", "B3", "C2"}


def test_b_casual_labourer_illegal_choices() -> None:
    """B: not twice the same tile, not a harvested tile."""
    game, state = placed("B")
    refuse(game, state, "take B4 B4", "R-B7")
    refuse(game, state, "take B3 B4", "R-B7")


def test_c_day_labourer_takes_any_two_shown() -> None:
    """C: any 2 stones from the supply (shown: the log names them)."""
    game, state = placed("C")
    state = allow(game, state, "gain apples apples")
    assert state.player(ALICE).stones == stones(wheat=3, wine=2, apples=2)


def test_c_day_labourer_only_what_the_supply_has() -> None:
    """C: with 1 apples left, two apples cannot be taken."""
    game, state = placed("C", supply={"apples": 1, "wine": 4})
    refuse(game, state, "gain apples apples", "R-B7")
    assert "gain apples wine" in legal(game, state)


def test_d_unskilled_labourer_flips_two_adjacent_harvested() -> None:
    """D: up to 2 adjacent harvested tiles go back to unharvested."""
    game, state = placed("D")
    state = allow(game, state, "flip B3 C2")
    assert harvested_of(state, ALICE) == {"A1"}


def test_d_unskilled_labourer_only_adjacent_harvested() -> None:
    """D: A1 is not adjacent to C3, C4 is not harvested."""
    game, state = placed("D")
    refuse(game, state, "flip A1", "R-B7")
    refuse(game, state, "flip C4", "R-B7")


def test_e_skilled_labourer_buys_for_bid_plus_one() -> None:
    """E: Bob's tile 21 (bid 2 wine) for any 3 stones; Bob gets the payment and his bid back."""
    game, state = placed("E")
    state = allow(game, state, "buy 21", "pay wheat wheat wheat")
    assert "21" in fields_of(state, ALICE)
    assert state.player(ALICE).stones == stones(wine=2)
    assert state.player(BOB).stones == stones(hops=1, wheat=3, wine=2)
    assert state.actions == "B"


def test_e_skilled_labourer_not_from_ones_own_warehouse() -> None:
    """E (and R-C2): Alice's own tile 20 cannot be bought with E; 2 stones do not pay 2 + 1."""
    game, state = placed("E")
    refuse(game, state, "buy 20", "R-B7")
    game, state = three({**WA, "stones": {"wheat": 2}}, WB, WC)
    state = play(game, state, "play E C3")
    refuse(game, state, "buy 21", "R-B7")
    assert "buy 22" in legal(game, state)


def test_f_overseer_sends_any_own_tile_to_the_fallow_area() -> None:
    """F: mandatory; any of Alice's tiles, even one the Overseer touches."""
    game, state = placed("F")
    assert "decline" not in legal(game, state)
    state = allow(game, state, "fallow C4")
    assert "C4" not in fields_of(state, ALICE) and workers_of(state, ALICE) == {"C3": "F"}
    assert game.view(state, None)["fallow"] == ["C4"]


def test_f_overseer_illegal_choices() -> None:
    """F: it cannot be declined, and only Alice's own tiles go."""
    game, state = placed("F")
    refuse(game, state, "decline", "R-B7")
    refuse(game, state, "fallow C1", "R-B7")


def test_g_merchant_buys_for_the_same_number_in_any_crops() -> None:
    """G: Bob's tile 21 (bid 2 wine) for any 2 stones; Bob gets them plus his bid."""
    game, state = placed("G")
    state = allow(game, state, "buy 21", "pay wheat wheat")
    assert "21" in fields_of(state, ALICE)
    assert state.player(BOB).stones == stones(hops=1, wheat=2, wine=2)


def test_g_merchant_illegal_choices() -> None:
    """G (and R-C2): not from one's own warehouse; the payment comes from behind one's screen."""
    game, state = placed("G")
    refuse(game, state, "buy 20", "R-B7")
    state = play(game, state, "buy 22")
    refuse(game, state, "pay hops", "R-C3")


def test_h_storekeeper_takes_a_land_office_tile_with_a_bid() -> None:
    """H: a land-office tile into the warehouse with a fixed bid; refilled from the bag. H is
    action B, so action C may follow and buy that tile (spec 5.2, DE 477)."""
    game, state = placed("H", alice={"warehouse": []})
    state = allow(game, state, "bid 10 wheat")
    assert game.current_player(state) == CHANCE
    state = play(game, state, "draw 16")
    assert office_of(state)[0] == "16"
    assert state.actions == "B"
    state = allow(game, state, "buy 10")
    assert "10" in fields_of(state, ALICE) and state.actions == "BC"


def test_h_storekeeper_illegal_choices() -> None:
    """H: no hops to bid (R-D3), tile 20 is not in the land office (R-D2); with a full warehouse it does
    nothing but score."""
    game, state = placed("H")
    refuse(game, state, "bid 10 hops", "R-D3")
    refuse(game, state, "bid 20 wheat", "R-D2")
    game, state = three({**WA, "warehouse": [("20", {"hops": 1}), ("23", {"hops": 1})]}, WB, WC)
    state = allow(game, state, "play H C3")
    assert state.stack == () and workers_of(state, ALICE) == {"C3": "H"}


def test_i_bailiff_takes_an_isolated_tile_for_three_stones() -> None:
    """I: Bob's isolated D5 comes to Alice's board; Bob gets 3 stones of her choice."""
    game, state = placed("I")
    state = allow(game, state, "seize D5", "pay wine wine wheat")
    assert "D5" in fields_of(state, ALICE) and "D5" not in fields_of(state, BOB)
    assert state.player(BOB).stones == stones(hops=1, wine=2, wheat=1)


def test_i_bailiff_illegal_choices() -> None:
    """I: Cara's A5 touches B5 (not isolated); A1 is Alice's own; under 3 stones, nothing."""
    game, state = placed("I")
    refuse(game, state, "seize A5", "R-B7")
    refuse(game, state, "seize A1", "R-B7")
    game, state = three({**WA, "stones": {"wheat": 2}}, WB, WC)
    state = allow(game, state, "play I C3")
    assert state.stack == ()


def test_j_lawyer_reuses_a_worker_where_it_stands() -> None:
    """J: the Day Labourer on A2 acts again (2 stones); it stays where it is."""
    game, state = placed("J", alice={"workers": {"A2": "C"}})
    assert legal(game, state) == {"reuse A2", "decline"}
    state = allow(game, state, "reuse A2", "gain hops hops")
    assert workers_of(state, ALICE) == {"A2": "C", "C3": "J"}
    assert state.player(ALICE).stones == stones(wheat=3, wine=2, hops=2)


def test_j_lawyer_not_itself_nor_an_empty_space() -> None:
    """J: the Lawyer cannot reuse itself, nor a space without a worker; a reused Overseer is
    mandatory."""
    game, state = placed("J", alice={"workers": {"A2": "F"}})
    refuse(game, state, "reuse C3", "R-B7")
    refuse(game, state, "reuse B1", "R-B7")
    state = allow(game, state, "reuse A2")
    refuse(game, state, "decline", "R-B7")


def test_k_trader_draws_in_secret_and_keeps_or_discards() -> None:
    """K: one tile from the bag; keep it (onto the board) or send it to the fallow area."""
    game, state = placed("K")
    state = allow(game, state, "trade")
    assert game.current_player(state) == CHANCE
    state = play(game, state, "draw 18")
    assert state.top.kind == "trader_choice" and state.top.player == ALICE
    kept = allow(game, state, "keep")
    assert "18" in fields_of(kept, ALICE)
    discarded = allow(game, state, "discard")
    assert "18" not in fields_of(discarded, ALICE) and game.view(discarded, None)["fallow"] == ["18"]


def test_k_trader_uses_the_land_office_only_without_field_tiles() -> None:
    """K: with field tiles in the bag a land-office tile is refused; without them it is the
    fallback (and the land office is refilled as usual)."""
    game, state = placed("K")
    refuse(game, state, "take 10", "R-B7")
    game, state = placed("K", bag=[], bag_events="")
    assert "trade" not in legal(game, state)
    state = allow(game, state, "take 10", "keep")
    assert "10" in fields_of(state, ALICE) and office_of(state)[0] is None


def test_l_benefactor_takes_a_land_office_tile_free() -> None:
    """L: a land-office tile straight onto the board, no payment; the space is refilled."""
    game, state = placed("L")
    state = allow(game, state, "take 12")
    assert "12" in fields_of(state, ALICE) and state.player(ALICE).stones == stones(wheat=3, wine=2)
    state = play(game, state, "draw 19")
    assert office_of(state)[2] == "19"


def test_l_benefactor_only_land_office_tiles() -> None:
    """L: tile 21 is in Bob's warehouse, not in the land office."""
    game, state = placed("L")
    refuse(game, state, "take 21", "R-B7")


# ---- when an ability happens (spec 5, intro)


def test_ability_fires_again_on_a_bonus_replacement() -> None:
    """R-X2: displaced by the tile Alice takes with the Benefactor, the Apprentice is re-placed
    and takes a stone again; its ability would not fire on removal (R-B8)."""
    game, state = three({**WA, "workers": {"A2": "A"}}, WB, WC, office=["A2", "11", "12", "13", "14", "15"])
    state = allow(game, state, "play L C3", "take A2")
    assert state.top.kind == "draw"  # R-D5: the land office is refilled first
    state = play(game, state, str(game.chance_outcomes(state)[0][0]))
    assert state.top.kind == "bonus" and state.top.worker == "A"
    state = allow(game, state, "bonus B2")
    assert state.top.kind == "ability" and state.top.worker == "A"


@pytest.mark.parametrize("worker", list("ABCDEFGHIJKL"))
def test_every_ability_is_offered_once_per_placement(worker: str) -> None:
    """R-B7: each of the 12 workers placed on C3 gets exactly one ability step (or, with nothing
    to do, none); removing it triggers nothing (R-B8)."""
    alice = {"workers": {"A3": "C"}} if worker == "J" else {}
    game, state = three({**WA, **alice}, WB, WC)
    state = play(game, state, f"play {worker} C3")
    assert kinds(state).count("ability") <= 1
    answer = "fallow A1" if worker == "F" else "decline"  # the Overseer is mandatory
    later = play(game, state, *([answer] if state.stack else []), "end", "end", "end")
    removed = allow(game, later, "remove C3")
    assert removed.stack == () and workers_of(removed, ALICE).get("C3") is None
    assert removed.player(ALICE).stones == later.player(ALICE).stones


def test_townsfolk_taken_by_another_player_is_no_longer_offered() -> None:
    """R-B6: Alice's board is the same in both positions, but once Bob has the Storekeeper on his
    board the town no longer offers it to her (action B's moves are remembered per board, and
    the town is part of what they depend on)."""
    game, state = three(WA, WB, WC)
    assert {"play H C3", "play G C3"} <= legal(game, state)
    game, later = three(WA, {**WB, "workers": {"A1": "H"}}, WC)
    assert "play H C3" not in legal(game, later) and "play G C3" in legal(game, later)
    refuse(game, later, "play H C3", "R-B6")
