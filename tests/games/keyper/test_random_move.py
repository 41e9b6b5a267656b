"""``random_move`` (what random playouts and ``companion simulate`` play) picks exactly the move
``rng.choice(legal_moves(state))`` picks, drawing the same random numbers, though it makes only the chosen move: the
benchmark's games stay uniform over the legal moves and every seeded playout stays the same game. Likewise
``sample_chance`` and ``weighted_choice(rng, chance_outcomes(state))`` (a draw from the bag).

Checked on every decision of seeded games of 2, 3 and 4 players under the default options and the variant flags of
the fingerprints, for every index a pick can draw (a generator whose draw is fixed), and with a real generator."""

from __future__ import annotations

import random
from collections import Counter

from companion.core.game import CHANCE, TERMINAL
from companion.core.rng import weighted_choice
from companion.games.keyper import Keyper
from companion.games.keyper.data import load_edition
from companion.games.keyper.state import State
from tests.games.keyper.test_fingerprints import FLAGS

GAME = Keyper(load_edition())


class Drawn(random.Random):
    """A generator whose every draw below ``n`` is ``index`` (``choice`` draws the index with ``_randbelow``)."""

    def __init__(self, index: int) -> None:
        super().__init__(0)
        self.index = index

    def _randbelow(self, n: int) -> int:
        assert 0 <= self.index < n
        return self.index


def decisions(seed: int, players: int, options: dict[str, str] | None, chance: bool = False) -> list[State]:
    """Every state of a seeded random game where a seat decides (none of them asked for its legal moves yet), or
    with ``chance`` every chance step."""
    rng = random.Random(seed)
    state = GAME.setup([f"P{n}" for n in range(players)], GAME.options(options))
    out = []
    while (who := GAME.current_player(state)) != TERMINAL:
        if (who == CHANCE) == chance:
            out.append(state)
        move = GAME.sample_chance(state, rng) if who == CHANCE else GAME.random_move(state, rng)
        state = GAME.apply(state, move)
    return out


def test_random_move_is_the_choice_from_the_legal_moves() -> None:
    seen: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed, flags in ((0, ""), (1, ""), (2, "a"), (3, "b")):
            for state in decisions(seed, players, FLAGS[flags]):
                legal = GAME.legal_moves(state)
                assert [GAME.random_move(state, Drawn(i)) for i in range(len(legal))] == legal
                mine, theirs = random.Random(seed + len(legal)), random.Random(seed + len(legal))
                assert GAME.random_move(state, mine) == theirs.choice(legal)
                assert mine.getstate() == theirs.getstate()
                top = state.top
                kind = "fold" if top is None else top.kind
                if kind == "turn":
                    kind += " " + "/".join(sorted({m.verb + (" build" if "build" in m.args else "") for m in legal}))
                seen[kind] += 1
    kinds = {kind.split()[0] for kind in seen}
    assert {"turn", "follow", "use", "pick", "keeptile", "fairs", "rest", "fold"} <= kinds, seen
    assert any("place build" in kind for kind in seen) and "turn lay" in seen, seen  # builds (4.8 (v)), lay-downs


def test_random_move_before_and_after_the_legal_moves_are_listed() -> None:
    """The same pick whether or not the state's legal moves were listed first (they are remembered on the state)."""
    for state in decisions(5, 4, None)[::7]:
        first = GAME.random_move(state, random.Random(1))
        assert GAME.legal_moves(state)
        assert GAME.random_move(state, random.Random(1)) == first == random.Random(1).choice(GAME.legal_moves(state))


def test_sample_chance_is_the_weighted_choice_from_the_chance_outcomes() -> None:
    kinds: Counter[str] = Counter()
    for players in (2, 4):
        for state in decisions(players, players, None, chance=True):
            for seed in range(3):
                mine, theirs = random.Random(seed), random.Random(seed)
                assert GAME.sample_chance(state, mine) == weighted_choice(theirs, GAME.chance_outcomes(state))
                assert mine.getstate() == theirs.getstate()
            kinds[state.tasks[-1].kind] += 1
    assert {"draw", "boats", "fair", "ninth", "start", "reveal"} <= set(kinds), kinds


def test_rests_by_index_are_the_listed_choices_on_every_small_keep_area() -> None:
    """The team cap (spec 3.5, A7): the n-th rest a random pick reads (``Rests``, counted by a table) is the n-th of
    ``rest_choices``, and there are as many, for every keep area of up to 4 colours of 0-3 keyples and every n."""
    from itertools import product

    from companion.games.keyper.rules import Rests, rest_choices

    colours = ("blue", "green", "red", "white")
    for sizes in product(range(4), repeat=4):
        counts = tuple((colour, k) for colour, k in zip(colours, sizes) if k)
        for n in range(sum(sizes) + 2):
            listed = rest_choices(counts, n)
            rests = Rests(counts, n)
            assert len(rests) == len(listed), (counts, n)
            assert [rests[i] for i in range(len(rests))] == list(listed), (counts, n)
