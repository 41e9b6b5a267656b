"""Key Harvest events (spec section 6): R-EV1..R-EV5, the 7th-event rule R-EV7-1..R-EV7-5,
each event M-Z, the draw contexts, the bag running out and the Gift chain.

Each event is drawn by Alice's land-office refill (``pending_event``) unless a test says
otherwise, so Alice resolves first, then Bob, then Cara (clockwise).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.game import CHANCE
from companion.games.key_harvest.moves import parse_move
from companion.games.key_harvest.state import EVENT, TRADER

from .rulekit import (
    ALICE,
    BOB,
    CARA,
    allow,
    decline_all,
    fields_of,
    harvested_of,
    kinds,
    legal,
    office_of,
    pending_event,
    play,
    refill_pending,
    refuse,
    stones,
    three,
    workers_of,
)

# Alice: B2 (wine), B3 (wheat, harvested), A5 (hops, isolated); Apprentice on D2; 2 wheat, 1 wine.
EA = {"fields": ["B2", "B3", "A5"], "harvested": ["B3"], "workers": {"D2": "A"}, "stones": {"wheat": 2, "wine": 1}}
# Bob: the isolated tiles C3 (harvested) and D5; the Merchant on A1; 3 hops.
EB = {"fields": ["C3", "D5"], "harvested": ["C3"], "workers": {"A1": "G"}, "stones": {"hops": 3}}
# Cara: C1 and C2, next to each other; no stones.
EC = {"fields": ["C1", "C2"]}


def event(letter: str, alice: dict[str, Any] = EA, bob: dict[str, Any] = EB, cara: dict[str, Any] = EC,
          **fields: Any) -> tuple[Any, Any]:
    return pending_event(letter, alice, bob, cara, **fields)


def answer_order(game: Any, state: Any) -> list[int]:
    """Who answers the current event, in order, when everyone declines."""
    seen = []
    while state.top is not None and state.top.kind == "event":
        seen.append(state.top.player)
        state = play(game, state, "decline")
    return seen


# --------------------------------------------------------------------------- 6.1 general rules


def test_r_ev1_a_normal_draw_places_and_resolves_the_event_at_once() -> None:
    """R-EV1: drawn in NORMAL context, P goes on the next free space (3) and is resolved now;
    afterwards the same refill draws again."""
    game, state = event("P", track="MN")
    assert state.track == "MNP"
    assert state.top.kind == "event" and state.top.event == "P" and state.top.player == ALICE
    state = decline_all(game, state)
    assert game.current_player(state) == CHANCE and None in office_of(state)


def test_r_ev1_nothing_else_happens_until_the_event_is_resolved() -> None:
    """R-EV1: while P is resolved, the active player's actions are refused."""
    game, state = event("P")
    refuse(game, state, "harvest B2", "R-EV3")
    refuse(game, state, "end", "R-EV3")


@pytest.mark.parametrize("direction, order", [("clockwise", [BOB, CARA, ALICE]),
                                              ("counterclockwise", [BOB, ALICE, CARA])])
def test_r_ev2_all_players_in_turn_order_from_the_drawer(direction: str, order: list[int]) -> None:
    """R-EV2: Bob draws New Harvest (R); each player with a harvested tile answers, Bob first."""
    harvested = {"fields": ["A5"], "harvested": ["A5"]}
    game, state = event("R", harvested, harvested, harvested, active=BOB, options={"turn_direction": direction})
    assert answer_order(game, state) == order


def test_r_ev2_earlier_choices_limit_later_players() -> None:
    """R-EV2: in Quick Sale (T) Alice takes tile 10 first; Bob cannot take it any more."""
    game, state = event("T")
    state = allow(game, state, "take 10", "pay wine wheat wheat")
    assert state.top.player == BOB
    refuse(game, state, "take 10", "R-EV3")
    assert "take 11" in legal(game, state)


BELL = "MNPQRTUVXY"
SCROLL = "OSWZ"


@pytest.mark.parametrize("letter", sorted(BELL + SCROLL))
def test_optional_and_mandatory_events(letter: str) -> None:
    """R-EV3 and spec 6.2: a bell event may be declined by each player; a scroll event (O, S, W,
    Z) must be carried out: no decline is offered and it is refused."""
    game, state = event(letter)
    if letter == "W":  # the mandatory draw happens first, then the choice
        assert game.current_player(state) == CHANCE
        state = play(game, state, "draw 16")
    if letter == "S":  # the drawer has no choice at all: the land office is redrawn
        assert game.current_player(state) == CHANCE and office_of(state) == [None] * 6
        refuse(game, state, "decline", "CHANCE")
        return
    assert game.current_player(state) == ALICE
    if letter in BELL:
        assert "decline" in legal(game, state) and len(legal(game, state)) > 1
        after = allow(game, state, "decline")
        assert not any(s.kind == "event" and s.player == ALICE for s in after.stack)
    else:
        refuse(game, state, "decline")


def test_r_ev3_a_bell_event_is_each_players_choice() -> None:
    """R-EV3: with Good Harvest (P) Alice takes a stone, Bob declines, Cara takes one."""
    game, state = event("P")
    state = allow(game, state, "gain hops", "decline", "gain wine")
    assert state.player(ALICE).stones == stones(wheat=2, wine=1, hops=1)
    assert state.player(BOB).stones == stones(hops=3)
    assert state.player(CARA).stones == stones(wine=1)


def test_r_ev3_a_scroll_event_cannot_be_declined() -> None:
    """R-EV3: Windfall (Z) is mandatory for the drawer, who chooses a stone for every player."""
    game, state = event("Z")
    refuse(game, state, "decline")
    state = allow(game, state, "gain wheat", "gain wheat", "gain apples")
    assert state.player(BOB).stones == stones(hops=3, wheat=1)
    assert state.player(CARA).stones == stones(apples=1)


def test_r_ev4_event_tiles_arrive_unharvested_and_displace() -> None:
    """R-EV4: in Swap (N) Alice gives B2 for Bob's harvested C3; C3 arrives unharvested on her
    board, and B2 lands under Bob's worker, whose owner (Bob) may re-place it."""
    bob = {**EB, "workers": {"B2": "A"}}
    game, state = event("N", bob=bob)
    state = allow(game, state, "swap B2 C3")
    assert "C3" in fields_of(state, ALICE) and "C3" not in harvested_of(state, ALICE)
    assert "B2" in fields_of(state, BOB) and workers_of(state, BOB) == {}
    assert state.top.kind == "bonus" and state.top.player == BOB


def test_r_ev4_the_displaced_worker_cannot_stay() -> None:
    """R-EV4: Bob's worker cannot go back onto B2, which now holds a field tile."""
    game, state = event("N", bob={**EB, "workers": {"B2": "A"}})
    state = play(game, state, "swap B2 C3")
    refuse(game, state, "bonus B2", "R-X2")


def test_r_ev5_discarded_tiles_go_to_the_fallow_area_face_up() -> None:
    """R-EV5: the tile Alice gives up in Exchange (M) lies in the public fallow area."""
    game, state = event("M")
    state = allow(game, state, "fallow A5")
    assert state.layout.space("A5") in [t for t in range(state.layout.size) if state.fallow >> t & 1]
    for viewer in (None, BOB):
        assert game.view(state, viewer)["fallow"] == ["A5"]


def test_r_ev5_fallow_tiles_are_out_of_the_game() -> None:
    """R-EV5: a fallow tile cannot be bid for nor bought."""
    game, state = three(EA, fallow=["24"])
    refuse(game, state, "bid 24 wheat", "R-D2")
    refuse(game, state, "buy 24", "R-C1")


# --------------------------------------------------------------------------- 6.3 the 7th event

SEVEN = ["B1", "B2", "B3", "B4", "B5", "C1", "C2"]
SIX = {"fields": SEVEN[:6]}
FULL = {"fields": SEVEN}


def seventh(bob: dict[str, Any], **kw: Any) -> tuple[Any, Any]:
    """P is placed on space 7; everyone declines it."""
    game, state = pending_event("P", FULL, bob, FULL, track="MNOQRS", **kw)
    return game, decline_all(game, state)


def test_r_ev7_1_fewer_than_seven_board_tiles_returns_spaces_1_and_2() -> None:
    """R-EV7-1: Bob has 6 board tiles (his 2 warehouse tiles do not count): M and N go back into
    the bag, the rest moves down two spaces."""
    game, state = seventh({**SIX, "warehouse": [("20", {"hops": 1}), ("21", {"hops": 1})]})
    assert state.track == "OQRSP"
    assert set(state.bag_events) >= {"M", "N"}


def test_r_ev7_1_only_space_7_triggers_the_check() -> None:
    """R-EV7-1: events placed on spaces 6 and 8 leave the track alone, even with Bob at 6."""
    for track in ("MNOQR", "MNOQRST"):
        game, state = pending_event("P", FULL, SIX, FULL, track=track)
        state = decline_all(game, state)
        assert state.track == track + "P"


def test_r_ev7_2_everyone_with_seven_changes_nothing() -> None:
    """R-EV7-2: Bob's 6 field tiles and 1 worker make 7; the track keeps 7 and the next event
    goes on space 8."""
    game, state = seventh({**SIX, "workers": {"D5": "A"}}, bag_events="U")
    assert state.track == "MNOQRSP"
    state = decline_all(game, play(game, state, "event U"))
    assert state.track == "MNOQRSPU"


def test_r_ev7_2_one_player_short_is_enough() -> None:
    """R-EV7-2: the return is skipped only if every player has 7; Alice and Cara do, Bob not."""
    game, state = seventh(SIX)
    assert len(state.track) == 5


def test_r_ev7_3_the_check_is_made_every_time_space_7_is_filled() -> None:
    """R-EV7-3: after a return the track fills up to 7 again and is checked again; a returned
    event (M) can be drawn and resolved again."""
    game, state = seventh(SIX, bag_events="T")
    assert state.track == "OQRSP"
    state = decline_all(game, play(game, state, "event T"))
    assert "event M" in legal(game, state)
    state = play(game, state, "event M")
    assert state.top.event == "M" and state.track == "OQRSPTM"
    state = decline_all(game, state)
    assert state.track == "RSPTM"


def test_r_ev7_3_more_than_ten_events_do_not_end_the_game() -> None:
    """R-EV7-3: 11 events have been placed in all (two returns), the track holds 5 and the game
    goes on: only space 10 ends it."""
    game, state = seventh(SIX, bag_events="TUVX")
    for letter in "TUVX":
        state = decline_all(game, play(game, state, f"event {letter}"))
    assert state.track == "PTUVX" and state.end_trigger == -1


def _holiday_on_seven(timing: str) -> Any:
    """Holiday (Y) on space 7: Bob (6 tiles + 1 worker) removes his worker and drops to 6."""
    game, state = pending_event("Y", FULL, {**SIX, "workers": {"D5": "A"}}, FULL, track="MNOQRS",
                                options={"seventh_check_timing": timing})
    return play(game, state, "remove D5")


def test_r_ev7_4_checked_after_resolution_by_default() -> None:
    """R-EV7-4: after_resolution counts Bob after his Holiday: 6, so M and N return."""
    state = _holiday_on_seven("after_resolution")
    assert state.track == "OQRSY"


def test_r_ev7_4_before_resolution_counts_before_the_event() -> None:
    """R-EV7-4: before_resolution counts Bob before his Holiday: 7, so nothing returns."""
    state = _holiday_on_seven("before_resolution")
    assert state.track == "MNOQRSY"


def test_r_ev7_5_guard_skips_the_return_without_field_tiles_in_the_bag() -> None:
    """R-EV7-5: the bag holds no field tile, so the return is skipped (no endless loop)."""
    game, state = seventh(SIX, bag=[])
    assert state.track == "MNOQRSP"


@pytest.mark.parametrize("options, bag", [({}, ["16"]), ({"seventh_rule_guard": "off"}, [])])
def test_r_ev7_5_the_guard_is_only_for_an_empty_bag(options: dict[str, str], bag: list[str]) -> None:
    """R-EV7-5: with a field tile in the bag, or with the guard off, the return happens."""
    game, state = seventh(SIX, bag=bag, options=options)
    assert state.track == "OQRSP"


# --------------------------------------------------------------------------- 6.2 the 14 events


def test_event_m_exchange() -> None:
    """M: Alice sends A5 to the fallow area and must place the replacement drawn from the bag."""
    game, state = event("M")
    state = allow(game, state, "fallow A5")
    assert game.current_player(state) == CHANCE
    state = play(game, state, "draw 16")
    assert fields_of(state, ALICE) == {"B2", "B3", "16"} and "16" not in harvested_of(state, ALICE)
    assert state.top.player == BOB


def test_event_m_illegal_choices() -> None:
    """M: only one's own tiles; without field tiles in the bag the exchange is not offered."""
    game, state = event("M")
    refuse(game, state, "fallow C3", "R-EV3")
    game, state = event("M", bag=[], bag_events="R")
    assert state.top is not None and state.top.kind == "draw" and state.track == "M"


def test_event_n_swap_with_an_isolated_tile() -> None:
    """N: Alice swaps her B3 for Bob's isolated D5; both go onto their new owners' boards."""
    game, state = event("N")
    state = allow(game, state, "swap B3 D5")
    assert fields_of(state, ALICE) == {"B2", "A5", "D5"}
    assert fields_of(state, BOB) == {"C3", "B3"} and "B3" not in harvested_of(state, BOB)


def test_event_n_only_isolated_tiles_of_an_opponent() -> None:
    """N: Cara's C1 touches C2, so it is not isolated; Alice's own A5 is no opponent's tile."""
    game, state = event("N")
    refuse(game, state, "swap B2 C1", "R-EV3")
    refuse(game, state, "swap B2 A5", "R-EV3")


def test_event_p_good_harvest() -> None:
    """P: the crop of most unharvested tiles; a tie is the player's choice; no tile flips."""
    game, state = event("P")
    assert {m for m in legal(game, state) if m != "decline"} == {"gain wine", "gain hops"}
    state = allow(game, state, "gain wine")
    assert state.player(ALICE).stones == stones(wheat=2, wine=2)
    assert harvested_of(state, ALICE) == {"B3"}


def test_event_p_illegal_crop_and_the_shortage_rule() -> None:
    """P: wheat is not Alice's best crop; when the best crop is out, any available crop."""
    game, state = event("P")
    refuse(game, state, "gain wheat", "R-EV3")
    game, state = event("P", supply={"wine": 0, "hops": 0, "wheat": 1})
    assert {m for m in legal(game, state) if m != "decline"} == {"gain wheat"}


def test_event_q_lucky_dip() -> None:
    """Q: pay 2 stones into the supply, draw a field tile and place it at once."""
    game, state = event("Q")
    before = state.supply
    state = allow(game, state, "dip", "pay wine wheat")
    assert state.supply[4] == before[4] + 1 and state.supply[3] == before[3] + 1
    state = play(game, state, "draw 20")
    assert "20" in fields_of(state, ALICE)


def test_event_q_needs_two_stones_of_ones_own() -> None:
    """Q: Alice pays with stones she has; Cara, without stones, is not offered the dip."""
    game, state = event("Q")
    state = play(game, state, "dip")
    refuse(game, state, "pay hops", "R-C3")
    game, state = event("Q", alice={**EA, "stones": {"wheat": 1}}, bob={**EB, "stones": {}})
    assert state.top is not None and state.top.kind == "draw"  # nobody could take part


def test_event_q_land_office_fallback_without_field_tiles() -> None:
    """Q (spec 6.6): with no field tile in the bag the 2 stones buy a land-office tile."""
    game, state = event("Q", bag=[])
    assert "dip" not in legal(game, state)
    state = allow(game, state, "buy 10", "pay wheat wheat")
    assert "10" in fields_of(state, ALICE) and "10" not in office_of(state)


def test_event_r_new_harvest() -> None:
    """R: up to 2 harvested tiles anywhere on one's board flip back."""
    game, state = event("R", alice={**EA, "harvested": ["B3", "A5"]})
    state = allow(game, state, "flip A5 B3")
    assert harvested_of(state, ALICE) == set()


def test_event_r_only_own_harvested_tiles() -> None:
    """R: B2 is unharvested, and C3 is Bob's."""
    game, state = event("R")
    refuse(game, state, "flip B2", "R-EV3")
    refuse(game, state, "flip C3", "R-EV3")


def test_event_s_resurvey() -> None:
    """S: the drawer returns the land office to the bag and draws replacements (EVENT context);
    an event drawn then is set aside, and afterwards the event's own space is refilled."""
    game, state = event("S", bag_events="R")
    assert office_of(state) == [None] * 6 and state.bag_fields.bit_count() == 9 + 5
    state = play(game, state, "event R")
    assert state.set_aside == "R" and state.track == "S"
    state = play(game, state, "draw 10", "draw 11", "draw 12", "draw 13", "draw 14")
    assert state.set_aside == "" and "R" in state.bag_events
    assert office_of(state).count(None) == 1
    state = play(game, state, "draw 16")
    assert None not in office_of(state)


def test_event_s_the_drawer_has_nothing_to_choose() -> None:
    """S: mandatory and automatic; no player move is accepted while it draws."""
    game, state = event("S")
    refuse(game, state, "decline", "CHANCE")
    refuse(game, state, "take 10", "CHANCE")


def test_event_t_quick_sale() -> None:
    """T: 3 stones to the supply for a land-office tile; the office is refilled only after
    everyone had the chance, in EVENT context."""
    game, state = event("T")
    state = allow(game, state, "take 12", "pay wine wheat wheat")
    state = allow(game, state, "take 13", "pay hops hops hops")
    assert "12" in fields_of(state, ALICE) and "13" in fields_of(state, BOB)
    assert office_of(state).count(None) == 3  # two bought, one the event was drawn for
    assert [s.context for s in state.stack if s.kind == "draw"][-2:] == [EVENT, EVENT]


def test_event_t_needs_three_stones() -> None:
    """T: Alice with 2 stones cannot take part; the choice is refused."""
    game, state = event("T", alice={**EA, "stones": {"wheat": 2}})
    assert state.top.player == BOB
    game, state = event("T")
    state = play(game, state, "take 12")
    refuse(game, state, "pay hops", "R-C3")


def test_event_u_land_consolidation() -> None:
    """U: swap a board tile with a land-office tile; the given tile enters the office unharvested."""
    game, state = event("U")
    state = allow(game, state, "swap B3 11")
    assert "11" in fields_of(state, ALICE) and "B3" not in fields_of(state, ALICE)
    assert "B3" in office_of(state) and "11" not in office_of(state)


def test_event_u_only_with_the_land_office() -> None:
    """U: tile 20 is not in the land office; C3 is not Alice's tile."""
    game, state = event("U")
    refuse(game, state, "swap B2 20", "R-EV3")
    refuse(game, state, "swap C3 11", "R-EV3")


def test_event_v_extra_harvest() -> None:
    """V: harvest one isolated unharvested tile; with its crop out, another crop and no flip."""
    game, state = event("V")
    state = allow(game, state, "harvest A5")
    assert "A5" in harvested_of(state, ALICE) and state.player(ALICE).stones[0] == 1
    game, state = event("V", supply={"hops": 0, "apples": 2})
    state = allow(game, state, "harvest A5/apples")
    assert "A5" not in harvested_of(state, ALICE)


def test_event_v_only_an_isolated_tile() -> None:
    """V: B2 touches B3, so it is not isolated."""
    game, state = event("V")
    refuse(game, state, "harvest B2", "R-EV3")


def test_event_w_replacement() -> None:
    """W: each player must draw; keeping the tile costs a board tile to the fallow area,
    otherwise it goes to the fallow area itself."""
    game, state = event("W")
    state = play(game, state, "draw 16")
    state = allow(game, state, "fallow A5")
    assert "16" in fields_of(state, ALICE) and "A5" not in fields_of(state, ALICE)
    state = play(game, state, "draw 17")
    state = allow(game, state, "discard")
    assert "17" not in fields_of(state, BOB)
    assert game.view(state, None)["fallow"] == ["A5", "17"]


def test_event_w_the_draw_cannot_be_declined() -> None:
    """W: the draw is mandatory; no decline, and only one's own tiles can make room."""
    game, state = event("W")
    state = play(game, state, "draw 16")
    refuse(game, state, "decline")
    refuse(game, state, "fallow C3")


def test_event_x_migrant_worker() -> None:
    """X: a worker moves without its ability firing, and may replace a lower one."""
    alice = {"fields": ["B2", "B3", "C3"], "workers": {"D3": "C", "A1": "A"}}
    game, state = event("X", alice=alice)
    state = allow(game, state, "move D3 C2")
    assert workers_of(state, ALICE) == {"C2": "C", "A1": "A"} and "ability" not in kinds(state)
    assert state.player(ALICE).stones == stones()
    game, state = event("X", alice={"fields": ["B2", "B3", "C3", "C4"], "workers": {"C2": "C", "D3": "A"}})
    state = allow(game, state, "move C2 D3")
    assert workers_of(state, ALICE) == {"D3": "C"} and "A" in state.player(ALICE).beside


def test_event_x_the_new_space_must_be_legal() -> None:
    """X: the Apprentice on A1 may not move onto a field tile nor next to the worker on D3."""
    alice = {"fields": ["B2", "B3", "C3"], "workers": {"D3": "C", "A1": "A"}}
    game, state = event("X", alice=alice)
    refuse(game, state, "move A1 B2", "R-EV3")   # a field tile
    refuse(game, state, "move A1 D2", "R-EV3")   # next to the worker on D3


def test_event_y_holiday() -> None:
    """Y: a removed labourer goes beside the board, a townsfolk back to the town board."""
    game, state = event("Y", alice={"fields": ["B2"], "workers": {"C1": "I"}})
    state = allow(game, state, "remove C1")
    assert "I" in state.town
    state = allow(game, state, "remove A1")
    assert "G" in state.town and workers_of(state, BOB) == {}


def test_event_y_only_ones_own_worker() -> None:
    """Y: A1 holds Bob's worker, not Alice's; D3 is empty."""
    game, state = event("Y")
    refuse(game, state, "remove A1", "R-EV3")
    refuse(game, state, "remove D3", "R-EV3")


def test_event_z_windfall() -> None:
    """Z: the drawer gives every player, herself included, a stone of her choice; with the
    supply empty nothing is given."""
    game, state = event("Z", supply={"apples": 1})
    state = allow(game, state, "gain apples")
    assert state.player(ALICE).stones[2] == 1
    assert state.top is not None and state.top.kind == "draw"  # Bob and Cara get nothing


def test_event_z_only_crops_in_the_supply() -> None:
    """Z: the supply has no wine."""
    game, state = event("Z", supply={"wheat": 3})
    refuse(game, state, "gain wine")


# --------------------------------------------------------------------------- 6.4 the Gift (O)

GA = {"fields": ["B2", "A5"]}
GB = {"fields": ["C3"]}
GC = {"fields": ["D1"], "workers": {"C2": "A"}}


def gift(options: dict[str, str] | None = None, **kw: Any) -> tuple[Any, Any]:
    return event("O", GA, GB, GC, options=options, **kw)


def test_gift_chain_forwarding_then_the_drawer_receives_last() -> None:
    """O (spec 6.4): Alice gives B2; Bob forwards it; Cara keeps it and gives her D1; Alice,
    the final receiver, must place or discard D1 and may not forward it."""
    game, state = gift()
    assert legal(game, state) == {"give B2", "give A5"}
    state = allow(game, state, "give B2", "forward", "keep", "give D1")
    assert state.top.player == ALICE and legal(game, state) == {"keep", "discard"}
    state = allow(game, state, "keep")
    assert fields_of(state, ALICE) == {"A5", "D1"}
    assert fields_of(state, BOB) == {"C3"}
    assert fields_of(state, CARA) == {"B2"}


def test_gift_keeping_means_giving_ones_own() -> None:
    """O: Bob keeps B2 and must give a tile of his own; Cara discards it to the fallow area and
    has to give one of hers."""
    game, state = gift()
    state = allow(game, state, "give B2", "keep")
    assert "forward" not in legal(game, state)
    state = allow(game, state, "give C3", "discard", "give D1", "discard")
    assert fields_of(state, BOB) == {"B2"} and fields_of(state, CARA) == set()
    assert set(game.view(state, None)["fallow"]) == {"C3", "D1"}


def test_gift_is_mandatory_and_from_the_board() -> None:
    """O: the drawer cannot decline, nor give a warehouse tile or another player's tile."""
    game, state = event("O", {**GA, "warehouse": [("20", {"wheat": 1})]}, GB, GC)
    refuse(game, state, "decline", "R-EV2")
    refuse(game, state, "give 20", "R-EV2")
    refuse(game, state, "give C3", "R-EV2")


def test_gift_a_kept_tile_is_not_given_on() -> None:
    """O (spec 6.4 and example 13's variant): a player who keeps the received tile must give one
    of her own board tiles, not that same tile (that would be forwarding it)."""
    game, state = gift()
    state = play(game, state, "give B2", "forward", "keep")
    assert state.top.player == CARA and state.top.purpose == "give"
    refuse(game, state, "give B2")
    assert legal(game, state) == {"give D1"}


def test_gift_keeping_may_displace_and_give_a_bonus() -> None:
    """O: Cara keeps C2, which lands under her Apprentice: she may re-place it (R-X2)."""
    game, state = event("O", {"fields": ["C2"]}, GB, GC)
    state = allow(game, state, "give C2", "forward", "keep")
    assert state.top.kind == "bonus" and state.top.player == CARA


def test_gift_forwarding_not_last_in_order() -> None:
    """O with gift_forwarding=not_last_in_order: Cara (last in order) may not forward; Bob may."""
    game, state = gift({"gift_forwarding": "not_last_in_order"})
    state = play(game, state, "give B2")
    assert "forward" in legal(game, state)
    state = play(game, state, "forward")
    refuse(game, state, "forward", "R-EV2")
    assert legal(game, state) == {"keep", "discard"}


def test_gift_with_nothing_to_give() -> None:
    """O (spec 6.4 item 5): Bob has no field tiles, keeps nothing, so he gives nothing; the chain
    goes on with Cara giving from her board."""
    game, state = event("O", GA, {}, GC)
    state = allow(game, state, "give A5", "discard")
    assert state.top.player == CARA and state.top.purpose == "give"
    state = allow(game, state, "give D1", "keep")
    assert fields_of(state, ALICE) == {"B2", "D1"}


# --------------------------------------------------------------------------- 6.5 draw contexts


def test_normal_context_places_every_event_and_keeps_drawing() -> None:
    """NORMAL: two events in a row are both placed and resolved; then a field tile fills the space."""
    game, state = three(EA, **refill_pending(bag_events="PR", track="M"))
    state = decline_all(game, play(game, state, "event P"))
    state = decline_all(game, play(game, state, "event R"))
    assert state.track == "MPR"
    state = play(game, state, "draw 16")
    assert office_of(state)[-1] == "16"


def test_event_context_sets_events_aside_until_a_field_tile() -> None:
    """EVENT: during Exchange (M) Alice's replacement draw brings event R: it is announced and set
    aside, not placed; once field tile 16 is drawn R goes back into the bag."""
    game, state = event("M", bag_events="R")
    state = play(game, state, "fallow A5", "event R")
    assert state.set_aside == "R" and state.track == "M"
    assert game.view(state, BOB)["set_aside"] == ["R"]
    assert game.current_player(state) == CHANCE and "event R" not in legal(game, state)
    state = play(game, state, "draw 16")
    assert state.set_aside == "" and "R" in state.bag_events and state.track == "M"
    assert "16" in fields_of(state, ALICE)


def test_event_context_ends_with_the_event() -> None:
    """After the event, the interrupted refill is NORMAL again: an event drawn is placed."""
    game, state = event("M", bag_events="R")
    state = decline_all(game, state)
    assert state.top.kind == "draw" and state.top.context != EVENT
    state = play(game, state, "event R")
    assert state.track == "MR" and state.top.event == "R"


TRADER_ALICE = {"fields": ["B3", "B4", "C2", "C4", "D2", "D3"], "stones": {"wheat": 1}}


def test_trader_context_sets_events_aside_unresolved() -> None:
    """TRADER: an event drawn by the Trader (K) is announced and set aside, never resolved, and
    goes back into the bag once a field tile is drawn."""
    game, state = three(TRADER_ALICE, bag_events="P", track="MN")
    state = allow(game, state, "play K C3", "trade")
    assert state.top.context == TRADER
    state = play(game, state, "event P")
    assert state.set_aside == "P" and state.track == "MN" and "event" not in kinds(state)
    state = play(game, state, "draw 16")
    assert "P" in state.bag_events and state.set_aside == ""
    assert state.top.kind == "trader_choice"


def test_trader_draw_is_private_until_placed() -> None:
    """TRADER (spec 11, hidden information): until the drawn tile is placed or discarded, the
    other players cannot tell which tile it is, from the log or from their view."""
    game, state = three(TRADER_ALICE, bag=["16", "17"])
    state = play(game, state, "play K C3", "trade")
    assert game.describe(state, parse_move("draw 16"), BOB) == game.describe(state, parse_move("draw 17"), BOB)
    one, two = play(game, state, "draw 16"), play(game, state, "draw 17")
    assert game.view(one, ALICE)["pending"]["label"] == "16"
    for viewer in (BOB, None):
        assert game.view(one, viewer) == game.view(two, viewer)


# --------------------------------------------------------------------------- 6.6 the bag running out


def test_bag_empty_leaves_the_land_office_short() -> None:
    """Spec 6.6: no field tiles and no events: refills leave spaces empty, Exchange and Replacement
    cannot be carried out."""
    game, state = three(EA, bag=[])
    state = play(game, state, "bid 10 wheat")
    assert office_of(state)[0] is None and game.current_player(state) == ALICE
    for letter in "MW":
        game, state = event(letter, bag=[], bag_events="")
        assert state.track == letter and state.stack == () and game.current_player(state) == ALICE


def test_bag_with_only_events_resolves_them_until_ten() -> None:
    """Spec 6.6: with only events left, each draw places and resolves an event (even during an
    event draw) until the 10th; then the rest are ignored and the space stays empty."""
    game, state = three(EA, track="MNOQSTU", bag=[], bag_events="PRVWX")
    state = play(game, state, "bid 10 wheat")
    for letter in "PRV":
        assert game.current_player(state) == CHANCE
        state = decline_all(game, play(game, state, f"event {letter}"))
    assert state.track == "MNOQSTUPRV" and state.end_trigger == ALICE
    assert game.current_player(state) == ALICE and office_of(state)[0] is None
    assert state.bag_events == "WX"  # nothing is drawn for an empty land office any more


def test_bag_with_only_events_at_the_seventh_space_is_guarded() -> None:
    """Spec 6.6 / R-EV7-5: events resolve even at space 7, without the endless return loop."""
    game, state = three(EA, {"fields": ["C3"]}, track="MNOQST", bag=[], bag_events="P")
    state = decline_all(game, play(game, state, "bid 10 wheat", "event P"))
    assert state.track == "MNOQSTP"
