"""Key Harvest (Richard Breese, 2007) on the companion's core: setup, rules, views, scoring."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.datapack import DataPack
from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, Game
from companion.core.messages import Text, msg
from companion.core.options import Options
from companion.core.picks import Step as PickStep
from companion.games.key_harvest import picks, rules, text, words
from companion.games.key_harvest.board import CROP_KEYS, Crop, Layout, bits, layout_of_pack, load_layout, pack_of_layout
from companion.games.key_harvest.moves import CROP_ORDER, EVENT_LETTERS, KHMove, parse_move
from companion.games.key_harvest.scoring import ScoringBoard, score_boards
from companion.games.key_harvest.state import (
    EVENTS,
    LABOURERS,
    NORMAL,
    TOWNSFOLK,
    TRACK_SPACES,
    Player,
    State,
    Stones,
    Step,
    evolve,
    stones_json,
)
from companion.games.key_harvest.variants import VARIANT_FLAGS

if TYPE_CHECKING:
    from companion.codes.registry import Component
    from companion.games.key_harvest.camera import KeyHarvestBoards

__all__ = ["GAME", "KeyHarvest", "State", "KHMove", "Layout", "load_layout", "PublicMoves"]


TABLE_BID_MOST = 8
"""The most stones a bid offered on the shared table holds (a bigger one is typed, or made on the bidder's own
page): the table lists every bid the stones behind the screens could pay, and without a bound those would be
hundreds of thousands late in a game; with it, a pick of stones never shows more than 5 x 8 = 40 counts."""


class PublicMoves(list[KHMove]):
    """The table's choices: every move the table cannot rule out, the stones of a bid or a payment being any the
    screens could hold (a bid of at most ``TABLE_BID_MOST`` stones). ``move in`` it is also true for a bigger bid
    legal for such stones (then only the player's own screen can tell whether it is legal)."""

    def __init__(self, moves: Sequence[KHMove], pooled: State) -> None:
        super().__init__(moves)
        self._pooled = pooled

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, KHMove):
            return False
        if move.verb in ("bid", "pay") and len(move.args) > (move.verb == "bid"):
            return rules.validate(self._pooled, move) is None
        return list.__contains__(self, move)


@cache
def small_bids(stones: Stones, most: int) -> tuple[tuple[str, ...], ...]:
    """Every choice of 1 to ``most`` stones out of ``stones``, each in crop order, smallest first."""
    out: list[tuple[str, ...]] = [()]
    for key, n in zip(CROP_KEYS, stones):
        out = [bid + (key,) * k for bid in out for k in range(min(n, most - len(bid)) + 1)]
    return tuple(sorted(out[1:], key=lambda bid: (len(bid), [CROP_ORDER[c] for c in bid])))


def concrete(pooled: State, moves: Sequence[KHMove], seat: int) -> list[KHMove]:
    """``moves`` with each pattern (``bid L``, ``pay``) replaced by the moves it stands for with ``seat``'s stones
    in ``pooled`` (a bid of at most ``TABLE_BID_MOST`` stones)."""
    stones = pooled.player(seat).stones
    out: list[KHMove] = []
    bids: tuple[tuple[str, ...], ...] | None = None
    for move in moves:
        if move.verb == "bid" and len(move.args) == 1:
            if bids is None:
                bids = small_bids(stones, TABLE_BID_MOST)
            out += [KHMove("bid", move.args + bid) for bid in bids]
        elif move.verb == "pay" and not move.args:
            top = pooled.top
            assert top is not None
            out += rules.payments(stones, top.n)
        else:
            out.append(move)
    return out

USER_LAYOUT_FILE = "key-harvest-layout.json"
"""The installed layout before data packs (its own format); converted once into the data pack when found."""

SETUP_TABLE = (("town_board", 1), ("townsfolk", 6), ("field_tiles", 56), ("event_tiles", 14), ("stones", 60))
"""The shared pieces of spec 1 and 2.1 (the guide names them; the tablet translates the keys)."""
SETUP_EACH = (("estate_board", 1), ("screen", 1), ("warehouse_card", 1), ("summary_card", 1), ("labourers", 6))
"""What each player takes (spec 2.1 step 2)."""
STONES_PER_CROP = 12


def user_layout_path(data_dir: Path | None = None) -> Path:
    """Where a layout in its own (older) format may be found (in ``data_dir``, else the data folder): the data
    pack converts it once into its own file (``DATA``)."""
    from companion.paths import default_data_dir

    return (default_data_dir() if data_dir is None else data_dir) / USER_LAYOUT_FILE


class KeyHarvest(Game[State, KHMove]):
    """Key Harvest for 2 to 4 players (spec ../shared/rules/key-harvest.md)."""

    name = "key-harvest"
    title = "Key Harvest"
    min_players = 2
    max_players = 4
    option_specs = VARIANT_FLAGS
    invariant_names = (
        "60 stones conserved (supply, screens, bids)",
        "56 field tiles each in exactly one place",
        "14 events each in exactly one place",
        "townsfolk on the town board or one estate board",
        "labourers beside or on their owner's board",
        "warehouses hold at most 2 tiles, each bid at least 1 stone",
        "at most 2 different actions per turn, no C after D",
        "workers never on field tiles nor next to each other",
        "event track holds at most 10 events",
    )

    def __init__(self, layout: Layout | None = None) -> None:
        self._layout = layout

    @property
    def layout(self) -> Layout:
        """The given layout, else the one installed in the data folder, else the provisional default."""
        if self._layout is None:
            from companion.paths import default_data_dir

            self._layout = self.with_installed_data(default_data_dir()).layout
        return self._layout

    def data_pack(self) -> DataPack[KeyHarvest]:
        return DATA

    def with_installed_data(self, data_dir: Path) -> KeyHarvest:
        """The game on the pack installed in ``data_dir`` (typed as Key Harvest: callers read its ``layout``)."""
        game = super().with_installed_data(data_dir)
        assert isinstance(game, KeyHarvest)
        return game

    def edition(self) -> dict[str, Any]:
        return {"layout": self.layout.to_json()}

    def with_edition(self, edition: Mapping[str, Any]) -> KeyHarvest:
        """The game on the stored layout (``MalformedInputError`` if it is damaged)."""
        if "layout" not in edition:
            return self
        return KeyHarvest(Layout.from_json(edition["layout"], printed_rules=False))  # replays as it was played

    def data_warnings(self) -> list[Text]:
        layout = self.layout
        return [msg("kh.warning.provisional_layout", board=layout.name)] if layout.provisional else []

    # ------------------------------------------------------------ protocol

    def setup(self, players: Sequence[str], options: Options) -> State:
        """Spec 2.1: the state before the setup draws, which follow as chance steps."""
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            raise MalformedInputError(msg("core.refuse.player_count", game=self.title, least=self.min_players,
                                          most=self.max_players, n=n))
        layout = self.layout
        pair_tiles = sum(1 << t for pair in layout.start_pairs for t in pair)
        per_player = 2 if n == 2 else 3
        shared_step = rules.shared_step
        steps = [shared_step("start")]
        steps += [shared_step("remove_event")] * (2 if n >= 3 else 0)
        steps.append(shared_step("draw", context=NORMAL, purpose="office"))
        steps += [shared_step("stone", player=seat) for seat in reversed(range(n)) for _ in range(per_player)]
        steps += [shared_step("crops"), shared_step("pairs_to_bag")]
        steps += [shared_step("pair", player=seat) for seat in reversed(range(n))]
        steps.append(shared_step("first"))
        return State(
            layout=layout,
            options=options,
            players=tuple(Player(str(name)) for name in players),
            supply=(12, 12, 12, 12, 12),
            bag_fields=layout.all_spaces & ~pair_tiles,
            setup_pairs=(1 << len(layout.start_pairs)) - 1,
            stack=tuple(steps),
        )

    def parse_move(self, text: str) -> KHMove:
        """Read a move; two tiles or two crops of one choice may come in either order."""
        move = parse_move(text)
        if move.verb in ("gain", "flip", "take") and len(move.args) == 2:
            index = self.layout.index

            def order(arg: str) -> tuple[int, str]:
                label = arg.partition("/")[0]
                return (index.get(label, -1), arg) if move.verb != "gain" else (Crop.parse(arg).value, arg)

            move = KHMove(move.verb, tuple(sorted(move.args, key=order)))
        return move

    def current_player(self, state: State) -> int:
        return rules.actor(state)

    def legal_moves(self, state: State) -> list[KHMove]:
        return rules.legal_moves(state)

    def validate(self, state: State, move: KHMove) -> Any:
        return rules.validate(state, move)

    def apply(self, state: State, move: KHMove) -> State:
        return rules.apply(state, move)

    def chance_outcomes(self, state: State) -> list[tuple[KHMove, int]]:
        return rules.chance_outcomes(state)

    def sample_chance(self, state: State, rng: random.Random) -> KHMove:
        return rules.sample_chance(state, rng)

    def score(self, state: State) -> list[dict[str, Any]]:
        boards = [
            ScoringBoard(p.name, p.fields, state.layout.neighbours, "".join(w for _, w in p.workers), p.stones)
            for p in state.players
        ]
        return score_boards(boards, state.options)

    def is_secret(self, state: State, move: KHMove) -> bool:
        """The setup stone draws, the events removed unseen, the Trader's secret draw of a field tile."""
        step = state.top
        if step is None or step.kind not in rules.CHANCE_KINDS:
            return False
        return step.kind in ("stone", "remove_event") or (step.purpose == "trader" and move.verb == "draw")

    def reveals(self, state: State, move: KHMove) -> object:
        """The Trader's tile, as it is placed or sent to the fallow area: the draw is private until then (spec
        §11, hidden-information cautions; R-B7, DE 491-495)."""
        step = state.top
        return state.layout.labels[step.space] if step is not None and step.kind == "trader_choice" else None

    notation = 2
    """1: a bid as ``bid L crop`` + ``add crop``... + ``done``, a payment as one ``pay crop`` per stone; 2: each one
    move (issue 10)."""

    def upgrade_log(self, moves: Sequence[tuple[str, bool]], notation: int) -> list[tuple[str, bool]]:
        """An old log (a bid as ``bid L crop`` + ``add crop``... + ``done``, a payment as one ``pay crop`` per
        stone) in today's notation: one move per bid, one per payment (docs/key-harvest-notation.md)."""
        from companion.games.key_harvest.upgrade import upgrade_log

        return upgrade_log(moves)

    def describe(self, state: State, move: KHMove, viewer: int | None) -> Text:
        """A log line: a move in words, a draw naming the physical piece to take; hides others' stones, removed
        events, the Trader's draw."""
        return words.describe(state, move, viewer, self.is_secret(state, move))

    def pick_path(self, state: State, move: KHMove) -> Sequence[PickStep]:
        """The worker or the action first, then the tile or the space, then the stones (``picks.py``)."""
        return picks.pick_path(state, move)

    def confirms(self, state: State, move: KHMove) -> bool:
        """A bid, a payment, a purchase and a worker taken back are shown in words before they are sent."""
        return picks.confirms(move)

    def move_text(self, state: State, move: KHMove) -> Text:
        """What ``move`` does, in words (``bid F1 vegetables``: bid on F1 with 1 vegetables stone)."""
        return words.move_text(state, move)

    def message_ids(self) -> list[str]:
        return words.message_ids() + text.message_ids() + [f"kh.ask.{key}" for key in picks.ASKS]

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may see (``None``: the shared table): no other screen, no hidden draw."""
        layout = state.layout
        over = state.over
        crop = layout.crops

        def tile(t: int) -> dict[str, Any]:
            return {"label": layout.labels[t], "crop": crop[t].key}

        players = []
        for seat, p in enumerate(state.players):
            players.append({
                "seat": seat,
                "name": p.name,
                "tiles": [{**tile(t), "harvested": bool(p.harvested >> t & 1), "at": list(layout.coords[t])}
                          for t in bits(p.fields)],
                "workers": [{"worker": w, "label": layout.labels[s]} for s, w in p.workers],
                "beside": list(p.beside),
                "warehouse": [{**tile(t), "bid": stones_json(b)} for t, b in p.warehouse],
                "stones": stones_json(p.stones) if over or player == seat else None,
                "board_tiles": p.board_tiles,
            })
        pending = self._pending(state, player)
        known_events = set(state.track + state.set_aside + state.ignored)
        unseen = [e for e in EVENTS if e not in known_events]
        exact = len(state.players) == 2 or over or not state.started
        secret = self._trader_secret(state, player)
        bag_fields = list(bits(state.bag_fields | secret))
        return {
            "game": self.name,
            "layout": {"name": layout.name, "provisional": layout.provisional, "note": layout.note,
                       "spaces": [{"label": label, "at": list(layout.coords[i]), "crop": crop[i].key}
                                  for i, label in enumerate(layout.labels)]},
            "options": dict(state.options),
            "phase": "over" if over else ("setup" if not state.started else
                                          "final rounds" if state.end_trigger >= 0 else "play"),
            "players": players,
            "active": state.active,
            "actions": list(state.actions),
            "to_move": "chance" if rules.actor(state) == CHANCE else rules.actor(state),
            "pending": pending,
            "town": list(state.town),
            "land_office": [layout.labels[t] if t >= 0 else None for t in state.office],
            "land_office_tiles": [tile(t) if t >= 0 else None for t in state.office],
            "event_track": list(state.track),
            "question_space": 7,
            "set_aside": list(state.set_aside),
            "fallow": [layout.labels[t] for t in bits(state.fallow)],
            "fallow_tiles": [tile(t) for t in bits(state.fallow)],
            "bag": {
                "field_tiles": state.bag_fields.bit_count(),
                "unknown_tile_with_trader": bool(secret),
                "fields_by_crop": {c.key: sum(1 for t in bag_fields if crop[t] is c) for c in Crop},
                "fields": [layout.labels[t] for t in bag_fields],
                "events": len(state.bag_events),
                "events_in_bag": sorted(state.bag_events) if exact else None,
                "events_maybe_in_bag": sorted(state.bag_events) if exact else unseen,
            },
            "removed_events": list(state.removed) if over else None,
            "end": {"triggered": state.end_trigger >= 0, "trigger_player": state.end_trigger,
                    "turns_left": state.turns_left if state.end_trigger >= 0 else None},
            "score": self.score(state) if over else self.projection(state),
        }

    def public_moves(self, state: State) -> list[KHMove]:
        """The decider's moves as the table may know them: legal as if their screen held every stone
        not in the supply or on a bid (the table cannot tell whose screen holds which): every bid of at most
        ``TABLE_BID_MOST`` such stones and every payment; ``in`` also finds a bigger bid they allow
        (docs/key-harvest-notation.md)."""
        seat = rules.actor(state)
        if seat < 0:
            return []
        pooled = self._pooled(state, seat)
        return PublicMoves(concrete(pooled, rules.generate(pooled, public=True), seat), pooled)

    @staticmethod
    def _pooled(state: State, seat: int) -> State:
        """``state`` with ``seat``'s screen holding every stone behind any screen (what the table cannot rule out)."""
        unseen = [STONES_PER_CROP - state.supply[c] - state.setup_bag[c]
                  - sum(b[c] for p in state.players for _, b in p.warehouse) for c in Crop]
        stones = (unseen[0], unseen[1], unseen[2], unseen[3], unseen[4])
        return state.with_player(seat, evolve(state.player(seat), stones=stones))

    def table_text(self, view: Mapping[str, Any]) -> list[Text]:
        return text.table_text(view)

    def prompt_text(self, state: State, names: Sequence[str]) -> Text | None:
        """Who decides now and about what, from public information only (a shared screen shows it)."""
        who = rules.actor(state)
        if who < 0:
            return msg("core.console.over") if state.over else msg("core.console.drawing")
        return words.prompt(state, who, names)

    def score_text(self, rows: Sequence[Mapping[str, Any]]) -> list[Text]:
        return text.score_text(rows)

    def setup_guide(self, state: State) -> dict[str, Any]:
        """Spec 2.1 for this table: the pieces to lay out, who starts, each player's start tiles, the
        land office, the bag; each tile by label and crop. Nobody's stones (their private page shows them)."""
        layout = state.layout

        def tile(t: int) -> dict[str, Any]:
            return {"label": layout.labels[t], "crop": layout.crops[t].key}

        return {
            "players": len(state.players),
            "table": [{"piece": piece, "count": count} for piece, count in SETUP_TABLE],
            "each_player": [{"piece": piece, "count": count} for piece, count in SETUP_EACH],
            "first_player": state.active,
            "turn_order": state.order_from(state.active),
            "start_tiles": [[tile(t) for t in bits(p.fields)] for p in state.players],
            "stones_each": [sum(p.stones) for p in state.players],
            "supply": sum(state.supply),
            "land_office": [tile(t) for t in state.office_tiles],
            "field_tiles_in_bag": state.bag_fields.bit_count(),
            "events_in_bag": len(state.bag_events),
            "events_removed": len(state.removed),
        }

    def projection(self, state: State) -> list[dict[str, Any]]:
        """The live score anyone may see: workers and groups; majorities (which reveal screens) at the end."""
        rows = self.score(state)
        public = ("name", "worker_points", "largest_group_points", "second_group_points")
        return [{key: row[key] for key in public} | {"total": row["total"] - row["majority_points"],
                                                     "majority_points": None} for row in rows]

    @staticmethod
    def _trader_secret(state: State, viewer: int | None) -> int:
        """The Trader's drawn tile, unless ``viewer`` is the Trader: to others it may still be in the bag."""
        return sum(1 << s.space for s in state.stack if s.kind == "trader_choice" and s.player != viewer)

    def snapshot(self, state: State) -> dict[str, Any]:
        """The table in the snapshot format of docs/key-harvest-snapshot.md (screens included).

        What the camera reads can be compared with this, and ``companion score`` scores it
        exactly as ``score`` scores the game.
        """
        layout = state.layout

        def tile(t: int, harvested: bool) -> dict[str, Any]:
            return {"label": layout.labels[t], "crop": layout.crops[t].key, "harvested": harvested,
                    "at": list(layout.coords[t])}

        return {
            "game": self.name,
            "players": [
                {
                    "name": p.name,
                    "tiles": [tile(t, bool(p.harvested >> t & 1)) for t in bits(p.fields)],
                    "workers": [{"worker": w, "label": layout.labels[s], "at": list(layout.coords[s])}
                                for s, w in p.workers],
                    "stones": stones_json(p.stones),
                }
                for p in state.players
            ],
            "warehouses": {p.name: [{"label": layout.labels[t], "crop": layout.crops[t].key, "bid": stones_json(b)}
                                    for t, b in p.warehouse] for p in state.players},
            "land_office": [layout.labels[t] for t in state.office_tiles],
            "event_track": list(state.track),
            "bag": {"field_tiles": state.bag_fields.bit_count(), "events": len(state.bag_events)},
            "options": dict(state.options),
        }

    def score_with_hidden(self, state: State, hidden: Sequence[Mapping[str, Any] | None]) -> list[dict[str, Any]]:
        """The score with the stones behind some screens given by the players (``None``: the companion's
        count), checked and scored like a snapshot (docs/key-harvest-snapshot.md); the game is unchanged."""
        stones = hidden
        from companion.games.key_harvest.snapshot import score_snapshot

        if len(stones) != len(state.players):
            raise MalformedInputError(f"give stones for each of the {len(state.players)} players (null: keep the count)")
        table = self.snapshot(state)
        for seat, given in enumerate(stones):
            if given is not None:
                table["players"][seat]["stones"] = given
        rows: list[dict[str, Any]] = score_snapshot(table, layout=state.layout)["players"]
        return rows

    def score_snapshot(self, snapshot: Any, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A table snapshot (docs/key-harvest-snapshot.md) scored on this game's layout."""
        from companion.games.key_harvest.snapshot import score_snapshot

        return score_snapshot(snapshot, options, self.layout)

    def board_reader(self) -> KeyHarvestBoards:
        from companion.games.key_harvest.camera import KeyHarvestBoards

        return KeyHarvestBoards(self)

    def stickers(self, spec: Mapping[str, Any]) -> list[Component]:
        from companion.games.key_harvest.camera import stickers

        return stickers(spec, self.layout.labels)

    def _pending(self, state: State, viewer: int | None) -> dict[str, Any] | None:
        step = state.top
        if step is None or state.over:
            return None
        out: dict[str, Any] = {"kind": step.kind, "player": step.player}
        if step.worker:
            out["worker"] = step.worker
        if step.event:
            out["event"] = step.event
        if step.space >= 0 and (step.kind != "trader_choice" or viewer == step.player):
            out["label"] = state.layout.labels[step.space]
        if step.kind == "pay":
            out["n"] = step.n  # the stones owed (public: the price of E/G/I/Q/T)
        if step.kind == "draw":
            out["context"] = step.context
            out["purpose"] = step.purpose
        return out

    # ------------------------------------------------------------ invariants

    def invariant_violations(self, state: State) -> list[str]:
        """Spec 9.7's invariants; each broken one as a sentence."""
        out: list[str] = []
        players = state.players
        for c in Crop:
            total = state.supply[c] + state.setup_bag[c] + sum(p.stones[c] + sum(b[c] for _, b in p.warehouse)
                                                               for p in players)
            if total != 12 or state.supply[c] < 0 or any(p.stones[c] < 0 for p in players):
                out.append(f"{c.key}: {total} stones instead of 12 (or a negative count)")
        places = [state.bag_fields, state.fallow, state.in_hand]
        places += [1 << t for t in state.office_tiles]
        places += [p.fields for p in players]
        places += [1 << t for p in players for t, _ in p.warehouse]
        places += [1 << t for i, pair in enumerate(state.layout.start_pairs) if state.setup_pairs >> i & 1 for t in pair]
        seen = 0
        for mask in places:
            if seen & mask:
                out.append(f"field tiles {state.labels(seen & mask)} are in two places")
            seen |= mask
        if seen != state.layout.all_spaces:
            out.append(f"field tiles {state.labels(state.layout.all_spaces & ~seen)} are nowhere")
        events = state.bag_events + state.track + state.set_aside + state.removed + state.ignored
        if len(set(events)) != len(events) or (state.started and sorted(events) != sorted(EVENT_LETTERS)):
            out.append(f"events misplaced: {events!r}")
        lifted = [(step.player, step.worker) for step in state.stack if step.kind == "bonus"]
        townsfolk = state.town + "".join(w for p in players for _, w in p.workers if w in TOWNSFOLK)
        townsfolk += "".join(w for _, w in lifted if w in TOWNSFOLK)
        if sorted(townsfolk) != sorted(TOWNSFOLK):
            out.append(f"townsfolk misplaced: {townsfolk!r}")
        nbr = state.layout.neighbours
        for seat, p in enumerate(players):
            labourers = p.beside + "".join(w for _, w in p.workers if w in LABOURERS)
            labourers += "".join(w for owner, w in lifted if owner == seat and w in LABOURERS)
            if sorted(labourers) != sorted(LABOURERS):
                out.append(f"{p.name}'s labourers misplaced: {labourers!r}")
            if len(p.warehouse) > 2 or any(sum(b) < 1 for _, b in p.warehouse):
                out.append(f"{p.name}'s warehouse is invalid")
            wmask = p.worker_mask
            if wmask & p.fields or any(nbr[s] & wmask for s in bits(wmask)):
                out.append(f"{p.name}'s workers stand on a field tile or next to each other")
            if p.harvested & ~p.fields:
                out.append(f"{p.name} has harvested marks without tiles")
        acts = state.actions
        if len(acts) > 2 or len(set(acts)) != len(acts) or ("D" in acts and "C" in acts and acts.index("C") > acts.index("D")):
            out.append(f"actions this turn break R-T1/R-T2: {acts!r}")
        if len(state.track) > TRACK_SPACES:
            out.append("more than 10 events on the track")
        return out


DATA: DataPack[KeyHarvest] = DataPack(
    "companion.games.key_harvest", lambda raw: KeyHarvest(layout_of_pack(raw)), {"crops": CROP_KEYS},
    upgrade=pack_of_layout, legacy=(USER_LAYOUT_FILE,))
"""Key Harvest's printed data: the board layout (docs/key-harvest-layout.md). A layout in its own older format
(``key-harvest-layout.json``, ``Layout.to_json``) is read as a pack and converted once."""

GAME = KeyHarvest
"""The game this package adds to the registry (``companion.games.PACKAGES``)."""
