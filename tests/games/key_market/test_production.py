"""Production by the spec formula (spec 3.4, 6.2), worked example 4 of spec section 9, with the reasons."""

from __future__ import annotations

from companion.core.messages import render
from companion.games.key_market.data import Edition
from companion.games.key_market.production import Harvest, Member, Weather, Worked, produce

SPRING = Weather("spring", square="fish", round="veg")
WINTER = Weather("winter")
FIELDS = (Worked("a", "round", "veg"), Worked("b", "square", "sheep"), Worked("c", "square", "fish"),
          Worked("d", "round", "lux"))
PLENTY = {g: 15 for g in ("fruit", "veg", "wheat", "sheep", "fish", "lux")}
MARKET = {"fruit": 2, "veg": 2, "wheat": 2, "sheep": 2, "fish": 2, "lux": 0}


def harvest(edition: Edition, guilds: dict[int, Member], fields: tuple[Worked, ...] = FIELDS,
            weather: Weather = SPRING, supply: dict[str, int] = PLENTY, **kw: object) -> Harvest:
    return produce(edition, fields, weather, guilds, supply, MARKET, **kw)  # type: ignore[arg-type]


def totals(h: Harvest) -> list[int]:
    return [f.total for f in h.fields]


def test_example_4_base_production(edition: Edition) -> None:
    h = harvest(edition, {})
    assert totals(h) == [3, 2, 0, 1]
    assert h.goods == {"veg": 3, "sheep": 2, "lux": 1}
    assert render(h.fields[0].base.reason, "en") == "round field, the round weather marker shows vegetables: 3"
    assert render(h.fields[2].base.reason, "de") == \
        "quadratisches Feld, der quadratische Jahreszeitenmarker zeigt Fisch: nichts"


def test_example_4_guild_2(edition: Edition) -> None:
    apprentice = harvest(edition, {2: Member("A")})
    assert totals(apprentice) == [3, 3, 0, 1]  # the fish square (base 0) is not eligible
    assert render(apprentice.fields[1].bonuses[0].reason, "en") == "+1 from your apprentice, Drapers' Guild"
    assert totals(harvest(edition, {2: Member("M")})) == [3, 3, 1, 1]


def test_example_4_guild_9(edition: Edition) -> None:
    assert totals(harvest(edition, {9: Member("A")})) == [3, 2, 0, 2]  # the village, not the VEG field (base 3)
    assert totals(harvest(edition, {9: Member("M")})) == [4, 2, 0, 2]


def test_guilds_of_different_kinds_stack(edition: Edition) -> None:
    """L656: abilities of different guilds add up (guild 2 A and guild 8 A on a square wheat field: 2 + 1 + 1)."""
    h = harvest(edition, {2: Member("A"), 8: Member("A", "wheat")}, (Worked("w", "square", "wheat"),))
    assert totals(h) == [4]
    assert len(h.fields[0].bonuses) == 2


def test_example_4_winter_round_sheep(edition: Edition) -> None:
    sheep = (Worked("s", "round", "sheep"),)
    assert totals(harvest(edition, {}, sheep, WINTER)) == [0]
    assert totals(harvest(edition, {1: Member("A", "sheep")}, sheep, WINTER)) == [0]
    assert totals(harvest(edition, {1: Member("J", "sheep")}, sheep, WINTER)) == [1]
    keyworker = harvest(edition, {4: Member("M")}, (Worked("v", "round", "lux", keyworker=True),), WINTER)
    assert keyworker.goods == {"lux": 2}
    g8 = harvest(edition, {8: Member("J", "fruit")}, sheep, WINTER, any_resource="fish")
    assert g8.goods == {"fish": 1}
    g14 = harvest(edition, {14: Member("J")}, sheep, WINTER)  # spec 9 example 4: +3 gold in Winter too
    assert (g14.goods, g14.gold) == ({}, 3)


def test_winter_yields_tied_to_no_field_come_unless_the_marked_variant_is_chosen(edition: Edition) -> None:
    """6.1 (L658, L670, L750): only field bonuses need a field that produces; the texts of guild 13 A, 13 J
    (L804-806) and 14 J (L814) set no Winter limit, and spec example 4 pays guild 14 J's 3 gold in Winter. Variant
    ``winter_yields`` = marked reads the Winter mark (guild 8 J, L748; guild 13 M, L802) as the only way to yield
    in Winter: then 13 A, 13 J and 14 J give nothing."""
    market = {"fruit": 3, "veg": 2, "wheat": 3, "sheep": 0, "fish": 1, "lux": 5}
    for guilds, spring in (({13: Member("A")}, (1, {})), ({14: Member("J")}, (3, {})),
                           ({13: Member("J")}, (0, {"fruit": 1}))):
        got = produce(edition, (), SPRING, guilds, PLENTY, market)
        assert (got.gold, got.goods) == spring
        assert (lambda h: (h.gold, h.goods))(produce(edition, (), WINTER, guilds, PLENTY, market)) == spring
        winter = produce(edition, (), WINTER, guilds, PLENTY, market, options={"winter_yields": "marked"})
        assert (winter.gold, winter.goods, winter.market) == (0, {}, market)
    marked = produce(edition, (), WINTER, {8: Member("J", "fruit"), 13: Member("M")}, PLENTY, market,
                     any_resource="veg", market_pick="fish", options={"winter_yields": "marked"})
    assert marked.goods == {"veg": 1, "fish": 1}  # 8 J and 13 M in Winter; the journeyman pick 13 M keeps does not


def test_guild_1_apprentice_variant_for_the_l656_example(edition: Edition) -> None:
    square_sheep = (Worked("s", "square", "sheep"),)
    both = {1: Member("A", "sheep"), 2: Member("A")}
    assert totals(harvest(edition, both, square_sheep)) == [3]
    assert totals(harvest(edition, both, square_sheep, options={"g1_apprentice_fields": "any_shape"})) == [4]


def test_example_4_shortage_pays_gold(edition: Edition) -> None:
    supply = {**PLENTY, "veg": 1}
    h = harvest(edition, {}, (Worked("a", "round", "veg"),), supply=supply)
    assert (h.goods, h.gold, h.shortage, h.supply["veg"]) == ({"veg": 1}, 2, {"veg": 2}, 0)
    assert render(h.warnings[0], "en") == "the supply is short of 2 vegetables: 1 gold each instead"


def test_guild_13_takes_from_the_market_and_guild_13_apprentice_gives_gold(edition: Edition) -> None:
    market = {"fruit": 3, "veg": 2, "wheat": 3, "sheep": 0, "fish": 1, "lux": 5}
    j = produce(edition, (), SPRING, {13: Member("J")}, PLENTY, market)
    assert (j.goods, j.market["fruit"]) == ({"fruit": 1}, 2)
    m = produce(edition, (), SPRING, {13: Member("M")}, PLENTY, market, market_pick="fish")
    assert m.goods == {"fruit": 1, "fish": 1}  # the '+' of the provisional tile keeps the journeyman's pick
    a = produce(edition, (), SPRING, {13: Member("A")}, PLENTY, market)
    assert (a.gold, a.goods) == (1, {})


def test_picks_choose_the_field_of_a_one_field_ability(edition: Edition) -> None:
    fields = (Worked("w", "square", "wheat"), Worked("s", "square", "sheep"))
    assert totals(harvest(edition, {2: Member("A")}, fields)) == [3, 2]
    assert totals(harvest(edition, {2: Member("A")}, fields, picks={"2A": [1]})) == [2, 3]


def test_guild_9_raised_variant(edition: Edition) -> None:
    """Spec 7.2 #2: with ``raised`` a Winter round field raised to 1 by guild 1 J counts for guild 9 A."""
    sheep = (Worked("s", "round", "sheep"),)
    guilds = {1: Member("J", "sheep"), 9: Member("A")}
    assert totals(harvest(edition, guilds, sheep, WINTER)) == [1]
    assert totals(harvest(edition, guilds, sheep, WINTER, options={"g9_base_one": "raised"})) == [2]
