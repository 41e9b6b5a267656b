"""What each panel button asks of the session, using only the core's public API.

A press becomes a move that the session validates like any other; a refusal is an error with a
sentence the tablet shows (the core's ``IllegalMoveError``/``UndoError`` or ``CommandRefused``).
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any

from companion.core.errors import CompanionError, MalformedInputError
from companion.core.game import CHANCE, Game, Move
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

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def press(session: Session, button: Button, rng: random.Random | None = None,
          choice: str | None = None, version: int | None = None) -> list[Move]:
    """Carry out ``button`` on ``session``; return the moves it made (the session's new moves).

    DRAW and ROLL make the chance step the game waits for (picked with ``rng``, by default the
    OS's secure source); NEXT plays the end-turn move; UNDO takes back the last move; OK plays
    ``choice``, the move shown on the tablet. ``version`` is the game's version the panel showed
    when pressed: a press on an older one is refused (``StaleMoveError``). Raises a
    ``CompanionError`` when refused.
    """
    if button in (Button.DRAW, Button.ROLL):
        return _chance(session, button, rng or random.SystemRandom(), version)
    if button is Button.NEXT:
        if session.is_over:
            raise CommandRefused("the game is over")
        return _play(session, END_TURN, f"{session.game.title} has no end-turn move; use the tablet", version)
    if button is Button.UNDO:
        return [session.undo(version)]
    if not choice:
        raise CommandRefused("choose a move on the tablet first, then press OK")
    return session.play_shared(choice, version)


def chance_kind(game: Game[Any, Any], state: Any) -> Button:
    """Whether the chance step ``state`` waits for is a ROLL (dice) or a DRAW (anything else).

    Judged from the verb of one sampled outcome (a fixed source: only the verb is used), as
    listing every outcome of nine dice would be slow.
    """
    verb = str(game.sample_chance(state, random.Random(0))).split(" ", 1)[0]
    return Button.ROLL if verb in ROLL_VERBS else Button.DRAW


def _chance(session: Session, button: Button, rng: random.Random, version: int | None) -> list[Move]:
    game, state = session.game, session.state
    if session.is_over:
        raise CommandRefused("the game is over: there is nothing left to draw")
    if game.current_player(state) != CHANCE:
        names = [session.players[seat] for seat in game.deciders(state)]
        whose = f"it is {names[0]}'s turn" if len(names) == 1 else f"{' and '.join(names)} are choosing"
        raise CommandRefused(f"nothing waits for {'a roll' if button is Button.ROLL else 'a draw'} now: {whose}")
    wanted = chance_kind(game, state)
    if wanted is not button:
        raise CommandRefused("the game waits for a roll of the dice: press ROLL" if wanted is Button.ROLL
                             else "the game waits for a draw from the bag: press DRAW")
    return session.play(game.sample_chance(state, rng), version)


def _play(session: Session, text: str, unknown: str, version: int | None) -> list[Move]:
    try:
        move = session.game.parse_move(text)
    except MalformedInputError:
        raise CommandRefused(unknown) from None
    return session.play(move, version)
