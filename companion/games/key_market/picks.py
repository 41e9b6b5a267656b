"""Key Market's decisions as picks (companion/core/picks.py, issue 27): the piece or the action first, then where,
then how to pay, every place in the table's words (``places``).

* a worker first (on a field, in the supply, the keyworker, a guild member), then where it goes: a field (``move``,
  ``hire``), a guild tile (``apprentice``, then the column, guild 3's swap, the payment), or what it does
  (``promote``, ``retire``, ``leave``), then the payment;
* a new territory board: beside which board it goes, how it is turned, the field of its first worker;
* an action (``produce`` with its guild choices, ``swap``, ``manor``, ``sell``, ``mixed``, ``buy``, ``gold``,
  ``pass``, ``done``), then the good and how many;
* the secret choices: the farmhouse payment (two goods, in any order), the goods brought to market (how many of
  each good held), the workers released at the upkeep (in any order).

Payments in goods are unordered tails: picked in any order, a good as often as it is paid.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.messages import Message, msg
from companion.core.picks import Step, step
from companion.games.key_market import rules
from companion.games.key_market.data import GOODS
from companion.games.key_market.moves import KMMove, pos, produce_order
from companion.games.key_market.places import (
    board_code,
    board_words,
    field_at,
    field_id,
    field_name,
    guild_id,
    spot,
    worker_id,
    worker_words,
)
from companion.games.key_market.state import State
from companion.games.key_market.territory import Placement, footprint, lay

ACTIONS = frozenset({"produce", "swap", "manor", "sell", "mixed", "buy", "gold", "pass", "done"})
"""Moves picked by their action first."""
COSTS = frozenset({"pay", "commit", "promote", "manor", "retire", "apprentice", "buy", "release", "swap"})
"""Moves shown in words before they are sent: they pay goods or gold (``move`` and ``hire`` when they cost gold)."""
SIDES = (("left", (1, 0)), ("right", (-1, 0)), ("above", (0, 1)), ("below", (0, -1)))
"""Where a new board lies beside a laid one, by the step from a new field to the laid board's field it touches."""


def ask(key: str, **params: object) -> Message:
    return msg(f"km.ask.{key}", **params)  # type: ignore[arg-type]


def action(verb: str) -> Step:
    return step(ask("action"), verb, msg(f"km.action.{verb}"))


def good_step(key: str, good: str, unordered: bool = False, **params: object) -> Step:
    return step(ask(key, **params), good, msg(f"km.good.{good}"), unordered)


def payment(tokens: Sequence[str], key: str = "pay") -> list[Step]:
    """A payment in goods, picked in any order (guild 14 M's 9 gold as one option)."""
    if tuple(tokens) == ("gold",):
        return [step(ask(key), "gold", msg("km.pick.nine_gold"), True)]
    return [good_step(key, g, True) for g in tokens if g in GOODS]


def actor_of(s: State, move: KMMove) -> int:
    if move.verb in ("pay", "commit"):
        return int(move.args[0]) - 1
    return rules.actor(s)


def source_step(s: State, seat: int, source: str) -> Step:
    """The worker a move takes (``pool``, ``key``, ``gN``, ``x,y``), as the first pick."""
    index = rules.source_worker(s, seat, source)
    assert index is not None, source
    return step(ask("worker"), worker_id(seat, index), worker_words(s, seat, index))


def field_step(s: State, token: str, key: str = "field") -> Step:
    fid, words = field_at(s, pos(token))
    return step(ask(key), fid, words)


def guild_steps(s: State, token: str) -> list[Step]:
    """A guild tile, and its column for guilds 1 and 8."""
    number, _, column = token.partition("@")
    out = [step(ask("guild"), guild_id(int(number)), msg(f"km.guild.{number}"))]
    if column:
        out.append(step(ask("column"), column, msg("km.pick.column", good=msg(f"km.good.{column}"))))
    return out


_LEGAL: list[tuple[State, list[KMMove]]] = []


def legal(s: State) -> list[KMMove]:
    """``rules.legal_moves`` of the state last asked about (every move of a decision asks the same state)."""
    if not _LEGAL or _LEGAL[0][0] is not s:
        _LEGAL[:] = [(s, rules.legal_moves(s))]
    return _LEGAL[0][1]


def count_step(s: State, move: KMMove, n: int, key: str, good: str) -> list[Step]:
    """How many, when the move's good could be taken in other amounts now (else no pick)."""
    others = [m for m in legal(s) if m.verb == move.verb and m.args[:1] == move.args[:1]
              and len(m.args) == 2 and m.args[1].isdigit()]
    if len(others) < 2:
        return []
    return [step(ask(key, good=msg(f"km.good.{good}")), str(n), msg("km.count.good", n=n, good=msg(f"km.good.{good}")))]


def board_steps(s: State, move: KMMove) -> list[Step]:
    """Laying the dealt board: beside which board, how it is turned, the field of the first worker."""
    assert s.dealt is not None
    board, side = s.dealt
    x, y, turns = (int(t) for t in move.args[:3])
    new = Placement(board, side, x, y, turns)
    fresh = lay(s.edition, new)
    out = []
    if s.placements:
        out.append(beside_step(s, footprint(s.edition, new)))
    corner = fresh[min(fresh, key=lambda p: (p[1], p[0]))]
    if s.placements:
        out.append(step(ask("turn"), f"turn{turns}", msg(f"km.pick.turn_{turns}", good=msg(f"km.good.{corner.good}"))))
    target = pos(move.args[3])
    f = fresh[target]
    xs, ys = [p[0] for p in fresh], [p[1] for p in fresh]
    where = spot(target[0] - min(xs), target[1] - min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    out.append(step(ask("first_worker"), field_id(board, side, f.cell), field_name(f.good, where, msg("km.board.new"))))
    return out


def beside_step(s: State, fresh: frozenset[tuple[int, int]]) -> Step:
    """Where a new board goes: the first board laid whose whole edge it lines up with, and on which side."""
    for i, p in enumerate(s.placements):
        laid = footprint(s.edition, p)
        for name, (dx, dy) in SIDES:
            touching = [q for q in fresh if (q[0] + dx, q[1] + dy) in laid]
            if len(touching) == 3:
                return step(ask("beside"), f"{name}:{board_code(p.board, p.side)}",
                            msg(f"km.pick.beside_{name}", board=board_words(s, i)))
    raise ValueError("a board beside none")


def produce_steps(s: State, seat: int, move: KMMove) -> list[Step]:
    """``produce``, then each guild choice the player has: the fields of guilds 2 and 9 (the first eligible ones when
    the move names none), the goods of guilds 8 and 13."""
    out = [action("produce")]
    tokens = {t.partition(":")[0]: t.partition(":")[2] for t in move.args}
    choices = rules.field_choices(s, seat)
    harvest = rules.harvest_of(s, seat) if choices else None
    keys = sorted({*tokens, *choices}, key=lambda k: produce_order(k + ":"))
    for key in keys:
        guild = msg(f"km.guild.{key.rstrip('amj')}")
        if key in ("8j", "13m"):
            out.append(good_step("produce_good", tokens[key], guild=guild))
            continue
        assert harvest is not None
        labels = tokens.get(key)
        if labels is None:
            eligible, limit = next((e, n) for k, e, n in harvest.choices if k.lower() == key)
            labels = "+".join(harvest.fields[i].label for i in eligible[:limit])
        picked = [field_at(s, pos(label)) for label in labels.split("+")]
        out.append(step(ask("produce_fields", guild=guild), "+".join(fid for fid, _ in picked),
                        msg("km.pick.fields", fields=[words for _, words in picked])))
    return out


def pick_path(s: State, move: KMMove) -> list[Step]:
    """The picks that make ``move`` (see the module's docstring)."""
    v, a = move.verb, move.args
    seat = actor_of(s, move)
    if v == "board":
        return board_steps(s, move)
    if v == "pay":
        return payment(a[1:], "farmhouse")
    if v == "commit":
        held = s.seat(seat).goods
        return [step(ask("commit", good=msg(f"km.good.{g}")), str(a.count(g)),
                     msg("km.count.good", n=a.count(g), good=msg(f"km.good.{g}")) if a.count(g) else msg("km.pick.none"))
                for g, n in zip(GOODS, held) if n]
    if v == "release":
        if not a:
            return [step(ask("release"), "keep", msg("km.action.keep"))]
        me = s.seat(seat)
        return [step(ask("release"), worker_id(seat, me.workers.index(f"f:{t}")),
                     worker_words(s, seat, me.workers.index(f"f:{t}")), True) for t in a]
    if v == "move":
        return [source_step(s, seat, a[0]), field_step(s, a[1], "to")]
    if v == "hire":
        return [source_step(s, seat, a[1] if len(a) > 1 else "pool"), field_step(s, a[0], "to")]
    if v == "apprentice":
        rest = [t for t in a[2:] if t.startswith("swap:")]
        swap = [step(ask("swap"), rest[0][5:], msg("km.pick.swap", good=msg(f"km.good.{rest[0][5:]}")))] if rest else \
            [step(ask("swap"), "noswap", msg("km.pick.no_swap"))] if a[0] == "3" and _swaps(s, move) else []
        return [source_step(s, seat, a[1]), *guild_steps(s, a[0]), *swap, *payment(a[2:])]
    if v == "promote":
        member = s.seat(seat).guilds()[int(a[0].split("@")[0])]
        column = a[0].partition("@")[2]
        steps = [step(ask("worker"), worker_id(seat, member[0]), worker_words(s, seat, member[0])),
                 step(ask("what"), "promote", msg("km.action.promote"))]
        if column:
            steps.append(step(ask("column"), column, msg("km.pick.column", good=msg(f"km.good.{column}"))))
        return [*steps, *payment(a[1:])]
    if v == "retire":
        return [source_step(s, seat, a[0]), step(ask("what"), "retire", msg("km.action.retire")), *payment(a[1:])]
    if v == "leave":
        return [source_step(s, seat, a[0]), step(ask("what"), "leave", msg("km.action.leave"))]
    if v == "produce":
        return produce_steps(s, seat, move)
    if v == "swap":
        return [action("swap"), good_step("swap_good", a[0]), *count_step(s, move, int(a[1]) if len(a) > 1 else 1,
                                                                            "swap_n", a[0])]
    if v == "manor":
        return [action("manor"), *payment(a)]
    if v == "sell":
        return [action("sell"), good_step("sell_good", a[0]), *count_step(s, move, int(a[1]), "sell_n", a[0])]
    if v == "mixed":
        return [action("mixed"), good_step("mixed_placed", a[0]), *(good_step("mixed_more", g, True) for g in a[1:])]
    if v == "buy":
        if a[-1].isdigit():
            return [action("buy"), good_step("buy_good", a[0]), *count_step(s, move, int(a[1]), "buy_n", a[0])]
        return [action("buy_mixed"), *(good_step("buy_mixed", g, True) for g in a)]
    return [action(v)]


def _swaps(s: State, move: KMMove) -> bool:
    """Whether the same apprenticeship in guild 3 is offered with a swap too (so "no swap" is a pick)."""
    prefix = (*move.args, "swap:")
    return any(m.verb == "apprentice" and len(m.args) == len(move.args) + 1 and m.args[:-1] == move.args
               and m.args[-1].startswith(prefix[-1]) for m in legal(s))


def confirms(s: State, move: KMMove) -> bool:
    """A payment, a purchase, gold for a move or a hire: shown in words before it is sent."""
    if move.verb in COSTS:
        return True
    seat = rules.actor(s)
    if move.verb == "hire" and seat >= 0:
        return rules._hire_cost(s, seat) > 0
    if move.verb == "move" and seat >= 0:
        return move_gold(s, seat, move) > 0
    return False


def move_gold(s: State, seat: int, move: KMMove) -> int:
    """The gold ``move x,y x,y`` costs now (spec 4.3 F1)."""
    ground = rules.land(s)
    start, end = pos(move.args[0]), pos(move.args[1])
    return next((cost for q, cost in rules._move_row(ground, start, rules._move_terms(s, seat)) if q == end), 0)
