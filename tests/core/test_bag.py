"""The digital cloth bag."""

from __future__ import annotations

import pytest

from companion.core.bag import Bag


def test_composition() -> None:
    bag = Bag(["red", "blue", "red", "gold"])
    assert len(bag) == 4
    assert bag.composition() == {"blue": 1, "gold": 1, "red": 2}
    assert bag.count("red") == 2 and bag.count("green") == 0
    assert "gold" in bag and "green" not in bag
    assert sorted(bag) == ["blue", "gold", "red", "red"]
    assert sorted(bag.outcomes()) == [("blue", 1), ("gold", 1), ("red", 2)]


def test_order_does_not_matter() -> None:
    assert Bag([1, 2, 2, 3]) == Bag([2, 3, 2, 1])
    assert hash(Bag([1, 2, 2, 3])) == hash(Bag([3, 2, 1, 2]))
    assert Bag([1, 2]) != Bag([1, 2, 2])


def test_remove_and_add() -> None:
    bag = Bag(["red", "red", "blue"])
    fewer = bag.remove("red")
    assert fewer.composition() == {"blue": 1, "red": 1}
    assert bag.count("red") == 2  # the original is unchanged
    assert fewer.remove("red").composition() == {"blue": 1}
    assert "red" not in fewer.remove("red")
    assert fewer.add("red", "green") == Bag(["red", "red", "blue", "green"])


def test_remove_missing_raises_key_error() -> None:
    with pytest.raises(KeyError):
        Bag(["red"]).remove("blue")
    with pytest.raises(KeyError):
        Bag(["red"]).remove("red").remove("red")
    with pytest.raises(KeyError):
        Bag().remove("red")
