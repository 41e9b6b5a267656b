"""Key Harvest rules: what may be done now, and what each move does.

The state's ``stack`` holds pending decisions and automatic steps (spec 9.7 "pending"). An
empty stack means the active player's turn (actions A-D, spec section 3-4). Every move
answers the top step; ``settle`` then runs automatic steps until a player or chance decides.
Chance steps (bag draws, the setup deals) are moves too, so a game log replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
import random
from functools import cache
from itertools import combinations

from companion.core.errors import IllegalMoveError
from companion.core.messages import msg
from companion.core.game import CHANCE, TERMINAL
from companion.core.rng import weighted_choice
from companion.games.key_harvest.board import CROP_BY_KEY, CROP_KEYS, Crop, bits, group_of
from companion.games.key_harvest.moves import EVENT_LETTERS, KHMove, label_crop
from companion.games.key_harvest.scoring import WORKER_VALUES
from companion.games.key_harvest.words import crop as crop_name
from companion.games.key_harvest.words import worker as worker_name
from companion.games.key_harvest.words import step_sentence, stones as stones_words
from companion.games.key_harvest.state import (
    EVENT,
    LABOURERS,
    MOVES_CACHE,
    NORMAL,
    OFFICE_SPACES,
    SEVENTH_SPACE,
    TRACK_SPACES,
    TRADER,
    Player,
    State,
    Step,
    Stones,
    add_stones,
    covers,
    draft,
    evolve,
    freeze,
    one_stone,
    NO_STONES,
    stones_of,
    sub_stones,
)

AUTO = -3
CHANCE_KINDS = frozenset({"first", "pair", "crops", "stone", "remove_event", "draw"})
AUTO_KINDS = frozenset({
    "start", "pairs_to_bag", "transfer", "seize", "office_take", "event_end",
    "quick_sale_refill", "resurvey", "ev_W",
})
FINISHING_VERBS = frozenset({"done", "decline"})
DONE = KHMove("done")
DECLINE = KHMove("decline")
END = KHMove("end")


@cache
def mv(verb: str, *args: str) -> KHMove:
    """The (shared, immutable) move ``verb args``."""
    return KHMove(verb, args)


shared_step = cache(Step)
"""``Step(...)`` made once and shared (steps are immutable): for the frequent steps whose
fields come from small sets (a seat, a space, a worker, an event letter), never a mask."""


# ---------------------------------------------------------------- move tables


BIDS_PER_TILE = 3000
"""How many different bids a layout remembers for one tile (it forgets them all when full)."""


@cache
def sub_multisets(stones: Stones) -> tuple[tuple[str, ...], ...]:
    """Every non-empty choice of stones out of ``stones`` (a bid, R-D3), each in crop order, smallest first."""
    out: list[tuple[str, ...]] = [()]
    for key, n in zip(CROP_KEYS, stones):  # the same order as ``product`` of the counts, crop by crop
        runs = [(key,) * k for k in range(n + 1)]
        out = [bid + run for bid in out for run in runs]
    return tuple(sorted(out[1:], key=len))


@cache
def payments(stones: Stones, n: int) -> tuple[KHMove, ...]:
    """``pay s...`` for every choice of exactly ``n`` stones out of ``stones`` (R-C3, abilities and events)."""
    return tuple(KHMove("pay", bid) for bid in sub_multisets(stones) if len(bid) == n)


class BidMoves(dict[tuple[str, ...], KHMove]):
    """``bid L s...`` for one tile ``L``, by its stones (each move made on first use, then shared)."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def __missing__(self, bid: tuple[str, ...]) -> KHMove:
        if len(self) >= BIDS_PER_TILE:
            self.clear()
        move = self[bid] = KHMove("bid", (self.label, *bid))
        return move


class MoveTable:
    """Every per-space move of one layout, made once, so generating moves is indexing."""

    def __init__(self, labels: tuple[str, ...]) -> None:
        crops = CROP_KEYS
        self.harvest = tuple(mv("harvest", label) for label in labels)
        self.harvest_as = tuple(tuple(mv("harvest", f"{label}/{c}") for c in crops) for label in labels)
        self.play = {w: tuple(mv("play", w, label) for label in labels) for w in "ABCDEFGHIJKL"}
        self.remove = tuple(mv("remove", label) for label in labels)
        self.buy = tuple(mv("buy", label) for label in labels)
        self.draw = tuple(mv("draw", label) for label in labels)
        self.event = {e: mv("event", e) for e in EVENT_LETTERS}
        self.labels = labels
        self.swaps: dict[int, tuple[KHMove, ...]] = {}
        self.play_memo: dict[tuple[object, ...], tuple[KHMove, ...]] = {}
        self.bid = tuple(BidMoves(label) for label in labels)

    def swap(self, own: int) -> tuple[KHMove, ...]:
        """``swap OWN L`` for every space L, by L (each row made on first use)."""
        row = self.swaps.get(own)
        if row is None:
            row = self.swaps[own] = tuple(mv("swap", self.labels[own], label) for label in self.labels)
        return row


def moves_of(state: State) -> MoveTable:
    table: MoveTable | None = state.layout.derived.get("moves")
    if table is None:
        table = state.layout.derived["moves"] = MoveTable(state.layout.labels)
    return table


# ---------------------------------------------------------------- queries


def actor(state: State) -> int:
    """Who decides now: a seat, ``CHANCE``, ``AUTO`` (internal) or ``TERMINAL``."""
    if state.over:
        return TERMINAL
    stack = state.stack
    if not stack:
        return state.active
    top = stack[-1]
    kind = top.kind
    if kind in CHANCE_KINDS:
        return CHANCE
    if kind in AUTO_KINDS:
        return AUTO
    return top.player


def value(worker: str) -> int:
    return WORKER_VALUES[worker]


def adjacent(state: State, space: int) -> int:
    return state.layout.neighbours[space]


def isolated(state: State, player: Player) -> int:
    """Field tiles with no adjacent field tile (spec 9.4)."""
    nbr = state.layout.neighbours
    return sum(1 << t for t in bits(player.fields) if not nbr[t] & player.fields)


def in_bag_fields(state: State) -> bool:
    return state.bag_fields != 0


def draw_context(state: State) -> str:
    """NORMAL outside event resolution, EVENT during it (spec 6.5, DE 503)."""
    return EVENT if state.resolving else NORMAL


def placement_error(state: State, seat: int, worker: str, space: int, lifted: int = -1,
                    can_replace: bool = True) -> IllegalMoveError | None:
    """Why ``worker`` may not stand on ``space`` of ``seat``'s board now (R-B1 to R-B4), or None."""
    player = state.player(seat)
    label = state.label(space)
    v = value(worker)
    if player.fields >> space & 1:
        return IllegalMoveError("R-B1", msg("kh.refuse.space_has_tile", label=label))
    occupant = player.worker_at(space) if space != lifted else None
    if occupant is not None:
        if not can_replace:
            return IllegalMoveError("R-B2", msg("kh.refuse.space_taken", label=label))
        if value(occupant) >= v:
            return IllegalMoveError("R-B2", msg("kh.refuse.replace_lower", label=label, occupant=occupant,
                                                held=value(occupant), worker=worker, value=v))
    touching = (adjacent(state, space) & player.fields).bit_count()
    exactly = state.options["worker_adjacency"] == "exactly"
    if touching < v or (exactly and touching != v):
        need = "kh.refuse.touch_exactly" if exactly else "kh.refuse.touch_at_least"
        return IllegalMoveError("R-B3", msg(need, label=label, n=touching, worker=worker, value=v))
    others = player.worker_mask & ~(1 << space)
    if lifted >= 0:
        others &= ~(1 << lifted)
    if adjacent(state, space) & others:
        return IllegalMoveError("R-B4", msg("kh.refuse.workers_touch", label=label))
    return None


def touching_at_least(fields: int, neighbours: Sequence[int]) -> tuple[int, int, int, int, int, int, int]:
    """Masks of the spaces touching at least 0..6 of the ``fields`` tiles.

    Bit-sliced counting: every field tile adds its neighbour mask into a 3-bit counter per
    space (planes ``ones``, ``twos``, ``fours``), so all 64 spaces are counted at once.
    """
    ones = twos = fours = 0
    while fields:
        low = fields & -fields
        fields ^= low
        add = neighbours[low.bit_length() - 1]
        carry = ones & add
        ones ^= add
        fours |= twos & carry
        twos ^= carry
    return (-1, ones | twos | fours, twos | fours, fours | (twos & ones), fours, fours & (twos | ones), fours & twos)


def placement_masks(state: State, seat: int, lifted: int = -1, can_replace: bool = True) -> list[int]:
    """For worker values 0-5, the mask of spaces of ``seat``'s board where it may stand (R-B1 to R-B4)."""
    player = state.players[seat]
    nbr = state.layout.neighbours
    fields = player.fields
    near_workers = occupied = 0
    holding = [0] * 6  # spaces holding a worker of value v, for each v
    for space, worker in player.workers:
        if space != lifted:
            bit = 1 << space
            near_workers |= nbr[space]
            occupied |= bit
            holding[WORKER_VALUES[worker]] |= bit
    at_least = touching_at_least(fields, nbr)
    exactly = state.options["worker_adjacency"] == "exactly"
    open_spaces = ~fields & ~near_workers
    free = ~occupied
    masks = [0]
    for v in range(1, 6):
        if can_replace:
            free |= holding[v - 1]  # a worker of lower value may be replaced
        touching = at_least[v] & ~at_least[v + 1] if exactly else at_least[v]
        masks.append(touching & open_spaces & free)
    return masks


def legal_spaces(state: State, seat: int, v: int, lifted: int = -1, can_replace: bool = True) -> list[int]:
    """Spaces of ``seat``'s board where a worker of value ``v`` may stand (R-B1 to R-B4)."""
    return list(bits(placement_masks(state, seat, lifted, can_replace)[v]))


def stone_moves(state: State, verb: str, tile: int, *prefix: str, supply: Stones | None = None) -> list[KHMove]:
    """``verb [prefix] L`` taking the tile's crop, or ``L/crop`` substitutes when it is out (R-A4).

    ``supply`` replaces the state's supply (to ask what a second tile would give after a first).
    """
    if supply is None:
        supply = state.supply
    if verb == "harvest" and not prefix:
        table = moves_of(state)
        if supply[state.layout.crops[tile]]:
            return [table.harvest[tile]]
        return [table.harvest_as[tile][c] for c in range(5) if supply[c]]
    label = state.label(tile)
    if supply[state.layout.crops[tile]]:
        return [mv(verb, *prefix, label)]
    return [mv(verb, *prefix, f"{label}/{CROP_KEYS[c]}") for c in range(5) if supply[c]]


# ---------------------------------------------------------------- move generation


def turn_moves(state: State, public: bool = False) -> list[KHMove]:
    """The active player's choices (spec 3, 4): start an action, or end the turn."""
    done = state.actions
    if len(done) >= 2:
        return [END]
    seat = state.active
    moves: list[KHMove] = harvest_start_moves(state, seat) if "A" not in done else []
    if "B" not in done:
        moves += play_moves(state, seat)
    if "C" not in done and "D" not in done:
        moves += buy_moves(state, seat)
    if "D" not in done:
        moves += bid_moves(state, seat, public)
    moves.append(END)
    return moves


PLAY_MEMO_SIZE = 4096
"""How many boards' action-B moves a layout remembers (it forgets them all when full)."""


def play_moves(state: State, seat: int) -> tuple[KHMove, ...]:
    """Action B: every worker beside the board or in town on every space it may take, then removals.

    Remembered per layout by what they depend on: a turn's later decisions, and the next turns
    of a player whose board did not change, find them again.
    """
    player = state.players[seat]
    key = (player.fields, player.workers, player.beside, state.town, state.options["worker_adjacency"])
    memo = moves_of(state).play_memo
    moves = memo.get(key)
    if moves is None:
        if len(memo) >= PLAY_MEMO_SIZE:
            memo.clear()
        moves = memo[key] = tuple(find_play_moves(state, seat))
    return moves


def find_play_moves(state: State, seat: int) -> list[KHMove]:
    """``play_moves`` worked out: for each worker in turn, its legal spaces in board order."""
    player = state.players[seat]
    masks = placement_masks(state, seat)
    table = moves_of(state)
    play = table.play
    moves: list[KHMove] = []
    for worker in player.beside + state.town:
        mask = masks[WORKER_VALUES[worker]]
        row = play[worker]
        while mask:
            low = mask & -mask
            moves.append(row[low.bit_length() - 1])
            mask ^= low
    remove = table.remove
    moves += [remove[s] for s, _ in player.workers]
    return moves


def harvestable_groups(state: State, seat: int) -> int:
    player = state.players[seat]
    candidates = player.fields & ~player.harvested
    if state.options["single_tile_group_harvestable"] == "false":
        candidates &= ~isolated(state, player)
    return candidates


def harvest_start_moves(state: State, seat: int) -> list[KHMove]:
    """``harvest L`` for every tile action A may start with (``L/crop`` where its crop is out)."""
    supply, crops, table = state.supply, state.layout.crops, moves_of(state)
    harvest = table.harvest
    moves: list[KHMove] = []
    tiles = harvestable_groups(state, seat)
    while tiles:
        low = tiles & -tiles
        tiles ^= low
        t = low.bit_length() - 1
        if supply[crops[t]]:
            moves.append(harvest[t])
        else:
            moves += stone_moves(state, "harvest", t)
    return moves


def buy_moves(state: State, seat: int) -> list[KHMove]:
    """Action C: a tile from any warehouse the buyer can pay for exactly (R-C1 to R-C3)."""
    have = state.players[seat].stones
    buy = moves_of(state).buy
    moves: list[KHMove] = []
    for owner, other in enumerate(state.players):
        for tile, bid in other.warehouse:
            if owner == seat or covers(have, bid):
                moves.append(buy[tile])
    return moves


def bid_moves(state: State, seat: int, public: bool = False) -> list[KHMove]:
    """Action D (and the Storekeeper): a land-office tile with its whole bid, one or more stones of any
    crops (R-D1 to R-D3), one move per tile and choice of stones; ``public``: one ``bid L`` pattern per tile."""
    player = state.players[seat]
    stones = player.stones
    if len(player.warehouse) >= 2 or stones == NO_STONES:
        return []
    table = moves_of(state)
    if public:
        return [mv("bid", table.labels[t]) for t in state.office if t >= 0]
    # Each tile's bid moves are made once and shared: rows of moves per (tile, stones) held
    # hundreds of thousands of moves, and the garbage collector's full passes over them took a
    # fifth of a playout's time.
    bids = sub_multisets(stones)
    moves: list[KHMove] = []
    for t in state.office:
        if t >= 0:
            moves += map(table.bid[t].__getitem__, bids)
    return moves


def office_moves(state: State, verb: str) -> list[KHMove]:
    return [mv(verb, state.label(t)) for t in state.office_tiles]


def tile_pairs(state: State, tiles: int, verb: str) -> list[KHMove]:
    """``verb L`` and ``verb L1 L2`` for one or two of ``tiles`` (in board order)."""
    listed = list(bits(tiles))
    moves = [mv(verb, state.label(t)) for t in listed]
    moves += [mv(verb, state.label(a), state.label(b)) for a, b in combinations(listed, 2)]
    return moves


def casual_moves(state: State, tiles: int) -> list[KHMove]:
    """Casual Labourer: one stone from each of up to two adjacent unharvested tiles (R-A4 substitutes)."""
    moves = [m for t in bits(tiles) for m in stone_moves(state, "take", t)]
    for a, b in combinations(list(bits(tiles)), 2):
        for first in stone_moves(state, "take", a):
            after = sub_stones(state.supply, one_stone(take_crop(state, a, first.args[0])))
            moves += [mv("take", first.args[0], second.args[0]) for second in stone_moves(state, "take", b, supply=after)]
    return moves


@cache
def day_labourer_moves(counts: tuple[int, ...]) -> tuple[KHMove, ...]:
    """Day Labourer: two stones of any crops (one if the supply has only one), given at most 2 per crop."""
    available = [c for c in Crop for _ in range(counts[c])]
    pairs = sorted(set(combinations(available, 2))) if len(available) >= 2 else [(c,) for c in available]
    return tuple(mv("gain", *(CROP_KEYS[c] for c in pair)) for pair in pairs)


def ability_moves(state: State, step: Step, public: bool = False) -> list[KHMove]:
    """The choices a worker's ability offers when placed on ``step.space`` (spec 5)."""
    seat, worker, space = step.player, step.worker, step.space
    player = state.player(seat)
    near = adjacent(state, space)
    moves: list[KHMove] = []
    if worker == "A":
        moves = [m for t in bits(near & player.fields & ~player.harvested) for m in stone_moves(state, "take", t)]
    elif worker == "B":
        moves = casual_moves(state, near & player.fields & ~player.harvested)
    elif worker == "C":
        supply = state.supply
        moves = list(day_labourer_moves((min(2, supply[0]), min(2, supply[1]), min(2, supply[2]),
                                         min(2, supply[3]), min(2, supply[4]))))
    elif worker == "D":
        moves = tile_pairs(state, near & player.harvested, "flip")
    elif worker in "EG":
        extra = 1 if worker == "E" else 0
        have = sum(player.stones)
        moves = [
            mv("buy", state.label(tile))
            for owner, other in enumerate(state.players) if owner != seat
            for tile, bid in other.warehouse if have >= sum(bid) + extra
        ]
    elif worker == "F":
        return [mv("fallow", state.label(t)) for t in bits(player.fields)]
    elif worker == "H":
        moves = bid_moves(state, seat, public)
    elif worker == "I":
        if sum(player.stones) >= 3:
            moves = [
                mv("seize", state.label(t))
                for owner, other in enumerate(state.players) if owner != seat
                for t in bits(isolated(state, other))
            ]
    elif worker == "J":
        moves = [mv("reuse", state.label(s)) for s, w in player.workers if w != "J"]
    elif worker == "K":
        moves = [mv("trade")] if in_bag_fields(state) else office_moves(state, "take")
    elif worker == "L":
        moves = office_moves(state, "take")
    return moves + [DECLINE]


def event_moves(state: State, step: Step) -> list[KHMove]:
    """One player's choices while an event is resolved (spec 6.2)."""
    seat, letter = step.player, step.event
    player = state.player(seat)
    unharvested = player.fields & ~player.harvested
    moves: list[KHMove] = []
    labels = state.layout.labels
    if letter == "M" and in_bag_fields(state):
        moves = [mv("fallow", labels[t]) for t in bits(player.fields)]
    elif letter == "N":
        targets = [t for owner, other in enumerate(state.players) if owner != seat for t in bits(isolated(state, other))]
        moves = swap_moves(state, player.fields, targets)
    elif letter == "P" and unharvested:
        counts = [(unharvested & mask).bit_count() for mask in state.layout.crop_masks]
        most, supply = max(counts), state.supply
        best = [c for c in range(5) if counts[c] == most and supply[c]]
        choices = best or [c for c in range(5) if supply[c]]
        moves = [mv("gain", CROP_KEYS[c]) for c in choices]
    elif letter == "Q" and sum(player.stones) >= 2:
        moves = [mv("dip")] if in_bag_fields(state) else office_moves(state, "buy")
    elif letter == "R":
        moves = tile_pairs(state, player.harvested, "flip")
    elif letter == "T" and sum(player.stones) >= 3:
        moves = office_moves(state, "take")
    elif letter == "U":
        moves = swap_moves(state, player.fields, state.office_tiles)
    elif letter == "V":
        moves = [m for t in bits(isolated(state, player) & ~player.harvested) for m in stone_moves(state, "harvest", t)]
    elif letter == "X":
        for space, worker in player.workers:
            spaces = legal_spaces(state, seat, value(worker), lifted=space)
            moves += [mv("move", labels[space], labels[s]) for s in spaces if s != space]
    elif letter == "Y":
        moves = [mv("remove", state.label(s)) for s, _ in player.workers]
    return moves + [DECLINE]


def swap_moves(state: State, own: int, targets: list[int]) -> list[KHMove]:
    """``swap A B`` for each of the ``own`` tiles A and each of the ``targets`` B."""
    table = moves_of(state)
    moves: list[KHMove] = []
    for tile in bits(own):
        row = table.swap(tile)
        moves += [row[t] for t in targets]
    return moves


def gift_moves(state: State, step: Step) -> list[KHMove]:
    """Gift (O), spec 6.4: give a board tile, or deal with the tile just received."""
    player = state.player(step.player)
    if step.purpose == "give":  # from the board, never the tile just kept (that would be forwarding)
        return [mv("give", state.label(t)) for t in bits(player.fields & ~step.mask)]
    final = step.n >= len(state.players)
    no_forward = final or (state.options["gift_forwarding"] == "not_last_in_order" and step.n == len(state.players) - 1)
    return ([] if no_forward else [mv("forward")]) + [mv("keep"), mv("discard")]


def step_moves(state: State, step: Step, public: bool = False) -> list[KHMove]:
    kind = step.kind
    player = state.player(step.player) if step.player >= 0 else None
    if kind == "harvest":
        return [m for t in bits(step.mask) for m in stone_moves(state, "harvest", t)] + [DONE]
    if kind == "bid_more":
        return bid_moves(state, step.player, public) + [DONE]
    if kind == "buy_more":
        return buy_moves(state, step.player) + [DONE]
    if kind == "pay":
        if public:
            return [mv("pay")] if sum(state.player(step.player).stones) >= step.n else []
        return list(payments(state.player(step.player).stones, step.n))
    if kind == "bonus":
        can_replace = state.options["bonus_replacement_can_replace_lower"] == "true"
        spaces = legal_spaces(state, step.player, value(step.worker), can_replace=can_replace)
        return [mv("bonus", state.label(s)) for s in spaces] + [DECLINE]
    if kind == "ability":
        return ability_moves(state, step, public)
    if kind == "trader_choice":
        return [mv("keep"), mv("discard")]
    if kind == "replacement_choice":
        assert player is not None
        return [mv("fallow", state.label(t)) for t in bits(player.fields)] + [mv("discard")]
    if kind == "event":
        return event_moves(state, step)
    if kind == "gift":
        return gift_moves(state, step)
    if kind == "windfall":
        supply = state.supply
        return [mv("gain", CROP_KEYS[c]) for c in range(5) if supply[c]]
    raise AssertionError(f"no moves for step {kind}")


def chance_outcomes(state: State) -> list[tuple[KHMove, int]]:
    """Every result of the pending chance step with its weight."""
    step = state.top
    assert step is not None and step.kind in CHANCE_KINDS
    n = len(state.players)
    if step.kind == "first":
        return [(mv("first", str(seat + 1)), 1) for seat in range(n)]
    if step.kind == "pair":
        pairs = state.layout.start_pairs
        return [(mv("draw", state.label(pairs[i][0])), 1) for i in range(len(pairs)) if state.setup_pairs >> i & 1]
    if step.kind == "crops":
        if n == 4:
            return [(mv("crops", a.key, b.key), 1) for a, b in combinations(Crop, 2)]
        return [(mv("crops", c.key), 1) for c in Crop]
    if step.kind == "stone":
        return [(mv("stone", CROP_KEYS[c]), k) for c, k in enumerate(state.setup_bag) if k]
    if step.kind == "remove_event":
        return [(mv("removed", e), 1) for e in EVENT_LETTERS if e not in state.removed]
    # a bag draw: every field tile and every event inside is equally likely
    table = moves_of(state)
    outcomes = [(table.draw[t], 1) for t in bits(state.bag_fields)]
    return outcomes + [(table.event[e], 1) for e in state.bag_events]


def sample_chance(state: State, rng: random.Random) -> KHMove:
    """A bag draw picked directly (the r-th tile or event), else a weighted pick of the outcomes.

    Draws the same number as ``weighted_choice`` over ``chance_outcomes`` and maps it to the
    same outcome, without listing the bag.
    """
    step = state.top
    if step is None or step.kind != "draw":
        return weighted_choice(rng, chance_outcomes(state))
    fields = state.bag_fields
    count = fields.bit_count()
    pick = rng.randrange(count + len(state.bag_events))
    table = moves_of(state)
    if pick >= count:
        return table.event[state.bag_events[pick - count]]
    skipped = 0
    while pick >= (in_byte := (fields & 0xFF).bit_count()):  # skip 8 spaces at a time
        pick -= in_byte
        fields >>= 8
        skipped += 8
    for _ in range(pick):
        fields &= fields - 1  # drop the lowest tile
    return table.draw[skipped + (fields & -fields).bit_length() - 1]


def legal_moves(state: State) -> list[KHMove]:
    """Every legal move; computed once per (immutable) state."""
    cached: list[KHMove] | None = state.__dict__.get(MOVES_CACHE)
    if cached is None:
        cached = state.__dict__[MOVES_CACHE] = generate(state)  # a fresh list, never handed out
    return cached.copy()


def generate(state: State, public: bool = False) -> list[KHMove]:
    """Every legal move; ``public``: a bid's or payment's choices of stones as one pattern (``bid L``, ``pay``)."""
    if state.over:
        return []
    stack = state.stack
    if not stack:
        return turn_moves(state, public)
    top = stack[-1]
    if top.kind in CHANCE_KINDS:
        return [move for move, _ in chance_outcomes(state)]
    return step_moves(state, top, public)


# ---------------------------------------------------------------- validation


STEP_RULES: dict[str, str] = {
    "harvest": "R-A2", "bid_more": "R-D2", "buy_more": "R-C1", "pay": "R-C3", "bonus": "R-X2", "ability": "R-B7",
    "trader_choice": "R-B7", "replacement_choice": "R-EV5", "event": "R-EV3", "gift": "R-EV2", "windfall": "R-EV2",
}
"""The rule behind each decision; a move that does not answer it is refused with what it asks (``kh.step.*``)."""
ACTION_OF = {"harvest": "A", "play": "B", "remove": "B", "buy": "C", "bid": "D"}


def validate(state: State, move: KHMove) -> IllegalMoveError | None:
    """The reason ``move`` is illegal now, naming the rule, or ``None``."""
    text = str(move)
    who = actor(state)
    if who == TERMINAL:
        return IllegalMoveError("R-END3", msg("kh.refuse.game_over"), text)
    if move.is_chance != (who == CHANCE):
        if who == CHANCE:
            return IllegalMoveError("CHANCE", msg("kh.refuse.drawing"), text)
        return IllegalMoveError("CHANCE", msg("kh.refuse.draws_by_companion"), text)
    if state.top is None:  # the turn: turn_error checks every condition (it agrees with turn_moves)
        try:
            error = turn_error(state, move)
        except IllegalMoveError as exc:  # an unknown label inside a move
            error = exc
        return None if error is None else IllegalMoveError(error.rule, error.text, text)
    if who == CHANCE:
        if move in legal_moves(state):
            return None
        return IllegalMoveError("CHANCE", msg("kh.refuse.not_an_outcome", move=text), text)
    top = state.top
    if top.kind == "pay" and move.verb == "pay":
        return pay_error(state, top, move)
    if move in legal_moves(state):
        return None
    if move.verb == "add":
        return IllegalMoveError("R-D4", add_error().text, text)
    if move.verb == "bid" and (top.kind == "bid_more" or (top.kind == "ability" and top.worker == "H")):
        try:
            error = bid_error(state, top.player, move)
        except IllegalMoveError as exc:
            error = exc
        if error is not None:
            return IllegalMoveError(error.rule, error.text, text)
    return IllegalMoveError(STEP_RULES[top.kind], step_sentence(top.kind), text)


def add_error() -> IllegalMoveError:
    return IllegalMoveError("R-D4", msg("kh.refuse.bid_fixed"))


def pay_error(state: State, step: Step, move: KHMove) -> IllegalMoveError | None:
    """A payment is exactly the ``step.n`` stones owed, from behind the payer's screen."""
    text = str(move)
    if len(move.args) != step.n:
        pattern = " ".join(["pay", *["crop"] * step.n])
        return IllegalMoveError("R-C3", msg("kh.refuse.pay_exactly", n=step.n, pattern=pattern), text)
    if not covers(state.player(step.player).stones, stones_of(move.args)):
        return IllegalMoveError("R-C3", msg("kh.refuse.screen_lacks", stones=stones_words(stones_of(move.args))), text)
    return None


LABEL_RULE = {"harvest": "R-A1", "play": "R-B1", "remove": "R-B8", "buy": "R-C4", "bid": "R-D2"}


def space_of(state: State, label: str, verb: str) -> int:
    index = state.layout.index.get(label)
    if index is None:
        raise IllegalMoveError(LABEL_RULE[verb], msg("kh.refuse.no_space", label=label, board=state.layout.name))
    return index


def turn_error(state: State, move: KHMove) -> IllegalMoveError | None:
    """Precise reasons for refusing an action on the active player's turn (spec 3, 4)."""
    verb = move.verb
    if verb == "end":
        return None
    if verb == "add":
        return add_error()
    action = ACTION_OF.get(verb)
    if action is None:
        return IllegalMoveError("R-T1", msg("kh.refuse.not_an_action", verb=verb))
    done = state.actions
    if action in done:
        if action == "B":
            return IllegalMoveError("R-T3", msg("kh.refuse.action_b_used"))
        return IllegalMoveError("R-T1", msg("kh.refuse.action_used", action=action))
    if len(done) >= 2:
        return IllegalMoveError("R-T1", msg("kh.refuse.two_actions", first=done[0], second=done[1]))
    if action == "C" and "D" in done:
        return IllegalMoveError("R-T2", msg("kh.refuse.buy_after_bid"))
    seat = state.active
    player = state.player(seat)
    if verb == "harvest":
        label, substitute = label_crop(move.args[0])
        tile = space_of(state, label, verb)
        return harvest_error(state, seat, tile, substitute, harvestable_groups(state, seat))
    if verb == "play":
        worker, space = move.args[0], space_of(state, move.args[1], verb)
        if worker in LABOURERS and worker not in player.beside:
            return IllegalMoveError("R-B6", msg("kh.refuse.labourer_not_beside", worker=worker, name=worker_name(worker)))
        if worker not in LABOURERS and worker not in state.town:
            return IllegalMoveError("R-B6", msg("kh.refuse.townsfolk_not_in_town", worker=worker, name=worker_name(worker)))
        return placement_error(state, seat, worker, space)
    if verb == "remove":
        space = space_of(state, move.args[0], verb)
        if player.worker_at(space) is None:
            return IllegalMoveError("R-B8", msg("kh.refuse.no_worker_to_remove", label=move.args[0]))
        return None
    if verb == "buy":
        tile = space_of(state, move.args[0], verb)
        owner = state.warehouse_owner(tile)
        if owner < 0:
            return IllegalMoveError("R-C1", msg("kh.refuse.not_in_warehouse", label=move.args[0]))
        bid = dict(state.player(owner).warehouse)[tile]
        if owner != seat and not covers(player.stones, bid):
            return IllegalMoveError("R-C3", msg("kh.refuse.cannot_match", label=move.args[0],
                                                player=state.player(owner).name, stones=stones_words(bid)))
        return None
    return bid_error(state, seat, move)


def bid_error(state: State, seat: int, move: KHMove) -> IllegalMoveError | None:
    """Why ``bid L s...`` is refused (R-D1 to R-D3): the public conditions first, the screen last."""
    tile = space_of(state, move.args[0], "bid")
    player = state.player(seat)
    if len(player.warehouse) >= 2:
        return IllegalMoveError("R-D1", msg("kh.refuse.warehouse_full", n=2))
    if tile not in state.office:
        return IllegalMoveError("R-D2", msg("kh.refuse.not_in_office", label=move.args[0]))
    if len(move.args) < 2:
        return IllegalMoveError("R-D3", msg("kh.refuse.bid_names_stones", example=f"bid {move.args[0]} wheat wine"))
    if not covers(player.stones, stones_of(move.args[1:])):
        return IllegalMoveError("R-D3", msg("kh.refuse.bid_screen_lacks", stones=stones_words(stones_of(move.args[1:]))))
    return None


def harvest_error(state: State, seat: int, tile: int, substitute: Crop | None, allowed: int) -> IllegalMoveError | None:
    player = state.player(seat)
    label = state.label(tile)
    if not player.fields >> tile & 1:
        return IllegalMoveError("R-A1", msg("kh.refuse.not_your_field", label=label))
    if player.harvested >> tile & 1:
        return IllegalMoveError("R-A2", msg("kh.refuse.already_harvested", label=label))
    if not allowed >> tile & 1:
        if state.options["single_tile_group_harvestable"] == "false" and isolated(state, player) >> tile & 1:
            return IllegalMoveError("R-A6", msg("kh.refuse.single_tile", label=label, n=2))
        return IllegalMoveError("R-A1", msg("kh.refuse.not_in_group", label=label))
    crop = state.layout.crops[tile]
    if state.supply[crop] and substitute is not None:
        return IllegalMoveError("R-A4", msg("kh.refuse.supply_has", label=label, crop=crop_name(crop)))
    if not state.supply[crop]:
        if substitute is None:
            return IllegalMoveError("R-A4", msg("kh.refuse.supply_out", crop=crop_name(crop), example=f"{label}/wheat"))
        if not state.supply[substitute]:
            return IllegalMoveError("R-A4", msg("kh.refuse.supply_out_too", crop=crop_name(substitute)))
    return None


# ---------------------------------------------------------------- effects


def take_crop(state: State, tile: int, arg: str) -> Crop:
    """The crop a ``L[/crop]`` argument takes from the supply."""
    _, substitute = label_crop(arg)
    return substitute if substitute is not None else state.layout.crops[tile]


def gain(state: State, seat: int, crop: Crop | int, count: int = 1) -> State:
    """Move stones from the supply behind ``seat``'s screen."""
    stones = one_stone(crop, count)
    player = state.player(seat)
    state = evolve(state, supply=sub_stones(state.supply, stones))
    return state.with_player(seat, evolve(player, stones=add_stones(player.stones, stones)))


def transfer(state: State, payer: int, payee: int, stones: Stones) -> State:
    """Stones from ``payer`` to ``payee`` (``-1`` = the supply)."""
    p = state.player(payer)
    state = state.with_player(payer, evolve(p, stones=sub_stones(p.stones, stones)))
    if payee < 0:
        return evolve(state, supply=add_stones(state.supply, stones))
    q = state.player(payee)
    return state.with_player(payee, evolve(q, stones=add_stones(q.stones, stones)))


def harvest_tile(state: State, seat: int, tile: int, arg: str) -> State:
    """R-A3/R-A4: one stone of the tile's crop and flip it, or a substitute and leave it unflipped."""
    _, substitute = label_crop(arg)
    if substitute is not None:
        return gain(state, seat, substitute)
    state = gain(state, seat, state.layout.crops[tile])
    player = state.player(seat)
    return state.with_player(seat, evolve(player, harvested=player.harvested | 1 << tile))


def return_worker(state: State, seat: int, worker: str) -> State:
    """A worker leaves play: a labourer goes beside its owner's board, a townsfolk to the town board."""
    if worker in LABOURERS:
        player = state.player(seat)
        beside = "".join(sorted(player.beside + worker))
        return state.with_player(seat, evolve(player, beside=beside))
    return evolve(state, town="".join(sorted(state.town + worker)))


def place_worker(state: State, seat: int, worker: str, space: int) -> State:
    """Put a worker (already taken from its supply) on ``space``; replace a lower one (R-B6); fire the ability (R-B7)."""
    player = state.player(seat)
    occupant = player.worker_at(space)
    if occupant is not None:
        state = state.with_player(seat, player.without_worker(space))
        state = return_worker(state, seat, occupant)
        player = state.player(seat)
    state = state.with_player(seat, player.with_worker(space, worker))
    return state.push(shared_step("ability", player=seat, worker=worker, space=space))


def take_from_supply(state: State, seat: int, worker: str) -> State:
    if worker in LABOURERS:
        player = state.player(seat)
        return state.with_player(seat, evolve(player, beside=player.beside.replace(worker, "")))
    return evolve(state, town=state.town.replace(worker, ""))


def arrive(state: State, seat: int, tile: int) -> State:
    """A field tile arrives on its space of ``seat``'s board; a worker there is displaced (R-X1, R-X2)."""
    player = state.player(seat).with_field(tile)
    worker = player.worker_at(tile)
    if worker is None:
        return state.with_player(seat, player)
    state = state.with_player(seat, player.without_worker(tile))
    return state.push(shared_step("bonus", player=seat, worker=worker))


def remove_field(state: State, seat: int, tile: int) -> State:
    return state.with_player(seat, state.player(seat).without_field(tile))


def to_fallow(state: State, tile: int) -> State:
    return evolve(state, fallow=state.fallow | 1 << tile, in_hand=state.in_hand & ~(1 << tile))


def take_office(state: State, tile: int) -> State:
    return evolve(state, office=tuple(-1 if t == tile else t for t in state.office))


def refill(state: State, context: str | None = None) -> State:
    """Push a land-office refill draw (R-D5, R-D6)."""
    return state.push(shared_step("draw", context=context or draw_context(state), purpose="office"))


def apply_turn(state: State, move: KHMove) -> State:
    """Start an action (A-D) or end the turn."""
    seat = state.active
    verb = move.verb
    if verb == "end":
        return end_turn(state)
    state = evolve(state, actions=state.actions + ACTION_OF[verb])
    if verb == "harvest":
        tile = state.layout.space(label_crop(move.args[0])[0])
        player = state.player(seat)
        group = group_of(tile, player.fields, state.layout.neighbours)
        state = state.push(Step("harvest", player=seat, mask=group & ~player.harvested & ~(1 << tile)))
        return harvest_tile(state, seat, tile, move.args[0])
    if verb == "play":
        worker, space = move.args[0], state.layout.space(move.args[1])
        return place_worker(take_from_supply(state, seat, worker), seat, worker, space)
    if verb == "remove":
        space = state.layout.space(move.args[0])
        removed = state.player(seat).worker_at(space)
        assert removed is not None
        return return_worker(state.with_player(seat, state.player(seat).without_worker(space)), seat, removed)
    if verb == "buy":
        return buy(state.push(shared_step("buy_more", player=seat)), seat, state.layout.space(move.args[0]))
    return start_bid(state, seat, move, more=True)


def buy(state: State, seat: int, tile: int) -> State:
    """Action C for one tile: pay (R-C2, R-C3), then the tile goes onto the buyer's board (R-C4, R-C5)."""
    owner = state.warehouse_owner(tile)
    holder = state.player(owner)
    bid = dict(holder.warehouse)[tile]
    state = state.with_player(owner, evolve(holder, warehouse=tuple(w for w in holder.warehouse if w[0] != tile)))
    if owner == seat:
        state = evolve(state, supply=add_stones(state.supply, bid))
    else:
        state = transfer(state, seat, owner, bid)
        holder = state.player(owner)
        state = state.with_player(owner, evolve(holder, stones=add_stones(holder.stones, bid)))
    return arrive(state, seat, tile)


def start_bid(state: State, seat: int, move: KHMove, more: bool) -> State:
    """Take a land-office tile into the warehouse with its whole bid (R-D2, R-D3); refill at once (R-D5)."""
    tile = state.layout.space(move.args[0])
    player = state.player(seat)
    bid = stones_of(move.args[1:])
    player = evolve(player, stones=sub_stones(player.stones, bid), warehouse=(*player.warehouse, (tile, bid)))
    state = take_office(state.with_player(seat, player), tile)
    if more and len(player.warehouse) < 2:
        state = state.push(shared_step("bid_more", player=seat))
    return refill(state)


def end_turn(state: State) -> State:
    """Pass the bag to the next player; in the final rounds count down (R-END3)."""
    if state.end_trigger >= 0:
        if state.turns_left == 0:
            return evolve(state, over=True, stack=())
        state = evolve(state, turns_left=state.turns_left - 1)
    return evolve(state, active=state.next_seat(state.active), actions="")


def apply_step(state: State, step: Step, move: KHMove) -> State:
    """Answer the top step with ``move``."""
    handler = STEP_HANDLERS[step.kind]
    return handler(state, step, move)


def on_harvest(state: State, step: Step, move: KHMove) -> State:
    state = state.pop()
    if move.verb == "done":
        return state
    tile = state.layout.space(label_crop(move.args[0])[0])
    state = state.push(replace(step, mask=step.mask & ~(1 << tile)))
    return harvest_tile(state, step.player, tile, move.args[0])


def on_bid_more(state: State, step: Step, move: KHMove) -> State:
    state = state.pop()
    return state if move.verb == "done" else start_bid(state, step.player, move, more=False)


def on_buy_more(state: State, step: Step, move: KHMove) -> State:
    state = state.pop()
    return state if move.verb == "done" else buy(state, step.player, state.layout.space(move.args[0]))


def on_pay(state: State, step: Step, move: KHMove) -> State:
    """The whole payment at once: exactly the ``step.n`` stones owed, to the payee or the supply."""
    return transfer(state.pop(), step.player, step.target, stones_of(move.args))


def on_bonus(state: State, step: Step, move: KHMove) -> State:
    """R-X2/R-X3: re-place the displaced worker (its ability fires again) or return it to its supply."""
    state = state.pop()
    if move.verb == "decline":
        return return_worker(state, step.player, step.worker)
    return place_worker(state, step.player, step.worker, state.layout.space(move.args[0]))


def on_ability(state: State, step: Step, move: KHMove) -> State:
    """Carry out a worker's ability (spec 5)."""
    state = state.pop()
    seat, worker = step.player, step.worker
    verb, args = move.verb, move.args
    if verb == "decline":
        return state
    if verb == "take" and worker in "AB":
        for arg in args:
            tile = state.layout.space(label_crop(arg)[0])
            state = gain(state, seat, take_crop(state, tile, arg))
        return state
    if verb == "gain":
        for arg in args:
            state = gain(state, seat, CROP_BY_KEY[arg])
        return state
    if verb == "flip":
        player = state.player(seat)
        mask = sum(1 << state.layout.space(a) for a in args)
        return state.with_player(seat, evolve(player, harvested=player.harvested & ~mask))
    if verb == "buy":  # Skilled Labourer (E) or Merchant (G)
        tile = state.layout.space(args[0])
        owner = state.warehouse_owner(tile)
        bid = dict(state.player(owner).warehouse)[tile]
        price = sum(bid) + (1 if worker == "E" else 0)
        payee = owner if state.options["ability_purchase_payee"] == "owner" else -1
        state = state.push(shared_step("transfer", player=seat, target=owner, space=tile))
        return state.push(shared_step("pay", player=seat, n=price, target=payee))
    if verb == "fallow":
        tile = state.layout.space(args[0])
        return to_fallow(remove_field(state, seat, tile), tile)
    if verb == "bid":
        return start_bid(state, seat, move, more=False)
    if verb == "seize":
        tile = state.layout.space(args[0])
        victim = state.board_owner(tile)
        state = state.push(shared_step("seize", player=seat, target=victim, space=tile))
        return state.push(shared_step("pay", player=seat, n=3, target=victim))
    if verb == "reuse":
        space = state.layout.space(args[0])
        target = state.player(seat).worker_at(space)
        assert target is not None
        if state.options["lawyer_mode"] == "lift_and_replace":
            state = state.with_player(seat, state.player(seat).without_worker(space))
            return state.push(shared_step("bonus", player=seat, worker=target))
        return state.push(shared_step("ability", player=seat, worker=target, space=space))
    if verb == "trade":
        return state.push(shared_step("draw", player=seat, context=TRADER, purpose="trader"))
    if verb == "take":  # Trader without field tiles in the bag, or Benefactor: a land-office tile
        tile = state.layout.space(args[0])
        state = take_office(state, tile)
        if worker == "K":
            state = evolve(state, in_hand=state.in_hand | 1 << tile)
            state = state.push(shared_step("trader_choice", player=seat, space=tile))
        else:
            state = arrive(state, seat, tile)
        return refill(state)  # R-D5: the space is refilled at once, before a displaced worker is re-placed
    raise AssertionError(f"ability {worker} cannot {verb}")


def on_trader_choice(state: State, step: Step, move: KHMove) -> State:
    state = state.pop()
    if move.verb == "discard":
        return to_fallow(state, step.space)
    return arrive(evolve(state, in_hand=state.in_hand & ~(1 << step.space)), step.player, step.space)


def on_replacement_choice(state: State, step: Step, move: KHMove) -> State:
    """Replacement (W): keep the drawn tile by sending a board tile to the fallow area, or discard it."""
    state = state.pop()
    if move.verb == "discard":
        return to_fallow(state, step.space)
    old = state.layout.space(move.args[0])
    state = to_fallow(remove_field(state, step.player, old), old)
    return arrive(evolve(state, in_hand=state.in_hand & ~(1 << step.space)), step.player, step.space)


def on_event(state: State, step: Step, move: KHMove) -> State:
    """One player's part of an event (spec 6.2)."""
    state = state.pop()
    seat, letter, verb, args = step.player, step.event, move.verb, move.args
    if verb == "decline":
        return state
    space = state.layout.space
    if letter == "M":  # Exchange: fallow one tile, draw and place a replacement
        tile = space(args[0])
        state = to_fallow(remove_field(state, seat, tile), tile)
        return state.push(shared_step("draw", player=seat, context=EVENT, purpose="place"))
    if letter in "NU":  # Swap with an opponent's isolated tile / Land Consolidation with the land office
        own, other = space(args[0]), space(args[1])
        state = remove_field(state, seat, own)
        if letter == "U":
            state = evolve(state, office=tuple(own if t == other else t for t in state.office))
            return arrive(state, seat, other)
        owner = state.board_owner(other)
        state = remove_field(state, owner, other)
        return arrive(arrive(state, owner, own), seat, other)
    if letter in "PZ" or verb == "gain":
        return gain(state, seat, CROP_BY_KEY[args[0]])
    if letter == "Q":  # Lucky Dip: pay 2 into the supply, then a drawn (or land-office) tile
        if verb == "dip":
            state = state.push(shared_step("draw", player=seat, context=EVENT, purpose="place"))
        else:
            state = state.push(shared_step("office_take", player=seat, space=space(args[0])))
        return state.push(shared_step("pay", player=seat, n=2, target=-1))
    if letter == "R":
        player = state.player(seat)
        mask = sum(1 << space(a) for a in args)
        return state.with_player(seat, evolve(player, harvested=player.harvested & ~mask))
    if letter == "T":  # Quick Sale: 3 stones into the supply for a land-office tile; refill afterwards
        state = evolve(state, quick_sale_taken=state.quick_sale_taken + 1)
        state = state.push(shared_step("office_take", player=seat, space=space(args[0])))
        return state.push(shared_step("pay", player=seat, n=3, target=-1))
    if letter == "V":
        return harvest_tile(state, seat, space(label_crop(args[0])[0]), args[0])
    if letter == "X":  # Migrant Worker: move without triggering the ability
        old, new = space(args[0]), space(args[1])
        player = state.player(seat)
        worker = player.worker_at(old)
        assert worker is not None
        state = state.with_player(seat, player.without_worker(old))
        occupant = state.player(seat).worker_at(new)
        if occupant is not None:
            state = return_worker(state.with_player(seat, state.player(seat).without_worker(new)), seat, occupant)
        return state.with_player(seat, state.player(seat).with_worker(new, worker))
    if letter == "Y":
        old = space(args[0])
        worker = state.player(seat).worker_at(old)
        assert worker is not None
        return return_worker(state.with_player(seat, state.player(seat).without_worker(old)), seat, worker)
    raise AssertionError(f"event {letter} cannot {verb}")


def on_gift(state: State, step: Step, move: KHMove) -> State:
    """Gift (O), spec 6.4. ``n`` is the chain position: 0 = drawer giving ... N = drawer receiving last."""
    state = state.pop()
    seat, n = step.player, len(state.players)
    if move.verb == "give":
        tile = state.layout.space(move.args[0])
        state = remove_field(state, seat, tile)
        return pass_gift(evolve(state, in_hand=state.in_hand | 1 << tile), step, tile)
    if move.verb == "forward":
        return pass_gift(state, step, step.space)
    final = step.n >= n
    kept = 1 << step.space if move.verb == "keep" else 0
    then_give = [] if final else [Step("gift", player=seat, n=step.n, purpose="give", event="O", mask=kept)]
    state = state.push(*then_give)
    if move.verb == "discard":
        return to_fallow(state, step.space)
    return arrive(evolve(state, in_hand=state.in_hand & ~(1 << step.space)), seat, step.space)


def pass_gift(state: State, step: Step, tile: int) -> State:
    """Hand ``tile`` (or nothing, -1) to the next player in the chain."""
    receiver = state.next_seat(step.player)
    nxt = Step("gift", player=receiver, n=step.n + 1, space=tile, purpose="receive" if tile >= 0 else "give",
               event="O")
    return state.push(nxt)


def on_windfall(state: State, step: Step, move: KHMove) -> State:
    return gain(state.pop(), step.target, CROP_BY_KEY[move.args[0]])


STEP_HANDLERS: dict[str, Callable[[State, Step, KHMove], State]] = {
    "harvest": on_harvest,
    "bid_more": on_bid_more,
    "buy_more": on_buy_more,
    "pay": on_pay,
    "bonus": on_bonus,
    "ability": on_ability,
    "trader_choice": on_trader_choice,
    "replacement_choice": on_replacement_choice,
    "event": on_event,
    "gift": on_gift,
    "windfall": on_windfall,
}


# ---------------------------------------------------------------- chance and automatic steps


def apply_chance(state: State, step: Step, move: KHMove) -> State:
    kind = step.kind
    n = len(state.players)
    if kind == "first":
        return evolve(state.pop(), active=int(move.args[0]) - 1)
    if kind == "pair":
        tile = state.layout.space(move.args[0])
        index = next(i for i, pair in enumerate(state.layout.start_pairs) if pair[0] == tile)
        a, b = state.layout.start_pairs[index]
        state = evolve(state.pop(), setup_pairs=state.setup_pairs & ~(1 << index))
        player = state.player(step.player).with_field(a).with_field(b)
        return state.with_player(step.player, player)
    if kind == "crops":
        chosen = [CROP_BY_KEY[a] for a in move.args]
        state = state.pop()
        if n == 2:  # one stone of each crop, two of the fifth: each player gets one of the fifth
            for seat in range(n):
                state = gain(state, seat, chosen[0])
            bag = tuple(0 if c == chosen[0] else 1 for c in range(5))
        elif n == 3:
            bag = tuple(1 if c == chosen[0] else 2 for c in range(5))
        else:
            bag = tuple(3 if c in chosen else 2 for c in range(5))
        setup_bag: Stones = (bag[0], bag[1], bag[2], bag[3], bag[4])
        return evolve(state, supply=sub_stones(state.supply, setup_bag), setup_bag=setup_bag)
    if kind == "stone":
        crop = CROP_BY_KEY[move.args[0]]
        stone = one_stone(crop)
        state = evolve(state.pop(), setup_bag=sub_stones(state.setup_bag, stone))
        player = state.player(step.player)
        return state.with_player(step.player, evolve(player, stones=add_stones(player.stones, stone)))
    if kind == "remove_event":
        return evolve(state.pop(), removed=state.removed + move.args[0])
    return apply_draw(state, step, move)


def apply_draw(state: State, step: Step, move: KHMove) -> State:
    """One draw from the bag (spec 6.5): a field tile ends the draw; an event is placed, set aside or ignored."""
    if move.verb == "event":
        letter = move.args[0]
        state = evolve(state, bag_events=state.bag_events.replace(letter, "", 1))
        context = step.context if in_bag_fields(state) or step.context == NORMAL else NORMAL
        if len(state.track) >= TRACK_SPACES:  # R-END4: ignored after the 10th
            if state.options["ignored_event_disposal"] == "back_to_bag":
                return evolve(state, bag_events=state.bag_events + letter)
            return evolve(state, ignored=state.ignored + letter)
        if context == NORMAL:
            return place_event(state, letter)
        return evolve(state, set_aside=state.set_aside + letter)  # announced, set aside (DE 371, 493, 583)
    tile = state.layout.space(move.args[0])
    state = evolve(state.pop(), bag_fields=state.bag_fields & ~(1 << tile),
                    bag_events=state.bag_events + state.set_aside, set_aside="")
    purpose = step.purpose
    if purpose == "office":
        slot = state.office.index(-1)
        office = state.office[:slot] + (tile,) + state.office[slot + 1:]
        state = evolve(state, office=office)
        if step.context == NORMAL and -1 in office:
            state = state.push(step)
        return state
    if purpose == "place":
        return arrive(state, step.player, tile)
    state = evolve(state, in_hand=state.in_hand | 1 << tile)
    kind = "trader_choice" if purpose == "trader" else "replacement_choice"
    return state.push(shared_step(kind, player=step.player, space=tile))


def place_event(state: State, letter: str) -> State:
    """R-EV1: the event goes on the next free space and is resolved at once, player by player."""
    state = evolve(state, track=state.track + letter)
    position = len(state.track)
    if position == TRACK_SPACES:  # R-END1
        extra = 2 * len(state.players) - (1 if state.options["final_extra_turns_for_trigger_player"] == "1" else 0)
        state = evolve(state, end_trigger=state.active, turns_left=extra)
    check = position == SEVENTH_SPACE
    if check and state.options["seventh_check_timing"] == "before_resolution":
        state, check = seventh_check(state), False
    drawer = state.active
    state = evolve(state, resolving=state.resolving + 1)
    state = state.push(shared_step("event_end", event=letter, n=int(check), player=drawer))
    order = state.order_from(drawer)
    if letter == "O":
        return state.push(shared_step("gift", player=drawer, n=0, purpose="give", event="O"))
    if letter == "S":
        return state.push(shared_step("resurvey", player=drawer))
    if letter == "Z":
        return state.push(*(shared_step("windfall", player=drawer, target=seat) for seat in reversed(order)))
    if letter == "T":
        state = evolve(state, quick_sale_taken=0).push(shared_step("quick_sale_refill"))
    kind = "ev_W" if letter == "W" else "event"
    return state.push(*[shared_step(kind, player=seat, event=letter) for seat in reversed(order)])


def seventh_check(state: State) -> State:
    """R-EV7-1..5: if anyone has fewer than 7 board tiles, events 1 and 2 go back to the bag."""
    if all(p.board_tiles >= 7 for p in state.players):
        return state
    if state.options["seventh_rule_guard"] != "off" and not in_bag_fields(state):
        return state
    return evolve(state, track=state.track[2:], bag_events=state.bag_events + state.track[:2])


def run_auto(state: State, step: Step) -> State:
    kind = step.kind
    state = state.pop()
    if kind == "start":
        events = "".join(e for e in EVENT_LETTERS if e not in state.removed)
        return evolve(state, bag_events=events, started=True, actions="")
    if kind == "pairs_to_bag":
        tiles = sum(1 << t for i, pair in enumerate(state.layout.start_pairs) if state.setup_pairs >> i & 1 for t in pair)
        return evolve(state, bag_fields=state.bag_fields | tiles, setup_pairs=0)
    if kind == "transfer":  # E/G: the tile leaves its warehouse; its bid goes back to the owner
        owner = state.player(step.target)
        bid = dict(owner.warehouse)[step.space]
        owner = evolve(owner, warehouse=tuple(w for w in owner.warehouse if w[0] != step.space),
                        stones=add_stones(owner.stones, bid))
        return arrive(state.with_player(step.target, owner), step.player, step.space)
    if kind == "seize":
        return arrive(remove_field(state, step.target, step.space), step.player, step.space)
    if kind == "office_take":
        return arrive(take_office(state, step.space), step.player, step.space)
    if kind == "event_end":
        state = evolve(state, resolving=state.resolving - 1)
        if step.n:
            state = seventh_check(state)
        if (state.options["events_only_bag_end"] == "it_immediate" and len(state.track) >= TRACK_SPACES
                and not in_bag_fields(state)):
            return evolve(state, over=True, stack=())
        return state
    if kind == "quick_sale_refill":
        taken = state.quick_sale_taken
        state = evolve(state, quick_sale_taken=0)
        return state.push(*(shared_step("draw", context=EVENT, purpose="office") for _ in range(taken)))
    if kind == "resurvey":  # S: the land office goes back into the bag and is drawn anew
        returned = state.office_tiles
        state = evolve(state, office=(-1,) * OFFICE_SPACES, bag_fields=state.bag_fields | sum(1 << t for t in returned))
        return state.push(*(shared_step("draw", context=EVENT, purpose="office") for _ in returned))
    if kind == "ev_W":
        if in_bag_fields(state):
            return state.push(shared_step("draw", player=step.player, context=EVENT, purpose="replace"))
        return state
    raise AssertionError(f"unknown automatic step {kind}")


def nothing_to_draw(state: State) -> bool:
    """The bag is empty, or holds only events that would be ignored (spec 6.6, R-END4)."""
    if state.bag_fields:
        return False
    return not state.bag_events or len(state.track) >= TRACK_SPACES


def settle(state: State) -> State:
    """Run automatic steps, and skip decisions that offer nothing, until someone must decide."""
    while not state.over:
        stack = state.stack
        if not stack:
            return state
        step = stack[-1]
        if step.kind in AUTO_KINDS:
            state = run_auto(state, step)
            continue
        if step.kind == "draw" and (nothing_to_draw(state) or (step.purpose == "office" and -1 not in state.office)):
            state = state.pop()  # R-D6: the space stays empty; a full land office has nothing to refill
            continue
        if step.kind in CHANCE_KINDS:
            return state
        moves = generate(state)
        if not moves:  # a mandatory step that cannot be carried out (no tile to give, empty supply)
            state = state.pop()
            if step.kind == "gift" and step.n < len(state.players) - 1:
                state = pass_gift(state, step, -1)  # nothing to pass on: the next player gives from their board
            continue
        if len(moves) == 1 and moves[0].verb in FINISHING_VERBS:
            state = apply_step(state, step, moves[0])
            continue
        state.__dict__[MOVES_CACHE] = moves  # the caller's legal_moves will ask next
        return state
    return state


def apply(state: State, move: KHMove) -> State:
    """The state after ``move`` (unchecked), settled until the next decision."""
    state = draft(state)
    stack = state.stack
    step = stack[-1] if stack else None
    if step is None:
        state = apply_turn(state, move)
    elif step.kind in CHANCE_KINDS:
        state = apply_chance(state, step, move)
    else:
        state = apply_step(state, step, move)
    return freeze(settle(state))
