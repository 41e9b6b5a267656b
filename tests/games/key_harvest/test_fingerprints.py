"""Seeded random playouts give the same games as before the speed-ups (benchmarks/kh_fingerprint.py).

Each hash covers every move's text, every list of legal moves offered (in order) and the final
scores; they were recorded before the bid moves were shared and must never change by optimising.
A rules change that alters games on purpose records new hashes (run the script).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "kh_fingerprint.py"
_spec = importlib.util.spec_from_file_location("kh_fingerprint", SCRIPT)
assert _spec is not None and _spec.loader is not None
kh_fingerprint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kh_fingerprint)

RECORDED = {
    (4, 0): "b88ea9908de87e3e",
    (4, 1): "369efe11f6c1a2ff",
    (4, 2): "9fc4d04a0d42769a",
    (4, 3): "92f9c97dfb89a996",
    (4, 4): "1b203b7c329cec3a",
    (3, 0): "aa9b7aa1e432f57a",
    (2, 0): "d2a4d40b49edd35b",
}


@pytest.mark.parametrize(("players", "seed"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int) -> None:
    assert kh_fingerprint.fingerprint(seed, players) == RECORDED[players, seed]
