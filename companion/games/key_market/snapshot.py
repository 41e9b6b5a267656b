"""Score a Key Market table snapshot (docs/key-market-snapshot.md): what ``companion score key-market FILE`` reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.options import Options
from companion.games.key_market.data import GOODS, GUILDS, LEVELS, Edition
from companion.games.key_market.production import Member
from companion.games.key_market.scoring import Holdings, rank, score_row
from companion.games.key_market.variants import VARIANT_FLAGS

TOP_KEYS = frozenset({"game", "players", "tiebreak", "options"})
PLAYER_KEYS = frozenset({"name", "manor", "retired", "gold", "goods", "guilds"})


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedInputError(f"{what} must be a whole number of at least 0, not {value!r}")
    return value


def _member(edition: Edition, name: str, key: Any, value: Any) -> tuple[int, Member]:
    """One guild member: ``"5": "M"`` or, in a guild with columns, ``"1": "M sheep"`` (also ``{"level", "column"}``)."""
    try:
        guild = int(key)
    except ValueError:
        guild = 0
    if not 1 <= guild <= GUILDS:
        raise MalformedInputError(f"{name}: guilds are numbered 1 to {GUILDS}, not {key!r}")
    if isinstance(value, Mapping):
        level, column = value.get("level"), value.get("column")
    elif isinstance(value, str) and value.split():
        level, *rest = value.split()
        column = rest[0] if rest else None
    else:
        raise MalformedInputError(f"{name}'s guild {guild}: give the level A, J or M (and the column), not {value!r}")
    if level not in LEVELS:
        raise MalformedInputError(f"{name}'s guild {guild}: the level is A, J or M, not {level!r}")
    columns = edition.guild_tiles[guild].columns
    if columns and column not in columns:
        raise MalformedInputError(f"{name}'s guild {guild}: name the column, one of {', '.join(columns)}")
    if not columns and column is not None:
        raise MalformedInputError(f"{name}'s guild {guild} has no columns")
    return guild, Member(str(level), column if isinstance(column, str) else None)


def holdings(edition: Edition, raw: Any, index: int) -> Holdings:
    """One player of a snapshot, checked."""
    if not isinstance(raw, Mapping):
        raise MalformedInputError(f"player {index + 1} must be a JSON object")
    unknown = set(raw) - PLAYER_KEYS
    if unknown:  # a typo must not fall back to the defaults silently
        raise MalformedInputError(f"player {index + 1}: unknown keys {sorted(unknown)}; known: {sorted(PLAYER_KEYS)}")
    name = str(raw.get("name", f"Player {index + 1}"))
    manor = raw.get("manor", False)
    if not isinstance(manor, bool):
        raise MalformedInputError(f"{name}: \"manor\" is true or false")
    goods = raw.get("goods", {})
    if not isinstance(goods, Mapping) or not set(goods) <= set(GOODS):
        raise MalformedInputError(f"{name}: \"goods\" counts {', '.join(GOODS)}")
    guilds = raw.get("guilds", {})
    if not isinstance(guilds, Mapping):
        raise MalformedInputError(f"{name}: \"guilds\" maps guild numbers to levels, e.g. {{\"5\": \"M\"}}")
    members = dict(_member(edition, name, k, v) for k, v in guilds.items())
    if len(members) != len(guilds):
        raise MalformedInputError(f"{name}: a guild is named twice")
    return Holdings(name, manor, _count(raw.get("retired", 0), f"{name}'s retired"),
                    _count(raw.get("gold", 0), f"{name}'s gold"),
                    {g: _count(goods.get(g, 0), f"{name}'s {g}") for g in GOODS}, members)


def score_snapshot(data: Any, edition: Edition, options: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Per player the points of each scoring-sheet row (L590-597), ``items`` (the best split of the goods item by
    item), ``total`` and ``rank``; a warning when provisional rank VP were used."""
    if not isinstance(data, Mapping):
        raise MalformedInputError("a Key Market snapshot is a JSON object with a \"players\" list")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise MalformedInputError(f"unknown snapshot keys {sorted(unknown)}; known: {sorted(TOP_KEYS)}")
    if data.get("game", "key-market") != "key-market":
        raise MalformedInputError(f"this snapshot is for {data.get('game')!r}, not key-market")
    given = data.get("options", {})
    if not isinstance(given, Mapping):
        raise MalformedInputError("\"options\" maps variant flags to values")
    Options(VARIANT_FLAGS, {**given, **(options or {})})  # checked; no flag changes the final score
    players = data.get("players")
    if not isinstance(players, list) or len(players) > 4:
        raise MalformedInputError("\"players\" must list up to 4 players")
    held = [holdings(edition, raw, i) for i, raw in enumerate(players)]
    names = [h.name for h in held]
    if len(set(names)) != len(names):
        raise MalformedInputError("each player needs a different name")
    tiebreak = data.get("tiebreak")
    if tiebreak is not None and (not isinstance(tiebreak, list) or sorted(map(str, tiebreak)) != sorted(names)):
        raise MalformedInputError("\"tiebreak\" lists every player's name once: the favour track from the top (3-4 "
                                  "players) or the turn order of Autumn in year 2 (2 players)")
    rows = [score_row(edition, h) for h in held]
    rank(rows, [names.index(str(n)) for n in tiebreak] if tiebreak is not None else None)
    provisional = ["guild_tiles"] if "guild_tiles" in edition.provisional and any(h.guilds for h in held) else []
    result: dict[str, Any] = {"game": "key-market", "players": rows,
                              "data": {"name": edition.name, "provisional": provisional}}
    warnings = []
    if provisional:
        warnings.append("scored with PROVISIONAL guild rank VP (the guild tiles' values are not in the rulebook "
                        "text); install your box's values with `companion data key-market FILE --install` or give "
                        "--data DATA_PACK")
    if tiebreak is None and len({r["total"] for r in rows}) < len(rows):
        warnings.append("players share a rank: give \"tiebreak\" (the favour track from the top, or with 2 players "
                        "the turn order of Autumn in year 2) to break ties")
    if warnings:
        result["warnings"] = warnings
    return result
