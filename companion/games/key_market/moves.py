"""Key Market moves: a verb and its arguments in one line (one decision is one move).

Fields are named by their grid position ``x,y``; goods by ``fruit veg wheat sheep fish lux``; a payment is a list of
goods (``fruit veg``, ``lux``), canonical in market row order. Players:

* setup: ``board X Y TURNS x,y`` (lay the dealt board, turned TURNS quarters, and a worker on ``x,y``),
  ``pay SEAT GOOD GOOD`` (the farmhouse payment, in secret, everyone at once);
* Farming, in the order F1-F6: ``move x,y x,y``, ``hire x,y [FROM]`` (FROM: ``pool``, ``key``, ``gN``),
  ``produce [2A:x,y] [8J:GOOD] [9J:x,y+x,y] [13M:GOOD]`` (guild 2 and 9's fields when the player picks others than
  the first, by guild order), ``swap GOOD [N]`` (guild 3), ``promote G[@COLUMN] PAY...``,
  ``manor PAY...``, ``retire FROM PAY...|gold`` (FROM: ``x,y``, ``gN``, ``pool``, ``key``), ``done``;
* Market Day: ``commit SEAT GOOD...`` (in secret, everyone at once), ``sell GOOD N``, ``mixed PLACED GOOD...``,
  guild actions ``apprentice G[@COLUMN] FROM PAY... [swap:GOOD]``, ``promote``, ``retire``, ``buy GOOD N`` or
  ``buy GOOD GOOD...`` (guild 15 M), ``gold``; ``pass``; in guild 10's priority window also ``done``;
* Season End: ``release [x,y...]`` (the workers not paid for; none: ``release``);
* with the variant ``leave_guild=any_time``: ``leave gN`` (a guild member back to the pool, no action spent).

The companion's chance steps: ``weather`` (year 1's markers), ``order``, ``farmhouses``, ``deal``, ``guild``,
``revealed`` (farmhouse payments shown together), ``committed`` (Market Day goods shown together), ``reveal``
(a year-2 pair turned up at a Season End). ``parse_move(str(m)) == m`` always.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.core.errors import MalformedInputError
from companion.core.game import VerbMove, split_move
from companion.core.messages import msg
from companion.games.key_market.data import GOODS

VERBS: dict[str, tuple[int, int]] = {
    "board": (4, 4), "pay": (3, 3), "move": (2, 2), "hire": (1, 2), "produce": (0, 4), "swap": (1, 2),
    "promote": (1, 5), "manor": (3, 3), "retire": (2, 5), "done": (0, 0), "commit": (2, 60), "sell": (2, 2),
    "mixed": (2, 3), "apprentice": (2, 6), "buy": (1, 3), "gold": (0, 0), "pass": (0, 0), "release": (0, 10), "leave": (1, 1),
    "weather": (6, 6), "order": (2, 4), "farmhouses": (2, 4), "deal": (1, 1), "guild": (1, 1), "revealed": (2, 4),
    "committed": (1, 4), "reveal": (2, 2),
}
CHANCE_VERBS = frozenset({"weather", "order", "farmhouses", "deal", "guild", "revealed", "committed", "reveal"})
MARKER = re.compile(r"[SRsr][0-9]+")
PAYING = frozenset({"promote", "manor", "retire", "apprentice"})
"""Verbs whose arguments end in a payment (goods in canonical order)."""


@dataclass(frozen=True, slots=True)
class KMMove(VerbMove):
    """One Key Market move: ``verb`` and normalised ``args``."""

    chance_verbs = CHANCE_VERBS


def goods_key(token: str) -> int:
    return GOODS.index(token) if token in GOODS else len(GOODS)


def canonical(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Goods in market row order, other tokens (``gold``, ``swap:...``) after them as given."""
    goods = sorted((t for t in tokens if t in GOODS), key=goods_key)
    return (*goods, *(t for t in tokens if t not in GOODS))


def _head(verb: str) -> int:
    """How many leading arguments of a paying move are not the payment."""
    return {"promote": 1, "manor": 0, "retire": 1, "apprentice": 2}[verb]


def parse_move(text: str) -> KMMove:
    """Read a move; ``MalformedInputError`` names what is wrong."""
    verb, rest = split_move(text, VERBS)
    low, high = VERBS[verb]
    if not low <= len(rest) <= high:
        raise MalformedInputError(msg("km.parse.arguments", move=text, verb=verb, low=low, high=high))
    args = tuple(t.upper() if MARKER.fullmatch(t) else t.lower() for t in rest)  # weather markers S3, R5
    if verb in PAYING:
        head = _head(verb)
        args = (*args[:head], *canonical(args[head:]))
    elif verb in ("commit", "pay"):
        args = (args[0], *canonical(args[1:]))
    elif verb == "release":
        args = tuple(sorted(args))
    elif verb == "produce":
        args = tuple(sorted(args, key=produce_order))
    for token in args:
        if verb in ("pay", "commit", "sell", "swap", "mixed", "buy") and token not in GOODS and not token.isdigit():
            raise MalformedInputError(msg("km.parse.good", move=text, token=token))
    return KMMove(verb, args)


def produce_order(token: str) -> tuple[int, str]:
    """A ``produce`` choice's place: by its guild's number (``2a:...`` before ``8j:...`` before ``13m:...``)."""
    key = token.partition(":")[0]
    digits = key.rstrip("abcdefghijklmnopqrstuvwxyz")
    return (int(digits) if digits.isdigit() else 0), key


def pos(token: str) -> tuple[int, int]:
    """A field's position ``x,y``; ``MalformedInputError`` if it is not one."""
    x, sep, y = token.partition(",")
    try:
        if sep:
            return int(x), int(y)
    except ValueError:
        pass
    raise MalformedInputError(msg("km.parse.field", token=token))


def at(p: tuple[int, int]) -> str:
    return f"{p[0]},{p[1]}"
