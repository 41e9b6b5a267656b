"""La Granja's final conversion and ranking (spec 3.6, 5.3, 5.4), shared by the game and ``companion score``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TRADE_GOOD_SILVER = 4
"""A-07: a trade good converts at 4 silver, its only silver-giving use."""
SILVER_PER_VP = 5


@dataclass(frozen=True, slots=True)
class Holdings:
    """What the final conversion reads from one farm."""

    name: str
    vp: int
    silver: int
    trade: int
    resources: Mapping[str, int]  # olive, grain, grape in storage, pigs in the sty


def conversion(h: Holdings, sell: Mapping[str, int]) -> dict[str, int]:
    """Spec 5.3: resources at their sell price, trade goods at 4, upgraded goods and field crops at 0 (A-06)."""
    total = h.silver + TRADE_GOOD_SILVER * h.trade + sum(sell[k] * n for k, n in h.resources.items())
    return {"silver_total": total, "conversion_points": total // SILVER_PER_VP, "rest_silver": total % SILVER_PER_VP}


def rank(rows: Sequence[dict[str, Any]]) -> None:
    """Set ``rank`` (1 = winner; shared ranks on a full tie) and ``winner`` by total, then rest silver (5.4)."""
    keys = [(row["total"], row["rest_silver"]) for row in rows]
    for row, key in zip(rows, keys):
        row["rank"] = 1 + sum(1 for other in keys if other > key)
        row["winner"] = row["rank"] == 1
