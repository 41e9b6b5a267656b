"""La Granja at a terminal (``companion play la-granja``): the table, the prompt and the score as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

PROMPTS = {
    "play": "place a card (place CARD field|cart|helper|ext PAYMENT...) or done",
    "discard": "discard down to the hand limit, all cards at once (discard CARD [CARD...])",
    "roof": "buy a roof marker (roof R#) or pass",
    "pick": "take a die (die N)",
    "face": "choose the die's option (option ...) or skip",
    "take": "take the goods, in any order (take KIND [KIND]) or skip",
    "upgrade": "free upgrades, all at once (upgrade free KIND [KIND]) or done",
    "deliver": "deliver, all at once (deliver BUILDING[/ROW]=GOOD cartN=GOOD ...) or done",
    "card": "place a card (place ...) or draw, or skip",
    "donkey": "choose a donkey marker in secret, all at once (donkey SEAT 1-4); the others look away",
    "extra": "buy extra deliveries (extra K)",
    "stall": "choose the market space for the stall (stall M#)",
    "release": "all 25 markers are in use: take the excess off at once (release GOOD|CROP:field|trade|M# ...)",
}


def table_text(view: Mapping[str, Any]) -> str:
    lines = [f"round {view['round']}, {view['phase']} phase; turn order: "
             f"{' '.join(view['players'][s]['name'] for s in view['turn_order'])}"]
    dice = view["dice"]
    if dice["rolled"]:
        lines.append(f"dice rolled: {' '.join(map(str, dice['rolled']))}; left: {' '.join(map(str, dice['left'])) or '-'}")
    if view["roof_display"]:
        lines.append("roof display: " + ", ".join(f"{r['marker']} ({r['effect']})" for r in view["roof_display"]))
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


def prompt_text(waiting: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    kind = waiting["kind"] if waiting is not None else ""
    if waiting is not None and kind == "donkey":
        who = ", ".join(f"{names[seat]} (seat {seat + 1})" for seat in waiting["deciders"])
        return f"{who}: {PROMPTS['donkey']}"
    if waiting is None or waiting["player"] is None:
        return "The companion is drawing."
    count = f" ({waiting['count']} left)" if kind in ("play", "deliver", "upgrade", "discard") else ""
    return f"{names[waiting['player']]}: {PROMPTS.get(kind, kind)}{count}"


def score_text(rows: Sequence[Mapping[str, Any]]) -> str:
    out = []
    for row in sorted(rows, key=lambda r: r.get("rank", 0)):
        ledger = ", ".join(f"{k} {v:+d}" for k, v in sorted(row["ledger"].items()))
        rank = f"{row['rank']}. " if "rank" in row else ""
        out.append(f"{rank}{row['name']}: {row['total']} VP ({ledger})")
    return "\n".join(out)
