"""One stored game being played: the game's rules on one side, the saved move log on the other.

Every move is checked, applied, and committed to the store before ``play`` returns. Chance
steps are picked with ``step_rng(seed, ply)``, so a game reopened after a power cut goes on
exactly as it would have, and the seed stays secret until the game is over.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.core.errors import CorruptSaveError, IllegalMoveError, MalformedInputError, UndoError
from companion.core.game import CHANCE, Game, Move
from companion.core.options import Options
from companion.core.rng import new_seed, step_rng
from companion.games import find_game
from companion.store import OVER, GameRecord, GameStore

log = logging.getLogger(__name__)

CHANCE_RULE = "CHANCE"
"""Rule ID for a move of the wrong kind: a player's move at a chance step, or a chance outcome
at a player's turn. Games should use it too when ``validate`` sees a chance outcome out of turn."""

Listener = Callable[["Session", list[Move]], None]
"""Called after each change with the new moves (an empty list after an undo)."""


SEAT_COLOURS = ("#c0392b", "#2471a3", "#d4ac0d", "#239b56")
"""Each seat's colour when the table chooses none (for the tablet and the seat lights)."""
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")


def check_colours(colours: Sequence[str] | None, seats: int) -> tuple[str, ...]:
    """The seats' colours as ``#rrggbb``, one per seat and all different; defaults if none given."""
    if colours is None:
        return SEAT_COLOURS[:seats]
    chosen = tuple(str(c).strip().lower() for c in colours)
    if len(chosen) != seats or not all(_COLOUR.match(c) for c in chosen):
        raise MalformedInputError(f"give one colour per player as #rrggbb, not {list(colours)!r}")
    if len(set(chosen)) != seats:
        raise MalformedInputError("each player needs a different colour")
    return chosen


class Session:
    """A game from the store, played move by move. Create with ``new`` or ``open``."""

    def __init__(
        self, store: GameStore, record: GameRecord, game: Game[Any, Any], options: Options, state: Any, auto_chance: bool
    ) -> None:
        self._store = store
        self._record = record
        self._game = game
        self._options = options
        self._status = record.status
        self._states: list[Any] = [state]  # _states[i] is the state before _history[i]
        self._history: list[Move] = []
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()
        self.auto_chance = auto_chance

    @classmethod
    def new(
        cls,
        store: GameStore,
        game_name: str,
        players: Sequence[str],
        options: Mapping[str, str] | None = None,
        seed: str | None = None,
        auto_chance: bool = True,
        colours: Sequence[str] | None = None,
        data_dir: Path | None = None,
    ) -> Session:
        """Start and store a new game; with ``auto_chance`` its setup draws are made at once. With ``data_dir``
        the game plays on the data installed there now (a board layout...), else on the data folder's."""
        game = find_game(game_name)
        if data_dir is not None:
            game = game.with_installed_data(data_dir)
        players = tuple(players)
        if not game.min_players <= len(players) <= game.max_players:
            raise MalformedInputError(
                f"{game.title} is for {game.min_players} to {game.max_players} players, not {len(players)}"
            )
        chosen = game.options(options)
        seat_colours = check_colours(colours, len(players))
        state = game.setup(players, chosen)
        game_id = store.create(game.name, players, chosen, new_seed() if seed is None else seed, game.edition(),
                               seat_colours)
        session = cls(store, store.get(game_id), game, chosen, state, auto_chance)
        with session._lock:
            session._settle()
        return session

    @classmethod
    def open(cls, store: GameStore, game_id: str, auto_chance: bool = True) -> Session:
        """Resume a stored game by replaying its log from the setup, checking every move."""
        record = store.get(game_id)
        try:
            game = find_game(record.game).with_edition(record.edition)
            options = game.options(record.options)
            state = game.setup(record.players, options)
        except Exception as error:
            raise CorruptSaveError(f"saved game {game_id} cannot be set up again: {error}") from error
        session = cls(store, record, game, options, state, auto_chance)
        with session._lock:
            for ply, text, is_chance in store.moves(game_id):
                try:
                    session._replay(ply, text, is_chance)
                except Exception as error:
                    raise CorruptSaveError(
                        f"saved game {game_id}: move {ply} ({text!r}) cannot be replayed: {error}"
                    ) from error
            session._settle()  # finish chance steps cut short by a crash
        return session

    # What the session holds.

    @property
    def id(self) -> str:
        return self._record.id

    @property
    def game(self) -> Game[Any, Any]:
        return self._game

    @property
    def players(self) -> tuple[str, ...]:
        return self._record.players

    @property
    def options(self) -> Options:
        return self._options

    @property
    def status(self) -> str:
        return self._status

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def history(self) -> list[Move]:
        with self._lock:
            return list(self._history)

    @property
    def colours(self) -> tuple[str, ...]:
        """Each seat's colour (``#rrggbb``)."""
        return self._record.colours

    @property
    def player_moves(self) -> int:
        """How many moves players have made (chance steps not counted)."""
        return sum(self._game.current_player(state) != CHANCE for state in self._states[:-1])

    @property
    def is_over(self) -> bool:
        return self._game.is_over(self.state)

    # Playing.

    def play(self, move: Move | str) -> list[Move]:
        """Check, apply and store ``move`` (then any chance steps); return every new move.

        An illegal move raises ``IllegalMoveError`` and changes nothing.
        """
        with self._lock:
            move = self._game.parse_move(move) if isinstance(move, str) else move
            at_chance = self._game.current_player(self.state) == CHANCE
            if at_chance and self.auto_chance:
                raise IllegalMoveError(CHANCE_RULE, "the companion makes the draws itself", str(move))
            error = self._check(move)
            if error is not None:
                raise error
            self._push(move, at_chance, save=True)
            new = [move, *self._settle()]
            self._notify(new)
            return new

    def undo(self) -> Move:
        """Take back the last move, if it was a player's move made after the last chance step."""
        with self._lock:
            if not self._history:
                raise UndoError("there is nothing to undo yet")
            if self.is_over:
                raise UndoError("the game is over; its moves can no longer be undone")
            if self._game.current_player(self._states[-2]) == CHANCE:
                raise UndoError("the last step was a draw; a draw cannot be undone")
            self._store.truncate(self.id, len(self._history) - 1)
            self._states.pop()
            move = self._history.pop()
            self._notify([])
            return move

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(session, new_moves)`` after each change; returns the unsubscriber."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    # Showing.

    def view(self, player: int | None) -> dict[str, Any]:
        """The state as ``player`` may see it (``None``: the table), plus the seed once over."""
        with self._lock:
            return {**self._game.view(self.state, player), **self._revealed()}

    def export(self, viewer: int | None = None) -> dict[str, Any]:
        """The game as a JSON-ready record, its log as ``viewer`` may see it."""
        with self._lock:
            log_lines = [
                self._game.describe(before, move, viewer) for before, move in zip(self._states, self._history)
            ]
            return {
                "game": self._game.name,
                "players": list(self.players),
                "options": dict(self._options),
                "status": self._status,
                "log": log_lines,
                **self._revealed(),
            }

    # Internals (called with the lock held).

    def _revealed(self) -> dict[str, str]:
        """The seed, but only once the game is over: before that it would tell every draw."""
        return {"seed": self._record.seed} if self.is_over else {}

    def _check(self, move: Move) -> IllegalMoveError | None:
        """Why ``move`` may not be played now, or ``None``."""
        state = self.state
        error = self._game.validate(state, move)
        if error is None and self._game.current_player(state) == CHANCE:
            outcomes = [outcome for outcome, weight in self._game.chance_outcomes(state) if weight > 0]
            if move not in outcomes:
                error = IllegalMoveError(CHANCE_RULE, "the game is waiting for a draw, and that is not one", str(move))
        return error

    def _push(self, move: Move, is_chance: bool, save: bool) -> None:
        """Apply a checked move; with ``save``, commit it to the store first."""
        state = self._game.apply(self.state, move)
        if save:
            self._store.append(self.id, len(self._history), str(move), is_chance)
        self._states.append(state)
        self._history.append(move)

    def _replay(self, ply: int, text: str, is_chance: bool) -> None:
        """Play one stored move again, checking it like a new one."""
        if ply != len(self._history):
            raise ValueError(f"the log skips from move {len(self._history) - 1} to move {ply}")
        move = self._game.parse_move(text)
        if is_chance != (self._game.current_player(self.state) == CHANCE):
            raise ValueError(f"it is stored as a {'chance step' if is_chance else 'player move'} but is not one")
        error = self._check(move)
        if error is not None:
            raise error
        self._push(move, is_chance, save=False)

    def _settle(self) -> list[Move]:
        """Make the chance steps the game waits for (with ``auto_chance``); mark the end."""
        drawn: list[Move] = []
        while self.auto_chance and self._game.current_player(self.state) == CHANCE:
            rng = step_rng(self._record.seed, len(self._history))
            move = self._game.sample_chance(self.state, rng)
            self._push(move, is_chance=True, save=True)
            drawn.append(move)
        if self.is_over and self._status != OVER:
            self._store.set_status(self.id, OVER)
            self._status = OVER
        return drawn

    def _notify(self, moves: list[Move]) -> None:
        for listener in list(self._listeners):
            try:
                listener(self, list(moves))
            except Exception:
                log.exception("a listener of game %s failed", self.id)
