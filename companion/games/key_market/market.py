"""The market board (spec 3.6, 4.4): each row's count, today's buy and sell prices, the gold of a sale or a purchase
with the manor and guild modifiers, mixed sets, the Season End removals and guild 13's pick.

Only each row's count ``n`` matters (spec 3.6). A market is a mapping good -> n; the functions return new ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.core.errors import IllegalMoveError
from companion.core.messages import msg
from companion.games.key_market.data import GOODS, LUX, RESOURCES, Edition

Market = Mapping[str, int]


def sell_price(edition: Edition, n: int, covered: int = 1) -> int:
    """The price shown by a row holding ``n`` goods (its leftmost empty slot); ``covered`` once every slot is
    filled (variant ``covered_sell_price``, spec 7.2 #4)."""
    return edition.prices[n] if n < len(edition.prices) else covered


def buy_price(edition: Edition, n: int, discount: int = 0) -> int:
    """What one good costs from a row of ``n`` goods: the shown price less ``discount`` (guild 11 A), at least 1
    (L479, L786)."""
    return max(1, sell_price(edition, n, 1) - discount)


def removal(edition: Edition, n: int) -> int:
    """Goods the Season End takes off a row of ``n`` (L528-532): the market board's top row."""
    return edition.removal[min(n, len(edition.removal) - 1)]


@dataclass(frozen=True, slots=True)
class Row:
    """One row as the table sees it: goods lying there, today's buy and sell price, the Season End removal."""

    good: str
    n: int
    buy: int
    sell: int
    removal: int
    covered: bool


def board(edition: Edition, market: Market, covered: int = 1, buy_discount: int = 0) -> list[Row]:
    """Every row of the market board, top to bottom (``buy_discount``: guild 11 A's view)."""
    return [Row(g, market[g], buy_price(edition, market[g], buy_discount), sell_price(edition, market[g], covered),
                removal(edition, market[g]), market[g] >= len(edition.prices)) for g in edition.market_rows]


@dataclass(frozen=True, slots=True)
class Bonuses:
    """A seller's modifiers: the manor (+1 good per set), guild 11 J (+1 good per set), guild 11 M (+1 gold per
    good), guild 10 A (+1 gold per good of the first sale, if placed before it)."""

    manor: bool = False
    g11_journeyman: bool = False
    g11_master: int = 0
    g10_apprentice: int = 0

    @property
    def set_size(self) -> int:
        """The largest set of one sort (L416, L784)."""
        return 2 + int(self.manor) + int(self.g11_journeyman)


@dataclass(frozen=True, slots=True)
class Sale:
    """A sale's outcome: gold per good and in all, the market after, and goods of the set going to the supply."""

    per_good: int
    gold: int
    market: dict[str, int]
    to_supply: dict[str, int]


def sell(edition: Edition, market: Market, good: str, size: int, bonuses: Bonuses = Bonuses(),
         first_sale: bool = False, covered: int = 1) -> Sale:
    """Sell a set of ``size`` goods of one sort (spec 4.4 I): each at the row's price before placing, +1 with guild 11
    M, +1 on the first sale with guild 10 A; one good goes onto the row, the rest to the supply."""
    if good not in GOODS:
        raise IllegalMoveError("4.4-I", msg("km.refuse.unknown_good", good=good))
    if not 1 <= size <= bonuses.set_size:
        raise IllegalMoveError("4.4-I", msg("km.refuse.set_size", n=bonuses.set_size, size=size))
    per = sell_price(edition, market[good], covered) + bonuses.g11_master + (bonuses.g10_apprentice if first_sale else 0)
    after = dict(market)
    after[good] += 1
    return Sale(per, per * size, after, {good: size - 1} if size > 1 else {})


def sell_mixed(edition: Edition, market: Market, goods: Sequence[str], placed: str, most: int,
               bonuses: Bonuses = Bonuses(), first_sale: bool = False, covered: int = 1,
               with_bonuses: bool = True) -> Sale:
    """Guild 15's mixed set (L826-828): 2 (apprentice) or up to 3 (journeyman, ``most``) different resources; the one
    ``placed`` on the market sets the base price of every good. ``with_bonuses`` (variant ``mixed_set_bonuses``):
    guild 10 A and guild 11 M apply."""
    if len(set(goods)) != len(goods) or any(g not in RESOURCES for g in goods) or not 2 <= len(goods) <= most:
        raise IllegalMoveError("4.4-I'", msg("km.refuse.mixed_set", n=most))
    if placed not in goods:
        raise IllegalMoveError("4.4-I'", msg("km.refuse.mixed_placed", good=msg(f"km.good.{placed}")))
    per = sell_price(edition, market[placed], covered)
    if with_bonuses:
        per += bonuses.g11_master + (bonuses.g10_apprentice if first_sale else 0)
    after = dict(market)
    after[placed] += 1
    return Sale(per, per * len(goods), after, {g: 1 for g in goods if g != placed})


@dataclass(frozen=True, slots=True)
class Purchase:
    """A purchase's outcome: the gold paid and the market after."""

    gold: int
    market: dict[str, int]


def buy(edition: Edition, market: Market, good: str, count: int, discount: int = 0) -> Purchase:
    """Guild action D (L479-485): 1 or 2 goods of one sort, both at the price before buying (guild 11 A: ``discount``
    per good, at least 1); the row must hold them (L483, spec 7.2 #20)."""
    if good not in GOODS:
        raise IllegalMoveError("4.4-D", msg("km.refuse.unknown_good", good=good))
    if count not in (1, 2):
        raise IllegalMoveError("4.4-D", msg("km.refuse.buy_count", n=count))
    if market[good] < count:
        raise IllegalMoveError("4.4-D", msg("km.refuse.buy_empty", good=msg(f"km.good.{good}"), n=market[good]))
    after = dict(market)
    after[good] -= count
    return Purchase(count * buy_price(edition, market[good], discount), after)


def buy_mixed(edition: Edition, market: Market, goods: Sequence[str], most: int = 3, discount: int = 0) -> Purchase:
    """Guild 15 M (L824): up to ``most`` different resources, one of each, each at its own price."""
    if len(set(goods)) != len(goods) or not 1 <= len(goods) <= most or any(g not in RESOURCES for g in goods):
        raise IllegalMoveError("4.4-D", msg("km.refuse.buy_mixed", n=most))
    gold, after = 0, dict(market)
    for g in goods:
        if after[g] < 1:
            raise IllegalMoveError("4.4-D", msg("km.refuse.buy_empty", good=msg(f"km.good.{g}"), n=0))
        gold += buy_price(edition, after[g], discount)
        after[g] -= 1
    return Purchase(gold, after)


def take_gold(workers: int, g12_apprentice: int = 0, reading: str = "plus_four") -> int:
    """Guild action E (L493, L796): 5 less one per territory worker, at least 0; guild 12 A adds ``g12_apprentice``
    (variant ``g12_apprentice``: ``plus_four`` = max(0, 5 - w) + 4, ``nine_minus`` = max(0, 9 - w))."""
    if g12_apprentice and reading == "nine_minus":
        return max(0, 5 + g12_apprentice - workers)
    return max(0, 5 - workers) + g12_apprentice


def season_end_removal(edition: Edition, market: Market) -> tuple[dict[str, int], dict[str, int]]:
    """Season End S1 (L524-534): the market after and the goods removed from each row, top to bottom."""
    removed = {g: min(market[g], removal(edition, market[g])) for g in edition.market_rows}
    return {g: market[g] - removed[g] for g in market}, removed


def cheapest_resource(edition: Edition, market: Market, covered: int = 1) -> str | None:
    """Guild 13 J (L804): the resource row with goods and the lowest price, the higher row on a tie; ``None`` when
    no resource row holds a good."""
    stocked = [g for g in edition.market_rows if g != LUX and market[g] > 0]
    if not stocked:
        return None
    return min(stocked, key=lambda g: (sell_price(edition, market[g], covered), edition.market_rows.index(g)))


def take_from_market(market: Market, good: str) -> dict[str, int]:
    """Guild 13 J / M: one resource off its row (its price rises)."""
    if good == LUX or market.get(good, 0) < 1:
        raise IllegalMoveError("6.2-13", msg("km.refuse.take_empty", good=msg(f"km.good.{good}")))
    after = dict(market)
    after[good] -= 1
    return after


GOODS_IN_PLAY = {2: 12, 3: 15, 4: 18}
"""Goods of each of the 6 sorts in play by player count (L139)."""
PLACED_AT_START = {2: 3, 3: 2, 4: 1}
"""Resources put on each resource row at setup (L141); no LUX."""


def starting_market(players: int) -> dict[str, int]:
    """The market after setup step 2 (spec 2.2): 3, 2 or 1 of each resource, no LUX."""
    return {g: PLACED_AT_START[players] if g != LUX else 0 for g in GOODS}


def farmhouse_payment(market: Market, tile: str, paid: Sequence[str]) -> dict[str, int]:
    """Setup step 17 (L121): 1 resource of the tile's sort plus 1 of a different sort, each onto its row."""
    if len(paid) != 2 or any(g not in RESOURCES for g in paid) or tile not in paid or paid[0] == paid[1]:
        raise IllegalMoveError("2.2-17", msg("km.refuse.farmhouse_payment", good=msg(f"km.good.{tile}")))
    after = dict(market)
    for g in paid:
        after[g] += 1
    return after
