"""Stored La Granja logs in an older notation, rewritten in today's (``LaGranja.upgrade_log``).

Before issue 10 each seat chose its donkey marker in turn (``donkey 3``, seat 1 first, then seat 2...) and the
siesta step revealed them. Today the choice is simultaneous: ``donkey SEAT MARKER``, then the companion's
reveal step ``donkeys M1 M2 ...`` (a chance step with one outcome) once all have chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Log = list[tuple[str, bool]]


def seats_of_log(moves: Sequence[tuple[str, bool]]) -> int:
    """The number of players: the setup deals 4 cards to each before the first player's move (spec 2.1)."""
    dealt = 0
    for text, is_chance in moves:
        if not is_chance:
            break
        dealt += text.split()[0].lower() == "card"
    return max(1, dealt // 4)


def _old_donkey(text: str, is_chance: bool) -> bool:
    tokens = text.split()
    return not is_chance and len(tokens) == 2 and tokens[0].lower() == "donkey"


def upgrade_donkeys(moves: Sequence[tuple[str, bool]]) -> Log:
    """Sequential ``donkey N`` (seat order) -> ``donkey SEAT N`` and, after the last seat, ``donkeys ...``."""
    seats = seats_of_log(moves)
    out: Log = []
    run: list[str] = []
    for text, is_chance in moves:
        if _old_donkey(text, is_chance):
            run.append(text.split()[1])
            out.append((f"donkey {len(run)} {run[-1]}", False))
            if len(run) == seats:
                out.append(("donkeys " + " ".join(run), True))
                run = []
            continue
        out.append((text, is_chance))
    return out


def upgrade_log(game: Any, moves: Sequence[tuple[str, bool]]) -> Log:
    """Every rewrite, oldest first; a log already in today's notation comes back unchanged."""
    return upgrade_donkeys(moves)
