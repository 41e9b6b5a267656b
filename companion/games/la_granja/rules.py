"""La Granja's rules: the round sequencer, every move's check and effect, the chance steps.

The game waits on a stack of ``Task`` values (top = now). A player's move completes or
shortens the top task and may push new ones (a die's choices, a Wagner delivery, a stall to
place); when the stack is empty the next step of the round runs (``STAGES``). Rule IDs in
errors are the sections and IDs of ../shared/rules/la-granja.md (``4.2:carts``, ``A-08``...).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod

from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from companion.core.messages import Param, Text, msg
from companion.core.options import Options
from companion.core.rng import weighted_choice
from companion.games.la_granja.data import (
    BUILDINGS,
    CROPS,
    FARM_GOODS,
    GOODS,
    RESOURCES,
    UPGRADE_TO,
    Edition,
)
from companion.games.la_granja.moves import LGMove, token_key
from companion.games.la_granja.state import FREE, NEUTRAL, Entry, Player, Site, State, Task
from companion.games.la_granja.words import building, good, goods, token, waiting
from companion.games.la_granja.words import target as target_words

CHANCE_KINDS = frozenset({"deal", "start", "order", "lock", "reveal", "roll", "neutral", "donkeys"})
AUTO_KINDS = frozenset({"begin", "box", "remove", "face_auto"})
ANYTIME_KINDS = frozenset({"play", "discard", "roof", "pick", "face", "take", "upgrade", "deliver", "card", "extra"})
STAGES = ("play", "refill", "income", "growth", "roof", "roll", "draft", "neutral_before", "donkey", "siesta",
          "deliver", "extra", "neutral_after", "scoring")
PHASE_OF = {"play": "farm", "refill": "farm", "income": "farm", "growth": "farm", "roof": "farm", "roll": "yield",
            "draft": "yield", "donkey": "transport", "siesta": "transport", "neutral_before": "transport",
            "deliver": "transport", "extra": "transport", "neutral_after": "transport", "scoring": "scoring"}
FACE_OPTIONS = {"2": ("card", "crop"), "5": ("upgrade", "mixed", "siesta"), "6": ("deliver", "silver")}
TRADE_USES = ("silver", "crops", "card", "pig", "upgrade")
SIDES = ("field", "cart", "ext", "helper")
ADJUSTABLE = ("vp", "silver", "trade", *GOODS)


def dice_count(players: int) -> int:
    """2N + 1 dice, 5 in the solo game (spec 2.2)."""
    return 5 if players == 1 else 2 * players + 1


# ------------------------------------------------------------------ setup


def new_state(edition: Edition, names: tuple[str, ...], options: Options) -> State:
    """Spec 2.1 before its chance steps: start player, locks, round-1 roof markers, the deal."""
    n = len(names)
    tasks = [Task("order") if n == 1 else Task("start"), Task("lock", n=1), Task("lock", n=2), Task("lock", n=3)]
    state = State(edition=edition, options=options, players=tuple(Player(str(name)) for name in names),
                  pile=frozenset(edition.cards))
    tasks += _reveal_tasks(state, 1)
    tasks += [Task("deal", seat) for seat in range(n) for _ in range(4)]
    tasks.append(Task("begin"))
    state.stack = tuple(reversed(tasks))
    if n == 4:
        state.display = _round_roofs(edition, 1)
    return state


def _round_roofs(edition: Edition, rnd: int) -> tuple[str, ...]:
    return tuple(r.id for r in edition.roofs.values() if r.round == rnd)


def _reveal_tasks(state: State, rnd: int) -> list[Task]:
    """The random N of round ``rnd``'s four roof markers (2 in solo); all four for 4 players."""
    n = len(state.players)
    if n == 4:
        return []
    state.unrevealed = _round_roofs(state.edition, rnd)
    return [Task("reveal", n=rnd) for _ in range(2 if n == 1 else n)] + [Task("box")]


def _begin(s: State, drawn: int) -> None:
    """Spec 2.1 steps 2, 5, 9, 10 once the start player is known."""
    e = s.edition
    n = len(s.players)
    for p in s.players:
        p.silver, p.trade = 1, 1
        _vp(s, p, "V1", 1, msg("lg.note.start"))
    s.sites = {key: Site(lock=s.locks.index(key) + 1 if key in s.locks else 0, craft_left=n) for key in BUILDINGS}
    market = [FREE] * len(e.spaces)
    if n == 1:
        mine, other = (0, 1) if drawn == 2 else (1, 0)
        market[e.start_spaces[mine]] = 0
        market[e.start_spaces[other]] = NEUTRAL
    else:
        for i, seat in enumerate(s.order):
            market[e.start_spaces[i]] = seat
    s.market = tuple(market)
    s.siesta = (tuple(reversed(s.order)),) + ((),) * e.siesta_top
    s.phase = "farm"


# ------------------------------------------------------------------ who moves, chance


def donkey_deciders(s: State) -> tuple[int, ...]:
    """The seats still to choose their donkey marker at the simultaneous step (spec 3.4 step 1)."""
    top = s.top
    if s.over or top is None or top.kind != "donkey":
        return ()
    return tuple(seat for seat, p in enumerate(s.players) if not p.donkey)


def actor(s: State) -> int:
    if s.over:
        return TERMINAL
    top = s.top
    assert top is not None
    return CHANCE if top.kind in CHANCE_KINDS else top.player


@cache
def roll_outcomes(k: int) -> tuple[tuple[LGMove, int], ...]:
    """Every sorted roll of ``k`` dice with its number of orderings."""
    out = []
    for combo in combinations_with_replacement(range(1, 7), k):
        weight = factorial(k) // prod(factorial(c) for c in Counter(combo).values())
        out.append((LGMove("roll", tuple(str(v) for v in combo)), weight))
    return tuple(out)


@cache
def _roll_cumulative(k: int) -> tuple[list[int], int]:
    running, out = 0, []
    for _, weight in roll_outcomes(k):
        running += weight
        out.append(running)
    return out, running


def sample_chance(s: State, rng: random.Random) -> LGMove:
    """``weighted_choice`` over ``chance_outcomes``, with a bisection for the 2002 rolls of 9 dice."""
    top = s.top
    if top is not None and top.kind == "roll":
        k = dice_count(len(s.players))
        cumulative, total = _roll_cumulative(k)
        return roll_outcomes(k)[bisect_right(cumulative, rng.randrange(total))][0]
    return weighted_choice(rng, chance_outcomes(s))


def chance_outcomes(s: State) -> list[tuple[LGMove, int]]:
    top = s.top
    if s.over or top is None or top.kind not in CHANCE_KINDS:
        return []
    kind = top.kind
    if kind in ("deal", "neutral"):
        return [(LGMove("card", (str(c),)), 1) for c in sorted(s.pile)]
    if kind == "start":
        return [(LGMove("start", (str(seat + 1),)), 1) for seat in range(len(s.players))]
    if kind == "order":
        return [(LGMove("order", ("2",)), 1), (LGMove("order", ("3",)), 1)]
    if kind == "lock":
        return [(LGMove("lock", (key,)), 1) for key in BUILDINGS if key not in s.locks]
    if kind == "reveal":
        return [(LGMove("reveal", (rid,)), 1) for rid in s.unrevealed]
    if kind == "donkeys":  # the reveal: one outcome, the markers chosen
        return [(LGMove("donkeys", tuple(str(p.donkey) for p in s.players)), 1)]
    return list(roll_outcomes(dice_count(len(s.players))))


# ------------------------------------------------------------------ small helpers


def _vp(s: State, p: Player, source: str, amount: int, note: Text) -> None:
    if amount:
        p.vp += amount
        p.ledger = p.ledger + (Entry(s.round, source, amount, note),)


def _put(p: Player, good: str, delta: int) -> None:
    p.goods = {**p.goods, good: p.goods[good] + delta}


def sty(s: State, p: Player) -> int:
    return s.edition.sty + sum(s.edition.cards[c].sty for c in p.extensions)


def hand_limit(s: State, p: Player) -> int:
    cards = s.edition.cards
    return s.edition.hand_limit + len(p.extensions) + sum(cards[c].helper_hand_limit for c in p.helpers)


def extra_capacity(s: State, p: Player) -> int:
    return s.edition.extra_deliveries + sum(s.edition.cards[c].grey_rows for c in p.extensions)


def markers_in_use(s: State, seat: int) -> int:
    """Player markers out of the 25 (spec 1.1, A-19): goods, grown fields, trade goods, stalls, row, cart,
    completion and helper markers."""
    p = s.players[seat]
    rows = sum(sum(filled) for key, _, filled in p.rows if key not in p.completed)
    return (sum(p.goods.values()) + sum(has for _, has in p.fields) + p.trade + s.market.count(seat) + rows
            + len(p.completed) + sum(sum(filled) for _, filled in p.carts) + len(p.helpers_used))


def roof_capacity(s: State, p: Player) -> int:
    return 5 + sum(s.edition.cards[c].roof_slots for c in p.helpers)


def _pig(s: State, p: Player, forced_sale: bool) -> None:
    """One pig into the sty, or sold at once if the sty is full (face 1, RM5, A-05)."""
    if p.goods["pig"] < sty(s, p):
        _put(p, "pig", 1)
    elif forced_sale:
        p.silver += s.edition.sell["pig"]


def _has(s: State, p: Player, token: str) -> bool:
    """Whether ``p`` can give one ``token`` (``olive:field``: from a field)."""
    kind, _, where = token.partition(":")
    if where:
        return kind in CROPS and any(has and s.edition.cards[c].field == kind for c, has in p.fields)
    if kind == "silver":
        return p.silver > 0
    if kind == "vp":
        return p.vp > 0
    if kind == "trade":
        return p.trade > 0
    return p.goods.get(kind, 0) > 0


def _give(s: State, p: Player, token: str, why: Text) -> None:
    kind, _, where = token.partition(":")
    if where:
        cards = s.edition.cards
        for i, (c, has) in enumerate(p.fields):
            if has and cards[c].field == kind:
                p.fields = p.fields[:i] + ((c, False),) + p.fields[i + 1:]
                return
    elif kind == "silver":
        p.silver -= 1
    elif kind == "vp":
        _vp(s, p, "spent", -1, why)
    elif kind == "trade":
        p.trade -= 1
    else:
        _put(p, kind, -1)


def _push(s: State, *tasks: Task) -> None:
    """Put tasks on the stack so that the first given runs first."""
    s.stack = s.stack + tuple(reversed(tasks))


def _pop(s: State) -> Task:
    top = s.stack[-1]
    s.stack = s.stack[:-1]
    return top


def _count_down(s: State) -> None:
    """One use of the top task (a card, a delivery, an upgrade): drop it when none are left."""
    top = _pop(s)
    if top.n > 1:
        s.stack = s.stack + (Task(top.kind, top.player, top.n - 1, top.arg),)


def _err(rule: str, reason: str, move: LGMove, **params: Param) -> IllegalMoveError:
    """A refusal under ``rule``: the message ``reason`` (``lg.refuse....``) with ``params``."""
    return IllegalMoveError(rule, msg(reason, **params), str(move))


# ------------------------------------------------------------------ the round sequencer


def settle(s: State) -> None:
    """Run automatic steps until a player or a chance step must act, or the game is over."""
    while not s.over:
        top = s.top
        if top is None:
            _stage(s)
            continue
        if top.kind in ("deal", "neutral") and not s.pile:
            s.pile, s.discards = frozenset(s.discards), ()  # spec 2.1.3: the discards become the pile
            if not s.pile:
                _pop(s)
            continue
        if top.kind not in AUTO_KINDS:
            _marker_limit(s)
            return
        _pop(s)
        if top.kind == "begin":
            _begin(s, top.n)
        elif top.kind == "box":
            s.roof_box, s.unrevealed = s.roof_box + s.unrevealed, ()
        elif top.kind == "remove":  # spec 6.2: the solo game's lowest (rounds 1-3) or highest die goes
            drop = min(s.dice) if s.round <= 3 else max(s.dice)
            i = s.dice.index(drop)
            s.dice = s.dice[:i] + s.dice[i + 1:]
        elif top.kind == "face_auto":  # the last die, for each player in turn order
            _face(s, top.player, s.dice[0])


MARKERS = 25
"""Player markers per colour (spec 1.1); A-19: with all in use, one must be removed before reuse."""


def releasable(s: State, seat: int) -> list[str]:
    """What ``seat`` may take off the farm or board to free a marker: goods, field crops, trade goods, stalls."""
    p = s.players[seat]
    out = [k for k in GOODS if p.goods[k]]
    out += sorted({f"{s.edition.cards[c].field}:field" for c, has in p.fields if has})
    out += ["trade"] if p.trade else []
    return out + [sp.id for sp, o in zip(s.edition.spaces, s.market) if o == seat]


def _marker_limit(s: State) -> None:
    """A-19 (flag ``marker_limit``): a player over 25 markers in use first frees the excess."""
    if s.options["marker_limit"] != "enforce" or s.stack[-1].kind == "release":
        return
    for seat in range(len(s.players)):
        excess = markers_in_use(s, seat) - MARKERS
        if excess > 0 and releasable(s, seat):
            _push(s, Task("release", seat, excess))
            return


def _stage(s: State) -> None:
    name = STAGES[s.stage]
    s.phase = PHASE_OF[name]
    s.stage += 1
    e = s.edition
    order = s.order
    if name == "play":
        _push(s, *(Task("play", p, 2 if s.round == 1 else 1) for p in order))
    elif name == "refill":
        tasks = []
        for seat in order:
            p = s.players[seat]
            gap = hand_limit(s, p) - len(p.hand)
            tasks += [Task("deal", seat)] * gap if gap > 0 else [Task("discard", seat, -gap)] if gap < 0 else []
        _push(s, *tasks)
    elif name == "income":
        tasks = []
        for seat in order:
            p = s.players[seat]
            if p.active("handelshaus"):
                p.silver += 3
            if p.active("feinkost"):
                p.trade += 1
            if p.active("gemuese"):
                tasks.append(Task("take", seat, 1, ",".join(RESOURCES)))
            for card in p.extensions:
                for kind, amount in e.cards[card].income:
                    for _ in range(amount):
                        _gain(s, p, kind)
        _push(s, *tasks)
    elif name == "growth":
        for p in s.players:
            p.fields = tuple((c, True) for c, _ in p.fields)
            if p.goods["pig"] >= 2 and p.goods["pig"] < sty(s, p):  # one piglet, if it fits
                _put(p, "pig", 1)
    elif name == "roof":
        if s.display:
            buyers = tuple(reversed(order)) if s.round == 1 else order
            _push(s, *(Task("roof", p) for p in buyers))
    elif name == "roll":
        s.dice = s.rolled = ()
        for p in s.players:
            p.dice, p.faces = (), 0
        _push(s, Task("roll"))
    elif name == "draft":
        if s.solo:
            picks = [Task("pick", 0, arg="left"), Task("remove"), Task("pick", 0, arg="right"), Task("remove")]
            _push(s, *(picks if s.solo_start else [picks[1], picks[0], picks[3], picks[2]]),
                  Task("face_auto", 0))
        else:
            _push(s, *(Task("pick", p, arg=slot) for slot in ("left", "right") for p in order),
                  *(Task("face_auto", p) for p in order))
    elif name == "donkey":  # spec 3.4 step 1: everyone at once, in secret; revealed together (``donkeys``)
        _push(s, Task("donkey", SIMULTANEOUS))
    elif name == "siesta":
        _siesta(s)
    elif name == "neutral_before":
        if s.solo and not s.solo_start:
            _push(s, Task("neutral"))
    elif name == "deliver":
        _push(s, *(Task("deliver", p, s.players[p].donkey + s.players[p].active("wagner"), "donkey") for p in s.order))
    elif name == "extra":
        _push(s, *(Task("extra", p) for p in s.order))
    elif name == "neutral_after":
        if s.solo and s.solo_start:
            _push(s, Task("neutral"))
    else:
        _scoring(s)


def _gain(s: State, p: Player, kind: str) -> None:
    """Income of one unit (spec 3.2 step 2): crops to storage, a pig to the sty (A-05), silver, trade goods."""
    if kind == "silver":
        p.silver += 1
    elif kind == "trade":
        p.trade += 1
    elif kind == "pig":
        _pig(s, p, s.options["pig_overflow"] == "sell")
    else:
        _put(p, kind, 1)


def _move_disc(s: State, seat: int, steps: int) -> None:
    """Up ``steps`` spaces (not past the top), landing on top of any discs there (spec 3.4 step 2)."""
    pos = s.position(seat)
    new = min(pos + steps, s.edition.siesta_top)
    if steps <= 0 or new == pos:
        return
    stacks = list(s.siesta)
    stacks[pos] = tuple(x for x in stacks[pos] if x != seat)
    stacks[new] = stacks[new] + (seat,)
    s.siesta = tuple(stacks)


def _siesta(s: State) -> None:
    """Reveal the donkeys, move the discs in the old order, set the new turn order (spec 3.4 step 2)."""
    for seat in s.order:
        p = s.players[seat]
        p.donkeys_used = p.donkeys_used + (p.donkey,)
        _move_disc(s, seat, s.edition.hats[p.donkey] + p.active("wagner"))
    if not s.solo:
        ranked = [(pos, height, seat) for pos, stack in enumerate(s.siesta) for height, seat in enumerate(stack)]
        s.order = tuple(seat for _, _, seat in sorted(ranked, reverse=True))


def _scoring(s: State) -> None:
    """Spec 3.5: helpers back, S1 market, S2 siesta; rounds 1-5 also S3 reset and S4 next roof markers."""
    for seat, p in enumerate(s.players):
        p.helpers_used = ()
        _vp(s, p, "V13", sum(1 for o in s.market if o == seat), msg("lg.note.stalls"))
        _vp(s, p, "V14", s.edition.siesta_vp[s.position(seat)], msg("lg.note.siesta"))
    if s.round == 6:
        s.over, s.phase, s.stack = True, "over", ()
        return
    if s.solo:
        s.solo_start = s.position(0) >= int(s.options["solo_third_space"])
    s.siesta = (tuple(reversed(s.order)),) + ((),) * s.edition.siesta_top
    for p in s.players:
        p.crafts = tuple((key, True) for key, _ in p.crafts)
        p.bought_roof = False
        p.donkey = 0
        if s.round == 3:
            p.donkeys_used = ()
    s.roof_box, s.display = s.roof_box + s.display, ()  # unbought markers leave play
    s.round += 1
    s.stage = 0
    if len(s.players) == 4:
        s.display = _round_roofs(s.edition, s.round)
    else:
        _push(s, *_reveal_tasks(s, s.round))


# ------------------------------------------------------------------ effects


def _face(s: State, seat: int, value: int) -> None:
    """Resolve one die face for ``seat`` (spec 1.4); faces with a choice become a task."""
    p = s.players[seat]
    p.faces += 1
    if value == 1:
        _pig(s, p, True)
    elif value == 3:
        _push(s, Task("take", seat, 2, ",".join(CROPS)))
    elif value == 4:
        p.silver += 4
    else:
        _push(s, Task("face", seat, arg=str(value)))


def _row(p: Player, key: str) -> tuple[int, tuple[bool, ...]] | None:
    for building, row, filled in p.rows:
        if building == key:
            return row, filled
    return None


def _deliver(s: State, seat: int, target: str, token: str) -> None:
    """One good to one symbol (spec 4.3.12), and whatever completing the row or cart brings."""
    p = s.players[seat]
    kind = token.partition(":")[0]
    _give(s, p, token, msg("lg.note.delivered", target=target_words(target)))
    e = s.edition
    if target.startswith("cart"):
        card = int(target[4:])
        i = next(i for i, (c, _) in enumerate(p.carts) if c == card)
        symbols = e.cards[card].cart_symbols
        filled = list(p.carts[i][1])
        filled[next(j for j, sym in enumerate(symbols) if sym == kind and not filled[j])] = True
        if all(filled):
            p.carts = p.carts[:i] + p.carts[i + 1:]
            s.discards = s.discards + (card,)
            _complete_cart(s, seat, card)
        else:
            p.carts = p.carts[:i] + ((card, tuple(filled)),) + p.carts[i + 1:]
        return
    key, _, row_text = target.partition("/")
    held = _row(p, key)
    row = held[0] if held else int(row_text) - 1
    filled = list(held[1]) if held else [False] * len(e.buildings[key].row)
    filled[next(j for j, sym in enumerate(e.buildings[key].row) if sym == kind and not filled[j])] = True
    p.rows = tuple(r for r in p.rows if r[0] != key) + ((key, row, tuple(filled)),)
    if not held:
        site = s.sites[key]
        rows = list(site.rows)
        rows[row] = seat
        s.sites = {**s.sites, key: Site(site.lock, site.first_vp, site.craft_left, tuple(rows), site.completed_by)}
    if all(filled):
        _complete_building(s, seat, key)


def _complete_cart(s: State, seat: int, card: int) -> None:
    """Spec 4.3.12 cart completion: VP, a trade good, Fleischer, then a market stall."""
    p = s.players[seat]
    value = s.edition.cards[card].cart_vp
    _vp(s, p, "V11", value, msg("lg.note.cart", card=card))
    p.trade += 1
    if p.active("fleischer"):
        _vp(s, p, "V10", 1, msg("lg.note.cart", card=card))
    spaces = stall_spaces(s, seat, value)
    if len(spaces) == 1:
        place_stall(s, seat, spaces[0])
    elif spaces:
        _push(s, Task("stall", seat, value))


def stall_spaces(s: State, seat: int, value: int) -> list[int]:
    """Where a stall for a cart of ``value`` may go (spec 4.3.13, A-15): a free space of that value,
    else one of that value held by another player (or the neutral); none if neither exists."""
    blocked = len(s.players) < 4
    usable = [i for i, sp in enumerate(s.edition.spaces) if sp.value == value and not (blocked and sp.x)]
    free = [i for i in usable if s.market[i] == FREE]
    return free or [i for i in usable if s.market[i] != seat]


def place_stall(s: State, seat: int, space: int) -> None:
    """Place, displacing the space's holder (+1) and lower-valued neighbours of others (+1 each)."""
    p = s.players[seat]
    spaces = s.edition.spaces
    market = list(s.market)
    if market[space] not in (FREE, seat):
        _vp(s, p, "V12", 1, msg("lg.note.stall_removed", space=spaces[space].id))
    market[space] = seat
    for t in spaces[space].neighbours:
        if market[t] not in (FREE, seat) and spaces[t].value < spaces[space].value:
            market[t] = FREE
            _vp(s, p, "V12", 1, msg("lg.note.stall_removed", space=spaces[t].id))
    s.market = tuple(market)


def _complete_building(s: State, seat: int, key: str) -> None:
    """Spec 4.3.12 building completion, steps 1-6."""
    p = s.players[seat]
    site = s.sites[key]
    first = not site.completed_by
    p.completed = p.completed + (key,)
    if site.first_vp:
        _vp(s, p, "V5", 1, msg("lg.note.first", building=building(key)))
    _vp(s, p, "V4", s.round, msg("lg.note.completed", building=building(key), round=s.round))
    s.sites = {**s.sites, key: Site(site.lock, False, site.craft_left - 1, site.rows, site.completed_by + (seat,))}
    if first:
        s.distinct_completed += 1
    s.completions += 1
    k = s.completions if s.options["lock_removal"] == "completions" else s.distinct_completed if first else 0
    if 1 <= k <= len(s.locks) and k not in s.locks_removed:
        locked = s.locks[k - 1]
        ls = s.sites[locked]
        s.sites = {**s.sites, locked: Site(0, ls.first_vp, ls.craft_left, ls.rows, ls.completed_by)}
        s.locks_removed = s.locks_removed + (k,)
        _vp(s, p, "V6", 1, msg("lg.note.lock_removed", lock=k, building=building(locked)))
    gemischt_active = p.active("gemischt")
    p.crafts = p.crafts + ((key, False),)
    if gemischt_active:
        _vp(s, p, "V7", 2, msg("lg.note.craft", building=building(key)))
    if key == "gemischt":
        _vp(s, p, "V7", 2, msg("lg.note.gemischt"))
    if key == "handelshaus":
        p.silver += 3
    elif key == "feinkost":
        p.trade += 1
    elif key == "gemuese":
        _push(s, Task("take", seat, 1, ",".join(RESOURCES)))
    elif key == "wagner":
        _vp(s, p, "V8", s.edition.siesta_vp[s.position(seat)], msg("lg.note.wagner"))
        _push(s, Task("deliver", seat, 1, "wagner"))
    elif key == "fleischer":
        _vp(s, p, "V9", len(p.carts), msg("lg.note.fleischer"))


def _neutral(s: State, card: int) -> None:
    """Spec 6.3: the neutral places on a space of the card's cart value, removing most of the player's stalls."""
    s.discards = s.discards + (card,)
    value = s.edition.cards[card].cart_vp
    spaces = s.edition.spaces
    usable = [i for i, sp in enumerate(spaces) if sp.value == value and not sp.x]
    candidates = [i for i in usable if s.market[i] == FREE] or [i for i in usable if s.market[i] == 0]
    if not candidates:
        return

    others = [spaces[j] for j, o in enumerate(s.market) if o == NEUTRAL]

    def rank(i: int) -> tuple[int, int, int, int]:
        """Most player stalls removed; then hard to remove: fewest higher neighbours, farthest from
        the other neutral markers; then the first space (spec 6.3's suggested order)."""
        removed = sum(1 for t in spaces[i].neighbours if s.market[t] == 0 and spaces[t].value < value)
        higher = sum(1 for t in spaces[i].neighbours if spaces[t].value > value)
        apart = min((spaces[i].distance(o) for o in others if o is not spaces[i]), default=99)
        return (-removed, higher, -apart, i)

    best = min(candidates, key=rank)
    market = list(s.market)
    market[best] = NEUTRAL
    for t in spaces[best].neighbours:
        if market[t] == 0 and spaces[t].value < value:
            market[t] = FREE
    s.market = tuple(market)


def _place(s: State, seat: int, args: tuple[str, ...]) -> None:
    p = s.players[seat]
    card, side, rest = int(args[0]), args[1], args[2:]
    p.hand = tuple(c for c in p.hand if c != card)
    if side == "field":
        p.fields = p.fields + ((card, False),)
    elif side == "ext":
        for token in rest:
            _give(s, p, token, msg("lg.note.extension", card=card))
        p.extensions = p.extensions + (card,)
    else:
        if rest:  # replace: the old card goes to the discards, its markers to the supply
            old = int(rest[1])
            s.discards = s.discards + (old,)
            p.carts = tuple(c for c in p.carts if c[0] != old)
            p.helpers = tuple(h for h in p.helpers if h != old)
        if side == "cart":
            p.carts = p.carts + ((card, (False,) * len(s.edition.cards[card].cart_symbols)),)
        else:
            p.helpers = p.helpers + (card,)


def _use_roof(s: State, seat: int, rid: str, target: str | None) -> None:
    p = s.players[seat]
    p.roofs = tuple((r, up and r != rid) for r, up in p.roofs)
    effect = s.edition.roofs[rid].effect
    if effect in ("olive", "grape"):
        _put(p, effect, 1)
    elif effect == "grain_or_olive":
        _push(s, Task("take", seat, 1, "olive,grain"))
    elif effect == "crop":
        _push(s, Task("take", seat, 1, ",".join(CROPS)))
    elif effect == "two_crops":
        _push(s, Task("take", seat, 2, ",".join(CROPS)))
    elif effect == "pig":
        _pig(s, p, True)
    elif effect == "upgrade":
        _push(s, Task("upgrade", seat, 1))
    elif effect == "delivery":
        _push(s, Task("deliver", seat, 1, "roof"))
    elif effect == "card":
        _push(s, Task("card", seat))
    elif effect == "vp":
        _vp(s, p, "V3", 1, msg("lg.note.roof_marker", marker=rid))
    elif effect == "silver":
        p.silver += 2
    elif effect == "refresh":
        p.roofs = tuple((r, up or r == target) for r, up in p.roofs)
    else:
        _move_disc(s, seat, 1 if effect == "siesta1" else 2)


def _upgrade(s: State, p: Player, token: str) -> None:
    kind = token.partition(":")[0]
    _give(s, p, token, msg("lg.note.upgrade"))
    _put(p, UPGRADE_TO[kind], 1)


def _discard(s: State, p: Player, card: int) -> None:
    p.hand = tuple(c for c in p.hand if c != card)
    s.discards = s.discards + (card,)


def _release(s: State, p: Player, token: str) -> None:
    if token[:1] == "M":
        market = list(s.market)
        market[s.edition.space_index(token)] = FREE
        s.market = tuple(market)
    else:
        _give(s, p, token, msg("lg.note.released"))


def pairs_of(args: tuple[str, ...]) -> list[tuple[str, str]]:
    """``deliver`` arguments ``TARGET=GOOD`` as (target, good) pairs."""
    return [(t, g) for t, _, g in (a.partition("=") for a in args)]


def _deliver_batch(s: State, seat: int, args: tuple[str, ...]) -> None:
    """Deliveries in the order given (spec 4.3.12). The deliveries left (if any) stay for later in the turn (after
    a purchase, say; ``done`` ends them), below whatever the last delivery asks first (a stall, Wagner's delivery,
    a Gemüsehändler good)."""
    depth = len(s.stack) - 1
    task = _pop(s)
    pairs = pairs_of(args)
    for target, token in pairs:
        _deliver(s, seat, target, token)
    left = task.n - len(pairs)
    if left > 0:
        s.stack = s.stack[:depth] + (Task(task.kind, task.player, left, task.arg),) + s.stack[depth:]


# ------------------------------------------------------------------ apply


def apply(state: State, move: LGMove) -> State:
    """The state after ``move`` (checked by ``validate`` beforehand)."""
    s = state.copy()
    top = s.stack[-1]
    seat = top.player
    verb, args = move.verb, move.args
    p = s.players[seat] if seat >= 0 else None
    if verb in ("card", "start", "order", "lock", "reveal", "roll", "donkeys"):
        _chance(s, move)
    elif verb == "donkey":
        s.players[int(args[0]) - 1].donkey = int(args[1])
        if not donkey_deciders(s):  # the last choice: reveal all together (a companion step)
            _pop(s)
            _push(s, Task("donkeys"))
    elif p is None:
        raise AssertionError(f"{move} applied with no player to move")
    elif verb == "place":
        _count_down(s) if top.kind == "play" else _pop(s)
        _place(s, seat, args)
    elif verb in ("done", "skip", "pass"):
        _pop(s)
    elif verb == "discard":  # the whole discard down to the hand limit (spec 3.2 step 1)
        _pop(s)
        for card in map(int, args):
            _discard(s, p, card)
    elif verb == "roof":
        _pop(s)
        p.silver -= s.round
        p.roofs = p.roofs + ((args[0], True),)
        p.bought_roof = True
        s.display = tuple(r for r in s.display if r != args[0])
        slot = len(p.roofs)
        _vp(s, p, "V2", s.edition.roof_slot_vp[slot - 1] if slot <= 5 else 0, msg("lg.note.roof_slot", slot=slot))
    elif verb == "die":
        _pop(s)
        value = int(args[0])
        i = s.dice.index(value)
        s.dice = s.dice[:i] + s.dice[i + 1:]
        p.dice = p.dice + (value,)
        _face(s, seat, value)
    elif verb == "option":
        _pop(s)
        choice = args[0]
        if choice == "card":
            _push(s, Task("card", seat))
        elif choice == "crop":
            _push(s, Task("take", seat, 1, ",".join(CROPS)))
        elif choice == "upgrade":
            _push(s, Task("upgrade", seat, 2))
        elif choice == "mixed":
            _move_disc(s, seat, 1)
            _push(s, Task("upgrade", seat, 1))
        elif choice == "siesta":
            _move_disc(s, seat, 2)
        elif choice == "deliver":
            _push(s, Task("deliver", seat, 1, "die"))
        else:
            p.silver += 2
    elif verb == "take":
        _pop(s)
        for kind in args:
            if kind == "pig":
                _pig(s, p, s.options["pig_overflow"] == "sell")
            else:
                _put(p, kind, 1)
    elif verb == "upgrade":
        if args[0] == "free":  # the whole free grant; fewer than granted forgoes the rest
            _pop(s)
            for token in args[1:]:
                _upgrade(s, p, token)
        else:
            p.silver -= s.edition.upgrade_cost[args[0].partition(":")[0]]
            _upgrade(s, p, args[0])
    elif verb == "deliver":
        _deliver_batch(s, seat, args)
    elif verb == "draw":
        _pop(s)
        _push(s, Task("deal", seat))
    elif verb == "extra":
        _pop(s)
        k = int(args[0])
        p.silver -= k
        if k and s.options["extra_purchase"] == "one_at_a_time":
            _push(s, Task("deliver", seat, k, "extra"), Task("extra", seat, top.n + k))
        elif k:
            _push(s, Task("deliver", seat, k, "extra"))
    elif verb == "release":
        _pop(s)
        for token in args:
            _release(s, p, token)
    elif verb == "stall":
        _pop(s)
        place_stall(s, seat, s.edition.space_index(args[0]))
    elif verb == "buy":
        p.silver -= s.edition.buy[args[0]]
        _put(p, args[0], 1)
    elif verb == "sell":
        kind = args[0].partition(":")[0]
        _give(s, p, args[0], msg("lg.note.sold"))
        p.silver += s.edition.sell[kind]
    elif verb == "trade":
        p.trade -= 1
        use = args[0]
        if use == "silver":
            p.silver += 4
        elif use == "crops":
            _push(s, Task("take", seat, 2, ",".join(CROPS)))
        elif use == "card":
            _push(s, Task("card", seat))
        elif use == "pig":
            _pig(s, p, True)
        else:
            _push(s, Task("upgrade", seat, 2))
    elif verb == "use":
        _use_roof(s, seat, args[0], args[1] if len(args) > 1 else None)
    elif verb == "helper":
        p.helpers_used = p.helpers_used + (int(args[0]),)
    elif verb == "adjust":
        kind, delta, note = args[0], int(args[1]), " ".join(args[2:])
        if kind == "vp":
            _vp(s, p, "V16", delta, note or msg("lg.note.adjustment"))
        elif kind == "silver":
            p.silver += delta
        elif kind == "trade":
            p.trade += delta
        else:
            _put(p, kind, delta)
    settle(s)
    return s


def _chance(s: State, move: LGMove) -> None:
    top = _pop(s)
    arg = move.args[0]
    if move.verb == "card":
        card = int(arg)
        s.pile = s.pile - {card}
        if top.kind == "neutral":
            _neutral(s, card)
        else:
            p = s.players[top.player]
            p.hand = tuple(sorted(p.hand + (card,)))
    elif move.verb == "start":
        first = int(arg) - 1
        n = len(s.players)
        s.order = tuple((first + i) % n for i in range(n))
    elif move.verb == "order":
        s.order = (0,)
        s.solo_start = arg == "2"
        s.stack = tuple(Task("begin", n=int(arg)) if t.kind == "begin" else t for t in s.stack)
    elif move.verb == "lock":
        s.locks = s.locks + (arg,)
    elif move.verb == "donkeys":
        pass  # the markers chosen in secret are turned up; the siesta step follows (spec 3.4 step 2)
    elif move.verb == "reveal":
        s.display = s.display + (arg,)
        s.unrevealed = tuple(r for r in s.unrevealed if r != arg)
    else:
        s.dice = s.rolled = tuple(int(a) for a in move.args)


# ------------------------------------------------------------------ validate


def validate(s: State, move: LGMove) -> IllegalMoveError | None:
    """Why ``move`` is not allowed now (rule ID and a sentence), or ``None``."""
    if s.over:
        return _err("3.6", "lg.refuse.over", move)
    top = s.top
    assert top is not None
    if move.is_chance or top.kind in CHANCE_KINDS:
        if top.kind not in CHANCE_KINDS:
            return _err("CHANCE", "lg.refuse.players_turn", move)
        if move not in {m for m, _ in chance_outcomes(s)}:
            return _err("CHANCE", "lg.refuse.not_an_outcome", move)
        return None
    check = _CHECKS.get(move.verb)
    if check is None:
        return _err("3.1", "lg.refuse.not_a_player_move", move, verb=move.verb)
    if top.player == SIMULTANEOUS:
        if move.verb != "donkey":
            return _err("3.4", "lg.refuse.donkeys_now", move, verb=move.verb)
        return _check_donkey(s, top, None, move)
    if move.verb == "donkey":
        return _task(("donkey",), top, move)
    return check(s, top, s.players[top.player], move)



def _anytime(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    if top.kind not in ANYTIME_KINDS:
        return _err("3.1", "lg.refuse.own_turn", move, verb=move.verb, waiting=waiting(top.kind))
    return None


def _task(kinds: tuple[str, ...], top: Task, move: LGMove) -> IllegalMoveError | None:
    if top.kind not in kinds:
        return _err("3.1", "lg.refuse.not_now", move, verb=move.verb, waiting=waiting(top.kind))
    return None


def _check_place(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("play", "card"), top, move)
    if error:
        return error
    args = move.args  # public conditions first (sides, payments); the hand, which the table cannot see, last
    side, rest = args[1], args[2:]
    if side not in SIDES:
        return _err("4.3.1", "lg.refuse.place.side", move, sides=", ".join(SIDES))
    if side in ("field",) and rest:
        return _err("4.3.1", "lg.refuse.place.field_free", move)
    if side in ("cart", "helper"):
        held = [c for c, _ in p.carts] if side == "cart" else list(p.helpers)
        rule = "4.2:carts" if side == "cart" else "4.2:helpers"
        if len(held) >= 3 and not rest:
            return _err(rule, "lg.refuse.place.full", move, n=3, side=msg(f"lg.side.{side}", n=3))
        if rest:
            if len(rest) != 2 or rest[0] != "replace" or not rest[1].isdigit():
                return _err("4.3.1", "lg.refuse.place.write_replace", move, card=args[0], side=side)
            if len(held) < 3:
                return _err(rule, "lg.refuse.place.replace_when_full", move, side=msg(f"lg.side.{side}"))
            if int(rest[1]) not in held:
                return _err(rule, "lg.refuse.not_one_of_yours", move, card=rest[1], side=msg(f"lg.side.{side}", n=2))
    if side == "ext":
        need = len(p.extensions) + 1
        if len(rest) != need:
            return _err("4.3.1", "lg.refuse.ext.cost", move, n=need, given=len(rest))
        kinds = [t.partition(":")[0] for t in rest]
        if any(k not in FARM_GOODS or (t.partition(":")[2] not in ("", "field")) for k, t in zip(kinds, rest)):
            return _err("A-08", "lg.refuse.ext.farm_goods", move)
        if len(set(kinds)) != len(kinds):
            return _err("4.3.1", "lg.refuse.ext.distinct", move)
        for t in rest:
            if not _has(s, p, t):
                return _err("4.3.1", "lg.refuse.ext.none", move, good=token(t))
    if not args[0].isdigit() or int(args[0]) not in p.hand:
        return _err("4.3.1", "lg.refuse.not_in_hand", move, card=args[0])
    return None


def _check_done(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    if move.verb == "done":
        return _task(("play", "upgrade", "deliver"), top, move)
    if move.verb == "pass":
        return _task(("roof",), top, move)
    return _task(("face", "take", "card"), top, move)


def _check_discard(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    """The whole discard at once: exactly the excess, distinct cards of the hand (public count first)."""
    error = _task(("discard",), top, move)
    if error:
        return error
    cards = move.args
    if len(cards) != top.n or len(set(cards)) != len(cards):
        return _err("4.2:hand", "lg.refuse.discard.count", move, n=top.n, cards=" ".join(["CARD"] * top.n))
    for card in cards:
        if int(card) not in p.hand:
            return _err("4.2:hand", "lg.refuse.not_in_hand", move, card=card)
    return None


def _check_roof(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("roof",), top, move)
    if error:
        return error
    rid = move.args[0]
    if rid not in s.display:
        return _err("4.3.9", "lg.refuse.roof.not_displayed", move, marker=rid)
    if p.bought_roof:
        return _err("4.2:roof", "lg.refuse.roof.one_per_round", move)
    if len(p.roofs) >= roof_capacity(s, p):
        return _err("4.2:roof", "lg.refuse.roof.full", move)
    if p.silver < s.round:
        return _err("4.3.9", "lg.refuse.roof.cost", move, cost=s.round, round=s.round, silver=p.silver)
    return None


def _check_die(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    if top.kind != "pick":
        if top.kind in ("face", "take", "upgrade", "deliver", "card") and s.phase == "yield":
            return _err("4.2:dice", "lg.refuse.die.resolve_first", move)
        return _err("4.2:dice", "lg.refuse.die.none_now", move)
    if int(move.args[0]) not in s.dice:
        return _err("3.3", "lg.refuse.die.none_left", move, value=move.args[0])
    return None


def _check_option(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("face",), top, move)
    if error is None and move.args[0] not in FACE_OPTIONS[top.arg]:
        options = [msg(f"lg.option.{o}") for o in FACE_OPTIONS[top.arg]]
        return _err("1.4", "lg.refuse.option", move, face=top.arg, options=options)
    return error


def _check_take(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("take",), top, move)
    if error:
        return error
    allowed = top.arg.split(",")
    if len(move.args) != top.n or len(set(move.args)) != top.n or not all(a in allowed for a in move.args):
        return _err("4.3.3", "lg.refuse.take", move, n=top.n, goods=goods(allowed))
    if "pig" in move.args and s.options["pig_overflow"] == "forbid" and p.goods["pig"] >= sty(s, p):
        return _err("A-05", "lg.refuse.sty_full_pig", move)
    return None


def _check_upgrade(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    args = move.args
    free = args[0] == "free"
    if (free and len(args) == 1) or (not free and len(args) != 1):
        return _err("4.3.5", "lg.refuse.upgrade.write", move)
    error = _task(("upgrade",), top, move) if free else _anytime(s, top, p, move)
    if error:
        return error
    tokens = args[1:] if free else args
    if free and len(tokens) > top.n:
        return _err("4.3.5", "lg.refuse.upgrade.at_most", move, n=top.n)
    for t in tokens:
        kind, _, where = t.partition(":")
        if kind not in RESOURCES or where not in ("", "field") or (where and kind == "pig"):
            return _err("1.9", "lg.refuse.upgrade.kinds", move)
    if not free and p.silver < s.edition.upgrade_cost[args[0].partition(":")[0]]:
        kind = args[0].partition(":")[0]
        return _err("4.3.5", "lg.refuse.upgrade.cost", move, good=good(kind), cost=s.edition.upgrade_cost[kind])
    return _can_upgrade_all(s, top.player, tokens, move)


def _can_upgrade_all(s: State, seat: int, tokens: tuple[str, ...], move: LGMove) -> IllegalMoveError | None:
    """Whether ``seat`` holds every token to upgrade at once (two ``olive`` need two olives)."""
    scratch = s.copy()
    p = scratch.players[seat]
    for t in tokens:
        if not _has(scratch, p, t):
            reason = "lg.refuse.upgrade.no_more" if tokens.count(t) > 1 else "lg.refuse.upgrade.none"
            return _err("4.3.5", reason, move, good=token(t))
        _give(scratch, p, t, msg("lg.note.upgrade"))
    return None


def _check_deliver(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    """A batch of deliveries, checked one after another as they would be made (spec 4.3.12)."""
    error = _check_deliver_due(s, top, move)
    if error:
        return error
    pairs = pairs_of(move.args)
    if len(pairs) > top.n:
        return _err("4.2:deliveries", "lg.refuse.deliver.count", move, n=top.n, given=len(pairs))
    scratch = s.copy()
    for i, (target, t) in enumerate(pairs):
        error = _check_one_delivery(scratch, scratch.players[top.player], target, t, move)
        if error is None and i and len(scratch.stack) > len(s.stack):
            error = _err("4.3.12", "lg.refuse.deliver.ends_batch", move, i=i)
        if error is not None:
            if len(pairs) == 1:
                return error
            return _err(error.rule, "lg.refuse.deliver.which", move, i=i + 1, pair=f"{target}={t}", why=error.text)
        _deliver(scratch, top.player, target, t)
    return None


def _check_deliver_due(s: State, top: Task, move: LGMove) -> IllegalMoveError | None:
    if top.kind != "deliver":
        if top.kind == "extra":
            return _err("4.2:extra", "lg.refuse.deliver.extra_first", move)
        return _err("4.2:deliveries", "lg.refuse.deliver.none_due", move)
    return None


def _check_one_delivery(s: State, p: Player, target: str, given: str, move: LGMove) -> IllegalMoveError | None:
    kind, _, where = given.partition(":")
    if kind not in (*FARM_GOODS, "trade") or where not in ("", "field") or (where and kind not in CROPS):
        return _err("4.3.12", "lg.refuse.deliver.not_a_good", move, good=given)
    error = _check_target(s, p, target, kind, move)
    if error is None and not _has(s, p, given):
        return _err("4.3.12", "lg.refuse.deliver.none", move, good=token(given))
    return error


def _check_target(s: State, p: Player, target: str, kind: str, move: LGMove) -> IllegalMoveError | None:
    if target.startswith("cart"):
        number = target[4:]
        cart = next((f for c, f in p.carts if number.isdigit() and c == int(number)), None)
        if cart is None:
            return _err("4.3.12", "lg.refuse.deliver.not_your_cart", move, target=target)
        symbols = s.edition.cards[int(number)].cart_symbols
        if not any(sym == kind and not done for sym, done in zip(symbols, cart)):
            return _err("4.3.12", "lg.refuse.deliver.cart_symbol", move, card=number, good=good(kind))
        return None
    key, slash, row_text = target.partition("/")
    if key not in s.sites:
        return _err("4.3.12", "lg.refuse.deliver.unknown_target", move, target=key, buildings=", ".join(BUILDINGS))
    site = s.sites[key]
    if site.lock:
        return _err("4.2:locked", "lg.refuse.deliver.locked", move, building=building(key), lock=site.lock)
    if key in p.completed:
        return _err("4.2:completed", "lg.refuse.deliver.completed", move, building=building(key))
    held = _row(p, key)
    symbols = s.edition.buildings[key].row
    if held is None:
        if not slash or not row_text.isdigit() or not 1 <= int(row_text) <= 4:
            return _err("4.2:rows", "lg.refuse.deliver.choose_row", move, building=building(key), key=key)
        if site.rows[int(row_text) - 1] != FREE:
            return _err("4.2:rows", "lg.refuse.deliver.row_taken", move, row=row_text, building=building(key))
        filled: tuple[bool, ...] = (False,) * len(symbols)
    else:
        if slash and row_text != str(held[0] + 1):
            return _err("4.2:rows", "lg.refuse.deliver.row_fixed", move, building=building(key), row=held[0] + 1)
        filled = held[1]
    if not any(sym == kind and not done for sym, done in zip(symbols, filled)):
        return _err("4.3.12", "lg.refuse.deliver.row_symbol", move, building=building(key), good=good(kind))
    return None


def _check_draw(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("card",), top, move)
    if error is None and not s.pile and not s.discards:
        return _err("4.3.2", "lg.refuse.draw.empty", move)
    return error


def _check_donkey(s: State, top: Task, _: Player | None, move: LGMove) -> IllegalMoveError | None:
    """Spec 3.4 step 1 at the simultaneous step; every condition is public (who has chosen, markers used)."""
    seat, d = int(move.args[0]) - 1, int(move.args[1])
    if not 0 <= seat < len(s.players):
        return _err("3.4", "lg.refuse.donkey.seat", move, seats=len(s.players))
    p = s.players[seat]
    if p.donkey:
        return _err("3.4", "lg.refuse.donkey.chosen", move, name=p.name)
    if not 1 <= d <= 4:
        return _err("4.2:donkey", "lg.refuse.donkey.range", move)
    if d in p.donkeys_used:
        used = ", ".join(str(u) for u in p.donkeys_used)
        rounds = "1-3" if s.round <= 3 else "4-6"
        return _err("4.2:donkey", "lg.refuse.donkey.used", move, d=d, rounds=rounds, used=used)
    return None


def _check_extra(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("extra",), top, move)
    if error:
        return error
    k = int(move.args[0])
    cap = extra_capacity(s, p) - top.n
    if s.options["extra_purchase"] == "one_at_a_time" and k > 1:
        return _err("4.3.14", "lg.refuse.extra.one_at_a_time", move)
    if k > cap:
        return _err("4.2:extra", "lg.refuse.extra.at_most", move, n=cap)
    if k > p.silver:
        return _err("4.2:extra", "lg.refuse.extra.cost", move, n=k, silver=p.silver)
    return None


def _check_stall(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _task(("stall",), top, move)
    if error:
        return error
    ids = [sp.id for sp in s.edition.spaces]
    spaces = stall_spaces(s, top.player, top.n)
    if move.args[0] not in ids or ids.index(move.args[0]) not in spaces:
        return _err("4.3.13", "lg.refuse.stall", move, value=top.n)
    return None


def _check_release(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    """All the markers to free at once (A-19): exactly the excess."""
    error = _task(("release",), top, move)
    if error:
        return error
    if len(move.args) != top.n:
        return _err("4.2:markers", "lg.refuse.release.count", move, n=top.n)
    scratch = s.copy()
    for t in move.args:
        if t not in releasable(scratch, top.player):
            reason = "lg.refuse.release.no_more" if move.args.count(t) > 1 else "lg.refuse.release.none"
            return _err("4.2:markers", reason, move, good=token(t))
        _release(scratch, scratch.players[top.player], t)
    return None


def _check_buy(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _anytime(s, top, p, move)
    if error:
        return error
    kind = move.args[0]
    if kind not in RESOURCES:
        return _err("1.9", "lg.refuse.buy.kinds", move)
    if p.silver < s.edition.buy[kind]:
        return _err("4.3.4", "lg.refuse.buy.cost", move, good=good(kind), cost=s.edition.buy[kind])
    if kind == "pig" and p.goods["pig"] >= sty(s, p):
        return _err("4.2:sty", "lg.refuse.sty_full", move, n=sty(s, p))
    return None


def _check_sell(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _anytime(s, top, p, move)
    if error:
        return error
    kind, _, where = move.args[0].partition(":")
    if kind not in RESOURCES or where not in ("", "field"):
        return _err("1.9", "lg.refuse.sell.kinds", move)
    if where and not any(s.edition.cards[h].sell_field_crops for h in p.helpers):
        return _err("4.2:fields", "lg.refuse.sell.fields", move)
    if not _has(s, p, move.args[0]):
        return _err("4.3.4", "lg.refuse.sell.none", move, good=token(move.args[0]))
    return None


def _check_trade(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _anytime(s, top, p, move)
    if error:
        return error
    use = move.args[0]
    if use not in TRADE_USES:
        return _err("4.3.7", "lg.refuse.trade.uses", move, uses=", ".join(TRADE_USES))
    if p.trade < 1:
        return _err("4.3.7", "lg.refuse.trade.none", move)
    if use == "pig" and s.options["pig_overflow"] == "forbid" and p.goods["pig"] >= sty(s, p):
        return _err("A-05", "lg.refuse.sty_full_take_pig", move)
    if use == "card" and not p.hand and not s.pile and not s.discards:
        return _err("4.3.7", "lg.refuse.no_card", move)
    return None


def _check_use(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _anytime(s, top, p, move)
    if error:
        return error
    rid = move.args[0]
    mine = dict(p.roofs)
    if rid not in mine:
        return _err("4.3.10", "lg.refuse.use.not_yours", move, marker=rid)
    if not mine[rid]:
        return _err("4.3.10", "lg.refuse.use.used", move, marker=rid)
    roof = s.edition.roofs[rid]
    if roof.phase and roof.phase != s.phase:
        return _err("4.3.10", "lg.refuse.use.phase", move, marker=rid, phase=msg(f"lg.phase.{roof.phase}"))
    if roof.effect == "refresh":
        target = move.args[1] if len(move.args) > 1 else ""
        if target not in mine or mine[target] or target == rid:
            return _err("A-14", "lg.refuse.use.refresh_target", move, marker=rid)
        if s.edition.roofs[target].effect == "refresh":
            return _err("A-14", "lg.refuse.use.refresh_loop", move)
    elif len(move.args) > 1:
        return _err("4.3.10", "lg.refuse.use.no_target", move, marker=rid)
    if roof.effect == "card" and not p.hand and not s.pile and not s.discards:
        return _err("4.3.10", "lg.refuse.no_card", move)
    return None


def _check_helper(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _anytime(s, top, p, move)
    if error:
        return error
    card = int(move.args[0])
    if card not in p.helpers:
        return _err("4.3.1", "lg.refuse.not_one_of_yours", move, card=card, side=msg("lg.side.helper", n=2))
    if card in p.helpers_used:
        return _err("3.5", "lg.refuse.helper.used", move, card=card)
    return None


def _check_adjust(s: State, top: Task, p: Player, move: LGMove) -> IllegalMoveError | None:
    error = _anytime(s, top, p, move)
    if error:
        return error
    kind, delta = move.args[0], int(move.args[1])
    if kind not in ADJUSTABLE:
        return _err("D-01", "lg.refuse.adjust.kinds", move, kinds=", ".join(ADJUSTABLE))
    held = {"vp": p.vp, "silver": p.silver, "trade": p.trade}.get(kind, p.goods.get(kind, 0))
    if delta == 0 or held + delta < 0:
        return _err("D-01", "lg.refuse.adjust.range", move, n=held, good=good(kind, held))
    if kind == "pig" and held + delta > sty(s, p):
        return _err("4.2:sty", "lg.refuse.sty_holds", move, n=sty(s, p))
    return None


_CHECKS = {
    "place": _check_place, "done": _check_done, "skip": _check_done, "pass": _check_done,
    "discard": _check_discard, "roof": _check_roof, "die": _check_die, "option": _check_option,
    "take": _check_take, "upgrade": _check_upgrade, "deliver": _check_deliver, "draw": _check_draw,
    "donkey": _check_donkey, "extra": _check_extra, "stall": _check_stall, "buy": _check_buy,
    "sell": _check_sell, "trade": _check_trade, "use": _check_use, "helper": _check_helper,
    "adjust": _check_adjust, "release": _check_release,
}


# ------------------------------------------------------------------ legal moves


def legal_moves(s: State) -> list[LGMove]:
    """Every move the rules allow now, except free-form table adjustments (``adjust``).

    A crop paid or delivered is listed from storage when there is one there, else from a
    field; the other source is legal too (``validate`` accepts it)."""
    if s.over:
        return []
    top = s.top
    assert top is not None
    if top.kind in CHANCE_KINDS:
        return [m for m, _ in chance_outcomes(s)]
    if top.kind == "donkey":
        return [LGMove("donkey", (str(seat + 1), str(d))) for seat in donkey_deciders(s) for d in range(1, 5)
                if d not in s.players[seat].donkeys_used]
    p = s.players[top.player]
    out = _task_candidates(s, top, p)
    if top.kind in ANYTIME_KINDS:
        out += _anytime_candidates(s, p)
    batches = delivery_batches(s) if top.kind == "deliver" else []  # valid by construction
    return [m for m in out if validate(s, m) is None] + batches


def _units(s: State, p: Player, kinds: tuple[str, ...]) -> list[str]:
    """One token per unit ``p`` holds of ``kinds`` (storage, then crops on fields), in canonical order."""
    out = []
    for kind in kinds:
        out += [kind] * {"silver": p.silver, "vp": p.vp, "trade": p.trade}.get(kind, p.goods.get(kind, 0))
    for kind in kinds:
        if kind in CROPS:
            out += [f"{kind}:field"] * sum(1 for c, has in p.fields if has and s.edition.cards[c].field == kind)
    return sorted(out, key=token_key)


def _picks(units: list[str], low: int, high: int) -> list[tuple[str, ...]]:
    """Every multiset of ``low`` to ``high`` of ``units``, each once, in canonical order."""
    return sorted({combo for k in range(low, high + 1) for combo in combinations(units, k)},
                  key=lambda c: (len(c), [units.index(t) for t in c]))


def _batch_items(target: str, token: str) -> tuple[str, ...]:
    key, slash, row = target.partition("/")
    return (f"{key}={token}", f"{key}/{row}") if slash else (f"{key}={token}",)


def batch_key(args: tuple[str, ...]) -> tuple[str, ...]:
    """What a batch of deliveries does, whatever its order: the goods per target and the rows chosen."""
    return tuple(sorted(item for t, g in pairs_of(args) for item in _batch_items(t, g)))


def _scratch(s: State, seat: int) -> State:
    """A copy of ``s`` in which only ``seat``'s farm and the board may change (enough for one delivery)."""
    new = object.__new__(State)
    new.__dict__.update(s.__dict__)
    players = list(s.players)
    players[seat] = players[seat].copy()
    new.players = tuple(players)
    return new


def delivery_batches(s: State) -> list[LGMove]:
    """Every set of 1 to N deliveries the top ``deliver`` task allows (N left), each once, in the first order that
    can be made (a set's effects do not depend on its order). A delivery that asks a decision ends its batch."""
    top = s.top
    assert top is not None
    seat, depth = top.player, len(s.stack)
    seen: set[tuple[str, ...]] = set()
    out: list[LGMove] = []

    def grow(state: State, made: tuple[str, ...], done: tuple[str, ...]) -> None:
        if len(made) == top.n or (made and len(state.stack) > depth):
            return
        for move in _deliver_candidates(state, state.players[seat]):
            target, token = move.args
            key = tuple(sorted(done + _batch_items(target, token)))
            if key in seen:
                continue
            seen.add(key)
            nxt = _scratch(state, seat)
            _deliver(nxt, seat, target, token)
            pair = f"{target}={token}"
            out.append(LGMove("deliver", (*made, pair)))
            grow(nxt, (*made, pair), key)

    grow(s, (), ())
    return out


def _sources(s: State, p: Player, kinds: tuple[str, ...]) -> list[str]:
    """One token per kind ``p`` can give: storage first, else a field."""
    out = []
    for kind in kinds:
        if _has(s, p, kind):
            out.append(kind)
        elif kind in CROPS and _has(s, p, f"{kind}:field"):
            out.append(f"{kind}:field")
    return out


def _place_candidates(s: State, p: Player) -> list[LGMove]:
    out = []
    payable = _sources(s, p, FARM_GOODS)
    payments = list(combinations(payable, len(p.extensions) + 1))
    for c in sorted(set(p.hand)):
        card = str(c)
        out.append(LGMove("place", (card, "field")))
        for side, held in (("cart", [x for x, _ in p.carts]), ("helper", list(p.helpers))):
            if len(held) < 3:
                out.append(LGMove("place", (card, side)))
            else:
                out += [LGMove("place", (card, side, "replace", str(h))) for h in held]
        out += [LGMove("place", (card, "ext", *pay)) for pay in payments]
    return out


def _deliver_candidates(s: State, p: Player) -> list[LGMove]:
    out = []
    goods = _sources(s, p, (*FARM_GOODS, "trade"))
    by_kind = {g.partition(":")[0]: g for g in goods}
    for key in BUILDINGS:
        site = s.sites[key]
        if site.lock or key in p.completed:
            continue
        held = _row(p, key)
        symbols = s.edition.buildings[key].row
        open_kinds = sorted({sym for sym, done in zip(symbols, held[1] if held else (False,) * len(symbols))
                             if not done and sym in by_kind})
        targets = [key] if held else [f"{key}/{r + 1}" for r, o in enumerate(site.rows) if o == FREE]
        out += [LGMove("deliver", (t, by_kind[k])) for t in targets for k in open_kinds]
    for card, filled in p.carts:
        symbols = s.edition.cards[card].cart_symbols
        kinds = sorted({sym for sym, done in zip(symbols, filled) if not done and sym in by_kind})
        out += [LGMove("deliver", (f"cart{card}", by_kind[k])) for k in kinds]
    return out


def _task_candidates(s: State, top: Task, p: Player) -> list[LGMove]:
    kind = top.kind
    if kind == "play":
        return _place_candidates(s, p) + [LGMove("done")]
    if kind == "discard":
        return [LGMove("discard", tuple(str(c) for c in combo)) for combo in combinations(sorted(set(p.hand)), top.n)]
    if kind == "roof":
        return [LGMove("roof", (r,)) for r in s.display] + [LGMove("pass")]
    if kind == "pick":
        return [LGMove("die", (str(v),)) for v in sorted(set(s.dice))]
    if kind == "face":
        return [LGMove("option", (o,)) for o in FACE_OPTIONS[top.arg]] + [LGMove("skip")]
    if kind == "take":
        allowed = top.arg.split(",")
        return [LGMove("take", combo) for combo in combinations(allowed, top.n)] + [LGMove("skip")]
    if kind == "upgrade":
        picks = _picks(_units(s, p, RESOURCES), 1, top.n)
        return [LGMove("upgrade", ("free", *combo)) for combo in picks] + [LGMove("done")]
    if kind == "deliver":
        return [LGMove("done")]
    if kind == "card":
        return _place_candidates(s, p) + [LGMove("draw"), LGMove("skip")]
    if kind == "extra":
        return [LGMove("extra", (str(k),)) for k in range(min(extra_capacity(s, p) - top.n, p.silver) + 1)]
    if kind == "stall":
        return [LGMove("stall", (s.edition.spaces[i].id,)) for i in stall_spaces(s, top.player, top.n)]
    if kind == "release":
        units = _units(s, p, (*GOODS, "trade")) + [sp.id for sp, o in zip(s.edition.spaces, s.market) if o == top.player]
        return [LGMove("release", combo) for combo in _picks(units, top.n, top.n)]
    return []


def _anytime_candidates(s: State, p: Player) -> list[LGMove]:
    out = [LGMove("buy", (k,)) for k in RESOURCES if p.silver >= s.edition.buy[k]]
    out += [LGMove("sell", (t,)) for t in _sources(s, p, RESOURCES)]
    if any(s.edition.cards[h].sell_field_crops for h in p.helpers):
        out += [LGMove("sell", (f"{k}:field",)) for k in CROPS]
    out += [LGMove("upgrade", (t,)) for t in _sources(s, p, RESOURCES)
            if p.silver >= s.edition.upgrade_cost[t.partition(":")[0]]]
    if p.trade:
        out += [LGMove("trade", (u,)) for u in TRADE_USES]
    for rid, up in p.roofs:
        if up:
            if s.edition.roofs[rid].effect == "refresh":
                out += [LGMove("use", (rid, t)) for t, t_up in p.roofs if not t_up]
            else:
                out.append(LGMove("use", (rid,)))
    out += [LGMove("helper", (str(h),)) for h in p.helpers]
    return out
