"""The rules' memo tables stay bounded, and a value kept with a frozen object is made once."""

from __future__ import annotations

import dataclasses

from companion.core.memo import Memo, kept_with


def test_a_memo_table_never_grows_past_its_bound() -> None:
    memo: Memo[int, int] = Memo(3)
    for n in range(100):
        memo[n] = n * n
        assert len(memo) <= 4
    assert memo[99] == 99 * 99  # the newest entry is always kept


@dataclasses.dataclass(frozen=True)
class Box:
    n: int


def test_a_kept_value_is_made_once_and_a_new_object_starts_without_it() -> None:
    made: list[int] = []
    box = Box(2)
    assert kept_with(box, "square", lambda: made.append(1) or box.n ** 2) == 4
    assert kept_with(box, "square", lambda: made.append(1) or 0) == 4
    assert made == [1]
    assert kept_with(Box(3), "square", lambda: 9) == 9
