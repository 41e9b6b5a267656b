"""What a shared screen may offer (``public_moves``) and the setup guide (spec 2.1)."""

from __future__ import annotations

import random

import pytest

from companion.core.game import CHANCE, TERMINAL
from companion.games import find_game
from companion.games.key_harvest import KeyHarvest, State
from companion.games.key_harvest.state import evolve

GAME = find_game("key-harvest")


def set_up(players: int, seed: int) -> tuple[State, random.Random]:
    rng = random.Random(seed)
    state = GAME.setup([f"P{i}" for i in range(players)], GAME.options())
    while GAME.current_player(state) == CHANCE:
        state = GAME.apply(state, GAME.sample_chance(state, rng))
    return state, rng


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_move_is_offered_and_nothing_depends_on_the_screen(seed: int) -> None:
    """Random games: at every decision the table's choices hold every legal move, and the same
    choices come out whatever stones the decider really holds (R-D3 refuses the unpaid ones)."""
    state, rng = set_up(2 + seed % 3, seed)
    assert isinstance(GAME, KeyHarvest)
    decisions = 0
    while GAME.current_player(state) != TERMINAL:
        who = GAME.current_player(state)
        if who == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
            continue
        public = GAME.public_moves(state)
        offered = {str(m) for m in public}
        assert all(m in public for m in GAME.legal_moves(state))
        if decisions % 25 == 0:  # another split of the hidden stones gives the table the same choices
            me, other = state.player(who), state.player((who + 1) % len(state.players))
            swapped = state.with_player(who, evolve(me, stones=other.stones))
            assert {str(m) for m in GAME.public_moves(swapped)} == offered
        decisions += 1
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert GAME.public_moves(state) == []


def test_a_bid_offers_every_crop_and_the_core_refuses_a_crop_not_held() -> None:
    """The table's choices hold, for each land-office tile, every bid of up to 8 stones that the stones behind
    the screens could pay, whoever holds them (R-D3: the screen decides); a bigger one is still a public move
    (typed, or made on the bidder's own page), never more stones of a crop than exist."""
    state, _ = set_up(3, 7)
    seat = GAME.current_player(state)
    tile = state.layout.labels[state.office_tiles[0]]
    public = GAME.public_moves(state)
    offered = {str(m) for m in public}
    crops = ("hops", "vegetables", "apples", "wine", "wheat")
    assert all(f"bid {tile} {crop}" in offered for crop in crops)  # the 9 starting stones hold every crop
    assert not any(m.startswith("bid ") and len(m.split()) in (2, 11) for m in offered)  # no pattern, at most 8
    assert GAME.parse_move(f"bid {tile} " + " ".join(["wheat"] * 2)) in public
    assert GAME.parse_move(f"bid {tile} " + " ".join(["wine"] * 13)) not in public  # only 12 wine exist
    assert "pay" not in offered and f"bid {tile}" not in offered
    missing = next(c for c, n in zip(crops, state.player(seat).stones) if not n)
    error = GAME.validate(state, GAME.parse_move(f"bid {tile} {missing}"))
    assert error is not None and error.rule == "R-D3"


@pytest.mark.parametrize("players,removed,supply,bag", [(2, 0, 54, 46), (3, 2, 51, 44), (4, 2, 48, 42)])
def test_setup_guide_names_the_pieces_for_the_player_count(players: int, removed: int, supply: int, bag: int) -> None:
    state, _ = set_up(players, players)
    guide = GAME.setup_guide(state)
    assert guide is not None
    assert guide["players"] == players and guide["events_removed"] == removed
    assert guide["events_in_bag"] == 14 - removed and guide["supply"] == supply and guide["field_tiles_in_bag"] == bag
    assert guide["stones_each"] == [3] * players
    assert guide["first_player"] == state.active and guide["turn_order"][0] == state.active
    assert {item["piece"]: item["count"] for item in guide["each_player"]}["labourers"] == 6
    start = [{t["label"] for t in tiles} for tiles in guide["start_tiles"]]
    assert all(len(tiles) == 2 for tiles in start)
    pairs = [{state.layout.labels[a], state.layout.labels[b]} for a, b in state.layout.start_pairs]
    assert all(tiles in pairs for tiles in start)  # each player's start tile and its twin
    office = [t["label"] for t in guide["land_office"]]
    assert office == [state.layout.labels[t] for t in state.office_tiles] and len(office) == 6
    assert all(t["crop"] == state.layout.crops[state.layout.index[t["label"]]].key for t in guide["land_office"])
    assert "stones" not in str(guide["start_tiles"])  # nothing from behind a screen
