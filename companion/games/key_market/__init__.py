"""Key Market (David Brain, R&D Games 2019) on the companion's core: 2 to 4 players (spec ../shared/rules/key-market.md).

The pure computations (``market``, ``production``, ``season_end``, ``scoring``, ``territory``, ``payments``) serve
the engine (``rules``) and the table's screens alike; printed values come from the data pack (``data``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.core.datapack import DataPack
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import (
    CHANCE,
    SCREEN_RULE,
    SIMULTANEOUS,
    TERMINAL,
    GameOnEdition,
    PanelSignals,
    moves_with_key,
)
from companion.core.messages import Message, Text, msg
from companion.core.options import Options
from companion.core.picks import Step
from companion.games.key_market import market as mk
from companion.games.key_market import panel, picks, places, rules, season_end, text, words
from companion.games.key_market.data import (
    ABILITY_VALUES,
    GOODS,
    LEVELS,
    RESOURCES,
    SHAPES,
    SIDES,
    Edition,
)
from companion.games.key_market.moves import KMMove, parse_move
from companion.games.key_market.production import Harvest
from companion.games.key_market.scoring import Holdings, rank, score_row
from companion.games.key_market.state import State, as_dict
from companion.games.key_market.variants import VARIANT_FLAGS

if TYPE_CHECKING:
    from companion.codes.registry import Component
    from companion.games.key_market.camera import KeyMarketBoards

__all__ = ["GAME", "KeyMarket", "KMMove", "State"]

PRIVATE_VERBS = frozenset({"apprentice", "promote", "retire", "manor", "swap", "pay", "commit"})
"""Moves that name goods from behind the player's screen: offered and refused with reasons on their own page."""
HIDDEN_REASONS = frozenset({"km.refuse.cannot_pay", "km.refuse.gold", "km.refuse.upkeep_gold", "km.refuse.payment",
                            "km.refuse.swap_goods", "km.refuse.commit_one"})
"""Refusals whose reason tells what lies behind a screen."""


class KeyMarket(GameOnEdition[State, KMMove, Edition]):
    """Key Market for 2 to 4 players (spec ../shared/rules/key-market.md)."""

    name = "key-market"
    title = "Key Market"
    min_players = 2
    max_players = 4
    option_specs = VARIANT_FLAGS
    invariant_names = (
        "goods of each sort conserved at 12/15/18 (market, supply, box, screens, farmhouse tiles)",
        "gold never negative",
        "eight seasons: year 1-2, the game ends after Autumn of year 2",
        "at most one worker per field and per guild slot; one member per player and guild",
        "10 workers each; one player marker; a favour-track worker with 3-4 players",
    )

    def read_edition(self, raw: Any) -> Edition:
        return Edition.from_json(raw)

    def data_pack(self) -> DataPack[KeyMarket]:
        return DATA

    # ------------------------------------------------------------ protocol

    def setup(self, players: Sequence[str], options: Options) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise MalformedInputError(msg("km.refuse.players", n=len(players)))
        return rules.new_state(self.data, tuple(players), options)

    def parse_move(self, text: str) -> KMMove:
        return parse_move(text)

    def current_player(self, state: State) -> int:
        return rules.actor(state)

    def legal_moves(self, state: State) -> list[KMMove]:
        return rules.legal_moves(state)

    def validate(self, state: State, move: KMMove) -> IllegalMoveError | None:
        return rules.check(state, move)

    def apply(self, state: State, move: KMMove) -> State:
        return rules.apply(state, move)

    def chance_outcomes(self, state: State) -> list[tuple[KMMove, int]]:
        return rules.chance_outcomes(state)

    def sample_chance(self, state: State, rng: random.Random) -> KMMove:
        """``weighted_choice`` without its walk: every Key Market outcome weighs 1 (the same random number, the same
        outcome)."""
        moves = rules.chance_moves(state)
        return moves[rng.randrange(len(moves))]

    def deciders(self, state: State) -> tuple[int, ...]:
        return rules.deciders(state)

    def seat_of(self, state: State, move: KMMove) -> int | None:
        """``pay SEAT ...`` and ``commit SEAT ...`` name their seat (1-based); other moves are the current
        player's."""
        if move.verb in ("pay", "commit") and move.args and move.args[0].isdigit():
            return int(move.args[0]) - 1
        who = rules.actor(state)
        return who if who >= 0 else None

    def is_secret(self, state: State, move: KMMove) -> bool:
        """The farmhouse payment and the goods brought to market, until all are shown together."""
        return move.verb in ("pay", "commit") and state.stage in ("pay", "commit")

    def public_moves(self, state: State) -> list[KMMove]:
        """The decider's legal moves that name nothing from behind a screen: payments in goods and swaps are made
        on the player's own page (empty at a draw, a secret choice or the end)."""
        if rules.actor(state) < 0:
            return []
        return [m for m in rules.legal_moves(state) if m.verb not in PRIVATE_VERBS]

    def table_refusal(self, state: State, move: KMMove, error: IllegalMoveError) -> IllegalMoveError:
        """A move paid from behind the screen, or refused for what lies there (goods, gold), is refused on a shared
        screen without its reason; the player's own page gives it."""
        hidden = isinstance(error.text, Message) and error.text.id in HIDDEN_REASONS
        if move.verb in PRIVATE_VERBS or hidden:
            return IllegalMoveError(SCREEN_RULE, msg("km.refuse.own_page"), str(move))
        return super().table_refusal(state, move, error)

    # ------------------------------------------------------------ score and views

    def score(self, state: State) -> list[dict[str, Any]]:
        """Per seat the scoring sheet's rows (spec 5) as they stand, the items, the total; the rank at the end."""
        rows = [score_row(state.edition, self._holdings(state, seat)) for seat in range(state.n)]
        if state.over:
            rank(rows, list(state.favour) if state.favour is not None else list(state.order))
        return rows

    def _holdings(self, state: State, seat: int) -> Holdings:
        me = state.seat(seat)
        goods = {g: a + b for g, a, b in zip(GOODS, me.goods, me.committed)}
        return Holdings(state.names[seat], me.manor, len(me.where("retired")), me.gold, goods,
                        rules.members(state, seat))

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: the table): no one else's gold, goods or secret choice."""
        e = state.edition
        ground = rules.land(state) if state.placements else None
        covered = int(state.options["covered_sell_price"])
        seats = []
        for seat, me in enumerate(state.seats):
            mine = player == seat or state.over
            seats.append({
                "seat": seat, "name": state.names[seat], "farmhouse": me.farmhouse or None, "tile": me.tile or None,
                "manor": me.manor, "gold": me.gold if mine else None, "goods": as_dict(me.goods) if mine else None,
                "committed": as_dict(me.committed), "chosen": me.secret is not None,
                "secret": list(me.secret) if mine and me.secret is not None else None,
                "workers": list(me.workers), "passed": me.passed, "guild_action": me.guild_action,
                "territory_workers": len(me.fields()),
            })
        rows = [{"good": r.good, "n": r.n, "buy": r.buy, "sell": r.sell, "removal": r.removal, "covered": r.covered}
                for r in mk.board(e, dict(zip(GOODS, state.market)), covered)]
        who = rules.actor(state)
        return {
            "game": self.name,
            "data": {"name": e.name, "provisional": list(e.provisional)},
            "options": dict(state.options),
            "stage": state.stage, "year": state.year, "season": state.season,
            "to_move": {CHANCE: "chance", SIMULTANEOUS: "simultaneous", TERMINAL: "over"}.get(who, who),
            "deciders": list(rules.deciders(state)),
            "turn_order": list(state.order), "favour": list(state.favour) if state.favour is not None else None,
            "market": rows, "supply": as_dict(state.supply),
            "weather": [list(pair) for pair in state.weather],
            "weather_goods": [[e.markers[m].good for m in pair] for pair in state.weather],
            "guilds": list(state.guilds),
            "boards": [{"board": p.board, "side": p.side, "x": p.x, "y": p.y, "turns": p.turns,
                        "seat": seat if seat >= 0 else None} for p, seat in zip(state.placements, state.laid_by)],
            "fields": [{"at": [x, y], "board": f.board, "shape": f.shape, "good": f.good, **places.field_view(state, (x, y))}
                       for (x, y), f in sorted(ground.fields.items())] if ground else [],
            "dealt": list(state.dealt) if state.dealt else None,
            "players": seats,
            "harvests": {seat: harvest_json(h) for seat, h in rules.coming_harvests(state).items()},
            "upkeep": {seat: {"gold": cost.gold, "reason": cost.reason} for seat in range(state.n)
                       if state.seat(seat).fields() and not state.over
                       for cost in (rules.upkeep_of(state, seat, set()),)},
            "next_order": self._next_order(state),
            "score": self.score(state) if state.over else None,
        }

    def setup_guide(self, state: State) -> dict[str, Any]:
        """What to lay out once the first draws are made (spec 2.2, 2.3): the market's starting rows, each
        player's resources, year 1's weather markers (year 2's stay face down), the turn order, the favour track,
        the farmhouse tiles and the first territory board dealt; later boards and the guilds show on the table."""
        return {
            "players": state.n, "market": as_dict(state.market), "supply": as_dict(state.supply),
            "resources": as_dict(state.seat(0).goods) if state.seats else {},
            "weather": [list(pair) for pair in state.weather],
            "weather_goods": [[state.edition.markers[m].good for m in pair] for pair in state.weather],
            "turn_order": list(state.order), "favour": list(state.favour) if state.favour is not None else None,
            "farmhouses": [me.tile or None for me in state.seats],
            "dealt": list(state.dealt) if state.dealt else None, "small_board": state.n == 2,
            "dealer": rules.dealer(state) if state.order else None,
        }

    def panel_signals(self, state: State) -> PanelSignals:
        return panel.signals(state)

    def _next_order(self, state: State) -> list[Text] | None:
        """At Market Day and the Season End: the next turn order as it stands, each place with how it was decided
        (spec 3.9), as the Season End's checklist shows it."""
        if state.stage not in ("market", "early", "reveal", "upkeep"):
            return None
        picks = season_end.new_turn_order(state.order, {p: len(state.seat(p).fields()) for p in range(state.n)},
                                          state.favour).picks
        return [season_end.pick_text(pick, state.names) for pick in picks]

    def describe(self, state: State, move: KMMove, viewer: int | None) -> Text:
        """A log line: a secret choice masked for everyone but its maker."""
        if self.is_secret(state, move) and viewer != self.seat_of(state, move):
            return msg("km.log.secret", name=state.names[self.seat_of(state, move) or 0])
        if move.is_chance:
            return words.chance_text(state, move)
        who = self.seat_of(state, move)
        name = state.names[who] if who is not None else ""
        return msg("km.log.move", name=name, what=words.move_text(state, move))

    def move_text(self, state: State, move: KMMove) -> Text:
        return words.move_text(state, move)

    def pick_path(self, state: State, move: KMMove) -> Sequence[Step]:
        """The piece or action first, then where, then how to pay, in the table's words (``picks.py``)."""
        return picks.pick_path(state, move)

    def confirms(self, state: State, move: KMMove) -> bool:
        """Payments, purchases and moves or hires that cost gold are shown in words before they are sent."""
        return picks.confirms(state, move)

    def message_ids(self) -> set[str]:
        return words.message_ids() | set(text.message_ids())

    def table_text(self, view: Mapping[str, Any]) -> list[Text]:
        """The table in words at a terminal (``companion play key-market``): ``text.py``."""
        return text.table_text(view)

    def prompt_text(self, state: State, names: Sequence[str]) -> Text | None:
        """Who decides now and about what, from public information only."""
        deciders = rules.deciders(state)
        if not deciders:
            return msg("core.console.over") if state.over else msg("core.console.drawing")
        return text.prompt_text(state.stage, [names[seat] for seat in deciders])

    def score_text(self, rows: Sequence[Mapping[str, Any]]) -> list[Text]:
        return text.score_text(rows)

    # ------------------------------------------------------------ invariants

    def invariant_violations(self, state: State) -> list[str]:
        out: list[str] = []
        total = rules.in_play(state)
        want = mk.GOODS_IN_PLAY[state.n]
        if any(t != want for t in total) or min(state.supply) < 0 or min(state.market) < 0:
            out.append(f"goods in play {dict(zip(GOODS, total))}, not {want} of each")
        for seat, me in enumerate(state.seats):
            if me.gold < 0 or min(me.goods) < 0 or min(me.committed) < 0:
                out.append(f"{state.names[seat]} holds a negative amount")
            if len(me.workers) != 10 or me.workers.count("marker") != (1 if state.order else 0):
                out.append(f"{state.names[seat]}'s workers: {me.workers}")
            if state.order and me.workers.count("favour") != (1 if state.n >= 3 else 0):
                out.append(f"{state.names[seat]}'s favour-track worker")
        spots = [w for me in state.seats for w in me.workers if w.startswith(("f:", "g:"))]
        if len(spots) != len(set(spots)):
            out.append("two workers on one field or guild slot")
        for me in state.seats:
            guilds = [w.split(":")[1] for w in me.workers if w.startswith("g:")]
            if len(guilds) != len(set(guilds)):
                out.append("two members of one player in a guild")
        if state.year not in (1, 2) or (state.over and (state.year, state.season) != (2, "autumn")):
            out.append(f"season {state.season} of year {state.year} (over: {state.over})")
        return out

    # ------------------------------------------------------------ snapshot

    def score_with_hidden(self, state: State, hidden: Sequence[Mapping[str, Any] | None]) -> list[dict[str, Any]]:
        """The score with what lies behind some screens as the players report it: per seat ``{"gold": n, "goods":
        {...}}`` (once the game is over either key may be left out, and ``None`` keeps the companion's count; before the
        end both are needed, or the score would tell what is behind the screen), checked and scored like a snapshot
        (docs/key-market-snapshot.md); the game is unchanged."""
        from companion.games.key_market.snapshot import score_snapshot

        if len(hidden) != state.n:
            raise MalformedInputError(f"give what is behind the screen for each of the {state.n} players "
                                      "(null: keep the companion's count)")
        table = self.snapshot(state)
        for seat, given in enumerate(hidden):
            if given is None:
                continue
            if not isinstance(given, Mapping) or not set(given) <= {"gold", "goods"}:
                raise MalformedInputError(f"{state.names[seat]}: give \"gold\" and \"goods\" behind the screen")
            if not state.over and set(given) != {"gold", "goods"}:  # a count left out would be the companion's
                raise MalformedInputError(msg("core.refuse.hidden_before_end"))
            table["players"][seat].update(given)
        rows: list[dict[str, Any]] = score_snapshot(table, self.data)["players"]
        if not state.over:
            for row in rows:
                row.pop("rank", None)
                row.pop("winner", None)
        return rows

    def score_snapshot(self, snapshot: Any, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A table snapshot (docs/key-market-snapshot.md) scored on this game's data pack."""
        from companion.games.key_market.camera import CAMERA_KEYS, coming_harvest
        from companion.games.key_market.snapshot import score_snapshot

        if not isinstance(snapshot, Mapping) or "territory" not in snapshot:
            return score_snapshot(snapshot, self.data, options)
        result = score_snapshot({k: v for k, v in snapshot.items() if k not in CAMERA_KEYS}, self.data, options)
        result["harvest"] = coming_harvest(snapshot, self.data, {**snapshot.get("options", {}), **(options or {})})
        return result

    def board_reader(self) -> KeyMarketBoards:
        """The territory's workers read off code stickers (``camera.py``)."""
        from companion.games.key_market.camera import KeyMarketBoards

        return KeyMarketBoards(self)

    def stickers(self, spec: Mapping[str, Any]) -> list[Component]:
        from companion.games.key_market.camera import stickers

        return stickers(spec, self.data)

    def moves_naming(self, state: State, component: Component, moves: Sequence[str]) -> list[str]:
        """A field names the moves to or from its place on the territory (``hire 2,3``, ``move 1,1 2,3``); the
        keyworker its own player's moves that take it (``hire 2,3 key``); other workers are alike and name none."""
        from companion.games.key_market.camera import field_place

        if component.kind == "field":
            place = field_place(state, component)
            return [] if place is None else moves_with_key(f"{place[0]},{place[1]}", moves)
        if component.kind == "worker" and component.key == "K" and component.group == self.current_player(state) + 1:
            return moves_with_key("key", moves)
        return []

    def snapshot(self, state: State) -> dict[str, Any]:
        """The table in the format of docs/key-market-snapshot.md."""
        players = []
        for seat in range(state.n):
            h = self._holdings(state, seat)
            guilds = {str(g): f"{m.level} {m.column}" if m.column else m.level for g, m in sorted(h.guilds.items())}
            players.append({"name": h.name, "manor": h.manor, "retired": h.retired, "gold": h.gold,
                            "goods": {g: n for g, n in h.goods.items() if n}, "guilds": guilds})
        tiebreak = state.favour if state.favour is not None else state.order
        return {"game": self.name, "players": players, "tiebreak": [state.names[p] for p in tiebreak]}


def harvest_json(h: Harvest) -> dict[str, Any]:
    """A production as the table reads it: each field's base and bonuses with their reasons (messages)."""
    return {
        "fields": [{"field": f.label, "good": f.good, "total": f.total,
                    "parts": [{"amount": part.amount, "reason": part.reason} for part in (f.base, *f.bonuses)]}
                   for f in h.fields],
        "extras": [{"good": e.good, "amount": e.amount, "reason": e.reason, "from_market": e.from_market}
                   for e in h.extras],
        "goods": dict(h.goods), "gold": h.gold, "shortage": dict(h.shortage), "warnings": list(h.warnings),
    }


DATA: DataPack[KeyMarket] = DataPack(
    "companion.games.key_market", lambda raw: KeyMarket(Edition.from_json(raw)),
    {"goods": GOODS, "resources": RESOURCES, "shapes": SHAPES, "sides": SIDES, "levels": LEVELS,
     "higher_levels": LEVELS[1:], "ability_values": ABILITY_VALUES})
"""Key Market's printed data (its schema: ``data/schema.json``)."""

GAME = KeyMarket
"""The game this package adds to the registry (``companion.games.PACKAGES``)."""
