"""Guild abilities in the engine: guild 10's priority window (L766-768, spec 4.4 M2), guild 15's mixed set (L826-828),
guild 14's apprentice bonus (L816), guild 3's apprentice swap (L690); the year-2 weather stays hidden until its
Season End (L538-550)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.key_market.data import GOODS
from tests.games.key_market.table import GAME, at_market, give, member, play, started


def test_guild_10_priority_window_in_favour_track_order() -> None:
    s = member(member(started(3), 2, 10, "M"), 1, 10, "J")
    assert s.favour == (2, 1, 0)
    s = at_market(give(s, 1, gold=9, fish=1), "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    assert s.stage == "early" and GAME.current_player(s) == 2
    s = play(s, "sell fish 1", "done")  # the master sells first, then drops to the bottom of the track
    assert s.favour == (1, 0, 2) and GAME.current_player(s) == 1
    s = play(s, "buy fruit 1")  # the journeyman's early buy is its guild action
    assert s.seat(1).guild_action
    s = play(s, "done")  # the lower claimant, the last, keeps its place (L766: only the higher one drops)
    assert s.favour == (1, 0, 2) and s.stage == "market" and GAME.current_player(s) == 0


def test_declining_the_window_leaves_the_favour_track() -> None:
    s = at_market(member(started(3), 1, 10, "J"), "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = play(s, "done")
    assert s.favour == (2, 1, 0) and s.stage == "market"


def test_guild_15_mixed_set_once_a_market_day() -> None:
    s = give(member(started(3), 0, 15, "A"), 0, fruit=1, fish=1, veg=1)
    s = at_market(s, "commit 1 fruit fish veg", "commit 2 fish", "commit 3 fish")
    price = 6 - s.market[GOODS.index("fruit")]
    gold = s.seat(0).gold
    assert GAME.validate(s, GAME.parse_move("mixed fruit fish veg")) is not None  # the apprentice: 2 resources
    s = play(s, "mixed fruit fish")
    assert s.seat(0).gold == gold + 2 * price
    s = play(s, "sell fish 1", "sell fish 1")
    assert GAME.validate(s, GAME.parse_move("mixed veg fruit")) is not None


def test_guild_14_apprentice_pays_5_gold_at_once() -> None:
    s = replace(give(started(3), 0, gold=0, fruit=2, veg=1, wheat=1), guilds=(1, 2, 3, 4, 5, 14))
    s = at_market(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = play(s, "apprentice 14 pool veg wheat")
    assert s.seat(0).gold == 5


def test_guild_3_apprentice_swaps_a_resource_for_a_luxury_good() -> None:
    s = give(started(3), 0, fruit=2, veg=1, wheat=1, sheep=1)
    s = at_market(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = play(s, "apprentice 3 pool veg wheat swap:sheep")
    assert s.seat(0).goods[GOODS.index("lux")] == 1 and s.seat(0).goods[GOODS.index("sheep")] == 0


def test_year_two_weather_is_hidden_until_its_season_end() -> None:
    s = started(3)
    assert len(GAME.view(s, None)["weather"]) == 3
    s = at_market(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = play(s, "sell fruit 1", "sell fish 1", "sell fish 1", "gold", "gold", "gold", "pass", "pass", "pass")
    s = play(s, "release", "release", "release")  # end of winter: nothing revealed
    assert s.season == "spring" and len(GAME.view(s, None)["weather"]) == 3


def with_market(s, **rows: int):  # type: ignore[no-untyped-def]
    """The market rows set (the supply gives or takes the difference, so goods stay conserved)."""
    market = tuple(rows.get(g, n) for g, n in zip(GOODS, s.market))
    supply = tuple(have + old - new for have, old, new in zip(s.supply, s.market, market))
    return replace(s, market=market, supply=supply)


def words(s, move: str) -> str:  # type: ignore[no-untyped-def]
    from companion.core.messages import render
    return render(GAME.move_text(s, GAME.parse_move(move)), "en")


def test_a_purchase_shows_and_costs_its_gold_with_guild_11_apprentice() -> None:
    """4.4-D (L479-485, L786), spec example 3: FRUIT at n = 3 costs 3 each; guild 11 A takes 1 off each, at least 1."""
    s = replace(give(started(3), 0, gold=10, fruit=1), guilds=(1, 2, 3, 4, 5, 11))
    s = at_market(with_market(s, fruit=3, fish=5), "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    assert words(s, "buy fruit 2") == "buy 2 fruit for 6 gold"
    s11 = member(s, 0, 11, "A")
    assert words(s11, "buy fruit 2") == "buy 2 fruit for 4 gold"
    assert words(s11, "buy fish 1") == "buy 1 fish for 1 gold"  # price 1: max(1, 1 - 1)
    after = play(s11, "buy fruit 2")
    assert after.seat(0).gold == 6 and after.market[GOODS.index("fruit")] == 1


def test_guild_10_journeyman_buys_a_mixed_set_first_with_guild_15_master_and_guild_11() -> None:
    """4.4 M2 (L766-768): guild 10 J's early buy combines with guild 15 M (L824): FRUIT (n 3), SHEEP (n 2) and FISH
    (n 5) for 3 + 4 + 1 = 8 (spec example 3), with guild 11 A 2 + 3 + 1 = 6 (L786); it is the guild action."""
    s = replace(give(started(3), 0, gold=20, fruit=1), guilds=(1, 2, 10, 11, 15, 5))
    s = member(member(s, 0, 10, "J"), 0, 15, "M", worker=3)
    s = at_market(with_market(s, fruit=3, veg=0, wheat=0, sheep=2, fish=5), "commit 1 fruit", "commit 2 fish",
                  "commit 3 fish")
    assert s.stage == "early" and GAME.current_player(s) == 0
    assert "buy fruit sheep fish" in map(str, GAME.legal_moves(s))
    assert words(s, "buy fruit sheep fish").endswith("for 8 gold")
    s11 = member(s, 0, 11, "A", worker=4)
    assert words(s11, "buy fruit sheep fish").endswith("for 6 gold")
    after = play(s11, "buy fruit sheep fish")
    assert after.seat(0).gold == 14 and after.seat(0).guild_action
    assert [after.market[GOODS.index(g)] for g in ("fruit", "sheep", "fish")] == [2, 1, 4]
    assert GAME.validate(after, GAME.parse_move("buy veg 1")) is not None  # no second guild action
    assert GAME.validate(after, GAME.parse_move("mixed fruit fish")) is not None  # no sale in the journeyman's window


def test_a_mixed_set_shows_its_gold_with_guild_10_apprentice_and_guild_11_master() -> None:
    """Spec example 9 (L826): FRUIT 3, SHEEP 4, FISH 2, SHEEP placed: 3 x 4 = 12; guild 11 M +1 a good (L782) and guild
    10 A +1 on the first sale (L776) apply to it by default (spec 7.2 #16): 3 x 6 = 18."""
    base = replace(give(started(3), 0, fruit=1, sheep=1, fish=1), guilds=(1, 2, 10, 11, 15, 5))
    base = with_market(base, fruit=3, sheep=2, fish=4)
    plain = at_market(member(base, 0, 15, "J"), "commit 1 fruit sheep fish", "commit 2 fish", "commit 3 fish")
    assert words(plain, "mixed sheep fruit fish") == \
        "sell the mixed set 1 fruit, 1 sheep, 1 fish, placing sheep on the market, for 12 gold"
    s = member(member(member(base, 0, 15, "J"), 0, 10, "A", worker=3), 0, 11, "M", worker=4)
    s = at_market(s, "commit 1 fruit sheep fish", "commit 2 fish", "commit 3 fish")
    assert words(s, "mixed sheep fruit fish").endswith("for 18 gold")
    gold = s.seat(0).gold
    assert play(s, "mixed sheep fruit fish").seat(0).gold == gold + 18
