"""Randomness: seeds from the OS's secure source, and a per-step generator for exact replay."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh 128-bit seed from the operating system's secure random source."""
    return secrets.token_hex(16)


def step_rng(seed: str, step: int) -> random.Random:
    """The generator for chance step ``step`` of a game: same seed and step, same outcome.

    Deriving one generator per step (rather than keeping one running) lets a game resumed
    after a power cut continue exactly as it would have.
    """
    digest = hashlib.sha256(f"{seed}:{step}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def weighted_choice(rng: random.Random, outcomes: Sequence[tuple[T, int]]) -> T:
    """Pick one outcome with probability proportional to its integer weight."""
    total = sum(weight for _, weight in outcomes)
    if total <= 0:
        raise ValueError("no outcome has a positive weight")
    pick = rng.randrange(total)
    for outcome, weight in outcomes:
        pick -= weight
        if pick < 0:
            return outcome
    raise AssertionError("unreachable")
