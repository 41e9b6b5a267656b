"""Fingerprints of seeded random Key Harvest playouts: a change that must not alter behaviour keeps them.

Each seed plays ``random_playout``'s game (same generator use) and hashes every move's text, every
list of legal moves offered (in order) and the final scores. Run:
``.venv/bin/python benchmarks/kh_fingerprint.py [SEEDS] [PLAYERS]`` (default 30 seeds, 4 players).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from companion.core.game import CHANCE, TERMINAL
from companion.games.key_harvest import KeyHarvest

GAME = KeyHarvest()


def fingerprint(seed: int, players: int = 4) -> str:
    """The hash of one seeded random playout: moves, legal-move lists and final scores."""
    digest = hashlib.sha256()
    rng = random.Random(seed)
    state = GAME.setup([f"P{n}" for n in range(players)], GAME.options())
    while (who := GAME.current_player(state)) != TERMINAL:
        if who == CHANCE:
            move = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_moves(state)
            digest.update("|".join(map(str, legal)).encode())
            move = rng.choice(legal)
        digest.update(f"{move}\n".encode())
        state = GAME.apply(state, move)
    digest.update(json.dumps(GAME.score(state), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    for seed in range(seeds):
        print(seed, fingerprint(seed, players))


if __name__ == "__main__":
    main()
