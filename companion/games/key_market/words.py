"""Key Market's words: the message identifiers built at run time (``message_ids``) and small helpers."""

from __future__ import annotations

from companion.core.messages import Message, msg
from companion.games.key_market.data import GOODS, GUILDS, LEVELS, SECTIONS, SHAPES


def good(key: str) -> Message:
    """A good's name (translated)."""
    return msg(f"km.good.{key}")


def guild(number: int) -> Message:
    """A guild's number and name."""
    return msg(f"km.guild.{number}")


def message_ids() -> set[str]:
    """Every identifier built from a key (``f"km.good.{key}"``...), for the catalog test."""
    return {*(f"km.good.{g}" for g in GOODS), *(f"km.guild.{n}" for n in range(1, GUILDS + 1)),
            *(f"km.level.{lv}" for lv in LEVELS), *(f"km.section.{s}" for s in SECTIONS),
            *(f"km.reason.base.{s}" for s in SHAPES),
            *(f"km.season_end.pick_{how}" for how in ("favour", "swap"))}
