"""Seeds, per-step generators and weighted choice."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.core.rng import new_seed, step_rng, weighted_choice


def test_new_seed_is_fresh_hex() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 32 and int(seed, 16) >= 0 for seed in seeds)


def test_step_rng_is_deterministic() -> None:
    def draws(seed: str, step: int) -> list[float]:
        rng = step_rng(seed, step)
        return [rng.random() for _ in range(5)]

    assert draws("abc", 3) == draws("abc", 3)
    assert draws("abc", 3) != draws("abc", 4)
    assert draws("abc", 3) != draws("abd", 3)
    assert draws("1", 23) != draws("12", 3)


def test_weighted_choice_follows_the_weights() -> None:
    rng = random.Random(1)
    counts = Counter(weighted_choice(rng, [("a", 1), ("b", 3), ("c", 0), ("d", 6)]) for _ in range(20_000))
    assert counts["c"] == 0
    assert counts["a"] / 20_000 == pytest.approx(0.1, abs=0.02)
    assert counts["b"] / 20_000 == pytest.approx(0.3, abs=0.02)
    assert counts["d"] / 20_000 == pytest.approx(0.6, abs=0.02)


def test_weighted_choice_same_rng_same_pick() -> None:
    outcomes = [(n, n + 1) for n in range(10)]
    assert weighted_choice(step_rng("s", 5), outcomes) == weighted_choice(step_rng("s", 5), outcomes)


@pytest.mark.parametrize("outcomes", [[], [("a", 0)], [("a", 0), ("b", 0)]])
def test_weighted_choice_needs_a_positive_weight(outcomes: list[tuple[str, int]]) -> None:
    with pytest.raises(ValueError):
        weighted_choice(random.Random(0), outcomes)
