"""What the panel's lights show: a pure function of the session's state.

One light per seat in the player's colour (bright for whoever must decide now, dim otherwise), a
status light (ready, waiting for a draw or a roll, error, game over) and an alert light (an event
was drawn since the last player's decision). The same ``Lights`` value drives every back end,
so after an undo, a resume or a reconnect the lights are simply computed again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.core.game import CHANCE
from companion.session import Session
from firmware_bridge.commands import Button, chance_kind

Colour = tuple[int, int, int]
OFF: Colour = (0, 0, 0)
DIM = 0.12
"""Brightness of a seat that is not to move (of its full colour)."""

READY, DRAW, ROLL, ERROR, OVER = "ready", "draw", "roll", "error", "over"
STATUS_COLOURS: dict[str, Colour] = {
    READY: (0, 170, 40),  # green: a player decides
    DRAW: (0, 90, 255),  # blue: press DRAW
    ROLL: (150, 0, 255),  # violet: press ROLL
    ERROR: (255, 0, 0),  # red: a press was refused (the tablet says why)
    OVER: (255, 255, 255),  # white: the game is over
}
ALERT_COLOUR: Colour = (255, 120, 0)
EVENT_VERBS = frozenset({"event"})
"""Chance steps that draw an event (the alert light)."""


@dataclass(frozen=True, slots=True)
class Lights:
    """Every light of the panel at one moment."""

    seats: tuple[Colour, ...]
    status: str
    alert: bool = False
    winners: tuple[int, ...] = ()

    @property
    def status_colour(self) -> Colour:
        return STATUS_COLOURS[self.status]

    @property
    def alert_colour(self) -> Colour:
        return ALERT_COLOUR if self.alert else OFF

    def with_error(self) -> Lights:
        """The same lights with the status light showing a refused press."""
        return replace(self, status=ERROR)

    def to_json(self) -> dict[str, Any]:
        return {"seats": [hex_colour(c) for c in self.seats], "status": self.status,
                "status_colour": hex_colour(self.status_colour), "alert": self.alert,
                "alert_colour": hex_colour(self.alert_colour), "winners": list(self.winners)}


NO_GAME = Lights(seats=(), status=READY)


def lights_for(session: Session) -> Lights:
    """The lights for ``session`` as it stands."""
    game, state = session.game, session.state
    colours = [parse_colour(c) for c in session.colours]
    who = game.current_player(state)
    if session.is_over:
        ranks = [row.get("rank", 0) for row in game.score(state)]
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
        seats = tuple(c if seat in winners else scale(c, DIM) for seat, c in enumerate(colours))
        return Lights(seats, OVER, winners=winners)
    deciders = game.deciders(state)  # at a simultaneous step, every seat still to choose
    seats = tuple(c if seat in deciders else scale(c, DIM) for seat, c in enumerate(colours))
    if who == CHANCE:
        status = ROLL if chance_kind(game, state) is Button.ROLL else DRAW
    else:
        status = READY
    return Lights(seats, status, alert=_event_since_decision(session))


def _event_since_decision(session: Session) -> bool:
    """Whether an event was drawn after the last move a player made."""
    for move in reversed(session.history):
        verb = str(move).split(" ", 1)[0]
        if verb in EVENT_VERBS:
            return True
        if not getattr(move, "is_chance", False):
            return False
    return False


def parse_colour(text: str) -> Colour:
    """``#rrggbb`` as an (r, g, b) triple."""
    value = int(text.lstrip("#"), 16)
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)


def hex_colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def scale(colour: Colour, factor: float) -> Colour:
    r, g, b = colour
    return (round(r * factor), round(g * factor), round(b * factor))
