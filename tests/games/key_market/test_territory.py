"""The territory (spec 4.1, 4.3 F1/F2): worked example 8 of spec section 9 on its made-up board, board joining
(L159-161), regions across boards, path costs."""

from __future__ import annotations

import pytest

from companion.games.key_market.data import Edition
from companion.games.key_market.territory import (
    Field,
    Placement,
    Territory,
    Worker,
    can_end_on,
    check_hire,
    hire_cost,
    joins,
    move_cost,
    territory,
)

ROWS = (("fruit square", "fruit round", "veg square"), ("wheat square", "lux round", "sheep round"),
        ("fish round", "fish square", "wheat round"))
LAND = Territory({(x, y): Field(1, "a", (x, y), cell.split()[1], cell.split()[0])
                  for y, row in enumerate(ROWS) for x, cell in enumerate(row)})
RED, BLUE = 0, 1
WORKERS = {(0, 0): Worker(RED), (1, 2): Worker(BLUE)}


def test_example_8_regions() -> None:
    assert LAND.region((0, 0)) == {(0, 0), (1, 0)}
    assert LAND.region((0, 2)) == {(0, 2), (1, 2)}
    assert LAND.region((0, 1)) == {(0, 1)} and LAND.region((1, 1)) == {(1, 1)}
    assert Territory(LAND.fields, "sort_and_shape").region((0, 0)) == {(0, 0)}


@pytest.mark.parametrize(("player", "target", "keyworker", "g4j", "rule"), [
    (RED, (1, 0), False, False, "4.1-2"),
    (RED, (2, 1), False, False, None),
    (RED, (1, 1), False, False, "4.3-F2"),
    (BLUE, (0, 2), False, False, "4.1-2"),
    (BLUE, (2, 0), False, False, None),
    (RED, (0, 2), True, False, "4.1-3"),
    (RED, (0, 2), True, True, None),
    (RED, (1, 2), True, True, "4.1-1"),
])
def test_example_8_hiring(player: int, target: tuple[int, int], keyworker: bool, g4j: bool, rule: str | None) -> None:
    error = check_hire(LAND, WORKERS, player, target, keyworker, g4j)
    assert (error.rule if error else None) == rule


def test_the_keyworkers_region_is_closed_to_others() -> None:
    """L698: others may not end in a region holding a keyworker."""
    workers = {(0, 2): Worker(RED, keyworker=True)}
    assert check_hire(LAND, workers, BLUE, (1, 2)) is not None


def test_example_8_moving_into_the_village() -> None:
    assert can_end_on(LAND, WORKERS, RED, (1, 1), leaving=(0, 0)) is None
    assert move_cost(LAND, (0, 0), (1, 1)) == (7, 0)
    assert move_cost(LAND, (0, 0), (1, 1), settle=2) == (4, 0)
    assert move_cost(LAND, (0, 0), (1, 1), settle=2, free_steps=6) == (2, 2)
    both = {**WORKERS, (2, 1): Worker(RED)}
    error = can_end_on(LAND, both, RED, (1, 1), leaving=(0, 0))
    assert error is not None and error.rule == "4.1-2"


def test_example_8_hiring_costs() -> None:
    assert (hire_cost(3), hire_cost(3, cap=2)) == (3, 2)
    assert hire_cost(3) + hire_cost(4) == 7 and hire_cost(3, 2) + hire_cost(4, 2) == 4
    assert (hire_cost(0, 2), hire_cost(1, 2)) == (0, 1)


def test_boards_join_along_a_whole_edge(edition: Edition) -> None:
    first = [Placement(1, "a", 0, 0)]
    assert joins(edition, first, Placement(2, "b", 3, 0, turns=1)) is None
    assert joins(edition, first, Placement(2, "b", 0, -3)) is None
    offset = joins(edition, first, Placement(2, "a", 3, 1))
    assert offset is not None and offset.rule == "2.2-15"
    assert joins(edition, first, Placement(2, "a", 2, 0)) is not None  # overlaps
    assert joins(edition, first, Placement(2, "a", 4, 0)) is not None  # a gap


def test_the_small_board_joins_by_its_long_edge(edition: Edition) -> None:
    small = [Placement(0, "a", 0, 0)]  # 3 wide, 2 deep
    assert joins(edition, small, Placement(1, "a", 0, 2)) is None
    assert joins(edition, small, Placement(1, "a", 3, 0)) is not None  # its short edge is 2 fields
    assert joins(edition, [Placement(0, "a", 0, 0, turns=1)], Placement(1, "a", 2, 0)) is None


def test_regions_and_paths_run_across_boards(edition: Edition) -> None:
    land = territory(edition, [Placement(1, "a", 0, 0), Placement(2, "a", 3, 0)])
    assert len(land.fields) == 18
    assert land.steps((0, 0), (5, 2)) == 7
    # board 1a's right column meets board 2a's left column: same goods there join one region
    for y in range(3):
        left, right = land.fields[(2, y)], land.fields[(3, y)]
        if left.good == right.good:
            assert (3, y) in land.region((2, y))
