"""Hidden information by construction (issue 10): two games that differ only in what the table cannot see
give byte-identical shared outputs.

``hidden_twin`` re-chooses every secret move of a random game (the setup stone draws, the events removed
unseen, the Trader's secret draw: ``is_secret``) and keeps every public move. After each move of both logs the
table's view, its choices, its log lines, the terminal's text, and the reason for refusing any move the
table's choices do not hold must be the same bytes. (A twin ends before its Trader's tile, chosen again, is placed
or discarded: then the table sees it, ``KeyHarvest.reveals``; the end of the game reveals everything.)
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.console import render
from companion.core.game import CHANCE, TERMINAL
from companion.core.hidden import hidden_twin
from companion.core.messages import json_default
from companion.games.key_harvest import KeyHarvest, KHMove, State

GAME = KeyHarvest()
CROPS = ("hops", "vegetables", "apples", "wine", "wheat")


def random_log(players: int, seed: int, plies: int) -> list[KHMove]:
    rng = random.Random(seed)
    state = GAME.setup([f"P{i}" for i in range(players)], GAME.options())
    log: list[KHMove] = []
    while len(log) < plies and GAME.current_player(state) != TERMINAL:
        move = GAME.sample_chance(state, rng) if GAME.current_player(state) == CHANCE else rng.choice(GAME.legal_moves(state))
        log.append(move)
        state = GAME.apply(state, move)
    return log


def shared(state: State, names: list[str]) -> str:
    """Everything a shared screen shows of ``state``, as bytes to compare."""
    view = GAME.view(state, None)
    return json.dumps({
        "view": view,
        "choices": [str(m) for m in GAME.public_moves(state)],
        "table": GAME.table_text(view) or render(view),
        "prompt": GAME.prompt_text(state, names),
        "score": GAME.score_text(view["score"]),
    }, sort_keys=True, default=json_default)


def mutations(move: KHMove, rng: random.Random) -> list[KHMove]:
    """Nearby moves a tap or a typo could send: other stones, one stone more or fewer, another verb."""
    out = [KHMove("add", (rng.choice(CROPS),)), KHMove("pay", tuple(sorted(rng.choices(CROPS, k=rng.randint(1, 5)),
                                                                            key=CROPS.index)))]
    if move.verb == "bid" and len(move.args) > 1:
        stones = list(move.args[1:])
        out.append(KHMove("bid", (move.args[0], *stones, rng.choice(CROPS))))
        out.append(KHMove("bid", (move.args[0], *sorted([rng.choice(CROPS) for _ in stones], key=CROPS.index))))
        out.append(KHMove("bid", move.args[:1]))
    if move.verb == "pay":
        out.append(KHMove("pay", move.args[1:]))
    return [GAME.parse_move(str(m)) for m in out]


def refusals(a: State, b: State, candidates: list[KHMove]) -> list[str]:
    """For every candidate the table's choices do not hold: its refusal in ``a`` and ``b`` (must be equal)."""
    public_a, public_b = GAME.public_moves(a), GAME.public_moves(b)
    out = []
    for move in candidates:
        inside = move in public_a
        assert inside == (move in public_b), f"{move}: a public move in one twin only"
        if not inside:
            error_a, error_b = GAME.validate(a, move), GAME.validate(b, move)
            text_a = None if error_a is None else f"{error_a.rule}: {error_a.reason}"
            text_b = None if error_b is None else f"{error_b.rule}: {error_b.reason}"
            assert text_a == text_b, f"{move}: {text_a!r} != {text_b!r}"
            assert text_a is not None, f"{move} is legal but not among the table's choices"
            out.append(text_a)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_twins_read_the_same_to_the_table(seed: int) -> None:
    players = 2 + seed % 3
    names = [f"P{i}" for i in range(players)]
    log = random_log(players, seed, plies=260)
    compared = 0
    for twin_seed in range(3):
        rng = random.Random(1000 * seed + twin_seed)
        twin = hidden_twin(GAME, names, GAME.options(), log, rng)
        assert sum(a != b for a, b in zip(log, twin)) > 0 or len(twin) < 20  # secrets really re-chosen
        a = b = GAME.setup(names, GAME.options())
        for ply, (move_a, move_b) in enumerate(zip(log, twin)):
            if GAME.is_over(a):
                break
            assert GAME.describe(a, move_a, None) == GAME.describe(b, move_b, None), f"ply {ply}"
            a, b = GAME.apply(a, move_a), GAME.apply(b, move_b)
            if ply % 3 == 0 or move_a != move_b:
                assert shared(a, names) == shared(b, names), f"ply {ply} after {move_a} / {move_b}"
                compared += 1
            if ply % 9 == 0 and GAME.current_player(a) >= 0:
                candidates = rng.sample(GAME.legal_moves(b), min(12, len(GAME.legal_moves(b))))
                candidates += rng.sample(GAME.legal_moves(a), min(6, len(GAME.legal_moves(a))))
                for move in list(candidates[:6]):
                    candidates += mutations(move, rng)
                refusals(a, b, candidates)
    assert compared >= 20


def test_a_twin_ends_before_the_trader_places_a_tile_it_drew_differently() -> None:
    """The Trader's draw is private until the tile is placed or sent to the fallow area (spec §11, hidden-information
    cautions; R-B7, DE 491-495). A twin whose Trader drew another tile reads the same while the tile is in hand, but
    the public "keep" then shows it on the board (and a tile landing on a worker's space sends the worker away,
    §4.5): so ``hidden_twin`` ends the twin there, instead of offering it as a game the table could not tell apart."""
    names = ["P0", "P1", "P2", "P3"]
    log = random_log(4, 41, plies=337)
    state = GAME.setup(names, GAME.options())
    for draw, move in enumerate(log):
        if GAME.is_secret(state, move) and state.top is not None and state.top.purpose == "trader":
            break
        state = GAME.apply(state, move)
    assert str(log[draw + 1]) == "keep"
    twin = next(t for t in (hidden_twin(GAME, names, GAME.options(), log, random.Random(r), draw) for r in range(20))
                if t[draw] != log[draw])
    assert twin[:draw] == log[:draw] and len(twin) == draw + 1  # re-drawn, then ended before the keep
    a = b = GAME.setup(names, GAME.options())
    for move_a, move_b in zip(log, twin):
        assert GAME.describe(a, move_a, None) == GAME.describe(b, move_b, None)
        a, b = GAME.apply(a, move_a), GAME.apply(b, move_b)
        assert shared(a, names) == shared(b, names), f"after {move_a} / {move_b}"
    assert GAME.reveals(a, log[draw + 1]) != GAME.reveals(b, log[draw + 1])
    assert shared(GAME.apply(a, log[draw + 1]), names) != shared(GAME.apply(b, log[draw + 1]), names)  # now public


def test_the_old_legal_now_list_is_gone() -> None:
    """A refusal never lists the legal moves (the old "Legal now: add wine, done" told what was behind a screen)."""
    log = random_log(3, 5, plies=400)
    state = GAME.setup(["P0", "P1", "P2"], GAME.options())
    for move in log:
        state = GAME.apply(state, move)
        if GAME.current_player(state) >= 0 and state.top is not None:
            error = GAME.validate(state, KHMove("keep"))
            assert error is None or "Legal now" not in error.reason
