"""La Granja at a terminal (``companion play la-granja``): the table, the prompt and the score as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.messages import Text, msg, render
from companion.games.la_granja import scoring, words


def table_text(view: Mapping[str, Any]) -> str:
    """The table in a few lines of English (the terminal's language); names of effects rendered from messages."""
    lines = [f"round {view['round']}, {view['phase']} phase; turn order: "
             f"{' '.join(view['players'][s]['name'] for s in view['turn_order'])}"]
    dice = view["dice"]
    if dice["rolled"]:
        lines.append(f"dice rolled: {' '.join(map(str, dice['rolled']))}; left: {' '.join(map(str, dice['left'])) or '-'}")
    if view["roof_display"]:
        lines.append("roof display: " + ", ".join(f"{r['marker']} ({render(r['text'])})" for r in view["roof_display"]))
    lines.append("buildings: " + "; ".join(
        f"{b['building']} {'/'.join(b['row'])}{' LOCK ' + str(b['lock']) if b['lock'] else ''}"
        for b in view["buildings"]))
    names = [p["name"] for p in view["players"]]
    market = [f"{m['space']}={m['value']}:{names[m['holder']] if isinstance(m['holder'], int) else m['holder']}"
              for m in view["market"] if m["holder"] is not None]
    lines.append(f"market stalls: {' '.join(market) or '-'}")
    for p in view["players"]:
        goods = " ".join(f"{n} {k}" for k, n in p["goods"].items() if n) or "-"
        vp = "?" if p["vp"] is None else p["vp"]
        hand = " ".join(map(str, p["hand"])) if p["hand"] is not None else f"{p['hand_size']} cards"
        fields = " ".join(f"{f['crop']}{'*' if f['grown'] else ''}" for f in p["fields"]) or "-"
        carts = " ".join(f"cart{c['card']}({'+'.join(s for s, done in zip(c['symbols'], c['filled']) if not done)})"
                         for c in p["carts"]) or "-"
        lines.append(f"  {p['name']}: {vp} VP, {p['silver']} silver, {p['trade_goods']} trade | {goods} | "
                     f"fields {fields} | {carts} | ext {len(p['extensions'])} | hand {hand} | siesta {p['siesta']}")
    return "\n".join(lines)


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
