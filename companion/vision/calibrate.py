"""Calibration geometry: the coordinates of a photographed board moved onto a game's own coordinates.

A photo fixes the lattice only up to a turn, a mirror image and a shift; ``align`` finds the one that agrees
most with the coordinates the game has now (the game's ``BoardReader.calibrate`` builds its data from it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.core.boards import Coord


def _turn(coord: Coord, turns: int, mirror: bool) -> Coord:
    """``coord`` mirrored (q and r swapped) if asked, then turned ``turns`` times 60 degrees about [0, 0]."""
    q, r = (coord[1], coord[0]) if mirror else coord
    for _ in range(turns):
        q, r = -r, q + r
    return (q, r)


def align(photo: Sequence[Coord], current: Sequence[Coord]) -> tuple[list[Coord], int]:
    """``photo`` moved on the lattice to agree with ``current`` at as many places as possible, and how many agree.

    Mirror images are tried too (a layout transcribed with the other hand), but win only with more agreement.
    """
    best: tuple[int, list[Coord]] | None = None
    for mirror in (False, True):
        for turns in range(6):
            turned = [_turn(c, turns, mirror) for c in photo]
            shifts = Counter((a[0] - b[0], a[1] - b[1]) for a, b in zip(current, turned))
            (dq, dr), agree = shifts.most_common(1)[0]
            if best is None or agree > best[0]:
                best = (agree, [(q + dq, r + dr) for q, r in turned])
    assert best is not None
    return best[1], best[0]
