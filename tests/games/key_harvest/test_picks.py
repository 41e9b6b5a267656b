"""Key Harvest's decisions as picks (companion/games/key_harvest/picks.py, issue 27): the worker or the action first,
then the tile or the space, then the stones as a count per crop, in any order; a decision with a cost asks OK."""

from __future__ import annotations

from typing import Any

from companion.core.messages import render
from companion.core.picks import PickTree
from companion.games.key_harvest import TABLE_BID_MOST
from companion.games.key_harvest.state import evolve

from .rulekit import ALICE, allow, three
from .test_workers import WA, WB, WC, placed


def tree(game: Any, state: Any, table: bool = False) -> PickTree[Any]:
    """The picks of the decider's own page (``table``: the shared table's)."""
    moves = game.public_moves(state) if table else game.legal_moves(state)
    return PickTree((m, game.pick_path(state, m)) for m in moves)


def ids(game: Any, state: Any, move: str) -> list[str]:
    return [s.choice.id for s in game.pick_path(state, game.parse_move(move))]


def test_a_labourer_then_a_space_places_it_and_a_worker_on_the_board_is_taken_back_by_a_tap() -> None:
    """R-B1: a labourer beside the board, then a space it may take; R-B8: the worker on the board, then OK."""
    game, state = three(WA, WB, WC)
    assert ids(game, state, "play C C3") == ["C", "C3"]
    assert "C3" in [o.id for o in tree(game, state).node(["C"]).options]
    game, state = three({**WA, "workers": {"A2": "C"}}, WB, WC)
    assert ids(game, state, "remove A2") == ["C"]
    assert game.confirms(state, game.parse_move("remove A2"))
    first = tree(game, state).node([])
    asks = {render(group.ask) for group in first.groups}
    assert {"Place a labourer (action B)", "Take a worker back (action B)", "What do you do?"} <= asks
    assert len(first.options) <= 40


def test_a_bid_is_a_tile_then_a_count_of_each_crop_in_any_order() -> None:
    """R-D3: the whole bid at once; its stones picked as counts per crop, in either order, then OK."""
    game, state = three(WA, WB, WC)
    picks = tree(game, state)
    assert picks.move_of(["10", "wheat*2", "wine*1"]) == picks.move_of(["10", "wine*1", "wheat*2"])
    assert str(picks.move_of(["10", "wine*1", "wheat*2"])) == "bid 10 wine wheat wheat"
    after = picks.node(["10", "wheat*2"])
    assert str(after.done) == "bid 10 wheat wheat" and {o.id for o in after.options} == {"wine*1", "wine*2"}
    assert [render(c.words) for c in after.chosen] == ["10 (hops)", "2 wheat stones"]
    assert game.confirms(state, game.parse_move("bid 10 wheat"))


def test_the_tables_bids_offer_every_crop_the_screens_could_hold_but_never_more_than_40_counts() -> None:
    """The table cannot rule out a stone behind any screen (public moves): with every stone behind the screens, a
    land-office tile offers 8 counts of each crop (a bid of at most 8 stones), and a bid stays 4 taps."""
    game, state = three(WA, WB, WC)
    state = evolve(state, supply=(0, 0, 0, 0, 0))  # every stone is behind a screen or on a bid
    picks = tree(game, state, table=True)
    counts = picks.node(["10"])
    assert len(counts.options) == 5 * TABLE_BID_MOST and len(counts.groups) == 5
    assert str(picks.move_of(["10", "hops*8"])) == "bid 10 " + " ".join(["hops"] * 8)


def test_two_stones_of_the_day_labourer_are_picked_in_either_order() -> None:
    """R-B7 (C): any 2 stones from the supply; wheat first still offers every crop second."""
    game, state = placed("C")
    picks = tree(game, state)
    assert picks.move_of(["wheat", "hops"]) == picks.move_of(["hops", "wheat"])
    assert {o.id for o in picks.node(["wheat"]).options} == {"hops", "vegetables", "apples", "wine", "wheat"}


def test_every_pick_is_in_words() -> None:
    """No raw key, no notation: the options of the first picks of a turn read as the table's words."""
    game, state = three(WA, WB, WC)
    state = allow(game, state, "play C C3")
    for node in (tree(game, state).node([]), tree(game, three(WA, WB, WC)[1]).node([])):
        for group in node.groups:
            assert "kh." not in render(group.ask) and "kh." not in render(group.ask, "de")
            for option in group.options:
                for language in ("en", "de"):
                    text = render(option.words, language)
                    assert text and "kh." not in text and "{" not in text, (option.id, text)
    assert state.player(ALICE).workers
