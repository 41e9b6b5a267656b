"""La Granja moves: a verb and its arguments in one line of text (docs/games/la-granja.md).

One decision is one move (issue 10). Examples: ``place 12 ext silver olive:field``, ``die 4``, ``option siesta``,
``take grape olive`` (any order; read as ``take olive grape``), ``donkey 2 3`` (seat 2 chooses its 3-donkey marker,
in secret; everyone chooses at once), ``deliver wagner/2=wine cart12=olive:field`` (several deliveries at once, in
the order made), ``upgrade free olive grain`` (a free grant), ``discard 17 23``, ``release olive M3``, ``roof R5``,
``use R3``,
``adjust vp 2 Helper 17 paid two VP``. The companion's own steps (chance) use ``card``,
``start``, ``order``, ``lock``, ``reveal``, ``roll`` and ``donkeys`` (``donkeys 3 1 2``: the markers of
seats 1, 2, 3 revealed together once all have chosen). ``parse_move(str(m)) == m`` always.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.errors import MalformedInputError
from companion.core.game import VerbMove, split_move
from companion.core.messages import msg

# verb -> (fewest, most) arguments; -1: any number (the free text of ``adjust``)
VERBS: dict[str, tuple[int, int]] = {
    "place": (2, 8), "done": (0, 0), "skip": (0, 0), "discard": (1, 8), "roof": (1, 1), "pass": (0, 0),
    "die": (1, 1), "option": (1, 1), "take": (1, 2), "upgrade": (1, 3), "deliver": (1, 12), "draw": (0, 0),
    "donkey": (2, 2), "extra": (1, 1), "stall": (1, 1), "buy": (1, 1), "sell": (1, 1), "trade": (1, 1),
    "use": (1, 2), "helper": (1, 1), "adjust": (2, -1), "release": (1, 25),
    # the companion's chance steps
    "card": (1, 1), "start": (1, 1), "order": (1, 1), "lock": (1, 1), "reveal": (1, 1), "roll": (1, 9), "donkeys": (1, 4),
}
CHANCE_VERBS = frozenset({"card", "start", "order", "lock", "reveal", "roll", "donkeys"})
_ORDER = {k: i for i, k in enumerate(("olive", "grain", "grape", "pig", "food", "wine", "meat", "silver", "vp", "trade"))}


def token_key(token: str) -> tuple[int, int, str]:
    """The canonical order of the tokens of an unordered pick: goods, then crops on fields, then market spaces."""
    kind, _, where = token.partition(":")
    if token[:1] == "M" and token[1:].isdigit():
        return (2, int(token[1:]), token)
    return (1 if where else 0, _ORDER.get(kind, 99), token)


@dataclass(frozen=True, slots=True)
class LGMove(VerbMove):
    """One La Granja move: ``verb`` and normalised ``args``."""

    chance_verbs = CHANCE_VERBS


def _token(token: str) -> str:
    low = token.lower()
    if len(low) >= 2 and low[0] in "rm" and low[1:].isdigit():
        return low.upper()  # roof marker R7, market space M3
    return low


def parse_move(text: str) -> LGMove:
    """Read a move; ``MalformedInputError`` names what is wrong."""
    verb, rest = split_move(text, VERBS)
    low, high = VERBS[verb]
    if verb == "donkey" and len(rest) != 2:
        raise MalformedInputError(msg("lg.parse.donkey_seat", move=text))
    if len(rest) < low or (high >= 0 and len(rest) > high):
        raise MalformedInputError(msg("lg.parse.arguments", move=text, verb=verb, low=low, high=high) if high >= 0
                                  else msg("lg.parse.arguments_at_least", move=text, verb=verb, low=low))
    if verb == "adjust":
        kind, delta = rest[0].lower(), rest[1]
        try:
            amount = int(delta)
        except ValueError:
            raise MalformedInputError(msg("lg.parse.not_whole", move=text, value=delta)) from None
        return LGMove(verb, (kind, f"{amount:+d}", *rest[2:]))
    args = tuple(_token(t) for t in rest)
    if verb in ("roll",):
        if not all(a.isdigit() and 1 <= int(a) <= 6 for a in args):
            raise MalformedInputError(msg("lg.parse.dice", move=text))
        args = tuple(sorted(args))
    if verb in ("take", "release") or (verb == "upgrade" and args[0] == "free"):  # unordered picks: canonical
        head = args[:1] if verb == "upgrade" else ()
        args = (*head, *sorted(args[len(head):], key=token_key))
    if verb == "upgrade" and "free" in args[1:]:
        raise MalformedInputError(msg("lg.parse.free_grant", move=text))
    if verb == "deliver" and not all("=" in a for a in args):
        raise MalformedInputError(msg("lg.parse.deliver", move=text))
    if verb == "discard":
        if not all(a.isdigit() for a in args):
            raise MalformedInputError(msg("lg.parse.discard", move=text))
        args = tuple(sorted(args, key=int))
    if verb in ("donkey", "donkeys") and not all(a.isdigit() for a in args):
        raise MalformedInputError(msg("lg.parse.donkey_numbers", move=text))
    if verb in ("die", "extra", "card", "helper", "start", "order") and not args[0].isdigit():
        raise MalformedInputError(msg("lg.parse.not_a_number", move=text, value=args[0]))
    return LGMove(verb, args)
