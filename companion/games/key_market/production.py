"""Production (spec 3.4, F3): each worked field's seasonal base from its shape, the season and the weather, the guild
bonuses that apply to it (guilds 1, 2, 4, 8, 9), the yields tied to no field (guilds 8 J, 13, 14 J) and the supply
running short (1 gold per missing good, L321). Every amount carries its reason as a message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.core.messages import Message, msg
from companion.games.key_market.data import LUX, RESOURCES, Edition
from companion.games.key_market.market import Market, cheapest_resource, take_from_market


@dataclass(frozen=True, slots=True)
class Worked:
    """A field with one of the player's workers on it: a label for the table, its shape and good (lux: a
    village), whether the worker is the keyworker."""

    label: str
    shape: str
    good: str
    keyworker: bool = False


@dataclass(frozen=True, slots=True)
class Weather:
    """The season and the goods its face-up markers show (Winter has none)."""

    season: str
    square: str | None = None
    round: str | None = None


@dataclass(frozen=True, slots=True)
class Member:
    """A player's worker in a guild: its level and, in guilds 1 and 8, its column's sort."""

    level: str
    column: str | None = None


@dataclass(frozen=True, slots=True)
class Amount:
    """Goods (or gold) and why: a seasonal base (``why`` = ``base.<kind>``, ``good`` for a weather marker) or a guild
    bonus (``guild`` and ``level``). ``reason`` is the message the table reads, made when read (production runs in
    every move of a playout, its words only on screens)."""

    amount: int
    why: str = "bonus"
    good: str = ""
    guild: int = 0
    level: str = ""

    @property
    def reason(self) -> Message:
        if self.guild:
            return _reason(self.guild, self.level, self.amount)
        if self.good:
            return msg(f"km.reason.{self.why}", good=msg(f"km.good.{self.good}"))
        return msg(f"km.reason.{self.why}")


@dataclass(frozen=True, slots=True)
class FieldYield:
    """One worked field: the good it gives, its seasonal base and each bonus with its reason."""

    label: str
    good: str
    base: Amount
    bonuses: tuple[Amount, ...]

    @property
    def total(self) -> int:
        return self.base.amount + sum(b.amount for b in self.bonuses)


@dataclass(frozen=True, slots=True)
class Extra:
    """A yield tied to no field, from guild ``guild``'s ``level``: a good (from the supply or the market) or gold
    (``good`` is ``"gold"``); ``reason`` is made when read."""

    good: str
    amount: int
    guild: int
    level: str
    from_market: bool = False

    @property
    def reason(self) -> Message:
        return _reason(self.guild, self.level, self.amount)


@dataclass(frozen=True)
class Harvest:
    """One player's production: per field and the extras, the goods received, the gold (yields and shortages),
    the shortages per good, and the supply and market after."""

    fields: tuple[FieldYield, ...]
    extras: tuple[Extra, ...]
    goods: dict[str, int]
    gold: int
    shortage: dict[str, int]
    supply: dict[str, int]
    market: dict[str, int]
    warnings: tuple[Message, ...] = field(default=())
    choices: tuple[tuple[str, tuple[int, ...], int], ...] = field(default=())
    """Each "one/two/three fields" ability with more eligible fields than it reaches: its key (``"2J"``), the
    eligible fields (indices in ``worked``) and how many it reaches; the player picks which (L678-680, L756-760)."""


F3_GOLD = frozenset({(13, "A"), (14, "J")})
"""The abilities that give gold in F3 (L806, L814)."""


def seasonal_base(edition: Edition, cell: Worked, weather: Weather, weather_shape: str = "same_shape") -> Amount:
    """Spec 3.4: 0 in Winter; a square field 2, or 0 if the square marker shows its good; a round field (the village
    too) 1, or 3 if the round marker shows its good. ``weather_shape`` ``all_fields`` (spec 7.2 #13): each marker
    affects every field of its good."""
    sb = edition.season_board
    if weather.season == "winter":
        return Amount(sb.winter, "base.winter")
    any_shape = weather_shape == "all_fields"
    if cell.good == weather.square and (cell.shape == "square" or any_shape):
        return Amount(sb.square_marker, "base.square_marker", cell.good)
    if cell.good == weather.round and (cell.shape == "round" or any_shape):
        return Amount(sb.round_marker, "base.round_marker", cell.good)
    if cell.good == LUX:
        return Amount(sb.village, "base.village")
    return Amount(sb.square if cell.shape == "square" else sb.round, f"base.{cell.shape}")


def active(edition: Edition, guilds: Mapping[int, Member]) -> set[tuple[int, str]]:
    """Every (guild, level) ability the player has: each member's level and the lower ones its '+' keeps."""
    return {(g, lv) for g, m in guilds.items() for lv in edition.guild_tiles[g].active_levels(m.level)}


def _reason(guild: int, level: str, amount: int) -> Message:
    return msg("km.reason.bonus", n=amount, guild=msg(f"km.guild.{guild}"), level=msg(f"km.level.{level}"))


def produce(edition: Edition, worked: Sequence[Worked], weather: Weather, guilds: Mapping[int, Member],
            supply: Mapping[str, int], market: Market, options: Mapping[str, str] | None = None,
            picks: Mapping[str, Sequence[int]] | None = None, any_resource: str | None = None,
            market_pick: str | None = None, have: Sequence[tuple[int, str]] | None = None) -> Harvest:
    """One player's F3 (spec 3.4, 6.2). ``picks`` chooses the fields of the "one/two/three fields" abilities by
    index in ``worked`` (key ``"<guild><level>"``, e.g. ``"2J"``; default: the first eligible ones, all are +1);
    ``any_resource`` is guild 8 J's choice and ``market_pick`` guild 13 M's (defaults: the sort the supply holds
    most of, the cheapest). Every ability is used (all are optional, L654: a player declines by leaving it out).
    In Winter the yields tied to no field (guilds 8 J, 13, 14 J) all come, as the spec reads it (6.1 bars only field
    bonuses, example 4 pays guild 14 J's 3 gold in Winter), or (variant ``winter_yields`` = marked, L658) only those
    the rulebook marks for Winter. ``have``: ``active`` sorted, if the caller remembers it."""
    opts = options or {}
    covered = int(opts.get("covered_sell_price", "1"))
    if have is None:
        have = sorted(active(edition, guilds))
    bases = [seasonal_base(edition, w, weather, opts.get("weather_shape", "same_shape")) for w in worked]
    bonus: list[list[Amount]] = [[] for _ in worked]
    totals = [b.amount for b in bases]  # each field's yield so far
    winter = weather.season == "winter"

    def producing(i: int, guild: int, level: str) -> bool:
        """A field bonus without the Winter mark needs a field that produces (spec 6.1)."""
        return edition.abilities[(guild, level)].winter or bases[i].amount > 0

    choices: list[tuple[str, tuple[int, ...], int]] = []

    def grant(guild: int, level: str, eligible: list[int], limit: int | None) -> None:
        key = f"{guild}{level}"
        if limit is not None and len(eligible) > limit:
            choices.append((key, tuple(eligible), limit))
        chosen = [i for i in (picks or {}).get(key, eligible) if i in eligible] if picks and key in picks else eligible
        amount = edition.value(guild, level, "bonus", 1)
        for i in chosen[:limit] if limit is not None else chosen:
            bonus[i].append(Amount(amount, guild=guild, level=level))
            totals[i] += amount

    indices = range(len(worked))
    for guild, level in have:
        values = edition.abilities[(guild, level)].values
        column = guilds[guild].column
        fields_limit = values.get("fields")
        if guild == 1 and level in ("A", "J") and column is not None:
            any_shape = level == "A" and opts.get("g1_apprentice_fields") == "any_shape"
            ok = [i for i in indices if worked[i].good == column and (worked[i].shape == "round" or any_shape)
                  and producing(i, guild, level)]
            grant(guild, level, ok, fields_limit if level == "A" else None)
        elif guild == 2:
            ok = [i for i in indices if worked[i].shape == "square" and producing(i, guild, level)
                  and ("base" not in values or bases[i].amount == values["base"])]
            grant(guild, level, ok, fields_limit)
        elif guild == 4 and level == "M":
            grant(guild, level, [i for i in indices if worked[i].keyworker and producing(i, guild, level)], None)
        elif guild == 8 and level in ("A", "M") and column is not None:
            ok = [i for i in indices if worked[i].good == column and producing(i, guild, level)]
            grant(guild, level, ok, fields_limit if level == "A" else None)
    for guild, level in have:  # guild 9 last: variant ``raised`` counts the other bonuses (spec 7.2 #2)
        if guild != 9:
            continue
        values = edition.abilities[(guild, level)].values
        raised = opts.get("g9_base_one") == "raised"
        ok = [i for i in indices if worked[i].shape == "round" and (
            "base" not in values or (totals[i] if raised else bases[i].amount) == values["base"])
            and (raised or producing(i, guild, level))]
        grant(guild, level, ok, values.get("fields"))
    fields = tuple(FieldYield(w.label, w.good, bases[i], tuple(bonus[i])) for i, w in enumerate(worked))

    wanted: dict[str, int] = {}
    for i, w in enumerate(worked):
        wanted[w.good] = wanted.get(w.good, 0) + totals[i]
    extras: list[Extra] = []
    after_market = dict(market)
    warnings: list[Message] = []
    for guild, level in have:
        ability = edition.abilities[(guild, level)]
        values = ability.values
        if winter and not ability.winter and opts.get("winter_yields", "all") == "marked":
            continue  # a yield without the Winter mark gives nothing in Winter (L658, L746-748, L806)
        if guild == 8 and level == "J":
            n = values.get("resources", 1)
            good = any_resource or max(RESOURCES, key=lambda g: (supply.get(g, 0) - wanted.get(g, 0),
                                                                 -RESOURCES.index(g)))
            extras.append(Extra(good, n, guild, level))
            wanted[good] = wanted.get(good, 0) + n
        elif (guild, level) in F3_GOLD:
            extras.append(Extra("gold", values["gold"], guild, level))
        elif guild == 13 and level in ("J", "M"):
            taken = cheapest_resource(edition, after_market, covered) if level == "J" or market_pick is None \
                else market_pick
            if taken is None or after_market.get(taken, 0) < 1:
                warnings.append(msg("km.warning.market_empty", guild=msg(f"km.guild.{guild}"),
                                    level=msg(f"km.level.{level}")))
                continue
            after_market = take_from_market(after_market, taken)
            extras.append(Extra(taken, 1, guild, level, from_market=True))
    got: dict[str, int] = {}
    shortage: dict[str, int] = {}
    after_supply = dict(supply)
    for good, n in wanted.items():
        given = min(n, after_supply.get(good, 0))
        after_supply[good] = after_supply.get(good, 0) - given
        got[good] = given
        if n > given:
            shortage[good] = n - given
    for e in extras:
        if e.from_market:
            got[e.good] = got.get(e.good, 0) + e.amount
    gold = sum(e.amount for e in extras if e.good == "gold") + sum(shortage.values())
    for good, n in shortage.items():
        warnings.append(msg("km.reason.shortage", n=n, good=msg(f"km.good.{good}")))
    return Harvest(fields, tuple(extras), {g: n for g, n in got.items() if n}, gold, shortage, after_supply,
                   after_market, tuple(warnings), tuple(choices))
