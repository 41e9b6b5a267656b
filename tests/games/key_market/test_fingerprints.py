"""Seeded random playouts give the same games as before the speed-ups (benchmarks/key_market_playouts.py).

Each hash covers every list of legal moves offered (in order), every move, the refusals of moves legal one decision
earlier, the table's view along the way and at the end, and the final score. They were recorded before the playouts
were made faster and must never change by optimising; a rules change that alters games on purpose records new hashes
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
    (2, 0): "f3c0ef6fa898c22b",
    (2, 1): "966a1774b17d388b",
    (2, 2): "77055fd6d420adb7",
    (2, 3): "4b749d593392d51a",
    (2, 4): "66282431859b6766",
    (2, 5): "2fb8e8fd16271818",
    (3, 0): "fe8dfaf4afc82764",
    (3, 1): "f54b77991af70024",
    (3, 2): "5f9e8d0e739b2fcc",
    (3, 3): "417f1df395bb6b69",
    (3, 4): "dd1143b451520510",
    (3, 5): "0cb5bf0ee58a8c89",
    (4, 0): "18a409046e0a7bb6",
    (4, 1): "92ba517e4728b5cb",
    (4, 2): "4b72a87e941186e2",
    (4, 3): "1beca09011e856e1",
    (4, 4): "d786c891b7c4d9d1",
    (4, 5): "f660ee1eec559e07",
}
"""(players, seed) -> hash, the variant flags at their defaults."""
RECORDED_VARIANTS = {
    (2, 0): "724693b491652a65",
    (2, 1): "2b50b6b37fbdd2b8",
    (2, 2): "923464210c26e8c2",
    (3, 0): "f38038c62e6a4945",
    (3, 1): "da1a575630ebfb78",
    (3, 2): "72f65ffaa238b0ce",
    (4, 0): "85572602d58ff1ec",
    (4, 1): "ca99d8831e7b4c46",
    (4, 2): "a5646edce0eb5845",
}
"""(players, seed) -> hash, every variant flag at its last choice."""


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players) == RECORDED[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED_VARIANTS))
def test_playout_fingerprint_with_every_variant_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players, variants=True) == RECORDED_VARIANTS[players, seed]
