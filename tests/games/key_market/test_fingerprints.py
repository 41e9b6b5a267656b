"""Seeded random playouts give the same games as before the speed-ups (benchmarks/key_market_playouts.py).

Each hash covers every list of legal moves offered (in order), every move, the refusals of moves legal one decision
earlier, the table's view along the way and at the end, and the final score. They were recorded before the playouts
were made faster and must never change by optimising (recorded again when the data section ``boards`` became
``territory_boards``, which the view names); a rules change that alters games on purpose records new hashes
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
    (2, 0): "f41736f531ff2f6b",
    (2, 1): "cb4fbc856125fcef",
    (2, 2): "b6061fed8ac01261",
    (2, 3): "dc7e246789a6d764",
    (2, 4): "c69c443ad4cfc616",
    (2, 5): "19c7101636895191",
    (3, 0): "89beb092ee1070d1",
    (3, 1): "5587bcc6764396e4",
    (3, 2): "1c0466cf7bfbcc72",
    (3, 3): "04fdd902c0736320",
    (3, 4): "353e7e55457400df",
    (3, 5): "c3568c2e6c84355a",
    (4, 0): "41b7735c4046c002",
    (4, 1): "6eb6679ec09ba66e",
    (4, 2): "ab5c40e0398e14f0",
    (4, 3): "c9dbd377f95c6e13",
    (4, 4): "28c4ab6ab531e0b5",
    (4, 5): "1cbcded8e3e46c41",
}
"""(players, seed) -> hash, the variant flags at their defaults."""
RECORDED_VARIANTS = {
    (2, 0): "c0fdf8334923a583",
    (2, 1): "afbd3b28daad91fa",
    (2, 2): "cd800eab8ac453fa",
    (3, 0): "81454c2c133d7ae2",
    (3, 1): "d84e82c78ca208dd",
    (3, 2): "8d08ee660a95e6c4",
    (4, 0): "3139f47260640dd2",
    (4, 1): "ab477fc64570840f",
    (4, 2): "c109f19097d51727",
}
"""(players, seed) -> hash, every variant flag at its last choice."""


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players) == RECORDED[players, seed]


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED_VARIANTS))
def test_playout_fingerprint_with_every_variant_is_unchanged(players: int, seed: int) -> None:
    assert key_market_playouts.fingerprint(seed, players, variants=True) == RECORDED_VARIANTS[players, seed]
