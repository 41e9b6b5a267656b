"""One stored game being played: the game's rules on one side, the saved move log on the other.

Every move is checked, applied, and committed to the store before ``play`` returns. Chance
steps are picked with ``step_rng(seed, ply)``, so a game reopened after a power cut goes on
exactly as it would have, and the seed stays secret until the game is over.

An undo takes back the last player move and the draws it set off. Those draws are put back, and the
store keeps them in the order they came out: the next chance steps give them again first, each while
it is still a possible outcome, so an undo never lets a table draw anew for a better piece.
"""

from __future__ import annotations

import logging
import random
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    MalformedInputError,
    StaleMoveError,
    UndoError,
)
from companion.core.game import CHANCE, SCREEN_RULE, SIMULTANEOUS, TERMINAL, Game, Move
from companion.core.messages import Text, msg
from companion.core.options import Options
from companion.core.picks import PickTree, node_json
from companion.core.rng import new_seed, step_rng
from companion.games import find_game
from companion.store import OVER, PLAYING, GameRecord, GameStore

log = logging.getLogger(__name__)

CHANCE_RULE = "CHANCE"
"""Rule ID for a move of the wrong kind: a player's move at a chance step, or a chance outcome
at a player's turn. Games should use it too when ``validate`` sees a chance outcome out of turn."""

ENGINE_RULE = "ENGINE"
"""Rule ID when applying a move (or the draws it sets off) raises inside the game's code: the move is refused and
nothing is stored, so a stored game can always go on."""

Listener = Callable[["Session", list[Move]], None]
"""Called after each change with the new moves (an empty list after an undo or a reload)."""


SEAT_COLOURS = ("#c0392b", "#2471a3", "#d4ac0d", "#239b56")
"""Each seat's colour when the table chooses none (for the tablet and the seat lights)."""
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")

MAX_NAME = 40
"""The longest player name (characters)."""
MAX_OPTION = 40
"""The longest variant flag name or value (characters)."""
MAX_MOVE = 500
"""The longest move text (characters)."""
MAX_RETURNED = 200
"""The most put-back draws a game keeps (the oldest beyond are forgotten)."""


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players' names, stripped: each printable text of 1 to ``MAX_NAME`` characters."""
    names = []
    for seat, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise MalformedInputError(msg("core.refuse.name_missing", seat=seat + 1))
        name = name.strip()
        if len(name) > MAX_NAME:
            raise MalformedInputError(msg("core.refuse.name_too_long", seat=seat + 1, n=len(name), most=MAX_NAME))
        if not name.isprintable():
            raise MalformedInputError(msg("core.refuse.name_unprintable", seat=seat + 1))
        if name in names:
            raise MalformedInputError(msg("core.refuse.name_twice", name=name))
        names.append(name)
    return tuple(names)


def check_options(options: Mapping[str, str] | None) -> dict[str, str]:
    """Variant flags as short texts (the game checks the names and values themselves)."""
    chosen = dict(options or {})
    for name, value in chosen.items():
        if not isinstance(name, str) or not isinstance(value, str):
            raise MalformedInputError(msg("core.refuse.option_text"))
        if len(name) > MAX_OPTION or len(value) > MAX_OPTION:
            raise MalformedInputError(msg("core.refuse.option_too_long", n=MAX_OPTION))
    return chosen


def check_move_text(text: str) -> str:
    """A move's text, refused if longer than ``MAX_MOVE`` characters."""
    if len(text) > MAX_MOVE:
        raise MalformedInputError(msg("core.refuse.move_too_long", n=MAX_MOVE, given=len(text)))
    return text


def check_colours(colours: Sequence[str] | None, seats: int) -> tuple[str, ...]:
    """The seats' colours as ``#rrggbb``, one per seat and all different; defaults if none given."""
    if colours is None:
        return SEAT_COLOURS[:seats]
    chosen = tuple(str(c).strip().lower() for c in colours)
    if len(chosen) != seats or not all(_COLOUR.match(c) for c in chosen):
        raise MalformedInputError(msg("core.refuse.colours", given=", ".join(map(str, colours))))
    if len(set(chosen)) != seats:
        raise MalformedInputError(msg("core.refuse.colours_same"))
    return chosen


class Session:
    """A game from the store, played move by move. Create with ``new`` or ``open``.

    Every change names the ``version`` it was chosen from; a change chosen from an older version is refused with
    ``StaleMoveError`` (the table has moved on), also when another process changed the stored game first.
    """

    def __init__(
        self, store: GameStore, record: GameRecord, game: Game[Any, Any], options: Options, state: Any, auto_chance: bool
    ) -> None:
        self._store = store
        self._record = record
        self._game = game
        self._options = options
        self._status = record.status
        self._setup = state
        self._states: list[Any] = [state]  # _states[i] is the state before _history[i]
        self._history: list[Move] = []
        self._version = record.version
        self._plies_at: dict[int, int] = {}
        """Since the last undo or reload: how many moves the log held at each version this session reached."""
        self._listeners: list[Listener] = []
        self._lines: dict[int | None, list[tuple[Any, Move, Text]]] = {}
        """Per viewer, the log lines made so far with the state and move each was made from (``_log``)."""
        self._returned: list[Move] = []
        """The draws undos put back that have not come out again, in order (the store keeps them too)."""
        self._trees: dict[int | None, tuple[tuple[int, int, int | None], PickTree[Move]]] = {}
        """Per seat (``None``: the table), the pick tree of the moves offered now, and the version it was made at."""
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
        players = check_players(players)
        if not game.min_players <= len(players) <= game.max_players:
            raise MalformedInputError(msg("core.refuse.player_count", game=game.title, least=game.min_players,
                                          most=game.max_players, n=len(players)))
        chosen = game.options(check_options(options))
        seat_colours = check_colours(colours, len(players))
        state = game.setup(players, chosen)
        game_id = store.create(game.name, players, chosen, new_seed() if seed is None else seed, game.edition(),
                               seat_colours, game.notation)
        session = cls(store, store.get(game_id), game, chosen, state, auto_chance)
        with session._lock:
            session._commit(*session._draws([], [state]))
        return session

    @classmethod
    def open(cls, store: GameStore, game_id: str, auto_chance: bool = True) -> Session:
        """Resume a stored game by replaying its log from the setup, checking every move. A log in an older
        notation is rewritten once in today's (``Game.upgrade_log``)."""
        record = store.get(game_id)
        try:
            game = find_game(record.game).with_edition(record.edition)
            options = game.options(record.options)
            state = game.setup(record.players, options)
        except Exception as error:
            raise CorruptSaveError(f"saved game {game_id} cannot be set up again: {error}") from error
        session = cls(store, record, game, options, state, auto_chance)
        with session._lock:
            session._load()
            session._commit(*session._draws([], [session.state]))  # finish chance steps cut short by a crash
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
    def version(self) -> int:
        """The stored game's version this session shows: every move and undo raises it."""
        return self._version

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def lock(self) -> threading.RLock:
        """Held while the session changes: hold it to read several things of one version together."""
        return self._lock

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
    def last_decision(self) -> int:
        """The ply of the last player move (0 before the first): that move and the draws after it are what the
        table does now."""
        with self._lock:
            return self._decision() or 0

    @property
    def decided(self) -> bool:
        """Whether a player has moved yet (the log holds more than the setup's draws)."""
        with self._lock:
            return self._decision() is not None

    @property
    def is_over(self) -> bool:
        return self._game.is_over(self.state)

    # Playing.

    def play(self, move: Move | str, version: int | None = None, seat: int | None = None) -> list[Move]:
        """Check, apply and store ``move`` (then any chance steps); return every new move.

        ``version`` is the version the move was chosen from: if the game has changed since, ``StaleMoveError``
        (except at a simultaneous step, where other seats' secret choices do not change this seat's options).
        ``seat``, when given, must be the seat the move belongs to. An illegal move raises ``IllegalMoveError``
        and changes nothing; so does a move whose application fails inside the game's code.
        """
        with self._lock:
            self.sync()
            move = self._game.parse_move(check_move_text(move)) if isinstance(move, str) else move
            state = self.state
            self._check_version(version, state, move)
            at_chance = self._game.current_player(state) == CHANCE
            if at_chance and self.auto_chance:
                raise IllegalMoveError(CHANCE_RULE, msg("core.refuse.draws_automatic"), str(move))
            if seat is not None and at_chance:  # a seat's page never names what is drawn
                raise IllegalMoveError(CHANCE_RULE, msg("core.refuse.draws_automatic"), str(move))
            if seat is not None and self._game.current_player(state) != TERMINAL:
                owner = self._game.seat_of(state, move)
                if owner != seat:
                    raise IllegalMoveError("SEAT", msg("core.refuse.not_your_seat"), str(move))
            error = self._check(move)
            if error is not None:
                raise error
            chain, states, returned = self._draws([move], [state, self._apply(state, move, move)])
            self._commit(chain, states, returned)
            new = [m for m, _ in chain]
            self._notify(new)
            return new

    def play_shared(self, move: Move | str, version: int | None = None) -> list[Move]:
        """``play`` from a shared screen (the tablet's table, the panel): a secret move (a choice made behind a
        screen, e.g. La Granja's donkeys) or a move the table is not offered (``public_moves``: a card from the hand,
        goods from behind a screen) is refused, as it belongs on its seat's own page, and refused alike whether it is
        legal or not; a draw is never named by a device (the companion or the panel's DRAW button makes it); a
        refusal reads as the table may read it (``table_refusal``). A move chosen from an older version is stale
        before anything else, so a stale answer tells nothing of the move either."""
        with self._lock:
            try:
                parsed = self._game.parse_move(move) if isinstance(move, str) else move
                self.sync()
                state = self.state
                self._check_version(version, state, parsed)
                who = self._game.current_player(state)
                if who == CHANCE:
                    raise IllegalMoveError(CHANCE_RULE, msg("core.refuse.draws_automatic"), str(parsed))
                secret = who == SIMULTANEOUS or (self._game.validate(state, parsed) is None and (
                    self._game.is_secret(state, parsed) or parsed not in self._game.public_moves(state)))
                if secret:
                    raise IllegalMoveError(SCREEN_RULE, msg("core.refuse.secret_choice"), str(parsed))
                return self.play(parsed, version)
            except IllegalMoveError as error:
                raise self.table_refusal(error) from None

    def undoable(self) -> tuple[Move | None, Text | None]:
        """The player move an undo would take back (with the draws after it), or ``None`` and the reason nothing
        may be undone."""
        with self._lock:
            ply = self._decision()
            if not self._history or ply is None:
                return None, msg("core.undo.nothing_yet")
            if self.is_over:
                return None, msg("core.undo.game_over")
            return self._history[ply], None

    def undo(self, version: int | None = None) -> Move:
        """Take back the last player move and the draws it set off: those are put back, to come out again first,
        in the same order, at the next chance steps. With ``version``, the undo is refused (``StaleMoveError``)
        if the game has changed since that version."""
        with self._lock:
            self.sync()
            if version is not None and version != self._version:
                raise StaleMoveError(self._version)
            move, reason = self.undoable()
            ply = self._decision()
            if move is None or ply is None:
                raise UndoError(reason or msg("core.undo.nothing_yet"))
            draws = self._history[ply + 1:]
            returned = (draws + self._returned)[:MAX_RETURNED]
            try:
                self._version = self._store.truncate(self.id, ply, self._version,
                                                     [str(m) for m in returned] if draws else None)
            except StaleMoveError:
                self._reload()
                raise
            del self._states[ply + 1:]
            del self._history[ply:]
            self._returned = returned
            self._status = PLAYING
            self._plies_at = {}
            self._notify([])
            return move

    def sync(self) -> bool:
        """Catch up with moves another process stored (``companion play`` beside the service); whether the game
        changed. Listeners are told, as after any change."""
        with self._lock:
            if self._store.version(self.id) == self._version:
                return False
            self._reload()
            return True

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
            log_lines = self._log(viewer)
            return {
                "game": self._game.name,
                "players": list(self.players),
                "options": dict(self._options),
                "status": self._status,
                "log": log_lines,
                **self._revealed(),
            }

    def table_refusal(self, error: IllegalMoveError) -> IllegalMoveError:
        """``error`` as a shared screen (the tablet, the terminal, the panel) may show it (``Game.table_refusal``)."""
        with self._lock:
            try:
                move = self._game.parse_move(error.move)
            except MalformedInputError:
                return error
            return self._game.table_refusal(self.state, move, error)

    def offered(self, seat: int | None) -> list[Move]:
        """The moves ``seat`` may pick now on its own page (at a simultaneous step: its own choices), or with
        ``None`` the moves the shared table is offered (``Game.public_moves``)."""
        with self._lock:
            state, game = self.state, self._game
            if seat is None:
                return game.public_moves(state)
            if seat not in game.deciders(state):
                return []
            return [m for m in game.legal_moves(state) if game.seat_of(state, m) == seat]

    def pick_tree(self, seat: int | None) -> PickTree[Move]:
        """The picks of the moves ``offered`` to ``seat`` now (kept until the game changes)."""
        with self._lock:
            key = (self._version, len(self._history), seat)
            cached = self._trees.get(seat)
            if cached is not None and cached[0] == key:
                return cached[1]
            state, game = self.state, self._game
            tree: PickTree[Move] = PickTree((m, game.pick_path(state, m)) for m in self.offered(seat))
            self._trees[seat] = (key, tree)
            return tree

    def picks(self, seat: int | None, chosen: Sequence[str], version: int | None = None) -> dict[str, Any]:
        """The next pick after ``chosen`` for ``seat`` (``None``: the shared table) as a device receives it
        (``picks.node_json``), with the version it was computed from; ``StaleMoveError`` if ``version`` is not the
        game's now. A device's request (with its ``version``) first catches up with the store; a view being built
        (no ``version``) reads the session as it is, without another store read."""
        with self._lock:
            if version is not None:
                self.sync()
                if version != self._version:
                    raise StaleMoveError(self._version)
            node = self.pick_tree(seat).node(chosen)
            state = self.state
            done = node.done
            words = None if done is None else self._game.move_text(state, done)
            confirm = done is not None and (bool(node.groups) or self._game.confirms(state, done))
            return {"version": self._version, **node_json(node, words, confirm)}

    def picked_move(self, seat: int | None, chosen: Sequence[str]) -> Move:
        """The move the picks ``chosen`` make for ``seat`` now; ``MalformedInputError`` if they make none."""
        with self._lock:
            return self.pick_tree(seat).move_of(chosen)

    def undo_info(self) -> dict[str, Any]:
        """What Undo would take back, as the whole table may read it, or why it is not possible: ``move`` in words,
        and ``lines``, what the table then does: take the move back, put back each piece drawn since (a hidden
        draw masked as in the table's log), which come out again at the next draws."""
        with self._lock:
            move, reason = self.undoable()
            ply = self._decision()
            if move is None or ply is None:
                return {"possible": False, "move": None, "reason": reason, "draws": [], "lines": []}
            describe = self._game.describe
            text = describe(self._states[ply], move, None)
            draws = [describe(self._states[n], self._history[n], None) for n in range(ply + 1, len(self._history))]
            lines: list[Text] = [msg("core.undo.took_back", move=text)]
            lines += [msg("core.undo.put_back", draw=draw) for draw in draws]
            if draws:
                lines.append(msg("core.undo.same_again", n=len(draws)))
            return {"possible": True, "move": text, "reason": None, "draws": draws, "lines": lines}

    def next_draw(self, rng: random.Random) -> Move:
        """The outcome of the chance step the game waits for: the first put-back draw that is still a possible
        outcome, else one picked with ``rng`` (the panel's DRAW button draws this way)."""
        with self._lock:
            return self._draw(self.state, rng, self._returned)

    # Internals (called with the lock held).

    def _log(self, viewer: int | None) -> list[Text]:
        """The log as ``viewer`` may see it. A line is a function of the state before its move and the move: each
        is kept while that state and move are the very objects it was made from (an undo or a reload replaces them)."""
        kept = self._lines.setdefault(viewer, [])
        del kept[len(self._history):]
        for ply, (before, move) in enumerate(zip(self._states, self._history)):
            if ply < len(kept):
                if kept[ply][0] is before and kept[ply][1] is move:
                    continue
                del kept[ply:]
            kept.append((before, move, self._game.describe(before, move, viewer)))
        return [line for _, _, line in kept]

    def _revealed(self) -> dict[str, str]:
        """The seed, but only once the game is over: before that it would tell every draw."""
        return {"seed": self._record.seed} if self.is_over else {}

    def _check_version(self, version: int | None, state: Any, move: Move) -> None:
        """Refuse a move chosen from an older version, unless only other seats' simultaneous choices came since."""
        if version is None or version == self._version:
            return
        plies = self._plies_at.get(version)
        if plies is None or self._game.current_player(state) != SIMULTANEOUS:
            raise StaleMoveError(self._version)
        seat = self._game.seat_of(state, move)
        for before, done in zip(self._states[plies:-1], self._history[plies:]):
            if self._game.current_player(before) != SIMULTANEOUS or self._game.seat_of(before, done) == seat:
                raise StaleMoveError(self._version)

    def _check(self, move: Move, state: Any = None) -> IllegalMoveError | None:
        """Why ``move`` may not be played in ``state`` (default: now), or ``None``."""
        state = self.state if state is None else state
        error = self._game.validate(state, move)
        if error is None and self._game.current_player(state) == CHANCE:
            outcomes = [outcome for outcome, weight in self._game.chance_outcomes(state) if weight > 0]
            if move not in outcomes:
                error = IllegalMoveError(CHANCE_RULE, msg("core.refuse.not_a_draw"), str(move))
        return error

    def _apply(self, state: Any, move: Move, decided: Move) -> Any:
        """``game.apply``; if the game's code raises, the player's move ``decided`` is refused with the reason."""
        try:
            return self._game.apply(state, move)
        except Exception as error:
            log.exception("game %s: applying %r failed", self.id, str(move))
            what = msg("core.engine.this_move") if move == decided else msg("core.engine.next_draw", move=str(move))
            raise IllegalMoveError(
                ENGINE_RULE, msg("core.refuse.engine", what=what, error=f"{type(error).__name__}: {error}"), str(decided)
            ) from error

    def _decision(self) -> int | None:
        """The ply of the last player move, or ``None`` if there is none (only the setup's draws, or nothing)."""
        return next((ply for ply in range(len(self._history) - 1, -1, -1)
                     if self._game.current_player(self._states[ply]) != CHANCE), None)

    def _draw(self, state: Any, rng: random.Random, returned: list[Move]) -> Move:
        """The outcome of the chance step at ``state``: the first of the put-back draws ``returned`` that is a
        possible outcome there (``chance_outcomes``), else one picked with ``rng``."""
        if returned:
            possible = [outcome for outcome, weight in self._game.chance_outcomes(state) if weight > 0]
            for draw in returned:
                if draw in possible:
                    return draw
        drawn: Move = self._game.sample_chance(state, rng)
        return drawn

    def _draws(self, moves: list[Move], states: list[Any]) -> tuple[list[tuple[Move, bool]], list[Any], list[Move]]:
        """``moves`` (``states`` holds the state before the first and after each) followed by the chance steps
        the game then waits for, each with whether it is a chance step; the state after each; and the put-back
        draws left once those chance steps are made. Nothing is stored yet."""
        chain = [(move, self._game.current_player(before) == CHANCE) for move, before in zip(moves, states)]
        returned = list(self._returned)
        for move, is_chance in chain:
            if is_chance and move in returned:  # a draw named by the table: that piece is out of the bag
                returned.remove(move)
        decided = moves[0] if moves else None
        while self.auto_chance and self._game.current_player(states[-1]) == CHANCE:
            rng = step_rng(self._record.seed, len(self._history) + len(chain))
            draw = self._draw(states[-1], rng, returned)
            states.append(self._apply(states[-1], draw, decided or draw))
            chain.append((draw, True))
            if draw in returned:
                returned.remove(draw)
        return chain, states[1:], returned

    def _commit(self, chain: list[tuple[Move, bool]], states: list[Any], returned: list[Move]) -> None:
        """Store ``chain`` (the moves leading to ``states``) and the put-back draws left (``returned``) in one
        transaction at the version this session shows, then hold them."""
        over = bool(states) and self._game.is_over(states[-1])
        status = OVER if over and self._status != OVER else None
        if not chain and status is None:
            return
        changed = returned != self._returned
        try:
            self._version = self._store.append(self.id, len(self._history), [(str(m), c) for m, c in chain],
                                               self._version, status, [str(m) for m in returned] if changed else None)
        except StaleMoveError:
            self._reload()
            raise
        self._plies_at[self._version - 1] = len(self._history)
        self._states.extend(states)
        self._history.extend(m for m, _ in chain)
        self._returned = returned
        if over:
            self._status = OVER

    def _load(self) -> None:
        """Replay the stored log from the setup (upgrading an old notation once, in the store too)."""
        stored = self._store.moves(self.id)
        version = self._store.version(self.id)
        for index, (ply, text, _) in enumerate(stored):
            if ply != index:
                raise CorruptSaveError(f"saved game {self.id}: move {ply} ({text!r}) cannot be replayed: "
                                       f"the log skips from move {index - 1} to move {ply}")
        texts = [(text, is_chance) for _, text, is_chance in stored]
        notation = self._record.notation
        upgraded = texts if notation >= self._game.notation else self._game.upgrade_log(texts, notation)
        for ply, (text, is_chance) in enumerate(upgraded):
            try:
                self._replay(text, is_chance)
            except Exception as error:
                raise CorruptSaveError(
                    f"saved game {self.id}: move {ply} ({text!r}) cannot be replayed: {error}"
                ) from error
        self._version = version
        self._returned = []
        for text in self._store.returned(self.id):
            try:
                self._returned.append(self._game.parse_move(text))
            except (MalformedInputError, ValueError):  # written in an older notation: that piece is simply drawn anew
                log.warning("game %s: a put-back draw %r cannot be read; dropped", self.id, text)
        if notation < self._game.notation:
            self._version = self._store.rewrite(self.id, upgraded, self._game.notation, version)
            self._record = self._store.get(self.id)
            log.info("game %s: log rewritten in notation %d (%d moves -> %d)", self.id, self._game.notation,
                     len(texts), len(upgraded))

    def _reload(self) -> None:
        """Forget the moves in memory and replay the stored log again (another process changed it)."""
        self._record = self._store.get(self.id)
        self._status = self._record.status
        self._states = [self._setup]
        self._history = []
        self._plies_at = {}
        self._load()
        self._notify([])

    def _replay(self, text: str, is_chance: bool) -> None:
        """Play one stored move again, checking it like a new one."""
        move = self._game.parse_move(text)
        if is_chance != (self._game.current_player(self.state) == CHANCE):
            raise ValueError(f"it is stored as a {'chance step' if is_chance else 'player move'} but is not one")
        error = self._check(move)
        if error is not None:
            raise error
        self._states.append(self._game.apply(self.state, move))
        self._history.append(move)

    def _notify(self, moves: list[Move]) -> None:
        for listener in list(self._listeners):
            try:
                listener(self, list(moves))
            except Exception:
                log.exception("a listener of game %s failed", self.id)
