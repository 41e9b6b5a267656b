"""Seeded random Keyper playouts give the same games as before the speed-ups (benchmarks/keyper_playouts.py).

Each hash covers every list of legal moves offered (in order), every move's text and the final scores, under the
default options and under two sets of variant flags; they were recorded before the playouts were made faster and
must never change by optimising. A rules change that alters games on purpose records new hashes
(``.venv/bin/python benchmarks/keyper_playouts.py --fingerprint SEEDS PLAYERS``).
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
    (4, 0, ""): "275b0f6007b31ea9",
    (4, 1, ""): "eba712bf53a57713",
    (4, 2, ""): "8978e0b4f6ad6e77",
    (4, 3, ""): "5d0a490c776efbdc",
    (3, 0, ""): "6ea1d0b8ea2eff85",
    (3, 1, ""): "3f3ae5f40f5b2af4",
    (2, 0, ""): "fca2872186e5a2b4",
    (2, 1, ""): "9d04daff1669ea47",
    (2, 0, "a"): "15bc4cf0a67f7612",
    (3, 0, "a"): "1e46051540f44290",
    (4, 0, "a"): "f003bcedd49a0cdc",
    (2, 0, "b"): "06001c2c7548a08b",
    (3, 0, "b"): "7fe1fd7730712364",
    (4, 0, "b"): "9e2755ef80b8e11f",
}


@pytest.mark.parametrize(("players", "seed", "flags"), sorted(RECORDED))
def test_playout_fingerprint_is_unchanged(players: int, seed: int, flags: str) -> None:
    assert keyper_playouts.fingerprint(seed, players, FLAGS[flags]) == RECORDED[players, seed, flags]
