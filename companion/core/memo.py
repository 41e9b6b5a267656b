"""Memo tables for the rules' hot paths: bounded ones, and values kept with the immutable object they derive from."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")


_store = dict.__setitem__
"""A plain dict's store (``Memo`` stores with it: faster than ``super()``, called at every miss)."""


class Memo(dict[K, V]):
    """A memo table that forgets everything once it holds more than ``most`` entries and another is stored (cheap,
    and enough where the same keys recur within a game)."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) > self.most:
            self.clear()
        _store(self, key, value)


KEPT = "_kept"
"""The attribute where ``kept_with`` keeps its values (a copy of the holder must leave it out)."""


def kept_with(holder: object, key: Hashable, make: Callable[[], T]) -> T:
    """A value derived from ``holder`` (a frozen object whose copies start without it), made once and kept with it."""
    memo: dict[Hashable, Any] | None = holder.__dict__.get(KEPT)
    if memo is None:
        memo = holder.__dict__[KEPT] = {}
    found: T | None = memo.get(key)
    if found is None:
        found = memo[key] = make()
    return found
