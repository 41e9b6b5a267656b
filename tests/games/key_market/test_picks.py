"""Key Market's decisions as picks (issue 27, ``picks.py``): the piece or action first, then where, then how to pay;
every place in the table's words (a field by its good, where it lies on its board and whose board, a new board by the
board it lines up with), never a grid position; ids the stickers'; payments picked in any order."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from companion.core.messages import render
from companion.core.picks import PickTree
from companion.games.key_market import KeyMarket, State
from companion.games.key_market.moves import KMMove, pos
from companion.games.key_market.places import field_id
from companion.games.key_market.rules import land
from companion.games.key_market.territory import footprint
from tests.games.key_market.table import GAME

COORDINATE = re.compile(r"-?\d+,-?\d+")
RAW = re.compile(r"\bkm\.[a-z_.]+|\{\w+\}|\bKM:")


def decisions(players: int, seed: int) -> Iterator[tuple[State, list[KMMove]]]:
    """Each decision of a seeded random game: the state and the moves offered (every seat's)."""
    game: KeyMarket = GAME
    rng = random.Random(seed)
    state = game.setup(["Ann", "Ben", "Cy", "Di"][:players], game.options())
    while not state.over:
        legal = game.legal_moves(state)
        if not legal[0].is_chance:
            yield state, legal
        state = game.apply(state, game.sample_chance(state, rng) if legal[0].is_chance else rng.choice(legal))


def test_every_pick_names_places_in_words_in_english_and_german() -> None:
    """No question and no option shows a grid position, a message id or a sticker code; a field's option is its
    sticker's code, naming the field the move names (the same board side and printed cell)."""
    seen: set[str] = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for state, moves in decisions(players, seed):
            for move in moves:
                for step in GAME.pick_path(state, move):
                    for language in ("en", "de"):
                        for text in (render(step.ask, language), render(step.choice.words, language)):
                            assert not COORDINATE.search(text) and not RAW.search(text), (str(move), text)
                    seen.add(move.verb)
                if move.verb in ("hire", "move"):
                    target = pos(move.args[0] if move.verb == "hire" else move.args[1])
                    f = land(state).fields[target]
                    assert GAME.pick_path(state, move)[-1].choice.id == field_id(f.board, f.side, f.cell)
    assert {"board", "pay", "move", "hire", "produce", "commit", "sell", "buy", "release", "apprentice"} <= seen


def test_a_field_is_named_by_its_good_its_place_on_the_board_and_whose_board() -> None:
    """The first worker's hire names the field as the table sees it, e.g. "the wheat field at the top left of Ann's
    board": the good printed on it, its corner or edge of the board as laid, the player who laid the board."""
    for state, moves in decisions(3, 5):
        hires = [m for m in moves if m.verb == "hire" and len(m.args) == 1]
        if not hires:
            continue
        for move in hires:
            target = pos(move.args[0])
            words = render(GAME.pick_path(state, move)[-1].choice.words, "en")
            f = land(state).fields[target]
            board = next(i for i, p in enumerate(state.placements) if target in footprint(state.edition, p))
            owner = state.names[state.laid_by[board]]
            x0 = min(x for x, _ in footprint(state.edition, state.placements[board]))
            y0 = min(y for _, y in footprint(state.edition, state.placements[board]))
            row = ("top", "middle", "bottom")[target[1] - y0]
            column = ("left", "middle", "right")[target[0] - x0]
            spot = "centre" if (row, column) == ("middle", "middle") else f"{row} {column}"
            good = render(GAME.move_text(state, KMMove("sell", (f.good, "1"))), "en").split()[2]
            assert words == f"the {good} field at the {spot} of {owner}'s board", words
        return
    raise AssertionError("no hire offered")


def tree(state: State, moves: list[KMMove]) -> PickTree[KMMove]:
    return PickTree((m, GAME.pick_path(state, m)) for m in moves)


def test_the_farmhouse_payment_is_two_goods_in_either_order_shown_before_it_is_sent() -> None:
    """Spec 2.2 step 17: the two goods are picked in any order and make the same payment; a payment asks OK."""
    for state, moves in decisions(3, 1):
        pays = [m for m in moves if m.verb == "pay" and m.args[0] == "1"]
        if pays:
            picks = tree(state, pays)
            move = pays[0]
            a, b = move.args[1:]
            assert picks.move_of([a, b]) == picks.move_of([b, a]) == move
            assert GAME.confirms(state, move)
            return
    raise AssertionError("no farmhouse payment")


def test_a_new_board_is_placed_beside_a_laid_board_then_turned_then_its_first_worker() -> None:
    """Setup step 15: the first pick says which board the new one lines up with and on which side, the second how it
    is turned, the third the field of the first worker, on the new board; at most 40 options at each."""
    for state, moves in decisions(4, 2):
        boards = [m for m in moves if m.verb == "board"]
        if not boards or not state.placements:
            continue
        picks = tree(state, boards)
        first = picks.node([])
        beside = [render(o.words, "en") for o in first.options]
        assert all(re.fullmatch(r"(to the (left|right) of|above|below) \w+'s board", w) for w in beside), beside
        second = picks.node([first.options[0].id])
        turns = [render(o.words, "en") for o in second.options]
        assert 1 <= len(turns) <= 4 and all(re.match(r"(as printed|turned)", t) for t in turns)
        third = picks.node([first.options[0].id, second.options[0].id])
        assert all(render(o.words, "en").endswith("of the new board") for o in third.options)
        assert max(len(first.options), len(second.options), len(third.options)) <= 40
        assert not GAME.confirms(state, boards[0])
        return
    raise AssertionError("no board laid beside another")
