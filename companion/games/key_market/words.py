"""Key Market's words: each move and chance step in words, and the message identifiers built at run time."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from companion.core.errors import IllegalMoveError, MalformedInputError

from companion.core.messages import Message, msg
from companion.games.key_market import market as mk
from companion.games.key_market import rules
from companion.games.key_market.data import GOODS, GUILDS, LEVELS, SECTIONS, SEASONS, SHAPES
from companion.games.key_market.moves import KMMove, pos
from companion.games.key_market.places import field_words
from companion.games.key_market.state import State
from companion.games.key_market.territory import Placement, lay

CHANCE_IDS = ("weather", "order", "farmhouses", "deal", "guild", "revealed", "committed", "reveal")
MOVE_IDS = ("board", "pay", "move", "hire", "hire_from", "produce", "swap", "promote", "manor", "retire",
            "retire_gold", "done", "commit", "sell", "mixed", "apprentice", "buy", "gold", "pass", "release",
            "release_none")


def good(key: str) -> Message:
    """A good's name (translated)."""
    return msg(f"km.good.{key}")


def guild(number: int) -> Message:
    """A guild's number and name."""
    return msg(f"km.guild.{number}")


def goods(tokens: Iterable[str]) -> list[Message]:
    """Goods as counted words: "2 fruit, 1 sheep"."""
    listed = list(tokens)
    return [msg("km.count.good", n=listed.count(g), good=good(g)) for g in GOODS if g in listed] or \
        [msg("km.count.nothing")]


def where(state: State, token: str) -> Message:
    """Where a worker comes from: the pool, the keyworker, a guild, a field (in words, never its grid position)."""
    if token == "pool":
        return msg("km.where.pool")
    if token == "key":
        return msg("km.where.key")
    if token.startswith("g") and token[1:].isdigit():
        return msg("km.where.guild", guild=guild(int(token[1:])))
    return field(state, token)


def field(state: State, token: str) -> Message:
    """The field at ``x,y`` as the table names it ("the wheat field at the top left of Ann's board"; German in the
    dative: every move's words name it after a preposition)."""
    try:
        return field_words(state, pos(token), "km.pick.field_dat")
    except (KeyError, MalformedInputError):
        return msg("km.where.off_table")


def board_text(state: State, move: KMMove) -> tuple[Message, Message, Message]:
    """Where ``board X Y TURNS x,y`` lays the dealt board, how it is turned and the first worker's field, in words."""
    from companion.games.key_market.picks import board_steps

    steps = board_steps(state, move)
    where = steps[0].choice.words if len(steps) == 3 else msg("km.board.middle")
    turn = steps[1].choice.words if len(steps) == 3 else msg("km.pick.turn_0", good=good(_corner(state, move)))
    return where, turn, steps[-1].choice.words  # type: ignore[return-value]


def _corner(state: State, move: KMMove) -> str:
    assert state.dealt is not None
    fresh = lay(state.edition, Placement(state.dealt[0], state.dealt[1], *(int(t) for t in move.args[:3])))
    return fresh[min(fresh, key=lambda p: (p[1], p[0]))].good


def move_text(state: State, move: KMMove) -> Message:
    """What ``move`` does, in words (the amounts of gold computed where they are known)."""

    v, a = move.verb, move.args
    if v in CHANCE_IDS:
        return chance_text(state, move)
    if v == "board":
        try:
            place, turn, first = board_text(state, move)
        except (AssertionError, KeyError, ValueError, MalformedInputError):
            return msg("km.move.board_nowhere")
        return msg("km.move.board", where=place, turn=turn, field=first)
    if v in ("pay", "commit"):
        return msg(f"km.move.{v}", goods=goods(a[1:]))
    if v == "move":
        return msg("km.move.move", start=field(state, a[0]), end=field(state, a[1]))
    if v == "hire":
        return msg("km.move.hire_from", field=field(state, a[0]), source=where(state, a[1])) if len(a) > 1 else \
            msg("km.move.hire", field=field(state, a[0]))
    if v == "produce":
        return msg("km.move.produce")
    if v == "swap":
        return msg("km.move.swap", n=int(a[1]) if len(a) > 1 else 1, good=good(a[0]))
    if v == "promote":
        return msg("km.move.promote", guild=guild(int(a[0].split("@")[0])), goods=goods(a[1:]))
    if v == "manor":
        return msg("km.move.manor", goods=goods(a))
    if v == "retire":
        if "gold" in a:
            return msg("km.move.retire_gold", source=where(state, a[0]))
        return msg("km.move.retire", source=where(state, a[0]), goods=goods(a[1:]))
    seat = rules.actor(state)
    trading = seat >= 0 and state.stage in ("market", "early")
    if v == "sell":
        n = int(a[1])
        price = mk.sell_price(state.edition, state.market[GOODS.index(a[0])], int(state.options["covered_sell_price"]))
        gold = _known(lambda: rules.selling(state, seat, move)[0].gold) if trading else None
        return msg("km.move.sell", n=n, good=good(a[0]), gold=n * price if gold is None else gold)
    if v == "mixed":
        gold = _known(lambda: rules.selling(state, seat, move)[0].gold) if trading else None
        if gold is not None:
            return msg("km.move.mixed_gold", goods=goods(a), good=good(a[0]), gold=gold)
        return msg("km.move.mixed", goods=goods(a), good=good(a[0]))
    if v == "apprentice":
        return msg("km.move.apprentice", guild=guild(int(a[0].split("@")[0])), source=where(state, a[1]),
                   goods=goods(t for t in a[2:] if t in GOODS))
    if v == "buy":
        gold = _known(lambda: rules.buying(state, seat, a)[0].gold) if trading else None
        bought = goods(a if not a[-1].isdigit() else [a[0]] * int(a[1]))
        return msg("km.move.buy", goods=bought) if gold is None else msg("km.move.buy_gold", goods=bought, gold=gold)
    if v == "gold":
        return msg("km.move.gold")
    if v == "pass":
        return msg("km.move.pass")
    if v == "done":
        return msg("km.move.done")
    if v == "leave":
        return msg("km.move.leave", source=where(state, a[0]))
    if not a:
        return msg("km.move.release_none")
    return msg("km.move.release", fields=[field(state, t) for t in a])


def _known(gold: Callable[[], int]) -> int | None:
    """The gold of a trade, or ``None`` when the rules refuse it (its words then say no amount)."""
    try:
        return gold()
    except (IllegalMoveError, KeyError, ValueError):
        return None


def chance_text(state: State, move: KMMove) -> Message:
    """A chance step in words, naming the physical pieces."""
    v, a = move.verb, move.args
    names = state.names
    if v == "weather":
        return msg("km.log.weather", markers=[f"{sq}/{rd}" for sq, rd in zip(a[:3], a[3:])])
    if v == "order":
        return msg("km.log.order", names=[names[int(t) - 1] for t in a])
    if v == "farmhouses":
        return msg("km.log.farmhouses", tiles=[f"{names[i]} {t}" for i, t in enumerate(a)])
    if v == "deal":
        who = state.order[state.turn] if state.order else 0
        return msg("km.log.deal", name=names[who], dealer=names[rules.dealer(state)] if state.order else names[0],
                   board=a[0][:-1], side=a[0][-1])
    if v == "guild":
        return msg("km.log.guild", guild=guild(int(a[0])))
    if v in ("revealed", "committed"):
        shown = [msg("km.log.shown", name=names[i], goods=goods(t.split("+") if t != "-" else []))
                 for i, t in enumerate(a)]
        return msg(f"km.log.{v}", shown=shown)
    e = state.edition
    return msg("km.log.reveal", season=msg(f"km.season.{state.season}"), square=a[0], round=a[1],
               square_good=good(e.markers[a[0]].good), round_good=good(e.markers[a[1]].good))


def message_ids() -> set[str]:
    """Every identifier built from a key (``f"km.good.{key}"``...), for the catalog test."""
    return {*(f"km.good.{g}" for g in GOODS), *(f"km.guild.{n}" for n in range(1, GUILDS + 1)),
            *(f"km.level.{lv}" for lv in LEVELS), *(f"km.section.{s}" for s in SECTIONS),
            *(f"km.reason.base.{s}" for s in SHAPES), *(f"km.season.{s}" for s in SEASONS),
            *(f"km.season_end.pick_{how}" for how in ("favour", "swap")),
            *(f"km.move.{m}" for m in ("pay", "commit")), *(f"km.log.{v}" for v in ("revealed", "committed")),
            *(f"km.refuse.now_{v}" for v in ("pay", "commit")),
            *(f"km.ask.{k}" for k in ASKS), *(f"km.action.{k}" for k in ACTIONS),
            *(f"km.spot.{r}_{c}" for r in ("top", "middle", "bottom") for c in ("left", "middle", "right")),
            *(f"km.board.nth_{n}" for n in range(1, 5)), *(f"km.pick.turn_{n}" for n in range(4)),
            *(f"km.pick.beside_{k}" for k in ("left", "right", "above", "below")),
            *(f"km.pick.{k}{v}" for k in ("field", "field_dat", "worker_on", "key_on") for v in ("", "_village"))}


ASKS = ("action", "worker", "to", "guild", "column", "swap", "pay", "farmhouse", "commit", "release", "what", "turn",
        "beside", "first_worker", "produce_good", "produce_fields", "swap_good", "swap_n", "sell_good", "sell_n",
        "mixed_placed", "mixed_more", "buy_good", "buy_n", "buy_mixed")
"""The questions of the picks (``km.ask.*``, picks.py)."""
ACTIONS = ("produce", "swap", "manor", "sell", "mixed", "buy", "buy_mixed", "gold", "pass", "done", "keep", "promote",
           "retire", "leave")
"""The actions picked first (``km.action.*``, picks.py)."""


