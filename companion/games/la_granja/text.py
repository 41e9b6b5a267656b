"""La Granja at a terminal (``companion play la-granja``): the table and the prompt as messages, the score as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.messages import Text, msg
from companion.games.la_granja import scoring, words


def _listed(items: Sequence[Text]) -> Text | list[Text]:
    return list(items) if items else "-"


def table_text(view: Mapping[str, Any]) -> list[Text]:
    """The table as lines of messages (``lg.table.*``): round and turn order, dice, roof display, buildings,
    market stalls, each player."""
    names = [p["name"] for p in view["players"]]
    phase = {"setup": msg("lg.table.setup"), "farm": msg("lg.table.farm"), "yield": msg("lg.table.yield"),
             "transport": msg("lg.table.transport"), "scoring": msg("lg.table.scoring"),
             "over": msg("lg.table.over")}.get(view["phase"], view["phase"])
    lines: list[Text] = [msg("lg.table.round", round=view["round"], phase=phase,
                             order=[names[s] for s in view["turn_order"]])]
    dice = view["dice"]
    if dice["rolled"]:
        lines.append(msg("lg.table.dice", rolled=" ".join(map(str, dice["rolled"])),
                         left=" ".join(map(str, dice["left"])) or "-"))
    if view["roof_display"]:
        lines.append(msg("lg.table.roof", markers=[msg("lg.table.roof_marker", marker=r["marker"], effect=r["text"])
                                                   for r in view["roof_display"]]))
    lines.append(msg("lg.table.buildings", buildings=[
        msg("lg.table.building_locked", building=words.building(b["building"]), row=words.goods(b["row"]),
            lock=b["lock"]) if b["lock"] else
        msg("lg.table.building", building=words.building(b["building"]), row=words.goods(b["row"]))
        for b in view["buildings"]]))
    stalls: list[Text] = [msg("lg.table.stall", space=m["space"], value=m["value"],
                              holder=names[m["holder"]] if isinstance(m["holder"], int) else msg("lg.table.neutral"))
                          for m in view["market"] if m["holder"] is not None]
    lines.append(msg("lg.table.market", stalls=_listed(stalls)))
    for p in view["players"]:
        goods = [msg("lg.table.count", count=n, what=words.good(k, n)) for k, n in p["goods"].items() if n]
        fields = [msg("lg.table.field_grown" if f["grown"] else "lg.table.field", crop=words.good(f["crop"]))
                  for f in p["fields"]]
        carts = [msg("lg.table.cart", card=c["card"],
                     needs=words.goods([s for s, done in zip(c["symbols"], c["filled"]) if not done]))
                 for c in p["carts"]]
        hand: Text = (" ".join(map(str, p["hand"])) or "-" if p["hand"] is not None
                      else msg("lg.table.hand_size", n=p["hand_size"]))
        lines.append(msg("lg.table.player", player=p["name"], vp="?" if p["vp"] is None else p["vp"],
                         silver=p["silver"], trade=p["trade_goods"], goods=_listed(goods), fields=_listed(fields),
                         carts=_listed(carts), extensions=len(p["extensions"]), hand=hand, siesta=p["siesta"]))
    return lines


def prompt_text(waiting: Mapping[str, Any] | None, names: Sequence[str]) -> Text:
    """Who decides now and about what (``lg.prompt.<kind>``), with the count left where there is one."""
    kind = waiting["kind"] if waiting is not None else ""
    if waiting is not None and kind == "donkey":
        who = [msg("lg.prompt.seat", name=names[seat], seat=seat + 1) for seat in waiting["deciders"]]
        return msg("lg.prompt.line", who=who, what=msg("lg.prompt.donkey"))
    if waiting is None or waiting["player"] is None:
        return msg("lg.prompt.drawing")
    what = words.prompt(kind)
    if kind in words.COUNTED:
        return msg("lg.prompt.line_left", who=names[waiting["player"]], what=what,
                   left=msg(f"lg.left.{kind}", n=waiting["count"]))
    return msg("lg.prompt.line", who=names[waiting["player"]], what=what)


def score_text(rows: Sequence[Mapping[str, Any]]) -> list[Text]:
    """The score for the terminal, best first, each VP source in words (``scoring.score_lines``)."""
    return scoring.score_lines(rows)
