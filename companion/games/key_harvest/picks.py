"""Key Harvest's decisions as picks (companion/core/picks.py): the worker or the action first, then the tile or the
space, then the stones.

Ids are the ones the stickers and the tablet's pictures use: a tile or a space by its printed label (``B3``), a
worker by its letter (``C``), a crop by its key (``wheat``); an action without a piece is its verb (``harvest``,
``end``, ``decline``). On the turn a worker's letter starts action B (placing it, or taking it back when it stands
on the board), a land-office tile starts a bid (D) and a warehouse tile a purchase (C): one tap on the piece. The
stones of a bid or a payment are picked as counts, one pick per crop in any order (``wheat*2``: two wheat stones),
so even a big bid is a few taps.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from companion.core.messages import Param, Text, msg
from companion.core.picks import Step, step
from companion.games.key_harvest import words
from companion.games.key_harvest.board import CROP_KEYS
from companion.games.key_harvest.moves import KHMove, label_crop
from companion.games.key_harvest.state import LABOURERS, State, stones_of

COUNT_SEP = "*"
"""Between a crop and its count in a stones pick's id (``wheat*2``)."""
UNORDERED_VERBS = frozenset({"gain", "flip"})
"""Verbs whose arguments are one unordered pick (two crops, two tiles)."""
SINGLE_TILE = frozenset({"buy", "fallow", "seize", "bonus", "give", "take"})
ASKS = ("action", "harvest", "instead", "place_labourer", "place_townsfolk", "space", "remove", "reuse", "move", "buy",
        "bid", "stones_of", "swap_own", "swap_for", "crop", "flip", "take_stone", "take", "fallow", "seize", "bonus",
        "give", "tile")
"""The questions of the picks (``kh.ask.<key>``)."""
CONFIRMED = frozenset({"bid", "pay", "buy", "remove"})
"""Decisions with a cost, shown in words with an OK first: stones bid or paid, a purchase, action B spent on taking
a worker back."""


def ask(key: str, **params: Param) -> Text:
    """A pick's question (``kh.ask.<key>``)."""
    return msg(f"kh.ask.{key}", **params)


def tile_step(state: State, question: Text, label: str, unordered: bool = False) -> Step:
    """A field tile by its label, in words with its crop (``B3 (wheat)``)."""
    space = state.layout.index.get(label)
    words_: Text = label if space is None else msg("kh.pick.tile", label=label, crop=words.crop(state.layout.crops[space]))
    return step(question, label, words_, unordered)


def worker_step(question: Text, letter: str) -> Step:
    return step(question, letter, msg("kh.pick.worker", worker=letter, name=words.worker(letter)))


def verb_step(state: State, move: KHMove) -> Step:
    """A decision without a piece (end the turn, decline, done, keep...), in the words of the whole move."""
    return step(ask("action"), move.verb, words.move_text(state, move))


def stone_steps(args: Sequence[str]) -> list[Step]:
    """The stones of a bid or a payment: one unordered pick per crop, its count in the id."""
    return [count_step(key, n) for key, n in zip(CROP_KEYS, stones_of(args)) if n]


@cache
def count_step(key: str, n: int) -> Step:
    """``n`` stones of crop ``key`` (made once: a table's bids repeat them thousands of times)."""
    return step(ask("stones_of", crop=words.crop(key)), f"{key}{COUNT_SEP}{n}", msg("kh.stones", n=n, crop=words.crop(key)),
                unordered=True)


def harvest_steps(state: State, question: Text, arg: str) -> list[Step]:
    """A tile to harvest, and the crop taken instead when its own is out (R-A4)."""
    label, substitute = label_crop(arg)
    steps = [tile_step(state, question, label)]
    if substitute is not None:
        steps.append(step(ask("instead"), substitute.key, words.crop(substitute)))
    return steps


def worker_on(state: State, seat: int, label: str) -> str:
    """The letter of ``seat``'s worker on space ``label``."""
    space = state.layout.index[label]
    letter = state.player(seat).worker_at(space)
    assert letter is not None, (seat, label)
    return letter


def pick_path(state: State, move: KHMove) -> list[Step]:
    """How ``move`` is picked in ``state`` (see the module's text)."""
    top = state.top
    seat = state.active if top is None else top.player
    verb, args = move.verb, move.args
    if not args:
        return [verb_step(state, move)]
    if verb == "pay":
        return stone_steps(args)
    if verb == "bid":
        return [tile_step(state, ask("bid"), args[0]), *stone_steps(args[1:])]
    if verb == "harvest":
        return [step(ask("action"), "harvest", msg("kh.pick.harvest")), *harvest_steps(state, ask("harvest"), args[0])] \
            if top is None else harvest_steps(state, ask("harvest"), args[0])
    if verb == "play":
        question = ask("place_labourer" if args[0] in LABOURERS else "place_townsfolk")
        return [worker_step(question, args[0]), step(ask("space"), args[1], args[1])]
    if verb in ("remove", "reuse"):
        return [worker_step(ask(verb), worker_on(state, seat, args[0]))]
    if verb == "move":
        return [worker_step(ask("move"), worker_on(state, seat, args[0])), step(ask("space"), args[1], args[1])]
    if verb == "swap":
        return [tile_step(state, ask("swap_own"), args[0]), tile_step(state, ask("swap_for"), args[1])]
    if verb == "gain":
        return [step(ask("crop"), key, words.crop(key), unordered=True) for key in args]
    if verb == "flip":
        return [tile_step(state, ask("flip"), label, unordered=True) for label in args]
    if verb == "take" and top is not None and top.kind == "ability" and top.worker in ("A", "B"):
        return [_take_step(state, arg) for arg in args]  # a stone from one tile (two for B), in any order
    if verb in SINGLE_TILE:
        return [tile_step(state, ask(verb if top is not None else "buy"), args[0])]
    return [tile_step(state, ask("tile"), args[0])]


def _take_step(state: State, arg: str) -> Step:
    """A stone from a tile of the Apprentice or the Casual Labourer (a substitute crop in the id: ``B3/wine``)."""
    label, substitute = label_crop(arg)
    if substitute is None:
        return tile_step(state, ask("take_stone"), label, unordered=True)
    return step(ask("take_stone"), arg, msg("kh.pick.tile_instead", label=label, crop=words.crop(substitute)), unordered=True)


def confirms(move: KHMove) -> bool:
    """Stones bid or paid, a purchase and a worker taken back are shown in words before they are sent."""
    return move.verb in CONFIRMED
