"""Final scoring (spec 5, L601-640): the manor, retired workers, gold, the best split of the goods behind the screen
into 5-sets (guild 5 M), pairs (guild 6 M: +3 each) and single animals (guild 1 M), guild members' rank VP and
guild 7 M, each item listed; the ranking with its tie-break.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.key_market.data import GOODS, LEVELS, RESOURCES, Edition
from companion.games.key_market.production import Member

MANOR_VP = 15
RETIRED_VP = 15
PAIR_VP = 5
"""L605, L609, L615: the scoring sheet's fixed values."""
CATEGORIES = ("manor", "retired", "gold", "pairs", "guild_members", "master_abilities")
"""The scoring sheet's rows (L590-597), the points of each in a score row."""


@dataclass(frozen=True, slots=True)
class Item:
    """One scoring item: its category (``CATEGORIES``), what it is (``set``, ``pair``, ``animal``, ``pair_bonus``,
    ``manor``, ``retired``, ``gold``, ``member``, ``g7_master``), the good or guild it concerns, how many, its VP."""

    category: str
    kind: str
    what: str
    count: int
    vp: int

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "kind": self.kind, "what": self.what, "count": self.count, "vp": self.vp}


@dataclass(frozen=True, slots=True)
class GoodsRules:
    """What changes the goods' score: guild 5 M (``set_vp`` per set of the 5 resources, 0 without), guild 6 M
    (``pair_bonus``), guild 1 M (``animal`` sort scoring ``animal_vp`` each instead of pairing)."""

    set_vp: int = 0
    pair_bonus: int = 0
    animal: str | None = None
    animal_vp: int = 0


def _rest(count: int, good: str, rules: GoodsRules) -> tuple[int, int, int]:
    """The best score of ``count`` goods of one sort outside sets: (VP, pairs, goods scored singly)."""
    pair = PAIR_VP + rules.pair_bonus
    singles = range(count + 1) if good == rules.animal else range(1)
    best = max(singles, key=lambda a: (rules.animal_vp * a + pair * ((count - a) // 2), -a))
    return rules.animal_vp * best + pair * ((count - best) // 2), (count - best) // 2, best


def best_split(goods: Mapping[str, int], rules: GoodsRules) -> tuple[int, list[Item]]:
    """Spec 5 ``goods_score``, exact: every number of 5-sets from 0 to the most possible, the rest in pairs (or
    scored singly, guild 1 M); the best total and its items. The most sets is not always best (spec 9 ex. 10c)."""
    most = min(goods.get(r, 0) for r in RESOURCES) if rules.set_vp else 0
    best_total, best_k = -1, 0
    for k in range(most + 1):
        total = rules.set_vp * k + sum(_rest(goods.get(g, 0) - (k if g in RESOURCES else 0), g, rules)[0]
                                       for g in GOODS)
        if total > best_total:
            best_total, best_k = total, k
    items: list[Item] = []
    if best_k:
        items.append(Item("master_abilities", "set", "resources", best_k, rules.set_vp * best_k))
    for g in GOODS:
        _, pairs, singles = _rest(goods.get(g, 0) - (best_k if g in RESOURCES else 0), g, rules)
        if pairs:
            items.append(Item("pairs", "pair", g, pairs, PAIR_VP * pairs))
            if rules.pair_bonus:
                items.append(Item("master_abilities", "pair_bonus", g, pairs, rules.pair_bonus * pairs))
        if singles:
            items.append(Item("master_abilities", "animal", g, singles, rules.animal_vp * singles))
    return best_total, items


@dataclass(frozen=True, slots=True)
class Holdings:
    """What a player scores with at the end: the manor, retired workers, gold, goods behind the screen and guild
    members (guild -> member)."""

    name: str
    manor: bool
    retired: int
    gold: int
    goods: Mapping[str, int]
    guilds: Mapping[int, Member]


def goods_rules(edition: Edition, guilds: Mapping[int, Member]) -> GoodsRules:
    """The player's guild 1 M, 5 M and 6 M abilities (with '+' from the tile data: a master has them)."""
    def has(guild: int, level: str) -> bool:
        return guild in guilds and level in edition.guild_tiles[guild].active_levels(guilds[guild].level)

    return GoodsRules(edition.value(5, "M", "set_vp") if has(5, "M") else 0,
                      edition.value(6, "M", "pair_bonus") if has(6, "M") else 0,
                      guilds[1].column if has(1, "M") else None,
                      edition.value(1, "M", "vp_each") if has(1, "M") else 0)


def final_items(edition: Edition, h: Holdings) -> list[Item]:
    """Every scoring item of one player (spec 5)."""
    items: list[Item] = []
    if h.manor:
        items.append(Item("manor", "manor", "manor", 1, MANOR_VP))
    if h.retired:
        items.append(Item("retired", "retired", "workers", h.retired, RETIRED_VP * h.retired))
    if h.gold:
        items.append(Item("gold", "gold", "gold", h.gold, h.gold))
    items += best_split(h.goods, goods_rules(edition, h.guilds))[1]
    for guild, member in sorted(h.guilds.items()):
        items.append(Item("guild_members", "member", f"{guild}{member.level}", 1,
                          edition.guild_tiles[guild].vp[member.level]))
    if 7 in h.guilds and "M" in edition.guild_tiles[7].active_levels(h.guilds[7].level):
        keys = {"A": "apprentice", "J": "journeyman", "M": "master"}
        for level in LEVELS:
            count = sum(1 for m in h.guilds.values() if m.level == level)
            if count:
                items.append(Item("master_abilities", "g7_master", level, count,
                                  count * edition.value(7, "M", keys[level])))
    return items


def score_row(edition: Edition, h: Holdings) -> dict[str, Any]:
    """A score row: the name, the points of each category, ``items`` and ``total``."""
    items = final_items(edition, h)
    row: dict[str, Any] = {"name": h.name}
    for category in CATEGORIES:
        row[category] = sum(i.vp for i in items if i.category == category)
    row["items"] = [i.to_json() for i in items]
    row["total"] = sum(i.vp for i in items)
    return row


def rank(rows: Sequence[dict[str, Any]], tiebreak: Sequence[int] | None) -> None:
    """Set ``rank`` (1 = winner) and ``winner``: most VP; a tie goes to the player earlier in ``tiebreak`` (the
    favour track top first with 3-4 players, L638; Autumn year 2's turn order with 2, L640); without one, tied
    players share a rank."""
    def key(seat: int) -> tuple[int, int]:
        return rows[seat]["total"], -tiebreak.index(seat) if tiebreak is not None else 0

    for seat, row in enumerate(rows):
        row["rank"] = 1 + sum(1 for other in range(len(rows)) if key(other) > key(seat))
        row["winner"] = row["rank"] == 1
