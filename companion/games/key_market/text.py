"""Key Market at a terminal (``companion play key-market``): the table, who decides, and the score as lines of
messages, from the public view only; places in the table's words (``places``), never grid positions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.messages import Message, Text, msg
from companion.games.key_market.data import GOODS
from companion.games.key_market.scoring import CATEGORIES

STAGES = ("weather", "order", "farmhouses", "deal", "place", "pay", "revealed", "guild", "farming", "commit",
          "committed", "market", "early", "upkeep", "reveal", "over")
"""The view's ``stage`` values, each named by ``km.stage.<stage>``."""
LEVELS = {"A": "km.level.A", "J": "km.level.J", "M": "km.level.M"}


def message_ids() -> list[str]:
    return [f"km.stage.{stage}" for stage in STAGES] + [f"km.camera.source.{c}" for c in CATEGORIES]


def goods_of(goods: Mapping[str, int] | None) -> list[Message]:
    """Goods as counted words ("2 fruit, 1 fish"), or "nothing"."""
    listed = [msg("km.count.good", n=goods[g], good=msg(f"km.good.{g}")) for g in GOODS if goods and goods.get(g)]
    return listed or [msg("km.count.nothing")]


def table_text(view: Mapping[str, Any]) -> list[Text]:
    """The table as lines: the season and stage, the market's rows, the guilds in play, each player's workers, guild
    members, manor and (when the viewer may see them) goods and gold, the next turn order at the Season End."""
    lines: list[Text] = [msg("km.table.season", year=view["year"], season=msg(f"km.season.{view['season']}"),
                             stage=msg(f"km.stage.{view['stage']}"))]
    rows = [msg("km.table.market_row", good=msg(f"km.good.{r['good']}"), price=r["n"], buy=r["buy"], sell=r["sell"])
            for r in view["market"]]
    lines.append(msg("km.table.market", rows=rows))
    if view["guilds"]:
        lines.append(msg("km.table.guilds", guilds=[msg(f"km.guild.{g}") for g in view["guilds"]]))
    names = {tuple(f["at"]): f["name"] for f in view["fields"]}
    deciding = set(view["deciders"])
    for p in view["players"]:
        fields = [names[(int(x), int(y))] for w in p["workers"] if w.startswith("f:")
                  for x, _, y in (w[2:].partition(","),)]
        members = [msg("km.table.member", level=msg(LEVELS[w.split(":")[2]]), guild=msg(f"km.guild.{w.split(':')[1]}"))
                   for w in p["workers"] if w.startswith("g:")]
        screen: Text = msg("km.table.hidden") if p["gold"] is None else \
            msg("km.table.screen", gold=p["gold"], goods=goods_of(p["goods"]))
        lines.append(msg("km.table.player", marker=">" if p["seat"] in deciding else " ", name=p["name"],
                         fields=fields or [msg("km.count.nothing")],
                         pool=p["workers"].count("pool"),
                         members=members or [msg("km.count.nothing")],
                         manor=msg("km.table.manor_built" if p["manor"] else "km.table.manor_none"), screen=screen))
        if any(p["committed"].values()):
            lines.append(msg("km.table.committed", goods=goods_of(p["committed"])))
    if view["next_order"]:
        lines.append(msg("km.table.next_order"))
        lines.extend(msg("km.table.next_place", place=i, line=line) for i, line in enumerate(view["next_order"], 1))
    return lines


def prompt_text(stage: str, names: Sequence[str]) -> Text:
    """Who decides now and about what: the deciders' names and the stage."""
    return msg("km.table.prompt", names=list(names), stage=msg(f"km.stage.{stage}"))


def score_text(rows: Sequence[Mapping[str, Any]]) -> list[Text]:
    """Score rows as lines: place, name, total and the scoring sheet's rows (spec 5)."""
    lines: list[Text] = []
    for row in sorted(rows, key=lambda r: r.get("rank", 0)):
        parts = [msg("km.table.score_part", category=msg(f"km.camera.source.{c}"), vp=row[c]) for c in CATEGORIES]
        lines.append(msg("km.table.score_row", place=f"{row['rank']}." if "rank" in row else "-", name=row["name"],
                         total=row["total"], parts=parts))
    return lines
