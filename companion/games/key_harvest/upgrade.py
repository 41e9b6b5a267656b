"""Old Key Harvest logs in today's notation (issue 10: one decision is one move).

Before issue 10 a bid took several moves: ``bid L crop``, then ``add crop`` per extra stone, then
``done`` (the companion skipped the ``done`` when the player had no stone left); a payment took one
``pay crop`` per stone. Today a bid is ``bid L crop crop ...`` and a payment ``pay crop crop ...``.
``upgrade_log`` rewrites a stored log: the moves of one bid, and a run of ``pay`` moves (one payment:
two payments are always separated by another move), become one move each. A decision the log leaves
unfinished at its end is dropped, and its player makes it again as one move; those are player moves
only (the refill after a bid came after its ``done``), so no draw is lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.key_harvest.moves import parse_move


def _verb(text: str) -> str:
    tokens = text.split()
    return tokens[0].lower() if tokens else ""


def is_new_notation(moves: Sequence[tuple[str, bool]]) -> bool:
    """Whether the log already names several stones in one bid or payment (and never ``add``)."""
    player = [text.split() for text, chance in moves if not chance]
    if any(tokens[:1] and tokens[0].lower() == "add" for tokens in player):
        return False
    return any(len(t) > 3 and t[0].lower() == "bid" or len(t) > 2 and t[0].lower() == "pay" for t in player)


def upgrade_log(moves: Sequence[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """``moves`` (text, is_chance) in today's notation; a log already in it comes back unchanged."""
    if is_new_notation(moves):
        return list(moves)
    out: list[tuple[str, bool]] = []
    i, n = 0, len(moves)
    while i < n:
        text, chance = moves[i]
        verb = _verb(text)
        if not chance and verb == "bid":
            stones = text.split()[2:]
            j = i + 1
            while j < n and not moves[j][1] and _verb(moves[j][0]) == "add":
                stones += moves[j][0].split()[1:]
                j += 1
            if j == n:
                break  # an unfinished bid at the end: the player bids again, all stones at once
            if not moves[j][1] and _verb(moves[j][0]) == "done":
                j += 1
            out.append((str(parse_move(" ".join(["bid", text.split()[1], *stones]))), False))
            i = j
            continue
        if not chance and verb == "pay":
            stones = []
            j = i
            while j < n and not moves[j][1] and _verb(moves[j][0]) == "pay":
                stones += moves[j][0].split()[1:]
                j += 1
            if j == n:
                break  # a payment the log may leave unfinished: the player pays again, all stones at once
            out.append((str(parse_move(" ".join(["pay", *stones]))), False))
            i = j
            continue
        out.append((text, chance))
        i += 1
    return out
