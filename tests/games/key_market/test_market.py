"""The market board's arithmetic (spec 3.6, 4.4), worked examples 1, 2, 3, 5 and 9 of spec section 9."""

from __future__ import annotations

import pytest

from companion.core.errors import IllegalMoveError
from companion.games.key_market import market as mk
from companion.games.key_market.data import Edition

ROWS = ("fruit", "veg", "wheat", "sheep", "fish", "lux")


def m(*counts: int) -> dict[str, int]:
    return dict(zip(ROWS, counts))


def prices(edition: Edition, market: dict[str, int]) -> list[int]:
    return [row.sell for row in mk.board(edition, market)]


def test_example_1_farmhouse_payments_set_the_starting_prices(edition: Edition) -> None:
    market = mk.starting_market(4)
    for tile, paid in (("veg", ("veg", "sheep")), ("wheat", ("wheat", "veg")), ("sheep", ("sheep", "veg")),
                       ("fish", ("fish", "wheat"))):
        market = mk.farmhouse_payment(market, tile, paid)
    assert market == m(1, 4, 3, 3, 2, 0)
    assert prices(edition, market) == [5, 2, 3, 3, 4, 6]


def test_example_1_two_players(edition: Edition) -> None:
    market = mk.farmhouse_payment(mk.starting_market(2), "fruit", ("fruit", "wheat"))
    market = mk.farmhouse_payment(market, "fish", ("fish", "wheat"))
    assert prices(edition, market)[:5] == [2, 3, 1, 3, 2]


@pytest.mark.parametrize("paid", [("fruit", "fruit"), ("fruit", "lux"), ("veg", "wheat"), ("fruit",)])
def test_example_1_illegal_farmhouse_payments(paid: tuple[str, ...]) -> None:
    with pytest.raises(IllegalMoveError) as error:
        mk.farmhouse_payment(mk.starting_market(4), "fruit", paid)
    assert error.value.rule == "2.2-17"


def test_example_2_selling_without_manor(edition: Edition) -> None:
    market = m(2, 0, 0, 3, 0, 0)
    first = mk.sell(edition, market, "fruit", 2)
    assert (first.gold, first.market["fruit"], first.to_supply) == (8, 3, {"fruit": 1})
    second = mk.sell(edition, first.market, "fruit", 1)
    third = mk.sell(edition, second.market, "sheep", 1)
    assert (second.gold, third.gold, third.market["fruit"], third.market["sheep"]) == (3, 3, 4, 4)
    with pytest.raises(IllegalMoveError, match="1 to 2 goods"):
        mk.sell(edition, market, "fruit", 3)  # needs the manor
    with pytest.raises(IllegalMoveError):
        mk.sell_mixed(edition, market, ("fruit", "sheep"), "fruit", most=1)  # a mixed set needs guild 15


def test_example_2_with_guild_10_apprentice_and_guild_11_master(edition: Edition) -> None:
    bonuses = mk.Bonuses(g11_master=1, g10_apprentice=1)
    first = mk.sell(edition, m(2, 0, 0, 3, 0, 0), "fruit", 2, bonuses, first_sale=True)
    second = mk.sell(edition, first.market, "fruit", 1, bonuses)
    third = mk.sell(edition, second.market, "sheep", 1, bonuses)
    assert [first.gold, second.gold, third.gold] == [12, 4, 4]
    assert (third.market["fruit"], third.market["sheep"]) == (4, 4)


def test_example_2_manor_and_guild_10_alone(edition: Edition) -> None:
    sale = mk.sell(edition, m(2, 0, 0, 3, 0, 0), "fruit", 3, mk.Bonuses(manor=True))
    assert (sale.gold, sale.market["fruit"]) == (12, 3)
    assert mk.sell(edition, m(3, 0, 0, 0, 0, 0), "fruit", 2, mk.Bonuses(g10_apprentice=1), first_sale=True).gold == 8
    assert mk.Bonuses(manor=True, g11_journeyman=True).set_size == 4


def test_example_3_buying(edition: Edition) -> None:
    two = mk.buy(edition, m(3, 0, 0, 0, 0, 0), "fruit", 2)
    assert (two.gold, two.market["fruit"], mk.sell_price(edition, two.market["fruit"])) == (6, 1, 5)
    assert mk.buy(edition, m(3, 0, 0, 0, 0, 0), "fruit", 2, discount=1).gold == 4
    assert mk.buy(edition, m(0, 0, 0, 0, 5, 0), "fish", 1, discount=1).gold == 1
    covered = mk.buy(edition, m(0, 0, 7, 0, 0, 0), "wheat", 1)
    assert (covered.gold, covered.market["wheat"]) == (1, 6)
    assert mk.board(edition, covered.market)[2].covered


def test_example_3_illegal_buys(edition: Edition) -> None:
    with pytest.raises(IllegalMoveError) as error:
        mk.buy(edition, m(0, 0, 0, 0, 0, 0), "sheep", 1)
    assert error.value.rule == "4.4-D"
    with pytest.raises(IllegalMoveError, match="only 1 good"):
        mk.buy(edition, m(0, 0, 0, 0, 0, 1), "lux", 2)
    with pytest.raises(IllegalMoveError):
        mk.buy(edition, m(3, 0, 0, 0, 0, 0), "fruit", 3)


def test_example_3_guild_15_master_buys_three_sorts(edition: Edition) -> None:
    bought = mk.buy_mixed(edition, m(3, 0, 0, 2, 5, 0), ("fruit", "sheep", "fish"))
    assert bought.gold == 8
    assert [bought.market[g] for g in ("fruit", "sheep", "fish")] == [2, 1, 4]
    assert [mk.sell_price(edition, bought.market[g]) for g in ("fruit", "sheep", "fish")] == [4, 5, 2]
    with pytest.raises(IllegalMoveError):
        mk.buy_mixed(edition, m(3, 0, 0, 2, 5, 3), ("fruit", "lux"))


def test_example_5_season_end_removal(edition: Edition) -> None:
    after, removed = mk.season_end_removal(edition, m(0, 4, 5, 7, 3, 6))
    assert [removed[g] for g in ROWS] == [0, 1, 1, 2, 0, 2]
    assert after == m(0, 3, 4, 5, 3, 4)
    assert prices(edition, after) == [6, 3, 2, 1, 3, 2]


def test_covered_sell_price_variant(edition: Edition) -> None:
    assert mk.sell(edition, m(6, 0, 0, 0, 0, 0), "fruit", 1).gold == 1
    assert mk.sell(edition, m(6, 0, 0, 0, 0, 0), "fruit", 1, covered=0).gold == 0
    assert mk.buy_price(edition, 9) == 1


def test_example_9_guild_13_journeyman_takes_the_cheapest_resource(edition: Edition) -> None:
    market = m(3, 2, 3, 0, 1, 5)
    assert mk.cheapest_resource(edition, market) == "fruit"
    after = mk.take_from_market(market, "fruit")
    assert (after["fruit"], mk.sell_price(edition, after["fruit"])) == (2, 4)
    assert mk.cheapest_resource(edition, m(0, 0, 0, 0, 0, 5)) is None


def test_example_9_guild_15_mixed_sets(edition: Edition) -> None:
    market = m(3, 0, 0, 2, 4, 0)
    journeyman = mk.sell_mixed(edition, market, ("fruit", "sheep", "fish"), "sheep", most=3)
    assert (journeyman.gold, journeyman.market["sheep"], journeyman.to_supply) == (12, 3, {"fruit": 1, "fish": 1})
    apprentice = mk.sell_mixed(edition, market, ("fruit", "fish"), "fruit", most=2)
    assert apprentice.gold == 6
    with pytest.raises(IllegalMoveError):
        mk.sell_mixed(edition, market, ("fruit", "sheep", "fish"), "sheep", most=2)
    with pytest.raises(IllegalMoveError):
        mk.sell_mixed(edition, market, ("fruit", "lux"), "fruit", most=2)
    bonus = mk.sell_mixed(edition, market, ("fruit", "fish"), "fruit", 2, mk.Bonuses(g11_master=1), True)
    assert bonus.gold == 8
    plain = mk.sell_mixed(edition, market, ("fruit", "fish"), "fruit", 2, mk.Bonuses(g11_master=1), True,
                          with_bonuses=False)
    assert plain.gold == 6


def test_example_7_take_gold() -> None:
    assert mk.take_gold(2) == 3
    assert mk.take_gold(2, 4) == 7
    assert mk.take_gold(5) == 0
    assert mk.take_gold(5, 4) == 4
    assert mk.take_gold(6, 4) == 4
    assert mk.take_gold(6, 4, "nine_minus") == 3
