"""Key Market's rules over ``State``: setup with its chance steps, Farming F1-F6, production, Market Day with guild
10's priority window, the Season End, the game end. ``check`` says why a move is illegal (rule ID and message);
``legal_moves`` lists every move ``check`` allows; ``apply`` plays one unchecked.
"""

from __future__ import annotations

import itertools
from functools import lru_cache, partial
from collections.abc import Iterator, Mapping
from typing import Any

from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from companion.core.memo import KEPT, Memo, kept_with
from companion.core.messages import msg
from companion.core.options import Options
from companion.games.key_market import market as mk
from companion.games.key_market import payments, season_end
from companion.games.key_market.data import GOODS, LEVELS, LUX, RESOURCES, Edition
from companion.games.key_market.moves import KMMove, at, pos, produce_order
from companion.games.key_market.production import Harvest, Member, Weather, Worked, active, produce
from companion.games.key_market.state import KEYWORKER, NONE, Counts, Seat, State, add, as_dict, counts, replace
from companion.games.key_market.territory import (
    SMALL_BOARD,
    Shape,
    Field,
    Placement,
    Territory,
    Worker,
    blocked,
    board_spots,
    can_end_on,
    check_hire,
    hire_cost,
    joining,
    joins,
    lay,
    move_cost,
    territory,
)

START_GOLD = (3, 4, 4, 5)
"""Gold by place in the first turn order (L208)."""
GUILDS_IN_PLAY = {2: 5, 3: 6, 4: 7}
"""Guild tiles by player count (L125)."""
MARKER_WORKER, FAVOUR_WORKER, FIRST_WORKER = 9, 8, 1
SEASON_INDEX = {"spring": 0, "summer": 1, "autumn": 2}
CHANCE_STAGES = frozenset({"weather", "order", "farmhouses", "deal", "guild", "revealed", "committed", "reveal"})


_MOVES: dict[tuple[str, tuple[str, ...]], KMMove] = Memo(8192)


def mv(verb: str, *args: str) -> KMMove:
    """The move ``verb args`` (made once: moves are frozen values)."""
    key = (verb, args)
    found = _MOVES.get(key)
    if found is None:
        found = _MOVES[key] = KMMove(verb, args)
    return found


DONE, PASS, GOLD = KMMove("done"), KMMove("pass"), KMMove("gold")
"""The moves without arguments that the lists offer most."""


def refuse(rule: str, key: str, **params: object) -> IllegalMoveError:
    return IllegalMoveError(rule, msg(key, **params))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ setup


def new_state(edition: Edition, names: tuple[str, ...], options: Options) -> State:
    """Setup steps 1-4 and 8-13 (spec 2.2): the market, the supply, each player's resources; the chance steps
    follow (weather, turn order, farmhouse tiles, boards, guilds)."""
    n = len(names)
    market = counts(mk.starting_market(n))
    own = counts({r: 1 for r in RESOURCES})
    supply = tuple(mk.GOODS_IN_PLAY[n] - m - n * o for m, o in zip(market, own))
    seats = tuple(Seat(goods=own) for _ in names)
    placements = (Placement(SMALL_BOARD, "a", 0, 0),) if n == 2 else ()
    return State(names, options, edition, market=market, supply=supply, seats=seats, placements=placements,
                 laid_by=(-1,) * len(placements))


_LANDS: dict[tuple[int, tuple[Placement, ...], str], tuple[Edition, Territory]] = Memo(64)


_LAST_LAND: list[tuple[tuple[Placement, ...], Edition, str, Territory]] = []
"""The territory last asked for, found again by identity (the states of a game share their placements)."""


def land(s: State, placements: tuple[Placement, ...] | None = None) -> Territory:
    """The territory on the table, or with ``placements`` (cached: boards never move once laid)."""
    laid = s.placements if placements is None else placements
    region = s.options["region"]
    if _LAST_LAND:
        last = _LAST_LAND[0]
        if last[0] is laid and last[1] is s.edition and last[2] == region:
            return last[3]
    key = (id(s.edition), laid, region)
    found = _LANDS.get(key)
    if found is None or found[0] is not s.edition:
        found = _LANDS[key] = (s.edition, territory(s.edition, laid, region))
    _LAST_LAND[:] = [(laid, s.edition, region, found[1])]
    return found[1]


def actor(s: State) -> int:
    if s.stage == "over":
        return TERMINAL
    if s.stage in CHANCE_STAGES:
        return CHANCE
    if s.stage in ("pay", "commit"):
        return SIMULTANEOUS
    if s.stage == "early":
        return s.early[0]
    return s.order[s.turn]


def dealer(s: State) -> int:
    """Who hands out the territory boards (setup step 15): the last player in turn order (L153, L224); with 2
    players variant ``board_dealer_two_players`` (spec 7.2 #22) may name the start player instead."""
    if s.n == 2 and s.options["board_dealer_two_players"] == "start_player":
        return s.order[0]
    return s.order[-1]


def deciders(s: State) -> tuple[int, ...]:
    if s.stage in ("pay", "commit"):
        return tuple(i for i, seat in enumerate(s.seats) if seat.secret is None and (
            s.stage == "pay" or any(seat.goods)))
    who = actor(s)
    return (who,) if who >= 0 else ()


def _year1_squares(s: State) -> list[str]:
    return [m.id for m in s.edition.markers.values() if m.shape == "square"]


STATIC_CHANCES = frozenset({"weather", "order", "farmhouses"})
"""Chance steps whose outcomes depend on the edition and the player count only (they are remembered)."""


def chance_outcomes(s: State) -> list[tuple[KMMove, int]]:
    if s.stage in STATIC_CHANCES:
        memo: dict[tuple[str, int], list[tuple[KMMove, int]]] = edition_memo(s.edition, "_chances")
        found = memo.get((s.stage, s.n))
        if found is None:
            found = memo[(s.stage, s.n)] = _chance_outcomes(s)
        return list(found)
    return _chance_outcomes(s)


def chance_moves(s: State) -> tuple[KMMove, ...]:
    """``chance_outcomes``' moves (each weighs 1; the static ones remembered: do not change the answer)."""
    if s.stage in STATIC_CHANCES:
        memo: dict[tuple[str, int], tuple[KMMove, ...]] = edition_memo(s.edition, "_chance_moves")
        found = memo.get((s.stage, s.n))
        if found is None:
            found = memo[(s.stage, s.n)] = tuple(m for m, _ in chance_outcomes(s))
        return found
    return tuple(m for m, _ in _chance_outcomes(s))


def _chance_outcomes(s: State) -> list[tuple[KMMove, int]]:
    e = s.edition
    if s.stage == "weather":
        squares = _year1_squares(s)
        rounds = [m.id for m in e.markers.values() if m.shape == "round" and not m.year2]
        return [(mv("weather", *sq, *rd), 1) for sq in itertools.permutations(squares, 3)
                for rd in itertools.permutations(rounds)]
    if s.stage == "order":
        return [(mv("order", *(str(p + 1) for p in perm)), 1) for perm in itertools.permutations(range(s.n))]
    if s.stage == "farmhouses":
        return [(mv("farmhouses", *(str(t) for t in pick)), 1) for pick in itertools.permutations(sorted(e.farmhouses),
                                                                                                  s.n)]
    if s.stage == "deal":
        return [(mv("deal", f"{b}{side}"), 1) for b in s.boards_left for side in ("a", "b")]
    if s.stage == "guild":
        return [(mv("guild", str(g)), 1) for g in range(1, 17) if g not in s.guilds]
    if s.stage == "revealed":
        return [(mv("revealed", *("+".join(seat.secret or ()) for seat in s.seats)), 1)]
    if s.stage == "committed":
        return [(mv("committed", *("+".join(seat.secret or ()) or "-" for seat in s.seats)), 1)]
    if s.stage == "reveal":
        used = {m for pair in s.weather for m in pair}
        squares = [m.id for m in e.markers.values() if m.shape == "square" and m.id not in used]
        rounds = [m.id for m in e.markers.values() if m.shape == "round" and m.year2 and m.id not in used]
        return [(mv("reveal", sq, rd), 1) for sq in squares for rd in rounds]
    return []


def weather_now(s: State) -> Weather:
    """The season and its face-up markers' goods (Winter has none)."""
    if s.season == "winter":
        return Weather("winter")
    index = SEASON_INDEX[s.season] + (3 if s.year == 2 else 0)
    square, round_ = s.weather[index]
    return Weather(s.season, s.edition.markers[square].good, s.edition.markers[round_].good)


# ------------------------------------------------------------------------------------------------ helpers


def edition_memo(edition: Edition, name: str, most: int | None = None) -> dict[Any, Any]:
    """A table of values derived from the edition's data, which never changes (kept with the edition); with
    ``most``, a ``Memo`` of at most about that many entries."""
    tables = edition.__dict__
    found: dict[Any, Any] | None = tables.get(name)
    if found is None:
        found = tables[name] = {} if most is None else Memo(most)
    return found


def members(s: State, seat: int) -> dict[int, Member]:
    """The seat's guild members as production and scoring read them (level and column; remembered per edition and
    guild places taken: do not change it)."""
    memo: dict[frozenset[str], dict[int, Member]] = edition_memo(s.edition, "_members", 2048)
    key = _guild_places(s.seats[seat])
    found = memo.get(key)
    if found is None:
        found = memo[key] = _members(s, seat)
    return found


def _members(s: State, seat: int) -> dict[int, Member]:
    out = {}
    for g, (_, level, slot) in s.seat(seat).guilds().items():
        out[g] = Member(level, column_of(s, g, level, slot))
    return out


def column_of(s: State, guild: int, level: str, slot: int) -> str | None:
    tile = s.edition.guild_tiles[guild]
    return tile.columns[slot // tile.slots[level]] if tile.columns else None


def has(s: State, seat: int, guild: int, level: str) -> bool:
    """Whether the seat has guild ``guild``'s ``level`` ability."""
    found = s.seats[seat].__dict__.get("_abilities")  # ``abilities``' remembered answer, looked up without a call
    if found is not None and found[0] is s.edition:
        return (guild, level) in found[1]
    return (guild, level) in abilities(s, seat)


def abilities(s: State, seat: int) -> frozenset[tuple[int, str]]:
    """Every (guild, level) ability the seat has (remembered with the seat, and per edition and list of workers)."""
    kept: dict[str, Any] = s.seats[seat].__dict__
    found: tuple[Edition, frozenset[tuple[int, str]]] | None = kept.get("_abilities")
    if found is None or found[0] is not s.edition:
        memo: dict[frozenset[str], frozenset[tuple[int, str]]] = edition_memo(s.edition, "_active", 2048)
        places = _guild_places(s.seats[seat])
        known = memo.get(places)
        if known is None:
            known = memo[places] = frozenset(active(s.edition, members(s, seat)))
        found = kept["_abilities"] = (s.edition, known)
    return found[1]


def value(s: State, guild: int, level: str, key: str) -> int:
    return s.edition.value(guild, level, key)


_WORKERS = {(i, key): Worker(i, key) for i in range(4) for key in (False, True)}
"""Each player's two kinds of worker on the territory, made once (the table of every worker by field is remembered)."""
_ON_LAND: dict[tuple[tuple[str, ...], ...], dict[tuple[int, int], Worker]] = Memo(256)


def workers_on_land(s: State) -> dict[tuple[int, int], Worker]:
    """Every worker on the territory by field (remembered: do not change the answer)."""
    key = tuple([seat.workers for seat in s.seats])
    found = _ON_LAND.get(key)
    if found is None:
        found = _ON_LAND[key] = {p: _WORKERS[i, w == KEYWORKER] for i, seat in enumerate(s.seats)
                                 for w, p in seat.fields()}
    return found


def free_slots(s: State, guild: int, level: str, column: str | None = None) -> list[int]:
    taken = _taken_slots(s)
    return [i for i, place, at_column in _slots(s, guild, level)
            if place not in taken and (column is None or at_column == column)]


def _open_slots(s: State) -> frozenset[tuple[int, str, str | None]]:
    """(guild, level, column) of each guild level in play with a free slot in that column, and (guild, level, None)
    with a free slot in any (remembered per edition, guilds in play and slots taken)."""
    memo: dict[object, Any] | None = s.__dict__.get(KEPT)
    if memo is not None and "open" in memo:
        known: frozenset[tuple[int, str, str | None]] = memo["open"]
        return known

    def make() -> frozenset[tuple[int, str, str | None]]:
        memo: dict[object, frozenset[tuple[int, str, str | None]]] = edition_memo(s.edition, "_open", 1024)
        key = (s.guilds, _seat_slots(s))
        found = memo.get(key)
        if found is None:
            taken = _taken_slots(s)
            found = memo[key] = frozenset(entry for place, entries in _guild_slots(s) if place not in taken
                                          for entry in entries)
        return found
    return kept_with(s, "open", make)


_SlotEntry = tuple[int, str, str | None]


def _guild_slots(s: State) -> list[tuple[str, tuple[_SlotEntry, _SlotEntry]]]:
    """Each slot of the guilds in play: a worker's place there, with (guild, level, its column) and (guild, level,
    None) (remembered per edition and guilds in play)."""
    memo: dict[tuple[int, ...], list[tuple[str, tuple[_SlotEntry, _SlotEntry]]]] = edition_memo(s.edition, "_gslots", 256)
    found = memo.get(s.guilds)
    if found is None:
        found = memo[s.guilds] = [(place, ((g, level, column), (g, level, None))) for g in s.guilds
                                  for level in LEVELS for _, place, column in _slots(s, g, level)]
    return found


def _taken_slots(s: State) -> frozenset[str]:
    """Every guild slot a worker holds (each seat's remembered until its workers move)."""
    return kept_with(s, "slots", lambda: frozenset().union(*_seat_slots(s)))


def _seat_slots(s: State) -> tuple[frozenset[str], ...]:
    """Each seat's guild slots taken (each remembered until its workers move)."""
    return tuple([_guild_places(seat) for seat in s.seats])


def _guild_places(seat: Seat) -> frozenset[str]:
    """The guild slots the seat's workers hold (remembered until they move)."""
    found: dict[str, Any] | None = seat.__dict__.get(KEPT)
    places: frozenset[str] | None = found.get("slots") if found is not None else None
    return places if places is not None else seat.derived("slots", partial(_in_guilds, seat.workers))


def _in_guilds(workers: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w for w in workers if w.startswith("g:"))


def _slots(s: State, guild: int, level: str) -> list[tuple[int, str, str | None]]:
    """Each slot of a guild level: its number, a worker's place there and its column (remembered per edition)."""
    memo: dict[tuple[int, str], list[tuple[int, str, str | None]]] = edition_memo(s.edition, "_slots")
    found = memo.get((guild, level))
    if found is None:
        tile = s.edition.guild_tiles[guild]
        found = memo[(guild, level)] = [(i, f"g:{guild}:{level}:{i}", column_of(s, guild, level, i))
                                        for i in range(tile.slots[level] * max(1, len(tile.columns)))]
    return found


def held(seat: Seat) -> dict[str, int]:
    """Goods behind the screen (committed goods are on the farmhouse tile, L451)."""
    return as_dict(seat.goods)


def payer(s: State, seat: int) -> payments.Payer:
    """The seat's payment modifiers (remembered per abilities and variant flags, and with the seat)."""
    kept: dict[str, Any] = s.seats[seat].__dict__
    known: tuple[Options, Edition, payments.Payer] | None = kept.get("_payer")
    if known is not None and known[0] is s.options and known[1] is s.edition:
        return known[2]
    o = s.options
    ab = abilities(s, seat)
    key = (ab, o["flex_total"], o["flex_with_g7"], o["g7_apprentice_lux"])
    memo: dict[object, payments.Payer] = edition_memo(s.edition, "_payers")
    found = memo.get(key)
    if found is None:
        found = memo[key] = payments.Payer(
            (7, "A") in ab, (7, "J") in ab, frozenset(lv for lv in LEVELS if (16, lv) in ab),
            value(s, 14, "M", "retire_gold") if (14, "M") in ab else 0, key[1] == "exact", key[2] == "reduced",
            key[3] == "lux_allowed")
    kept["_payer"] = (o, s.edition, found)
    return found


def spend(s: State, seat: int, paid: Mapping[str, int]) -> State:
    """Paid goods go to the general supply (L333)."""
    c = counts(dict(paid))
    return s.update(seat, {"goods": add(s.seat(seat).goods, c, -1)}, supply=add(s.supply, c))


def gain(s: State, seat: int, good: str, n: int) -> State:
    """``n`` goods from the supply; 1 gold for each it cannot give (L321, spec 7.2 #19)."""
    i = GOODS.index(good)
    given = min(n, s.supply[i])
    one = tuple(given if j == i else 0 for j in range(len(GOODS)))
    seat_now = s.seat(seat)
    short = n - given if s.options["exchange_shortage"] == "gold" else 0
    return s.update(seat, {"goods": add(seat_now.goods, one), "gold": seat_now.gold + short},
                    supply=add(s.supply, one, -1))


def sub_multisets(goods: Mapping[str, int], most: int) -> Iterator[dict[str, int]]:
    """Every multiset of at most ``most`` goods taken from ``goods``."""
    kinds = [g for g in GOODS if goods.get(g, 0)]

    def rec(i: int, left: int) -> Iterator[dict[str, int]]:
        if i == len(kinds):
            yield {}
            return
        for k in range(min(goods[kinds[i]], left) + 1):
            for rest in rec(i + 1, left - k):
                yield {kinds[i]: k, **rest} if k else rest

    yield from rec(0, most)


def pay_tokens(paid: Mapping[str, int]) -> tuple[str, ...]:
    return tuple(g for g in GOODS for _ in range(paid.get(g, 0)))


def read_payment(tokens: tuple[str, ...]) -> tuple[dict[str, int], int, tuple[str, ...]]:
    """Goods, gold (the token ``gold``: guild 14 M's 9) and other tokens of a paying move."""
    paid: dict[str, int] = {}
    rest = []
    for t in tokens:
        if t in GOODS:
            paid[t] = paid.get(t, 0) + 1
        else:
            rest.append(t)
    gold = 1 if "gold" in rest else 0
    return paid, gold, tuple(t for t in rest if t != "gold")


_PAYMENTS: dict[tuple[str, payments.Payer, Counts], tuple[tuple[str, ...], ...]] = Memo(2048)
PAID_MOST = 4
"""No payment takes more than 4 goods (DIFF(4), FLEX(4))."""
_MOST = (PAID_MOST,) * len(GOODS)


def payment_options(s: State, seat: int, kind: str) -> tuple[tuple[str, ...], ...]:
    """Every way the seat can pay for ``kind`` now, as move tokens (the goods ones remembered by abilities and goods
    held, counted up to ``PAID_MOST`` of a sort)."""
    p = payer(s, seat)
    me = s.seat(seat)
    key = (kind, p, tuple(map(min, me.goods, _MOST)))
    found = _PAYMENTS.get(key)
    if found is None:
        mine = as_dict(key[2])
        found = _PAYMENTS[key] = tuple(pay_tokens(c) for c in sub_multisets(mine, PAID_MOST)
                                       if c and payments.allows(kind, c, 0, p, mine, 0))
    if kind == "retire" and p.g14_master and me.gold >= p.g14_master:
        return (*found, ("gold",))
    return found


def check_paid(s: State, seat: int, kind: str, tokens: tuple[str, ...]) -> IllegalMoveError | None:
    paid, gold, _ = read_payment(tokens)
    p = payer(s, seat)
    return payments.check(kind, paid, p.g14_master if gold else 0, p, held(s.seat(seat)), s.seat(seat).gold)


def source_worker(s: State, seat: int, source: str) -> int | None:
    """The worker a move takes: ``pool`` (a normal one), ``key`` (the keyworker from the pool), ``gN`` (the member of
    guild N), ``x,y`` (on that field)."""
    me = s.seat(seat)
    if source == "pool":  # the first normal worker in the pool (the keyworker is worker 0)
        try:
            return me.workers.index("pool", KEYWORKER + 1)
        except ValueError:
            return None
    if source == "key":
        return KEYWORKER if me.workers[KEYWORKER] == "pool" else None
    if source.startswith("g") and source[1:].isdigit():
        member = me.guilds().get(int(source[1:]))
        return member[0] if member else None
    if "," in source:
        spot = f"f:{source}"
        return me.workers.index(spot) if spot in me.workers else None
    return None


def sources(s: State, seat: int, pool: bool = True, land_: bool = True, guilds: bool = True) -> list[str]:
    me = s.seat(seat)
    out = []
    if pool and source_worker(s, seat, "pool") is not None:
        out.append("pool")
    if pool and me.workers[KEYWORKER] == "pool":
        out.append("key")
    if land_:
        out += [at(p) for _, p in me.fields()]
    if guilds:
        out += [f"g{g}" for g in sorted(me.guilds())]
    return out


def territory_count(s: State, seat: int) -> int:
    return len(s.seat(seat).fields())


# ------------------------------------------------------------------------------------------------ checks


def check(s: State, move: KMMove) -> IllegalMoveError | None:
    """Why ``move`` is illegal now, or ``None``."""
    who = actor(s)
    if who == TERMINAL:
        return refuse("3.10", "km.refuse.game_over")
    if who == CHANCE:
        if any(move == m for m, _ in chance_outcomes(s)):
            return None
        return refuse("2.3", "km.refuse.chance")
    if move.verb in KMMove.chance_verbs:
        return refuse("2.3", "km.refuse.chance")
    if who == SIMULTANEOUS:
        return _check_secret(s, move)
    try:
        return _check_turn(s, who, move)
    except IllegalMoveError as error:
        return error
    except (ValueError, IndexError, KeyError):
        return refuse("4", "km.refuse.malformed", move=str(move))


def _check_secret(s: State, move: KMMove) -> IllegalMoveError | None:
    want = "pay" if s.stage == "pay" else "commit"
    if move.verb != want:
        return refuse("2.2-17" if want == "pay" else "4.4-M1", f"km.refuse.now_{want}")
    if not move.args[0].isdigit() or not 1 <= int(move.args[0]) <= s.n:
        return refuse("4.4-M1", "km.refuse.seat")
    seat = int(move.args[0]) - 1
    if seat not in deciders(s):
        return refuse("4.4-M1", "km.refuse.already_chosen")
    goods = move.args[1:]
    me = s.seat(seat)
    chosen = {g: goods.count(g) for g in set(goods)}
    if any(chosen[g] > me.goods[GOODS.index(g)] for g in chosen):
        return refuse("4.2", "km.refuse.cannot_pay")
    if want == "pay":
        try:
            mk.farmhouse_payment(mk.starting_market(s.n), me.farmhouse, goods)
        except IllegalMoveError as error:
            return error
        return None
    return None if goods else refuse("4.4-M1", "km.refuse.commit_one")


def _farming_step(s: State, seat: int, step: int) -> IllegalMoveError | None:
    """The order F1-F6 (L255): an action may not follow a later one."""
    if s.stage != "farming":
        return refuse("3.3", "km.refuse.not_farming")
    if s.seat(seat).step > step:
        return refuse("3.3", "km.refuse.order", step=step)
    return None


def _check_turn(s: State, seat: int, move: KMMove) -> IllegalMoveError | None:
    v, a = move.verb, move.args
    me = s.seat(seat)
    if s.stage == "place":
        return _check_board(s, seat, move)
    if s.stage == "upkeep":
        if v != "release":
            return refuse("3.7-S3", "km.refuse.now_upkeep")
        mine = {at(p) for _, p in me.fields()}
        if not set(a) <= mine or len(set(a)) != len(a):
            return refuse("3.7-S3", "km.refuse.release_own")
        cost = upkeep_cost(s, seat, set(a))
        if cost > me.gold:
            return refuse("3.7-S3", "km.refuse.upkeep_gold", n=cost, gold=me.gold)
        return None
    if v == "leave":
        if s.options["leave_guild"] != "any_time" or s.stage not in ("farming", "market"):
            return refuse("6.1", "km.refuse.leave")
        return None if a[0].startswith("g") and a[0][1:].isdigit() and int(a[0][1:]) in me.guilds() else \
            refuse("6.1", "km.refuse.no_member")
    if v == "done":
        if s.stage in ("farming", "early"):
            return None
        return refuse("4.4-M3", "km.refuse.pass_instead")
    if s.stage == "farming":
        return _check_farming(s, seat, move)
    if s.stage == "early":
        if v == "sell":
            if me.sold or not has(s, seat, 10, "M"):
                return refuse("4.4-M2", "km.refuse.early_sell")
            return _check_sale(s, seat, a)
        if v == "buy":
            if me.guild_action:
                return refuse("4.4-II", "km.refuse.guild_action_done")
            return _check_buy(s, seat, a)
        return refuse("4.4-M2", "km.refuse.early_only")
    # Market Day turns
    if v == "pass":
        if any(me.committed):
            return refuse("4.4-III", "km.refuse.pass_goods")
        if not me.guild_action:
            return refuse("4.4-III", "km.refuse.pass_action")
        return None
    if v == "sell":
        return _check_sale(s, seat, a)
    if v == "mixed":
        return _check_mixed(s, seat, a)
    if me.guild_action:
        return refuse("4.4-II", "km.refuse.guild_action_done")
    if v == "gold":
        if s.options["take_gold_at_five"] == "forbidden" and territory_count(s, seat) >= 5 and any(
                m.verb != "gold" and _check_turn(s, seat, m) is None for m in _guild_actions(s, seat, legal=False)):
            return refuse("4.4-E", "km.refuse.take_gold_zero")
        return None
    if v == "buy":
        return _check_buy(s, seat, a)
    if v == "apprentice":
        return _check_apprentice(s, seat, a)
    if v == "promote":
        return _check_promote(s, seat, a)
    if v == "retire":
        return _check_retire(s, seat, a)
    return refuse("4.4-M3", "km.refuse.market_action")


def _check_board(s: State, seat: int, move: KMMove) -> IllegalMoveError | None:
    if move.verb != "board" or s.dealt is None:
        return refuse("2.2-15", "km.refuse.now_board")
    x, y, turns = (int(t) for t in move.args[:3])
    new = Placement(s.dealt[0], s.dealt[1], x, y, turns % 4)
    if not s.placements:
        if (x, y, turns) != (0, 0, 0):
            return refuse("2.2-15", "km.refuse.first_board")
    else:
        error = joins(s.edition, s.placements, new)
        if error is not None:
            return error
    fields = lay(s.edition, new)
    target = pos(move.args[3])
    if target not in fields or fields[target].is_village:
        return refuse("2.2-15", "km.refuse.board_worker")
    return can_end_on(land(s, (*s.placements, new)), workers_on_land(s), seat, target)


def _check_farming(s: State, seat: int, move: KMMove) -> IllegalMoveError | None:
    v, a = move.verb, move.args
    me = s.seat(seat)
    step = {"move": 1, "hire": 2, "produce": 3, "swap": 3, "promote": 4, "manor": 5, "retire": 6}.get(v)
    if step is None:
        return refuse("3.3", "km.refuse.farming_action")
    error = _farming_step(s, seat, step)
    if error is not None:
        return error
    if v == "move":
        if me.moved and s.options["moves_per_farming"] == "one":
            return refuse("4.3-F1", "km.refuse.one_move")
        start, end = pos(a[0]), pos(a[1])
        worker = source_worker(s, seat, a[0])
        if worker is None:
            return refuse("4.3-F1", "km.refuse.no_worker_there")
        ground = land(s)
        error = can_end_on(ground, workers_on_land(s), seat, end, worker == KEYWORKER, has(s, seat, 4, "J"), start)
        if error is not None:
            return error
        gold, _ = move_cost(ground, start, end, *_move_terms(s, seat))
        if gold > me.gold:
            return refuse("4.3-F1", "km.refuse.gold", n=gold)
        return None
    if v == "hire":
        limit = value(s, 5, "J", "hires") if has(s, seat, 5, "J") else 1
        if me.hires >= limit:
            return refuse("4.3-F2", "km.refuse.hires", n=limit)
        source = a[1] if len(a) > 1 else "pool"
        worker = source_worker(s, seat, source)
        if worker is None or "," in source:
            return refuse("4.3-F2", "km.refuse.hire_source")
        error = check_hire(land(s), workers_on_land(s), seat, pos(a[0]), worker == KEYWORKER, has(s, seat, 4, "J"))
        if error is not None:
            return error
        cost = _hire_cost(s, seat)
        return refuse("4.3-F2", "km.refuse.gold", n=cost) if cost > me.gold else None
    if v == "produce":
        if me.produced:
            return refuse("4.3-F3", "km.refuse.produced")
        keys = [token.partition(":")[0] for token in a]
        if len(set(keys)) != len(keys) or list(a) != sorted(a, key=produce_order):
            return refuse("4.3-F3", "km.refuse.produce_choice")
        picks = field_choices(s, seat) if any(key not in ("8j", "13m") for key in keys) else {}
        for token in a:
            key, _, good = token.partition(":")
            if key in picks:
                if token not in picks[key]:
                    return refuse("4.3-F3", "km.refuse.produce_choice")
                continue
            if key not in ("8j", "13m") or good not in RESOURCES or not has(s, seat, int(key[:-1]), key[-1].upper()):
                return refuse("4.3-F3", "km.refuse.produce_choice")
            if key == "13m" and s.market[GOODS.index(good)] < 1:
                return refuse("6.2-13", "km.refuse.take_empty", good=msg(f"km.good.{good}"))
        return None
    if v == "swap":
        most = value(s, 3, "M", "swap") if has(s, seat, 3, "M") else 1 if has(s, seat, 3, "J") else 0
        n = int(a[1]) if len(a) > 1 else 1
        if not me.produced or me.swapped or not most:
            return refuse("4.3-F3", "km.refuse.swap")
        if a[0] not in RESOURCES or not 1 <= n <= most or me.goods[GOODS.index(a[0])] < n:
            return refuse("4.3-F3", "km.refuse.swap_goods", n=most)
        return None
    if v == "promote":
        if me.promoted:
            return refuse("4.3-F4", "km.refuse.promoted")
        return _check_promote(s, seat, a)
    if v == "manor":
        if me.manor:
            return refuse("4.3-F5", "km.refuse.manor_built")
        paid, _, rest = read_payment(a)
        return refuse("4.3-F5", "km.refuse.manor_cost", good=msg(f"km.good.{me.farmhouse}")) if rest else \
            payments.check_manor(paid, me.farmhouse, held(me))
    if me.retired_f:
        return refuse("4.3-F6", "km.refuse.retired")
    return _check_retire(s, seat, a)


def _move_terms(s: State, seat: int) -> tuple[int, int]:
    settle = value(s, 6, "A", "settle_cost") if has(s, seat, 6, "A") else 5
    free = value(s, 6, "J", "free_steps") - s.seat(seat).free_steps if has(s, seat, 6, "J") else 0
    return settle, max(0, free)


def _hire_cost(s: State, seat: int) -> int:
    return hire_cost(territory_count(s, seat), value(s, 5, "A", "hire_cap") if has(s, seat, 5, "A") else None)


def _check_sale(s: State, seat: int, a: tuple[str, ...]) -> IllegalMoveError | None:
    good, n = a[0], int(a[1])
    me = s.seat(seat)
    size = _bonuses(s, seat).set_size
    if not 1 <= n <= size:
        return refuse("4.4-I", "km.refuse.set_size", n=size, size=n)
    if me.committed[GOODS.index(good)] < n:
        return refuse("4.4-I", "km.refuse.not_committed", good=msg(f"km.good.{good}"))
    return None


def _mixed_most(s: State, seat: int) -> int:
    """The most goods of a mixed set the seat may sell (guild 15 A or J), 0 without."""
    return value(s, 15, "J", "mixed_max") if has(s, seat, 15, "J") else \
        value(s, 15, "A", "mixed_max") if has(s, seat, 15, "A") else 0


def _check_mixed(s: State, seat: int, a: tuple[str, ...]) -> IllegalMoveError | None:
    me = s.seat(seat)
    most = _mixed_most(s, seat)
    if not most or me.mixed:
        return refuse("4.4-I'", "km.refuse.mixed_once")
    if len(set(a)) != len(a) or any(g not in RESOURCES for g in a) or not 2 <= len(a) <= most:
        return refuse("4.4-I'", "km.refuse.mixed_set", n=most)
    if any(me.committed[GOODS.index(g)] < 1 for g in a):
        return refuse("4.4-I'", "km.refuse.not_committed", good=msg(f"km.good.{a[0]}"))
    return None


def _check_buy(s: State, seat: int, a: tuple[str, ...]) -> IllegalMoveError | None:
    try:
        bought, _ = buying(s, seat, a)
    except IllegalMoveError as error:
        return error
    if bought.gold > s.seat(seat).gold:
        return refuse("4.4-D", "km.refuse.gold", n=bought.gold)
    return None


def _guild_arg(s: State, token: str) -> tuple[int, str | None]:
    number, _, column = token.partition("@")
    g = int(number)
    if g not in s.guilds:
        raise KeyError(g)
    return g, column or None


def _check_apprentice(s: State, seat: int, a: tuple[str, ...]) -> IllegalMoveError | None:
    try:
        g, column = _guild_arg(s, a[0])
    except (KeyError, ValueError):
        return refuse("4.4-A", "km.refuse.guild_not_in_play")
    me = s.seat(seat)
    if g in me.guilds():
        return refuse("4.4-A", "km.refuse.one_per_guild")
    tile = s.edition.guild_tiles[g]
    if tile.columns and column not in tile.columns or not tile.columns and column:
        return refuse("4.4-A", "km.refuse.column", columns=list(tile.columns) or ["-"])
    if not free_slots(s, g, "A", column):
        return refuse("4.4-A", "km.refuse.no_slot")
    source = a[1]
    if source_worker(s, seat, source) is None or source == f"g{g}":
        return refuse("4.4-A", "km.refuse.no_worker_there")
    paid, gold, rest = read_payment(a[2:])
    if gold:
        return refuse("4.2", "km.refuse.pay_gold")
    error = payments.check("place", paid, 0, payer(s, seat), held(me), me.gold)
    if error is not None:
        return error
    for token in rest:
        good = token.removeprefix("swap:")
        left = me.goods[GOODS.index(good)] - paid.get(good, 0) if good in RESOURCES else 0
        if g != 3 or token == good or left < 1 or not _once_open(s, seat, 3):
            return refuse("6.2-3", "km.refuse.swap")
    return None


def _once_open(s: State, seat: int, guild: int) -> bool:
    return s.options["once_only"] == "per_placement" or guild not in s.seat(seat).used_once


def _check_promote(s: State, seat: int, a: tuple[str, ...]) -> IllegalMoveError | None:
    number, _, column = a[0].partition("@")
    g = int(number)
    member = s.seat(seat).guilds().get(g)
    if member is None:
        return refuse("4.3-F4", "km.refuse.no_member")
    _, level, _ = member
    if level == "M":
        return refuse("4.3-F4", "km.refuse.master")
    up = LEVELS[LEVELS.index(level) + 1]
    tile = s.edition.guild_tiles[g]
    if tile.columns and column not in tile.columns or not tile.columns and column:
        return refuse("4.3-F4", "km.refuse.column", columns=list(tile.columns) or ["-"])
    if not free_slots(s, g, up, column or None):
        return refuse("4.3-F4", "km.refuse.no_slot")
    return check_paid(s, seat, "promote_j" if level == "A" else "promote_m", a[1:])


def _check_retire(s: State, seat: int, a: tuple[str, ...]) -> IllegalMoveError | None:
    me = s.seat(seat)
    if not me.manor:
        return refuse("4.3-F6", "km.refuse.needs_manor")
    source = a[0]
    if source in ("pool", "key") and not has(s, seat, 14, "M"):
        return refuse("4.3-F6", "km.refuse.retire_pool")
    if source_worker(s, seat, source) is None:
        return refuse("4.3-F6", "km.refuse.no_worker_there")
    return check_paid(s, seat, "retire", a[1:])


# ------------------------------------------------------------------------------------------------ legal moves


def legal_moves(s: State) -> list[KMMove]:
    """Every move ``check`` allows, in a fixed order. A player's moves are generated legal: each rule ``check``
    applies is tested where the candidate is made, so no move is checked twice (``legal_by_check`` is the slow
    reference the tests compare with)."""
    who = actor(s)
    if who == TERMINAL:
        return []
    if who == CHANCE:
        return list(chance_moves(s))
    if who == SIMULTANEOUS:
        return [m for seat in deciders(s) for m in _secret_moves(s, seat)]
    return _candidates(s, who)


def legal_by_check(s: State) -> list[KMMove]:
    """``legal_moves`` the slow way: a superset of candidates, each one sifted by ``check``'s rules."""
    who = actor(s)
    if who < 0:
        return legal_moves(s)
    return [m for m in _candidates(s, who, legal=False) if _check_turn(s, who, m) is None]


COMMIT_MOST = 60
"""The most goods one commitment names (the notation's limit, ``moves.VERBS``)."""
_SECRETS: dict[tuple[str, int, str, Counts], list[KMMove]] = Memo(1024)


def _secret_moves(s: State, seat: int) -> list[KMMove]:
    """The seat's secret choices (they depend on its goods, and the payment on its farmhouse tile, only, so they are
    remembered)."""
    me = s.seat(seat)
    key = (s.stage, seat, me.farmhouse if s.stage == "pay" else "", me.goods)
    found = _SECRETS.get(key)
    if found is None:
        found = _SECRETS[key] = _make_secret_moves(s, seat)
    return found


def _make_secret_moves(s: State, seat: int) -> list[KMMove]:
    me = s.seat(seat)
    if s.stage == "pay":
        return [mv("pay", str(seat + 1), *sorted((me.farmhouse, g), key=GOODS.index))
                for g in RESOURCES if g != me.farmhouse and me.goods[GOODS.index(g)]]
    who = str(seat + 1)  # every non-empty choice of the goods held, in the order of ``sub_multisets``
    picks = itertools.product(*[[(g,) * k for k in range(n + 1)] for g, n in zip(GOODS, me.goods) if n])
    next(picks)  # none of them
    chain = itertools.chain.from_iterable
    if sum(me.goods) <= COMMIT_MOST:
        return [KMMove("commit", (who, *chain(pick))) for pick in picks]
    return [KMMove("commit", (who, *chain(pick))) for pick in picks if sum(map(len, pick)) <= COMMIT_MOST]


def _candidates(s: State, seat: int, legal: bool = True) -> list[KMMove]:
    """The seat's moves on its turn: the legal ones, or (``legal`` false) a superset for ``check`` to sift."""
    me = s.seat(seat)
    out: list[KMMove] = []
    if s.stage == "place":
        out.extend(_board_candidates(s, legal))
        return out
    if s.stage == "upkeep":
        standings = _standings(s, seat)
        terms = (has(s, seat, 4, "A"), has(s, seat, 12, "J"), has(s, seat, 12, "M"), s.options["g12_master_small_board"])
        for k in range(len(standings) + 1):
            for gone in itertools.combinations(standings, k):
                kept = [w for w in standings if w not in gone]
                if not legal or season_end.upkeep_gold([w for _, w in kept], *terms) <= me.gold:
                    out.append(mv("release", *sorted(label for label, _ in gone)))
        return out
    if s.options["leave_guild"] == "any_time" and s.stage in ("farming", "market"):
        out.extend(mv("leave", f"g{g}") for g in sorted(me.guilds()))
    if s.stage == "farming":
        out.append(DONE)
        out.extend(_farming_candidates(s, seat, legal))
        return out
    if s.stage == "early":
        out.append(DONE)
        if not legal or not me.sold and has(s, seat, 10, "M"):
            out.extend(_sales(s, seat, legal))
        if not legal or not me.guild_action:
            out.extend(_buys(s, seat, legal))
        return out
    if not legal or not any(me.committed) and me.guild_action:
        out.append(PASS)
    out.extend(_sales(s, seat, legal))
    most = _mixed_most(s, seat)
    if legal and (me.mixed or not most):
        mixes: tuple[int, ...] = ()  # no mixed set allowed (guild 15 A or J, once a Market Day)
    else:
        mixes = (2, 3) if not legal else tuple(range(2, most + 1))
    if mixes:
        out.extend(_mixed_sets(tuple(g for g in RESOURCES if me.committed[GOODS.index(g)]), mixes))
    if not me.guild_action:
        out.extend(_guild_actions(s, seat, legal))
    return out


@lru_cache(maxsize=1024)
def _mixed_sets(kinds: tuple[str, ...], sizes: tuple[int, ...]) -> tuple[KMMove, ...]:
    """``mixed`` moves of each size in ``sizes`` from the resources ``kinds``: the first good, then the rest in
    ``GOODS`` order."""
    return tuple(KMMove("mixed", mix) for i in sizes for mix in itertools.permutations(kinds, i)
                 if list(mix[1:]) == sorted(mix[1:], key=GOODS.index))


def _guild_actions(s: State, seat: int, legal: bool = True) -> Iterator[KMMove]:
    if not legal or s.options["take_gold_at_five"] != "forbidden" or _check_turn(s, seat, GOLD) is None:
        yield GOLD
    yield from _buys(s, seat, legal)
    yield from _promotions(s, seat, legal)
    yield from _retirements(s, seat)
    me = s.seat(seat)
    pays = payment_options(s, seat, "place")
    if not pays:
        return
    once = _once_open(s, seat, 3)
    workers = sources(s, seat)  # the same as skipping guild g below: the seat has no member in g
    open_ = _open_slots(s)
    for g in s.guilds:
        if g in me.guilds():
            continue
        tile = s.edition.guild_tiles[g]
        for column in tile.columns or (None,):
            if (g, "A", column) not in open_:
                continue
            token = f"{g}@{column}" if column else str(g)
            for source in workers:
                for paid in pays:
                    yield mv("apprentice", token, source, *paid)
                    if g == 3:
                        for good in RESOURCES:
                            if not legal or once and me.goods[GOODS.index(good)] - paid.count(good) >= 1:
                                yield mv("apprentice", token, source, *paid, f"swap:{good}")


_SELL = tuple(tuple(KMMove("sell", (g, str(n))) for n in range(61)) for g in GOODS)
"""``sell GOOD N`` by good index and N."""


def _sales(s: State, seat: int, legal: bool = True) -> list[KMMove]:
    me = s.seat(seat)
    size = 2 + me.manor + has(s, seat, 11, "J")  # the set size (L416, L784), as ``mk.Bonuses.set_size``
    return [_SELL[i][n] for i, held in enumerate(me.committed) if held
            for n in range(1, (held if not legal else min(held, size)) + 1)]


_BUY = tuple(((1, KMMove("buy", (g, "1"))), (2, KMMove("buy", (g, "2")))) for g in GOODS)
"""``buy GOOD 1`` and ``buy GOOD 2`` by good index."""


def _buy_prices(edition: Edition, discount: int) -> tuple[int, ...]:
    """``mk.buy_price`` of a row by its count of goods, the last for every fuller row (remembered per edition)."""
    memo: dict[int, tuple[int, ...]] = edition_memo(edition, "_buy_prices")
    found = memo.get(discount)
    if found is None:
        found = memo[discount] = tuple(mk.buy_price(edition, n, discount) for n in range(len(edition.prices) + 1))
    return found


def _buys(s: State, seat: int, legal: bool = True) -> Iterator[KMMove]:
    discount = value(s, 11, "A", "buy_discount") if has(s, seat, 11, "A") else 0
    gold = s.seat(seat).gold
    prices = _buy_prices(s.edition, discount)
    last = len(prices) - 1
    for i, row in enumerate(s.market):
        if not row:
            continue
        price = prices[min(row, last)]
        for n, move in _BUY[i]:
            if row >= n and (not legal or n * price <= gold):
                yield move
    if has(s, seat, 15, "M"):
        stocked = [g for g in RESOURCES if s.market[GOODS.index(g)]]
        for k in range(2, min(3, len(stocked)) + 1):
            for pick in itertools.combinations(stocked, k):
                if not legal or _check_buy(s, seat, pick) is None:
                    yield mv("buy", *pick)


def _promotions(s: State, seat: int, legal: bool = True) -> Iterator[KMMove]:
    members = s.seat(seat).guilds()
    if not members:
        return
    open_ = _open_slots(s) if legal else frozenset()
    for g, (_, level, _) in sorted(members.items()):
        if level == "M":
            continue
        kind = "promote_j" if level == "A" else "promote_m"
        pays = payment_options(s, seat, kind)
        up = LEVELS[LEVELS.index(level) + 1]
        for column in s.edition.guild_tiles[g].columns or (None,):
            if legal and (g, up, column) not in open_:
                continue
            for paid in pays:
                yield mv("promote", f"{g}@{column}" if column else str(g), *paid)


def _retirements(s: State, seat: int) -> Iterator[KMMove]:
    if not s.seat(seat).manor:
        return
    pays = payment_options(s, seat, "retire")
    for source in sources(s, seat, pool=has(s, seat, 14, "M")):
        for paid in pays:
            yield mv("retire", source, *paid)


def _farming_candidates(s: State, seat: int, legal: bool = True) -> list[KMMove]:
    out: list[KMMove] = []
    me = s.seat(seat)
    ab = abilities(s, seat)
    g4j = (4, "J") in ab
    if me.step <= 2:  # the territory matters to F1 and F2 only
        ground, others = land(s), workers_on_land(s)
    if me.step <= 1 and (not me.moved or s.options["moves_per_farming"] == "several"):
        terms = _move_terms(s, seat)
        for w, p in me.fields():
            if not legal:
                moves = made("move", at(p))
                out.extend([moves[q] for q in ground.fields if q != p])
                continue
            taken = blocked(ground, others, seat, w == KEYWORKER and g4j, p)
            gold, picked = me.gold, []
            for q, cost in _move_row(ground, p, terms):
                if cost > gold:
                    break
                if q not in taken:
                    picked.append(q)
            picked.sort(key=ground.index.__getitem__)
            moves = made("move", at(p))
            out.extend([moves[q] for q in picked])
    limit = value(s, 5, "J", "hires") if (5, "J") in ab else 1
    if me.step <= 2 and (not legal or me.hires < limit) and me.gold >= _hire_cost(s, seat):
        open_: dict[bool, list[bool]] = {}  # each farmland field's openness by exemption (the keyworker with 4 J)
        for source in sources(s, seat, land_=False):
            exempt = source_worker(s, seat, source) == KEYWORKER and g4j
            if exempt not in open_:
                taken = blocked(ground, others, seat, exempt) if legal else set()
                open_[exempt] = [q not in taken for q in ground.farmland]
            out.extend(itertools.compress(_hire_row(ground, source), open_[exempt]))
    if me.step <= 3 and not me.produced:
        eight = [f"8j:{g}" for g in RESOURCES] if (8, "J") in ab else [""]
        thirteen = [f"13m:{g}" for g in RESOURCES] if (13, "M") in ab else [""]
        fields = [("", *tokens) for tokens in field_choices(s, seat).values()] \
            if any(g in FIELD_PICKS for g, _ in ab) else []
        for x in eight:
            for y in thirteen:
                if not legal or not y or s.market[GOODS.index(y[4:])] >= 1:
                    if not fields:  # the common case: no field to pick, and 8j comes before 13m already
                        out.append(mv("produce", *(t for t in (x, y) if t)))
                        continue
                    for chosen in itertools.product(*fields):
                        out.append(mv("produce", *sorted((t for t in (x, y, *chosen) if t), key=produce_order)))
    if me.produced and not me.swapped:
        most = value(s, 3, "M", "swap") if (3, "M") in ab else 1 if (3, "J") in ab else 0
        for g in RESOURCES:
            for n in (1, 2):
                if not legal or me.step <= 3 and n <= most and me.goods[GOODS.index(g)] >= n:
                    out.append(mv("swap", g) if n == 1 else mv("swap", g, "2"))
    if me.step <= 4 and not me.promoted:
        out.extend(_promotions(s, seat, legal))
    if me.step <= 5 and not me.manor:
        goods = me.goods
        for paid, (i, j, k) in _manor_payments(me.farmhouse):  # each of them pays the manor (L343)
            if not legal or goods[i] and goods[j] and goods[k]:
                out.append(mv("manor", *paid))
    if me.step <= 6 and not me.retired_f:
        out.extend(_retirements(s, seat))
    return out


def _hire_row(ground: Territory, source: str) -> list[KMMove]:
    """``hire q SOURCE`` for each field ``q`` of ``ground.farmland`` in order (remembered with the territory)."""
    memo: dict[str, list[KMMove]] = ground.__dict__.setdefault("_hire_rows", {})
    found = memo.get(source)
    if found is None:
        hires = made("hire", source)
        found = memo[source] = [hires[q] for q in ground.farmland]
    return found


@lru_cache(maxsize=None)
def _manor_payments(tile: str) -> tuple[tuple[tuple[str, ...], tuple[int, int, int]], ...]:
    """Each manor payment for a farmhouse tile (its sort, another resource, 1 LUX) with its goods' indices."""
    out = []
    for other in RESOURCES:
        if other != tile:
            paid = tuple(sorted((tile, other, LUX), key=GOODS.index))
            a, b, c = (GOODS.index(g) for g in paid)
            out.append((paid, (a, b, c)))
    return tuple(out)


class _Made(dict[tuple[int, int], KMMove]):
    """The moves of one kind from one worker or source, by target field, each made once (``made``)."""

    def __init__(self, verb: str, origin: str) -> None:
        super().__init__()
        self.verb, self.origin = verb, origin

    def __missing__(self, q: tuple[int, int]) -> KMMove:
        if self.verb == "move":
            made = self[q] = KMMove("move", (self.origin, at(q)))
        else:
            made = self[q] = KMMove("hire", (at(q), self.origin) if self.origin != "pool" else (at(q),))
        return made


_MADE: dict[tuple[str, str], _Made] = Memo(256)


def made(verb: str, origin: str) -> _Made:
    """``move ORIGIN q`` or ``hire q [ORIGIN]`` by target field ``q`` (made once: moves are frozen values)."""
    found = _MADE.get((verb, origin))
    if found is None:
        found = _MADE[(verb, origin)] = _Made(verb, origin)
    return found


class _Laid(dict[tuple[int, int], KMMove]):
    """``board X Y TURNS q`` for one spot, by the worker's field ``q``, each made once."""

    def __init__(self, spot: tuple[str, str, str]) -> None:
        super().__init__()
        self.spot = spot

    def __missing__(self, q: tuple[int, int]) -> KMMove:
        made = self[q] = KMMove("board", (*self.spot, at(q)))
        return made


_LAYING: dict[tuple[int, int, int], _Laid] = {}


def made_boards(x: int, y: int, turns: int) -> _Laid:
    """The moves laying the dealt board at ``x, y`` turned ``turns`` times, by the worker's field."""
    found = _LAYING.get((x, y, turns))
    if found is None:
        found = _LAYING[(x, y, turns)] = _Laid((str(x), str(y), str(turns)))
    return found


_MOVE_ROWS: dict[tuple[Shape, frozenset[tuple[int, int]], tuple[int, int], tuple[int, int]],
                 tuple[tuple[tuple[int, int], int], ...]] = Memo(8192)


def _move_row(ground: Territory, start: tuple[int, int], terms: tuple[int, int]) -> tuple[tuple[tuple[int, int], int], ...]:
    """``move_cost``'s gold from ``start`` to every other field ``q`` it reaches, cheapest first (remembered per
    shape of the territory and villages on it: the gold depends on nothing else)."""
    key = (ground.shape, ground.villages, start, terms)
    found = _MOVE_ROWS.get(key)
    if found is None:
        settle, free = terms
        villages = ground.villages
        found = _MOVE_ROWS[key] = tuple(sorted(
            ((q, steps - min(steps, free) + (settle if q in villages else 0))
             for q, steps in ground.distances(start).items() if steps), key=lambda row: row[1]))
    return found


def _board_candidates(s: State, legal: bool = True) -> list[KMMove]:
    assert s.dealt is not None
    board, side = s.dealt
    spots = board_spots(s.edition, s.placements, board, side, checked=legal)
    ground, who = land(s), actor(s)
    near = joining(ground, workers_on_land(s), who)
    rows = edition_memo(s.edition, "_board_rows", 4096)
    out: list[KMMove] = []
    for x, y, turns in spots:
        key = (board, side, x, y, turns)
        found = rows.get(key)
        if found is None:
            found = rows[key] = _board_row(s.edition, Placement(*key))
        fresh, row = found
        if not legal:
            out.extend([m for _, m in row])
            continue
        taken = near.blocked(fresh)
        if taken is None:
            taken = near.blocked_laid(ground, fresh)
        out.extend([m for q, m in row if q not in taken] if taken else [m for _, m in row])
    return out


def _board_row(edition: Edition, new: Placement) -> tuple[Mapping[tuple[int, int], Field],
                                                          tuple[tuple[tuple[int, int], KMMove], ...]]:
    """The fields the board ``new`` lays, and ``board X Y TURNS q`` for each field ``q`` of them but the village, in
    the order of ``lay``."""
    laying = made_boards(new.x, new.y, new.turns)
    fresh = lay(edition, new)
    return fresh, tuple((q, laying[q]) for q, f in fresh.items() if not f.is_village)


# ------------------------------------------------------------------------------------------------ apply


def apply(s: State, move: KMMove) -> State:
    v, a = move.verb, move.args
    if v in KMMove.chance_verbs:
        return _apply_chance(s, move)
    if v in ("pay", "commit"):
        seat = int(a[0]) - 1
        s = s.with_seat(seat, secret=a[1:])
        if not deciders(s):
            s = replace(s, stage="revealed" if v == "pay" else "committed")
        return s
    seat = actor(s)
    if v == "leave":  # variant leave_guild = any_time: back to the pool, no action spent (spec 7.2 #9)
        worker = source_worker(s, seat, a[0])
        assert worker is not None
        return s.with_seat(seat, workers=tuple("pool" if i == worker else w
                                               for i, w in enumerate(s.seat(seat).workers)))
    if s.stage == "place":
        return _apply_board(s, seat, move)
    if s.stage == "upkeep":
        return _apply_release(s, seat, a)
    if s.stage == "farming":
        return _apply_farming(s, seat, move)
    if s.stage == "early":
        if v == "done":  # the one who acted early drops to the favour track's bottom only if another claims
            track = s.favour  # the window after them (L766-768: a conflict; alone, or last, the track stays)
            if s.early_acted and track is not None and len(s.early) > 1:
                track = season_end.to_bottom(track, seat)
            s = replace(s, early=s.early[1:], early_acted=False, favour=track)
            return s if s.early else replace(s, stage="market", turn=_next_market(s, -1))
        return _apply_market(s, seat, move, early_acted=True)
    nxt = _next_market(s, s.turn)  # no move but a pass changes who has passed; a pass skips the seat itself
    if nxt == s.turn and v == "pass":
        nxt = -1
    if nxt < 0:
        return _season_end(_apply_market(s, seat, move))
    return _apply_market(s, seat, move, turn=nxt)


def _apply_chance(s: State, move: KMMove) -> State:
    v, a = move.verb, move.args
    if v == "weather":
        return replace(s, weather=tuple(zip(a[:3], a[3:])), stage="order")
    if v == "order":
        order = tuple(int(t) - 1 for t in a)
        favour = tuple(reversed(order)) if s.n >= 3 else None
        seats = list(s.seats)
        for place, seat in enumerate(order):
            workers = list(seats[seat].workers)
            workers[MARKER_WORKER] = "marker"
            if favour is not None:
                workers[FAVOUR_WORKER] = "favour"
            seats[seat] = replace(seats[seat], gold=START_GOLD[place], workers=tuple(workers))
        return replace(s, order=order, favour=favour, seats=tuple(seats), stage="farmhouses")
    if v == "farmhouses":
        dealt = tuple(replace(seat, tile=int(t), farmhouse=s.edition.farmhouses[int(t)])
                      for seat, t in zip(s.seats, a))
        return replace(s, seats=dealt, stage="deal", turn=0)
    if v == "deal":
        board, side = int(a[0][:-1]), a[0][-1]
        return replace(s, dealt=(board, side), boards_left=tuple(b for b in s.boards_left if b != board),
                       stage="place")
    if v == "guild":
        guilds = (*s.guilds, int(a[0]))
        done = len(guilds) == GUILDS_IN_PLAY[s.n]
        return replace(s, guilds=guilds, stage="pay" if done else "guild")
    if v == "revealed":
        row = s.market
        for seat in range(s.n):
            shown = counts({g: (s.seat(seat).secret or ()).count(g) for g in GOODS})
            s = s.with_seat(seat, goods=add(s.seat(seat).goods, shown, -1), secret=None)
            row = add(row, shown)
        return _start_season(replace(s, market=row))
    if v == "committed":
        seats = []
        for seat, me in enumerate(s.seats):
            chosen = counts({g: (me.secret or ()).count(g) for g in GOODS}) if me.secret else NONE
            seats.append(replace(me, goods=add(me.goods, chosen, -1), committed=chosen, secret=None,
                                 g10_before_sale=has(s, seat, 10, "A")))
        return _open_market(replace(s, seats=tuple(seats)))
    # reveal: a year-2 pair turned up
    s = replace(s, weather=(*s.weather, (a[0], a[1])))
    return _to_upkeep(s)


def _apply_board(s: State, seat: int, move: KMMove) -> State:
    assert s.dealt is not None
    x, y, turns = (int(t) for t in move.args[:3])
    new = Placement(s.dealt[0], s.dealt[1], x, y, turns)
    target = pos(move.args[3])
    good = lay(s.edition, new)[target].good
    workers = list(s.seat(seat).workers)
    workers[FIRST_WORKER] = f"f:{at(target)}"
    s = replace(s, placements=(*s.placements, new), laid_by=(*s.laid_by, seat), dealt=None).with_seat(
        seat, workers=tuple(workers))
    s = gain(s, seat, good, 1)
    if s.turn + 1 < s.n:
        return replace(s, turn=s.turn + 1, stage="deal")
    if s.options["first_game"] == "yes":
        return replace(s, guilds=tuple(range(1, GUILDS_IN_PLAY[s.n] + 1)), stage="pay", turn=0)
    return replace(s, stage="guild", turn=0)


def _start_season(s: State) -> State:
    seats = tuple(seat.fresh_season() for seat in s.seats)
    return replace(s, seats=seats, stage="farming", turn=0)


def _apply_farming(s: State, seat: int, move: KMMove) -> State:
    v, a = move.verb, move.args
    me = s.seat(seat)
    if v == "done":
        if s.turn + 1 < s.n:
            return replace(s, turn=s.turn + 1)
        return _to_market(s)
    if v == "move":
        start, end = pos(a[0]), pos(a[1])
        gold, free = move_cost(land(s), start, end, *_move_terms(s, seat))
        workers = list(me.workers)
        workers[workers.index(f"f:{a[0]}")] = f"f:{a[1]}"  # one worker per field (L698)
        moved = tuple(workers)
        return s.with_seat(seat, workers=moved, gold=me.gold - gold, free_steps=me.free_steps + free,
                           moved=me.moved + 1, step=1)
    if v == "hire":
        worker = source_worker(s, seat, a[1] if len(a) > 1 else "pool")
        assert worker is not None
        cost = _hire_cost(s, seat)
        workers = list(me.workers)
        workers[worker] = f"f:{a[0]}"
        return s.with_seat(seat, workers=tuple(workers), gold=me.gold - cost, hires=me.hires + 1, step=2)
    if v == "produce":
        return _apply_produce(s, seat, a)
    if v == "swap":
        n = int(a[1]) if len(a) > 1 else 1
        s = spend(s, seat, {a[0]: n})
        s = gain(s, seat, LUX, n)
        return s.with_seat(seat, swapped=True)
    if v == "promote":
        s = _promote(s, seat, a)
        return s.with_seat(seat, promoted=True, step=4)
    if v == "manor":
        s = spend(s, seat, read_payment(a)[0])
        return s.with_seat(seat, manor=True, step=5)
    s = _retire(s, seat, a)
    return s.with_seat(seat, retired_f=True, step=6)


FIELD_PICKS = frozenset({2, 9})
"""Guilds whose abilities reach a number of the player's fields (one, two or three) of different goods (guild 1 A's
and 8 A's one field is of their column's good: which one never matters)."""


def field_choices(s: State, seat: int) -> dict[str, tuple[str, ...]]:
    """The ``produce`` tokens picking other fields for the seat's "one/two/three fields" abilities (guilds 2 and 9,
    L678-680, L756-760: the player chooses): per ability key (``2a``), one token per other set of goods it would add
    to; the first eligible fields in worker order are the default, named by no token."""
    harvest = harvest_of(s, seat)
    out: dict[str, tuple[str, ...]] = {}
    for key, eligible, limit in harvest.choices:
        seen, tokens = set(), []
        for combo in itertools.combinations(eligible, limit):
            goods = tuple(sorted(harvest.fields[i].good for i in combo))
            if goods not in seen:
                seen.add(goods)
                if combo != eligible[:limit]:
                    tokens.append(f"{key.lower()}:" + "+".join(harvest.fields[i].label for i in combo))
        if tokens:
            out[key.lower()] = tuple(tokens)
    return out


def harvest_of(s: State, seat: int, choice: Mapping[str, str] | None = None) -> Harvest:
    """The seat's F3 now (spec 3.4): each worked field with its reasons, the extras, shortages; ``choice``: the
    ``produce`` move's choices by key (``8j``, ``13m`` a good; ``2a``... fields ``x,y+x,y``)."""
    def worked() -> tuple[Worked, ...]:
        ground = land(s)  # complete before the first F3, so remembered with the workers' places
        return tuple(Worked(at(p), ground.fields[p].shape, ground.fields[p].good, w == KEYWORKER)
                     for w, p in me.fields())

    me = s.seats[seat]
    memo: dict[frozenset[tuple[int, str]], tuple[tuple[int, str], ...]] = edition_memo(s.edition, "_sorted_active")
    have = abilities(s, seat)
    ordered = memo.get(have)
    if ordered is None:
        ordered = memo[have] = tuple(sorted(have))
    cells = me.derived("worked", worked)
    picks = None
    if choice and choice.keys() - {"8j", "13m"}:
        labels = [c.label for c in cells]
        picks = {key.upper(): [labels.index(f) for f in fields.split("+")]
                 for key, fields in choice.items() if key not in ("8j", "13m")}
    return produce(s.edition, cells, weather_now(s), members(s, seat),
                   dict(zip(GOODS, s.supply)), dict(zip(GOODS, s.market)), s.options, picks=picks,
                   any_resource=(choice or {}).get("8j"), market_pick=(choice or {}).get("13m"), have=ordered)


def coming_harvests(s: State) -> dict[int, Harvest]:
    """Farming: the production of each player still to produce this season, in turn order, each taking from the
    supply and market the ones before left (a shortage shows before it happens)."""
    out: dict[int, Harvest] = {}
    if s.stage != "farming":
        return out
    for seat in s.order[s.turn:]:
        if s.seat(seat).produced:
            continue
        harvest = out[seat] = harvest_of(s, seat)
        s = replace(s, supply=counts(harvest.supply), market=counts(harvest.market))
    return out


def _apply_produce(s: State, seat: int, a: tuple[str, ...]) -> State:
    harvest = harvest_of(s, seat, dict(t.split(":") for t in a))
    me = s.seat(seat)
    return s.update(seat, {"goods": add(me.goods, counts(harvest.goods)), "gold": me.gold + harvest.gold,
                           "produced": True, "step": 3}, supply=counts(harvest.supply), market=counts(harvest.market))


def _promote(s: State, seat: int, a: tuple[str, ...]) -> State:
    number, _, column = a[0].partition("@")
    g = int(number)
    worker, level, _ = s.seat(seat).guilds()[g]
    up = LEVELS[LEVELS.index(level) + 1]
    slot = free_slots(s, g, up, column or None)[0]
    s = spend(s, seat, read_payment(a[1:])[0])
    workers = list(s.seat(seat).workers)
    workers[worker] = f"g:{g}:{up}:{slot}"
    return s.with_seat(seat, workers=tuple(workers))


def _retire(s: State, seat: int, a: tuple[str, ...]) -> State:
    worker = source_worker(s, seat, a[0])
    assert worker is not None
    paid, gold, _ = read_payment(a[1:])
    s = spend(s, seat, paid)
    me = s.seat(seat)
    workers = list(me.workers)
    workers[worker] = "retired"
    return s.with_seat(seat, workers=tuple(workers),
                       gold=me.gold - (value(s, 14, "M", "retire_gold") if gold else 0))


def _to_market(s: State) -> State:
    """Market Day M1: everyone holding goods commits in secret (L386-398)."""
    s = replace(s, stage="commit", turn=0)
    return s if deciders(s) else _open_market(s)


def _open_market(s: State) -> State:
    """M2: guild 10's priority window, in favour-track order (turn order with 2 players, spec 7.2 #15)."""
    track = s.favour if s.favour is not None else s.order
    early = tuple(p for p in track if has(s, p, 10, "J") or has(s, p, 10, "M"))
    if s.favour is None and s.options["priority_two_players"] == "favour_none":
        early = ()
    if early:
        return replace(s, stage="early", early=early, early_acted=False)
    return replace(s, stage="market", turn=_next_market(replace(s, stage="market"), -1))


def _next_market(s: State, turn: int) -> int:
    """The next seat in turn order that has not passed, or -1 when all have."""
    for k in range(1, s.n + 1):
        i = (turn + k) % s.n
        if not s.seat(s.order[i]).passed:
            return i
    return -1


def _bonuses(s: State, seat: int) -> mk.Bonuses:
    """The seat's sale modifiers (remembered per edition, abilities and manor)."""
    memo: dict[tuple[frozenset[tuple[int, str]], bool], mk.Bonuses] = edition_memo(s.edition, "_bonuses", 1024)
    key = (abilities(s, seat), s.seat(seat).manor)
    found = memo.get(key)
    if found is None:
        found = memo[key] = mk.Bonuses(s.seat(seat).manor, has(s, seat, 11, "J"),
                                       value(s, 11, "M", "sale_bonus") if has(s, seat, 11, "M") else 0,
                                       value(s, 10, "A", "first_sale_bonus") if has(s, seat, 10, "A") else 0)
    return found


def selling(s: State, seat: int, move: KMMove) -> tuple[mk.Sale, Counts]:
    """A sale (``sell GOOD N`` or ``mixed PLACED GOOD...``) by the seat now: its gold with the manor's set size and
    guilds 10 A, 11 J, 11 M (spec 4.4 I, I'), the market after, and the goods it takes from the farmhouse tile."""
    a = move.args
    me = s.seat(seat)
    m = dict(zip(GOODS, s.market))
    covered = int(s.options["covered_sell_price"])
    bonuses = _bonuses(s, seat)
    first = not me.sold and me.g10_before_sale
    if move.verb == "sell":
        return mk.sell(s.edition, m, a[0], int(a[1]), bonuses, first, covered), counts({a[0]: int(a[1])})
    sale = mk.sell_mixed(s.edition, m, a, a[0], len(a), bonuses, first, covered,
                         s.options["mixed_set_bonuses"] == "g10a_g11m")
    return sale, counts({g: 1 for g in a})


def buying(s: State, seat: int, a: tuple[str, ...]) -> tuple[mk.Purchase, Counts]:
    """Guild action D (``buy GOOD N``, or ``buy GOOD GOOD...`` with guild 15 M) by the seat now: the gold, guild 11
    A's discount included (L786), the market after, and the goods taken (spec 4.4 D, 7.2 #20)."""
    discount = value(s, 11, "A", "buy_discount") if has(s, seat, 11, "A") else 0
    m = dict(zip(GOODS, s.market))
    if len(a) == 2 and a[1].isdigit():
        count = int(a[1])
        if count == 2 and m.get(a[0]) == 1 and s.options["buy_two"] == "takes_one":
            count = 1
        return mk.buy(s.edition, m, a[0], count, discount), counts({a[0]: count})
    if not has(s, seat, 15, "M"):
        raise IllegalMoveError("4.4-D", msg("km.refuse.buy_mixed_guild"))
    return mk.buy_mixed(s.edition, m, a, value(s, 15, "M", "buy_kinds"), discount), counts({g: 1 for g in a})


def _apply_market(s: State, seat: int, move: KMMove, **changes: Any) -> State:
    """A Market Day move, the state then also changed by ``changes`` (in the same copy)."""
    v, a = move.verb, move.args
    me = s.seat(seat)
    if v == "sell" or v == "mixed":
        sale, sold = selling(s, seat, move)
        return s.update(seat, {"gold": me.gold + sale.gold, "committed": add(me.committed, sold, -1), "sold": True,
                               "mixed": me.mixed or v == "mixed"},
                        market=counts(sale.market), supply=add(s.supply, counts(sale.to_supply)), **changes)
    if v == "pass":
        return s.update(seat, {"passed": True}, **changes)
    if v == "gold":
        extra = value(s, 12, "A", "gold") if has(s, seat, 12, "A") else 0
        taken = mk.take_gold(territory_count(s, seat), extra, s.options["g12_apprentice"])
        track = season_end.to_top(s.favour, seat) if s.favour is not None else None
        return s.update(seat, {"gold": me.gold + taken, "guild_action": True}, favour=track, **changes)
    if v == "buy":
        bought, got = buying(s, seat, a)
        return s.update(seat, {"gold": me.gold - bought.gold, "goods": add(me.goods, got), "guild_action": True},
                        market=counts(bought.market), **changes)
    if v == "promote":
        return _promote(s, seat, a).update(seat, {"guild_action": True}, **changes)
    if v == "retire":
        return _retire(s, seat, a).update(seat, {"guild_action": True}, **changes)
    # apprentice
    g, column = _guild_arg(s, a[0])
    worker = source_worker(s, seat, a[1])
    assert worker is not None
    paid, _, rest = read_payment(a[2:])
    s = spend(s, seat, paid)
    slot = free_slots(s, g, "A", column)[0]
    me = s.seat(seat)
    placed = list(me.workers)
    placed[worker] = f"g:{g}:A:{slot}"
    s = s.with_seat(seat, workers=tuple(placed), guild_action=True,
                    g10_before_sale=me.g10_before_sale or (g == 10 and not me.sold))
    if g == 14 and _once_open(s, seat, 14):
        me = s.seat(seat)
        s = s.with_seat(seat, gold=me.gold + value(s, 14, "A", "gold"), used_once=me.used_once | {14})
    for token in rest:
        good = token.removeprefix("swap:")
        s = gain(spend(s, seat, {good: 1}), seat, LUX, 1)
        s = s.with_seat(seat, used_once=s.seat(seat).used_once | {3})
    return replace(s, **changes) if changes else s


def upkeep_of(s: State, seat: int, released: set[str]) -> season_end.Upkeep:
    """S3: what keeping the seat's territory workers but ``released`` costs, and why."""
    kept = [standing for label, standing in _standings(s, seat) if label not in released]
    return season_end.upkeep(kept, has(s, seat, 4, "A"), has(s, seat, 12, "J"), has(s, seat, 12, "M"),
                             s.options["g12_master_small_board"])


def _standings(s: State, seat: int) -> list[tuple[str, season_end.Standing]]:
    """Each of the seat's territory workers by field (``x,y``) as upkeep sees it (once per state)."""
    def make() -> list[tuple[str, season_end.Standing]]:
        ground = land(s)
        return [(at(p), season_end.Standing(ground.fields[p].board, ground.fields[p].large, w == KEYWORKER))
                for w, p in s.seat(seat).fields()]
    return kept_with(s, ("standings", seat), make)


def upkeep_cost(s: State, seat: int, released: set[str]) -> int:
    kept = [standing for label, standing in _standings(s, seat) if label not in released]
    return season_end.upkeep_gold(kept, has(s, seat, 4, "A"), has(s, seat, 12, "J"), has(s, seat, 12, "M"),
                                  s.options["g12_master_small_board"])


def _season_end(s: State) -> State:
    """After Market Day: the game ends in Autumn of year 2 (L584); else S1 and S2 (L519-550)."""
    if not season_end.has_season_end(s.year, s.season):
        return replace(s, stage="over")
    after, removed = mk.season_end_removal(s.edition, dict(zip(GOODS, s.market)))
    gone = counts(removed)
    if s.options["removed_goods"] == "supply":
        s = replace(s, market=counts(after), supply=add(s.supply, gone))
    else:
        s = replace(s, market=counts(after), box=add(s.box, gone))
    if season_end.reveals_year_two(s.year, s.season):
        return replace(s, stage="reveal")
    return _to_upkeep(s)


def _to_upkeep(s: State) -> State:
    s = replace(s, stage="upkeep", turn=0)
    return _next_upkeep(s, 0)


def _next_upkeep(s: State, turn: int) -> State:
    """S3 in turn order, skipping players with no worker on the territory; then S4."""
    i = _upkeep_turn(s, turn)
    return replace(s, turn=i) if i >= 0 else _new_order(s)


def _upkeep_turn(s: State, turn: int) -> int:
    """The first turn from ``turn`` on whose player has a worker on the territory, or -1."""
    for i in range(turn, s.n):
        if s.seat(s.order[i]).fields():
            return i
    return -1


def _apply_release(s: State, seat: int, released: tuple[str, ...]) -> State:
    cost = upkeep_cost(s, seat, set(released))
    me = s.seat(seat)
    workers = tuple("pool" if w[2:] in released and w.startswith("f:") else w for w in me.workers)
    i = _upkeep_turn(s, s.turn + 1)  # as ``_next_upkeep`` (the later seats are unchanged), in the same copy
    if i >= 0:
        return s.update(seat, {"workers": workers, "gold": me.gold - cost}, turn=i)
    return _new_order(s.with_seat(seat, workers=workers, gold=me.gold - cost))


def _new_order(s: State) -> State:
    """S4 (L558-578): fewest territory workers first, ties by the favour track; the next season begins."""
    result = season_end.new_turn_order(s.order, {p: territory_count(s, p) for p in range(s.n)}, s.favour)
    index = season_end.SEASON_ORDER.index((s.year, s.season)) + 1
    year, season = season_end.SEASON_ORDER[index]
    return _start_season(replace(s, order=result.order, favour=result.favour, year=year, season=season))


def in_play(s: State) -> Counts:
    total = add(add(s.market, s.supply), s.box)
    for seat in s.seats:
        total = add(add(total, seat.goods), seat.committed)
    return total

