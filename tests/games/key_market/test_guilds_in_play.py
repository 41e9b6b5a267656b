"""Guild abilities in the engine: guild 10's priority window (L766-768, spec 4.4 M2), guild 15's mixed set (L826-828),
guild 14's apprentice bonus (L816), guild 3's apprentice swap (L690); the year-2 weather stays hidden until its
Season End (L538-550)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.key_market.data import GOODS
from tests.games.key_market.table import GAME, give, member, play, started


def at_market(s, *commits: str):  # type: ignore[no-untyped-def]
    for _ in range(s.n):
        s = play(s, "done")
    s = play(s, *commits)
    return GAME.apply(s, GAME.legal_moves(s)[0])


def test_guild_10_priority_window_in_favour_track_order() -> None:
    s = member(member(started(3), 2, 10, "M"), 1, 10, "J")
    assert s.favour == (2, 1, 0)
    s = at_market(give(s, 1, gold=9, fish=1), "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    assert s.stage == "early" and GAME.current_player(s) == 2
    s = play(s, "sell fish 1", "done")  # the master sells first, then drops to the bottom of the track
    assert s.favour == (1, 0, 2) and GAME.current_player(s) == 1
    s = play(s, "buy fruit 1")  # the journeyman's early buy is its guild action
    assert s.seat(1).guild_action
    s = play(s, "done")
    assert s.favour == (0, 2, 1) and s.stage == "market" and GAME.current_player(s) == 0


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
