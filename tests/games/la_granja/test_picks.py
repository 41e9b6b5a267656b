"""La Granja's decisions as picks (issue 27, companion/games/la_granja/picks.py): the card first, then its side,
then the goods that pay; the sets of a decision in any order; every pick in the table's words."""

from __future__ import annotations

import re

from companion.core.messages import LANGUAGES, render
from companion.core.picks import PickTree
from companion.games.la_granja.moves import LGMove
from companion.games.la_granja.state import State
from tests.games.la_granja.table import edit, new_game, task

A = 0
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\w+:\w+|\b[MR]\d+\b|/\d|=|\{|undefined|null")
"""What no pick may show: a snake_case id, a ``key:value`` token, a market space or roof marker id, a row written
as ``handelshaus/2``, a delivery's ``=``, a placeholder."""


def tree(state: State) -> PickTree[LGMove]:
    game, _ = new_game(2)
    return PickTree((m, game.pick_path(state, m)) for m in game.legal_moves(state))


def ids(tree_: PickTree[LGMove], chosen: list[str]) -> list[str]:
    return [o.id for o in tree_.node(chosen).options]


def test_a_card_is_placed_by_tapping_it_then_its_side_then_the_goods_that_pay() -> None:
    """Spec 4.3.1: a card of the hand goes on one side; a farm extension costs one good per extension held plus
    one, of different kinds, paid in any order and shown in words before it is sent."""
    game, s = new_game(2)
    s = edit(s, A, goods={"olive": 1, "grain": 1}, extensions=(40,))
    card = str(s.players[A].hand[0])
    picks = tree(s)
    assert card in ids(picks, [])
    assert ids(picks, [card]) == ["field", "cart", "helper", "ext"]
    assert picks.move_of([card, "field"]) == game.parse_move(f"place {card} field")
    assert {"grain", "olive", "silver"} <= set(ids(picks, [card, "ext"]))  # silver and VP pay too
    paid = picks.move_of([card, "ext", "olive", "grain"])
    assert paid == picks.move_of([card, "ext", "grain", "olive"]) == game.parse_move(f"place {card} ext olive grain")
    assert game.confirms(s, paid) and not game.confirms(s, game.parse_move(f"place {card} field"))


def test_the_deliveries_of_a_turn_are_picked_in_any_order_the_row_with_each() -> None:
    """Spec 4.3.12: the first delivery to a building chooses its row; each delivery is one pick, a good to a symbol
    of a row (or a cart), and the set makes one move whatever the order."""
    game, s = new_game(2)
    s = task(edit(s, A, goods={"grain": 1, "olive": 1}), "deliver", A, 2)
    picks = tree(s)
    first = ids(picks, [])
    assert {"handelshaus/1=grain", "handelshaus/1=olive", "done"} <= set(first)
    assert "handelshaus=olive" not in first  # no row held yet: each delivery names the row it chooses
    assert ids(picks, ["handelshaus/2=olive"]).count("handelshaus/2=grain") == 1
    both = picks.move_of(["handelshaus/2=olive", "handelshaus/2=grain"])
    assert both == picks.move_of(["handelshaus/2=grain", "handelshaus/2=olive"])
    assert sorted(both.args) == ["handelshaus/2=grain", "handelshaus=olive"] or \
        sorted(both.args) == ["handelshaus/2=olive", "handelshaus=grain"]


def test_two_crops_are_taken_in_any_order() -> None:
    """Die 3 (spec 1.4): two different crops, one move."""
    game, s = new_game(2)
    s = task(s, "take", A, 2, "olive,grain,grape")
    picks = tree(s)
    assert picks.move_of(["grape", "olive"]) == picks.move_of(["olive", "grape"]) == game.parse_move("take olive grape")
    assert ids(picks, ["grape"]) == ["olive", "grain"]


def test_every_pick_reads_in_words_in_both_languages() -> None:
    """No identifier reaches a screen: the options and questions of every decision of a few random games."""
    import random

    from companion.core.game import CHANCE

    for players in (1, 2, 3, 4):
        game, s = new_game(players)
        rng = random.Random(players)
        while not game.is_over(s):
            moves = game.legal_moves(s)
            if game.current_player(s) != CHANCE:
                for move in moves:
                    for step in game.pick_path(s, move):
                        for language in LANGUAGES:
                            for text in (step.ask, step.choice.words):
                                shown = render(text, language)
                                assert shown and not IDENTIFIER.search(shown), (str(move), language, shown)
            s = game.apply(s, game.sample_chance(s, rng) if game.current_player(s) == CHANCE else rng.choice(moves))
