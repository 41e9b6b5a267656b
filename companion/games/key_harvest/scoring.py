"""Key Harvest scoring (spec section 8): workers, two largest groups, crop majorities, tie-breaks.

Pure functions over board masks, shared by the live game and the snapshot scorer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.key_harvest.board import components

WORKER_VALUES: Mapping[str, int] = {
    "A": 1, "B": 1, "C": 2, "D": 2, "E": 3, "F": 3, "G": 4, "H": 4, "I": 4, "J": 5, "K": 5, "L": 5,
}


@dataclass(frozen=True, slots=True)
class ScoringBoard:
    """What scoring needs of one player: field tiles, workers, stones behind the screen."""

    name: str
    fields: int
    neighbours: Sequence[int]
    workers: str
    stones: tuple[int, int, int, int, int]


def group_points(fields: int, neighbours: Sequence[int], min_group: int = 1) -> tuple[int, int]:
    """(largest group x1, second-largest group x2); groups under ``min_group`` tiles never count."""
    sizes = sorted((g.bit_count() for g in components(fields, neighbours)), reverse=True)
    sizes = [size for size in sizes if size >= min_group]
    largest = sizes[0] if sizes else 0
    second = sizes[1] if len(sizes) > 1 else 0
    return largest, 2 * second


def majority_points(stones: Sequence[Sequence[int]]) -> list[int]:
    """One point per crop to the single player holding strictly the most stones of it.

    One board alone (a snapshot of a single photographed board) has no one to compare with: 0.
    """
    points = [0] * len(stones)
    if len(stones) < 2:
        return points
    for crop in range(5):
        counts = [player[crop] for player in stones]
        best = max(counts)
        if counts.count(best) == 1:
            points[counts.index(best)] += 1
    return points


def score_boards(boards: Sequence[ScoringBoard], options: Mapping[str, str]) -> list[dict[str, Any]]:
    """The full score of each player, in seat order, with ranks after the tie-breaks (R-END, section 8)."""
    min_group = int(options.get("min_scoring_group_size", "1"))
    with_workers = options.get("tiebreak_tiles", "fields_only") == "fields_and_workers"
    majorities = majority_points([board.stones for board in boards])
    rows: list[dict[str, Any]] = []
    for board, majority in zip(boards, majorities):
        workers = sum(WORKER_VALUES[w] for w in board.workers)
        largest, second = group_points(board.fields, board.neighbours, min_group)
        tiles = board.fields.bit_count() + (len(board.workers) if with_workers else 0)
        rows.append({
            "name": board.name,
            "worker_points": workers,
            "largest_group_points": largest,
            "second_group_points": second,
            "majority_points": majority,
            "total": workers + largest + second + majority,
            "tiebreak": {"tiles": tiles, "stones": sum(board.stones)},
        })
    keys = [(row["total"], row["tiebreak"]["tiles"], row["tiebreak"]["stones"]) for row in rows]
    for row, key in zip(rows, keys):
        row["rank"] = 1 + sum(other > key for other in keys)
    return rows
