"""Seeded random playouts of any game, checking every move, every invariant and the replay.

Chance steps are picked as the session picks them, with ``step_rng``; a player's move is
picked uniformly from ``legal_moves`` (``Game.random_move``) with a generator seeded the same
way, so a run is fully determined by its seed and can be repeated to chase a failure.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, TERMINAL, Game, Move
from companion.core.rng import step_rng

DEFAULT_MAX_MOVES = 10_000


@dataclass(frozen=True, slots=True)
class Failure:
    """What went wrong in one playout, and where: game index, ply, move text."""

    game_index: int
    ply: int
    move: str
    reason: str

    def __str__(self) -> str:
        move = f" move {self.move!r}:" if self.move else ""
        return f"game {self.game_index}, ply {self.ply}:{move} {self.reason}"


@dataclass(frozen=True)
class SimulationResult:
    """The tally of a run of playouts."""

    game: str
    players: int
    seed: str
    options: Mapping[str, str]
    games: int
    finished: int
    moves: int
    chance_moves: int
    seconds: float
    invariant_checks: Mapping[str, int]
    failures: tuple[Failure, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (what ``companion simulate --json`` prints)."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "games": self.games,
            "finished": self.finished,
            "moves": self.moves,
            "chance_moves": self.chance_moves,
            "seconds": round(self.seconds, 6),
            "games_per_second": round(self.games_per_second, 1),
            "moves_per_second": round(self.moves_per_second, 1),
            "invariant_checks": dict(self.invariant_checks),
            "failures": [
                {"game_index": f.game_index, "ply": f.ply, "move": f.move, "reason": f.reason} for f in self.failures
            ],
        }

    def summary(self) -> str:
        """The result as a few lines of text."""
        lines = [
            f"{self.game}: {self.games} games of {self.players} players, seed {self.seed!r}, {self.finished} finished",
            (
                f"moves: {self.moves} ({self.chance_moves} chance) in {self.seconds:.3f} s: "
                f"{self.games_per_second:.1f} games/s, {self.moves_per_second:.1f} moves/s"
            ),
        ]
        lines.append("invariants checked:" if self.invariant_checks else "invariants checked: none declared")
        lines.extend(f"  {name}: {count}" for name, count in self.invariant_checks.items())
        lines.append(f"failures: {len(self.failures)}")
        lines.extend(f"  {failure}" for failure in self.failures)
        return "\n".join(lines)


def random_playout(game: Game[Any, Any], players: int, seed: int, validate: bool = False) -> tuple[Any, int]:
    """One bare random game for benchmarks (no invariants, no log): chance by weight, player moves
    uniformly from ``legal_moves`` (``Game.random_move``), each validated too if ``validate``. Its final
    state and move count."""
    rng = random.Random(seed)
    state = game.setup([f"P{n}" for n in range(players)], game.options())
    moves = 0
    while (who := game.current_player(state)) != TERMINAL:
        if who == CHANCE:
            move = game.sample_chance(state, rng)
        else:
            move = game.random_move(state, rng)
            if validate:
                assert game.validate(state, move) is None
        state = game.apply(state, move)
        moves += 1
    return state, moves


def simulate(
    game: Game[Any, Any],
    players: int,
    games: int,
    seed: str,
    options: Mapping[str, str] | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> SimulationResult:
    """Play ``games`` random games of ``players`` seats and check each one (see the module doc)."""
    if not game.min_players <= players <= game.max_players:
        raise MalformedInputError(
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}"
        )
    if games < 0 or max_moves < 1:
        raise MalformedInputError("the number of games must be at least 0 and max moves at least 1")
    chosen = game.options(options)
    seats = tuple(f"P{n}" for n in range(1, players + 1))
    run = _Run(game, seats, chosen, max_moves)
    started = time.perf_counter()
    for index in range(games):
        run.play(index, f"{seed}:{index}")
    seconds = time.perf_counter() - started
    return SimulationResult(
        game=game.name,
        players=players,
        seed=seed,
        options=dict(chosen),
        games=games,
        finished=run.finished,
        moves=run.moves,
        chance_moves=run.chance_moves,
        seconds=seconds,
        invariant_checks=dict(run.checks),
        failures=tuple(run.failures),
    )


class _Run:
    """The counters of a run, and one playout at a time."""

    def __init__(
        self, game: Game[Any, Any], seats: tuple[str, ...], options: Mapping[str, str], max_moves: int
    ) -> None:
        self.game = game
        self.seats = seats
        self.options = options
        self.max_moves = max_moves
        self.finished = 0
        self.moves = 0
        self.chance_moves = 0
        self.checks = {name: 0 for name in game.invariant_names}
        self.failures: list[Failure] = []

    def play(self, index: int, game_seed: str) -> None:
        """One playout and its replay; the first problem is recorded as a failure."""
        game = self.game
        history: list[Move] = []
        move: Move | None = None
        try:
            state = game.setup(self.seats, game.options(self.options))
            if self.broken(index, 0, None, state):
                return
            for ply in range(self.max_moves):
                move = None
                player = game.current_player(state)
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    outcomes = game.chance_outcomes(state)
                    if not outcomes:
                        self.fail(index, ply, None, "a chance step with no outcomes")
                        return
                    move = game.sample_chance(state, step_rng(game_seed, ply))
                    if move not in {outcome for outcome, weight in outcomes if weight > 0}:
                        self.fail(index, ply, move, "sample_chance picked a move that is not a chance outcome")
                        return
                    self.chance_moves += 1
                else:
                    legal = game.legal_moves(state)
                    if not legal:
                        self.fail(index, ply, None, f"seat {player} has no legal move but the game is not over")
                        return
                    move = game.random_move(state, step_rng(game_seed, ply))
                    error = game.validate(state, move)
                    if error is not None:
                        self.fail(index, ply, move, f"generated move refused: {error}")
                        return
                state = game.apply(state, move)
                history.append(move)
                self.moves += 1
                if self.broken(index, ply + 1, move, state):
                    return
            else:
                if game.current_player(state) != TERMINAL:
                    self.fail(index, self.max_moves, None, f"the game did not end within {self.max_moves} moves")
                    return
            self.finished += 1
            self.replay(index, history, state)
        except Exception as exc:  # noqa: BLE001 -- a crash in the game's code is a failure like any other
            self.fail(index, len(history), move, f"raised {type(exc).__name__}: {exc}")

    def broken(self, index: int, ply: int, move: Move | None, state: Any) -> bool:
        """Check the invariants of ``state``; record a failure and return True if any is broken."""
        violations = self.game.invariant_violations(state)
        for name in self.checks:
            self.checks[name] += 1
        if violations:
            self.fail(index, ply, move, "invariant broken: " + "; ".join(violations))
            return True
        return False

    def replay(self, index: int, history: list[Move], final: Any) -> None:
        """Replay the move list through its text notation and compare the final states."""
        game = self.game
        state = game.setup(self.seats, game.options(self.options))
        for ply, move in enumerate(history):
            parsed = game.parse_move(str(move))
            if parsed != move:
                self.fail(index, ply, move, f"replay: the move text parses back as {str(parsed)!r}")
                return
            state = game.apply(state, parsed)
        if state != final:
            self.fail(index, len(history), None, "replay: replaying the move list gives a different final state")

    def fail(self, index: int, ply: int, move: Move | None, reason: str) -> None:
        self.failures.append(Failure(index, ply, "" if move is None else str(move), reason))
