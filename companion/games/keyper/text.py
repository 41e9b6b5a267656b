"""Keyper at a terminal (``companion play keyper``): the table and the prompt in words, as the pages name them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.messages import Message, Text, msg
from companion.games.keyper.data import Field, colour, piece


def _keyples(found: Sequence[Mapping[str, Any]]) -> list[Text]:
    """Keyples by colour, a lying one said so."""
    return [colour(k["colour"]) if k["standing"] else msg("kp.table.lying", colour=colour(k["colour"])) for k in found]


def _counted(counts: Mapping[str, int]) -> list[Text]:
    return [msg("kp.pick.count", n=n, what=piece(kind)) for kind, n in counts.items() if n]


def _field(code: str, n: int) -> Text:
    """A field by its number, what it gives and its colour (``7: gold (black)``)."""
    f = Field.parse(code)
    what = msg(f"kp.field.{f.kind}", what=piece(f.param) if f.param else "")
    if f.colour in ("none", ""):
        return msg("kp.pick.field", number=n, what=what)
    return msg("kp.pick.field_colour", number=n, what=what, colour=colour(f.colour))


def _fair(view: Mapping[str, Any], fair: str) -> Text:
    """A fair by its season, what it asks and its points, as far as this view knows it."""
    f = view["fair_tiles"].get(fair)
    if f is None:
        return msg("kp.pick.fair_unknown")
    needs: list[Text] = [msg("kp.pick.count", n=n, what=piece(k)) for k, n in f["requires"].items()]
    if f["season"] == "winter":
        late: list[Text] = [msg("kp.pick.count", n=n, what=piece(k)) for k, n in f["late_requires"].items()]
        return msg("kp.pick.winter_fair", needs=needs or "-", vp=f["vp"], late=late or "-", late_vp=f["late_vp"])
    return msg("kp.pick.fair", season=Message("kp.season." + f["season"]), needs=needs or "-", vp=f["vp"])


def _tile(view: Mapping[str, Any], tile: str) -> Text:
    return _fair(view, tile) if tile in view["fair_tiles"] else Message(f"kp.tile.{tile}")


def _boat(view: Mapping[str, Any], boat: str) -> Text:
    goods = view.get("boat_goods", {}).get(boat)
    return msg("kp.pick.boat", a=piece(goods[0]), b=piece(goods[1])) if goods else msg("kp.pick.boat_unknown")


def table_text(view: Mapping[str, Any]) -> list[Text]:
    """The table in a few lines: season, display, boats, the country boards with their keyples, each player's board
    (pieces, tiles and fairs by their printed names)."""
    names = [p["name"] for p in view["players"]]
    lines: list[Text] = [msg("kp.table.final" if view["final_round"] else "kp.table.head",
                             season=Message("kp.season." + view["season"]), start=names[view["start"]],
                             bag=view["bag_size"], display=[_tile(view, t) for t in view["display"]] or "-",
                             boats=[_boat(view, b) for b in view["boats"]] or "-")]
    for board in view["boards"]:
        used: list[Text] = [msg("kp.table.field", field=_field(f["kind"], j + 1), keyples=_keyples(f["keyples"]))
                            for j, f in enumerate(board["fields"]) if f["keyples"]]
        lines.append(msg("kp.table.board", board=board["board"], layout=str(board["layout"]).rsplit("/", 1)[-1],
                         keeper=names[board["keeper"]] if board["keeper"] is not None else "-",
                         boat=_boat(view, board["boat"]) if board["boat"] else "-", fields=used or "-"))
    for p in view["players"]:
        plots: list[Text] = []
        for area in ("farm", "village"):
            for x in p["plots"][area]:
                if x["tiles"]:
                    where = msg("kp.pick.farm_plot" if area == "farm" else "kp.pick.village_plot", number=int(x["plot"][1:]))
                    built = msg("kp.table.plot_upgraded" if x["side"] == "upgraded" else "kp.table.plot",
                                plot=where, tiles=[_tile(view, t) for t in x["tiles"]])
                    plots.append(msg("kp.table.with_keyples", what=built, keyples=_keyples(x["keyples"]))
                                 if x["keyples"] else built)
        lines.append(msg("kp.table.player_keyper" if p["keyper_home"] else "kp.table.player", name=p["name"],
                         keep=[colour(c) for c in p["keep"]] or "-", track=p["shipping"],
                         goods=_counted({**p["goods"], **p["animals"]}) or "-", built=plots or "-",
                         unbuilt=len(p["unbuilt"]), fairs=[_fair(view, f["fair"]) for f in p["held"]] or "-"))
    return lines


def prompt_text(waiting: Mapping[str, Any] | None, names: Sequence[str]) -> Text:
    """Who decides now and about what."""
    if waiting is None:
        return msg("kp.prompt.over")
    if waiting["seat"] is None:
        return msg("kp.prompt.others", task=Message("kp.task." + waiting["kind"]) if waiting["text"] else "-")
    return msg("kp.prompt.seat", name=names[waiting["seat"]], task=waiting["text"])
