"""Keyper at a terminal (``companion play keyper``): the table and the prompt as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.messages import Message, Text, msg


def _keyples(found: Sequence[Mapping[str, Any]]) -> str:
    """``orange white_`` (a trailing ``_``: lying)."""
    return " ".join(k["colour"] + ("" if k["standing"] else "_") for k in found)


def table_text(view: Mapping[str, Any]) -> list[Text]:
    """The table in a few lines: season, display, boards with their keyples, each player's board (pieces, tiles
    and places in their notation)."""
    names = [p["name"] for p in view["players"]]
    lines: list[Text] = [msg("kp.table.final" if view["final_round"] else "kp.table.head",
                             season=Message("kp.season." + view["season"]), start=names[view["start"]],
                             bag=view["bag_size"], display=" ".join(view["display"]) or "-",
                             boats=" ".join(view["boats"]) or "-")]
    for board in view["boards"]:
        used = [f"{f['field']} {f['kind']}: {_keyples(f['keyples'])}" for f in board["fields"] if f["keyples"]]
        lines.append(msg("kp.table.board", board=board["board"], layout=board["layout"],
                         keeper=names[board["keeper"]] if board["keeper"] is not None else "-",
                         boat=board["boat"] or "-", fields="; ".join(used) or "-"))
    for p in view["players"]:
        goods = " ".join(f"{n} {k}" for k, n in (*p["goods"].items(), *p["animals"].items()) if n) or "-"
        plots = [f"{x['plot']}={'/'.join(x['tiles'])}{'+' if x['side'] == 'upgraded' else ''}"
                 f"{' [' + _keyples(x['keyples']) + ']' if x['keyples'] else ''}"
                 for area in ("farm", "village") for x in p["plots"][area] if x["tiles"]]
        lines.append(msg("kp.table.player_keyper" if p["keyper_home"] else "kp.table.player", name=p["name"],
                         keep=" ".join(p["keep"]) or "-", track=p["shipping"], goods=goods,
                         built=" ".join(plots) or "-", unbuilt=len(p["unbuilt"]),
                         fairs=" ".join(f["fair"] for f in p["held"]) or "-"))
    return lines


def prompt_text(waiting: Mapping[str, Any] | None, names: Sequence[str]) -> Text:
    """Who decides now and about what."""
    if waiting is None:
        return msg("kp.prompt.over")
    if waiting["seat"] is None:
        return msg("kp.prompt.others", task=Message("kp.task." + waiting["kind"]) if waiting["text"] else "-")
    return msg("kp.prompt.seat", name=names[waiting["seat"]], task=waiting["text"])
