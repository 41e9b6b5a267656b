"""The territory's geometry (spec 4.1): boards placed on one grid, orthogonal and 8-neighbours, regions, the standing
rule, path costs by shortest path, hiring and moving costs (spec 4.3 F1, F2).

A field is named by its global grid position ``(x, y)``; ``Territory`` keeps each field's board, shape and good.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from companion.core.memo import Memo
from companion.core.errors import IllegalMoveError
from companion.core.messages import msg
from companion.games.key_market.data import LUX, Cell, Edition

Pos = tuple[int, int]
ORTHOGONAL: tuple[Pos, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
AROUND: tuple[Pos, ...] = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
SMALL_BOARD = 0
"""The board number of the 2-player small board (large boards are 1-4)."""


@dataclass(frozen=True, slots=True)
class Field:
    """A field on the table: its board (0: the small board), the side up, its printed cell, shape and good."""

    board: int
    side: str
    cell: Pos
    shape: str
    good: str

    @property
    def is_village(self) -> bool:
        return self.good == LUX

    @property
    def large(self) -> bool:
        return self.board != SMALL_BOARD


@dataclass(frozen=True, slots=True)
class Placement:
    """A board laid on the table: which board and side, where its printed (0, 0) cell's corner goes and how often it
    is turned a quarter clockwise."""

    board: int
    side: str
    x: int
    y: int
    turns: int = 0


def _turned(cell: Pos, width: int, height: int, turns: int) -> Pos:
    x, y = cell
    for _ in range(turns % 4):
        x, y, width, height = height - 1 - y, x, height, width
    return x, y


def cells_of(edition: Edition, board: int, side: str) -> tuple[Cell, ...]:
    """The printed cells of a board side (board 0: the small board, which has one side)."""
    return edition.small_board if board == SMALL_BOARD else edition.boards[(board, side)]


Box = tuple[int, int, int, int]
"""The smallest rectangle around some fields: x from, x to, y from, y to (inclusive)."""
_LAID: dict[tuple[int, Placement], tuple[Edition, dict[Pos, Field], Box, frozenset[Pos]]] = Memo(1024)


def lay(edition: Edition, p: Placement) -> dict[Pos, Field]:
    """The fields a placement puts on the grid (cached with the edition it was made from; do not change the
    answer)."""
    return _laid(edition, p)[1]


def _laid(edition: Edition, p: Placement) -> tuple[Edition, dict[Pos, Field], Box, frozenset[Pos]]:
    """``lay``'s fields with the rectangle around them and their positions."""
    key = (id(edition), p)
    found = _LAID.get(key)
    if found is None or found[0] is not edition:
        fields = _lay(edition, p)
        found = _LAID[key] = (edition, fields, _box(fields), frozenset(fields))
    return found


def _near(a: Box, b: Box, gap: int) -> bool:
    """Whether two rectangles overlap once one is grown by ``gap`` on every side."""
    return a[0] - gap <= b[1] and b[0] - gap <= a[1] and a[2] - gap <= b[3] and b[2] - gap <= a[3]


def _lay(edition: Edition, p: Placement) -> dict[Pos, Field]:
    cells = cells_of(edition, p.board, p.side)
    width, height = max(c.x for c in cells) + 1, max(c.y for c in cells) + 1
    out = {}
    for c in cells:
        dx, dy = _turned((c.x, c.y), width, height, p.turns)
        out[(p.x + dx, p.y + dy)] = Field(p.board, p.side, (c.x, c.y), c.shape, c.good)
    return out


class Shape:
    """The geometry of some fields, whatever they hold: each one's orthogonal and 8-neighbours and the fewest
    orthogonal steps between them (found when first asked; territories covering the same fields share one
    ``shape_of``)."""

    def __init__(self, fields: frozenset[Pos]) -> None:
        self.fields = fields
        self._orthogonal: dict[Pos, tuple[Pos, ...]] = {}
        self._around: dict[Pos, tuple[Pos, ...]] = {}
        self._distances: dict[Pos, dict[Pos, int]] = {}

    def _next_to(self, pos: Pos, steps: tuple[Pos, ...]) -> tuple[Pos, ...]:
        """The fields one of ``steps`` away from ``pos`` (none for a position off the table)."""
        if pos not in self.fields:
            return ()
        x, y = pos
        return tuple(q for dx, dy in steps if (q := (x + dx, y + dy)) in self.fields)

    def orthogonal(self, pos: Pos) -> tuple[Pos, ...]:
        found = self._orthogonal.get(pos)
        if found is None:
            found = self._orthogonal[pos] = self._next_to(pos, ORTHOGONAL)
        return found

    def around(self, pos: Pos) -> tuple[Pos, ...]:
        found = self._around.get(pos)
        if found is None:
            found = self._around[pos] = self._next_to(pos, AROUND)
        return found

    def distances(self, start: Pos) -> Mapping[Pos, int]:
        """The fewest orthogonal steps from ``start`` to every field it reaches (remembered: do not change the
        answer)."""
        dist = self._distances.get(start)
        if dist is None:
            dist = self._distances[start] = {start: 0}
            ring, d = [start] if start in self.fields else [], 0
            while ring:
                d += 1
                nxt = []
                for at in ring:
                    for q in self.orthogonal(at):
                        if q not in dist:
                            dist[q] = d
                            nxt.append(q)
                ring = nxt
        return dist


_SHAPES: dict[frozenset[Pos], Shape] = Memo(512)


def shape_of(fields: frozenset[Pos]) -> Shape:
    """The ``Shape`` of the fields at these positions (remembered for the last few hundred: boards join edge to edge,
    so few shapes recur)."""
    found = _SHAPES.get(fields)
    if found is None:
        found = _SHAPES[fields] = Shape(fields)
    return found


@dataclass(frozen=True)
class Territory:
    """Every field on the table by position; ``region_by`` is variant ``region`` (spec 7.2 #12)."""

    fields: Mapping[Pos, Field]
    region_by: str = "sort"

    @cached_property
    def shape(self) -> Shape:
        return shape_of(frozenset(self.fields))

    @cached_property
    def villages(self) -> frozenset[Pos]:
        return frozenset(p for p, f in self.fields.items() if f.is_village)

    @cached_property
    def index(self) -> dict[Pos, int]:
        """Each field's place in the order of ``fields``."""
        return {p: i for i, p in enumerate(self.fields)}

    @cached_property
    def farmland(self) -> tuple[Pos, ...]:
        """Every field but the villages, in the order of ``fields``."""
        return tuple(p for p, f in self.fields.items() if not f.is_village)

    def orthogonal(self, pos: Pos) -> tuple[Pos, ...]:
        return self.shape.orthogonal(pos)

    def around(self, pos: Pos) -> tuple[Pos, ...]:
        """The 8-neighbourhood (L275, L293), across board edges too (spec 4.1)."""
        return self.shape.around(pos)

    @cached_property
    def _regions(self) -> dict[Pos, frozenset[Pos]]:
        return {}

    def _same_region(self, a: Field, b: Field) -> bool:
        return a.good == b.good and (self.region_by == "sort" or a.shape == b.shape)

    def region(self, pos: Pos) -> frozenset[Pos]:
        """The orthogonally connected fields of the same good (L133, L279); villages stand alone."""
        found = self._regions.get(pos)
        if found is None:
            found = self._regions[pos] = self._region(pos)
            for other in found:
                self._regions[other] = found
        return found

    def _region(self, pos: Pos) -> frozenset[Pos]:
        start = self.fields[pos]
        if start.is_village:
            return frozenset({pos})
        seen, todo = {pos}, [pos]
        while todo:
            for nxt in self.orthogonal(todo.pop()):
                if nxt not in seen and self._same_region(start, self.fields[nxt]):
                    seen.add(nxt)
                    todo.append(nxt)
        return frozenset(seen)

    def steps(self, start: Pos, end: Pos) -> int | None:
        """The fewest orthogonal steps over fields from ``start`` to ``end`` (through occupied fields too, L283)."""
        return self.shape.distances(start).get(end)

    def distances(self, start: Pos) -> Mapping[Pos, int]:
        """``steps`` from ``start`` to every field it reaches (remembered: do not change the answer)."""
        return self.shape.distances(start)


def territory(edition: Edition, placements: Iterable[Placement], region_by: str = "sort") -> Territory:
    """The territory the placements lay out."""
    fields: dict[Pos, Field] = {}
    for p in placements:
        fields.update(lay(edition, p))
    return Territory(fields, region_by)


def joins(edition: Edition, laid: Sequence[Placement], new: Placement) -> IllegalMoveError | None:
    """Setup step 15 (L159-161, L216): the new board overlaps nothing and a whole edge of 3 of its fields lines up
    with an edge of a board already on the table."""
    key = join_refusal(tuple(footprint(edition, p) for p in laid), footprint(edition, new))
    return None if key is None else IllegalMoveError("2.2-15", msg(key))


def footprint(edition: Edition, p: Placement) -> frozenset[Pos]:
    """The grid positions a placement covers."""
    return _laid(edition, p)[3]


@lru_cache(maxsize=65536)
def join_refusal(laid: tuple[frozenset[Pos], ...], fresh: frozenset[Pos]) -> str | None:
    """``joins`` on the boards' footprints alone (the geometry decides it): the refusal's message key, or ``None``."""
    box = _box(fresh)
    boards = [(board, _box(board)) for board in laid]  # rectangles apart share no field and touch along no edge
    if any(_near(box, around, 0) and not board.isdisjoint(fresh) for board, around in boards):
        return "km.refuse.board_overlaps"
    for board, around in boards:
        if not _near(box, around, 1):
            continue
        for dx, dy in ORTHOGONAL:
            touching = [pos for pos in fresh if (pos[0] + dx, pos[1] + dy) in board]
            line = {pos[0] if dx else pos[1] for pos in touching}
            if len(touching) == 3 and len(line) == 1 and _edge(fresh, dx, dy) == _edge(board, -dx, -dy) == 3:
                return None
    return "km.refuse.board_edge"


def board_spots(edition: Edition, laid: Sequence[Placement], board: int, side: str,
                checked: bool = True) -> tuple[tuple[int, int, int], ...]:
    """Every ``(x, y, turns)`` where board ``board`` (side ``side``) may join the boards ``laid`` (``joins``), sorted;
    ``(0, 0, 0)`` for the first board. ``checked`` false: every spot beside a laid board, ``joins`` not asked."""
    if not laid:
        return ((0, 0, 0),)
    return _spots(tuple(footprint(edition, p) for p in laid),
                  tuple(footprint(edition, Placement(board, side, 0, 0, turns)) for turns in range(4)), checked)


@lru_cache(maxsize=16384)
def _spots(laid: tuple[frozenset[Pos], ...], probes: tuple[frozenset[Pos], ...],
           checked: bool) -> tuple[tuple[int, int, int], ...]:
    """``board_spots`` on footprints (``probes``: the new board at (0, 0) turned 0-3 times)."""
    spots = set()
    for fields in laid:
        x0, x1, y0, y1 = _box(fields)
        for turns, probe in enumerate(probes):
            _, px, _, py = _box(probe)
            w, h = px + 1, py + 1
            for x, y in ((x1 + 1, y0), (x0 - w, y0), (x0, y1 + 1), (x0, y0 - h), (x1 + 1, y1 + 1 - h),
                         (x0 - w, y1 + 1 - h), (x1 + 1 - w, y1 + 1), (x1 + 1 - w, y0 - h)):
                spots.add((x, y, turns))
    return tuple((x, y, turns) for x, y, turns in sorted(spots)
                 if not checked or join_refusal(laid, frozenset((a + x, b + y) for a, b in probes[turns])) is None)


def _box(fields: Iterable[Pos]) -> Box:
    xs, ys = [x for x, _ in fields], [y for _, y in fields]
    return min(xs), max(xs), min(ys), max(ys)


def _edge(fields: frozenset[Pos], dx: int, dy: int) -> int:
    """How many fields a board has along its edge facing ``(dx, dy)``."""
    return sum(1 for (x, y) in fields if (x + dx, y + dy) not in fields)


@dataclass(frozen=True, slots=True)
class Worker:
    """A worker on the territory: its player and whether it is the keyworker."""

    player: int
    keyworker: bool = False


STANDING = {"4.1": "km.refuse.no_field", "4.1-1": "km.refuse.field_taken", "4.1-2": "km.refuse.own_neighbour",
            "4.1-3": "km.refuse.region_taken"}
"""The standing rule's parts and their refusals."""


def standing(land: Territory, workers: Mapping[Pos, Worker], player: int, target: Pos, keyworker: bool = False,
             g4_journeyman: bool = False, leaving: Pos | None = None) -> str | None:
    """The part of the standing rule (spec 4.1) ``target`` breaks, or ``None``: a free field, no own worker around
    it, no worker in its region; guild 4 J lets the keyworker into an occupied region (L698). ``leaving`` is the
    field the worker moves away from."""
    if target not in land.fields:
        return "4.1"
    if target != leaving and target in workers:
        return "4.1-1"
    for pos in land.around(target):
        w = workers.get(pos)
        if w is not None and w.player == player and pos != leaving:
            return "4.1-2"
    if not (keyworker and g4_journeyman) and any(pos in workers and pos != leaving for pos in land.region(target)):
        return "4.1-3"
    return None


def blocked(land: Territory, workers: Mapping[Pos, Worker], player: int, exempt: bool = False,
            leaving: Pos | None = None) -> set[Pos]:
    """The fields the standing rule forbids to ``player``'s worker, all at once: ``q`` in ``land.fields`` has
    ``standing(land, workers, player, q, keyworker, g4_journeyman, leaving) is None`` exactly when it is not in this
    set (``exempt``: the keyworker with guild 4 J). A region holds a worker exactly when the worker's region is it."""
    out: set[Pos] = set()
    for pos, w in workers.items():
        if pos == leaving:
            continue
        out.add(pos)
        if w.player == player:
            out.update(land.around(pos))
        if not exempt:
            out.update(land.region(pos))
    return out


def blocked_joining(land: Territory, fresh: Mapping[Pos, Field], workers: Mapping[Pos, Worker],
                    player: int) -> set[Pos] | None:
    """The fields of ``fresh`` (a board about to join ``land``, overlapping nothing) that ``blocked`` forbids to
    ``player`` on the territory with it, without laying it out; ``None`` when some worker's region would grow into
    the new board (ask ``blocked`` on the whole territory then)."""
    return joining(land, workers, player).blocked(fresh)


@dataclass(frozen=True, slots=True)
class Joining:
    """``blocked_joining`` for any new board at once: the positions around ``player``'s workers (on the table or
    off it), and each position next to a worker's region (villages stand alone) with the kinds of field that would
    join that region (the good, and the shape with variant ``region`` = sort_and_shape)."""

    around: frozenset[Pos]
    edges: Mapping[Pos, frozenset[tuple[str, str]]]
    by_shape: bool

    def blocked(self, fresh: Mapping[Pos, Field]) -> set[Pos] | None:
        edges = self.edges
        for q in edges.keys() & fresh.keys():
            f = fresh[q]
            if (f.good, f.shape if self.by_shape else "") in edges[q]:
                return None
        return fresh.keys() & self.around

    def blocked_laid(self, land: Territory, fresh: Mapping[Pos, Field]) -> set[Pos]:
        """The fields of ``fresh`` that ``blocked`` forbids on ``land`` with ``fresh`` laid, a worker's region growing
        into it too (walked over both from the fields of ``fresh`` that join it)."""
        out = fresh.keys() & self.around
        joined: set[Pos] = set()
        for q, f in fresh.items():
            kind = (f.good, f.shape if self.by_shape else "")
            if q in joined or kind not in self.edges.get(q, ()):
                continue
            joined.add(q)
            todo = [q]
            while todo:
                x, y = todo.pop()
                for dx, dy in ORTHOGONAL:
                    r = (x + dx, y + dy)
                    g = fresh.get(r) or land.fields.get(r)
                    if g is not None and r not in joined and (g.good, g.shape if self.by_shape else "") == kind:
                        joined.add(r)
                        todo.append(r)
        out.update(q for q in joined if q in fresh)
        return out


def joining(land: Territory, workers: Mapping[Pos, Worker], player: int) -> Joining:
    """The ``Joining`` of ``player``'s next worker on ``land``."""
    by_shape = land.region_by != "sort"
    around: set[Pos] = set()
    edges: dict[Pos, set[tuple[str, str]]] = {}
    for pos, w in workers.items():
        if w.player == player:
            around.update((pos[0] + dx, pos[1] + dy) for dx, dy in AROUND)
        start = land.fields[pos]
        if start.is_village:
            continue
        kind = (start.good, start.shape if by_shape else "")
        for x, y in land.region(pos):
            for dx, dy in ORTHOGONAL:
                edges.setdefault((x + dx, y + dy), set()).add(kind)
    return Joining(frozenset(around), {q: frozenset(k) for q, k in edges.items()}, by_shape)


def can_end_on(land: Territory, workers: Mapping[Pos, Worker], player: int, target: Pos, keyworker: bool = False,
               g4_journeyman: bool = False, leaving: Pos | None = None) -> IllegalMoveError | None:
    """``standing`` as a refusal with its rule ID."""
    rule = standing(land, workers, player, target, keyworker, g4_journeyman, leaving)
    return None if rule is None else IllegalMoveError(rule, msg(STANDING[rule]))


def hire_cost(workers: int, cap: int | None = None) -> int:
    """F2 (L287, L714): gold equal to the player's territory workers; guild 5 A: at most ``cap``."""
    return workers if cap is None else min(workers, cap)


def check_hire(land: Territory, workers: Mapping[Pos, Worker], player: int, target: Pos, keyworker: bool = False,
               g4_journeyman: bool = False) -> IllegalMoveError | None:
    """F2's target (L291-295): no village, and the standing rule."""
    if target in land.fields and land.fields[target].is_village:
        return IllegalMoveError("4.3-F2", msg("km.refuse.hire_village"))
    return can_end_on(land, workers, player, target, keyworker, g4_journeyman)


def move_cost(land: Territory, start: Pos, end: Pos, settle: int = 5, free_steps: int = 0) -> tuple[int, int]:
    """F1 (L263-269): 1 gold per step of the shortest path, +``settle`` gold ending in a village (guild 6 A: 2);
    guild 6 J's ``free_steps`` left are used first. The gold and the free steps used."""
    steps = land.steps(start, end)
    if steps is None or steps == 0:
        raise IllegalMoveError("4.3-F1", msg("km.refuse.no_path"))
    free = min(steps, free_steps)
    return steps - free + (settle if land.fields[end].is_village else 0), free
