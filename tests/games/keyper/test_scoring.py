"""Keyper's final score by best assignment (spec 5.1-5.3, 7; worked examples Ex 8, Ex 10, Ex 11), checked against a
brute-force search over every assignment on random small boards."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from companion.games.keyper.data import ANIMALS, GEMS, KEYPLE_COLOURS, load_edition
from companion.games.keyper.scoring import Built, Holdings, rank, score_player
from companion.games.keyper.tiles import RULES, SCRAP_PIECES

EDITION = load_edition()

EX8_FARM = [("cow_shed", True), ("pig_sty", False), ("farmyard", True), ("paddock", False),
            ("sheep_shelter", False), ("stable", False), ("barn", False)]
EX8_VILLAGE = [("brickmaker", True), ("carpenter", False), ("stonemason", False), ("scrapyard", False),
               ("thatcher", False), ("goldsmith", True), ("prospector", False), ("dock", False)]


def board(farm: Sequence[tuple[str, bool]] = (), village: Sequence[tuple[str, bool]] = ()) -> tuple[Built, ...]:
    """Tiles on plots F1, F2, ... and V1, V2, ... in order."""
    return (*(Built(t, "farm", i + 1, up) for i, (t, up) in enumerate(farm)),
            *(Built(t, "village", i + 1, up) for i, (t, up) in enumerate(village)))


def holdings(built: tuple[Built, ...], goods: Mapping[str, int] | None = None, animals: Mapping[str, int] | None = None,
             keyples: Mapping[str, int] | None = None, shipping: int = 0, fair_vp: int = 0, name: str = "A") -> Holdings:
    return Holdings(name, built, goods or {}, animals or {}, keyples or {}, shipping, fair_vp, 1 if fair_vp else 0)


def tile_row(row: dict[str, Any], tile: str) -> dict[str, Any]:
    found: dict[str, Any] = next(t for t in row["tiles"] if t["tile"] == tile)
    return found


def ex8(dock_upgraded: bool = False) -> Holdings:
    village = [(t, dock_upgraded if t == "dock" else up) for t, up in EX8_VILLAGE]
    return holdings(board(EX8_FARM, village), goods={"emerald": 5, "gold": 4, "sapphire": 3, "ruby": 2},
                    animals={"cow": 5, "pig": 4, "horse": 1, "sheep": 1, "goat": 1, "chicken": 1},
                    shipping=23, fair_vp=6)


def test_ex8_single_player_final_score_moves_the_animals_and_gems_to_their_best_tiles() -> None:
    """Ex 8 (5.2, L460-L472): 28 farm + 37 village + 23 shipping + 6 fair = 94, not the 25 farm points of the
    animals where they stand."""
    row = score_player(EDITION, ex8())
    assert (row["farm"], row["village"], row["shipping"], row["fairs"], row["total"]) == (28, 37, 23, 6, 94)
    assert tile_row(row, "cow_shed") == {"tile": "cow_shed", "plot": "F1", "side": "upgraded", "points": 8,
                                         "assigned": {"cow": 4}}
    assert tile_row(row, "farmyard")["assigned"] == {"cow": 1, "horse": 1, "pig": 1, "sheep": 1}
    assert tile_row(row, "pig_sty")["assigned"] == {"pig": 3}
    assert tile_row(row, "goldsmith") == {"tile": "goldsmith", "plot": "V6", "side": "upgraded", "points": 18,
                                          "assigned": {"emerald": 3, "gold": 3, "sapphire": 3}}
    assert tile_row(row, "prospector")["points"] == 4 and sum(tile_row(row, "prospector")["assigned"].values()) == 4
    assert tile_row(row, "thatcher")["points"] == 4 and tile_row(row, "barn")["points"] == 7
    assert row["unassigned"] == {"ruby": 1}


def test_ex8_variant_an_upgraded_dock_below_30_scores_nothing() -> None:
    """Ex 8 variant (7.3 Dock, L782): Dock U with track 23 gives 0, not 6: 88."""
    row = score_player(EDITION, ex8(dock_upgraded=True))
    assert tile_row(row, "dock")["points"] == 0 and row["total"] == 88


def test_ex10_a_base_paddock_scores_distinct_species() -> None:
    """Ex 10 (7.1 Paddock): 1 goat, 1 boar and 2 deer score 3 (three species), more than 3 deer and 1 goat."""
    row = score_player(EDITION, holdings(board([("paddock", False)]), animals={"deer": 3, "goat": 1, "boar": 1}))
    assert tile_row(row, "paddock")["points"] == 3
    assert set(tile_row(row, "paddock")["assigned"]) == {"deer", "goat", "boar"}


def two_tied() -> tuple[list[dict[str, Any]], list[Holdings]]:
    a = holdings((), goods={"emerald": 7, "brick": 1}, shipping=91, name="A")
    b = holdings((), goods={"emerald": 4, "brick": 3}, shipping=91, name="B")
    return [score_player(EDITION, h) for h in (a, b)], [a, b]


@pytest.mark.parametrize(("mode", "winner"), [("printed", "A"), ("yucata", "B"), ("yucata_gems_first", "A")])
def test_ex11_tie_break_modes(mode: str, winner: str) -> None:
    """Ex 11 (5.3, 6 item 4, A3): 91 each; A has more gems, B more finished goods."""
    rows, held = two_tied()
    rank(rows, held, mode)
    assert [r["name"] for r in rows if r["winner"]] == [winner]


def test_ex11_second_case_deer_decide_in_printed_mode_and_yucata_ties() -> None:
    """Ex 11, second case: deer are compared before the other animals, goats never (5.3); Yucata: a full tie."""
    a = holdings((), goods={"brick": 1}, animals={"deer": 2}, shipping=10, name="A")
    b = holdings((), goods={"brick": 1}, animals={"deer": 1, "goat": 5}, shipping=10, name="B")
    rows = [score_player(EDITION, h) for h in (a, b)]
    rank(rows, [a, b], "printed")
    assert [r["rank"] for r in rows] == [1, 2]
    rank(rows, [a, b], "yucata")
    assert [r["rank"] for r in rows] == [1, 1] and all(r["winner"] for r in rows)


def test_the_scrap_dealer_may_beat_a_yard_for_a_pair() -> None:
    """5.2: one brick and one clay score 2 on an upgraded Scrap Dealer (a pair), more than 1 on a base Brickyard."""
    row = score_player(EDITION, holdings(board(village=[("brickyard", False), ("scrap_dealer", True)]),
                                         goods={"brick": 1, "clay": 1}))
    assert tile_row(row, "scrap_dealer")["assigned"] == {"brick": 1, "clay": 1} and row["total"] == 2


def test_white_keyples_go_where_a_keyple_is_worth_most() -> None:
    """L884: whites count as any colour, each for one tile; 4 at most per tile."""
    row = score_player(EDITION, holdings(board(village=[("boatman", False), ("bricklayer", True)]),
                                         keyples={"blue": 1, "orange": 2, "white": 3}))
    assert tile_row(row, "bricklayer")["assigned"] == {"orange": 2, "white": 2}
    assert tile_row(row, "boatman")["assigned"] == {"blue": 1, "white": 1}
    assert row["total"] == 2 * 4 + 2


def test_drainage_and_pavements_count_village_tiles_along_their_lines() -> None:
    """7.2, A5: on a full 3x4 village the Drainage at V6 sees 4 diagonal tiles (5 points), the Pavements at V7
    sees 5 in its row and column (6); upgraded, twice that. Farm tiles never count."""
    village = [("brickmaker", False), ("carpenter", False), ("stonemason", False), ("scrapyard", False),
               ("alchemist", False), ("drainage", False), ("pavements", False), ("builder", False),
               ("dock", False), ("statue", False), ("thatcher", False), ("village_hall", False)]
    row = score_player(EDITION, holdings(board(village=village)))
    assert tile_row(row, "drainage")["points"] == 5 and tile_row(row, "pavements")["points"] == 6
    assert tile_row(row, "statue")["points"] == 6 and tile_row(row, "thatcher")["points"] == 6
    assert tile_row(row, "village_hall")["points"] == 6
    upgraded = [(t, t in ("drainage", "pavements")) for t, _ in village]
    row = score_player(EDITION, holdings(board(village=upgraded)))
    assert tile_row(row, "drainage")["points"] == 10 and tile_row(row, "pavements")["points"] == 12
    alone = score_player(EDITION, holdings(board(farm=[("cow_shed", False)], village=[("drainage", False)])))
    assert tile_row(alone, "drainage")["points"] == 1


# ------------------------------------------------------------------ brute force

TAKERS = sorted(t for t, r in RULES.items() if r.kind in ("animals", "distinct", "keyples", "gem_set", "pieces", "scrap"))


def accepts(built: Built, item: str) -> bool:
    rule = RULES[built.tile]
    items = rule.items[built.side]
    if rule.kind == "scrap":
        return item in SCRAP_PIECES
    if rule.kind == "keyples":
        return item == f"keyple_{items[0]}" or item == "keyple_white"
    return item in items


def tile_value(built: Built, got: Mapping[str, int]) -> int | None:
    """The tile's points for what it holds; ``None`` if it holds too much."""
    rule = RULES[built.tile]
    per, n = rule.per[built.side], sum(got.values())
    if rule.kind == "gem_set":
        sets = min(got.get(g, 0) for g in rule.items[built.side])
        return per * min(sets, 4)
    if n > rule.cap:
        return None
    if rule.kind == "distinct":
        return per * sum(1 for v in got.values() if v)
    if rule.kind == "scrap":
        return per * (n // 2)
    return per * n


def splits(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to share ``n`` alike pieces among ``parts`` places and the supply (the last part)."""
    for cut in itertools.product(range(n + 1), repeat=parts):
        if sum(cut) <= n:
            yield cut


def brute_force(built: Sequence[Built], items: Mapping[str, int]) -> int:
    """The best points over every assignment of every piece to a tile that accepts it (or to none)."""
    kinds = [k for k, n in items.items() if n]
    options = []
    for kind in kinds:
        places = [b for b in built if accepts(b, kind)]
        options.append([(places, cut) for cut in splits(items[kind], len(places))] if places else [([], ())])
    best = 0
    for choice in itertools.product(*options):
        held: dict[int, dict[str, int]] = {i: {} for i in range(len(built))}
        for kind, (places, cut) in zip(kinds, choice):
            for place, n in zip(places, cut):
                if n:
                    held[built.index(place)][kind] = n
        values = [tile_value(b, held[i]) for i, b in enumerate(built)]
        if all(v is not None for v in values):
            best = max(best, sum(v for v in values if v is not None))
    return best


def random_position(rng: random.Random) -> tuple[tuple[Built, ...], dict[str, int]]:
    tiles = rng.sample(TAKERS, rng.randint(1, 4))
    farm = [t for t in tiles if EDITION.tiles[t].area == "farm"]
    village = [t for t in tiles if EDITION.tiles[t].area == "village"]
    built = board([(t, rng.random() < 0.5) for t in farm], [(t, rng.random() < 0.5) for t in village])
    pool = [i for b in built for i in (*GEMS, *SCRAP_PIECES, *ANIMALS, *(f"keyple_{c}" for c in KEYPLE_COLOURS))
            if accepts(b, i)] + ["clay", "cow", "keyple_white"]
    items: dict[str, int] = {}
    for _ in range(rng.randint(0, 7)):
        kind = rng.choice(pool)
        items[kind] = items.get(kind, 0) + 1
    return built, items


def test_best_assignment_equals_a_brute_force_search_on_200_random_small_boards() -> None:
    """5.2: the assignment is optimal (every assignment of every piece tried on 200 seeded random positions)."""
    rng = random.Random("keyper-brute-force")
    for _ in range(200):
        built, items = random_position(rng)
        goods = {k: v for k, v in items.items() if k in SCRAP_PIECES}
        animals = {k: v for k, v in items.items() if k in ANIMALS}
        keyples = {k.removeprefix("keyple_"): v for k, v in items.items() if k.startswith("keyple_")}
        row = score_player(EDITION, holdings(built, goods, animals, keyples))
        flat = sum(EDITION.tiles[b.tile].vp[b.side] for b in built)
        assert row["total"] - flat == brute_force(built, items), (built, items, row)
        for t in row["tiles"]:  # the assignment shown adds up to the points shown
            b = next(x for x in built if x.tile == t["tile"])
            value = tile_value(b, {(f"keyple_{k}" if RULES[b.tile].kind == "keyples" else k): v
                                   for k, v in t["assigned"].items()})
            assert value == t["points"] - EDITION.tiles[b.tile].vp[b.side], t


GOODS_TAKERS = sorted(t for t, r in RULES.items() if r.kind in ("gem_set", "pieces", "scrap"))


def test_gems_and_goods_match_a_brute_force_search_on_150_random_boards() -> None:
    """5.2: gem sets against the Prospector, the yards, the Windmill and the Scrap Dealer (150 seeded positions of
    2-3 such tiles and up to 7 pieces)."""
    rng = random.Random("keyper-goods")
    for _ in range(150):
        tiles = rng.sample(GOODS_TAKERS, rng.randint(2, 3))
        built = board(village=[(t, rng.random() < 0.5) for t in tiles])
        pool = [i for b in built for i in SCRAP_PIECES if accepts(b, i)]
        items: dict[str, int] = {}
        for _ in range(rng.randint(2, 7)):
            kind = rng.choice(pool)
            items[kind] = items.get(kind, 0) + 1
        row = score_player(EDITION, holdings(built, goods=items))
        flat = sum(EDITION.tiles[b.tile].vp[b.side] for b in built)
        assert row["total"] - flat == brute_force(built, items), (built, items, row)


def test_line_counting_and_the_statue_cap_are_variant_flags() -> None:
    """A5: adjacent counting gives the Pavements at V7 its 4 neighbours only (5, not 6); A6: with ``twelve`` the
    Statue counts all 12 village buildings."""
    village = [(t, False) for t in ("brickmaker", "carpenter", "stonemason", "scrapyard", "alchemist", "drainage",
                                    "pavements", "builder", "dock", "statue", "thatcher", "village_hall")]
    h = holdings(board(village=village))
    adjacent = score_player(EDITION, h, {"line_counting": "adjacent", "statue_cap": "twelve"})
    assert tile_row(adjacent, "pavements")["points"] == 5 and tile_row(adjacent, "drainage")["points"] == 5
    assert tile_row(adjacent, "statue")["points"] == 12


def test_the_final_screen_is_told_which_tie_breaker_decided_each_tie_and_the_counts() -> None:
    """Spec 5.3 (printed order): equal totals are told apart by gems first, then finished goods...; equal all
    through, the players share the place and no tie-breaker is named."""
    from companion.games.keyper.scoring import ties

    held = [Holdings("Ann", (), {"ruby": 1, "brick": 2}, {}, {}, 0), Holdings("Bo", (), {"emerald": 1, "brick": 3}, {}, {}, 0),
            Holdings("Cy", (), {"ruby": 1, "brick": 2}, {}, {}, 0), Holdings("Di", (), {"gold": 2}, {}, {}, 0)]
    rows: list[dict[str, Any]] = [{"total": 10}, {"total": 10}, {"total": 7}, {"total": 7}]
    rank(rows, held, "printed")
    assert ties(rows, held, "printed") == [
        {"points": 10, "seats": [1, 0], "decided_by": "finished", "counts": [3, 2]},  # 1 gem each: finished goods
        {"points": 7, "seats": [3, 2], "decided_by": "gems", "counts": [2, 1]},
    ]
    same = [held[0], held[2], held[2]]
    rows = [{"total": 5}, {"total": 5}, {"total": 5}]
    rank(rows, same, "printed")
    assert [row["rank"] for row in rows] == [1, 1, 1]
    assert ties(rows, same, "printed") == [{"points": 5, "seats": [0, 1, 2], "decided_by": None, "counts": []}]
