"""What each building tile scores at game end (spec 7.1-7.4, rulebook L655-L1048).

The tile list itself (names, areas, flat VP, costs) is data (``data.py``); how a tile turns the pieces assigned to
it, the buildings around it or the shipping track into points is a rule written in the rulebook, kept here by tile
id. ``per`` is the points on the base and the upgraded side; ``cap`` how many items (or sets) count at most
(L472: 4 per tile, 8 pieces for the Scrap Dealer).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    """How one tile scores: ``kind`` and its parameters (unused ones stay empty)."""

    kind: str
    per: tuple[int, int] = (0, 0)
    items: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """The items it takes on each side: species, colours, a gem set, a resource."""
    cap: int = 4


def _animals(species: str, per: tuple[int, int]) -> Rule:
    return Rule("animals", per, ((species,), (species,)))


def _gem_set(base: str, upgraded: str) -> Rule:
    return Rule("gem_set", (4, 6), (tuple(base.split()), tuple(upgraded.split())))


def _keyples(colour: str) -> Rule:
    return Rule("keyples", (1, 2), ((colour,), (colour,)))


def _yard(piece: str) -> Rule:
    return Rule("pieces", (1, 2), ((piece,), (piece,)))


def _fields(colour: str, per: tuple[int, int], most: int) -> Rule:
    """Points per field of ``colour`` on the board claimed at the end of winter, for at most ``most`` fields (the
    printed maxima: Farmers Cottage 3/9, Kiln 4/8, Log Cabin 3/9, Mine 4/8, Open Pit 3/9, L934-L1010)."""
    return Rule("fields", per, ((colour,), (colour,)), cap=most)


FLAT = Rule("flat")
_FARMYARD = ("cow", "horse", "pig", "sheep")
_PADDOCK = ("chicken", "deer", "goat", "boar")

RULES: dict[str, Rule] = {
    # 7.1 home farm tiles
    "cow_shed": _animals("cow", (1, 2)), "pig_sty": _animals("pig", (1, 2)),
    "sheep_shelter": _animals("sheep", (1, 2)), "stable": _animals("horse", (1, 2)),
    "farmyard": Rule("distinct", (1, 2), (_FARMYARD, _FARMYARD)),
    "paddock": Rule("distinct", (1, 2), (_PADDOCK, _PADDOCK)),
    # 7.2 home village tiles
    "brickmaker": FLAT, "carpenter": FLAT, "stonemason": FLAT, "scrapyard": FLAT,
    "drainage": Rule("diagonal", (1, 2)), "pavements": Rule("orthogonal", (1, 2)),
    # 7.3 spring country tiles
    "alchemist": FLAT, "barn": Rule("barn", (1, 2)), "boarding_house": Rule("boarding", (2, 2)), "builder": FLAT,
    "building_plot": FLAT, "chicken_house": _animals("chicken", (2, 3)), "dock": Rule("dock", (6, 12)),
    "farm_labourer": FLAT, "gem_dealer": FLAT, "goat_pen": _animals("goat", (2, 3)), "hop_field": FLAT,
    "jewel_cutter": FLAT, "livestock_market": FLAT, "oast_house": Rule("full_area", (4, 8), (("farm",), ("farm",))),
    "seafarer": FLAT, "shipping_agent": FLAT, "statue": Rule("statue", (1, 2)), "thatcher": Rule("thatcher", (1, 1)),
    "trading_post": FLAT, "village_hall": Rule("full_area", (6, 12), (("village",), ("village",))),
    "windmill": Rule("pieces", (0, 2), ((), ("wheat",))),
    # 7.4 the other country tiles
    "boatman": _keyples("blue"), "bracelet_maker": _gem_set("emerald sapphire", "emerald sapphire ruby"),
    "bricklayer": _keyples("orange"), "brickyard": _yard("brick"), "copse": FLAT,
    "emporium": _gem_set("ruby sapphire", "gold sapphire ruby"), "entertainer": Rule("fair_seasons", (1, 2)),
    "farmer": _keyples("green"), "farmers_cottage": _fields("green", (1, 3), 3),
    "game_wardens_cottage": _animals("deer", (2, 3)), "gem_merchant": _gem_set("emerald gold", "emerald gold ruby"),
    "goldsmith": _gem_set("gold sapphire", "emerald gold sapphire"), "hunters_lodge": _animals("boar", (2, 3)),
    "jeweller": _gem_set("emerald ruby", "emerald ruby sapphire"), "key_market": FLAT,
    "kiln": _fields("orange", (2, 4), 2), "log_cabin": _fields("brown", (1, 3), 3), "lumberjack": _keyples("brown"),
    "merchant": FLAT, "mine": _fields("black", (1, 2), 4), "open_pit": _fields("grey", (1, 3), 3),
    "prospector": Rule("pieces", (1, 2), (("emerald", "gold", "ruby", "sapphire"),) * 2),
    "quarryman": _keyples("grey"), "ring_maker": _gem_set("gold ruby", "emerald gold ruby"),
    "scrap_dealer": Rule("scrap", (1, 2), cap=8), "stoneyard": _yard("stone"), "timberyard": _yard("timber"),
}
"""Tile id -> its scoring rule. Tiles whose only points are flat VP (``Tile.vp``) have ``FLAT``."""

SCRAP_PIECES = ("clay", "log", "rock", "brick", "timber", "stone", "wheat", "emerald", "gold", "ruby", "sapphire")
"""What the Scrap Dealer takes: finished goods, gems, raw materials and wheat, never animals (L1034)."""
