"""Seeded random playouts give the same games as before the speed-ups (benchmarks/key_market_playouts.py).

Each hash covers every list of legal moves offered (in order), every move, the refusals of moves legal one decision
earlier, the table's view along the way and at the end, and the final score. They were recorded before the playouts
were made faster and must never change by optimising (recorded again when the data section ``boards`` became
``territory_boards``, which the view names, and when the variant ``winter_yields`` made guilds 13 A, 13 J and 14 J
yield nothing in Winter, as the rulebook marks them); a rules change that alters games on purpose records new hashes
(``.venv/bin/python benchmarks/key_market_playouts.py --fingerprint 6`` and ``--fingerprint 3 --variants``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "key_market_playouts.py"
_spec = importlib.util.spec_from_file_location("key_market_playouts", SCRIPT)
assert _spec is not None and _spec.loader is not None
key_market_playouts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(key_market_playouts)

RECORDED = {
    (2, 0): "d938c827e66b851d",
    (2, 1): "a2a0550dc71a8707",
    (2, 2): "19dd88ddca54ed39",
    (2, 3): "7738b0ff8050cf78",
    (2, 4): "6f4306aee85a43e6",
    (2, 5): "7fe4bcef5faae9a0",
    (3, 0): "44d75e20598baa09",
    (3, 1): "4be2196ef24f55ad",
    (3, 2): "a9694a624efacffa",
    (3, 3): "4f4dee7ff9edb895",
    (3, 4): "5ce90dd67595bb66",
    (3, 5): "4472003252f2788c",
    (4, 0): "2c51a5399ac4b75c",
    (4, 1): "61f4dd9d311e8fd8",
    (4, 2): "eae88e2ca3150e0f",
    (4, 3): "d309c505f43ddbb3",
    (4, 4): "3b3e99a0c4a31312",
    (4, 5): "5dd8f2b15b2d71b1",
}
"""(players, seed) -> hash, the variant flags at their defaults."""
RECORDED_VARIANTS = {
    (2, 0): "dcad382179e4a8f1",
    (2, 1): "e2dacb2c2ef5451b",
    (2, 2): "c6a5c472266e6b95",
    (3, 0): "19b43837205f2a10",
    (3, 1): "dba2c19f6bdda9cb",
    (3, 2): "3974220d102660f0",
    (4, 0): "64a411353d0a3b51",
    (4, 1): "0b41030409776576",
    (4, 2): "f7109a0ce3ebb2c6",
}
"""(players, seed) -> hash, every variant flag at its last choice."""


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players) == RECORDED[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED_VARIANTS))
def test_playout_fingerprint_with_every_variant_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players, variants=True) == RECORDED_VARIANTS[players, seed]
