"""Key Harvest at a terminal (``companion play key-harvest``): the table as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def table_text(view: Mapping[str, Any]) -> str:
    """The table as text: boards, warehouses, land office, event track, bag."""
    lines = []
    lines.append(f"phase: {view['phase']}    event track: {' '.join(view['event_track']) or '-'}"
                 f"  ({len(view['event_track'])}/10, '?' on 7)")
    if view["end"]["triggered"]:
        lines.append(f"final rounds: {view['end']['turns_left']} more turns after this one")
    office = [label or "--" for label in view["land_office"]]
    lines.append(f"land office: {' '.join(office)}    townsfolk on the town board: {''.join(view['town']) or '-'}")
    bag = view["bag"]
    crops = ", ".join(f"{n} {crop}" for crop, n in bag["fields_by_crop"].items())
    if bag["events_in_bag"] is not None:
        events = " ".join(bag["events_in_bag"])
    else:
        events = "among " + " ".join(bag["events_maybe_in_bag"]) + "; 2 were removed unseen"
    lines.append(f"bag: {bag['field_tiles']} field tiles ({crops}); {bag['events']} events ({events})")
    if view["fallow"]:
        lines.append(f"fallow: {' '.join(view['fallow'])}")
    for p in view["players"]:
        marker = ">" if p["seat"] == view["active"] else " "
        tiles = " ".join(t["label"] + ("*" if t["harvested"] else "") for t in p["tiles"]) or "-"
        workers = " ".join(f"{w['worker']}@{w['label']}" for w in p["workers"]) or "-"
        house = " ".join(f"{w['label']}[{'+'.join(f'{n}{c[:3]}' for c, n in w['bid'].items() if n)}]"
                         for w in p["warehouse"]) or "-"
        stones = p["stones"]
        screen = ", ".join(f"{n} {c}" for c, n in stones.items() if n) if stones else "hidden"
        lines.append(f"{marker} {p['name']}: tiles {tiles} | workers {workers} | beside {''.join(p['beside'])}"
                     f" | warehouse {house} | screen {screen}")
    return "\n".join(lines)
