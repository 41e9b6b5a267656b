"""La Granja's final conversion and ranking (spec 3.6, 5.3, 5.4), shared by the game and ``companion score``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.messages import Message, Text, msg

TRADE_GOOD_SILVER = 4
"""A-07: a trade good converts at 4 silver, its only silver-giving use."""
SILVER_PER_VP = 5


@dataclass(frozen=True, slots=True)
class Holdings:
    """What the final conversion reads from one farm."""

    name: str
    vp: int
    silver: int
    trade: int
    resources: Mapping[str, int]  # olive, grain, grape in storage, pigs in the sty


def conversion(h: Holdings, sell: Mapping[str, int]) -> dict[str, int]:
    """Spec 5.3: resources at their sell price, trade goods at 4, upgraded goods and field crops at 0 (A-06)."""
    total = h.silver + TRADE_GOOD_SILVER * h.trade + sum(sell[k] * n for k, n in h.resources.items())
    return {"silver_total": total, "conversion_points": total // SILVER_PER_VP, "rest_silver": total % SILVER_PER_VP}


def rank(rows: Sequence[dict[str, Any]]) -> None:
    """Set ``rank`` (1 = winner; shared ranks on a full tie) and ``winner`` by total, then rest silver (5.4)."""
    keys = [(row["total"], row["rest_silver"]) for row in rows]
    for row, key in zip(rows, keys):
        row["rank"] = 1 + sum(1 for other in keys if other > key)
        row["winner"] = row["rank"] == 1


SOURCES: dict[str, Message] = {
    "V1": msg("lg.source.v1"),
    "V2": msg("lg.source.v2"),
    "V3": msg("lg.source.v3"),
    "V4": msg("lg.source.v4"),
    "V5": msg("lg.source.v5"),
    "V6": msg("lg.source.v6"),
    "V7": msg("lg.source.v7"),
    "V8": msg("lg.source.v8"),
    "V9": msg("lg.source.v9"),
    "V10": msg("lg.source.v10"),
    "V11": msg("lg.source.v11"),
    "V12": msg("lg.source.v12"),
    "V13": msg("lg.source.v13"),
    "V14": msg("lg.source.v14"),
    "V15": msg("lg.source.v15"),
    "V16": msg("lg.source.v16"),
    "spent": msg("lg.source.spent"),
}
"""Each VP source of the ledger (spec 5.1) in words: the one place that names them (the terminal's score here, the
tablet's from the same ids ``lg.source.<code in lower case>``)."""


def source_order(code: str) -> tuple[int, str]:
    """V1 ... V16 in number order, other sources after."""
    return (int(code[1:]), code) if code[:1] == "V" and code[1:].isdigit() else (99, code)


def source_lines(ledger: Mapping[str, int]) -> list[Text]:
    """A ledger summed by source as ``"building completed +8"``, in the order of the spec; zero sums are left out,
    but for the final conversion."""
    ordered = sorted(ledger.items(), key=lambda item: source_order(item[0]))
    return [msg("lg.score.source", source=SOURCES.get(code, code), points=f"{points:+d}")
            for code, points in ordered if points or code == "V15"]


def tiebreak_notes(rows: Sequence[Mapping[str, Any]]) -> list[Text]:
    """Which tie-break decided (spec 5.4): for each group level on VP, the silver left, or a shared place."""
    notes: list[Text] = []
    for total in sorted({row["total"] for row in rows}, reverse=True):
        level = [row for row in rows if row["total"] == total]
        if len(level) < 2:
            continue
        names = [str(row["name"]) for row in level]
        counts = [msg("lg.score.silver_of", name=str(row["name"]), n=row.get("rest_silver", 0)) for row in level]
        if len({row.get("rest_silver") for row in level}) > 1:
            notes.append(msg("lg.score.tiebreak_silver", names=names, points=total, counts=counts))
        else:
            notes.append(msg("lg.score.tiebreak_shared", names=names, points=total, counts=counts))
    return notes or [msg("lg.score.tiebreak_none")]


def score_lines(rows: Sequence[Mapping[str, Any]]) -> list[Text]:
    """The score as lines, best first: place, name, VP and each source in words; at the end the tie-breaks."""
    lines: list[Text] = []
    for row in sorted(rows, key=lambda r: r.get("rank", 0)):
        place = f"{row['rank']}." if "rank" in row else "-"
        lines.append(msg("lg.score.row", place=place, player=str(row["name"]), n=row["total"],
                         sources=source_lines(row["ledger"]) or [msg("lg.score.no_vp")]))
    if all("rank" in row for row in rows):
        lines += tiebreak_notes(rows)
    return lines
