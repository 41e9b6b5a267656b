"""Score a La Granja table snapshot (docs/la-granja-snapshot.md): ``companion score la-granja FILE``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.messages import Text, msg
from companion.games.la_granja.data import GOODS, RESOURCES, Edition
from companion.games.la_granja.scoring import Holdings, conversion, rank

TOP_KEYS = frozenset({"game", "score_round", "sell", "siesta_vp", "players"})
PLAYER_KEYS = frozenset({"name", "vp", "silver", "trade_goods", "goods", "field_crops", "stalls", "siesta"})


def _count(value: Any, what: Text) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedInputError(msg("lg.snap.not_count", what=what, value=repr(value)))
    return value


def score_snapshot(data: Any, edition: Edition) -> dict[str, Any]:
    """Per player: ``round_points`` (with ``"score_round": true``), the conversion, ``total`` and ``rank``; a
    warning when provisional values of ``edition`` were used."""
    if not isinstance(data, Mapping):
        raise MalformedInputError(msg("lg.snap.not_object"))
    unknown = set(data) - TOP_KEYS
    if unknown:  # a typo must not fall back to the defaults silently
        raise MalformedInputError(msg("lg.snap.unknown_keys", keys=str(sorted(unknown)), known=str(sorted(TOP_KEYS))))
    if data.get("game", "la-granja") != "la-granja":
        raise MalformedInputError(msg("lg.snap.wrong_game", game=repr(data.get("game"))))
    players = data.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise MalformedInputError(msg("lg.snap.players"))
    score_round = data.get("score_round", False)
    if not isinstance(score_round, bool):
        raise MalformedInputError(msg("lg.snap.score_round"))
    siesta_vp = data.get("siesta_vp", list(edition.siesta_vp))
    if not isinstance(siesta_vp, list) or not siesta_vp:
        raise MalformedInputError(msg("lg.snap.siesta_vp"))
    siesta_vp = [_count(v, msg("lg.snap.what.siesta_vp")) for v in siesta_vp]
    sell = dict(edition.sell)
    given = data.get("sell", {})
    if not isinstance(given, Mapping):
        raise MalformedInputError(msg("lg.snap.sell", kinds=", ".join(RESOURCES)))
    for kind, price in dict(given).items():
        if kind not in RESOURCES:
            raise MalformedInputError(msg("lg.snap.sell_kind", kinds=", ".join(RESOURCES), kind=repr(kind)))
        sell[kind] = _count(price, msg("lg.snap.what.price", kind=kind))
    rows = []
    for i, raw in enumerate(players):
        if not isinstance(raw, Mapping):
            raise MalformedInputError(msg("lg.snap.player_object", seat=i + 1))
        unknown = set(raw) - PLAYER_KEYS
        if unknown:
            raise MalformedInputError(msg("lg.snap.player_keys", seat=i + 1, keys=str(sorted(unknown)),
                                              known=str(sorted(PLAYER_KEYS))))
        name = str(raw.get("name", f"Player {i + 1}"))
        goods = raw.get("goods", {})
        if not isinstance(goods, Mapping) or not set(goods) <= set(GOODS):
            raise MalformedInputError(msg("lg.snap.goods", name=name, goods=", ".join(GOODS)))
        held = {k: _count(goods.get(k, 0), msg("lg.snap.what.own", name=name, key=k)) for k in GOODS}
        _count(raw.get("field_crops", 0), msg("lg.snap.what.own", name=name, key="field_crops"))
        h = Holdings(name, _count(raw.get("vp", 0), msg("lg.snap.what.own", name=name, key="vp")),
                     _count(raw.get("silver", 0), msg("lg.snap.what.own", name=name, key="silver")),
                     _count(raw.get("trade_goods", 0), msg("lg.snap.what.own", name=name, key="trade_goods")),
                     {k: held[k] for k in RESOURCES})
        row: dict[str, Any] = {"name": name, "vp": h.vp}
        points = h.vp
        if score_round:
            stalls = _count(raw.get("stalls", 0), msg("lg.snap.what.own", name=name, key="stalls"))
            pos = _count(raw.get("siesta", 0), msg("lg.snap.what.own", name=name, key="siesta"))
            if pos >= len(siesta_vp):
                raise MalformedInputError(msg("lg.snap.siesta_top", name=name, pos=pos, top=len(siesta_vp) - 1))
            row["round_points"] = stalls + siesta_vp[pos]
            points += row["round_points"]
        row.update(conversion(h, sell))
        row["total"] = points + row["conversion_points"]
        rows.append(row)
    rank(rows)
    provisional = []
    if "prices" in edition.provisional and not set(RESOURCES) <= set(data.get("sell", {})):
        provisional.append("prices")
    if score_round and "siesta" in edition.provisional and "siesta_vp" not in data:
        provisional.append("siesta")
    result: dict[str, Any] = {"game": "la-granja", "players": rows,
                              "data": {"name": edition.name, "provisional": provisional}}
    if provisional:
        result["warnings"] = [msg("lg.snap.provisional", sections=[msg(f"lg.section.{part}") for part in provisional])]
    return result
