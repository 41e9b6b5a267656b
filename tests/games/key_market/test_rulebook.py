"""Rulebook audit (issue 15): rules the German rulebook states that the companion got wrong, each test citing the
rulebook line (``L...`` of the seed text) and the spec rule."""

from __future__ import annotations

from dataclasses import replace

from companion.games.key_market import rules
from companion.games.key_market.data import GOODS
from tests.games.key_market.table import GAME, at_market, give, member, play, started


def test_a_lone_guild_10_player_acting_early_keeps_its_place_on_the_favour_track() -> None:
    """L766-768 (spec 3.8 #3, 4.4 M2): the favour track settles a conflict between two players with guild 10's early
    sale or buy; the higher one acts first and then drops to the bottom. With no other claimant there is no
    conflict, and acting early moves nobody on the track."""
    s = member(started(3), 2, 10, "J")  # seat 3 is on top of the favour track, the only claimant
    assert s.favour == (2, 1, 0)
    s = at_market(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    assert s.stage == "early" and GAME.current_player(s) == 2
    s = play(s, "buy fruit 1", "done")
    assert s.seat(2).guild_action and s.favour == (2, 1, 0) and s.stage == "market"


def test_in_a_conflict_the_higher_acts_first_and_drops_the_lower_stays() -> None:
    """L766-768: "Der Spieler in höherer Position ... darf zuerst kaufen ..., dann rutscht er an das Ende der
    Gunstskala. Anschließend darf der andere Spieler kaufen": the other one keeps its place."""
    s = member(member(started(3), 2, 10, "J"), 0, 10, "J")  # seat 3 on top, seat 1 at the bottom
    s = at_market(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    assert s.early == (2, 0)
    s = play(s, "buy fruit 1", "done")
    assert s.favour == (1, 0, 2) and GAME.current_player(s) == 0
    s = play(s, "buy veg 1", "done")
    assert s.favour == (1, 0, 2) and s.stage == "market"


def test_a_mixed_set_has_at_least_two_different_resources() -> None:
    """L826-828 (spec 4.4 I'): guild 15's set is 2 different resources (apprentice) or up to 3 (journeyman); a
    single good is an ordinary sale, and the check says so instead of letting the move fail when played."""
    s = give(member(started(3), 0, 15, "J"), 0, fruit=1, fish=1, veg=1)
    s = at_market(s, "commit 1 fruit fish veg", "commit 2 fish", "commit 3 fish")
    assert rules.check(s, rules.mv("mixed", "fruit")) is not None
    assert rules.check(s, rules.mv("mixed", "fruit", "fish")) is None
    s = play(s, "mixed fruit fish veg")
    assert s.seat(0).committed[GOODS.index("veg")] == 0


def test_guild_14_journeyman_pays_its_gold_in_winter_too() -> None:
    """L814 (spec 6.2, 9 example 4): guild 14 J's 3 gold in Farming action 3 has no Winter limit; variant
    ``winter_yields`` = marked withholds it."""
    for flag, gold in (("all", 3), ("marked", 0)):
        s = replace(member(started(3, winter_yields=flag), 0, 14, "J"), guilds=(1, 2, 3, 4, 5, 14))
        before = s.seat(0).gold
        s = play(s, "produce")
        assert s.season == "winter" and s.seat(0).gold - before == gold


def worked_in_spring(guild: int, level: str, *fields: str):  # type: ignore[no-untyped-def]
    """Seat 1 in Spring of year 1 (square fruit spoiled, round fruit favoured) with workers 1, 2... on ``fields``
    and a member at ``level`` of ``guild``, to act in Farming."""
    s = member(started(3), 0, guild, level, worker=5)
    workers = list(s.seat(0).workers)
    for i, f in enumerate(fields):
        workers[1 + i] = f"f:{f}"
    return replace(s, season="spring", guilds=tuple(sorted({*s.guilds[:5], guild}))).with_seat(
        0, workers=tuple(workers))


def test_the_player_picks_the_field_of_guild_2s_apprentice() -> None:
    """L680 (spec 6.2): guild 2 A adds 1 to one square field whose seasonal base is 2, the player's choice: with
    square wheat and square vegetables worked, either may get it."""
    s = worked_in_spring(2, "A", "0,1", "2,0")  # square wheat, square vegetables: 2 each in Spring
    produce = [str(m) for m in GAME.legal_moves(s) if m.verb == "produce"]
    assert produce == ["produce", "produce 2a:2,0"]
    before = s.seat(0).goods
    default, other = ([n - b for n, b in zip(play(s, m).seat(0).goods, before)] for m in produce)
    assert (default[GOODS.index("wheat")], default[GOODS.index("veg")]) == (3, 2)
    assert (other[GOODS.index("wheat")], other[GOODS.index("veg")]) == (2, 3)
    assert GAME.validate(s, GAME.parse_move("produce 2a:0,0")) is not None  # no worker there


def test_the_player_picks_the_fields_of_guild_9s_journeyman() -> None:
    """L758 (spec 6.2): guild 9 J adds 1 to two round fields whose seasonal base is 1, the player's choice among
    three; two picks giving the same goods are one choice."""
    s = worked_in_spring(9, "J", "0,2", "2,2", "-3,1")  # round fish, round wheat, round fish
    produce = [str(m) for m in GAME.legal_moves(s) if m.verb == "produce"]
    assert produce == ["produce", "produce 9j:0,2+-3,1"]
    before = s.seat(0).goods
    goods = [n - b for n, b in zip(play(s, "produce 9j:0,2+-3,1").seat(0).goods, before)]
    assert (goods[GOODS.index("fish")], goods[GOODS.index("wheat")]) == (4, 1)
