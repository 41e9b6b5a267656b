"""Seeded random playouts give the same games as before the speed-ups (benchmarks/key_market_playouts.py).

Each hash covers every list of legal moves offered (in order), every move, the refusals of moves legal one decision
earlier, the table's view along the way and at the end, and the final score. They were recorded before the playouts
were made faster and must never change by optimising (recorded again when the data section ``boards`` became
``territory_boards``, which the view names, and when the variant ``winter_yields`` made guilds 13 A, 13 J and 14 J
yield nothing in Winter, as the rulebook marks them, and when the view named the seat that laid each board); a rules
change that alters games on purpose records new hashes
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
    (2, 0): "744a438ece37df8e",
    (2, 1): "054942ce8dafd04c",
    (2, 2): "3d13fddc55e35ae5",
    (2, 3): "8845366c5c8982d2",
    (2, 4): "eb9f90850661e5d7",
    (2, 5): "c76ab9c24fb9a3d0",
    (3, 0): "8095fb2c22cc012f",
    (3, 1): "7e7a32a99a478057",
    (3, 2): "c2f8b863c87ca43e",
    (3, 3): "819915476a4f1578",
    (3, 4): "0f88b31ae7f6dc81",
    (3, 5): "6df849960c745380",
    (4, 0): "91102d6b49757eb3",
    (4, 1): "0a577dcb3b0a295d",
    (4, 2): "e4c9bc26cdabe7e3",
    (4, 3): "483b50fa1b52da86",
    (4, 4): "ef42113f191db827",
    (4, 5): "d197b6c34ef2a898",
}
"""(players, seed) -> hash, the variant flags at their defaults."""
RECORDED_VARIANTS = {
    (2, 0): "be3978c8222b425b",
    (2, 1): "63b952db3e1f9bd4",
    (2, 2): "e47e55b5e9829152",
    (3, 0): "aae5674720877831",
    (3, 1): "d2f400e51660bc96",
    (3, 2): "45b730b679f9296f",
    (4, 0): "f5fe2126ce67387c",
    (4, 1): "5aa019358f6ac24d",
    (4, 2): "80cab2c341f0792a",
}
"""(players, seed) -> hash, every variant flag at its last choice."""


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players) == RECORDED[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED_VARIANTS))
def test_playout_fingerprint_with_every_variant_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players, variants=True) == RECORDED_VARIANTS[players, seed]
