"""Lights over a whole game: the event alert, the end show, the winners' lights."""

from __future__ import annotations

import random
import time

from companion.session import Session
from companion.store import GameStore
from firmware_bridge.controller import PanelController
from firmware_bridge.lights import DIM, OVER, Lights, lights_for, scale
from firmware_bridge.panel import SimulatedPanel


class Recorder(SimulatedPanel):
    def __init__(self) -> None:
        super().__init__()
        self.history: list[Lights] = []

    def show(self, lights: Lights) -> None:
        super().show(lights)
        self.history.append(lights)


def test_a_whole_game_alert_end_show_and_winners(store: GameStore) -> None:
    session = Session.new(store, "key-harvest", ["Alice", "Bob"], seed="lights-over",
                          colours=["#ff0000", "#0000ff"])
    panel = Recorder()
    control = PanelController([panel])
    control.follow(session)
    rng = random.Random(1)
    alerts = quiet = 0
    while not session.is_over:
        moves = session.play(rng.choice(session.game.legal_moves(session.state)))
        if session.is_over:
            break
        drew_event = any(str(m).startswith("event ") for m in moves)
        if drew_event:
            assert lights_for(session).alert, f"no alert after {[str(m) for m in moves]}"
            assert panel.lights.alert
            alerts += 1
        elif not lights_for(session).alert:
            quiet += 1
    assert alerts >= 5 and quiet > 100  # events came up, and the alert went out again after each
    deadline = time.monotonic() + 5
    time.sleep(0.05)
    while control.showing:
        assert time.monotonic() < deadline, "the end show did not finish"
        time.sleep(0.05)
    show = [lights for lights in panel.history if lights.status == OVER]
    assert len(show) >= 10  # the show's frames, then the final lights
    final = panel.history[-1]
    winners = final.winners
    ranks = [row["rank"] for row in session.game.score(session.state)]
    assert winners == tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    colours = [(255, 0, 0), (0, 0, 255)]
    assert list(final.seats) == [c if seat in winners else scale(c, DIM) for seat, c in enumerate(colours)]
    assert final.status_colour == (255, 255, 255)
    result = control.press("UNDO", 2)  # HOLD
    assert result["ok"] is False and "the game is over" in result["text"]
    control.close()
