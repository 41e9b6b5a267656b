"""What a game tells the camera about its boards: the pieces on the hex lattice, and how one photographed
board becomes that player's part of the game's snapshot (docs/core.md, "Scoring snapshots and reading boards").

The camera (``companion.vision``) knows geometry: it fits the lattice to the stickers and places each piece on
a space. The game, through its ``BoardReader``, says which of its stickers make up a board and what the
placed pieces mean.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.errors import UnsupportedError
from companion.core.messages import Message, Text, msg

Coord = tuple[int, int]
"""Axial hex coordinates ``(q, r)`` of a space on a photographed board."""
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Piece:
    """A sticker placed on a board: its registry code, kind, key and side, the space it lies on (axial) and
    where its sticker is in the photo (pixels)."""

    code: str
    kind: str
    key: str
    side: str | None
    at: Coord
    center: Point


@dataclass(frozen=True, slots=True)
class Conflict:
    """Something on the photo that cannot be turned into a board: a clear message and the codes involved."""

    kind: str
    """``duplicate``, ``both-sides``, ``same-space``, ``off-space`` or ``duplicate-worker``."""
    message: Text
    codes: tuple[str, ...]


@dataclass(frozen=True)
class BoardPhoto:
    """One photographed board in lattice terms: the placed pieces and any conflicts."""

    pieces: tuple[Piece, ...]
    conflicts: tuple[Conflict, ...]
    tile_kinds: frozenset[str]
    """The kinds of ``pieces`` that are tiles on the lattice (the rest stand on free spaces)."""

    @property
    def tiles(self) -> list[Piece]:
        return [p for p in self.pieces if p.kind in self.tile_kinds]

    @property
    def workers(self) -> list[Piece]:
        return [p for p in self.pieces if p.kind not in self.tile_kinds]


@dataclass(frozen=True)
class Calibration:
    """A data pack measured from a photo of a full board (``companion calibrate``)."""

    data: dict[str, Any]
    """The data pack JSON, as ``Game.with_data`` and ``Game.install_data`` take it."""
    summary: str
    """One line saying what was measured."""
    warnings: tuple[str, ...] = ()


class BoardReader(ABC):
    """How one game's boards are read off code stickers: which stickers lie on the board and what they mean."""

    game: str
    """The game's name, as its stickers carry it in the code registry."""
    tile_kinds: frozenset[str]
    """Sticker kinds on tiles that lie on the board's hex spaces; they fix the lattice."""
    standing_kinds: frozenset[str]
    """Sticker kinds of pieces that stand on a free space next to tiles (workers)."""
    reported: Mapping[str, str]
    """Every other sticker kind of the game, with the message id of why it is not placed on a board."""
    hidden_name: str
    """What a camera cannot see on a board and players give by hand (``scan --hidden NAME:...``)."""
    hidden_note: str
    """Why it is needed and how to give it, one sentence."""
    score_sources: Sequence[tuple[str, str]]
    """(key in a score row, message id of its name) of each source of points, in the order a screen lists them."""
    difference_ids: Mapping[str, str]
    """The message id (parameter ``items``) of each list ``compare`` returns, by the list's name."""
    summary_id: str
    """The message id of what a board holds (parameters ``tiles`` and ``workers``: tiles and standing pieces)."""
    alone_note_id: str
    """The message id of what a board photographed alone cannot score, and why the game is needed."""

    def not_placed(self, kind: str) -> Message:
        """Why a sticker of ``kind`` (a piece of the game that does not lie on a board) is not placed on one."""
        return msg(self.reported.get(kind, "core.camera.not_a_board_piece"))

    @abstractmethod
    def player(self, name: str, board: BoardPhoto, hidden: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``board`` as player ``name``'s part of the game's snapshot, with the ``hidden`` extras given."""

    @abstractmethod
    def snapshot(self, players: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The snapshot (``Game.score_snapshot``'s format) of these players' parts, in seat order."""

    @abstractmethod
    def parse_hidden(self, text: str) -> dict[str, Any]:
        """One player's hidden extras from their command-line text (e.g. ``wheat=3,wine=2``), checked."""

    @abstractmethod
    def compare(self, board: BoardPhoto, state: Any, seat: int) -> tuple[dict[str, Any], dict[str, list[str]],
                                                                           dict[str, Any]]:
        """``board`` photographed for ``seat`` of the game in ``state``: that seat's part as photographed (hidden
        extras from the game), what differs from the game (each list named by what it holds), and the snapshot of
        the table with this board as photographed."""

    @abstractmethod
    def screened(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """A score row as the table may see it before the end (points that tell what is hidden left out)."""

    def summary(self, board: BoardPhoto) -> Message:
        """What the photographed board holds, in words."""
        return msg(self.summary_id, tiles=len(board.tiles), workers=len(board.workers))

    def score_lines(self, row: Mapping[str, Any]) -> list[Message]:
        """A score row in words: one line per source of points, then the total; a part the table may not see yet
        (None in a ``screened`` row) says it is shown at the end."""
        lines = []
        for key, name in (*self.score_sources, ("total", "core.camera.total")):
            value = row.get(key)
            lines.append(msg("core.camera.points_later", source=msg(name)) if value is None
                         else msg("core.camera.points", source=msg(name), points=value))
        return lines

    def difference_lines(self, differs: Mapping[str, Sequence[str]]) -> list[Message]:
        """What ``compare`` found different, one line per list that is not empty; none when the photo agrees."""
        return [msg(self.difference_ids[name], items=list(items)) for name, items in differs.items() if items]

    def calibrate(self, board: BoardPhoto, source: str) -> Calibration:
        """The data pack a photo of a full board shows (``source`` names the photo)."""
        raise UnsupportedError(f"{self.game} boards are read, not calibrated, from a photo")
