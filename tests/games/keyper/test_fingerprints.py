"""Seeded random Keyper playouts give the same games as before the speed-ups (benchmarks/keyper_playouts.py).

Each hash covers every list of legal moves offered (in order), every move's text and the final scores, under the
default options and under two sets of variant flags; they were recorded before the playouts were made faster and
must never change by optimising. A rules change that alters games on purpose records new hashes
(``.venv/bin/python benchmarks/keyper_playouts.py --fingerprint SEEDS PLAYERS``). Re-recorded when the keep tile
came to offer each distinct outcome once, sorted, instead of every ordered choice (the lists offered changed, and
so did the random games), again when an active player and a follower came to build in turn (L633), and again after
the rulebook audit of issue 14: a finished good may be shipped as the raw material its boat shows (L499), and the
1:2 trade fields take any two whatever the Trading Post's flag (A10) says (L1139-L1147).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "keyper_playouts.py"
_spec = importlib.util.spec_from_file_location("keyper_playouts", SCRIPT)
assert _spec is not None and _spec.loader is not None
keyper_playouts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(keyper_playouts)

FLAGS = {
    "": None,
    "a": {"limited_supply": "no", "refill_on_last_action": "yes", "tiebreak": "yucata", "payment": "cheapest",
          "open_fairs": "yes", "lay_two": "both", "overbuild": "twice", "follower_refill": "after_each"},
    "b": {"winter_fair_seasons": "summer_on", "last_action": "after_trigger", "gain_ship_scope": "use",
          "trading_post": "other_types", "join_lying": "any", "last_placer": "follower", "seasonal_fair": "required",
          "builder_wheat": "builds_too", "plot_overbuild": "no", "agent_bonus": "per_pair", "seafarer": "any_use"},
}

RECORDED = {
    (4, 0, ""): "8ec5bfef65ce3594",
    (4, 1, ""): "dc7f899d033b1bb7",
    (4, 2, ""): "90edecb52c4dad88",
    (4, 3, ""): "aa19aa297c5136be",
    (3, 0, ""): "9da36edd9bed6fe6",
    (3, 1, ""): "b0667f746888d2b3",
    (2, 0, ""): "299fa142d4678d8a",
    (2, 1, ""): "a8a4054f20a3bd1e",
    (2, 0, "a"): "05490355efb16f72",
    (3, 0, "a"): "54df5e99eeafd9fa",
    (4, 0, "a"): "a89f6bcd39d9ad4d",
    (2, 0, "b"): "30878f6712273e07",
    (3, 0, "b"): "5e2917ca6819352a",
    (4, 0, "b"): "40f9956b3b40e388",
}


@pytest.mark.parametrize(("players", "seed", "flags"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int, flags: str) -> None:
    assert keyper_playouts.fingerprint(seed, players, FLAGS[flags]) == RECORDED[players, seed, flags]
