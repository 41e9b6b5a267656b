"""Score a Keyper table snapshot (docs/keyper-snapshot.md): ``companion score keyper FILE|-``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.messages import Message, msg, render
from companion.games.keyper.data import ANIMALS, GOODS, KEYPLE_COLOURS, SEASONS, Edition
from companion.games.keyper.scoring import TIEBREAKS, Built, Holdings, rank, score_player
from companion.games.keyper.tiles import RULES

TOP_KEYS = frozenset({"game", "tiebreak", "players"})
PLAYER_KEYS = frozenset({"name", "built", "goods", "animals", "keyples", "shipping", "fairs", "board",
                         "field_colours"})
BUILT_KEYS = frozenset({"tile", "plot", "side", "under"})
FAIR_KEYS = frozenset({"fair", "season", "vp"})
_POSITIONAL = frozenset({"diagonal", "orthogonal", "boarding", "full_area"})


def _bad(key: str, **params: Any) -> MalformedInputError:
    """A snapshot refused: ``key`` names the message ``kp.snapshot.<key>``."""
    return MalformedInputError(Message("kp.snapshot." + key, params))


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _bad("count", what=what, value=repr(value))
    return value


def _counts(raw: Any, known: tuple[str, ...], what: str, name: str) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise _bad("counts", name=name, what=what, known=list(known))
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise _bad("counts", name=name, what=what, known=list(known))
    return {k: _count(v, f"{name}'s {k}") for k, v in raw.items()}


def _plot(edition: Edition, label: Any, name: str) -> tuple[str, int]:
    text = str(label).strip().upper()
    area = {"F": "farm", "V": "village"}.get(text[:1])
    if area is None or not text[1:].isdigit() or not 1 <= int(text[1:]) <= edition.plots(area):
        raise _bad("plot", name=name, plot=str(label), farm=edition.farm_plots, village=edition.village_plots)
    return area, int(text[1:])


def _built(edition: Edition, raw: Any, name: str, warnings: list[str]) -> tuple[Built, ...]:
    if not isinstance(raw, list):
        raise _bad("built_list", name=name)
    out: list[Built] = []
    plots: set[tuple[str, int]] = set()
    for entry in raw:
        if not isinstance(entry, Mapping) or not set(entry) <= BUILT_KEYS or "tile" not in entry or "plot" not in entry:
            raise _bad("built_entry", name=name, keys=sorted(BUILT_KEYS))
        tile = str(entry["tile"])
        if tile not in edition.tiles:
            raise _bad("tile", name=name, tile=tile)
        side = entry.get("side", "base")
        if side not in ("base", "upgraded"):
            raise _bad("side", name=name, tile=tile, side=str(side))
        area, plot = _plot(edition, entry["plot"], name)
        if (area, plot) in plots:
            raise _bad("plot_twice", name=name, plot=str(entry["plot"]))
        plots.add((area, plot))
        if edition.tiles[tile].area != area:
            warnings.append(render(msg("kp.warning.area", name=name, tile=tile, plot=str(entry["plot"]).upper(),
                                       area=edition.tiles[tile].area)))
        under = entry.get("under")
        if under is not None and str(under) not in edition.tiles:
            raise _bad("tile", name=name, tile=str(under))
        out.append(Built(tile, area, plot, side == "upgraded"))
    tiles = [b.tile for b in out] + [str(e["under"]) for e in raw if e.get("under") is not None]
    twice = sorted({t for t in tiles if tiles.count(t) > 1})
    if twice:
        raise _bad("tile_twice", name=name, tiles=", ".join(twice))
    return tuple(out)


def _fairs(edition: Edition, raw: Any, name: str, used: set[str]) -> tuple[int, int]:
    """The VP of the fairs held and the number of seasons with at least one."""
    if raw is None:
        return 0, 0
    if not isinstance(raw, list):
        raise _bad("fairs", name=name)
    vp, seasons = 0, set()
    for entry in raw:
        if not isinstance(entry, Mapping) or not set(entry) <= FAIR_KEYS or entry.get("season") not in SEASONS:
            raise _bad("fairs", name=name)
        season = str(entry["season"])
        seasons.add(season)
        if "vp" in entry:
            vp += _count(entry["vp"], f"{name}'s fair VP")
            continue
        fair = edition.fairs.get(str(entry.get("fair")))
        if fair is None:
            raise _bad("fair", name=name, fair=str(entry.get("fair")))
        if fair.season != "winter" and fair.season != season:
            raise _bad("fair_season", name=name, fair=fair.id, season=season, own=fair.season)
        used.add("fairs")
        vp += fair.vp if fair.season != "winter" or season in ("spring", "summer") else fair.late_vp
    return vp, len(seasons)


def _holdings(edition: Edition, raw: Any, index: int, used: set[str], warnings: list[str]) -> Holdings:
    if not isinstance(raw, Mapping):
        raise _bad("player", number=index + 1)
    unknown = sorted(set(raw) - PLAYER_KEYS)
    if unknown:
        raise _bad("player_keys", number=index + 1, unknown=unknown, known=sorted(PLAYER_KEYS))
    name = str(raw.get("name", f"Player {index + 1}"))
    built = _built(edition, raw.get("built", []), name, warnings)
    goods = _counts(raw.get("goods"), GOODS, "goods", name)
    animals = _counts(raw.get("animals"), ANIMALS, "animals", name)
    keyples = _counts(raw.get("keyples"), KEYPLE_COLOURS, "keyples", name)
    fair_vp, fair_seasons = _fairs(edition, raw.get("fairs"), name, used)
    colours: dict[str, int] = {}
    if "board" in raw:
        layout = edition.layouts.get(str(raw["board"]))
        if layout is None or layout.season != "winter":
            raise _bad("board", name=name, board=str(raw["board"]))
        colours = {c: layout.colour_count(c) for c in ("green", "orange", "brown", "black", "grey")}
        used.add("boards")
    if "field_colours" in raw:
        colours = _counts(raw["field_colours"], ("blue", "orange", "green", "brown", "black", "grey"),
                          "field_colours", name)
    if any(RULES[b.tile].kind in _POSITIONAL for b in built):
        used.add("player_board")
    if any(b.tile == "merchant" and b.upgraded for b in built):
        used.add("later_tiles")  # the upgraded Merchant's VP is not in the text (D13)
    return Holdings(name, built, goods, animals, keyples, _count(raw.get("shipping", 0), f"{name}'s shipping"),
                    fair_vp, fair_seasons, colours)


def score_snapshot(data: Any, edition: Edition, tiebreak: str | None = None,
                   flags: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Per player: shipping, farm, village and fair points, every tile with what is assigned to it, the pieces
    left over, ``total`` and ``rank`` (tie-breakers: ``tiebreak``, else the snapshot's, else printed; ``flags``:
    the variant flags that change scoring)."""
    if not isinstance(data, Mapping):
        raise _bad("object")
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise _bad("keys", unknown=unknown, known=sorted(TOP_KEYS))
    if data.get("game", "keyper") != "keyper":
        raise _bad("game", game=str(data.get("game")))
    mode = tiebreak or str(data.get("tiebreak", "printed"))
    if mode not in TIEBREAKS:
        raise _bad("tiebreak", mode=mode, known=sorted(TIEBREAKS))
    players = data.get("players")
    if not isinstance(players, list) or len(players) > 4:
        raise _bad("players")
    used: set[str] = set()
    warnings: list[str] = []
    holdings = [_holdings(edition, raw, i, used, warnings) for i, raw in enumerate(players)]
    country = [b.tile for h in holdings for b in h.built if edition.tiles[b.tile].set != "home"]
    shared = sorted({t for t in country if country.count(t) > 1})
    if shared:
        raise _bad("country_twice", tiles=", ".join(shared))
    rows = [score_player(edition, h, flags) for h in holdings]
    rank(rows, holdings, mode)
    provisional = sorted(used & set(edition.provisional))
    result: dict[str, Any] = {"game": "keyper", "tiebreak": mode, "players": rows,
                              "data": {"name": edition.name, "provisional": provisional}}
    if provisional:
        warnings.append(render(msg("kp.warning.snapshot_provisional", sections=provisional)))
    if warnings:
        result["warnings"] = warnings
    return result
