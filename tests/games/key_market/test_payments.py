"""Payments (spec 4.2, 6.3): DIFF, FLEX, the guild 7 reductions, guild 14 M's gold, the manor; legal and illegal."""

from __future__ import annotations

import pytest

from companion.games.key_market.payments import Payer, check, check_manor, is_diff, is_flex

PLENTY = {"fruit": 3, "veg": 3, "wheat": 3, "sheep": 3, "fish": 3, "lux": 3}


def g(**counts: int) -> dict[str, int]:
    return counts


@pytest.mark.parametrize(("paid", "n", "ok"), [
    (g(fruit=1, veg=1), 2, True), (g(lux=1), 2, True), (g(fruit=2), 2, False), (g(fruit=1), 2, False),
    (g(fruit=1, veg=1, wheat=1), 3, True), (g(lux=1, fish=1), 3, True), (g(lux=2), 4, False),
    (g(lux=1, fruit=1, veg=1), 4, True), (g(lux=1, fruit=2), 4, False), (g(fruit=1, veg=1, wheat=1, sheep=1), 4, True),
    (g(lux=1, fruit=1), 2, False),
])
def test_diff(paid: dict[str, int], n: int, ok: bool) -> None:
    assert is_diff(paid, n) is ok


def test_flex() -> None:
    assert is_flex(g(fruit=2, veg=1), 3) and is_flex(g(lux=2), 4) and is_flex(g(lux=1, fish=2), 4)
    assert not is_flex(g(lux=2), 3)
    assert is_flex(g(lux=2), 3, exact=False)


def test_placing_an_apprentice() -> None:
    assert check("place", g(fruit=1, veg=1), 0, Payer(), PLENTY, 0) is None
    assert check("place", g(fruit=1), 0, Payer(), PLENTY, 0) is not None
    assert check("place", g(fruit=1), 0, Payer(g7_apprentice=True), PLENTY, 0) is None
    assert check("place", g(lux=1), 0, Payer(g7_apprentice=True), PLENTY, 0) is None  # DIFF(2) still allowed
    error = check("place", g(fruit=1, veg=1), 0, Payer(), g(fruit=1), 0)
    assert error is not None and error.rule == "4.2"  # not behind the screen (committed goods do not count)


def test_promoting_with_guilds_7_and_16() -> None:
    assert check("promote_j", g(fruit=1, veg=1), 0, Payer(), PLENTY, 0) is not None
    assert check("promote_j", g(fruit=1, veg=1), 0, Payer(g7_journeyman=True), PLENTY, 0) is None
    assert check("promote_j", g(fruit=3), 0, Payer(g16=frozenset("A")), PLENTY, 0) is None
    assert check("promote_m", g(fruit=2, lux=1), 0, Payer(g16=frozenset("J")), PLENTY, 0) is None
    assert check("promote_m", g(fruit=3), 0, Payer(g7_journeyman=True, g16=frozenset("J")), PLENTY, 0) is None
    assert check("promote_m", g(fruit=3), 0, Payer(g7_journeyman=True, g16=frozenset("J"), flex_reduced=False),
                 PLENTY, 0) is not None


def test_retiring() -> None:
    assert check("retire", g(fruit=1, veg=1, lux=1), 0, Payer(), PLENTY, 0) is None
    assert check("retire", {}, 9, Payer(g14_master=9), PLENTY, 9) is None
    assert check("retire", {}, 9, Payer(g14_master=9), PLENTY, 8) is not None
    assert check("retire", {}, 9, Payer(), PLENTY, 9) is not None
    assert check("retire", g(fish=2, lux=1), 0, Payer(g16=frozenset("M")), PLENTY, 0) is None


def test_manor() -> None:
    assert check_manor(g(fruit=1, veg=1, lux=1), "fruit", PLENTY) is None
    assert check_manor(g(fruit=2, lux=1), "fruit", PLENTY) is not None
    assert check_manor(g(veg=1, wheat=1, lux=1), "fruit", PLENTY) is not None
    assert check_manor(g(fruit=1, veg=1, wheat=1), "fruit", PLENTY) is not None
