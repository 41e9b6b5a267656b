"""Payments (spec 4.2, 6.3): DIFF(N) (N different resources, or 1 LUX for 2 of them, never 2 LUX), FLEX(N) (guild
16: resources 1 and LUX 2 each, adding up to N), the guild 7 reductions, guild 14 M's 9 gold, the manor's fixed cost.
A payment is a mapping good -> count, paid from behind the screen (never from committed goods, L451).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.core.errors import IllegalMoveError
from companion.core.messages import msg
from companion.games.key_market.data import LUX, RESOURCES

Goods = Mapping[str, int]
KINDS = ("place", "promote_j", "promote_m", "retire")
"""What a guild payment buys: an apprentice, A -> J, J -> M, a retirement."""
BASE = {"place": 2, "promote_j": 3, "promote_m": 4, "retire": 4}
"""DIFF(N) of each (L329-331, L364, L461)."""


def is_diff(paid: Goods, n: int) -> bool:
    """DIFF(N): N resources of pairwise different sorts, or (N >= 2) 1 LUX + N - 2 different resources."""
    lux = paid.get(LUX, 0)
    kinds = [g for g in RESOURCES if paid.get(g, 0)]
    different = all(paid.get(g, 0) <= 1 for g in RESOURCES) and set(paid) <= {*RESOURCES, LUX}
    if lux == 0:
        return different and len(kinds) == n
    return lux == 1 and n >= 2 and different and len(kinds) == n - 2


def is_flex(paid: Goods, n: int, exact: bool = True) -> bool:
    """FLEX(N) (L836-840): any resources and LUX worth N (resource 1, LUX 2), several LUX allowed; ``exact``
    (variant ``flex_total``) or at least N."""
    if not set(paid) <= {*RESOURCES, LUX} or any(v < 0 for v in paid.values()):
        return False
    worth = sum(paid.get(g, 0) for g in RESOURCES) + 2 * paid.get(LUX, 0)
    return worth == n if exact else worth >= n


@dataclass(frozen=True, slots=True)
class Payer:
    """The abilities that change a payment: guild 7 A (placing), 7 J (promoting), 16 A/J/M (FLEX for A -> J,
    J -> M, retiring) and 14 M (retire for 9 gold), with the variant flags that settle how they combine."""

    g7_apprentice: bool = False
    g7_journeyman: bool = False
    g16: frozenset[str] = frozenset()
    g14_master: int = 0
    flex_exact: bool = True
    flex_reduced: bool = True
    g7_lux: bool = False


FLEX_LEVEL = {"promote_j": "A", "promote_m": "J", "retire": "M"}
"""Which guild 16 level pays what with FLEX."""


def check(kind: str, paid: Goods, gold: int, payer: Payer, held: Goods, purse: int) -> IllegalMoveError | None:
    """Whether ``paid`` (goods) or ``gold`` pays for ``kind`` (``KINDS``), from ``held`` goods and ``purse`` gold
    behind the screen."""
    refusal = _refusal(kind, paid, gold, payer, held, purse)
    if refusal is None:
        return None
    key, params = refusal
    return IllegalMoveError("4.2", msg(key, **params))


def allows(kind: str, paid: Goods, gold: int, payer: Payer, held: Goods, purse: int) -> bool:
    """``check`` without the refusal's words (for generating moves)."""
    return _refusal(kind, paid, gold, payer, held, purse) is None


def _refusal(kind: str, paid: Goods, gold: int, payer: Payer, held: Goods,
             purse: int) -> tuple[str, dict[str, int]] | None:
    """``check``'s refusal as a message id and its parameters, or ``None``."""
    if any(paid.get(g, 0) > held.get(g, 0) for g in paid) or gold > purse:
        return "km.refuse.cannot_pay", {}
    if gold:
        if kind == "retire" and payer.g14_master and gold == payer.g14_master and not any(paid.values()):
            return None
        return "km.refuse.pay_gold", {}
    n = BASE[kind]
    if kind == "place" and payer.g7_apprentice:
        total = sum(paid.values())
        if total == 1 and (payer.g7_lux or paid.get(LUX, 0) == 0):
            return None
    discount = 1 if kind in ("promote_j", "promote_m") and payer.g7_journeyman else 0
    if is_diff(paid, n - discount):
        return None
    level = FLEX_LEVEL.get(kind)
    if level in payer.g16 and is_flex(paid, n - (discount if payer.flex_reduced else 0), payer.flex_exact):
        return None
    return "km.refuse.payment", {"n": n - discount}


def check_manor(paid: Goods, tile: str, held: Goods) -> IllegalMoveError | None:
    """F5 (L343): 1 resource of the tile's sort + 1 resource of another sort + 1 LUX, from behind the screen."""
    if any(paid.get(g, 0) > held.get(g, 0) for g in paid):
        return IllegalMoveError("4.2", msg("km.refuse.cannot_pay"))
    others = [g for g in RESOURCES if g != tile and paid.get(g, 0)]
    ok = (paid.get(tile, 0) == 1 and paid.get(LUX, 0) == 1 and len(others) == 1 and paid[others[0]] == 1
          and sum(paid.values()) == 3)
    return None if ok else IllegalMoveError("4.3-F5", msg("km.refuse.manor_cost", good=msg(f"km.good.{tile}")))
