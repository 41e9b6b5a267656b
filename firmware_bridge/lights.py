"""What the panel's lights show: a pure function of the session's state.

One light per seat in the player's colour (bright for whoever must decide now, blinking for a seat
the game may ask next, e.g. Keyper's followers, dim otherwise), a status light (ready, waiting for a
draw or a roll, error, game over), an alert light (an event was drawn since the last player's
decision) and the indicator lights a game names (Key Market: the goods the weather favours and
spoils). The game's part comes from ``Game.panel_signals``, never from the game's name. The same ``Lights`` value drives every back end,
so after an undo, a resume or a reconnect the lights are simply computed again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.core.game import CHANCE, MAX_INDICATORS
from companion.core.messages import Message, Text
from companion.session import Session
from firmware_bridge.commands import Button, chance_kind

Colour = tuple[int, int, int]
OFF: Colour = (0, 0, 0)
DIM = 0.12
"""Brightness of a seat that is not to move (of its full colour)."""
HALF = 0.45
"""Brightness of a waiting seat on a back end that cannot blink (a board with protocol v1)."""
BLINK_SECONDS = 0.5
"""A waiting seat's light: this long at full colour, then this long dim (``DIM``)."""

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
class IndicatorLight:
    """One of the game's named lights (``companion.core.game.Indicator``): its key, what it shows, its colour."""

    key: str
    label: Text
    colour: Colour

    def to_json(self) -> dict[str, Any]:
        label = self.label.to_json() if isinstance(self.label, Message) else self.label
        return {"key": self.key, "label": label, "colour": hex_colour(self.colour)}


@dataclass(frozen=True, slots=True)
class Lights:
    """Every light of the panel at one moment. ``seats`` holds each seat's colour as shown steadily; a seat in
    ``waiting`` (its full colour in ``seats``) blinks between that colour and ``DIM`` of it."""

    seats: tuple[Colour, ...]
    status: str
    alert: bool = False
    winners: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    indicators: tuple[IndicatorLight, ...] = ()

    def indicator(self, index: int) -> Colour:
        """The colour of indicator light ``index`` (off when the game names fewer)."""
        return self.indicators[index].colour if index < min(len(self.indicators), MAX_INDICATORS) else OFF

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
                "alert_colour": hex_colour(self.alert_colour), "winners": list(self.winners),
                "waiting": list(self.waiting), "indicators": [i.to_json() for i in self.indicators]}


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
    signals = game.panel_signals(state)
    waiting = tuple(seat for seat in signals.waiting if seat not in deciders and 0 <= seat < len(colours))
    seats = tuple(c if seat in deciders or seat in waiting else scale(c, DIM) for seat, c in enumerate(colours))
    if who == CHANCE:
        status = ROLL if chance_kind(game, state) is Button.ROLL else DRAW
    else:
        status = READY
    indicators = tuple(IndicatorLight(i.key, i.label, parse_colour(i.colour)) for i in signals.indicators)
    return Lights(seats, status, alert=_event_since_decision(session), waiting=waiting, indicators=indicators)


def steady(lights: Lights, factor: float = HALF) -> tuple[Colour, ...]:
    """The seats' colours for a back end that cannot blink: a waiting seat at ``factor`` of its colour."""
    return tuple(scale(c, factor) if seat in lights.waiting else c for seat, c in enumerate(lights.seats))


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
