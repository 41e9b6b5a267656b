"""Keyper's rules (spec 2-4): setup, the four seasons, turns, followers, lay-downs, yields, the bag and display,
boats, building and upgrading, fairs, housing, the collection and the next season.

A state waits for its top task (``State.tasks``): a seat's decision, a chance step, or the simultaneous folding of
the boards. ``apply`` pops or replaces that task and pushes what follows; ``_settle`` then runs the steps the
companion makes by itself (a follower offer's result, the refill, the end of a turn, the end of a season) until a
decision or a draw is due.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

from companion.core.bag import Bag
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from companion.core.memo import Memo
from companion.core.rng import weighted_choice
from companion.core.messages import Message, msg
from companion.core.options import Options
from companion.games.keyper.data import (
    ANIMALS, FIN_TO_RAW, FINISHED, GEMS, GOODS, KEYPLE_COLOURS, RAW, SEASONS, Edition, Field, piece,
)
from companion.games.keyper.data import colour as colour_text
from companion.games.keyper.moves import UNIT_VERBS, KPMove, joined, pieces
from companion.games.keyper.state import (
    ANIMAL_INDEX, GOOD_INDEX, LAID, MOVES_CACHE, PK, PLOTS_CACHE, UPRIGHT, Board, Plot, Player, State, Task, copied,
    with_tasks,
)
from companion.games.keyper.variants import UNPLAYED

T = TypeVar("T")

START_KEYPLES = ("blue", "orange", "green", "brown", "black", "grey", "white", "white")
NINTH_POOL = ("brown", "green", "grey", "orange")
SUPPLY = {**{g: 16 for g in (*RAW, *FINISHED, *GEMS)}, "wheat": 20, **{a: 12 for a in ANIMALS}}
"""The general supply (spec 1.2)."""
RAW_OF = {f: r for f, r in FIN_TO_RAW.items()}
FIN_OF = {r: f for f, r in FIN_TO_RAW.items()}
WILD = ("chicken", "deer", "goat", "boar")
DONE, PASS = KPMove("done"), KPMove("pass")
TURN = tuple(Task("turn", seat) for seat in range(4))
END_TURN = tuple(Task("end_turn", seat) for seat in range(4))
DRAW, REFILL = Task("draw"), Task("refill")
"""Tasks made at nearly every turn, made once (tasks never change)."""


def _task(kind: str, seat: int = -1, n: int = 0, arg: str = "", used: int = 0, shipped: int = 0) -> Task:
    """``Task(kind, seat, n, arg, used, shipped)``, each made once (tasks never change; a turn makes several)."""
    key = (kind, seat, n, arg, used, shipped)
    found = _TASKS.get(key)
    if found is None:
        found = _TASKS[key] = Task(kind, seat, n, arg, used, shipped)
    return found


_TASKS: dict[tuple[str, int, int, str, int, int], Task] = Memo(10_000)
CHANCE_KINDS = frozenset({"draw", "boats", "fair", "ninth", "start", "reveal"})
DECISIONS = frozenset({"turn", "follow", "use", "pick", "keeptile", "fairs", "house", "rest"})
WAITING = DECISIONS | CHANCE_KINDS | {"fold"}
"""The tasks that wait for a seat or a draw (the others are steps the companion makes: ``settle``)."""

# ------------------------------------------------------------------ what a tile converts (spec 7, a keyple's unit)

CLASSES: dict[str, tuple[str, ...]] = {
    "raw": RAW, "fin": FINISHED, "gem": GEMS, "animal": ANIMALS, "wild": WILD,
    "any": (*RAW, *FINISHED, *GEMS, "wheat"), "clay": ("clay",), "log": ("log",), "rock": ("rock",),
    "brick": ("brick",), "timber": ("timber",), "stone": ("stone",), "wheat": ("wheat",),
}
CONVERSIONS: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "brickmaker": ((("clay",), ("brick",)), (("clay",), ("brick", "brick"))),
    "carpenter": ((("log",), ("timber",)), (("log",), ("timber", "timber"))),
    "stonemason": ((("rock",), ("stone",)), (("rock",), ("stone", "stone"))),
    "scrapyard": ((("raw", "raw"), ("fin",)), (("raw",), ("fin",))),
    "alchemist": ((("raw", "raw"), ("gem",)), (("raw",), ("gem",))),
    "gem_dealer": ((("gem",), ("gem",)), (("gem",), ("gem", "gem"))),
    "jewel_cutter": ((("stone",), ("gem",)), (("stone",), ("gem", "gem"))),
    "windmill": ((("raw",), ("wheat", "wheat")), (("raw",), ("wheat", "wheat"))),
    "hop_field": ((("wheat",), ("animal",)), (("wheat",), ("animal", "animal"))),
    "livestock_market": ((("animal",), ("animal",)), (("animal",), ("animal", "animal"))),
    "copse": ((("timber",), ("wild",)), (("timber",), ("wild", "wild"))),
    "key_market": ((("any", "any"), ("any",)), (("any",), ("any",))),
    "trading_post": ((("raw",), ("raw", "raw")), (("raw",), ("raw", "raw"))),
}
"""Tile -> (base, upgraded) conversion per unit: the classes given, the classes taken (L695-L972). The Trading Post
also trades finished goods (``trade``), and upgraded it makes one raw and one finished trade per use (A10)."""


def cap(s: State) -> int:
    """The team cap: 8 keyples, 9 with 2 players (spec 2.3)."""
    return 9 if len(s.players) == 2 else 8


# ------------------------------------------------------------------ setup


def new_state(edition: Edition, names: tuple[str, ...], options: Options) -> State:
    """Spec 2: the boards' spring sides, the bag of 21 spring tiles, the set-aside stack, each player's board,
    keyples, home tiles and 3 finished goods; the draws (display, boats, private fairs, 9th keyples, start player)
    are the chance steps on top."""
    for flag, values in UNPLAYED.items():
        if options[flag] in values:
            raise MalformedInputError(msg("kp.refuse.unplayed", flag=flag, value=options[flag]))
    key = ("setup", len(names))
    found: tuple[Player, State] | None = edition.derived.get(key)
    if found is None:
        found = edition.derived[key] = _setup(edition, len(names), options)
    player, start = found
    players = tuple(copied(player, {"name": name}) for name in names)
    return settle(copied(start, {"options": options, "players": players}))


def _setup(edition: Edition, n: int, options: Options) -> tuple[Player, State]:
    """What every game of ``n`` players on ``edition`` starts from, worked out once (a game's start reads the whole
    data pack) and kept in ``edition.derived``: a player before its name, the state before its players and options
    (immutable: games share them)."""
    start_goods = tuple(1 if g in FINISHED else 0 for g in GOODS)
    player = Player("", keep=tuple(sorted(START_KEYPLES)), farm=(Plot(),) * edition.farm_plots,
                    village=(Plot(),) * edition.village_plots, unbuilt=tuple(sorted(edition.tile_ids("home"))),
                    goods=start_goods)
    boards = tuple(Board(edition.options(i + 1, "spring")[0].key, fields=((),) * 15) for i in range(n))
    winter = sorted(f for f, fair in edition.fairs.items() if fair.season == "winter")
    stacks = tuple(tuple(sorted(f for f, fair in edition.fairs.items() if fair.season == season))
                   for season in SEASONS[:3])
    supply = tuple(SUPPLY[g] - n * start_goods[i] for i, g in enumerate(GOODS)) + tuple(SUPPLY[a] for a in ANIMALS)
    tasks = [_task("begin_play"), _task("start")]
    if n == 2:
        tasks += [_task("ninth", 1), _task("ninth", 0)]
    for season in (2, 1, 0):
        tasks += [_task("fair", seat, season) for seat in reversed(range(n))]
    tasks += [_task("boats")] + [_task("draw")] * 8
    return player, State(edition, options, (), boards=boards, bag=Bag(edition.tile_ids("spring")),
                         set_aside=tuple(sorted(edition.tile_ids("later") + winter)), supply=supply,
                         fair_stacks=stacks, ninth_pool=NINTH_POOL if n == 2 else (), folds=("",) * n,
                         tasks=tuple(tasks))


# ------------------------------------------------------------------ small helpers


def _err(rule: str, key: str, move: KPMove, **params: object) -> IllegalMoveError:
    return IllegalMoveError(rule, Message("kp.refuse." + key, {k: v for k, v in params.items()}), str(move))  # type: ignore[misc]


def _push(s: State, *tasks: Task) -> State:
    """Push ``tasks``; the first given runs first."""
    return with_tasks(s, s.tasks + tasks[::-1])


def _pop(s: State) -> State:
    return with_tasks(s, s.tasks[:-1])


def _replace(s: State, *tasks: Task) -> State:
    """``_push(_pop(s), *tasks)`` in one step."""
    return with_tasks(s, s.tasks[:-1] + tasks[::-1])


def _replaced(s: State, *tasks: Task) -> tuple[Task, ...]:
    """The tasks of ``_replace(s, *tasks)`` (for a copy that changes more)."""
    return s.tasks[:-1] + tasks[::-1]


def _left_of(s: State, seat: int) -> tuple[int, ...]:
    """The other seats clockwise from ``seat``'s left."""
    return LEFT_OF[len(s.players)][seat]


LEFT_OF = {n: tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n)) for n in range(1, 5)}
"""``_left_of`` by player count and seat (every placement asks the others in this order)."""


def _swap(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """``items`` with ``item`` at ``index`` (a player, a board, a plot, a field)."""
    out = list(items)
    out[index] = item
    return tuple(out)


def _supply_index(kind: str) -> int:
    return GOOD_INDEX[kind] if kind in GOOD_INDEX else len(GOODS) + ANIMAL_INDEX[kind]


PIECES = {**{g: (True, i, i) for i, g in enumerate(GOODS)},
          **{a: (False, i, _supply_index(a)) for i, a in enumerate(ANIMALS)}}
"""A piece's place: among a player's goods (else animals), its index there, its index in the supply."""


def _limited(s: State) -> bool:
    return s.options["limited_supply"] == "yes"


def _in_supply(s: State, kind: str) -> int:
    return s.supply[_supply_index(kind)] if _limited(s) else 99


def _exchange(s: State, seat: int, given: Iterable[str] = (), taken: Iterable[str] = ()) -> dict[str, object]:
    """The state's fields ``players`` and ``supply`` once ``seat`` has given the pieces ``given`` back to the supply,
    then taken the pieces ``taken`` from it (as many as are left, spec 6 #2); none if nothing moved. A move's pieces
    all change in one copy of the state."""
    p = s.players[seat]
    goods, animals = list(p.goods), list(p.animals)
    supply = list(s.supply) if _limited(s) else None
    moved = False
    for kind in given:
        good, index, at = PIECES[kind]
        (goods if good else animals)[index] -= 1
        if supply is not None:
            supply[at] += 1
        moved = True
    for kind in taken:
        good, index, at = PIECES[kind]
        if supply is not None:
            if supply[at] <= 0:
                continue
            supply[at] -= 1
        (goods if good else animals)[index] += 1
        moved = True
    if not moved:
        return {}
    p = copied(p, {"goods": tuple(goods), "animals": tuple(animals)})
    changes: dict[str, object] = {"players": _swap(s.players, seat, p)}
    if supply is not None:
        changes["supply"] = tuple(supply)
    return changes


def _gain(s: State, seat: int, kind: str, changes: dict[str, object]) -> State:
    """A piece ``kind`` from the supply to ``seat`` (if one is left, spec 6 #2); the state's fields ``changes`` (a
    dict of the caller's, filled in here) change in the same copy."""
    changes.update(_exchange(s, seat, taken=(kind,)))
    return copied(s, changes)


def _spend(s: State, seat: int, kinds: Iterable[str]) -> State:
    changes = _exchange(s, seat, given=kinds)
    return copied(s, changes) if changes else s


def _has(p: Player, kinds: Sequence[str]) -> bool:
    """Whether ``p`` holds the pieces ``kinds`` (a few: counted without a ``Counter``, nor a set: a piece named twice
    is checked twice)."""
    for kind in kinds:
        if p.good(kind) < kinds.count(kind):
            return False
    return True


# ------------------------------------------------------------------ targets


@functools.lru_cache(maxsize=4096)
def parse_target(text: str) -> tuple[str, int, int]:
    """``2.7`` -> ``("field", 1, 6)`` (board index, field index); ``F3`` -> ``("farm", 0, 2)``; ``V12`` -> village."""
    if text[:1] in ("F", "V") and text[1:].isdigit():
        return ("farm" if text[0] == "F" else "village", 0, int(text[1:]) - 1)
    board, dot, fld = text.partition(".")
    if dot and board.isdigit() and fld.isdigit():
        return "field", int(board) - 1, int(fld) - 1
    return "", -1, -1


def field_of(s: State, board: int, index: int) -> Field:
    return s.edition.layouts[s.boards[board].layout].fields[index]


def occupants(s: State, seat: int, target: str) -> tuple[PK, ...] | None:
    """The keyples on ``target`` (a field, or one of ``seat``'s plots); ``None`` if there is no such place."""
    kind, board, index = parse_target(target)
    if kind == "field":
        if not 0 <= board < len(s.boards) or not 0 <= index < 15:
            return None
        return s.boards[board].fields[index]
    if kind in ("farm", "village"):
        plots = s.players[seat].plots(kind)
        return plots[index].keyples if 0 <= index < len(plots) else None
    return None


def target_colour(s: State, target: str) -> str:
    kind, board, index = parse_target(target)
    return field_of(s, board, index).colour if kind == "field" else "none"


def eff(first: str, colour: str) -> str:
    """Spec 4.2: the effective colour of the first keyple on a target of ``colour``."""
    if first != "white":
        return first
    return colour if colour != "none" else "white"


def join_ok(s: State, colour: str, first: PK, target_colour_: str) -> bool:
    """Spec 4.2, A14: may a keyple of ``colour`` join ``first``?"""
    other = joiner(s, first, target_colour_)
    return other == "*" or colour == "white" or colour == other


def joiner(s: State, first: PK, target_colour_: str) -> str:
    """Who besides a white keyple may join ``first`` (``join_ok``): ``*`` any colour, else the one colour
    (``white``: no other)."""
    if not first.standing and s.options["join_lying"] == "any":
        return "*"
    return eff(first.colour, target_colour_)


def bonus(first: str, colour: str) -> int:
    return 1 if colour != "none" and eff(first, colour) == colour else 0


def _set_keyples(s: State, seat: int, where: tuple[str, int, int], keyples: tuple[PK, ...], tasks: tuple[Task, ...],
                 changes: dict[str, object], take: str = "", boat: str = "") -> State:
    """The place ``where`` (``parse_target``: a field, or one of ``seat``'s plots) holds ``keyples``: ``take`` names
    the colour of a keyple ``seat`` took from its keep area for it, ``boat`` a boat placed on the field with it; the
    state's tasks become ``tasks`` (``_then``) and its fields ``changes`` (a dict of the caller's, filled in here)
    change in the same copy (a turn is one copy)."""
    kind, board, index = where
    p = s.players[seat]
    keep: tuple[str, ...] = p.keep
    if take:
        at = keep.index(take)
        keep = keep[:at] + keep[at + 1:]
    if kind == "field":
        b = s.boards[board]
        fields = _swap(b.fields, index, keyples)
        changes["boards"] = _swap(s.boards, board, copied(b, {"fields": fields, "boat": boat}) if boat else
                                  copied(b, {"fields": fields}))
        if take:
            changes["players"] = _swap(s.players, seat, copied(p, {"keep": keep}))
    else:
        plots = p.plots(kind)
        plots = _swap(plots, index, copied(plots[index], {"keyples": keyples}))
        changes["players"] = _swap(s.players, seat, copied(p, {"keep": keep, kind: plots}))
    return _then(s, tasks, changes)


def claimed_board(s: State, seat: int) -> int:
    for i, b in enumerate(s.boards):
        if b.keeper == seat:
            return i
    return -1


# ------------------------------------------------------------------ whose move


def actor(state: State) -> int:
    if state.over or not state.tasks:
        return TERMINAL
    top = state.tasks[-1]
    return NOT_A_SEAT.get(top.kind, top.seat)


NOT_A_SEAT = {**dict.fromkeys(CHANCE_KINDS, CHANCE), "fold": SIMULTANEOUS}
"""The tasks no one seat decides (``actor``): the chance steps, the folding (every seat at once)."""


def fold_deciders(s: State) -> tuple[int, ...]:
    return tuple([seat for seat, f in enumerate(s.folds) if not f])


# ------------------------------------------------------------------ the steps the companion makes


def settle(s: State) -> State:
    """Run automatic steps until a decision or a draw is due."""
    while not s.over and s.tasks:
        top = s.tasks[-1]
        kind = top.kind
        if kind in WAITING:  # a decision or a draw is due, unless the companion can make it by itself
            if kind == "turn":  # the most frequent first
                if moves_of(s).size or s.options["no_target"] != "skip":
                    break
                # a turn with nothing legal is skipped (4.5, A22): the companion moves on by itself
                s = _end_turn(s, top.seat, s.tasks[:-1])
            elif kind == "use" and top.n <= 0:
                s = _end_use(_pop(s), top)
            elif kind == "follow" and moves_of(s).size == 1:  # only the pass: no keyple may follow
                s = _then(s, s.tasks[:-1])
            elif kind == "draw" and not s.bag.outcomes():  # an empty bag (its outcomes are listed faster than counted)
                s = _recycle(s)
                if len(s.bag) == 0:  # A23: the bag and the pile are both empty
                    s = _pop(s)
            elif kind == "fold" and not fold_deciders(s):
                s = copied(s, {"tasks": s.tasks[:-1] + (_task("reveal"),)})
            else:
                break
        elif kind == "begin_play":
            s = copied(s, {"active": s.start, "final": False, "last_placer": -1,
                           "tasks": (*s.tasks[:-1], TURN[s.start])})
        elif kind == "end_turn":
            s = _end_turn(s, top.seat, s.tasks[:-1])
        elif kind == "resolve":
            s = _resolve(s, top, s.tasks[:-1])
        elif kind == "refill":
            tasks = s.tasks[:-1]
            if s.options["refill_on_last_action"] == "yes" or not _last_action(s):  # (the refill is no turn)
                tasks += (DRAW,) * (8 - len(s.display))
            s = with_tasks(s, tasks)
        elif kind == "season_end":
            s = _season_end(s)
        elif kind == "housing":
            s = _housing(s)
        elif kind == "collect":
            s = _collect(s)
        elif kind == "next_season":
            s = _next_season(s)
        elif kind == "team_cap":
            s = _replace(s, *[_task("rest", seat, len(p.keep) - cap(s)) for seat, p in enumerate(s.players)
                              if len(p.keep) > cap(s)])
        else:
            break
    return s


def _recycle(s: State) -> State:
    """Spec 3.7: an empty bag takes the set-aside stack in spring, the discard pile later."""
    if s.season == 0 and s.set_aside:
        return copied(s, {"bag": s.bag.add(*s.set_aside), "set_aside": ()})
    if s.season > 0 and s.discard:
        return copied(s, {"bag": s.bag.add(*s.discard), "discard": ()})
    return s


def _last_action(s: State) -> bool:
    """A4: whether the tiles just taken were taken in the last turn of the season."""
    if not s.final:
        return False
    if s.options["last_action"] == "after_trigger":
        return True
    return not any(t.kind == "turn" for t in s.tasks)


def _end_turn(s: State, seat: int, tasks: tuple[Task, ...], changes: dict[str, object] | None = None) -> State:
    """Spec 3.4: the next player, or the trigger and the final round, or the end of the season (``s``'s tasks become
    ``tasks``, those under its ``end_turn`` task, and its fields ``changes`` change (a dict of the caller's, filled in
    here): the common case is one copy of the state; ``changes`` are read as changed)."""
    if changes is None:
        changes = {}
    changes["tasks"] = tasks
    get = changes.get
    if (get("gained", s.gained) or get("shipped", s.shipped)) and s.options["gain_ship_scope"] == "turn":
        changes.update(gained=frozenset(), shipped=frozenset())
    if s.final:
        return copied(s, changes)
    players: tuple[Player, ...] = get("players", s.players)  # type: ignore[assignment]
    if not players[seat].pieces_home and all(p.pieces_home == 0 for p in players):
        last: int = get("last_placer", s.last_placer)  # type: ignore[assignment]
        changes.update(final=True, last_placer=last if last >= 0 else seat)
        s = copied(s, changes)
        return _push(s, *[_task("turn", other, arg="final") for other in _left_of(s, s.last_placer)],
                     _task("season_end"))
    nxt = (seat + 1) % len(players)
    changes["tasks"] = (*tasks, TURN[nxt])
    changes["active"] = nxt
    return copied(s, changes)


def _then(s: State, tasks: tuple[Task, ...], changes: dict[str, object] | None = None) -> State:
    """``s`` with ``tasks`` and its fields ``changes`` (a dict of the caller's, filled in here); an ``end_turn`` or
    ``resolve`` on top of them runs in the same copy (``settle`` would run it next)."""
    kind = tasks[-1].kind if tasks else ""
    if kind == "end_turn":
        return _end_turn(s, tasks[-1].seat, tasks[:-1], changes)
    if kind == "resolve":
        if changes:  # the result reads the keyples there
            s = copied(s, changes)
        return _resolve(s, tasks[-1], tasks[:-1])
    if changes:
        changes["tasks"] = tasks
        return copied(s, changes)
    return with_tasks(s, tasks)


def _resolve(s: State, top: Task, below: tuple[Task, ...]) -> State:
    """``s``'s tasks become ``below`` and the result of the follower offer ``top`` (``_resolved``)."""
    return with_tasks(s, below + _resolved(s, top.arg, top.seat, top.n - 1, occupants(s, top.seat, top.arg) or ()))


def _resolved(s: State, target: str, leader: int, follower: int, keyples: tuple[PK, ...]) -> tuple[Task, ...]:
    """Spec 4.3: after the follower offers, each of the two (or the one) gets 1 or 2, plus the colour bonus: the
    tasks in place of the ``resolve`` task of ``leader``'s placement on ``target`` (``follower``: the seat that
    followed, else -1) when the field holds ``keyples`` (as pushed: the last runs first)."""
    place = field_of(s, *parse_target(target)[1:])  # a follower offer is on a field
    b = bonus(keyples[0].colour, place.colour)
    if len(keyples) != 2:
        follower = -1
    n = (2 if follower >= 0 else 1) + b
    kind = place.kind
    if kind == "tiles":
        order = [leader] * n if follower < 0 else [leader, follower, follower, leader]
        tasks = _picks(s, order, target)
    elif follower >= 0 and kind in BUILD_KINDS and s.options["build_order"] == "alternate":
        # L633: both build or upgrade one building at a time, in turn, the active player first
        tasks = [_task("use", seat, 1, target) for _ in range(n) for seat in (leader, follower)]
    else:
        mine, theirs = n, n
        if follower >= 0 and kind in ("res", "gem", "animal") and _limited(s):
            mine, theirs = shares(_in_supply(s, place.param), n)
        tasks = [_use_task(s, leader, mine, target, kind)]
        if follower >= 0:
            tasks.append(_use_task(s, follower, theirs, target, kind))
    return tuple(tasks[::-1])


BUILD_KINDS = frozenset({"build", "discount", "upgrade"})
"""The fields whose units build or upgrade (4.8, 4.9)."""


def shares(left: int, n: int) -> tuple[int, int]:
    """L508: when the supply runs short, the active player and the follower take one at a time, the active player
    first, with no compensation: how many each may take of the ``left`` pieces when both are owed ``n``."""
    mine = min(n, (left + 1) // 2)
    theirs = min(n, left - mine)
    return min(n, left - theirs), theirs


def _picks(s: State, order: Sequence[int], target: str) -> list[Task]:
    """Tile picks in ``order`` (A 1st and 4th, the follower 2nd and 3rd, L543), then the refill (A19)."""
    tasks: list[Task] = []
    for seat in order:
        tasks.append(_task("pick", seat, arg=target))
        if s.options["follower_refill"] == "after_each":
            tasks.append(REFILL)
    if s.options["follower_refill"] == "after_all":
        tasks.append(REFILL)
    return tasks


def _kind_at(s: State, seat: int, target: str) -> str:
    kind, board, index = parse_target(target)
    return field_of(s, board, index).kind if kind == "field" else "plot"


def _use_task(s: State, seat: int, n: int, target: str, kind: str) -> Task:
    """``n`` units for ``seat`` on ``target``, a place of ``kind`` (``_kind_at``); on a boat the upgraded Merchant
    adds one (L998)."""
    if kind == "river" and _owns(s, seat, "merchant", upgraded=True):
        n += 1
    return _task("use", seat, n, target)


def _owns(s: State, seat: int, tile: str, upgraded: bool | None = None) -> bool:
    """Whether ``seat`` has ``tile`` built on top of a plot (upgraded, if asked)."""
    sides = _tops(s.players[seat]).get(tile, ())
    return bool(sides) and (upgraded is None or upgraded in sides)


def _side(s: State, seat: int, tile: str) -> int:
    """-1 if not built on top, else 0 (base) or 1 (upgraded) (its first plot's, farm then village)."""
    sides = _tops(s.players[seat]).get(tile)
    return -1 if sides is None else int(sides[0])


def _tops(p: Player) -> dict[str, tuple[bool, ...]]:
    """The tiles on top of ``p``'s plots, each with whether it is upgraded on each plot (farm then village, in order);
    remembered on ``p`` (``PLOTS_CACHE``) while its plots are unchanged."""
    memo: dict[object, dict[str, tuple[bool, ...]]] | None = p.__dict__.get(PLOTS_CACHE)
    if memo is None:
        memo = p.__dict__[PLOTS_CACHE] = {}
    found = memo.get("tops")
    if found is None:
        found = memo["tops"] = {}
        for plot in (*p.farm, *p.village):
            if plot.tiles:
                found[plot.tiles[-1]] = (*found.get(plot.tiles[-1], ()), plot.upgraded)
    return found


def _end_use(s: State, top: Task) -> State:
    """A boat use ends: the Seafarer and the Shipping Agent move the track (L830-L840, A7, A8)."""
    if _kind_at(s, top.seat, top.arg) != "river":
        return s
    extra = 0
    sea = _side(s, top.seat, "seafarer")
    if sea >= 0 and (top.used > 0 or s.options["seafarer"] == "any_use"):
        extra += 1 + sea
    agent = _side(s, top.seat, "shipping_agent")
    if agent == 1:
        extra += top.shipped
    elif agent == 0:
        mode = s.options["agent_bonus"]
        extra += (top.shipped // 2 if mode == "per_pair" else
                  1 if (top.shipped == 2 if mode == "exactly_two" else top.shipped >= 2) else 0)
    if extra:
        s = s.player(top.seat, shipping=s.players[top.seat].shipping + extra)
    if (s.gained or s.shipped) and s.options["gain_ship_scope"] == "use":
        s = copied(s, {"gained": frozenset(), "shipped": frozenset()})
    return s


# ------------------------------------------------------------------ end of a season (spec 3.5)


def _season_end(s: State) -> State:
    """Step 2: each seat with a fair to hold decides, in seat order from the start player; then housing (in place of
    the ``season_end`` task on top of ``s``)."""
    tasks = []
    for seat in [s.start, *_left_of(s, s.start)]:
        p = s.players[seat]
        own = s.season < 3 and bool(p.private[s.season])
        winter = bool(p.winter_fairs) and (s.season > 0 or s.options["winter_fair_seasons"] == "any")
        if own or winter:
            tasks.append(_task("fairs", seat))
    return _replace(s, *tasks, _task("housing"))


def housing_capacity(s: State, seat: int) -> int:
    """Spec 3.5 step 3, 7.5: how many of ``seat``'s animals can be housed (a maximum flow)."""
    p = s.players[seat]
    return max_housed(p.animals, _homes(s, p))


def _homes(s: State, p: Player) -> list[tuple[tuple[str, ...], int]]:
    """The species and capacity of each animal-housing tile on top of ``p``'s farm plots (spec 7.5)."""
    housing = s.edition.housing
    return [(h.species, h.capacity) for plot in p.farm if plot.tiles and (h := housing.get(plot.tiles[-1]))]


def max_housed(counts: Sequence[int], homes: Sequence[tuple[Sequence[str], int]]) -> int:
    """The most animals (``counts`` by species) the ``homes`` (species, capacity) hold: augmenting paths."""
    flow = [[0] * len(homes) for _ in ANIMALS]
    used = [0] * len(homes)
    placed = [0] * len(ANIMALS)

    def augment(a: int, seen: set[int]) -> bool:
        for h, (species, room) in enumerate(homes):
            if ANIMALS[a] not in species or h in seen:
                continue
            seen.add(h)
            if used[h] < room:
                flow[a][h] += 1
                used[h] += 1
                return True
            for other in range(len(ANIMALS)):
                if flow[other][h] and augment(other, seen):
                    flow[other][h] -= 1
                    flow[a][h] += 1
                    return True
        return False

    for a in range(len(ANIMALS)):
        while placed[a] < counts[a] and augment(a, set()):
            placed[a] += 1
    return sum(placed)


def _housing(s: State) -> State:
    """Animals that cannot be housed go back to the supply; the player chooses which when there is a choice (in place
    of the ``housing`` task on top of ``s``)."""
    tasks = []
    for seat, p in enumerate(s.players):
        held = sum(p.animals)
        if not held:  # nothing to house (most players, most seasons)
            continue
        homes = _homes(s, p)
        surplus = held - max_housed(p.animals, homes) if homes else held
        if surplus <= 0:
            continue
        if surplus == held:  # no animal housed: all go back (the one choice of ``release_options``)
            s = _spend(s, seat, [a for a, n in zip(ANIMALS, p.animals) for _ in range(n)])
            continue
        options = release_options(s, seat, surplus)
        if len(options) == 1:
            s = _spend(s, seat, options[0])
        else:
            tasks.append(_task("house", seat, surplus))
    return _replace(s, *tasks, _task("collect"))


def release_options(s: State, seat: int, surplus: int) -> list[tuple[str, ...]]:
    """Every choice of ``surplus`` animals to release that leaves the rest housed."""
    p = s.players[seat]
    homes = _homes(s, p)
    held = [a for a in ANIMALS for _ in range(p.good(a))]
    out = []
    for combo in sorted({tuple(sorted(c)) for c in itertools.combinations(held, surplus)}):
        left = list(p.animals)
        for a in combo:
            left[ANIMAL_INDEX[a]] -= 1
        if max_housed(left, homes) == sum(left):
            out.append(combo)
    return out


def _collect(s: State) -> State:
    """Step 4: each player takes back the Keyper, the claimed board's keyples, their plots' and keep tile's (in place
    of the ``collect`` task on top of ``s``, in one copy)."""
    last = s.season == 3  # step 5: the game ends; unheld winter fairs go to the box
    players = list(s.players)
    for seat, p in enumerate(players):
        board = claimed_board(s, seat)
        got = [k.colour for k in p.keep_tile] + [k.colour for plot in (*p.farm, *p.village) for k in plot.keyples]
        if board >= 0:
            got += [k.colour for f in s.boards[board].fields for k in f]
        players[seat] = copied(
            p, {"keyper_home": True, "keep": tuple(sorted((*p.keep, *got))), "keep_tile": (), "claimed": board,
                "farm": _emptied(p.farm), "village": _emptied(p.village), **({"winter_fairs": ()} if last else {})})
    boards = tuple(copied(b, {"keeper": -1, "fields": ((),) * 15, "boat": ""}) for b in s.boards)
    if last:
        return copied(s, {"players": tuple(players), "boards": boards, "over": True, "tasks": ()})
    changes: dict[str, object] = {}
    if s.season == 0 and s.set_aside:  # step 7
        changes.update(bag=s.bag.add(*s.set_aside), set_aside=())
    return copied(s, {"players": tuple(players), "boards": boards, "discard": tuple(sorted((*s.discard, *s.display))),
                      "display": (), "tasks": _replaced(s, _task("next_season")), **changes})  # step 6


def _emptied(plots: tuple[Plot, ...]) -> tuple[Plot, ...]:
    """``plots`` without their keyples."""
    return tuple([copied(plot, {"keyples": ()}) if plot.keyples else plot for plot in plots])


def _next_season(s: State) -> State:
    """Spec 3.2: 8 tiles, 4 boats, the boards folded (in secret, revealed together), the team cap, the start
    player (the last to play a piece from the keep area on their own turn); in place of the ``next_season`` task on
    top of ``s``."""
    tasks = _replaced(s, *[DRAW] * 8, _task("boats"), _task("fold"), _task("team_cap"), _task("begin_play"))
    return copied(s, {"season": s.season + 1, "start": s.last_placer, "boats": (), "folds": ("",) * len(s.players),
                      "tasks": tasks})


# ------------------------------------------------------------------ chance


def chance_outcomes(s: State) -> list[tuple[KPMove, int]]:
    top = s.top
    if top is None:
        return []
    if top.kind == "draw":
        return [(_chance_move("draw", tile), n) for tile, n in s.bag.outcomes()]
    if top.kind == "boats":
        ids = sorted(s.edition.boats)
        boats = BY_ARGS["boats"]
        return [(boats[combo], 1) for combo in itertools.combinations(ids, 4)]
    if top.kind == "fair":
        return [(_chance_move("fair", str(top.seat + 1), f), 1) for f in s.fair_stacks[top.n]]
    if top.kind == "ninth":
        return [(_chance_move("ninth", str(top.seat + 1), c), 1) for c in s.ninth_pool]
    if top.kind == "start":
        return [(_chance_move("start", str(seat + 1)), 1) for seat in range(len(s.players))]
    if top.kind == "reveal":
        return [(_chance_move("reveal", *s.folds), 1)]
    return []


_CHANCE_MOVES: dict[tuple[str, ...], KPMove] = {}
"""The chance moves by verb and arguments, each made once (a draw offers every tile in the bag, a fair step every
fair of its stack, many times a game)."""


def _chance_move(verb: str, *args: str) -> KPMove:
    key = (verb, *args)
    return _CHANCE_MOVES.get(key) or _CHANCE_MOVES.setdefault(key, KPMove(verb, args))


def sample_chance(state: State, rng: random.Random) -> KPMove:
    """``weighted_choice(rng, chance_outcomes(state))``; a draw picks its tile from the bag's (tile, count) pairs, in
    the order of its outcomes, so the same random number gives the same tile without making every outcome."""
    if state.tasks[-1].kind == "draw":
        return _chance_move("draw", weighted_choice(rng, state.bag.outcomes()))
    return weighted_choice(rng, chance_outcomes(state))


def _chance(s: State, move: KPMove) -> State:
    top = s.tasks[-1]
    verb, args = move.verb, move.args
    if verb == "draw":  # the most frequent: one copy
        return _then(s, s.tasks[:-1], {"bag": s.bag.remove(args[0]), "display": tuple(sorted((*s.display, args[0])))})
    if verb == "boats":
        return copied(s, {"boats": tuple(args), "tasks": s.tasks[:-1]})
    if verb == "fair":
        seat, fair = int(args[0]) - 1, args[1]
        if top.n == 2 and top.seat == len(s.players) - 1:
            stacks: tuple[tuple[str, ...], ...] = ((), (), ())  # the rest go back to the box
        else:
            stacks = _swap(s.fair_stacks, top.n, tuple(f for f in s.fair_stacks[top.n] if f != fair))
        p = copied(s.players[seat], {"private": _swap(s.players[seat].private, top.n, fair)})
        return copied(s, {"fair_stacks": stacks, "players": _swap(s.players, seat, p), "tasks": s.tasks[:-1]})
    if verb == "ninth":
        seat, colour = int(args[0]) - 1, args[1]
        p = copied(s.players[seat], {"keep": tuple(sorted((*s.players[seat].keep, colour)))})
        return copied(s, {"ninth_pool": tuple(c for c in s.ninth_pool if c != colour),
                          "players": _swap(s.players, seat, p), "tasks": s.tasks[:-1]})
    if verb == "start":
        return copied(s, {"start": int(args[0]) - 1, "tasks": s.tasks[:-1]})
    if verb == "reveal":
        boards = list(s.boards)
        for seat, option in enumerate(s.folds):
            board = s.players[seat].claimed
            boards[board] = copied(boards[board], {"layout": f"{board + 1}/{SEASONS[s.season]}/{option}"})
        return copied(s, {"boards": tuple(boards), "tasks": s.tasks[:-1]})
    raise AssertionError(move)


# ------------------------------------------------------------------ payments (spec 1.2, 4.8, 4.9)


def symbol_pieces(symbol: str, builder_wheat: bool = False) -> tuple[str, ...]:
    """The pieces that may pay one cost symbol: a finished good for the raw material of its colour, wheat for a
    white raw or finished symbol, never for a 3-colour or a specific one (L493-L499)."""
    return SYMBOL_PIECES[symbol]


SYMBOL_PIECES = {**{raw: (raw, FIN_OF[raw]) for raw in RAW}, **{one: (one,) for one in (*FINISHED, *GEMS, "wheat")},
                 "raw3": (*RAW, *FINISHED), "fin3": FINISHED, "raw_any": (*RAW, *FINISHED, "wheat"),
                 "fin_any": (*FINISHED, "wheat"), "gem_any": GEMS}
"""``symbol_pieces`` of each symbol, made once (``_payments`` asks at each miss)."""


def payments(s: State, p: Player, symbols: Sequence[str]) -> list[tuple[str, ...]]:
    """Every way ``p`` can pay ``symbols`` (as sorted piece lists); with ``payment=cheapest`` only those that use
    the fewest finished goods for raw symbols and the least wheat (spec 6 #1). Remembered by how many ``p`` holds
    of the pieces that may pay them."""
    symbols = tuple(symbols)
    key = (_payers(symbols)(p.goods), symbols, s.options["payment"])
    found = _PAYMENTS.get(key)
    if found is None:
        found = _PAYMENTS[key] = _payments(s, p, symbols)
    return found.copy()


_PAYMENTS: dict[tuple[object, tuple[str, ...], str], list[tuple[str, ...]]] = Memo(50_000)


def _payers(symbols: tuple[str, ...]) -> Callable[[tuple[int, ...]], object]:
    """What reads, from a player's goods, how many they hold of each piece that may pay ``symbols``."""
    found = _PAYERS.get(symbols)
    if found is None:
        indices = sorted({GOOD_INDEX[x] for sym in symbols for x in symbol_pieces(sym)})
        found = _PAYERS[symbols] = operator.itemgetter(*indices) if indices else _nothing
    return found


def _nothing(goods: tuple[int, ...]) -> object:
    return ()


_PAYERS: dict[tuple[str, ...], Callable[[tuple[int, ...]], object]] = {}


def _payments(s: State, p: Player, symbols: Sequence[str]) -> list[tuple[str, ...]]:
    """``payments`` worked out (the pieces are goods: only ``p.goods`` matters)."""
    found: set[tuple[str, ...]] = set()
    goods = p.goods  # (read directly: ``p.good`` is a call)
    options = [[x for x in SYMBOL_PIECES[sym] if goods[GOOD_INDEX[x]] > 0] for sym in symbols]
    for combo in itertools.product(*options):
        pay = tuple(sorted(combo))
        # (``options`` holds only pieces held: a payment using each once is held, without asking ``_has``)
        if pay not in found and (len(set(pay)) == len(pay) or _has(p, pay)):
            found.add(pay)
    if s.options["payment"] == "cheapest" and found:
        def cost(pay: tuple[str, ...]) -> tuple[int, int]:
            return (sum(1 for x in pay if x in FINISHED), pay.count("wheat"))
        least = min(cost(pay) for pay in found)
        found = {pay for pay in found if cost(pay) <= least}
    return sorted(found)


def pays(p: Player, symbols: Sequence[str], pay: Sequence[str]) -> bool:
    """Whether the pieces ``pay`` pay ``symbols`` exactly (each piece one symbol) and ``p`` holds them."""
    if len(pay) != len(symbols) or not _has(p, pay):
        return False
    return any(all(x in symbol_pieces(sym) for x, sym in zip(order, symbols))
               for order in set(itertools.permutations(pay)))


# ------------------------------------------------------------------ building and upgrading


PLOT_LABELS = {"farm": tuple(f"F{i + 1}" for i in range(64)), "village": tuple(f"V{i + 1}" for i in range(64))}


def _plot_label(area: str, index: int) -> str:
    return PLOT_LABELS[area][index]


def free_plots(s: State, seat: int) -> set[str]:
    """Plots where the Building Plot lets a building be built free: right of it, and above and below it once
    upgraded (L767-L769)."""
    p = s.players[seat]
    return _free_in(s, "farm", p.farm) | _free_in(s, "village", p.village)


def _free_in(s: State, area: str, plots: Sequence[Plot]) -> set[str]:
    """``free_plots`` in one area, whose ``plots`` are given."""
    out: set[str] = set()
    for i, plot in enumerate(plots):
        if not plot.tiles or plot.tiles[-1] != "building_plot":
            continue
        rows, cols = s.edition.grid(area)
        r, c = divmod(i, cols)
        spots = [(r, c + 1)] + ([(r - 1, c), (r + 1, c)] if plot.upgraded else [])
        out |= {_plot_label(area, rr * cols + cc) for rr, cc in spots if 0 <= rr < rows and 0 <= cc < cols}
    return out


def build_spots(s: State, seat: int, tile: str) -> list[str]:
    """The plots ``tile`` may be built on: its area's empty plots, or a plot whose building may be overbuilt (A18)."""
    spots = _open_plots(s, s.players[seat], False)[0][s.edition.tiles[tile].area]
    return [label for top, label, _ in spots if top != tile]


def build_costs(s: State, seat: int, tile: str, how: str, cache: dict[tuple[str, ...], list[tuple[str, ...]]],
                ) -> list[tuple[str, ...]]:
    """The payments for building ``tile`` on a plot that is not free by ``how``: ``full`` (a build field, a keyple
    on the tile), ``builder``, ``labourer`` (a discount field: ``discount_texts``). ``cache`` spares recomputing the
    payments of one cost when called for many tiles."""
    p = s.players[seat]
    if how == "labourer":
        return [()] if s.edition.tiles[tile].area == "farm" else []

    def pay(symbols: tuple[str, ...]) -> list[tuple[str, ...]]:
        if symbols not in cache:
            cache[symbols] = payments(s, p, symbols)
        return cache[symbols]

    if how == "builder":
        return pay(("fin_any",) if s.options["builder_wheat"] == "builds_too" else ("fin3",))
    return pay(s.edition.tiles[tile].cost)


def discount_texts(s: State, p: Player, cost: tuple[str, ...]) -> tuple[str, ...]:
    """The payments (as texts) of ``cost`` on a discount field: any ``build_discount`` symbols of it left unpaid,
    at least 1 paid (L565); remembered by the edition's ``PayTexts`` of discount fields (``_tile_rows``)."""
    keep = max(1, len(cost) - s.edition.build_discount)
    pays: set[tuple[str, ...]] = set()
    for chosen in set(itertools.combinations(sorted(cost), keep)):
        pays.update(payments(s, p, chosen))
    return tuple(joined(pay) for pay in sorted(pays))


def build_options(s: State, seat: int, how: str, empty_only: bool = False) -> Builds:
    """(tile, plot, payment) of every build ``seat`` can make by ``how`` (``empty_only``: on plots without
    keyples, for a keyple placed on the tile it builds)."""
    p = s.players[seat]
    if not p.unbuilt:
        return NO_BUILDS
    priced = how in ("full", "discount")
    if priced:  # what each tile costs on a plot that is not free, remembered
        priced_at = _tile_payments(s, p, how)
        payable, every = priced_at
        if not payable and not _owns(s, seat, "building_plot"):  # nothing to pay with, no free plot (most turns)
            return NO_BUILDS
    opened = _open_plots(s, p, empty_only)
    open_, any_free = opened
    if priced:  # remembered on ``p`` while its plots and what it can pay are unchanged
        memo: dict[object, tuple[object, OpenPlots, Builds]] = p.__dict__[PLOTS_CACHE]
        key = ("builds", how, empty_only)
        known = memo.get(key)
        if known is not None and known[0] is priced_at and known[1] is opened:
            return known[2]
        builds = Builds([(tile, open_[area], costs) for tile, area, costs in (every if any_free else payable)])
        memo[key] = (priced_at, opened, builds)
        return builds
    cache: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    rows: list[tuple[str, Spots, Sequence[str]]] = []
    tiles = s.edition.tiles
    for tile in sorted(set(p.unbuilt)):
        spots = open_[tiles[tile].area]
        if spots.paid > spots.tops.get(tile, NONE)[1]:  # what it costs on a plot that is not free
            rows.append((tile, spots, [joined(pay) for pay in build_costs(s, seat, tile, how, cache)]))
        elif spots:
            rows.append((tile, spots, ()))
    return Builds(rows)


class Spots(list[tuple[str, str, bool]]):
    """(top tile, plot, free) of each plot of an area a tile may be built on (``_open_plots``), and how many of them
    are free and paid, in all and under each top tile (``tops``: tile -> (free, paid))."""

    __slots__ = ("free", "paid", "tops")

    def __init__(self, spots: Iterable[tuple[str, str, bool]], tops: dict[str, tuple[int, int]] | None = None) -> None:
        """``tops``: if counted already."""
        super().__init__(spots)
        if tops is None:
            tops = {}
            for top, _, is_free in self:
                free, paid = tops.get(top, NONE)
                tops[top] = (free + is_free, paid + (not is_free))
        free = 0
        for n, _ in tops.values():  # (a few: a loop costs less than a sum over a comprehension)
            free += n
        self.tops, self.free, self.paid = tops, free, len(self) - free


NONE = (0, 0)
"""No spot, free or paid (``Spots.tops``)."""


class Builds:
    """The builds (tile, plot, payment) of ``build_options``, in order: per tile, each of its ``Spots`` that does not
    show the tile already, free or paid in each of its payments. Counted without being listed, each made when read
    (a turn can offer hundreds)."""

    __slots__ = ("rows", "sizes", "size")

    def __init__(self, rows: list[tuple[str, Spots, Sequence[str]]]) -> None:
        self.rows = rows
        self.sizes = []
        for tile, spots, pays in rows:  # its spots that do not show it already
            free, paid = spots.tops.get(tile, NONE)
            self.sizes.append(spots.free - free + len(pays) * (spots.paid - paid))
        self.size = sum(self.sizes)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> tuple[str, str, str]:
        for (tile, spots, pays), size in zip(self.rows, self.sizes):
            if index < size:
                for top, label, is_free in spots:
                    if top != tile:
                        n = 1 if is_free else len(pays)
                        if index < n:
                            return tile, label, FREE[0] if is_free else pays[index]
                        index -= n
            index -= size
        raise IndexError(index)

    def __iter__(self) -> Iterator[tuple[str, str, str]]:
        for tile, spots, pays in self.rows:
            for top, label, is_free in spots:
                if top != tile:
                    for pay in FREE if is_free else pays:
                        yield tile, label, pay


NO_BUILDS = Builds([])
OpenPlots = tuple[dict[str, Spots], bool]


def _open_plots(s: State, p: Player, empty_only: bool) -> OpenPlots:
    """Per area (top tile, plot, free) of each plot a building may go on (at most 1 tile there, 2 with the A18 flag
    ``overbuild=twice``; not over the same tile, which its readers skip; ``empty_only``: without keyples), and whether
    any of them is free (the Building Plot, A13). Remembered on ``p`` (``PLOTS_CACHE``) while its plots are unchanged."""
    memo: dict[object, OpenPlots] | None = p.__dict__.get(PLOTS_CACHE)
    if memo is None:
        memo = p.__dict__[PLOTS_CACHE] = {}
    most = 1 if s.options["overbuild"] == "once" else 2
    free_over = s.options["plot_overbuild"] == "yes"
    key = (most, free_over, empty_only)
    found = memo.get(key)
    if found is None:
        open_: dict[str, Spots] = {}
        building_plot = "building_plot" in _tops(p)  # no free plot without one (``_tops``: often known already)
        for area in ("farm", "village"):
            labels, plots = PLOT_LABELS[area], p.plots(area)
            if not building_plot:
                open_[area] = _paid_spots(area, plots, most, empty_only)
                continue
            free = _free_in(s, area, plots)
            open_[area] = Spots([(plot.tiles[-1] if plot.tiles else "", labels[i],
                                  bool(free) and labels[i] in free and (not plot.tiles or free_over))  # A13
                                 for i, plot in enumerate(plots)
                                 if len(plot.tiles) <= most and not (empty_only and plot.keyples)])
        found = memo[key] = (open_, open_["farm"].free + open_["village"].free > 0)
    return found


def _paid_spots(area: str, plots: tuple[Plot, ...], most: int, empty_only: bool) -> Spots:
    """The ``Spots`` of ``_open_plots`` in an area without a free plot: its empty plots' (the most: made once) but
    where a plot holds tiles (a few), counted on the way (found in a plain loop: a map of an attribute getter costs
    more)."""
    spots = list(EMPTY_SPOTS[area][:len(plots)])
    tops: dict[str, tuple[int, int]] = {}
    built, gone = 0, False
    for i, plot in enumerate(plots):
        if not plot.tiles:
            continue
        built += 1
        if len(plot.tiles) <= most and not (empty_only and plot.keyples):
            top = plot.tiles[-1]
            spots[i] = (top, PLOT_LABELS[area][i], False)
            tops[top] = (0, tops.get(top, NONE)[1] + 1)
        else:
            spots[i], gone = NO_SPOT, True
    if built < len(plots):
        tops[""] = (0, len(plots) - built)
    return Spots([spot for spot in spots if spot is not NO_SPOT] if gone else spots, tops)


EMPTY_SPOTS = {area: tuple(("", label, False) for label in labels) for area, labels in PLOT_LABELS.items()}
NO_SPOT = ("", "", False)
"""A plot no tile may be built on (``_paid_spots``: left out)."""


Payments = tuple[tuple[tuple[str, str, tuple[str, ...]], ...], tuple[tuple[str, str, tuple[str, ...]], ...]]


def _tile_payments(s: State, p: Player, how: str) -> Payments:
    """(tile, area, payment texts) of each tile ``p`` has not built, in order, for building it on a plot that is not
    free by ``how`` (``full`` or ``discount``, ``build_options``): those it can pay, and all. Remembered with the
    edition, by the tiles and the goods."""
    memo: dict[object, Payments] | None = s.edition.derived.get("tile payments")
    if memo is None:
        memo = s.edition.derived["tile payments"] = Memo(20_000)
    key = (how, p.unbuilt, p.goods, s.options["payment"])
    found = memo.get(key)
    if found is None:
        rows, payable, every, held = _tile_rows(s, how), [], [], sum(p.goods)
        for tile in sorted(set(p.unbuilt)):
            unpaid, least, texts = rows[tile]
            if held >= least:
                pays = texts.of(s, p)
                if pays:
                    row = (tile, unpaid[1], pays)
                    every.append(row)
                    payable.append(row)
                    continue
            every.append(unpaid)
        found = memo[key] = (tuple(payable), tuple(every))
    return found


TileRow = tuple[tuple[str, str, tuple[str, ...]], int, "PayTexts"]


def _tile_rows(s: State, how: str) -> dict[str, TileRow]:
    """Per tile its row (tile, area, payment texts) when it cannot be paid, the fewest pieces that pay for it by
    ``how`` (each symbol paid takes one; a discount field leaves ``build_discount`` unpaid, at least 1 paid, L565:
    with fewer, no payment is looked for) and the ``PayTexts`` of its cost (``_tile_payments``), for the ``payment``
    flag; made once with the edition."""
    key = ("tile rows", how, s.options["payment"])
    found: dict[str, TileRow] | None = s.edition.derived.get(key)
    if found is None:  # a discount field's payments depend on the edition's discount: a table of its own
        table = _pay_table(s.options["payment"]) if how == "full" else PayTable(discount_texts)
        off = s.edition.build_discount
        found = s.edition.derived[key] = {
            tile: ((tile, t.area, ()), len(t.cost) if how == "full" else max(1, len(t.cost) - off), table[t.cost])
            for tile, t in s.edition.tiles.items()}
    return found


FREE = ("free",)
"""The payment of a build that costs nothing."""


Texts = Callable[[State, Player, tuple[str, ...]], tuple[str, ...]]
"""What works out the texts of the payments of a cost (``_payment_texts``, ``discount_texts``)."""


def _payment_texts(s: State, p: Player, cost: tuple[str, ...]) -> tuple[str, ...]:
    """The texts of ``payments(s, p, cost)``, unremembered (``PayTexts`` remembers them)."""
    return tuple(joined(pay) for pay in _payments(s, p, cost))


class PayTexts(dict[object, tuple[str, ...]]):
    """The texts of the payments of one cost under one ``payment`` flag (``make``: on a build field, by default, or a
    discount field), by how many the player holds of each piece that may pay it (``_payers``)."""

    def __init__(self, cost: tuple[str, ...], make: Texts = _payment_texts) -> None:
        super().__init__()
        self.cost, self.payers, self.make = cost, _payers(cost), make

    def of(self, s: State, p: Player) -> tuple[str, ...]:
        """``make(s, p, cost)``, remembered."""
        key = self.payers(p.goods)
        found = self.get(key)
        if found is None:
            if len(self) >= 2000:
                self.clear()
            found = self[key] = self.make(s, p, self.cost)
        return found


class PayTable(dict[tuple[str, ...], PayTexts]):
    """``PayTexts`` by cost (of ``make``), each made once (when first asked for)."""

    def __init__(self, make: Texts = _payment_texts) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, cost: tuple[str, ...]) -> PayTexts:
        found = self[cost] = PayTexts(cost, self.make)
        return found


def _pay_table(payment: str) -> PayTable:
    """The ``PayTexts`` of every cost under the ``payment`` flag."""
    found = _PAY_TEXTS.get(payment)
    if found is None:
        found = _PAY_TEXTS[payment] = PayTable()
    return found


_PAY_TEXTS: dict[str, PayTable] = {}


def build_moves(s: State, seat: int, how: str) -> list[KPMove]:
    builds = BY_ARGS["build"]
    return [builds[args] for args in build_options(s, seat, how)]  # not map(builds.__getitem__): slower on a subclass


class ByArgs(dict[tuple[str, ...], KPMove]):
    """``VERB *ARGS`` by its arguments, each made once (when first asked for; forgotten past 50,000)."""

    def __init__(self, verb: str) -> None:
        super().__init__()
        self.verb = verb

    def __missing__(self, args: tuple[str, ...]) -> KPMove:
        if len(self) >= 50_000:
            self.clear()
        move = self[args] = KPMove(self.verb, args)
        return move


BY_ARGS = {verb: ByArgs(verb) for verb in ("build", "boats", "lay", "trade", "keep", "rest", "fold", "fairs",
                                           "upgrade")}
"""The moves of several arguments offered often, or many at a time (a keep tile's outcomes, the rests)."""


def upgrade_moves(s: State, seat: int, how: str, only: str = "") -> list[KPMove]:
    """``how``: ``cost`` (the player board's upgrade cost), ``builder`` (1 finished good or wheat), ``labourer``
    (farm buildings, free)."""
    p = s.players[seat]
    out: list[KPMove] = []
    upgrades = BY_ARGS["upgrade"]
    for area in ("farm", "village"):
        if how == "labourer" and area != "farm":
            continue
        labels, texts = PLOT_LABELS[area], None
        for i, plot in enumerate(p.plots(area)):
            label = labels[i]
            if not plot.tiles or plot.upgraded or (only and label != only):
                continue
            if texts is None:  # the same for every plot of the area: worked out at its first
                texts = [joined(pay) for pay in ([()] if how == "labourer" else payments(s, p, ("fin_any",))
                                                 if how == "builder" else payments(s, p, s.edition.upgrade_cost[area]))]
            for text in texts:
                out.append(upgrades[label, text])
    return out


def _build(s: State, seat: int, tile: str, plot: str, pay: Sequence[str]) -> State:
    """Pay, and lay ``tile`` base side up on ``plot`` (over the building there, whose keyples move up, L645)."""
    area, _, index = parse_target(plot)
    tiles = (*s.players[seat].plots(area)[index].tiles, tile)
    return _paid_plot(s, seat, pay, area, index, tiles=tiles, upgraded=False)


def _upgrade(s: State, seat: int, plot: str, pay: Sequence[str]) -> State:
    area, _, index = parse_target(plot)
    return _paid_plot(s, seat, pay, area, index, upgraded=True)


def _paid_plot(s: State, seat: int, pay: Sequence[str], area: str, index: int, **plot: object) -> State:
    """``seat`` pays ``pay`` and its plot ``index`` of ``area`` changes as ``plot`` says (a tile built there leaves
    its unbuilt tiles): one copy of the state."""
    changes = _exchange(s, seat, given=pay)
    players: tuple[Player, ...] = changes.get("players", s.players)  # type: ignore[assignment]
    p = players[seat]
    plots = list(p.plots(area))
    plots[index] = copied(plots[index], plot)
    more: dict[str, object] = {area: tuple(plots)}
    if "tiles" in plot:
        unbuilt = list(p.unbuilt)
        unbuilt.remove(plots[index].tiles[-1])
        more["unbuilt"] = tuple(unbuilt)
    changes["players"] = _swap(players, seat, copied(p, more))
    return copied(s, changes)


class OneArg(dict[str, KPMove]):
    """``VERB ARG`` by its argument, each made once (when first asked for)."""

    def __init__(self, verb: str) -> None:
        super().__init__()
        self.verb = verb

    def __missing__(self, arg: str) -> KPMove:
        move = self[arg] = KPMove(self.verb, (arg,))
        return move


ONE_ARG = {verb: OneArg(verb) for verb in ("lay", "follow", "take", "process", "work", "ship", "pick")}
"""The moves of one argument offered often; the arguments are the few targets, colours, pieces and tiles."""


# ------------------------------------------------------------------ the moves of each task


T_co = TypeVar("T_co", covariant=True)


class Run(Protocol[T_co]):
    """A run of items: a list, or items made only when read (``TurnPlacements``, ``Builds``, ``Made``)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> T_co: ...

    def __iter__(self) -> Iterator[T_co]: ...


Part = Run[KPMove]
"""A run of legal moves."""


class Moves:
    """The legal moves of a state as the runs they are listed in, in order, joined only when asked for: a random
    pick (``rng.choice``) reads the length and one move, which spares making a turn's hundreds of moves."""

    __slots__ = ("parts", "size", "_joined")

    def __init__(self, parts: list[Part]) -> None:
        self.parts = parts
        size = 0
        for part in parts:  # (one or two: a loop is faster than a map; counted in a local, cheaper than an attribute)
            size += len(part)
        self.size = size
        self._joined: list[KPMove] | None = None

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> KPMove:
        """The move at ``index`` (0 to ``len - 1``) of the joined list."""
        for part in self.parts:
            size = len(part)  # (once: a run's length can be a call)
            if index < size:
                return part[index]
            index -= size
        raise IndexError(index)

    def joined(self) -> list[KPMove]:
        """Every move in one list (made once; never handed out)."""
        if self._joined is None:
            self._joined = [move for part in self.parts for move in part]
        return self._joined


def moves_of(s: State) -> Moves:
    """The legal moves of ``s``; worked out once per (immutable) state."""
    found: Moves | None = s.__dict__.get(MOVES_CACHE)
    if found is None:
        found = s.__dict__[MOVES_CACHE] = Moves(generate(s))
    return found


def legal_moves(s: State) -> list[KPMove]:
    """Every legal move."""
    return moves_of(s).joined().copy()


def random_move(s: State, rng: random.Random) -> KPMove:
    """``rng.choice(legal_moves(s))`` without joining the moves: ``choice`` draws ``randrange(len)`` (its
    ``_randbelow``), asked here of the count already made (``choice`` would ask ``Moves`` its length twice, calls)."""
    moves = moves_of(s)
    if not moves.size:
        raise IndexError("Cannot choose from an empty sequence")
    return moves[rng.randrange(moves.size)]


def generate(s: State) -> list[Part]:
    """Every legal move, worked out, in runs."""
    if s.over or not s.tasks:
        return []
    top = s.tasks[-1]
    if top.kind in CHANCE_KINDS:
        return [[m for m, w in chance_outcomes(s) if w > 0]]
    if top.kind == "fold":
        return [fold_moves(s)]
    if top.kind == "turn":
        return turn_moves(s, top)
    if top.kind == "use":
        return use_moves(s, top)
    if top.kind == "keeptile":
        return [Made(keeptile_outcomes(s, top), BY_ARGS["keep"]), ONLY_DONE]
    if top.kind == "rest":
        counts = tuple(sorted(Counter(s.players[top.seat].keep).items()))
        return [Made(Rests(counts, top.n), BY_ARGS["rest"])]
    return [LISTED[top.kind](s, top)]


ONLY_DONE: Part = (DONE,)
"""The run of ``done`` that ends a use's or a keep tile's moves (one tuple: runs are never changed)."""


class Made:
    """The moves of one verb whose arguments are ``args``, each made when read (``ByArgs``): the builds of a build
    field, the keep tile's outcomes, the rests, which can be hundreds."""

    __slots__ = ("args", "make")

    def __init__(self, args: Run[tuple[str, ...]], make: ByArgs) -> None:
        self.args, self.make = args, make

    def __len__(self) -> int:
        return len(self.args)

    def __getitem__(self, index: int) -> KPMove:
        return self.make[self.args[index]]

    def __iter__(self) -> Iterator[KPMove]:
        make = self.make
        return (make[args] for args in self.args)


def turn_moves(s: State, top: Task) -> list[Part]:
    """A turn: the Keyper onto a free keep field, then the placements (``TurnPlacements``); or the lay-downs."""
    seat = top.seat
    p = s.players[seat]
    if p.pieces_home == 0:
        return [lay_moves(s, seat)]
    keyper = []
    if p.keyper_home:  # (a loop: no comprehension call)
        for b, board in enumerate(s.boards):
            if board.keeper < 0:
                keyper.append(KEYPER_MOVES[b])
    key = (tuple(free_boats(s)), s.options["join_lying"])
    places = []
    for b, board in enumerate(s.boards):  # (a loop: a comprehension is one more call)
        memo: dict[tuple[tuple[str, ...], str], Places] | None = board.__dict__.get(MOVES_CACHE)
        if memo is None:  # each board's places remembered on it while it is unchanged (a copy drops them)
            memo = board.__dict__[MOVES_CACHE] = {}
        found = memo.get(key)
        if found is None:
            found = memo[key] = _field_places(s, b, key)
        places.append(found)
    places.append(_plot_places(s, seat, key[1]))
    builds = build_options(s, seat, "full", empty_only=True)
    return [keyper, TurnPlacements(sorted(set(p.keep)), places, builds)]


KEYPER_MOVES = tuple(KPMove("keyper", (str(b + 1),)) for b in range(4))


class TurnPlacements:
    """A turn's placements, in order: per colour in the keep area, onto each board's fields (in board and field
    order), onto one of the seat's buildings, onto a tile it builds there (4.8 (v), ``builds``: (tile, plot,
    payment)). Counted without being made; each made when read."""

    __slots__ = ("colours", "places", "builds", "size")

    def __init__(self, colours: list[str], places: list[Places], builds: Builds) -> None:
        self.colours, self.places, self.builds = colours, places, builds
        size = builds.size * len(colours)  # (counted in a local: an attribute costs more)
        for where in places:
            counts = where.counts
            for colour in colours:
                size += counts[colour]
        self.size = size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> KPMove:
        per_colour = self.builds.size  # (each colour's builds: read once)
        for colour in self.colours:
            for where in self.places:
                n = where.counts[colour]
                if index < n:
                    return where.move(colour, index)
                index -= n
            if index < per_colour:
                return _BUILD_PLACEMENTS[self.builds[index]][colour]
            index -= per_colour
        raise IndexError(index)

    def __iter__(self) -> Iterator[KPMove]:
        for colour in self.colours:
            for where in self.places:
                yield from where.moves(colour)
            for build in self.builds:
                yield _BUILD_PLACEMENTS[build][colour]


Place = tuple[str, str, tuple[tuple[str, ...], ...]]
"""A place with room for a keyple (``Places``)."""
PLAIN: tuple[tuple[str, ...], ...] = ((),)
STANDING: tuple[tuple[str, ...], ...] = ((), ("lay",))
"""The words after the label of the placements onto an empty place or beside a lying keyple; beside a standing one."""


class Places:
    """The places with room on one board's fields (among them those without, ``FULL``) or among one seat's
    buildings, in order, as (label, who may go there, the words after the label of each placement there: ``PLAIN``,
    ``STANDING``, a boat each), and how many placements each colour has. ``who``: ``*`` anyone (an empty place too), else the one colour that may join the
    keyple there besides white (``joiner``)."""

    __slots__ = ("places", "counts")

    def __init__(self, places: list[Place], anyone: int = 0, by_who: dict[str, int] | None = None) -> None:
        """``anyone``, ``by_who``: the placements open to any colour and to each one ``who``, if counted already."""
        self.places = places
        if by_who is None:
            by_who = {}
            for _, who, tails in places:
                by_who[who] = by_who.get(who, 0) + len(tails)
        anyone += by_who.pop("*", 0)
        self.counts = counts = dict.fromkeys(KEYPLE_COLOURS, anyone)
        if by_who:  # (none on a board without a lone keyple)
            for who, n in by_who.items():
                counts[who] = anyone + n
            counts["white"] = anyone + sum(by_who.values())

    def move(self, colour: str, index: int) -> KPMove:
        """The ``index``-th placement of a ``colour`` keyple here."""
        white = colour == "white"
        for label, who, tails in self.places:
            if who == "*" or white or who == colour:
                n = len(tails)
                if index < n:
                    return _placements(colour, tails[index])[label]
                index -= n
        raise IndexError(index)

    def moves(self, colour: str) -> Iterator[KPMove]:
        """Every placement of a ``colour`` keyple here."""
        for label, who, tails in self.places:
            if who == "*" or colour == "white" or who == colour:
                for tail in tails:
                    yield _placements(colour, tail)[label]


def _field_places(s: State, b: int, key: tuple[tuple[str, ...], str]) -> Places:
    """The ``Places`` of board ``b``'s fields (but keep fields), for the free boats and the ``join_lying``
    flag of ``key``: an empty one (a river field with each free boat), one with a keyple to join (also laying it down
    if standing). Worked out when not remembered on the board (``turn_moves``)."""
    board = s.boards[b]
    fields = board.fields
    empty, rivers, where = _empty_board(s.edition, b, board.layout)
    out = list(empty)
    anyone = len(empty) - len(rivers)
    if rivers:
        river = _RIVERS.get(key[0]) or _RIVERS.setdefault(key[0], tuple(("boat", boat) for boat in key[0]))
        anyone += len(rivers) * len(river)
        for at in rivers:
            out[at] = (empty[at][0], "*", river)
    by_who: dict[str, int] = {}
    for i in itertools.compress(FIELDS_15, fields):  # the fields with keyples (a keep field holds none)
        at, colour = where[i]
        label, _, tails = out[at]  # its place while empty
        anyone -= len(tails)
        here = fields[i]
        if len(here) == 1:
            who, tails = joiner(s, here[0], colour), STANDING if here[0].standing else PLAIN
            out[at] = (label, who, tails)
            by_who[who] = by_who.get(who, 0) + len(tails)
        else:
            out[at] = FULL
    return Places(out, anyone, by_who)


FIELDS_15 = range(15)
_RIVERS: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
"""The words after a river field's label of its placements, by the free boats (a few hundred sets of boats)."""
FULL: Place = ("", "", ())
"""A field without room (``_field_places``: left among the places, not left out, which would cost more than
passing over it when a placement is read: no colour has a placement there)."""


def _empty_board(edition: Edition, b: int, layout: str,
                 ) -> tuple[tuple[Place, ...], tuple[int, ...], dict[int, tuple[int, str]]]:
    """Board ``b`` showing ``layout`` with no keyple: the ``Place`` of each field but the keep field (a river field's
    without its boats), the positions of the river fields' places, and per field index its place's position and
    colour (``_field_places`` changes only the river fields' and those with keyples). Worked out once."""
    key = ("empty board", b, layout)
    found: tuple[tuple[Place, ...], tuple[int, ...], dict[int, tuple[int, str]]] | None = edition.derived.get(key)
    if found is None:
        labels, fields = FIELD_LABELS[b], layout_fields(edition, layout)
        found = edition.derived[key] = (
            tuple((labels[i], "*", () if kind == "river" else PLAIN) for i, kind, _ in fields),
            tuple(at for at, (_, kind, _) in enumerate(fields) if kind == "river"),
            {i: (at, colour) for at, (i, _, colour) in enumerate(fields)})
    return found


def _plot_places(s: State, seat: int, join_lying: str) -> Places:
    """The ``Places`` of ``seat``'s buildings with room (under the ``join_lying`` flag), remembered on its player
    (``PLOTS_CACHE``) while its plots are unchanged."""
    p = s.players[seat]
    memo: dict[object, Places] | None = p.__dict__.get(PLOTS_CACHE)
    if memo is None:
        memo = p.__dict__[PLOTS_CACHE] = {}
    key = ("places", join_lying)
    found = memo.get(key)
    if found is None:
        out: list[Place] = []
        for area in ("farm", "village"):
            labels = PLOT_LABELS[area]
            for i, plot in enumerate(p.plots(area)):
                if plot.tiles and len(plot.keyples) < 2:
                    first = plot.keyples[0] if plot.keyples else None
                    out.append((labels[i], "*", PLAIN) if first is None else
                               (labels[i], joiner(s, first, "none"), STANDING if first.standing else PLAIN))
        found = memo[key] = Places(out)
    return found


def layout_fields(edition: Edition, layout: str) -> tuple[tuple[int, str, str], ...]:
    """(index, kind, colour) of every field but the keep field of configuration ``layout``, worked out once."""
    key = ("fields", layout)
    found: tuple[tuple[int, str, str], ...] | None = edition.derived.get(key)
    if found is None:
        found = edition.derived[key] = tuple(
            (i, f.kind, f.colour) for i, f in enumerate(edition.layouts[layout].fields) if f.kind != "keep")
    return found


FIELD_LABELS = tuple(tuple(f"{b + 1}.{i + 1}" for i in range(15)) for b in range(4))


class Placements(dict[str, KPMove]):
    """``place COLOUR TARGET *TAIL`` by target, each made once (when first asked for)."""

    def __init__(self, colour: str, tail: tuple[str, ...]) -> None:
        super().__init__()
        self.colour, self.tail = colour, tail

    def __missing__(self, target: str) -> KPMove:
        move = self[target] = KPMove("place", (self.colour, target, *self.tail))
        return move


def _placements(colour: str, tail: tuple[str, ...]) -> Placements:
    """The placements of a ``colour`` keyple with the words ``tail`` after the target (``lay``, ``boat B3``)."""
    found = _PLACEMENTS.get((colour, tail))
    if found is None:
        found = _PLACEMENTS[colour, tail] = Placements(colour, tail)
    return found


_PLACEMENTS: dict[tuple[str, tuple[str, ...]], Placements] = {}


class BuildPlacements(dict[str, KPMove]):
    """``place COLOUR PLOT build TILE PAY`` of one build (tile, plot, payment) by colour, each made once (when
    first asked for)."""

    def __init__(self, build: tuple[str, str, str]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, colour: str) -> KPMove:
        tile, plot, pay = self.build
        move = self[colour] = KPMove("place", (colour, plot, "build", tile, pay))
        return move


class ByBuild(dict[tuple[str, str, str], BuildPlacements]):
    """``BuildPlacements`` by build, each made once (when first asked for)."""

    def __missing__(self, build: tuple[str, str, str]) -> BuildPlacements:
        if len(self) >= 20_000:
            self.clear()
        found = self[build] = BuildPlacements(build)
        return found


_BUILD_PLACEMENTS = ByBuild()
"""The placements of a keyple onto a plot with the tile it builds there (4.8 (v)), by build and colour."""


def free_boats(s: State) -> list[str]:
    """The season's boats on no board, in order (plain loops: a comprehension is a call more)."""
    used: set[str] = set()
    for board in s.boards:
        used.add(board.boat)
    out: list[str] = []
    for boat in s.boats:
        if boat not in used:
            out.append(boat)
    return out


def lay_targets(s: State, seat: int) -> list[str]:
    """Spec 4.5: places with a standing keyple, those of the player's own plots and claimed board first."""
    return [target for target, _ in _lay_places(s, seat)]


def _lay_places(s: State, seat: int) -> list[tuple[str, int]]:
    """``lay_targets`` with how many keyples stand on each."""
    p = s.players[seat]
    own: list[tuple[str, int]] = []
    _plots_standing(p, own)
    board = claimed_board(s, seat)
    if board >= 0:  # every field of the claimed board
        _fields_standing(s, board, own)
    if own:
        return own
    for b in range(len(s.boards)):  # (a keep field holds no keyple)
        if b != board:  # then the other boards' fields (neither the plots nor the claimed board have any)
            _fields_standing(s, b, own)
    return own


def _fields_standing(s: State, b: int, out: list[tuple[str, int]]) -> None:
    """Add (field, how many keyples stand there) of board ``b``'s fields where any stands to ``out``."""
    labels, fields = FIELD_LABELS[b], s.boards[b].fields
    for i in itertools.compress(FIELDS_15, fields):  # the fields with keyples (found in C)
        if up := _standing(fields[i]):
            out.append((labels[i], up))


def _plots_standing(p: Player, out: list[tuple[str, int]]) -> None:
    """Add (plot, how many keyples stand there) of ``p``'s plots where any stands (a plot with keyples has a
    building) to ``out``."""
    for area in ("farm", "village"):
        labels = PLOT_LABELS[area]
        for i, plot in enumerate(p.plots(area)):
            if plot.keyples and (up := _standing(plot.keyples)):
                out.append((labels[i], up))


def _standing(keyples: tuple[PK, ...]) -> int:
    """How many of ``keyples`` (one or two) stand (a loop: cheaper than a map for so few)."""
    up = 0
    for keyple in keyples:
        if keyple.standing:
            up += 1
    return up


def lay_moves(s: State, seat: int) -> list[KPMove]:
    out = []
    one_or_both = s.options["lay_two"] == "one_or_both"
    lay, lay_both = ONE_ARG["lay"], BY_ARGS["lay"]
    for target, up in _lay_places(s, seat):
        if up == 1 or one_or_both:
            out.append(lay[target])
        if up == 2:
            out.append(lay_both[target, "both"])
    return out


def _follow_options(s: State, top: Task) -> list[str]:
    here = occupants(s, top.seat, top.arg) or ()
    if len(here) != 1:
        return []
    other = joiner(s, here[0], target_colour(s, top.arg))
    colours = sorted(set(s.players[top.seat].keep))
    return colours if other == "*" else [c for c in colours if c == "white" or c == other]


def follow_moves(s: State, top: Task) -> list[KPMove]:
    follow, out = ONE_ARG["follow"], []
    for colour in _follow_options(s, top):  # (a loop: no comprehension call, no list joined)
        out.append(follow[colour])
    out.append(PASS)
    return out


def use_moves(s: State, top: Task) -> list[Part]:
    """One unit of what a keyple yields on ``top.arg``, or ``done``."""
    seat, target = top.seat, top.arg
    p = s.players[seat]
    area, board, index = parse_target(target)
    place = field_of(s, board, index) if area == "field" else None  # the field read once (``_kind_at``, ``_param``)
    kind, param = (place.kind, place.param) if place is not None else ("plot", "")
    out: list[KPMove] = []
    if kind == "plot":
        out = plot_moves(s, seat, target)
    elif kind in ("res", "gem", "animal"):
        if _in_supply(s, param) > 0:
            out.append(ONE_ARG["take"][param])
    elif kind == "process":
        if p.good(RAW_OF[param]) > 0 and _in_supply(s, param) > 0:
            out.append(ONE_ARG["process"][param])
    elif kind in ("trade_raw", "trade_fin"):
        out = trade_moves(s, seat, RAW if kind == "trade_raw" else FINISHED)
    elif kind in ("build", "discount"):
        return [Made(build_options(s, seat, "full" if kind == "build" else "discount"), BY_ARGS["build"]), ONLY_DONE]
    elif kind == "upgrade":
        out = upgrade_moves(s, seat, "cost")
    elif kind == "river":
        types = s.edition.boats[s.boards[board].boat][SEASONS[s.season]]
        for x in types:
            if _in_supply(s, x) > 0 and (seat, x) not in s.shipped:
                out.append(ONE_ARG["work"][x])
            if (seat, x) not in s.gained:
                if p.good(x) > 0:
                    out.append(ONE_ARG["ship"][x])
                fin = FIN_OF.get(x)  # L499: a finished good may always go as the raw material of its colour
                if fin is not None and fin not in types and p.good(fin) > 0:
                    out.append(ONE_ARG["ship"][fin])
    return [out, ONLY_DONE]


def _param(s: State, target: str) -> str:
    _, board, index = parse_target(target)
    return field_of(s, board, index).param


def trade_moves(s: State, seat: int, kinds: Sequence[str], post: bool = False) -> list[KPMove]:
    """Give 1, take 2 of any types (a 1:2 trade field, L1139-L1147); on the Trading Post (``post``) the A10 flag
    ``other_types`` takes 2 of the other types (L856)."""
    p = s.players[seat]
    out: list[KPMove] = []
    for give, trades in _trades(tuple(kinds), not post or s.options["trading_post"] == "any_types"):
        if p.good(give) > 0:
            out += trades
    return out


@functools.lru_cache(maxsize=64)
def _trades(kinds: tuple[str, ...], same_ok: bool) -> tuple[tuple[str, tuple[KPMove, ...]], ...]:
    """Each piece that may be given for ``kinds`` (sorted) with its trades (``trade_moves``; ``same_ok``: taking
    its own type too), made once (a few sets of kinds)."""
    out = []
    for give in sorted({x for k in kinds for x in _givable(k)}):
        others = [k for k in kinds if same_ok or k != RAW_OF.get(give, give)]
        out.append((give, tuple(BY_ARGS["trade"][give, joined(pair)]
                                for pair in itertools.combinations_with_replacement(others, 2))))
    return tuple(out)


def plot_moves(s: State, seat: int, target: str) -> list[KPMove]:
    """A keyple on one's own building: one activation or the upgrade of that building (4.6)."""
    area, _, index = parse_target(target)
    plot = s.players[seat].plots(area)[index]
    tile, side = plot.top, 1 if plot.upgraded else 0
    out = upgrade_moves(s, seat, "cost", only=target)
    if not s.edition.tiles[tile].activate:
        return out
    if tile == "builder":
        out += build_moves(s, seat, "builder") + (upgrade_moves(s, seat, "builder") if side else [])
    elif tile == "farm_labourer":
        out += build_moves(s, seat, "labourer") + (upgrade_moves(s, seat, "labourer") if side else [])
    elif tile == "trading_post":  # A10: its raw trades as conversions (any types) or trades of the other types
        other = s.options["trading_post"] == "other_types"
        if not other:
            out += convert_moves(s, seat, *CONVERSIONS[tile][side])
        out += trade_moves(s, seat, FINISHED, post=True)
        if side or other:
            out += trade_moves(s, seat, RAW, post=True)
        if side:
            out += _double_trades(s, seat)
    elif tile in CONVERSIONS:
        if not (tile == "windmill" and side and s.options["windmill_upgraded"] == "scores_only"):
            out += convert_moves(s, seat, *CONVERSIONS[tile][side])
    return out


def _givable(kind: str) -> tuple[str, ...]:
    """What may be given for ``kind`` in a conversion: a finished good for the raw material of its colour (L499)."""
    return (kind, FIN_OF[kind]) if kind in RAW else (kind,)


def convert_moves(s: State, seat: int, given: Sequence[str], taken: Sequence[str]) -> list[KPMove]:
    p = s.players[seat]
    ins: set[tuple[str, ...]] = set()
    options = [sorted({x for k in CLASSES[c] for x in _givable(k) if p.good(x) > 0}) for c in given]
    for combo in itertools.product(*options):
        if _has(p, combo):
            ins.add(tuple(sorted(combo)))
    outs = {tuple(sorted(combo)) for combo in itertools.product(*[CLASSES[c] for c in taken])}
    return [KPMove("convert", (joined(i), joined(o))) for i in sorted(ins) for o in sorted(outs)
            if all(_in_supply(s, x) >= n for x, n in Counter(o).items())]


def _double_trades(s: State, seat: int) -> list[KPMove]:
    """The upgraded Trading Post: one raw and one finished trade in one use (A10)."""
    out = []
    raws = trade_moves(s, seat, RAW, post=True)
    fins = trade_moves(s, seat, FINISHED, post=True)
    for r in raws:
        for f in fins:
            out.append(KPMove("convert", (joined((r.args[0], f.args[0])),
                                          joined((*pieces(r.args[1]), *pieces(f.args[1]))))))
    return out


def pick_moves(s: State, top: Task) -> list[KPMove]:
    pick, out = ONE_ARG["pick"], []
    for tile in sorted(set(s.display)):  # (a loop: no comprehension call, no list joined)
        out.append(pick[tile])
    out.append(DONE)
    return out


def keeptile_outcomes(s: State, top: Task) -> KeepOutcomes:
    """Spec 4.1, A1: one move per distinct outcome, the resources of all the keyples laid down as one sorted list
    (the order in which they were chosen does not matter), its arguments; then ``done`` (not listed here)."""
    choices = [s.edition.keep_tile[k.colour] for k in s.players[top.seat].keep_tile[-top.n:]]
    key = ("keep", tuple(sorted(Counter(tuple(sorted(c)) for c in choices).items())))
    found: KeepOutcomes | None = s.edition.derived.get(key)
    if found is None:  # the same for all keyples offering the same resources: worked out once
        found = s.edition.derived[key] = keep_outcomes(choices)
    return found


def keep_outcomes(choices: Sequence[Sequence[str]]) -> KeepOutcomes:
    """Every distinct multiset (sorted) of one resource per keyple, each from its ``choices``, sorted."""
    return KeepOutcomes(choices)


class KeepOutcomes:
    """``keep_outcomes``, counted without being listed, each made when read (a keep tile can offer thousands).

    Keyples listing the same resources form a group that takes k of them with repetition; groups sharing a resource
    form a part, whose distinct outcomes are merged one group at a time (a few hundred at most). Parts share no
    resource, so the outcomes are the parts' outcomes joined, each once: the product of their numbers. All outcomes
    are as long (one resource per keyple), so in sorted order they go by how many they hold of the first resource
    (alphabetically), most first, then of the second...: the ``index``-th is found resource by resource."""

    __slots__ = ("parts", "counts", "order", "size", "_listed")

    def __init__(self, choices: Sequence[Sequence[str]]) -> None:
        parts: list[tuple[set[str], list[tuple[tuple[str, ...], int]]]] = []
        for kinds, k in sorted(Counter(tuple(sorted(c)) for c in choices).items()):
            shared = [part for part in parts if not part[0].isdisjoint(kinds)]
            parts = [part for part in parts if part not in shared]
            parts.append((set(kinds).union(*(part[0] for part in shared)),
                          [group for part in shared for group in part[1]] + [(kinds, k)]))
        self.parts: list[list[tuple[str, ...]]] = []
        """Each part's outcomes, sorted."""
        self.counts: list[list[tuple[int, ...]]] = []
        """Each part's outcomes as how many of each of its resources (sorted) they hold."""
        self.order: list[tuple[str, int, int]] = []
        """(resource, its part, its place among the part's resources), sorted."""
        for n, (kinds_, groups) in enumerate(parts):
            outcomes: set[tuple[str, ...]] = {()}
            for kinds, k in sorted(groups):
                picks = list(itertools.combinations_with_replacement(kinds, k))
                outcomes = {tuple(sorted((*have, *pick))) for have in outcomes for pick in picks}
            listed, names = sorted(outcomes), sorted(kinds_)
            self.parts.append(listed)
            self.counts.append([tuple(outcome.count(kind) for kind in names) for outcome in listed])
            self.order += [(kind, n, j) for j, kind in enumerate(names)]
        self.order.sort()
        self.size = math.prod(map(len, self.parts))
        self._listed: list[tuple[str, ...]] | None = None

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> tuple[str, ...]:
        if not 0 <= index < self.size:
            raise IndexError(index)
        alive = self.counts.copy()  # per part, its outcomes that hold what ``out`` holds so far
        total, out = self.size, []
        for kind, n, j in self.order:
            others = total // len(alive[n])
            by_count: dict[int, list[tuple[int, ...]]] = {}
            for held in alive[n]:
                by_count.setdefault(held[j], []).append(held)
            for count in sorted(by_count, reverse=True):
                alive[n] = by_count[count]
                total = len(alive[n]) * others
                if index < total:
                    out += [kind] * count
                    break
                index -= total
        return tuple(out)

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        if self._listed is None:
            self._listed = sorted(tuple(sorted(itertools.chain(*outcome)))
                                  for outcome in itertools.product(*self.parts))
        return iter(self._listed)


def fair_needs(s: State, fairs: tuple[str, ...]) -> Counter[str]:
    """What holding ``fairs`` together needs shown; made once per fairs and season (never changed by its readers)."""
    key = ("fair needs", fairs, s.season >= 2)
    need: Counter[str] | None = s.edition.derived.get(key)
    if need is None:
        need = s.edition.derived[key] = Counter()
        for f in fairs:
            fair = s.edition.fairs[f]
            late = fair.season == "winter" and s.season >= 2
            need.update(dict(fair.late_requires if late else fair.requires))
    return need


def can_show(p: Player, need: Counter[str]) -> bool:
    """Spec 3.6: every piece shown once; a finished good may be shown as the raw material of its colour."""
    for kind, n in need.items():
        if kind in RAW:
            continue
        if p.good(kind) < n:
            return False
    for raw in RAW:
        spare = p.good(FIN_OF[raw]) - need.get(FIN_OF[raw], 0)
        if need.get(raw, 0) > p.good(raw) + spare:
            return False
    return True


def fairs_moves(s: State, top: Task) -> list[KPMove]:
    p = s.players[top.seat]
    own = [p.private[s.season]] if s.season < 3 and p.private[s.season] else []
    winter = list(p.winter_fairs) if s.season > 0 or s.options["winter_fair_seasons"] == "any" else []
    options = own + winter
    out, fairs = [], BY_ARGS["fairs"]
    alone: list[str] = []
    for k in range(len(options) + 1):  # a set needs at least what each of its fairs needs: only those shown alone
        for combo in itertools.combinations(options if k < 2 else alone, k):
            if can_show(p, fair_needs(s, combo)):
                out.append(fairs[combo])
                if k == 1:
                    alone.append(combo[0])
    if own and s.options["seasonal_fair"] == "required" and any(own[0] in m.args for m in out):
        out = [m for m in out if own[0] in m.args]
    return out


def house_moves(s: State, top: Task) -> list[KPMove]:
    return [KPMove("release", combo) for combo in release_options(s, top.seat, top.n)]


class Rests:
    """``rest_choices(counts, n)``, counted without being made, each made when read (there can be hundreds)."""

    __slots__ = ("counts", "n", "ways", "size")

    def __init__(self, counts: tuple[tuple[str, int], ...], n: int) -> None:
        self.counts, self.n = counts, n
        ways = [[1] + [0] * n]  # per tail of ``counts`` (the empty one first), its choices of 0 to n keyples
        for _, k in reversed(counts):
            after, row = ways[-1], []
            for m in range(n + 1):
                total = 0
                for used in range(min(k, m) + 1):
                    total += after[m - used]
                row.append(total)
            ways.append(row)
        ways.reverse()
        self.ways: list[list[int]] = ways
        """``ways[i][m]``: the choices of ``m`` keyples from ``counts[i:]``."""
        self.size = ways[0][n]

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> tuple[str, ...]:
        """The ``index``-th choice (0 to ``len - 1``): per colour, the most of it first, as ``rest_choices`` lists."""
        if not 0 <= index < self.size:
            raise IndexError(index)
        n = self.n
        out: tuple[str, ...] = ()
        for i, (item, k) in enumerate(self.counts):
            if not n:
                break
            after = self.ways[i + 1]
            for used in range(min(k, n), -1, -1):
                if index < (ways := after[n - used]):
                    break
                index -= ways
            out += (item,) * used
            n -= used
        return out

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return iter(rest_choices(self.counts, self.n))


@functools.lru_cache(maxsize=4096)
def rest_choices(counts: tuple[tuple[str, int], ...], n: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct choice of ``n`` keyples to rest on the keep tile from a keep area of ``counts`` (colour, how
    many; sorted), sorted: the arguments of the rests. Remembered (the choices from each tail of ``counts`` too:
    without, they are worked out again for every choice of the head)."""
    if n == 0:
        return ((),)
    if not counts or sum(k for _, k in counts) < n:
        return ()
    (item, k), rest = counts[0], counts[1:]
    return tuple((item,) * used + tail for used in range(min(k, n), -1, -1) for tail in rest_choices(rest, n - used))


def fold_moves(s: State) -> list[KPMove]:
    out: list[KPMove] = []
    for seat in fold_deciders(s):
        out += _folds(s.edition, seat, s.players[seat].claimed, s.season)
    return out


def _folds(edition: Edition, seat: int, board: int, season: int) -> tuple[KPMove, ...]:
    """``seat``'s folds of board ``board`` in ``season``, made once (``Edition.options`` reads every layout)."""
    key = ("folds", seat, board, season)
    found: tuple[KPMove, ...] | None = edition.derived.get(key)
    if found is None:
        found = edition.derived[key] = tuple(BY_ARGS["fold"][str(seat + 1), lay.option]
                                             for lay in edition.options(board + 1, SEASONS[season]))
    return found


# ------------------------------------------------------------------ applying a move


def apply(state: State, move: KPMove) -> State:
    """The state after ``move`` (unchecked: ``validate`` first), settled."""
    s = state
    top = s.tasks[-1]
    if top.kind in CHANCE_KINDS:
        return settle(_chance(s, move))
    verb, args = move.verb, move.args
    if verb == "fold":
        folds = list(s.folds)
        folds[int(args[0]) - 1] = args[1]
        return settle(copied(s, {"folds": tuple(folds)}))
    kind, seat = top.kind, top.seat
    if kind == "turn":
        return settle(_turn(s, seat, move))
    below = s.tasks[:-1]
    if kind == "follow":
        s = _follow(s, seat, top.arg, args[0]) if verb == "follow" else _then(s, below)
    elif kind == "use":
        if verb != "done":
            dead = verb == "build" and args[1] == top.arg  # built over, the tile in use is dead (L643, L790)
            used = _task("use", seat, 0 if dead else top.n - 1, top.arg, top.used + 1, top.shipped + (verb == "ship"))
            if used.n > 0:
                s = _unit(s, seat, move, top.arg, (*below, used))
            elif verb in BOAT_UNITS:  # the last unit on a boat: the use ends before what follows (``settle``)
                s = _end_use(_unit(s, seat, move, top.arg, below), used)
            else:  # the last unit: the use ends in the same copy (``_end_use`` changes nothing off a boat)
                s = _unit(s, seat, move, top.arg, below)
        else:  # the rest unused, including this seat's later turns on the same field (L633)
            s = _then(_end_use(s, top), tuple([t for t in below
                                               if not (t.kind == "use" and t.seat == seat and t.arg == top.arg)]))
    elif kind == "pick":
        if verb == "pick":
            tile = args[0]
            display = list(s.display)
            display.remove(tile)
            p = s.players[seat]
            p = copied(p, {"winter_fairs": tuple(sorted((*p.winter_fairs, tile)))} if tile in s.edition.fairs else
                       {"unbuilt": tuple(sorted((*p.unbuilt, tile)))})
            s = _then(s, below, {"players": _swap(s.players, seat, p), "display": tuple(display)})
        else:
            s = _then(s, below)
    elif kind == "keeptile":
        s = _then(s, below, _exchange(s, seat, taken=args if verb == "keep" else ()))
    elif kind == "fairs":
        s = _hold(s, seat, args, below)
    elif kind == "house":
        s = _then(s, below, _exchange(s, seat, given=args))
    elif kind == "rest":
        keep = list(s.players[seat].keep)
        for colour in args:
            keep.remove(colour)
        p = copied(s.players[seat], {"keep": tuple(keep), "keep_tile": tuple(UPRIGHT[c] for c in args)})
        s = _then(s, below, {"players": _swap(s.players, seat, p)})
    return settle(s)


BOAT_UNITS = frozenset({"work", "ship"})
"""The units of a boat (``use_moves``): only they end a use with a change (``_end_use``)."""


def _turn(s: State, seat: int, move: KPMove) -> State:
    """``seat``'s turn ``move``; ``s`` still has the turn's task on top, replaced by what follows (in one copy: what
    follows is worked out first)."""
    verb, args = move.verb, move.args
    if verb == "keyper":
        board = int(args[0]) - 1
        boards = _swap(s.boards, board, copied(s.boards[board], {"keeper": seat}))
        p = s.players[seat]
        tile = p.keep_tile
        if tile:  # 4.1: every keyple on the keep tile is laid down and gives a resource
            p = copied(p, {"keyper_home": False, "keep_tile": tuple(LAID[k.colour] for k in tile)})
            return copied(s, {"boards": boards, "players": _swap(s.players, seat, p), "last_placer": seat,
                              "tasks": _replaced(s, _task("keeptile", seat, len(tile)), END_TURN[seat])})
        p = copied(p, {"keyper_home": False})
        return _end_turn(s, seat, s.tasks[:-1], {"boards": boards, "players": _swap(s.players, seat, p),
                                                 "last_placer": seat})
    target = args[0] if verb == "lay" else args[1]
    where = parse_target(target)
    kind, board, index = where
    place = field_of(s, board, index) if kind == "field" else None
    here = s.boards[board].fields[index] if place is not None else s.players[seat].plots(kind)[index].keyples
    colour_at = place.colour if place is not None else "none"
    if verb == "place":
        colour = args[0]
        if len(args) >= 3 and args[2] == "build":  # 4.8 (v)
            s = _build(s, seat, args[3], target, pieces(args[4]))
            return _set_keyples(s, seat, where, (UPRIGHT[colour],), _replaced(s, END_TURN[seat]),
                                {"last_placer": seat}, colour)
        if not here:
            if place is None:
                return _set_keyples(s, seat, where, (UPRIGHT[colour],),
                                    _replaced(s, _use_task(s, seat, 1, target, "plot"), END_TURN[seat]),
                                    {"last_placer": seat}, colour)
            # who may follow (``_follow_options``): ``joiner`` of a standing keyple
            joins = eff(colour, colour_at)
            asks = [_task("follow", other, arg=target) for other in _left_of(s, seat)
                    if (keep := s.players[other].keep) and (joins == "*" or "white" in keep or joins in keep)]
            # no one to ask: the result now (``_resolved``), in the same copy
            then = (*asks, _task("resolve", seat, 0, target)) if asks else \
                _resolved(s, target, seat, -1, (UPRIGHT[colour],))[::-1]
            return _set_keyples(s, seat, where, (UPRIGHT[colour],), _replaced(s, *then, END_TURN[seat]),
                                {"last_placer": seat}, colour, args[3] if len(args) == 4 else "")
        first = here[0]
        lay = len(args) == 3 and args[2] == "lay"
        # a white keyple takes the first keyple's colour, lying or not (L307); A14 ``any``: beside a lying one the new
        # keyple works alone, in its own colour (L300)
        alone = not first.standing and s.options["join_lying"] == "any"
        n = (2 if lay else 1) + bonus(colour if alone else first.colour, colour_at)
        return _set_keyples(s, seat, where, (LAID[first.colour] if lay else first, UPRIGHT[colour]),
                            _replaced(s, *_units(s, seat, n, target, place), END_TURN[seat]), {"last_placer": seat},
                            colour)
    # lay
    placed = list(here)
    up = [i for i, k in enumerate(placed) if k.standing]
    laid = up if len(args) == 2 else up[:1]
    for i in laid:
        placed[i] = LAID[placed[i].colour]
    alone = laid == [1] and s.options["join_lying"] == "any"  # beside a lying keyple it joined in its own colour
    n = len(laid) + bonus(placed[1 if alone else 0].colour, colour_at)
    return _set_keyples(s, seat, where, tuple(placed), _replaced(s, *_units(s, seat, n, target, place),
                                                                 END_TURN[seat]), {})


def _units(s: State, seat: int, n: int, target: str, place: Field | None) -> list[Task]:
    """``n`` units for ``seat`` on ``target``, the field ``place`` (``None``: a plot)."""
    if place is None:
        return [_use_task(s, seat, n, target, "plot")]
    if place.kind == "tiles":
        return _picks(s, [seat] * n, target)
    return [_use_task(s, seat, n, target, place.kind)]


def _follow(s: State, seat: int, target: str, colour: str) -> State:
    """4.3: the follower's keyple joins; no one else is asked (the offer on top of ``s`` goes too); the result counts
    for both (worked out now, in the same copy: ``_resolved``)."""
    where = parse_target(target)
    keyples = (*s.boards[where[1]].fields[where[2]], UPRIGHT[colour])
    tasks = tuple([t for t in s.tasks if not (t.kind == "follow" and t.arg == target)])
    leader = tasks[-1].seat  # the offers were on top of the result
    tasks = tasks[:-1] + _resolved(s, target, leader, seat, keyples)
    s = _set_keyples(s, seat, where, keyples, tasks, {}, colour)
    if s.options["last_placer"] == "follower" and all(p.pieces_home == 0 for p in s.players):
        s = copied(s, {"last_placer": seat})
    return s


def _unit(s: State, seat: int, move: KPMove, target: str, tasks: tuple[Task, ...]) -> State:
    """One unit of a yield on ``target``, and the state's tasks become ``tasks`` (``_then``: not on a boat, where the
    use's end comes first)."""
    verb, args = move.verb, move.args
    if verb == "take":
        return _then(s, tasks, _exchange(s, seat, taken=args))
    if verb == "work":
        return _gain(s, seat, args[0], {"tasks": tasks, "gained": s.gained | {(seat, args[0])}})
    if verb == "ship":
        s = _spend(s, seat, (args[0],))
        s = s.player(seat, shipping=s.players[seat].shipping + 2)
        return copied(s, {"tasks": tasks, "shipped": s.shipped | {(seat, _boat_type(s, target, args[0]))}})
    if verb == "process":
        return _then(s, tasks, _exchange(s, seat, (RAW_OF[args[0]],), args))
    if verb in ("trade", "convert"):
        return _then(s, tasks, _exchange(s, seat, pieces(args[0]) if verb == "convert" else (args[0],),
                                           pieces(args[1])))
    if verb == "build":
        return _then(_build(s, seat, args[0], args[1], pieces(args[2])), tasks)
    if verb == "upgrade":
        return _then(_upgrade(s, seat, args[0], pieces(args[1])), tasks)
    raise AssertionError(move)


def _boat_type(s: State, target: str, shipped: str) -> str:
    """The type of the boat on ``target`` that the piece ``shipped`` went as: itself, or the raw material of its
    colour for a finished good the boat does not show (L499)."""
    types = s.edition.boats[s.boards[parse_target(target)[1]].boat][SEASONS[s.season]]
    return shipped if shipped in types else RAW_OF.get(shipped, shipped)


def _hold(s: State, seat: int, fairs: Sequence[str], tasks: tuple[Task, ...]) -> State:
    """Spec 3.6: the fairs held go face up on this season's space; the season's private fair not held goes to the
    box (A20); the state's tasks become ``tasks``."""
    p = s.players[seat]
    season = SEASONS[s.season]
    private = list(p.private)
    if s.season < 3:
        private[s.season] = ""
    winter = tuple(w for w in p.winter_fairs if w not in fairs)
    p = copied(p, {"private": tuple(private), "winter_fairs": winter,
                   "held": (*p.held, *((f, season) for f in fairs))})
    return _then(s, tasks, {"players": _swap(s.players, seat, p)})


# ------------------------------------------------------------------ validation (checklist 4.11)


def validate(s: State, move: KPMove) -> IllegalMoveError | None:
    """``None`` if ``move`` is legal now, else the first item of checklist 4.11 it fails, with its reason."""
    if move in moves_of(s).joined():
        return None
    return diagnose(s, move)


def diagnose(s: State, move: KPMove) -> IllegalMoveError:
    top = s.top
    verb, args = move.verb, move.args
    if top is None or s.over:
        return _err("4.11-1", "over", move)
    if top.kind in CHANCE_KINDS:
        return _err("3.8", "chance", move)
    expected = {"turn": ("keyper", "place", "lay"), "follow": ("follow", "pass"), "use": (*UNIT_VERBS, "done"),
                "pick": ("pick", "done"), "keeptile": ("keep", "done"), "fairs": ("fairs",), "house": ("release",),
                "rest": ("rest",), "fold": ("fold",)}[top.kind]
    if verb not in expected:
        return _err("4.11-1", "not_now", move, verbs=", ".join(expected))
    seat = top.seat
    if top.kind == "fold":
        if not args[0].isdigit() or int(args[0]) - 1 not in fold_deciders(s):
            return _err("3.2", "fold_seat", move)
        return _err("3.2", "fold_option", move)
    p = s.players[seat]
    if top.kind == "turn":
        return _diagnose_turn(s, seat, p, move)
    if top.kind == "follow":
        return _err("4.11-5", "follow_colour", move, colour=colour_text(args[0]) if args else "")
    if top.kind == "use":
        return _diagnose_use(s, top, p, move)
    if top.kind == "pick":
        return _err("4.6", "pick", move, tile=args[0] if args else "")
    if top.kind == "keeptile":
        return _err("4.1", "keeptile", move, n=top.n)
    if top.kind == "fairs":
        return _err("4.11-11", "fairs", move)
    if top.kind == "house":
        return _err("4.11-11", "house", move, n=top.n)
    return _err("4.11-11", "rest", move, n=top.n)


def _diagnose_turn(s: State, seat: int, p: Player, move: KPMove) -> IllegalMoveError:
    verb, args = move.verb, move.args
    if verb == "lay":
        if p.pieces_home:
            return _err("4.11-2", "must_place", move)
        here = occupants(s, seat, args[0])
        if here is None:
            return _err("4.11-6", "no_place", move, target=args[0])
        if not any(k.standing for k in here):
            return _err("4.11-6", "nothing_standing", move, target=args[0])
        if args[0] not in lay_targets(s, seat):
            return _err("4.11-6", "priority", move, target=args[0])
        return _err("4.11-6", "lay_both", move, target=args[0])
    if not p.pieces_home:
        return _err("4.11-2", "must_lay", move)
    if verb == "keyper":
        if not p.keyper_home:
            return _err("4.11-3", "keyper_played", move)
        if not args[0].isdigit() or not 1 <= int(args[0]) <= len(s.boards):
            return _err("4.11-3", "no_board", move, board=args[0])
        return _err("4.11-3", "keep_taken", move, board=args[0])
    colour, target = args[0], args[1]
    if colour not in p.keep:
        return _err("4.11-4", "no_keyple", move, colour=colour_text(colour))
    kind, board, index = parse_target(target)
    here = occupants(s, seat, target)
    if here is None:
        return _err("4.11-4", "no_place", move, target=target)
    if kind == "field" and field_of(s, board, index).kind == "keep":
        return _err("4.11-4", "keep_field", move, target=target)
    if len(args) >= 3 and args[2] == "build":
        return _err("4.11-9", "build_here", move, tile=args[3] if len(args) > 3 else "", target=target)
    if kind != "field" and not p.plots(kind)[index].tiles:
        return _err("4.11-4", "no_building", move, target=target)
    if len(here) >= 2:
        return _err("4.11-4", "full", move, target=target)
    if here and not join_ok(s, colour, here[0], target_colour(s, target)):
        return _err("4.11-4", "join", move, target=target, colour=colour_text(colour))
    if not here and kind == "field" and field_of(s, board, index).kind == "river":
        return _err("4.11-8", "boat", move, boats=", ".join(free_boats(s)) or "-")
    return _err("4.11-4", "place_form", move, target=target)


def _diagnose_use(s: State, top: Task, p: Player, move: KPMove) -> IllegalMoveError:
    verb, args = move.verb, move.args
    kind = _kind_at(s, top.seat, top.arg)
    if verb in ("work", "ship"):
        if kind != "river":
            return _err("4.11-7", "not_this_field", move, target=top.arg)
        x = args[0]
        kind_ = _boat_type(s, top.arg, x) if verb == "ship" else x
        if (top.seat, kind_) in (s.shipped if verb == "work" else s.gained):
            return _err("4.11-8", "gain_and_ship", move, kind=piece(x))
        return _err("4.11-8", "boat_types", move, kind=piece(x))
    if verb == "build":
        tile, plot = args[0], args[1]
        if tile not in p.unbuilt:
            return _err("4.11-9", "not_owned", move, tile=tile)
        if plot not in build_spots(s, top.seat, tile):
            return _err("4.11-9", "plot", move, tile=tile, target=plot)
        return _err("4.11-9", "cost", move, tile=tile)
    if verb == "upgrade":
        area, _, index = parse_target(args[0])
        if area not in ("farm", "village") or not 0 <= index < len(p.plots(area)) or not p.plots(area)[index].tiles:
            return _err("4.11-10", "no_building", move, target=args[0])
        if p.plots(area)[index].upgraded:
            return _err("4.11-10", "upgraded", move, target=args[0])
        return _err("4.11-10", "upgrade_cost", move, target=args[0])
    if verb in ("take", "process") and _limited(s) and args[0] in SUPPLY and _in_supply(s, args[0]) <= 0:
        return _err("4.11-7", "supply", move, kind=piece(args[0]))
    return _err("4.11-7", "not_this_field", move, target=top.arg)


LISTED: dict[str, Callable[[State, Task], list[KPMove]]] = {
    "follow": follow_moves, "pick": pick_moves, "fairs": fairs_moves, "house": house_moves}
"""The tasks whose moves are one list, and what lists them (``generate``)."""
