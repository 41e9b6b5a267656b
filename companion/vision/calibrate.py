"""Calibrate the Key Harvest layout from one photo of a board with all its field tiles on it.

Each field tile belongs on the space printed with its label, so a photo of a full board records
where every label really sits. The photo's coordinates are turned and moved onto the current
layout's (the way that keeps the most labels where they were), so a correct layout comes back
unchanged. Crops and start pairs are not visible on stickers: they are kept from the current
layout, and the result stays provisional when they were.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date

from companion.core.errors import MalformedInputError
from companion.games.key_harvest.board import Coord, Layout
from companion.vision.board import BoardRead

LISTED = 12
"""How many labels an error message names before it says "and N more"."""


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


def _names(labels: Sequence[str]) -> str:
    shown = ", ".join(labels[:LISTED])
    return shown + (f" and {len(labels) - LISTED} more" if len(labels) > LISTED else "")


def calibrated_layout(read: BoardRead, current: Layout, source: str = "a photo") -> tuple[Layout, int]:
    """The layout the photographed board shows, and how many of its labels moved from ``current``.

    ``MalformedInputError`` (nothing is changed) when the photo shows conflicts, misses a tile, or
    holds a tile the current layout does not know.
    """
    if read.conflicts:
        raise MalformedInputError("cannot calibrate from this photo: " + "; ".join(c.message for c in read.conflicts))
    where = {piece.key: piece.at for piece in read.tiles}
    missing = [label for label in current.labels if label not in where]
    if missing:
        raise MalformedInputError(
            f"cannot calibrate: {len(missing)} of the {current.size} field tiles are not on the photo "
            f"({_names(missing)}); lay every tile on its space, all stickers visible, and take the photo again")
    unknown = sorted(set(where) - set(current.labels))
    if unknown:
        raise MalformedInputError(f"cannot calibrate: tiles {_names(unknown)} are not on the {current.name} layout")
    coords, agree = align([where[label] for label in current.labels], current.coords)
    crops = "crops and start pairs kept from the layout " + repr(current.name)
    if current.provisional:
        crops += ", which are still PROVISIONAL placeholders: check them against your board"
    layout = Layout(
        name="camera-calibrated",
        labels=current.labels,
        coords=tuple(coords),
        crops=current.crops,
        start_pairs=current.start_pairs,
        pair_colours=current.pair_colours,
        provisional=current.provisional,
        note=f"Positions calibrated by the camera from {source} on {date.today().isoformat()}; {crops}.",
    )
    layout.check()
    return layout, current.size - agree
