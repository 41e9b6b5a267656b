"""Key Harvest moves: frozen values with a one-line text notation.

A move is a verb and its arguments, e.g. ``harvest B3/wine``, ``play C D4``, ``bid 31 wheat wine``,
``pay hops hops wheat``, ``buy C2``, ``end``. One decision is one move: a bid names all its stones and a
payment all the stones owed (issue 10); the stones of a bid or payment, like two crops, tiles or stones of
one pick, are written in a canonical order and read in any order. ``parse_move(str(move)) == move`` for every move. Chance moves (the
companion's draws) use the verbs ``first``, ``draw``, ``event``, ``stone``, ``crops`` and
``removed``. The full vocabulary is in docs/key-harvest-notation.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.core.errors import MalformedInputError
from companion.core.game import VerbMove, split_move
from companion.core.messages import msg
from companion.games.key_harvest.board import Crop

LABEL = "label"
LABEL_CROP = "label[/crop]"
CROP = "crop"
WORKER = "worker"
EVENT = "event"
SEAT = "seat"
STONES = "crop..."
"""Any number of crops (a bid's or a payment's stones), kept in crop order (hops ... wheat)."""

# verb -> (required argument kinds, optional argument kinds)
VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # player decisions
    "harvest": ((LABEL_CROP,), ()),
    "play": ((WORKER, LABEL), ()),
    "remove": ((LABEL,), ()),
    "buy": ((LABEL,), ()),
    "bid": ((LABEL,), (STONES,)),
    "pay": ((), (STONES,)),
    "add": ((CROP,), ()),  # never legal (R-D4): a bid is fixed; it names all its stones at once
    "gain": ((CROP,), (CROP,)),
    "take": ((LABEL_CROP,), (LABEL_CROP,)),
    "flip": ((LABEL,), (LABEL,)),
    "fallow": ((LABEL,), ()),
    "seize": ((LABEL,), ()),
    "reuse": ((LABEL,), ()),
    "bonus": ((LABEL,), ()),
    "give": ((LABEL,), ()),
    "swap": ((LABEL, LABEL), ()),
    "move": ((LABEL, LABEL), ()),
    "trade": ((), ()),
    "dip": ((), ()),
    "keep": ((), ()),
    "discard": ((), ()),
    "forward": ((), ()),
    "done": ((), ()),
    "decline": ((), ()),
    "end": ((), ()),
    # chance steps
    "first": ((SEAT,), ()),
    "draw": ((LABEL,), ()),
    "event": ((EVENT,), ()),
    "stone": ((CROP,), ()),
    "crops": ((CROP,), (CROP,)),
    "removed": ((EVENT,), ()),
}
CHANCE_VERBS = frozenset({"first", "draw", "event", "stone", "crops", "removed"})
EVENT_LETTERS = "MNOPQRSTUVWXYZ"
WORKER_LETTERS = "ABCDEFGHIJKL"
EVENT_NAMES = {
    "M": "Exchange", "N": "Swap", "O": "Gift", "P": "Good Harvest", "Q": "Lucky Dip", "R": "New Harvest",
    "S": "Resurvey", "T": "Quick Sale", "U": "Land Consolidation", "V": "Extra Harvest", "W": "Replacement",
    "X": "Migrant Worker", "Y": "Holiday", "Z": "Windfall",
}
WORKER_NAMES = {
    "A": "Apprentice", "B": "Casual Labourer", "C": "Day Labourer", "D": "Unskilled Labourer",
    "E": "Skilled Labourer", "F": "Overseer", "G": "Merchant", "H": "Storekeeper", "I": "Bailiff",
    "J": "Lawyer", "K": "Trader", "L": "Benefactor",
}
"""Working English names (spec 10.1 #5): check against the box before relying on them."""
CROP_ORDER = {crop.key: crop.value for crop in Crop}
_LABEL_RE = re.compile(r"^[A-Z0-9]{1,4}$")


@dataclass(frozen=True, slots=True)
class KHMove(VerbMove):
    """One Key Harvest move: ``verb`` and normalised ``args`` (labels upper case, crops by name)."""

    chance_verbs = CHANCE_VERBS


def _norm(kind: str, token: str, text: str) -> str:
    if kind == CROP:
        return Crop.parse(token).key
    if kind == LABEL_CROP:
        label, sep, crop = token.partition("/")
        return _norm(LABEL, label, text) + (f"/{Crop.parse(crop).key}" if sep else "")
    upper = token.upper()
    if kind == LABEL and _LABEL_RE.match(upper):
        return upper
    if kind == WORKER and len(upper) == 1 and upper in WORKER_LETTERS:
        return upper
    if kind == EVENT and len(upper) == 1 and upper in EVENT_LETTERS:
        return upper
    if kind == SEAT and token.isdigit() and 1 <= int(token) <= 4:
        return token
    raise MalformedInputError(msg("kh.refuse.bad_token", move=text, token=token, kind=kind))


def parse_move(text: str) -> KHMove:
    """Read a move in Key Harvest notation; ``MalformedInputError`` says what is wrong."""
    verb, args = split_move(text, VERBS)
    required, optional = VERBS[verb]
    if optional == (STONES,):
        if len(args) < len(required):
            raise MalformedInputError(msg("kh.refuse.expected", move=text, shape=" ".join((verb, *required, STONES))))
        head = tuple(_norm(kind, token, text) for kind, token in zip(required, args))
        stones = sorted((_norm(CROP, token, text) for token in args[len(required):]), key=CROP_ORDER.__getitem__)
        return KHMove(verb, head + tuple(stones))
    if not len(required) <= len(args) <= len(required) + len(optional):
        shape = " ".join([*required, *(f"[{kind}]" for kind in optional)])
        raise MalformedInputError(msg("kh.refuse.expected", move=text, shape=f"{verb} {shape}".rstrip()))
    kinds = (*required, *optional)
    return KHMove(verb, tuple(_norm(kind, token, text) for kind, token in zip(kinds, args)))


def label_crop(arg: str) -> tuple[str, Crop | None]:
    """Split ``B3/wine`` into its label and the substitute crop (``None`` if absent)."""
    label, _, crop = arg.partition("/")
    return label, (Crop.parse(crop) if crop else None)
