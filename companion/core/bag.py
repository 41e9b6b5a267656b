"""A digital cloth bag: its composition is public, the order of what comes out is not.

The bag never stores an order. A draw is a chance step: every item still inside is an
equally likely outcome, and the outcome chosen is recorded in the game's history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class Bag(Generic[T]):
    """An immutable multiset of items (tiles, stones) that are drawn at random."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: tuple[tuple[T, int], ...] = tuple(
            sorted(Counter(items).items(), key=lambda pair: str(pair[0]))
        )

    def __len__(self) -> int:
        return sum(count for _, count in self._items)

    def __contains__(self, item: object) -> bool:
        return any(item == held for held, _ in self._items)

    def __iter__(self) -> Iterator[T]:
        for item, count in self._items:
            for _ in range(count):
                yield item

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"Bag({dict(self._items)!r})"

    def count(self, item: T) -> int:
        return next((count for held, count in self._items if held == item), 0)

    def composition(self) -> dict[T, int]:
        """What the bag holds, item by item (never in any order of drawing)."""
        return dict(self._items)

    def outcomes(self) -> list[tuple[T, int]]:
        """Each distinct item with its weight: the chance outcomes of one draw."""
        return list(self._items)

    def add(self, *items: T) -> Bag[T]:
        return Bag([*self, *items])

    def remove(self, item: T) -> Bag[T]:
        """The bag without one ``item``; ``KeyError`` if it is not inside."""
        for index, (held, count) in enumerate(self._items):
            if held == item:
                rest = self._items[:index] + ((held, count - 1),) * (count > 1) + self._items[index + 1:]
                bag: Bag[T] = Bag.__new__(Bag)
                bag._items = rest  # still in order: one count less, or one item gone
                return bag
        raise KeyError(item)
