"""Seeded random playouts give the same games as before the speed-ups (benchmarks/key_market_playouts.py).

Each hash covers every list of legal moves offered (in order), every move, the refusals of moves legal one decision
earlier, the table's view along the way and at the end, and the final score. They were recorded before the playouts
were made faster and must never change by optimising (recorded again when the data section ``boards`` became
``territory_boards``, which the view names, and when the variant ``winter_yields`` made guilds 13 A, 13 J and 14 J
yield nothing in Winter, as the rulebook marks them, and when the view named the seat that laid each board, and
when the rulebook audit made ``winter_yields`` = all the default (the spec's reading: guild 14 J's gold in Winter)
and let a lone guild 10 player act early without dropping on the favour track, L766-768, and when the player
could pick the fields of guilds 2 and 9, L678-680, L756-760, and when the view gave each field its sticker's id, its place
on its board and its name in words, issue 27: the games themselves unchanged, checked against the old hashes with those
keys left out); a rules
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
    (2, 0): "92d27a66c0e54498",
    (2, 1): "3b9ba302d84b383d",
    (2, 2): "6a48717613bf3bf1",
    (2, 3): "f75b2db1aa28c0d5",
    (2, 4): "a525e4af6f4766d5",
    (2, 5): "1503134fc83d4316",
    (3, 0): "97e806fb531e6787",
    (3, 1): "07f9c9a7b800978e",
    (3, 2): "e71ee286bb9978b7",
    (3, 3): "11282b39d05245bc",
    (3, 4): "7934bec64a6d2f98",
    (3, 5): "b8b9570660b0b058",
    (4, 0): "8bb16b927f9967c1",
    (4, 1): "6177f594652b6d54",
    (4, 2): "0b468ffb11b02a17",
    (4, 3): "ebbe62c9eabe4361",
    (4, 4): "32e92a99b7b4bc91",
    (4, 5): "462cbc771194a1b5",
}
"""(players, seed) -> hash, the variant flags at their defaults."""
RECORDED_VARIANTS = {
    (2, 0): "e9ff4bd919858f84",
    (2, 1): "4303670644e8277f",
    (2, 2): "8dc63c0aab231e6b",
    (3, 0): "4758ec46648f08e4",
    (3, 1): "52db7989a20e2ff3",
    (3, 2): "347241db48c60237",
    (4, 0): "539846837c7edef4",
    (4, 1): "b62cd046f2f4d6d5",
    (4, 2): "9c68a2c89f6f70f5",
}
"""(players, seed) -> hash, every variant flag at its last choice."""


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players) == RECORDED[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED_VARIANTS))
def test_playout_fingerprint_with_every_variant_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players, variants=True) == RECORDED_VARIANTS[players, seed]
