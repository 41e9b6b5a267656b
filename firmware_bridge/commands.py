"""What each panel button asks of the session, using only the core's public API.

A press becomes a move that the session validates like any other; a refusal is an error with a
message the tablet shows (the core's ``IllegalMoveError``/``UndoError`` or ``CommandRefused``, ``core.panel.*``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import Enum
from typing import Any

from companion.core.errors import CompanionError, MalformedInputError
from companion.core.game import CHANCE, Game, Move
from companion.core.messages import Text, msg
from companion.session import Session


class Button(str, Enum):
    """The panel's buttons by name (the pin map and the microcontroller config use these names)."""

    DRAW = "DRAW"
    ROLL = "ROLL"
    NEXT = "NEXT"
    UNDO = "UNDO"
    OK = "OK"


HOLD_BUTTONS = frozenset({Button.UNDO})
"""Buttons that act only on a long press, so that a brush of the hand does nothing."""
ROLL_VERBS = frozenset({"roll", "dice"})
"""Chance steps that are dice (ROLL); every other chance step is a draw from the bag (DRAW)."""
END_TURN = "end"
"""The move that ends a turn, in the notation of every game that has one."""


class CommandRefused(CompanionError, ValueError):
    """A button that cannot act now, with the reason for the tablet."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason)
        self.reason = str(reason)


def press(session: Session, button: Button, rng: random.Random | None = None,
          choice: str | None = None, version: int | None = None,
          rng_for: Callable[[Session], random.Random] | None = None) -> list[Move]:
    """Carry out ``button`` on ``session``; return the moves it made (the session's new moves).

    DRAW and ROLL make the chance steps the game waits for, one after the other while it waits for
    that kind (a display refilled tile by tile, a setup's draws), each picked with ``rng_for(session)``
    taken afresh before each step (else ``rng``, by default the OS's secure source); NEXT plays the
    move the game names for it (``Game.panel_signals``; by default the end-turn move ``end``); UNDO
    takes back the last move; OK plays ``choice``, the move shown on the tablet. ``version`` is the
    game's version the panel showed when pressed: a press on an older one is refused
    (``StaleMoveError``). Raises a ``CompanionError`` when refused.
    """
    if button in (Button.DRAW, Button.ROLL):
        fixed = rng or random.SystemRandom()
        return _chance(session, button, rng_for or (lambda s: fixed), version)
    if button is Button.NEXT:
        if session.is_over:
            raise CommandRefused(msg("core.panel.over"))
        move = session.game.panel_signals(session.state).next_move or END_TURN
        return _play(session, move, msg("core.panel.no_end_turn", game=session.game.title), version)
    if button is Button.UNDO:
        return [session.undo(version)]
    if not choice:
        raise CommandRefused(msg("core.panel.choose_first"))
    return session.play_shared(choice, version)


def chance_kind(game: Game[Any, Any], state: Any) -> Button:
    """Whether the chance step ``state`` waits for is a ROLL (dice) or a DRAW (anything else).

    Judged from the verb of one sampled outcome (a fixed source: only the verb is used), as
    listing every outcome of nine dice would be slow.
    """
    verb = str(game.sample_chance(state, random.Random(0))).split(" ", 1)[0]
    return Button.ROLL if verb in ROLL_VERBS else Button.DRAW


def _chance(session: Session, button: Button, rng_for: Callable[[Session], random.Random],
            version: int | None) -> list[Move]:
    """The chance step the game waits for, then each further one of the same kind until a player decides."""
    moves = _one_chance(session, button, rng_for(session), version)
    game = session.game
    while game.current_player(session.state) == CHANCE and chance_kind(game, session.state) is button:
        moves += session.play(session.next_draw(rng_for(session)))
    return moves


def _one_chance(session: Session, button: Button, rng: random.Random, version: int | None) -> list[Move]:
    game, state = session.game, session.state
    if session.is_over:
        raise CommandRefused(msg("core.panel.nothing_left"))
    if game.current_player(state) != CHANCE:
        names = [session.players[seat] for seat in game.deciders(state)]
        whose = (msg("core.panel.turn", name=names[0]) if len(names) == 1
                 else msg("core.panel.choosing", names=names, n=len(names)))
        raise CommandRefused(msg("core.panel.no_roll" if button is Button.ROLL else "core.panel.no_draw", whose=whose))
    wanted = chance_kind(game, state)
    if wanted is not button:
        raise CommandRefused(msg("core.panel.press_roll") if wanted is Button.ROLL else msg("core.panel.press_draw"))
    return session.play(session.next_draw(rng), version)


def _play(session: Session, text: str, unknown: Text, version: int | None) -> list[Move]:
    try:
        move = session.game.parse_move(text)
    except MalformedInputError:
        raise CommandRefused(unknown) from None
    return session.play(move, version)
