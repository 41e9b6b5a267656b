"""Decisions as picks: a move chosen by a few taps on pieces, never from a list of every complete move.

A game says how each of its moves is picked (``Game.pick_path``): a short sequence of ``Step`` values, each the
question it answers (``ask``: "Which tile?") and the option picked (``Choice``: the component's stable id, the same
one its code sticker and its picture use, and its words). The last steps of a path may be ``unordered`` (the stones
of a bid, two crops): they are picked in any order, and the same piece may be picked more than once.

``PickTree`` holds the paths of the moves offered now and answers, for the ids picked so far, the options of the
next pick only (``node``), and the one move a complete set of picks makes (``move_of``). A device assembles the
picks and sends the whole decision as one move with the version it was chosen from. The moves reachable through the
picks are exactly the moves offered (``reachable``; tests/core/test_picks.py checks it for every game).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.core.errors import MalformedInputError
from companion.core.messages import Text, msg

MAX_PICKS = 16
"""The most picks a decision may take; a longer request is malformed."""


@dataclass(frozen=True)
class Choice:
    """One option of a pick: ``id`` names the component (a tile's label, a worker's letter, a crop...) or the
    action; ``words`` is how a player reads it."""

    id: str
    words: Text

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "words": self.words}


@dataclass(frozen=True)
class Step:
    """A pick of a move's path: the question it answers and the option picked."""

    ask: Text
    choice: Choice
    unordered: bool = False
    """Part of the path's unordered tail (every step after the first unordered one must be unordered too)."""


def step(ask: Text, id: str, words: Text, unordered: bool = False) -> Step:
    """``Step(ask, Choice(id, words), unordered)``, the short way."""
    return Step(ask, Choice(id, words), unordered)


@dataclass(frozen=True)
class Group:
    """The options of the next pick that answer one question."""

    ask: Text
    options: tuple[Choice, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ask": self.ask, "options": [option.to_json() for option in self.options]}


M = TypeVar("M")


@dataclass(frozen=True)
class Node(Generic[M]):
    """What a device shows after some picks: what was picked (in words), the options of the next pick grouped by
    question, and ``done``: the move the picks make as they are (``None`` if they make none yet)."""

    chosen: tuple[Choice, ...]
    groups: tuple[Group, ...]
    done: M | None

    @property
    def options(self) -> list[Choice]:
        return [option for group in self.groups for option in group.options]


class PickTree(Generic[M]):
    """The offered moves with their paths; ``node`` and ``move_of`` walk them by the ids picked so far."""

    def __init__(self, paths: Iterable[tuple[M, Sequence[Step]]]) -> None:
        self.paths: list[tuple[M, tuple[Step, ...], int]] = []
        """Each move, its path and where its unordered tail starts."""
        for move, path in paths:
            path = tuple(path)
            tail = next((i for i, s in enumerate(path) if s.unordered), len(path))
            if not all(s.unordered for s in path[tail:]):
                raise ValueError(f"{move}: an ordered pick after an unordered one")
            self.paths.append((move, path, tail))

    def _matches(self, chosen: Sequence[str]) -> list[tuple[M, tuple[Step, ...], int, list[Step]]]:
        """The moves whose path starts with ``chosen`` (the unordered tail in any order), each with its steps still
        open (for an unordered tail: what is left of it)."""
        found = []
        for move, path, tail in self.paths:
            ordered = min(len(chosen), tail)
            if any(path[i].choice.id != chosen[i] for i in range(ordered)):
                continue
            if len(chosen) <= tail:
                found.append((move, path, tail, list(path[len(chosen):])))
                continue
            left = list(path[tail:])
            for picked in chosen[tail:]:
                at = next((i for i, s in enumerate(left) if s.choice.id == picked), None)
                if at is None:
                    break
                del left[at]
            else:
                found.append((move, path, tail, left))
        return found

    def node(self, chosen: Sequence[str]) -> Node[M]:
        """The node after ``chosen``; ``MalformedInputError`` if no offered move starts with those picks (the table
        moved on, or a device made them up)."""
        if len(chosen) > MAX_PICKS:
            raise MalformedInputError(msg("core.refuse.picks_too_many", n=MAX_PICKS))
        found = self._matches(chosen)
        if not found and (chosen or self.paths):
            raise MalformedInputError(msg("core.refuse.picks_unknown"))
        groups: dict[Any, list[Choice]] = {}
        asks: dict[Any, Text] = {}
        seen: set[tuple[Any, str]] = set()
        done: M | None = None
        words: tuple[Choice, ...] = ()
        for move, path, tail, left in found:
            if not words:
                words = self._chosen_words(path, tail, chosen)
            if not left:
                done = move
                continue
            nexts = left if len(chosen) >= tail else left[:1]
            for s in nexts:
                key = _ask_key(s.ask)
                if (key, s.choice.id) in seen:
                    continue
                seen.add((key, s.choice.id))
                asks.setdefault(key, s.ask)
                groups.setdefault(key, []).append(s.choice)
        return Node(words, tuple(Group(asks[key], tuple(options)) for key, options in groups.items()), done)

    @staticmethod
    def _chosen_words(path: tuple[Step, ...], tail: int, chosen: Sequence[str]) -> tuple[Choice, ...]:
        """The choices ``chosen`` names, in the order picked, with their words (from a path they match)."""
        words = [s.choice for s in path[:min(len(chosen), tail)]]
        left = list(path[tail:])
        for picked in chosen[tail:]:
            at = next(i for i, s in enumerate(left) if s.choice.id == picked)
            words.append(left.pop(at).choice)
        return tuple(words)

    def move_of(self, chosen: Sequence[str]) -> M:
        """The one move the picks ``chosen`` make; ``MalformedInputError`` if they make none (incomplete, or not
        offered)."""
        done = self.node(chosen).done
        if done is None:
            raise MalformedInputError(msg("core.refuse.picks_incomplete"))
        return done

    def reachable(self) -> list[M]:
        """Every move reachable by walking the picks from the start: each option taken (an unordered tail in one
        order only), each node's move kept. Walks the paths once, splitting them by the option picked (what
        ``node`` offers at each step)."""
        out: list[M] = []
        todo: list[tuple[int, str, list[tuple[M, tuple[Step, ...], int, list[Step]]]]] = [
            (0, "", [(m, p, t, list(p)) for m, p, t in self.paths])]
        while todo:
            depth, floor, found = todo.pop()
            children: dict[str, list[tuple[M, tuple[Step, ...], int, list[Step]]]] = {}
            for move, path, tail, left in found:
                if not left:
                    out.append(move)
                    continue
                nexts = left if depth >= tail else left[:1]
                for at, s in enumerate(nexts):
                    key = s.choice.id
                    if depth > tail and key < floor:  # an unordered tail is walked in sorted order only
                        continue
                    if any(n.choice.id == key for n in nexts[:at]):
                        continue
                    children.setdefault(key, []).append((move, path, tail, left[:at] + left[at + 1:]))
            todo.extend((depth + 1, key, group) for key, group in children.items())
        return out


@dataclass(frozen=True)
class Start:
    """Where a scanned piece leads in the picks (the scan station): the choices up to the one that names it, and
    whether they make one move alone (else a device goes on picking from there)."""

    chosen: tuple[Choice, ...]
    complete: bool

    def to_json(self) -> dict[str, Any]:
        return {"picks": [c.id for c in self.chosen], "words": [c.words for c in self.chosen], "complete": self.complete}


def starts_naming(tree: PickTree[M], key: str, moves: Iterable[M]) -> list[Start]:
    """For the offered ``moves`` that name a piece (``Game.moves_naming``), the distinct picks that lead to it: each
    path up to and including the pick of ``key`` (any case), the whole path where no pick is ``key``."""
    wanted = set(moves)
    groups: dict[tuple[str, ...], list[tuple[Step, ...]]] = {}
    for move, path, _ in tree.paths:
        if move not in wanted:
            continue
        at = next((i for i, s in enumerate(path) if s.choice.id.upper() == key.upper()), len(path) - 1)
        groups.setdefault(tuple(s.choice.id for s in path[:at + 1]), []).append(path)
    return [Start(tuple(s.choice for s in paths[0][:len(ids)]), len(paths) == 1 and len(paths[0]) == len(ids))
            for ids, paths in groups.items()]


def _ask_key(ask: Text) -> Any:
    return ask if isinstance(ask, str) else (ask.id, repr(sorted(ask.params.items())))


def node_json(node: Node[Any], move_words: Text | None, confirm: bool) -> dict[str, Any]:
    """A node as a device receives it: ``chosen`` (each pick in words), ``groups`` (each question and its options),
    ``done`` (``{"words", "confirm"}`` when the picks make a move: ``confirm`` asks the device to show it in words
    before sending it, a decision with a cost)."""
    return {"chosen": [c.to_json() for c in node.chosen], "groups": [g.to_json() for g in node.groups],
            "done": None if node.done is None else {"words": move_words, "confirm": confirm}}


def whole_move_path(ask: Text, id: str, words: Text) -> tuple[Step, ...]:
    """A move picked whole, as one option (a decision with nothing to pick: ``end``, ``pass``)."""
    return (step(ask, id, words),)


def default_ask() -> Text:
    return msg("core.pick.move")
