"""Decisions as picks (companion/core/picks.py): the tree a device walks, and for every game, over seeded random
games, that the moves reachable through the picks are exactly the moves offered (issue 27), each pick a small set
of options in words, and few taps per decision."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game
from companion.core.picks import PickTree, Step, step
from companion.games import games

ASK_VERB, ASK_TILE, ASK_STONE = "What?", "Which tile?", "Which stones?"


def verb(name: str) -> Step:
    return step(ASK_VERB, name, name.title())


def tile(label: str) -> Step:
    return step(ASK_TILE, label, f"tile {label}")


def stone(crop: str) -> Step:
    return step(ASK_STONE, crop, crop.title(), unordered=True)


def bids_tree() -> PickTree[str]:
    """A small game: end the turn, buy a tile, or bid on a tile with one or more stones (in any order)."""
    return PickTree([
        ("end", [verb("end")]),
        ("buy A1", [verb("buy"), tile("A1")]),
        ("buy B2", [verb("buy"), tile("B2")]),
        ("bid A1 wheat", [verb("bid"), tile("A1"), stone("wheat")]),
        ("bid A1 wheat wine", [verb("bid"), tile("A1"), stone("wheat"), stone("wine")]),
        ("bid A1 wheat wheat", [verb("bid"), tile("A1"), stone("wheat"), stone("wheat")]),
    ])


def test_the_first_pick_offers_each_action_once() -> None:
    node = bids_tree().node([])
    assert [o.id for o in node.options] == ["end", "buy", "bid"]
    assert [g.ask for g in node.groups] == [ASK_VERB]
    assert node.done is None and node.chosen == ()


def test_the_next_pick_offers_only_what_follows_the_picks_made() -> None:
    node = bids_tree().node(["buy"])
    assert [o.id for o in node.options] == ["A1", "B2"]
    assert [c.words for c in node.chosen] == ["Buy"]
    assert bids_tree().node(["buy", "B2"]).done == "buy B2"


def test_unordered_picks_make_the_same_move_in_any_order() -> None:
    tree = bids_tree()
    assert tree.move_of(["bid", "A1", "wine", "wheat"]) == tree.move_of(["bid", "A1", "wheat", "wine"]) == "bid A1 wheat wine"
    after_wine = tree.node(["bid", "A1", "wine"])
    assert after_wine.done is None and [o.id for o in after_wine.options] == ["wheat"]


def test_a_complete_decision_that_may_go_on_offers_both() -> None:
    node = bids_tree().node(["bid", "A1", "wheat"])
    assert node.done == "bid A1 wheat"
    assert sorted(o.id for o in node.options) == ["wheat", "wine"]
    assert [c.words for c in node.chosen] == ["Bid", "tile A1", "Wheat"]


def test_picks_no_move_starts_with_are_refused() -> None:
    with pytest.raises(MalformedInputError):
        bids_tree().node(["buy", "C3"])
    with pytest.raises(MalformedInputError):
        bids_tree().node(["bid", "A1", "wine", "wine"])
    with pytest.raises(MalformedInputError):
        bids_tree().move_of(["bid", "A1"])
    with pytest.raises(MalformedInputError):
        bids_tree().node(["end"] * 17)


def test_every_move_is_reachable_once() -> None:
    assert sorted(bids_tree().reachable()) == sorted(m for m, _, _ in bids_tree().paths)


# ------------------------------------------------------------------ every game, over seeded random games

GAMES = {game.name: game for game in games()}
SEEDS = range(3)
MAX_OPTIONS = 40
"""No screen shows more options at once (issue 27)."""


def decisions(game: Game[Any, Any], seed: int, players: int = 3) -> Any:
    """Each decision point of a seeded random game: (state, seat or None for the table, moves offered)."""
    rng = random.Random(seed)
    state = game.setup(["Ann", "Ben", "Cy", "Di"][:players], game.options())
    while game.current_player(state) != TERMINAL:
        who = game.current_player(state)
        if who == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_moves(state)
        for seat in game.deciders(state):
            yield state, seat, [m for m in legal if game.seat_of(state, m) == seat]
        if who != SIMULTANEOUS:
            yield state, None, game.public_moves(state)
        state = game.apply(state, rng.choice(legal))


def tree_of(game: Game[Any, Any], state: Any, moves: list[Any]) -> PickTree[Any]:
    return PickTree((m, game.pick_path(state, m)) for m in moves)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_the_moves_reachable_through_picks_are_exactly_the_moves_offered(name: str, seed: int) -> None:
    game = GAMES[name]
    for state, seat, offered in decisions(game, seed, players=2 + seed % 3):
        tree = tree_of(game, state, offered)
        reached = tree.reachable()
        assert Counter(map(str, reached)) == Counter(map(str, offered)), (seat, sorted(map(str, offered))[:5])


def taps(game: Game[Any, Any], state: Any, tree: PickTree[Any], move: Any, path: tuple[Step, ...]) -> int:
    """Taps to make ``move``: one per pick, and one more to send it when its last node asks to confirm."""
    node = tree.node([s.choice.id for s in path])
    return len(path) + (1 if node.groups or game.confirms(state, move) else 0)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_pick_is_a_handful_of_options_and_each_decision_a_few_taps(name: str) -> None:
    """Issue 27's goals: no screen more than 40 options, taps per decision median <= 3 and at most 8 (over the
    decisions made in seeded random games, the table's and each seat's)."""
    game = GAMES[name]
    counts: list[int] = []
    widest = 0
    for seed in range(3):
        for state, seat, offered in decisions(game, seed):
            tree = tree_of(game, state, offered)
            chosen = random.Random(seed).choice(offered) if offered else None
            if chosen is None:
                continue
            path = next(p for m, p, _ in tree.paths if m == chosen)
            for depth in range(len(path) + 1):
                widest = max(widest, len(tree.node([s.choice.id for s in path[:depth]]).options))
            counts.append(taps(game, state, tree, chosen, path))
    assert widest <= MAX_OPTIONS, widest
    assert statistics.median(counts) <= 3 and max(counts) <= 8, (statistics.median(counts), max(counts))
