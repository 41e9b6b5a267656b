"""Key Market's places and pieces as the table names them: a field by its good, where it lies on its board and
whose board that is ("the wheat field at the top left of Ann's second board"), a worker, a guild tile; and each
one's stable id, the code sticker's (``camera.py``: ``KM:F:1A:02`` a field, ``KM:W:2:K`` a keyworker) or, for a guild
tile, which has no sticker, ``KM:G:<number>``. Never a grid coordinate: the grid is the engine's, not the table's.
"""

from __future__ import annotations

from companion.core.messages import Message, msg
from companion.games.key_market.data import LUX
from companion.games.key_market.state import KEYWORKER, State
from companion.games.key_market.territory import SMALL_BOARD, Placement, footprint, lay

Pos = tuple[int, int]


def board_code(board: int, side: str) -> str:
    """``1A`` for side a of large board 1, ``S`` for the small board (the stickers' board names)."""
    return "S" if board == SMALL_BOARD else f"{board}{side.upper()}"


def field_id(board: int, side: str, cell: Pos) -> str:
    """A field's sticker code: its board side and printed cell."""
    return f"KM:F:{board_code(board, side)}:{cell[0]}{cell[1]}"


def worker_id(seat: int, index: int) -> str:
    """A worker's sticker code: the seat's set, 1-9 or K (the keyworker)."""
    return f"KM:W:{seat + 1}:{'K' if index == KEYWORKER else index}"


def guild_id(guild: int) -> str:
    """A guild tile's id (the tiles carry no sticker; their printed number names them)."""
    return f"KM:G:{guild}"


def spot(dx: int, dy: int, width: int, height: int) -> Message:
    """Where a field lies on its board as the table sees it: "top left", "centre", "bottom"..."""
    row = "top" if dy == 0 else "bottom" if dy == height - 1 else "middle"
    column = "left" if dx == 0 else "right" if dx == width - 1 else "middle"
    return msg(f"km.spot.{row}_{column}")


def board_words(s: State, index: int) -> Message:
    """The ``index``-th board laid, as the table calls it: "the small board", "Ann's board", "Ann's second board"."""
    p = s.placements[index]
    seat = s.laid_by[index] if index < len(s.laid_by) else -1
    if p.board == SMALL_BOARD:
        return msg("km.board.small")
    if seat < 0:
        return msg("km.board.code", code=board_code(p.board, p.side))
    mine = [i for i, who in enumerate(s.laid_by) if who == seat and s.placements[i].board != SMALL_BOARD]
    if len(mine) == 1:
        return msg("km.board.of", name=s.names[seat])
    return msg(f"km.board.nth_{mine.index(index) + 1}", name=s.names[seat])


def _box(cells: frozenset[Pos]) -> tuple[int, int, int, int]:
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def where_on(s: State, p: Placement, pos: Pos) -> Message:
    """Where ``pos`` lies on the board placed as ``p``, in the table's directions."""
    x0, y0, width, height = _box(footprint(s.edition, p))
    return spot(pos[0] - x0, pos[1] - y0, width, height)


def placement_of(s: State, pos: Pos) -> int:
    """The index of the board covering ``pos``."""
    for i, p in enumerate(s.placements):
        if pos in footprint(s.edition, p):
            return i
    raise KeyError(pos)


def field_at(s: State, pos: Pos) -> tuple[str, Message]:
    """The id and the words of the field at grid position ``pos``."""
    i = placement_of(s, pos)
    p = s.placements[i]
    f = lay(s.edition, p)[pos]
    return field_id(p.board, p.side, f.cell), field_name(f.good, where_on(s, p, pos), board_words(s, i))


def field_view(s: State, pos: Pos) -> dict[str, object]:
    """What a screen draws of the field at ``pos`` besides its good and shape: its id (``data-component``), where it
    lies on its board, and its name in words."""
    i = placement_of(s, pos)
    p = s.placements[i]
    f = lay(s.edition, p)[pos]
    where = where_on(s, p, pos)
    return {"id": field_id(p.board, p.side, f.cell), "spot": where, "name": field_name(f.good, where, board_words(s, i))}


def field_name(good: str, where: Message, board: Message, key: str = "km.pick.field") -> Message:
    """A field in words: ``key`` is the form (``km.pick.field``: "the wheat field at...", ``km.pick.on_field``:
    "on the wheat field at..."); a village is named as one."""
    if good == LUX:
        return msg(f"{key}_village", spot=where, board=board)
    return msg(key, good=msg(f"km.good.{good}"), spot=where, board=board)


def field_words(s: State, pos: Pos, key: str = "km.pick.field") -> Message:
    """The field at ``pos`` in words (``field_name``'s form ``key``)."""
    i = placement_of(s, pos)
    p = s.placements[i]
    return field_name(lay(s.edition, p)[pos].good, where_on(s, p, pos), board_words(s, i), key)


def worker_words(s: State, seat: int, index: int) -> Message:
    """A worker of ``seat`` where it stands: on a field, in a guild, in the supply; the keyworker named as such."""
    place = s.seat(seat).workers[index]
    key = index == KEYWORKER
    if place.startswith("f:"):
        x, _, y = place[2:].partition(",")
        return field_words(s, (int(x), int(y)), "km.pick.key_on" if key else "km.pick.worker_on")
    if place.startswith("g:"):
        _, guild, level, _ = place.split(":")
        return msg("km.pick.member", level=msg(f"km.level.{level}"), guild=msg(f"km.guild.{guild}"))
    return msg("km.pick.keyworker") if key else msg("km.pick.pool_worker")
