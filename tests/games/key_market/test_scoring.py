"""Final scoring (spec 5): the best split of goods into sets and pairs, item by item; worked example 10; the split
checked against an exhaustive search on 300 seeded random holdings."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from companion.games.key_market.data import Edition
from companion.games.key_market.production import Member
from companion.games.key_market.scoring import GoodsRules, Holdings, best_split, rank, score_row

ORDER = ("fruit", "veg", "wheat", "sheep", "fish", "lux")


def goods(**counts: int) -> dict[str, int]:
    return {g: counts.get(g, 0) for g in ORDER}


def brute_force(counts: dict[str, int], rules: GoodsRules) -> int:
    """Every way to take goods away one scoring unit at a time: a 5-set, a pair, one animal, one unscored good."""
    pair = 5 + rules.pair_bonus

    @lru_cache(maxsize=None)
    def best(state: tuple[int, ...]) -> int:
        options = [0]
        if rules.set_vp and min(state[:5]) > 0:
            options.append(rules.set_vp + best(tuple(n - 1 if i < 5 else n for i, n in enumerate(state))))
        for i, n in enumerate(state):
            less = tuple(v - (1 if j == i else 0) for j, v in enumerate(state))
            if n >= 2:
                options.append(pair + best(tuple(v - (2 if j == i else 0) for j, v in enumerate(state))))
            if n >= 1 and ORDER[i] == rules.animal:
                options.append(rules.animal_vp + best(less))
            if n >= 1:
                options.append(best(less))
        return max(options)

    return best(tuple(counts[g] for g in ORDER))


def test_example_10a_sets_against_pairs(edition: Edition) -> None:
    held = goods(fruit=3, veg=2, wheat=1, sheep=1, fish=1, lux=2)
    assert best_split(held, GoodsRules())[0] == 15
    total, items = best_split(held, GoodsRules(set_vp=25))
    assert total == 35
    assert [(i.kind, i.what, i.count, i.vp) for i in items] == [
        ("set", "resources", 1, 25), ("pair", "fruit", 1, 5), ("pair", "lux", 1, 5)]
    row = score_row(edition, Holdings("A", True, 2, 17, held, {5: Member("M")}))
    assert row["total"] == 97 + edition.guild_tiles[5].vp["M"]
    assert (row["manor"], row["retired"], row["gold"], row["pairs"], row["master_abilities"]) == (15, 30, 17, 10, 25)


def test_example_10b_animals_and_wheelwrights(edition: Edition) -> None:
    held = goods(sheep=3, fish=2, fruit=5, lux=1)
    rules = GoodsRules(pair_bonus=3, animal="sheep", animal_vp=5)
    total, items = best_split(held, rules)
    assert total == 39
    assert ("animal", "sheep", 3, 15) in [(i.kind, i.what, i.count, i.vp) for i in items]
    row = score_row(edition, Holdings("B", False, 0, 0, held, {1: Member("M", "sheep"), 6: Member("M")}))
    assert row["pairs"] + row["master_abilities"] == 39


def test_example_10c_the_most_sets_is_not_always_best() -> None:
    held = goods(fruit=2, veg=2, wheat=2, sheep=2, fish=1)
    assert best_split(held, GoodsRules(set_vp=25, pair_bonus=3))[0] == 32
    assert best_split(held, GoodsRules(set_vp=25))[0] == 25
    assert best_split(goods(fruit=2, veg=2, wheat=2, sheep=2, fish=2), GoodsRules(set_vp=25))[0] == 50


def test_example_10d_guild_7_master(edition: Edition) -> None:
    guilds = {7: Member("M"), 2: Member("A"), 3: Member("A"), 4: Member("J"), 5: Member("M")}
    row = score_row(edition, Holdings("D", False, 0, 0, goods(), guilds))
    assert sum(i["vp"] for i in row["items"] if i["kind"] == "g7_master") == 20
    assert row["guild_members"] == sum(edition.guild_tiles[g].vp[m.level] for g, m in guilds.items())


def test_example_10e_ties() -> None:
    rows = [{"total": 50}, {"total": 50}, {"total": 40}]
    rank(rows, (1, 0, 2))  # favour track: seat 1 above seat 0
    assert [r["rank"] for r in rows] == [2, 1, 3]
    rank(rows, None)
    assert [r["rank"] for r in rows] == [1, 1, 3]


@pytest.mark.parametrize("seed", range(300))
def test_the_split_matches_an_exhaustive_search(seed: int) -> None:
    rng = random.Random(seed)
    held = {g: rng.randint(0, 4) for g in ORDER}
    rules = GoodsRules(set_vp=rng.choice((0, 25)), pair_bonus=rng.choice((0, 3)),
                       animal=rng.choice((None, "sheep", "fish")), animal_vp=5)
    if rules.animal is None:
        rules = GoodsRules(rules.set_vp, rules.pair_bonus)
    total, items = best_split(held, rules)
    assert total == brute_force(held, rules)
    assert total == sum(i.vp for i in items)
    used = {g: 0 for g in ORDER}
    for i in items:
        if i.kind == "set":
            for g in ORDER[:5]:
                used[g] += i.count
        elif i.kind == "pair":
            used[i.what] += 2 * i.count
        elif i.kind == "animal":
            used[i.what] += i.count
    assert all(used[g] <= held[g] for g in ORDER)  # no good scored twice
