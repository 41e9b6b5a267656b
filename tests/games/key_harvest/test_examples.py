"""The worked examples of the Key Harvest spec, section 12 (Ex 1 - Ex 15), on the toy board T20.

Each test builds the example's position with ``table`` and then plays the example through
moves, forcing the bag's draws with chance moves (``draw 44``, ``event R``). The assertions
are what the players at the table would notice: tiles on boards and their side, stones behind
screens and in the supply, workers, warehouses, the event track, the bag and the final score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE, TERMINAL
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import Layout
from companion.games.key_harvest.moves import parse_move
from companion.games.key_harvest.state import State
from tests.games.key_harvest.table import fields_of as fields
from tests.games.key_harvest.table import harvested_of as harvested
from tests.games.key_harvest.table import labels, legal, play, stones, t20_layout, table
from tests.games.key_harvest.table import workers_of as workers

ALICE, BOB, CARA = 0, 1, 2


# ---------------------------------------------------------------- helpers


def board(crops: Mapping[str, str] | None = None) -> Layout:
    """T20 with the examples' crops; the isolated tiles 44 and 52 are wheat unless given."""
    return t20_layout({"44": "wheat", "52": "wheat", **(crops or {})})


def players(alice: Mapping[str, Any] | None = None, bob: Mapping[str, Any] | None = None,
            cara: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Alice, Bob and Cara in clockwise order (spec section 12)."""
    return [{"name": name, **(spec or {})} for name, spec in (("Alice", alice), ("Bob", bob), ("Cara", cara))]


def draw(game: KeyHarvest, state: State, outcome: str) -> State:
    """Force the outcome of the pending bag draw."""
    assert game.current_player(state) == CHANCE, f"not at a draw: {state.top}"
    return play(game, state, outcome)


def refused(game: KeyHarvest, state: State, move: str) -> str:
    """Assert that ``move`` is illegal now (validator and checked play agree); return the rule ID."""
    error = game.validate(state, parse_move(move))
    assert error is not None, f"{move} should be illegal"
    assert move not in legal(game, state)
    with pytest.raises(IllegalMoveError):
        play(game, state, move)
    return error.rule


def warehouse(state: State, seat: int) -> dict[str, tuple[int, ...]]:
    return {state.label(tile): bid for tile, bid in state.player(seat).warehouse}


def screen(state: State, seat: int) -> tuple[int, ...]:
    return state.player(seat).stones


def gained(after: State, before: State, seat: int) -> tuple[int, ...]:
    """Stones behind ``seat``'s screen now minus before."""
    return tuple(a - b for a, b in zip(after.player(seat).stones, before.player(seat).stones))


def supply_change(after: State, before: State) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(after.supply, before.supply))


def score(game: KeyHarvest, state: State, seat: int) -> dict[str, Any]:
    return game.score(state)[seat]


def turn_of(state: State, seat: int) -> State:
    """The same table with ``seat`` to play."""
    return replace(state, active=seat)


def kinds(state: State) -> tuple[str, int, str]:
    """The pending step as the table sees it: (kind, player, event)."""
    top = state.top
    assert top is not None, "no step is pending"
    return top.kind, top.player, top.event


# ---------------------------------------------------------------- Ex 1 - Ex 3: scoring


def test_ex01_full_group_and_worker_scoring() -> None:
    """Ex 1: workers never connect groups; largest x1, second x2, worker values. Spec 8, 9.3 (R-A1)."""
    game, state = table(board(), players(alice={
        "fields": ["A1", "A2", "B1", "B2", "C1", "A4", "A5", "B5", "D3"],
        "workers": {"A3": "C", "D4": "A"},  # Day Labourer (2), Apprentice (1)
    }))
    row = score(game, state, ALICE)
    assert row["worker_points"] == 3
    assert row["largest_group_points"] == 5  # {A1, A2, B1, B2, C1}: A3's worker does not link {A4, A5, B5}
    assert row["second_group_points"] == 6  # {A4, A5, B5} x 2
    assert row["majority_points"] == 0
    assert row["total"] == 14


EX2_A = ["A1", "A2", "B1", "B2", "C4", "C5", "D4", "D5"]
EX2_B = ["A1", "A2", "A3", "B1", "B2", "B3", "D1", "D5"]


def test_ex02a_equal_groups_score_x1_and_x2() -> None:
    """Ex 2 (a): two groups of 4 score 4 + 8. Spec 8 part 3 (ties)."""
    game, state = table(board(), players(alice={"fields": EX2_A}))
    row = score(game, state, ALICE)
    assert (row["largest_group_points"], row["second_group_points"], row["total"]) == (4, 8, 12)


@pytest.mark.parametrize(("min_group", "expected"), [("1", 8), ("2", 6)])
def test_ex02b_single_tiles_and_the_group_minimum_flag(min_group: str, expected: int) -> None:
    """Ex 2 (b): groups 6, 1, 1 score 6 + 2 (DE) or 6 + 0 (min_scoring_group_size = 2). Spec 8, 10.2 #4."""
    game, state = table(board(), players(alice={"fields": EX2_B}), {"min_scoring_group_size": min_group})
    row = score(game, state, ALICE)
    assert row["largest_group_points"] == 6
    assert row["total"] == expected


def test_ex02c_warehouse_tiles_do_not_count() -> None:
    """Ex 2 (c): tile D3 in the warehouse would join C4's group on the board, but scores nothing. Spec 8."""
    game, state = table(board(), players(alice={"fields": EX2_A, "warehouse": [("D3", {"wheat": 1})]}))
    assert score(game, state, ALICE)["total"] == 12


def test_ex03_crop_majorities_need_a_strict_lead() -> None:
    """Ex 3: one point per crop for the single leader; ties give nobody the point; bids do not count. Spec 8 part 4."""
    game, state = table(board(), players(
        alice={"stones": {"wheat": 3, "wine": 2, "apples": 1, "hops": 2}},
        bob={"stones": {"wheat": 3, "wine": 1, "vegetables": 2, "hops": 1}, "warehouse": [("8", {"hops": 4})]},
        cara={"stones": {"wheat": 1, "wine": 1, "vegetables": 2}},
    ))
    assert [row["majority_points"] for row in game.score(state)] == [3, 0, 0]  # wine, apples, hops to Alice


# Ex 3 sequel: both boards hold 14 field tiles, groups of 7 and 7 (7 + 14), workers E, F, C (8) and
# two crop majorities each: 21 + 8 + 2 = 31.
EX3_FIELDS = ["A1", "A2", "A3", "A4", "A5", "B1", "B2", "C4", "C5", "D1", "D2", "D3", "D4", "D5"]
EX3_WORKERS = {"B5": "E", "C3": "F", "C1": "C"}


@pytest.mark.parametrize(("bob_stones", "ranks"), [
    ({"vegetables": 4, "apples": 3}, [1, 2, 3]),  # Alice 8 stones, Bob 7: Alice wins on tie-break 2
    ({"vegetables": 4, "apples": 4}, [1, 1, 3]),  # equal stones too: a shared win
])
def test_ex03_tie_break_on_stones_behind_the_screen(bob_stones: dict[str, int], ranks: list[int]) -> None:
    """Ex 3 sequel: equal totals (31) and field tiles (14); then most stones wins, else a shared win. Spec 8 (winner)."""
    game, state = table(board(), players(
        alice={"fields": EX3_FIELDS, "workers": EX3_WORKERS, "stones": {"wheat": 4, "wine": 4}},
        bob={"fields": EX3_FIELDS, "workers": EX3_WORKERS, "stones": bob_stones},
    ), town="GHIJKL")
    rows = game.score(state)
    assert [row["total"] for row in rows[:2]] == [31, 31]
    assert [row["tiebreak"]["tiles"] for row in rows[:2]] == [14, 14]
    assert [row["rank"] for row in rows] == ranks


# ---------------------------------------------------------------- Ex 4: worker placement


@pytest.fixture
def ex4() -> tuple[KeyHarvest, State]:
    """Ex 4's board: Apprentice on D2, Day Labourer on C4; Bob has a tile for sale (for E's ability)."""
    return table(board(), players(
        alice={"fields": ["B2", "B3", "B4", "C2", "C3", "C5"], "workers": {"D2": "A", "C4": "C"},
               "stones": {"wheat": 2}},
        bob={"warehouse": [("8", {"wheat": 1})]},
    ))


@pytest.mark.parametrize(("query", "move", "rules"), [
    ("value 2 on A3", "play D A3", None),
    ("value 3 on A4", "play E A4", {"R-B3"}),
    ("value 2 on D3", "play D D3", {"R-B3", "R-B4"}),  # touches 1 tile and the workers on D2, C4
    ("value 3 on D2 replacing the 1", "play E D2", {"R-B3"}),
    ("value 1 on A5", "play B A5", None),
    *[(f"worker {w} on B3 (a field tile)", f"play {w} B3", {"R-B1"}) for w in "BDEFGHIJKL"],
    ("Skilled Labourer on C4 replacing the Day Labourer", "play E C4", None),
    ("the other value-2 labourer on C4", "play D C4", {"R-B2"}),
])
def test_ex04_worker_placement_legality(ex4: tuple[KeyHarvest, State], query: str, move: str,
                                        rules: set[str] | None) -> None:
    """Ex 4: the placement table. R-B1, R-B2, R-B3, R-B4."""
    game, state = ex4
    if rules is None:
        assert game.validate(state, parse_move(move)) is None, query
        assert move in legal(game, state)
    else:
        assert refused(game, state, move) in rules, query


def test_ex04_replaced_worker_goes_beside_the_board_without_a_bonus(ex4: tuple[KeyHarvest, State]) -> None:
    """Ex 4, last legal row: the Day Labourer goes back beside the board, gets no bonus placement, cannot be
    played again this turn; the Skilled Labourer's ability fires. R-B2, R-B6, R-B7, R-X5, R-T3."""
    game, state = ex4
    after = play(game, state, "play E C4")
    assert workers(after, ALICE) == {"D2": "A", "C4": "E"}
    assert "C" in after.player(ALICE).beside
    assert kinds(after) == ("ability", ALICE, "")  # E's ability, not a bonus step for C
    assert after.top is not None and after.top.worker == "E"
    assert legal(game, after) == {"buy 8", "decline"}
    after = play(game, after, "decline")
    assert not any(m.startswith(("play", "bonus")) for m in legal(game, after))
    assert refused(game, after, "play C A3") == "R-T3"


# ---------------------------------------------------------------- Ex 5, Ex 6: buying


def test_ex05_buy_with_displacement_bonus_paid_from_the_bonus() -> None:
    """Ex 5: one action C for two tiles; the displaced Apprentice's bonus re-placement and ability pay for the
    second tile. R-C1, R-C3, R-C4, R-C5, R-C6, R-X1, R-X2, R-B3, R-B4, R-T4; Apprentice (spec 5.1 A)."""
    layout = board({"B2": "wheat", "B3": "wine", "C3": "vegetables"})
    game, before = table(layout, players(
        alice={"fields": ["B2", "B3", "C3"], "harvested": ["C3"], "workers": {"C2": "A"},
               "stones": {"wheat": 1, "wine": 1}},
        bob={"warehouse": [("C2", {"wheat": 1, "wine": 1})]},
        cara={"warehouse": [("D5", {"wine": 1})]},
    ))

    # 1. C2 from Bob: Bob receives the payment and his bid back; C2 lands on the Apprentice.
    state = play(game, before, "buy C2")
    assert screen(state, BOB) == stones(wheat=2, wine=2)
    assert warehouse(state, BOB) == {}
    assert fields(state, ALICE) == {"B2", "B3", "C2", "C3"}
    assert harvested(state, ALICE) == {"C3"}
    assert workers(state, ALICE) == {}

    # 2. The bonus re-placement: exactly the spec's spaces for a value-1 worker.
    assert kinds(state) == ("bonus", ALICE, "")
    assert legal(game, state) == {f"bonus {s}" for s in "A2 A3 A4 B1 B4 C1 C4 D1 D2 D3".split()} | {"decline"}
    state = play(game, state, "bonus A3")
    assert legal(game, state) == {"take B2", "take B3", "decline"}
    state = play(game, state, "take B3")
    assert screen(state, ALICE) == stones(wine=1)
    assert harvested(state, ALICE) == {"C3"}  # B3 is not flipped

    # 3. D5 from Cara, paid with the red stone just gained.
    state = play(game, state, "buy D5")
    assert screen(state, CARA) == stones(wine=2)

    assert screen(state, ALICE) == stones()
    assert fields(state, ALICE) == {"B2", "B3", "C2", "C3", "D5"}
    assert harvested(state, ALICE) == {"C3"}
    assert workers(state, ALICE) == {"A3": "A"}
    assert gained(state, before, BOB) == stones(wheat=2, wine=2)
    assert supply_change(state, before) == stones(wine=-1)
    assert state.actions == "C"
    offered = legal(game, state)
    assert any(m.startswith("harvest") for m in offered) and any(m.startswith("play") for m in offered)
    assert not any(m.startswith("buy") for m in offered)


@pytest.fixture
def ex6() -> tuple[KeyHarvest, State]:
    """Ex 6: Bob's tile 52 with bid {red, red, yellow}; Alice holds {red 1, yellow 5}. B1 takes a 3, 4 or 5."""
    return table(board(), players(
        alice={"fields": ["A1", "A2", "B2", "C1"], "stones": {"wine": 1, "wheat": 5}},
        bob={"fields": ["A1", "A2", "B2", "C1"], "warehouse": [("52", {"wine": 2, "wheat": 1})],
             "stones": {"hops": 2}},
        cara={"warehouse": [("17", {"hops": 1})]},
    ))


def test_ex06a_action_c_needs_the_exact_bid(ex6: tuple[KeyHarvest, State]) -> None:
    """Ex 6 (a): Alice cannot match 2 red, so action C cannot take tile 52. R-C3."""
    game, state = ex6
    assert refused(game, state, "buy 52") == "R-C3"


@pytest.mark.parametrize(("worker", "payment", "bob_gets", "alice_keeps"), [
    ("E", ["wheat"] * 4, stones(wine=2, wheat=5), stones(wine=1, wheat=1)),  # (b) bid + 1 stones, any crops
    ("G", ["wine", "wheat", "wheat"], stones(wine=3, wheat=3), stones(wheat=3)),  # (c) as many as the bid
])
def test_ex06bc_skilled_labourer_and_merchant_pay_any_crops(
        ex6: tuple[KeyHarvest, State], worker: str, payment: list[str],
        bob_gets: tuple[int, ...], alice_keeps: tuple[int, ...]) -> None:
    """Ex 6 (b) Skilled Labourer pays 4 of any crops, (c) Merchant pays 3; Bob gets the payment and his bid.
    Spec 5.1 E, 5.2 G, 10.2 #14 (ability_purchase_payee = owner), R-C3, R-C4."""
    game, before = ex6
    state = play(game, before, f"play {worker} B1")
    assert kinds(state) == ("ability", ALICE, "")
    assert "buy 52" in legal(game, state)
    state = play(game, state, "buy 52")
    assert kinds(state)[0] == "pay"
    state = play(game, state, "pay " + " ".join(payment))  # one move, every stone owed (issue 10)
    assert state.top is None
    assert gained(state, before, BOB) == bob_gets
    assert screen(state, ALICE) == alice_keeps
    assert warehouse(state, BOB) == {}
    assert "52" in fields(state, ALICE) and "52" not in harvested(state, ALICE)
    assert workers(state, ALICE) == {"B1": worker}


def test_ex06d_own_warehouse_bid_goes_to_the_supply(ex6: tuple[KeyHarvest, State]) -> None:
    """Ex 6 (d): Bob takes his own tile 52 with action C; his 2 red and 1 yellow go to the supply. R-C2."""
    game, before = ex6
    state = play(game, turn_of(before, BOB), "buy 52")
    assert screen(state, BOB) == screen(before, BOB)
    assert supply_change(state, before) == stones(wine=2, wheat=1)
    assert "52" in fields(state, BOB)
    assert warehouse(state, BOB) == {}


@pytest.mark.parametrize("worker", ["E", "G"])
def test_ex06d_skilled_labourer_and_merchant_only_buy_from_opponents(ex6: tuple[KeyHarvest, State],
                                                                     worker: str) -> None:
    """Ex 6 (d): Bob may not use E or G on his own warehouse, only on Cara's. Spec 5.1 E, 5.2 G."""
    game, state = ex6
    state = play(game, turn_of(state, BOB), f"play {worker} B1")
    assert kinds(state) == ("ability", BOB, "")
    assert legal(game, state) == {"buy 17", "decline"}


# ---------------------------------------------------------------- Ex 7: action sequences

# Alice's board: one group B2 B3 C3 C4 B5, her Apprentice on C2; Bob sells C2 for 1 wheat.
HARVEST = ["harvest B2", "done"]
BID = ["bid 31 wheat", "draw 17", "done"]  # bid, no more stones added, refill, no second tile
BUY = ["buy C2", "decline"]  # the Apprentice displaced by C2 is not re-placed
BUY_WITH_BONUS = ["buy C2", "bonus D2", "decline"]  # re-placed on D2, its ability declined
PLAY = ["play B A3", "decline"]
REMOVE = ["remove C2"]
STOREKEEPER = ["play H B4", "bid 8 wheat", "draw 17"]
BUY_OWN = ["buy 8", "done"]  # Bob's C2 would be a second tile; none taken

EX7 = [
    ("A, D", HARVEST + BID, "AD"),
    ("D, C", BID + ["buy C2"], "R-T2"),
    ("C, D", BUY + BID, "CD"),
    ("D, A", BID + HARVEST, "DA"),
    ("A, A", HARVEST + ["harvest B3"], "R-T1"),
    ("B remove, B play", REMOVE + ["play B A3"], "R-T3"),
    ("A, B, C", HARVEST + PLAY + ["buy C2"], "R-T1"),
    ("C with a bonus re-placement, D", BUY_WITH_BONUS + BID, "CD"),
    ("B Storekeeper, C own tile", STOREKEEPER + BUY_OWN, "BC"),
    ("nothing", [], ""),
]


@pytest.fixture
def ex7() -> tuple[KeyHarvest, State]:
    return table(board(), players(
        alice={"fields": ["B2", "B3", "C3", "C4", "B5"], "workers": {"C2": "A"}, "stones": {"wheat": 3, "wine": 2}},
        bob={"warehouse": [("C2", {"wheat": 1})]},
    ), office=["8", "31", "10", "11", "12", "13"], bag=["17", "20", "21"], bag_events="MNOPQRSTUVWXYZ")


@pytest.mark.parametrize(("sequence", "moves", "expected"), EX7, ids=[row[0] for row in EX7])
def test_ex07_action_sequence_validation(ex7: tuple[KeyHarvest, State], sequence: str, moves: list[str],
                                         expected: str) -> None:
    """Ex 7: at most two different actions, no C after D, play and remove are both B; bonus actions do not
    count; passing is allowed. R-T1, R-T2, R-T3, R-T4, R-T5, R-D5."""
    game, state = ex7
    if expected.startswith("R-"):
        state = play(game, state, *moves[:-1])
        assert refused(game, state, moves[-1]) == expected
        return
    state = play(game, state, *moves)
    assert state.top is None and state.actions == expected
    state = play(game, state, "end")
    assert state.active == BOB and state.actions == ""


def test_ex07_storekeeper_then_buying_the_tile_back(ex7: tuple[KeyHarvest, State]) -> None:
    """Ex 7, Storekeeper row: tile 8 ends on Alice's board and her 1 wheat bid is in the supply.
    Spec 5.2 H (DE 477), R-C2, R-T2."""
    game, before = ex7
    state = play(game, before, *STOREKEEPER)
    assert warehouse(state, ALICE) == {"8": stones(wheat=1)}
    state = play(game, state, *BUY_OWN)
    assert "8" in fields(state, ALICE) and warehouse(state, ALICE) == {}
    assert gained(state, before, ALICE) == stones(wheat=-1)
    assert supply_change(state, before) == stones(wheat=1)
    assert "17" in labels(state, sum(1 << t for t in state.office_tiles))


# ---------------------------------------------------------------- Ex 8: bidding, with an event in the refill


def test_ex08_bid_refill_draws_an_event_then_continues() -> None:
    """Ex 8: action D for two tiles; the refill draws event R, which goes on space 4 and is resolved Alice, Bob,
    Cara, before the NORMAL draw fills the space. R-D1, R-D2, R-D3, R-D4, R-D5, R-EV1, R-EV2, R-T2; event R."""
    game, state = table(board(), players(
        alice={"fields": ["B2"], "harvested": ["B2"], "stones": {"wheat": 2, "vegetables": 1}},
        bob={"fields": ["A1", "A2"], "harvested": ["A1", "A2"]},
    ), office=["31", "10", "11", "12", "13", "14"], bag=["44", "17"], track="MNO", bag_events="PQRSTUVWXYZ")

    state = play(game, state, "bid 31 wheat")
    state = draw(game, state, "event R")
    assert state.track == "MNOR"  # space 4
    assert kinds(state) == ("event", ALICE, "R")
    state = play(game, state, "flip B2")
    assert kinds(state) == ("event", BOB, "R")
    state = play(game, state, "flip A1 A2")  # Cara has nothing to flip
    assert harvested(state, ALICE) == set() and harvested(state, BOB) == set()

    assert kinds(state)[0] == "draw" and state.top is not None and state.top.context == "normal"
    state = draw(game, state, "draw 44")
    assert len(state.office_tiles) == 6
    state = play(game, state, "bid 44 vegetables wheat")
    state = draw(game, state, "draw 17")

    assert warehouse(state, ALICE) == {"31": stones(wheat=1), "44": stones(wheat=1, vegetables=1)}
    assert screen(state, ALICE) == stones()
    assert len(state.track) == 4
    assert len(state.office_tiles) == 6
    offered = legal(game, state)
    assert not any(m.startswith(("bid", "buy")) for m in offered)  # no third tile, no C after D
    assert "harvest B2" in offered and any(m.startswith("play") for m in offered)
    assert refused(game, state, "bid 10 wheat") in {"R-D1", "R-T1"}
    assert refused(game, state, "buy 31") == "R-T2"
    assert refused(game, state, "add wheat") == "R-D4"


# ---------------------------------------------------------------- Ex 9: the 7th-event rule

EX9_ALICE = {"fields": ["B1", "B2", "B3", "B4", "B5", "C5"], "workers": {"A1": "A"}}  # 6 + 1 = 7
EX9_BOB = {"fields": ["B1", "B2", "B3", "B4", "B5"], "workers": {"A1": "A", "C3": "C"}, "stones": {"wheat": 1}}  # 5 + 2
EX9_CARA = {"fields": ["B1", "B2", "B3", "B4", "B5", "C5"], "warehouse": [("8", {"wheat": 1})]}  # 6


def ex9(cara: Mapping[str, Any], options: Mapping[str, str] | None = None) -> tuple[KeyHarvest, State]:
    """Bob's turn; track P R Z V X Y; Bob bids his only stone for tile 31 and the refill draw is pending."""
    game, state = table(board(), players(EX9_ALICE, EX9_BOB, cara), options, active=BOB,
                        office=["31", "10", "11", "12", "13", "14"], bag=["17", "23"], track="PRZVXY",
                        bag_events="MNOQSTUW")
    return game, play(game, state, "bid 31 wheat")


def board_tiles(state: State) -> list[int]:
    return [p.board_tiles for p in state.players]


def test_ex09a_seventh_event_returns_the_first_two() -> None:
    """Ex 9 (a): U on space 7 is resolved (nobody swaps); Cara has 6 board tiles, so P and R go back into the
    bag and the track moves down; the next event goes on space 6. R-EV7-1, R-EV7-3, R-EV7-4, R-EV1, R-D5."""
    game, state = ex9(EX9_CARA)
    assert board_tiles(state) == [7, 7, 6]  # Cara's warehouse tile does not count
    state = draw(game, state, "event U")
    assert state.track == "PRZVXYU"
    for seat in (BOB, CARA, ALICE):
        assert kinds(state) == ("event", seat, "U")
        state = play(game, state, "decline")
    assert state.track == "ZVXYU"
    assert "P" in state.bag_events and "R" in state.bag_events
    assert kinds(state)[0] == "draw"  # Bob draws again for his empty land-office space
    state = draw(game, state, "event M")
    assert state.track == "ZVXYUM"  # space 6
    assert kinds(state) == ("event", BOB, "M")


def test_ex09b_everyone_has_seven_tiles_no_change() -> None:
    """Ex 9 (b): Cara has 7 board tiles too: the track keeps 7 events and the next goes on space 8. R-EV7-2."""
    game, state = ex9({**EX9_CARA, "fields": [*EX9_CARA["fields"], "C1"]})
    state = draw(game, state, "event U")
    state = play(game, state, "decline", "decline", "decline")
    assert state.track == "PRZVXYU"
    state = draw(game, state, "event M")
    assert state.track == "PRZVXYUM"


@pytest.mark.parametrize(("timing", "track"), [("after_resolution", "PRZVXYQ"), ("before_resolution", "ZVXYQ")])
def test_ex09c_check_timing_with_lucky_dip(timing: str, track: str) -> None:
    """Ex 9 (c): Q is the 7th event; Cara (6 tiles) pays 2 and places a drawn tile, reaching 7. After
    resolution nothing returns; before resolution P and R go back. R-EV7-4, seventh_check_timing; event Q."""
    game, state = ex9({**EX9_CARA, "stones": {"wheat": 2}}, {"seventh_check_timing": timing})
    state = draw(game, state, "event Q")
    assert kinds(state) == ("event", CARA, "Q")  # Bob has no stones left for the dip
    state = play(game, state, "dip", "pay wheat wheat")
    state = draw(game, state, "draw 23")
    assert "23" in fields(state, CARA)
    assert board_tiles(state) == [7, 7, 7]
    assert kinds(state)[0] == "draw"  # Alice had no stones; Bob's refill continues
    assert state.track == track


# ---------------------------------------------------------------- Ex 10: harvest shortage


def test_ex10_harvest_with_a_supply_shortage() -> None:
    """Ex 10: a group linked through a harvested tile; wheat runs out, so B3 gives a substitute and stays
    unharvested; another group and a harvested tile are refused. R-A1, R-A2, R-A3, R-A4."""
    layout = board({"B2": "wheat", "B3": "wheat", "C3": "wine", "C4": "vegetables", "A5": "wine"})
    game, before = table(layout, players(
        alice={"fields": ["B2", "B3", "C3", "C4", "A5"], "harvested": ["C3"]},
    ), supply={"wheat": 1, "wine": 4, "vegetables": 3})

    state = play(game, before, "harvest B2")
    assert legal(game, state) == {"harvest B3/wine", "harvest B3/vegetables", "harvest C4", "done"}
    refused(game, state, "harvest A5")  # another group
    refused(game, state, "harvest C3")  # already harvested
    refused(game, state, "harvest B3")  # no wheat left: a substitute must be named
    state = play(game, state, "harvest B3/wine", "harvest C4")

    assert state.top is None and state.actions == "A"
    assert gained(state, before, ALICE) == stones(wheat=1, wine=1, vegetables=1)
    assert state.supply == stones(wheat=0, wine=3, vegetables=2)
    assert harvested(state, ALICE) == {"B2", "C3", "C4"}  # B3 stays unharvested


# ---------------------------------------------------------------- Ex 11: event drawn during an event


def test_ex11_event_drawn_during_an_event_is_set_aside() -> None:
    """Ex 11: Q on space 6; Alice's EVENT-context draw brings S, which is set aside, not resolved, and goes back
    once tile 17 is drawn; Cara's tile 23 displaces her Apprentice (bonus, ability); then Alice's refill goes
    on in NORMAL context. Spec 6.5 (contexts), R-EV1, R-EV2, R-X1, R-X2; event Q."""
    layout = board({"C1": "wine"})
    game, before = table(layout, players(
        alice={"fields": ["B2"], "harvested": ["B2"], "stones": {"wheat": 1, "wine": 2}},
        bob={"stones": {"hops": 2}},
        cara={"fields": ["C1"], "workers": {"23": "A"}, "stones": {"apples": 2}},
    ), office=["31", "10", "11", "12", "13", "14"], bag=["17", "23", "20"], track="MNOPT", bag_events="QRSUVWXYZ")

    state = play(game, before, "bid 31 wheat")
    start = state
    state = draw(game, state, "event Q")
    assert state.track == "MNOPTQ"

    assert kinds(state) == ("event", ALICE, "Q")
    state = play(game, state, "dip", "pay wine wine")
    state = draw(game, state, "event S")
    assert state.set_aside == "S" and state.track == "MNOPTQ"  # announced and set aside, not placed
    assert kinds(state)[0] == "draw"  # not resolved: Alice draws again
    state = draw(game, state, "draw 17")
    assert "17" in fields(state, ALICE)
    assert state.set_aside == "" and "S" in state.bag_events

    assert kinds(state) == ("event", BOB, "Q")
    state = play(game, state, "decline")

    assert kinds(state) == ("event", CARA, "Q")
    state = play(game, state, "dip", "pay apples apples")
    state = draw(game, state, "draw 23")
    assert kinds(state) == ("bonus", CARA, "")
    assert workers(state, CARA) == {}
    state = play(game, state, "bonus D1")
    assert kinds(state) == ("ability", CARA, "")  # the Apprentice's ability fires again
    state = play(game, state, "decline")

    assert state.track == "MNOPTQ" and "S" in state.bag_events and state.set_aside == ""
    assert gained(state, start, ALICE) == stones(wine=-2)
    assert gained(state, start, CARA) == stones(apples=-2)
    assert fields(state, ALICE) == {"B2", "17"}
    assert fields(state, CARA) == {"C1", "23"} and workers(state, CARA) == {"D1": "A"}
    assert supply_change(state, start) == stones(wine=2, apples=2)

    # Alice's interrupted refill continues in NORMAL context: an event now is placed on space 7 and resolved.
    assert kinds(state)[0] == "draw" and state.top is not None and state.top.context == "normal"
    state = draw(game, state, "event R")
    assert state.track == "MNOPTQR"
    assert kinds(state) == ("event", ALICE, "R")


# ---------------------------------------------------------------- Ex 12: end of the game


@pytest.mark.parametrize(("extra", "turns"), [
    ("2", [CARA, ALICE, BOB, CARA, ALICE, BOB]),
    ("1", [CARA, ALICE, BOB, CARA, ALICE]),
])
def test_ex12_tenth_event_ends_the_game(extra: str, turns: list[int]) -> None:
    """Ex 12: the 10th event (T) is resolved; later events are ignored; Bob finishes his turn; then two more
    rounds (or, IT, one fewer turn for Bob) and the game ends. R-END1, R-END2, R-END3, R-END4, spec 6.5."""
    game, state = table(board(), players(
        alice={"stones": {"wheat": 1}},
        bob={"fields": ["B2"], "stones": {"wheat": 1}},
        cara={"stones": {"wheat": 1}},
    ), {"final_extra_turns_for_trigger_player": extra}, active=BOB,
        office=["31", "10", "11", "12", "13", "14"], bag=["17", "20", "21"], track="MNOPQRSUV", bag_events="TWXYZ")

    state = play(game, state, "bid 31 wheat")
    state = draw(game, state, "event T")  # nobody has 3 stones for a Quick Sale
    assert state.track == "MNOPQRSUVT"
    assert state.end_trigger == BOB
    state = draw(game, state, "event W")  # ignored: not placed, not resolved, out of play
    assert state.track == "MNOPQRSUVT" and "W" in state.ignored and "W" not in state.bag_events
    state = draw(game, state, "draw 17")
    assert state.top is None and state.active == BOB and state.actions == "D"
    assert "harvest B2" in legal(game, state)  # Bob may still take his second action
    state = play(game, state, "end")

    # Cara's first extra turn: her refill draws an event, which is ignored too.
    assert state.active == CARA
    state = play(game, state, "bid 10 wheat")
    state = draw(game, state, "event X")
    assert state.track == "MNOPQRSUVT" and "X" in state.ignored
    state = draw(game, state, "draw 20")

    played = []
    while game.current_player(state) != TERMINAL:
        played.append(state.active)
        state = play(game, state, "end")
    assert played == turns
    assert state.over and state.track == "MNOPQRSUVT"
    assert [row["name"] for row in game.score(state)] == ["Alice", "Bob", "Cara"]


# ---------------------------------------------------------------- Ex 13: Gift


def ex13() -> tuple[KeyHarvest, State]:
    """Bob's turn: he bids for tile 31 and his refill draws O (Gift); his own warehouse holds tile 8."""
    game, state = table(board(), players(
        alice={"fields": ["D4", "D5"]},
        bob={"fields": ["A1", "B5"], "harvested": ["A1"], "warehouse": [("8", {"wheat": 1})], "stones": {"wheat": 1}},
        cara={"fields": ["C1", "C2"]},
    ), active=BOB, office=["31", "10", "11", "12", "13", "14"], bag=["17"], bag_events="MNOPQRSTUVWXYZ")
    state = play(game, state, "bid 31 wheat")
    return game, draw(game, state, "event O")


def test_ex13_gift_chain_with_forwarding() -> None:
    """Ex 13: Bob gives a board tile (not a warehouse tile); Cara forwards it; Alice keeps it and gives D5; Bob,
    the final receiver, may only place or discard. Spec 6.4, R-EV2, R-EV4, gift_forwarding; event O."""
    game, state = ex13()
    assert kinds(state) == ("gift", BOB, "O")
    assert legal(game, state) == {"give A1", "give B5"}
    state = play(game, state, "give A1")
    assert kinds(state) == ("gift", CARA, "O")
    assert legal(game, state) == {"forward", "keep", "discard"}
    state = play(game, state, "forward")
    assert kinds(state) == ("gift", ALICE, "O")
    state = play(game, state, "keep")
    assert "A1" in fields(state, ALICE) and "A1" not in harvested(state, ALICE)  # unharvested on arrival
    state = play(game, state, "give D5")
    assert kinds(state) == ("gift", BOB, "O")
    assert legal(game, state) == {"keep", "discard"}  # no forwarding for the final receiver
    state = play(game, state, "keep")

    assert fields(state, BOB) == {"B5", "D5"}
    assert set(warehouse(state, BOB)) == {"8", "31"}  # warehouse tiles are never given
    assert fields(state, CARA) == {"C1", "C2"}
    assert fields(state, ALICE) == {"A1", "D4"}
    assert harvested(state, ALICE) == set() and harvested(state, BOB) == set()
    assert kinds(state)[0] == "draw"  # Bob's refill continues


def test_ex13_variant_cara_keeps_and_gives_from_her_board() -> None:
    """Ex 13 variant: if Cara keeps A1 she must give one of her own board tiles to Alice. Spec 6.4 step 2."""
    game, state = ex13()
    state = play(game, state, "give A1", "keep")
    assert "A1" in fields(state, CARA)
    offered = legal(game, state)
    assert "forward" not in offered
    assert {m.split()[1] for m in offered if m.startswith("give")} <= fields(state, CARA)
    assert all(m.startswith("give") for m in offered)
    state = play(game, state, "give C1")
    assert fields(state, CARA) == {"A1", "C2"}
    assert kinds(state) == ("gift", ALICE, "O")
    assert state.top is not None and state.label(state.top.space) == "C1"


# ---------------------------------------------------------------- Ex 14: Good Harvest


def test_ex14_good_harvest() -> None:
    """Ex 14: each player takes a stone of their most frequent unharvested crop (a tie: choose; out of
    stock: any crop); with nothing unharvested, nothing. No tile is flipped. Spec 6.2 P, R-EV2, R-EV3."""
    crops = {"1": "wheat", "2": "wheat", "3": "vegetables", "4": "vegetables",
             "5": "wine", "6": "wine", "7": "wine", "9": "wheat", "10": "hops"}
    game, before = table(board(crops), players(
        alice={"fields": ["1", "2", "3", "4"], "stones": {"wheat": 1}},
        bob={"fields": ["5", "6", "7", "9"]},
        cara={"fields": ["10"], "harvested": ["10"]},
    ), supply={"hops": 12, "vegetables": 12, "apples": 12, "wine": 0, "wheat": 11},
        office=["31", "11", "12", "13", "14", "15"], bag=["17"], bag_events="MNOPQRSTUVWXYZ")
    state = play(game, before, "bid 31 wheat")
    start = state
    state = draw(game, state, "event P")

    assert kinds(state) == ("event", ALICE, "P")
    assert legal(game, state) == {"gain wheat", "gain vegetables", "decline"}
    state = play(game, state, "gain wheat")
    assert kinds(state) == ("event", BOB, "P")
    assert legal(game, state) == {"gain hops", "gain vegetables", "gain apples", "gain wheat", "decline"}
    state = play(game, state, "gain hops")
    assert kinds(state)[0] == "draw"  # Cara had nothing to take

    assert gained(state, start, ALICE) == stones(wheat=1)
    assert gained(state, start, BOB) == stones(hops=1)
    assert gained(state, start, CARA) == stones()
    assert [p.harvested for p in state.players] == [p.harvested for p in before.players]


# ---------------------------------------------------------------- Ex 15: the Overseer


EX15_FIELDS = ["B1", "B2", "B3", "B4", "B5", "C5"]


@pytest.fixture
def ex15() -> tuple[KeyHarvest, State]:
    """Alice's one group of 6, and her Overseer placed on its only legal space C4."""
    game, state = table(board(), players(alice={"fields": EX15_FIELDS}))
    assert score(game, state, ALICE)["largest_group_points"] == 6
    assert {m for m in legal(game, state) if m.startswith("play F")} == {"play F C4"}
    state = play(game, state, "play F C4")
    assert legal(game, state) == {f"fallow {t}" for t in EX15_FIELDS}  # mandatory: no decline
    return game, state


@pytest.mark.parametrize(("tile", "group_points"), [
    ("B3", 7), ("B4", 7), ("B2", 6), ("B5", 6), ("B1", 5), ("C5", 5),
])
def test_ex15_overseer_must_fallow_a_tile(ex15: tuple[KeyHarvest, State], tile: str, group_points: int) -> None:
    """Ex 15: the Overseer's ability is mandatory; splitting the group pays best (7 + 3 = 10); it stays on C4
    even when that leaves it touching only 2 tiles. Spec 5.1 F, R-B3, R-B5, R-B7, R-EV5, spec 8."""
    game, state = ex15
    state = play(game, state, f"fallow {tile}")
    assert labels(state, state.fallow) == {tile}
    assert fields(state, ALICE) == set(EX15_FIELDS) - {tile}
    assert workers(state, ALICE) == {"C4": "F"}
    row = score(game, state, ALICE)
    assert row["largest_group_points"] + row["second_group_points"] == group_points
    assert row["worker_points"] == 3
    assert row["total"] == group_points + 3
