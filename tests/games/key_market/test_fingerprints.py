"""Seeded random playouts give the same games as before the speed-ups (benchmarks/key_market_playouts.py).

Each hash covers every list of legal moves offered (in order), every move, the refusals of moves legal one decision
earlier, the table's view along the way and at the end, and the final score. They were recorded before the playouts
were made faster and must never change by optimising (recorded again when the data section ``boards`` became
``territory_boards``, which the view names, and when the variant ``winter_yields`` made guilds 13 A, 13 J and 14 J
yield nothing in Winter, as the rulebook marks them, and when the view named the seat that laid each board, and
when the rulebook audit made ``winter_yields`` = all the default (the spec's reading: guild 14 J's gold in Winter)
and let a lone guild 10 player act early without dropping on the favour track, L766-768, and when the player
could pick the fields of guilds 2 and 9, L678-680, L756-760); a rules
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
    (2, 0): "8ef33d1f130a7337",
    (2, 1): "2d32305232686ea7",
    (2, 2): "029cc00be6273b4b",
    (2, 3): "324151de382bfc48",
    (2, 4): "c5828606d3c7215a",
    (2, 5): "94a3a661f247de95",
    (3, 0): "6ab1c084e9ffc121",
    (3, 1): "e88aa409afd61286",
    (3, 2): "fb283bc76670eca2",
    (3, 3): "18b3b8a728a62567",
    (3, 4): "e5d050e33cbb43a4",
    (3, 5): "b13c9df98892ff86",
    (4, 0): "f3c29516db8b6b6e",
    (4, 1): "6765225b42729fb6",
    (4, 2): "3f90387901c4dcd7",
    (4, 3): "9d6abe325d82992d",
    (4, 4): "62430fdad004b744",
    (4, 5): "270bdfd6a32ad6e5",
}
"""(players, seed) -> hash, the variant flags at their defaults."""
RECORDED_VARIANTS = {
    (2, 0): "e8e5ddf4b8bfa99d",
    (2, 1): "1856cf393171657a",
    (2, 2): "ed60993a58c29efd",
    (3, 0): "b4bb32bb5135571c",
    (3, 1): "9ba1e2f4bb90e9c2",
    (3, 2): "9957a06e9a3e4a3c",
    (4, 0): "1fb055ea8e682bf8",
    (4, 1): "64f95ce172c0cc38",
    (4, 2): "2dea01d9d51e0095",
}
"""(players, seed) -> hash, every variant flag at its last choice."""


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players) == RECORDED[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED_VARIANTS))
def test_playout_fingerprint_with_every_variant_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players, variants=True) == RECORDED_VARIANTS[players, seed]
