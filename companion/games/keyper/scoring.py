"""Keyper's final score by best assignment (spec 5.1-5.3), shared by the game and ``companion score keyper``.

At game end every resource, animal and keyple may be moved onto the tiles where it scores, each scoring once
(L460-L472). The best assignment is found exactly:

* **animals** score per species independently (every animal tile takes one species, or one of each species for
  the Farmyard and Paddock), so each species fills its best places first;
* **keyples** fill their own colour's tile, then the white keyples go where a keyple is worth most;
* **gems, finished goods, wheat and raw materials**: every way of filling the gem-set tiles is tried (a search
  with bounds over at most 6 tiles x 5 set counts), and for the gems left, the Prospector, the yards, the upgraded
  Windmill and the Scrap Dealer are filled exactly: the Scrap Dealer's points depend only on how many pieces it
  takes, so each count 0-8 is tried, taking the pieces worth least elsewhere.

``tests/games/keyper/test_scoring.py`` compares this with a brute-force search on random small boards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.keyper.data import ANIMALS, FINISHED, GEMS, RAW, Edition
from companion.games.keyper.tiles import RULES, SCRAP_PIECES, Rule

TIEBREAKS: dict[str, tuple[str, ...]] = {
    "printed": ("gems", "finished", "wheat", "raw", "deer", "boar", "chicken", "horse", "cow", "pig", "sheep"),
    "yucata": ("finished", "wheat"),
    "yucata_gems_first": ("gems", "finished", "wheat"),
}
"""Spec 5.3 and 6 item 4 (A3): what is compared, in order, between tied players."""


@dataclass(frozen=True, slots=True)
class Built:
    """The top tile of one plot (a covered tile is dead and scores nothing, L643)."""

    tile: str
    area: str
    plot: int
    """1-based, row by row (``data.Edition.grid``)."""
    upgraded: bool

    @property
    def side(self) -> int:
        return 1 if self.upgraded else 0


@dataclass(frozen=True)
class Holdings:
    """What one player's final score reads: top tiles, pieces owned, shipping track, fairs, the claimed board."""

    name: str
    built: tuple[Built, ...]
    goods: Mapping[str, int]
    animals: Mapping[str, int]
    keyples: Mapping[str, int]
    shipping: int
    fair_vp: int = 0
    fair_seasons: int = 0
    """Seasons in which at least one fair was held (the Entertainer)."""
    field_colours: Mapping[str, int] = field(default_factory=dict)
    """Fields of each colour on the board claimed at the end of winter (Farmers Cottage, Kiln, ...)."""


@dataclass
class Scored:
    """One tile's points and what was assigned to it."""

    built: Built
    points: int = 0
    assigned: dict[str, int] = field(default_factory=dict)


def _rule(b: Built) -> Rule:
    return RULES[b.tile]


# ------------------------------------------------------------------ tiles scored by what lies around them


def _neighbours(edition: Edition, b: Built, directions: Sequence[tuple[int, int]], reach: bool,
                occupied: set[int]) -> int:
    """Village tiles from ``b`` in ``directions``: all along each line (``reach``) or just the next plot."""
    rows, cols = edition.grid(b.area)
    r, c = divmod(b.plot - 1, cols)
    count = 0
    for dr, dc in directions:
        step = 1
        while 0 <= r + dr * step < rows and 0 <= c + dc * step < cols:
            if (r + dr * step) * cols + (c + dc * step) + 1 in occupied:
                count += 1
            if not reach:
                break
            step += 1
    return count


_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _positional(edition: Edition, h: Holdings, b: Built, flags: Mapping[str, str]) -> int:
    """Points of a tile that reads the buildings, the track, the fairs or the final board (no pieces); ``flags``:
    ``line_counting`` (A5) and ``statue_cap`` (A6)."""
    rule, side = _rule(b), b.side
    reach = flags.get("line_counting", "lines") == "lines"
    most = 6 if flags.get("statue_cap", "six") == "six" else 12
    per = rule.per[side]
    in_area = {a: [x for x in h.built if x.area == a] for a in ("farm", "village")}
    village_plots = {x.plot for x in in_area["village"]}
    if rule.kind == "diagonal" and b.area == "village":
        return per * (1 + _neighbours(edition, b, _DIAGONAL, reach, village_plots))
    if rule.kind == "orthogonal" and b.area == "village":
        return per * (1 + _neighbours(edition, b, _ORTHOGONAL, reach, village_plots))
    if rule.kind == "boarding" and b.area == "village":
        directions = _ORTHOGONAL if b.upgraded else _ORTHOGONAL[:2]
        return per * _neighbours(edition, b, directions, False, village_plots)
    if rule.kind == "barn":
        farm = in_area["farm"]
        return len(farm) if not b.upgraded else 2 * sum(1 for x in farm if x.upgraded)
    if rule.kind == "statue":
        village = in_area["village"]
        return min(len(village), most) if not b.upgraded else 2 * min(sum(1 for x in village if x.upgraded), most)
    if rule.kind == "thatcher":
        village = in_area["village"]
        return min(len(village) // 2, 6) if not b.upgraded else min(sum(1 for x in village if x.upgraded), 12)
    if rule.kind == "full_area":
        area = rule.items[side][0]
        return per if len({x.plot for x in in_area[area]}) >= edition.plots(area) else 0
    if rule.kind == "dock":
        return per if h.shipping >= (30 if b.upgraded else 20) else 0
    if rule.kind == "fields":
        return per * min(h.field_colours.get(rule.items[side][0], 0), rule.cap)
    if rule.kind == "fair_seasons":
        return per * min(h.fair_seasons, 4)
    return 0


# ------------------------------------------------------------------ animals and keyples


def _assign_animals(h: Holdings, scored: list[Scored]) -> dict[str, int]:
    """Each species to its best places (spec 5.2, 7.5); the animals left over."""
    left = {}
    for species in ANIMALS:
        n = h.animals.get(species, 0)
        places = []
        for s in scored:
            rule = _rule(s.built)
            if rule.kind in ("animals", "distinct") and species in rule.items[s.built.side]:
                places.append((rule.per[s.built.side], rule.cap if rule.kind == "animals" else 1, s))
        places.sort(key=lambda p: -p[0])
        for value, cap, s in places:
            take = min(cap, n)
            if take and value:
                s.assigned[species] = take
                s.points += value * take
                n -= take
        if n:
            left[species] = n
    return left


def _assign_keyples(h: Holdings, scored: list[Scored]) -> dict[str, int]:
    """Each colour's keyples to its tile, then the white ones where a keyple is worth most (L884)."""
    places = [s for s in scored if _rule(s.built).kind == "keyples"]
    left = dict(h.keyples)
    for s in places:
        colour = _rule(s.built).items[s.built.side][0]
        take = min(_rule(s.built).cap, left.get(colour, 0))
        if take:
            s.assigned[colour] = take
            left[colour] -= take
    for s in sorted(places, key=lambda s: -_rule(s.built).per[s.built.side]):
        room = _rule(s.built).cap - sum(s.assigned.values())
        take = min(room, left.get("white", 0))
        if take:
            s.assigned["white"] = take
            left["white"] -= take
    for s in places:
        s.points += _rule(s.built).per[s.built.side] * sum(s.assigned.values())
    return {k: v for k, v in left.items() if v}


# ------------------------------------------------------------------ gems and goods


@dataclass(frozen=True)
class _Goods:
    """The single-resource places (yards, Windmill, Prospector) and the Scrap Dealer of one player."""

    single: tuple[tuple[Scored, int, int, tuple[str, ...]], ...]
    """(tile, points per piece, cap, the pieces it takes)."""
    scrap: Scored | None

    def rest(self, pieces: Mapping[str, int]) -> tuple[int, list[tuple[Scored, dict[str, int]]]]:
        """The best points for ``pieces`` on the single places and the Scrap Dealer, and the assignment."""
        left = dict(pieces)
        slots: list[tuple[int, str, Scored]] = []  # (points, piece, tile) of each piece placed on a single place
        plan: list[tuple[Scored, dict[str, int]]] = []
        base = 0
        for s, per, cap, takes in self.single:
            got: dict[str, int] = {}
            room = cap
            for piece in takes:
                n = min(room, left.get(piece, 0))
                if n:
                    got[piece] = n
                    left[piece] -= n
                    room -= n
                    slots += [(per, piece, s)] * n
                    base += per * n
            plan.append((s, got))
        if self.scrap is None:
            return base, plan
        rule = _rule(self.scrap.built)
        per, cap = rule.per[self.scrap.built.side], rule.cap
        free = [p for p in sorted(left) for _ in range(left[p])]
        slots.sort(key=lambda x: x[0])
        best_k, best = 0, base
        for k in range(1, cap + 1):
            taken_slots = max(0, k - len(free))
            if taken_slots > len(slots):
                break
            value = base - sum(x[0] for x in slots[:taken_slots]) + per * (k // 2)
            if value > best:
                best_k, best = k, value
        taken_slots = max(0, best_k - len(free))
        scrap: dict[str, int] = {}
        for piece in free[:best_k]:
            scrap[piece] = scrap.get(piece, 0) + 1
        for _, piece, s in slots[:taken_slots]:
            scrap[piece] = scrap.get(piece, 0) + 1
            got = next(g for t, g in plan if t is s)
            got[piece] -= 1
        plan.append((self.scrap, scrap))
        return best, plan


def _assign_goods(h: Holdings, scored: list[Scored]) -> dict[str, int]:
    """Gems to the gem-set tiles (every way tried, with bounds), the rest by ``_Goods.rest``; the pieces left."""
    singles = []
    scrap = None
    sets: list[tuple[Scored, tuple[str, ...], int, int]] = []
    for s in scored:
        rule, side = _rule(s.built), s.built.side
        if rule.kind == "pieces" and rule.items[side]:
            takes = ("gem",) if set(rule.items[side]) <= set(GEMS) else rule.items[side]
            singles.append((s, rule.per[side], rule.cap, takes))
        elif rule.kind == "scrap":
            scrap = s
        elif rule.kind == "gem_set":
            sets.append((s, rule.items[side], rule.per[side], rule.cap))
    goods = _Goods(tuple(sorted(singles, key=lambda x: -x[1])), scrap)
    pieces = {k: h.goods.get(k, 0) for k in SCRAP_PIECES}
    other = {k: v for k, v in pieces.items() if k not in GEMS}
    gems_left = tuple(pieces[g] for g in GEMS)
    # any gem is as good as another on the Prospector and the Scrap Dealer: the rest reads how many are left
    rest_cache: dict[int, int] = {}

    def rest_value(left: tuple[int, ...]) -> int:
        n = sum(left)
        if n not in rest_cache:
            rest_cache[n] = goods.rest({**other, **_gem_count(n)})[0]
        return rest_cache[n]

    index = {g: i for i, g in enumerate(GEMS)}
    best_value = -1
    best_counts: tuple[int, ...] = ()

    def search(i: int, left: tuple[int, ...], acc: int, counts: tuple[int, ...]) -> None:
        nonlocal best_value, best_counts
        if i == len(sets):
            value = acc + rest_value(left)
            if value > best_value:
                best_value, best_counts = value, counts
            return
        bound = acc + rest_value(left) + sum(
            per * min(cap, *(left[index[g]] for g in need)) for _, need, per, cap in sets[i:])
        if bound <= best_value:
            return
        _, need, per, cap = sets[i]
        most = min(cap, *(left[index[g]] for g in need))
        for n in range(most, -1, -1):
            rest = list(left)
            for g in need:
                rest[index[g]] -= n
            search(i + 1, tuple(rest), acc + per * n, (*counts, n))

    search(0, gems_left, 0, ())
    left = list(gems_left)
    for (s, need, per, _), n in zip(sets, best_counts):
        for g in need:
            left[index[g]] -= n
            if n:
                s.assigned[g] = n
        s.points += per * n
    remaining = {**other, **{g: left[index[g]] for g in GEMS}}
    _, plan = goods.rest({**other, **_gem_count(sum(left))})
    # the rest was planned with anonymous gems: give each place real ones
    real = {g: left[index[g]] for g in GEMS}
    for s, got in plan:
        rule, side = _rule(s.built), s.built.side
        for piece, n in got.items():
            if not n:
                continue
            if piece == "gem":
                for g in GEMS:
                    take = min(n, real[g])
                    if take:
                        s.assigned[g] = s.assigned.get(g, 0) + take
                        real[g] -= take
                        remaining[g] -= take
                        n -= take
            else:
                s.assigned[piece] = s.assigned.get(piece, 0) + n
                remaining[piece] -= n
        count = sum(s.assigned.values())
        s.points += rule.per[side] * (count // 2 if rule.kind == "scrap" else count)
    return {k: v for k, v in remaining.items() if v}


def _gem_count(n: int) -> dict[str, int]:
    """``n`` gems of no particular type (the Prospector and the Scrap Dealer take any)."""
    return {"gem": n}


# ------------------------------------------------------------------ the whole score


def score_player(edition: Edition, h: Holdings, flags: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Spec 5.1: the shipping track, every top tile's points with what is assigned to it, the fairs; ``total``.
    ``flags``: the variant flags that change scoring (A5 ``line_counting``, A6 ``statue_cap``)."""
    scored = [Scored(b, edition.tiles[b.tile].vp[b.side]) for b in h.built]
    for s in scored:
        s.points += _positional(edition, h, s.built, flags or {})
    left_animals = _assign_animals(h, scored)
    left_keyples = _assign_keyples(h, scored)
    left_goods = _assign_goods(h, scored)
    farm = sum(s.points for s in scored if s.built.area == "farm")
    village = sum(s.points for s in scored if s.built.area == "village")
    return {
        "name": h.name, "shipping": h.shipping, "farm": farm, "village": village, "fairs": h.fair_vp,
        "tiles": [{"tile": s.built.tile, "plot": plot_label(s.built), "side": "upgraded" if s.built.upgraded else "base",
                   "points": s.points, "assigned": {k: v for k, v in s.assigned.items() if v}} for s in scored],
        "unassigned": {**left_goods, **left_animals, **{f"keyple_{k}": v for k, v in left_keyples.items()}},
        "total": h.shipping + farm + village + h.fair_vp,
    }


def plot_label(b: Built) -> str:
    """``F3``, ``V12``: the plot as the snapshot names it."""
    return f"{'F' if b.area == 'farm' else 'V'}{b.plot}"


def tiebreak_counts(h: Holdings) -> dict[str, int]:
    """What the tie-breakers compare: all pieces owned, assigned or not (spec 5.3)."""
    return {
        "gems": sum(h.goods.get(g, 0) for g in GEMS), "finished": sum(h.goods.get(g, 0) for g in FINISHED),
        "wheat": h.goods.get("wheat", 0), "raw": sum(h.goods.get(g, 0) for g in RAW),
        **{a: h.animals.get(a, 0) for a in ANIMALS},
    }


def rank(rows: Sequence[dict[str, Any]], holdings: Sequence[Holdings], tiebreak: str) -> None:
    """Set ``rank`` (1 = winner; equal on a full tie, A3) and ``winner``: the total, then the tie-breakers."""
    order = TIEBREAKS[tiebreak]
    keys = [(row["total"], *(tiebreak_counts(h)[k] for k in order)) for row, h in zip(rows, holdings)]
    for row, key in zip(rows, keys):
        row["rank"] = 1 + sum(1 for other in keys if other > key)
        row["winner"] = row["rank"] == 1


def ties(rows: Sequence[dict[str, Any]], holdings: Sequence[Holdings], tiebreak: str) -> list[dict[str, Any]]:
    """Spec 5.3, for the final screen: per total shared by several players, the seats in rank order, the first
    tie-breaker that tells them apart (None: they share the place) and each seat's count of it."""
    order = TIEBREAKS[tiebreak]
    counts = [tiebreak_counts(h) for h in holdings]
    out = []
    for total in sorted({row["total"] for row in rows}, reverse=True):
        seats = sorted((seat for seat, row in enumerate(rows) if row["total"] == total), key=lambda seat: rows[seat]["rank"])
        if len(seats) < 2:
            continue
        decider = next((k for k in order if len({counts[seat][k] for seat in seats}) > 1), None)
        out.append({"points": total, "seats": seats, "decided_by": decider,
                    "counts": [counts[seat][decider] for seat in seats] if decider else []})
    return out

