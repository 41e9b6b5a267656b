"""Hidden information, checked by construction: twins of a game that differ only in what the table cannot see.

A shared output (the table's view, its choices, the log as the table reads it, a refusal on a shared screen)
must be a function of public information only. ``hidden_twin`` builds, from a game's log, another log in which
every secret move (``Game.is_secret``: a draw only its player sees, a choice made behind a screen) is swapped for
another secret move possible at that point, and every public move is kept. Both logs read the same to the table,
so every shared output must be the same after each of their moves: the tests compare them byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.core.game import CHANCE, Game, Move
from companion.core.options import Options


def secret_alternatives(game: Game[Any, Any], state: Any, move: Move) -> list[Move]:
    """The secret moves that could stand where the secret ``move`` stands (itself included)."""
    if game.current_player(state) == CHANCE:
        candidates = [outcome for outcome, weight in game.chance_outcomes(state) if weight > 0]
    else:
        seat = game.seat_of(state, move)
        candidates = [m for m in game.legal_moves(state) if game.seat_of(state, m) == seat]
    return [m for m in candidates if game.is_secret(state, m)] or [move]


def legal_here(game: Game[Any, Any], state: Any, move: Move) -> bool:
    """Whether ``move`` may be played in ``state`` (a chance outcome must be a possible one)."""
    if game.current_player(state) == CHANCE:
        return any(outcome == move and weight > 0 for outcome, weight in game.chance_outcomes(state))
    return game.is_legal(state, move)


def hidden_twin(
    game: Game[Any, Any], players: Sequence[str], options: Options, history: Sequence[Move], rng: random.Random,
    start: int = 0,
) -> list[Move]:
    """A log that reads the same to the table as ``history``'s first moves, with its secret moves from move
    ``start`` on chosen again at random (a later start reaches later positions: hands drawn early soon make the
    public moves of a twin illegal); it stops before the first public move its own hidden information forbids, and
    before the first that would reveal (``Game.reveals``) a secret it chose differently: then the table sees it."""
    state = original = game.setup(players, options)
    twin: list[Move] = []
    for ply, move in enumerate(history):
        if ply >= start and game.is_secret(state, move):
            chosen = rng.choice(secret_alternatives(game, state, move))
        elif not legal_here(game, state, move) or game.reveals(state, move) != game.reveals(original, move):
            break
        else:
            chosen = move
        state, original = game.apply(state, chosen), game.apply(original, move)
        twin.append(chosen)
    return twin
