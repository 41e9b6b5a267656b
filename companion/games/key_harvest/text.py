"""Key Harvest at a terminal (``companion play key-harvest``): the table and the score as lines of messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.messages import Message, Text, msg
from companion.games.key_harvest.words import crop

PHASES = ("setup", "play", "final rounds", "over")
"""The view's ``phase`` values (each has a ``kh.phase.<phase>`` name, spaces as underscores)."""


def message_ids() -> list[str]:
    return [f"kh.phase.{phase.replace(' ', '_')}" for phase in PHASES]


def _listed(items: Sequence[str]) -> Text:
    return " ".join(items) if items else "-"


def table_text(view: Mapping[str, Any]) -> list[Text]:
    """The table as lines: phase and event track, land office and town, bag, fallow area, each player."""
    track = view["event_track"]
    phase = Message(f"kh.phase.{view['phase'].replace(' ', '_')}")
    lines: list[Text] = [msg("kh.table.phase", phase=phase, track=_listed(track), n=len(track), most=10, question=7)]
    if view["end"]["triggered"]:
        lines.append(msg("kh.table.final_rounds", n=view["end"]["turns_left"]))
    office = [label or "--" for label in view["land_office"]]
    lines.append(msg("kh.table.office", office=" ".join(office), town=_listed("".join(view["town"]))))
    bag = view["bag"]
    crops = [msg("kh.table.count", count=n, what=crop(key)) for key, n in bag["fields_by_crop"].items()]
    if bag["events_in_bag"] is not None:
        events: Text = _listed(bag["events_in_bag"])
    else:
        events = msg("kh.table.events_among", events=_listed(bag["events_maybe_in_bag"]), n=2)
    fields = msg("kh.table.fields", n=bag["field_tiles"], crops=crops)
    lines.append(msg("kh.table.bag", fields=fields, events=msg("kh.table.events", n=bag["events"], which=events)))
    if view["fallow"]:
        lines.append(msg("kh.table.fallow", tiles=" ".join(view["fallow"])))
    for p in view["players"]:
        tiles = _listed([t["label"] + ("*" if t["harvested"] else "") for t in p["tiles"]])
        workers = _listed([f"{w['worker']}@{w['label']}" for w in p["workers"]])
        house = _listed([f"{w['label']}[{'+'.join(f'{n}{c[:3]}' for c, n in w['bid'].items() if n)}]"
                         for w in p["warehouse"]])
        stones = p["stones"]
        screen: Text = (msg("kh.table.stones", stones=[msg("kh.table.count", count=n, what=crop(c))
                                                        for c, n in stones.items() if n])
                        if stones else msg("kh.table.hidden"))
        lines.append(msg("kh.table.player", marker=">" if p["seat"] == view["active"] else " ", player=p["name"],
                         tiles=tiles, workers=workers, beside="".join(p["beside"]), warehouse=house, screen=screen))
    return lines


def score_text(rows: Sequence[Mapping[str, Any]]) -> list[Text]:
    """Score rows as lines; a live projection (majorities ``None``) says the majorities come at the end."""
    lines: list[Text] = []
    for row in sorted(rows, key=lambda r: r.get("rank", 0)):
        majorities = row["majority_points"]
        shown: Text = msg("kh.score.majorities_later") if majorities is None else str(majorities)
        lines.append(msg("kh.score.row", place=f"{row['rank']}." if "rank" in row else "-", player=row["name"],
                         total=row["total"], workers=row["worker_points"], largest=row["largest_group_points"],
                         second=row["second_group_points"], majorities=shown))
    return lines
