"""La Granja (Michael Keller, Andreas Odendahl, 2014) on the companion's core: 1 to 4 players."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.core.datapack import DataPack
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import CHANCE, SCREEN_RULE, SIMULTANEOUS, GameOnEdition
from companion.core.messages import Text, msg
from companion.core.options import Options
from companion.core.picks import Step
from companion.games.la_granja import guide, picks, rules, text, upgrade, words
from companion.games.la_granja.data import (
    BUILDINGS,
    CROPS,
    PHASES,
    RESOURCES,
    ROOF_EFFECTS,
    SYMBOLS,
    Edition,
    load_edition,
)
from companion.games.la_granja.moves import LGMove, parse_move
from companion.games.la_granja.scoring import Holdings, conversion, rank
from companion.games.la_granja.state import NEUTRAL, State
from companion.games.la_granja.variants import VARIANT_FLAGS

__all__ = ["GAME", "LaGranja", "State", "LGMove", "Edition", "load_edition"]

_SIESTA_DONE = rules.STAGES.index("siesta") + 1


class LaGranja(GameOnEdition[State, LGMove, Edition]):
    """La Granja for 1 (solo) to 4 players (spec ../shared/rules/la-granja.md)."""

    name = "la-granja"
    title = "La Granja"
    min_players = 1
    max_players = 4
    option_specs = VARIANT_FLAGS
    invariant_names = (
        "66 farm cards each in exactly one place",
        "24 roof markers each in at most one place; at most 5 per farm (more with Schuppenbauer), 1 bought a round",
        "2N+1 dice rolled (5 solo); each player takes at most 2",
        "each player resolves exactly 3 die faces per round",
        "VP equals the ledger; no negative goods, silver or trade goods",
        "at most 3 carts and 3 helpers; pigs within the sty",
        "donkey markers: each used at most once in rounds 1-3 and in rounds 4-6",
        "craft markers: at most one of each kind per player, supply never negative",
        "siesta: one disc per player; market: stalls only of seated players (and the neutral)",
        "rounds 1-6; the game ends only after round 6",
        "at most 25 markers in use per player once any excess is freed (A-19, marker_limit=enforce)",
    )

    def read_edition(self, raw: Any) -> Edition:
        return Edition.from_json(raw)

    def data_pack(self) -> DataPack[LaGranja]:
        return DATA

    # ------------------------------------------------------------ protocol

    def setup(self, players: Sequence[str], options: Options) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise MalformedInputError(msg("core.refuse.player_count", game=self.title, least=self.min_players,
                                          most=self.max_players, n=len(players)))
        return rules.new_state(self.data, tuple(players), options)

    def parse_move(self, text: str) -> LGMove:
        return parse_move(text)

    def current_player(self, state: State) -> int:
        return rules.actor(state)

    def legal_moves(self, state: State) -> list[LGMove]:
        return rules.legal_moves(state)

    def validate(self, state: State, move: LGMove) -> IllegalMoveError | None:
        return rules.validate(state, move)

    def apply(self, state: State, move: LGMove) -> State:
        return rules.apply(state, move)

    def deciders(self, state: State) -> tuple[int, ...]:
        """The seats still to choose at the simultaneous donkey step, else the current player."""
        if rules.actor(state) == SIMULTANEOUS:
            return rules.donkey_deciders(state)
        return super().deciders(state)

    def seat_of(self, state: State, move: LGMove) -> int | None:
        """``donkey SEAT MARKER`` names its seat (1-based); other moves are the current player's."""
        if move.verb == "donkey" and move.args and move.args[0].isdigit():
            return int(move.args[0]) - 1
        who = rules.actor(state)
        return who if who >= 0 else None

    def is_secret(self, state: State, move: LGMove) -> bool:
        """A card drawn into a hand (not the neutral's, which is shown) and a donkey choice before the reveal."""
        top = state.top
        if top is None or state.over:
            return False
        return (move.verb == "card" and top.kind == "deal") or move.verb == "donkey"

    def _owner(self, state: State, move: LGMove) -> int | None:
        """Who may see a secret move: the seat drawing the card, the seat choosing the donkey."""
        top = state.top
        if move.verb == "card" and top is not None:
            return top.player
        return self.seat_of(state, move)

    notation = 2
    """1: donkeys chosen in turn, deliveries and set choices one piece at a time; 2: simultaneous donkeys, each
    decision one move (issue 10)."""

    def upgrade_log(self, moves: Sequence[tuple[str, bool]], notation: int) -> list[tuple[str, bool]]:
        """Logs written before issue 10 in today's notation (see ``upgrade.upgrade_log``)."""
        return upgrade.upgrade_log(self, moves)

    def chance_outcomes(self, state: State) -> list[tuple[LGMove, int]]:
        return rules.chance_outcomes(state)

    def sample_chance(self, state: State, rng: random.Random) -> LGMove:
        return rules.sample_chance(state, rng)

    # ------------------------------------------------------------ score and views

    def score(self, state: State) -> list[dict[str, Any]]:
        """Per seat: VP, the ledger summed by source (V1-V16), and once over the conversion and rank."""
        rows = []
        for p in state.players:
            by_source: dict[str, int] = {}
            for entry in p.ledger:
                by_source[entry.source] = by_source.get(entry.source, 0) + entry.amount
            row: dict[str, Any] = {"name": p.name, "vp": p.vp, "ledger": by_source, "silver": p.silver}
            if state.over:
                held = Holdings(p.name, p.vp, p.silver, p.trade, {k: p.goods[k] for k in RESOURCES})
                row.update(conversion(held, state.edition.sell))
                row["ledger"] = {**by_source, "V15": row["conversion_points"]}
            row["total"] = p.vp + row.get("conversion_points", 0)
            rows.append(row)
        if state.over:
            rank(rows)
        return rows

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: the table): no other hand, no secret donkey, no hidden roof stack;
        with ``hide_vp`` no other player's VP until the end."""
        e = state.edition
        hide_vp = state.options["hide_vp"] == "yes" and not state.over
        donkeys_shown = state.over or state.stage >= _SIESTA_DONE
        deciders = set(self.deciders(state))
        players = []
        for seat, p in enumerate(state.players):
            mine = player == seat
            players.append({
                "seat": seat, "name": p.name,
                "vp": p.vp if mine or not hide_vp else None,
                "ledger": [x.to_json() for x in p.ledger] if mine or not hide_vp else None,
                "silver": p.silver, "trade_goods": p.trade, "goods": dict(p.goods),
                "hand": list(p.hand) if mine or state.over else None, "hand_size": len(p.hand),
                "hand_limit": rules.hand_limit(state, p), "sty": rules.sty(state, p),
                "extra_deliveries": rules.extra_capacity(state, p),
                "fields": [{"card": c, "crop": e.cards[c].field, "grown": has} for c, has in p.fields],
                "carts": [{"card": c, "symbols": list(e.cards[c].cart_symbols), "filled": list(f),
                           "vp": e.cards[c].cart_vp} for c, f in p.carts],
                "extensions": list(p.extensions),
                "helpers": [{"card": h, "name": words.helper_name(e, h), "text": words.helper_text(e, h),
                             "used": h in p.helpers_used} for h in p.helpers],
                "roof": [{"marker": r, "effect": e.roofs[r].effect, "text": words.roof(e.roofs[r].effect),
                          "face_up": up} for r, up in p.roofs],
                "crafts": [{"building": k, "side": "back" if back else "front", "text": words.craft(k)}
                           for k, back in p.crafts],
                "rows": [{"building": k, "row": r + 1, "filled": list(f)} for k, r, f in p.rows],
                "completed": list(p.completed),
                "donkeys_used": list(p.donkeys_used),
                "donkey": p.donkey if (mine or donkeys_shown) and p.donkey else None,
                "donkey_chosen": bool(p.donkey),
                "dice": list(p.dice),
                "siesta": state.position(seat) if state.siesta else 0,
                "stalls": sum(1 for o in state.market if o == seat),
                "markers_in_use": rules.markers_in_use(state, seat) if state.market else 0,
            })
        top = state.top
        waiting: dict[str, Any] | None = None
        if top is not None and not state.over:
            waiting = {"kind": top.kind, "player": top.player if top.player >= 0 and top.kind not in rules.CHANCE_KINDS
                       else None, "count": top.n, "detail": top.arg, "deciders": sorted(deciders)}
        return {
            "game": self.name,
            "data": {"name": e.name, "provisional": list(e.provisional)},
            "options": dict(state.options),
            "round": state.round, "phase": state.phase,
            "turn_order": list(state.order),
            "solo_start": state.solo_start if state.solo else None,
            "to_move": {CHANCE: "chance", SIMULTANEOUS: "simultaneous"}.get(rules.actor(state), rules.actor(state)),
            "waiting": waiting,
            "players": players,
            "dice": {"rolled": list(state.rolled), "left": list(state.dice)},
            "roof_display": [{"marker": r, "effect": e.roofs[r].effect, "text": words.roof(e.roofs[r].effect),
                              "phase": e.roofs[r].phase} for r in state.display],
            "buildings": [{"building": k, "name": words.building(k), "row": list(e.buildings[k].row),
                           "lock": state.sites[k].lock, "first_vp": state.sites[k].first_vp,
                           "craft_markers": state.sites[k].craft_left,
                           "rows": [o if o >= 0 else None for o in state.sites[k].rows],
                           "completed_by": list(state.sites[k].completed_by)} for k in BUILDINGS if state.sites],
            "market": [{"space": sp.id, "value": sp.value, "x": sp.x,
                        "holder": None if o < 0 else "neutral" if o == NEUTRAL else o}
                       for sp, o in zip(e.spaces, state.market)],
            "siesta": [list(stack) for stack in state.siesta],
            "draw_pile": len(state.pile), "discards": list(state.discards),
            "score": self.score(state) if state.over or not hide_vp else None,
        }

    def describe(self, state: State, move: LGMove, viewer: int | None) -> Text:
        """A log line naming the physical piece to take; others' drawn cards and donkey choices stay hidden."""
        top = state.top
        if top is None:
            return words.move_text(state, move)
        names = [p.name for p in state.players]
        e = state.edition
        verb, arg = move.verb, move.args[0] if move.args else ""
        hidden = self.is_secret(state, move) and viewer != self._owner(state, move)
        if verb == "card":
            if top.kind == "neutral":
                return msg("lg.log.neutral_card", card=arg, vp=e.cards[int(arg)].cart_vp)
            if hidden:
                return msg("lg.log.card_hidden", name=names[top.player])
            return msg("lg.log.card", name=names[top.player], card=arg)
        if verb == "start":
            return msg("lg.log.start", name=names[int(arg) - 1])
        if verb == "order":
            return msg("lg.log.order", marker=arg)
        if verb == "lock":
            return msg("lg.log.lock", lock=top.n, building=words.building(arg), die=e.buildings[arg].die)
        if verb == "reveal":
            roof = e.roofs[arg]
            return msg("lg.log.reveal", marker=arg, effect=words.roof(roof.effect), round=roof.round)
        if verb == "donkeys":
            return msg("lg.log.donkeys", shown=words.donkeys_shown(state, move.args))
        if verb == "donkey":
            name = names[int(arg) - 1]
            if hidden:
                return msg("lg.log.donkey_hidden", name=name)
            return msg("lg.log.donkey", name=name, d=move.args[1])
        if verb == "roll":
            return msg("lg.log.roll", n=len(move.args), values=" ".join(move.args))
        if verb == "done" and top.kind == "play" and state.round == 1 and top.n >= 1:
            return msg("lg.log.done_early", name=names[top.player], n=2 - top.n)
        if top.player >= 0 and top.kind not in rules.CHANCE_KINDS:
            return msg("lg.log.move", name=names[top.player], what=words.move_text(state, move), move=str(move))
        return words.move_text(state, move)

    def move_text(self, state: State, move: LGMove) -> Text:
        """What ``move`` does, in words (``words.move_text``)."""
        return words.move_text(state, move)

    def pick_path(self, state: State, move: LGMove) -> list[Step]:
        """The card or action first, then where, then how to pay (``picks.pick_path``)."""
        return picks.pick_path(state, move)

    def confirms(self, state: State, move: LGMove) -> bool:
        """A move that spends something is shown in words before it is sent (``picks.confirms``)."""
        return picks.confirms(state, move)

    def message_ids(self) -> set[str]:
        """The identifiers built at run time (``words.message_ids``)."""
        return words.message_ids()

    def public_moves(self, state: State) -> list[LGMove]:
        return guide.public_moves(state)

    def table_refusal(self, state: State, move: LGMove, error: IllegalMoveError) -> IllegalMoveError:
        """A move made from the hand is refused on a shared screen without its reason: the reason would tell the
        table what the hand holds. The player's own page gives it. (Secret donkeys: see ``Game.table_refusal``.)"""
        if move.verb in guide.HAND_VERBS:
            return IllegalMoveError(SCREEN_RULE, msg("lg.refuse.own_page"), str(move))
        return super().table_refusal(state, move, error)

    def setup_guide(self, state: State) -> dict[str, Any] | None:
        return guide.setup_guide(state)

    def table_text(self, view: Mapping[str, Any]) -> list[Text] | None:
        return text.table_text(view)

    def prompt_text(self, state: State, names: Sequence[str]) -> Text:
        return text.prompt_text(self.view(state, None)["waiting"], names)

    def score_text(self, rows: Sequence[Mapping[str, Any]]) -> list[Text]:
        return text.score_text(rows)

    # ------------------------------------------------------------ invariants

    def invariant_violations(self, state: State) -> list[str]:
        out: list[str] = []
        e = state.edition
        players = state.players
        n = len(players)
        places: list[int] = list(state.pile) + list(state.discards)
        for p in players:
            places += [*p.hand, *(c for c, _ in p.fields), *(c for c, _ in p.carts), *p.extensions, *p.helpers]
        if sorted(places) != sorted(e.cards):
            out.append(f"farm cards misplaced: {sorted((Counter(places) - Counter(e.cards)).elements())} extra, "
                       f"{sorted((Counter(e.cards) - Counter(places)).elements())} missing")
        roofs = list(state.display) + list(state.unrevealed) + list(state.roof_box) + [r for p in players for r, _ in p.roofs]
        if len(set(roofs)) != len(roofs) or not set(roofs) <= set(e.roofs):
            out.append(f"roof markers in two places: {roofs}")
        if len(state.rolled) not in (0, rules.dice_count(n)):
            out.append(f"{len(state.rolled)} dice rolled instead of {rules.dice_count(n)}")
        past_draft = state.phase in ("transport", "scoring") or state.over
        for seat, p in enumerate(players):
            if len(p.dice) > 2:
                out.append(f"{p.name} took {len(p.dice)} dice")
            if past_draft and state.rolled and p.faces != 3:
                out.append(f"{p.name} resolved {p.faces} die faces this round, not 3")
            if p.vp != sum(x.amount for x in p.ledger):
                out.append(f"{p.name}'s VP {p.vp} differ from the ledger")
            if min(p.vp, p.silver, p.trade, *p.goods.values()) < 0:
                out.append(f"{p.name} holds a negative amount")
            if len(p.carts) > 3 or len(p.helpers) > 3 or p.goods["pig"] > rules.sty(state, p):
                out.append(f"{p.name} has too many carts, helpers or pigs")
            if len(p.roofs) > rules.roof_capacity(state, p):
                out.append(f"{p.name} owns {len(p.roofs)} roof markers")
            if len(set(p.donkeys_used)) != len(p.donkeys_used) or len(p.donkeys_used) > 3:
                out.append(f"{p.name} reused a donkey marker: {p.donkeys_used}")
            kinds = [k for k, _ in p.crafts]
            if len(set(kinds)) != len(kinds):
                out.append(f"{p.name} holds two craft markers of one kind")
            if state.siesta and sum(stack.count(seat) for stack in state.siesta) != 1:
                out.append(f"{p.name}'s siesta disc is not on exactly one space")
        for key, site in state.sites.items():
            if site.craft_left < 0 or site.craft_left + sum(key in [k for k, _ in p.crafts] for p in players) != n:
                out.append(f"{key}: craft markers not conserved")
        if any(o not in (-1, NEUTRAL, *range(n)) or (o == NEUTRAL and n > 1) for o in state.market):
            out.append("a market space holds an unknown marker")
        releasing = state.top is not None and state.top.kind == "release"
        if state.options["marker_limit"] == "enforce" and not releasing and state.top is not None \
                and state.top.kind not in rules.AUTO_KINDS:
            for seat, p in enumerate(players):
                if rules.markers_in_use(state, seat) > rules.MARKERS and rules.releasable(state, seat):
                    out.append(f"{p.name} has {rules.markers_in_use(state, seat)} markers in use")
        if not 1 <= state.round <= 6 or (state.over and state.round != 6):
            out.append(f"round {state.round} (over: {state.over})")
        return out

    # ------------------------------------------------------------ snapshot

    def score_snapshot(self, snapshot: Any, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A table snapshot (docs/la-granja-snapshot.md) scored on this game's data pack; La Granja has no
        variant flags that change the score."""
        from companion.games.la_granja.snapshot import score_snapshot

        self.options(options)
        return score_snapshot(snapshot, self.data)

    def snapshot(self, state: State) -> dict[str, Any]:
        """The table in the format of docs/la-granja-snapshot.md (what ``companion score la-granja`` reads)."""
        return {
            "game": self.name,
            "players": [{
                "name": p.name, "vp": p.vp, "silver": p.silver, "trade_goods": p.trade,
                "goods": {k: v for k, v in p.goods.items() if v},
                "field_crops": sum(1 for _, has in p.fields if has),
                "stalls": sum(1 for o in state.market if o == seat),
                "siesta": state.position(seat) if state.siesta else 0,
            } for seat, p in enumerate(state.players)],
            "sell": dict(state.edition.sell),
            "siesta_vp": list(state.edition.siesta_vp),
        }


DATA: DataPack[LaGranja] = DataPack(
    "companion.games.la_granja", lambda raw: LaGranja(Edition.from_json(raw)),
    {"crops": CROPS, "symbols": SYMBOLS, "income": (*RESOURCES, "silver", "trade"), "buildings": BUILDINGS,
     "roof_effects": ROOF_EFFECTS, "phases": PHASES})
"""La Granja's printed data (docs/la-granja-data.md)."""

GAME = LaGranja
"""The game this package adds to the registry (``companion.games.PACKAGES``)."""
