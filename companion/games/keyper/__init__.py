"""Keyper (Richard Breese, R&D Games) on the companion's core: 2 to 4 players (spec ../shared/rules/keyper.md).

``data.py`` and ``data/`` hold the printed data, ``tiles.py`` what each tile scores, ``scoring.py`` the final score
by best assignment, ``snapshot.py`` the table snapshot scorer, ``rules.py`` the game, ``words.py`` its text.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.datapack import DataPack
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import SIMULTANEOUS, GameOnEdition, PanelSignals
from companion.core.messages import Text, add_catalog_folder, msg
from companion.core.options import Options
from companion.core.picks import Step
from companion.games.keyper import panel, picks, rules, text, words
from companion.games.keyper.data import ANIMALS, CHOICES, GOODS, SEASONS, Edition
from companion.games.keyper.moves import KPMove, parse_move
from companion.games.keyper.scoring import Built, Holdings, rank, score_player
from companion.games.keyper.state import State
from companion.games.keyper.variants import VARIANT_FLAGS

if TYPE_CHECKING:
    from companion.codes.registry import Component
    from companion.games.keyper.camera import KeyperBoards

__all__ = ["GAME", "Keyper", "State", "KPMove", "Edition"]

add_catalog_folder(Path(__file__).resolve().parent / "locale")  # the registry adds it too, once registered


class Keyper(GameOnEdition[State, KPMove, Edition]):
    """Keyper for 2 to 4 players."""

    name = "keyper"
    title = "Keyper"
    min_players = 2
    max_players = 4
    option_specs = VARIANT_FLAGS
    invariant_names = (
        "every keyple and Keyper in exactly one place (keep area, keep tile, a field or a plot)",
        "every country tile and winter fair exactly once across bag, display, set-aside, discard, players, box",
        "no field or plot holds more than 2 keyples; a keep field only a Keyper",
        "no negative stock or supply; pieces conserved between players and supply",
        "seasons in order; the game ends only after winter",
    )

    notation = 2
    """1: before the rulebook's build order (L633), an active player and a follower building on one field did all
    the active player's builds first (``upgrade.py``)."""

    def upgrade_log(self, moves: Sequence[tuple[str, bool]], notation: int) -> list[tuple[str, bool]]:
        """A log of notation 1 with the builds of an active player and a follower on one field in turn."""
        from companion.games.keyper.upgrade import upgrade_log

        return upgrade_log(self, moves)

    def read_edition(self, raw: Any) -> Edition:
        return Edition.from_json(raw)

    def data_pack(self) -> DataPack[Keyper]:
        return DATA

    # ------------------------------------------------------------ protocol

    def setup(self, players: Sequence[str], options: Options) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise MalformedInputError(msg("kp.refuse.players", n=len(players)))
        return rules.new_state(self.data, tuple(players), options)

    def parse_move(self, text: str) -> KPMove:
        return parse_move(text)

    current_player = staticmethod(rules.actor)
    """The rules' own functions, named as the protocol names their parameters (a playout calls them at every move:
    no wrapper's frame)."""

    def legal_moves(self, state: State) -> list[KPMove]:
        return rules.legal_moves(state)

    def random_move(self, state: State, rng: random.Random) -> KPMove:
        return rules.random_move(state, rng)

    def validate(self, state: State, move: KPMove) -> IllegalMoveError | None:
        return rules.validate(state, move)

    apply = staticmethod(rules.apply)

    def chance_outcomes(self, state: State) -> list[tuple[KPMove, int]]:
        return rules.chance_outcomes(state)

    sample_chance = staticmethod(rules.sample_chance)

    def deciders(self, state: State) -> tuple[int, ...]:
        """The seats still to fold their board at the start of a season (in secret), else whoever decides: the
        active player, or a player asked out of turn (a follower offer, a follower's yield, a fair, housing)."""
        if rules.actor(state) == SIMULTANEOUS:
            return rules.fold_deciders(state)
        return super().deciders(state)

    def seat_of(self, state: State, move: KPMove) -> int | None:
        """``fold SEAT OPTION`` names its seat (1-based); other moves are the deciding seat's."""
        if move.verb == "fold" and move.args and move.args[0].isdigit():
            return int(move.args[0]) - 1
        who = rules.actor(state)
        return who if who >= 0 else None

    def is_secret(self, state: State, move: KPMove) -> bool:
        """A private fair dealt (only its owner sees it) and a board's fold before all are revealed."""
        return move.verb in ("fair", "fold")

    def public_moves(self, state: State) -> list[KPMove]:
        """At a fair step the table may not know which private fair the seat holds: every fair of the season's
        stack that no one has shown could be it (refused on the table with a generic reason if not)."""
        moves = super().public_moves(state)  # none at the folding: each seat folds on its own page
        top = state.top
        if top is None or top.kind != "fairs" or state.season >= 3 or not state.players[top.seat].private[state.season]:
            return moves
        season = SEASONS[state.season]
        shown = {f for p in state.players for f, _ in p.held}
        possible = [f for f, fair in state.edition.fairs.items() if fair.season == season and f not in shown]
        winter = [m.args for m in moves if not any(a in possible for a in m.args)]
        out = {KPMove("fairs", tuple(sorted((f, *w), key=lambda a: (a[0] == "W", a)))) for f in possible for w in winter}
        return sorted(out | {KPMove("fairs", w) for w in winter}, key=str)

    # ------------------------------------------------------------ score and views

    def holdings(self, state: State, seat: int) -> Holdings:
        """What the final score reads from ``seat`` now (spec 5.1)."""
        p = state.players[seat]
        built = tuple(Built(plot.top, area, i + 1, plot.upgraded) for area in ("farm", "village")
                      for i, plot in enumerate(p.plots(area)) if plot.tiles)
        goods = dict(zip(GOODS, p.goods))
        animals = dict(zip(ANIMALS, p.animals))
        colours = [*p.keep, *(k.colour for k in p.keep_tile),
                   *(k.colour for plot in (*p.farm, *p.village) for k in plot.keyples)]
        fair_vp = 0
        for fair, season in p.held:
            f = state.edition.fairs[fair]
            fair_vp += f.late_vp if f.season == "winter" and season in ("autumn", "winter") else f.vp
        board = p.claimed if state.over else rules.claimed_board(state, seat)
        layout = state.edition.layouts[state.boards[board].layout] if board >= 0 else None
        field_colours = {c: layout.colour_count(c) for c in ("green", "orange", "brown", "black", "grey")} \
            if layout is not None else {}
        return Holdings(p.name, built, goods, animals, dict(Counter(colours)), p.shipping, fair_vp,
                        len({season for _, season in p.held}), field_colours)

    def score(self, state: State) -> list[dict[str, Any]]:
        """Per seat the score as it would be now (final once over), with the assignment tile by tile."""
        held = [self.holdings(state, seat) for seat in range(len(state.players))]
        rows = [score_player(state.edition, h, state.options) for h in held]
        if state.over:
            rank(rows, held, state.options["tiebreak"])
        return rows

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        return words.view(self, state, player)

    def setup_guide(self, state: State) -> dict[str, Any] | None:
        return words.setup_guide(state)

    def panel_signals(self, state: State) -> PanelSignals:
        return panel.signals(state)

    def table_text(self, view: Mapping[str, Any]) -> list[Text]:
        return text.table_text(view)

    def prompt_text(self, state: State, names: Sequence[str]) -> Text:
        return text.prompt_text(self.view(state, None)["waiting"], names)

    def describe(self, state: State, move: KPMove, viewer: int | None) -> Text:
        return words.describe(state, move, viewer)

    def move_text(self, state: State, move: KPMove) -> Text:
        return words.move_text(state, move)

    def pick_path(self, state: State, move: KPMove) -> list[Step]:
        """The piece or action first, then where, then how to pay (``picks.py``)."""
        return picks.pick_path(state, move)

    def confirms(self, state: State, move: KPMove) -> bool:
        """A decision with a cost (a build, an upgrade, a trade) is shown in words with an OK first."""
        return picks.confirms(move)

    def message_ids(self) -> set[str]:
        return words.message_ids() | picks.message_ids()

    def invariant_violations(self, state: State) -> list[str]:
        return words.invariant_violations(state)

    # ------------------------------------------------------------ snapshot

    def score_snapshot(self, snapshot: Any, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A table snapshot (docs/keyper-snapshot.md) scored on this game's data pack; ``tiebreak`` from the options
        wins over the snapshot's own."""
        from companion.games.keyper.snapshot import score_snapshot

        chosen = self.options(options)
        return score_snapshot(snapshot, self.data, chosen["tiebreak"] if options and "tiebreak" in options else None,
                              chosen)

    def board_reader(self) -> KeyperBoards:
        """A player board read off its code stickers (``camera.py``)."""
        from companion.games.keyper.camera import KeyperBoards

        return KeyperBoards(self)

    def stickers(self, spec: Mapping[str, Any]) -> list[Component]:
        from companion.games.keyper.camera import stickers

        return stickers(spec, self.data)

    def moves_naming(self, state: State, component: Component, moves: Sequence[str]) -> list[str]:
        """A tile, boat or fair names the moves with its key (``pick barn``, ``... build barn ...``, ``boat B3``); a
        home tile only its own player's; a player board's corner sticker none."""
        if component.kind == "board" or component.kind == "home" and component.group != self.current_player(state) + 1:
            return []
        return super().moves_naming(state, component, moves)


DATA: DataPack[Keyper] = DataPack("companion.games.keyper", lambda raw: Keyper(Edition.from_json(raw)), CHOICES)
"""Keyper's printed data (docs/games/keyper.md)."""

GAME = Keyper
"""The game this package adds to the registry (``companion.games.PACKAGES``)."""

