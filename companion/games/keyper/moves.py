"""Keyper moves: a verb and its arguments in one line of text (docs/games/keyper.md).

A turn: ``keyper 2`` (the Keyper onto board 2's keep field), ``place orange 2.7`` (a keyple onto board 2, field 7),
``place white 1.2 boat B3`` (onto an empty river field with boat B3), ``place grey 3.5 lay`` (beside a standing
keyple, laying it down), ``place green F3`` (onto one's own built tile), ``place brown V4 build statue stone+stone``
(onto the tile being built, 4.8 (v)), ``lay 2.7`` / ``lay 2.7 both`` (lay down; a turn with nothing legal is skipped by the companion). Out of turn:
``follow white`` / ``pass``. Using what a keyple yields, one unit per move: ``take log``, ``process brick``,
``trade clay log+rock``, ``build cow_shed F1 log+clay``, ``upgrade V3 brick``, ``work clay``, ``ship log``,
``convert clay brick`` (a tile's conversion), ``pick alchemist``; ``done`` leaves the rest unused. Season steps:
``keep clay wheat`` (the keep tile's resources, in any order: read sorted), ``fairs private W2``, ``release cow``, ``fold 2 C`` (seat 2 folds
its board to option C, in secret), ``rest grey white`` (the team cap). The companion's chance steps: ``draw TILE``,
``boats B1 B2 B4 B6``, ``fair SEAT TILE`` (a private fair dealt, secret), ``ninth SEAT COLOUR``, ``start SEAT``,
``reveal A C B`` (the boards' folds, revealed together once all have chosen).
``parse_move(str(m)) == m`` always.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.errors import MalformedInputError
from companion.core.game import VerbMove, split_move
from companion.core.messages import msg

KEEP_TILE_MOST = 24
"""The most keyples a keep tile can hold: all 32 of a 4-player game but the 8 of the team cap (spec 2.3)."""
VERBS: dict[str, tuple[int, int]] = {
    "keyper": (1, 1), "place": (2, 5), "lay": (1, 2), "follow": (1, 1), "pass": (0, 0),
    "take": (1, 1), "process": (1, 1), "trade": (2, 2), "build": (3, 3), "upgrade": (2, 2), "work": (1, 1),
    "ship": (1, 1), "convert": (2, 2), "pick": (1, 1), "done": (0, 0), "keep": (1, KEEP_TILE_MOST), "fairs": (0, 9),
    "release": (1, 48), "fold": (2, 2), "rest": (1, 32),
    "draw": (1, 1), "boats": (4, 4), "fair": (2, 2), "ninth": (2, 2), "start": (1, 1), "reveal": (2, 4),
}
CHANCE_VERBS = frozenset({"draw", "boats", "fair", "ninth", "start", "reveal"})
UNIT_VERBS = frozenset({"take", "process", "trade", "build", "upgrade", "work", "ship", "convert"})
"""The verbs that use one unit of what a keyple yields."""


@dataclass(frozen=True, slots=True)
class KPMove(VerbMove):
    """One Keyper move: ``verb`` and normalised ``args``."""

    chance_verbs = CHANCE_VERBS


def pieces(text: str) -> tuple[str, ...]:
    """``log+clay`` -> ``('clay', 'log')``; ``free`` -> ``()``."""
    return () if text == "free" else tuple(sorted(text.split("+")))


def joined(items: tuple[str, ...] | list[str]) -> str:
    """The canonical text of a list of pieces (``free`` for none)."""
    return "+".join(sorted(items)) if items else "free"


def _token(token: str) -> str:
    low = token.lower()
    if len(low) >= 2 and low[0] in "fv" and low[1:].isdigit():
        return low.upper()  # a plot
    if len(low) >= 2 and low[0] in "bw" and low[1:].isdigit():
        return low.upper()  # a boat, a winter fair
    if len(low) >= 3 and low[:2] in ("sp", "su", "au") and low[2:].isdigit():
        return low.upper()  # a private fair
    return low


def parse_move(text: str) -> KPMove:
    """Read a move; ``MalformedInputError`` names what is wrong."""
    verb, rest = split_move(text, VERBS)
    low, high = VERBS[verb]
    if not low <= len(rest) <= high:
        raise MalformedInputError(msg("kp.parse.arguments", move=text, verb=verb, low=low, high=high))
    args = [_token(t) for t in rest]
    if verb in ("trade", "convert") or (verb == "build" and len(args) == 3):
        args[-1] = joined(pieces(args[-1]))
        if verb == "convert":
            args[0] = joined(pieces(args[0]))
    if verb == "upgrade":
        args[1] = joined(pieces(args[1]))
    if verb == "place" and len(args) >= 5 and args[2] == "build":
        args[4] = joined(pieces(args[4]))
    if verb in ("boats", "release", "rest", "keep"):
        args = sorted(args)
    if verb in ("fold", "reveal"):
        args = [a.upper() if a.isalpha() else a for a in args]
    if verb == "fairs":
        args = sorted(args, key=lambda a: (a != "private", a))
    if verb in ("fold", "fair", "ninth", "start", "keyper") and not args[0].isdigit():
        raise MalformedInputError(msg("kp.parse.number", move=text, value=rest[0]))
    return KPMove(verb, tuple(args))
