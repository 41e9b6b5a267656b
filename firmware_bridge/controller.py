"""Ties one session to the panels: presses become moves, the session's state becomes lights.

The controller follows one game at a time (``follow``). Each press goes through
``commands.press``; a refused press turns the status light red for ``error_seconds`` and leaves
its reason in ``message`` for the tablet. After every change of the session (a move from any
source, an undo) the lights are computed again from the state and sent to every panel; when the
game ends they play a short show first. Nothing here holds the controller's lock while calling the
session, so presses from panel threads and moves from the web never wait on each other.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.core.errors import CompanionError, IllegalMoveError, StaleMoveError
from companion.core.game import SIMULTANEOUS, Move
from companion.core.messages import FALLBACK, Message, Text, msg, render
from companion.session import Session
from firmware_bridge.commands import HOLD_BUTTONS, Button, CommandRefused, press
from firmware_bridge.lights import NO_GAME, OVER, Lights, lights_for, scale
from firmware_bridge.panel import Panel
from firmware_bridge.protocol import HOLD, PRESS

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
SHOW_FRAMES = 12
SHOW_FRAME_SECONDS = 0.12


class PanelController:
    """The panels of the table and the game they drive.

    :param panels: every back end in use (simulated, GPIO, serial), all showing the same lights.
    :param hold_seconds: how long UNDO must be held (for the hint on a short press).
    :param error_seconds: how long the status light shows a refused press.
    :param rng_for: the random source for a button draw in ``session`` (default: the OS's).
    :param language: the table's language, in which the panel's messages are written (``text``; ``message``
        keeps each as data for a screen that reads another language).
    """

    def __init__(self, panels: Sequence[Panel], hold_seconds: float = 1.0, error_seconds: float = 1.0,
                 rng_for: Callable[[Session], random.Random] | None = None, language: str = FALLBACK) -> None:
        self.panels = list(panels)
        self.language = language
        self.hold_seconds = hold_seconds
        self.error_seconds = error_seconds
        self.rng_for = rng_for
        self.session: Session | None = None
        self.choice: str | None = None
        self.message: dict[str, Any] = {"text": "", "ok": True}
        self.lights: Lights = NO_GAME
        self.shown_version: int | None = None
        """The version of the game the lights show: a physical press is chosen from it."""
        self._error_until = 0.0
        self._lock = threading.Lock()
        self._out = threading.Lock()  # one light update at a time, in order
        self._subscriptions: list[tuple[Session, Callable[[], None]]] = []
        self._listeners: list[Listener] = []
        self._timer: threading.Timer | None = None
        self._show: threading.Thread | None = None
        for panel in self.panels:
            panel.on_press = self.on_press

    # ------------------------------------------------------------ the game

    def follow(self, session: Session | None) -> None:
        """Drive ``session`` (``None``: no game) and show its lights.

        Sessions once followed stay subscribed (their changes are ignored while another game is
        followed): unsubscribing would take the old session's lock, which a move there may hold.
        """
        with self._lock:
            if session is self.session:
                return
            self.session, self.choice = session, None
            self.message = {"text": "", "ok": True}
            subscribe = session is not None and all(s is not session for s, _ in self._subscriptions)
        if session is not None and subscribe:
            self._subscriptions.append((session, session.subscribe(self._changed)))
        self.refresh()

    def choose(self, move: str | None) -> None:
        """The move shown on the tablet, which OK plays. A secret choice (every choice at a simultaneous step, a
        legal move the game keeps secret) is refused (``CommandRefused``) and not kept: every panel would show it."""
        session = self.session
        if move and session is not None:
            with session.lock:
                game, state = session.game, session.state
                try:
                    parsed = game.parse_move(move)
                except CompanionError:
                    parsed = None  # unreadable: OK says why when pressed
                if game.current_player(state) == SIMULTANEOUS or (
                        parsed is not None and game.is_secret(state, parsed) and game.validate(state, parsed) is None):
                    raise CommandRefused(msg("core.refuse.secret_choice"))
        with self._lock:
            self.choice = move or None
            self.message = {"text": "", "ok": True}
        self._notify()

    def refresh(self) -> None:
        """Compute the lights again from the session and send them to every panel."""
        session = self.session
        self.shown_version = None if session is None else session.version
        self._send(lights_for(session) if session is not None else NO_GAME)

    # ------------------------------------------------------------ presses

    def on_press(self, button: Button, kind: int) -> None:
        """A panel's press (from its thread)."""
        try:
            self.press(button, kind)
        except Exception:
            log.exception("panel press %s failed", button)

    def press(self, button: Button | str, kind: int = PRESS, version: int | None = None) -> dict[str, Any]:
        """Carry out a press; returns ``{"ok", "text", "button"}`` as the tablet shows it. ``version`` is the game's
        version the pressing device showed (the virtual panel sends it); a physical panel's press is chosen from
        the version its lights last showed. Refusals read as on any shared screen (nothing behind a screen)."""
        button = Button(button)
        session = self.session
        if button in HOLD_BUTTONS and kind != HOLD:
            return self._say(button, True, msg("core.panel.keep_holding", button=button.value,
                                               seconds=f"{self.hold_seconds:g}"))
        if button not in HOLD_BUTTONS and kind != PRESS:
            return {"ok": True, "text": "", "button": button.value}
        if session is None:
            return self._refuse(button, msg("core.panel.no_game"))
        shown = self.shown_version if version is None else version
        undone = session.undo_info() if button is Button.UNDO else {}  # named as the table may read it
        try:
            moves = press(session, button, choice=self.choice, version=shown, rng_for=self.rng_for)
        except IllegalMoveError as error:
            refusal = session.table_refusal(error)
            return self._refuse(button, msg("core.panel.refused_move" if refusal.move else "core.panel.refused",
                                            move=refusal.move, reason=refusal.text, rule=refusal.rule))
        except StaleMoveError:
            return self._refuse(button, msg("core.panel.moved_on"))
        except CompanionError as error:
            return self._refuse(button, error.text)
        if button is Button.OK:
            self.choice = None
        if button is Button.UNDO:
            draws = undone.get("draws") or []
            return self._say(button, True, msg("core.panel.took_back_draws", move=undone.get("move") or "", draws=draws,
                                               n=len(draws)) if draws else msg("core.panel.took_back",
                                                                               move=undone.get("move") or ""))
        log_lines: list[Text] = session.export(None)["log"]
        said = "; ".join(render(line, self.language) for line in log_lines[-len(moves):]) if moves else ""
        return self._say(button, True, said)

    def _refuse(self, button: Button, reason: Text) -> dict[str, Any]:
        self._error_until = time.monotonic() + self.error_seconds
        result = self._say(button, False, reason)
        self.refresh()
        timer = threading.Timer(self.error_seconds, self.refresh)
        timer.daemon = True
        timer.start()
        self._timer = timer
        return result

    def _say(self, button: Button, ok: bool, text: Text) -> dict[str, Any]:
        """What the panel says about a press: ``text`` in the table's language, ``message`` the same as data."""
        self.message = {"text": render(text, self.language), "ok": ok, "button": button.value}
        if isinstance(text, Message):
            self.message["message"] = text.to_json()
        self._notify()
        return dict(self.message)

    # ------------------------------------------------------------ lights

    def _changed(self, session: Session, moves: list[Move]) -> None:
        """The session moved or undid (under its lock): show its new state."""
        if session is not self.session:
            return
        self.shown_version = session.version
        lights = lights_for(session)
        if lights.status == OVER and self.lights.status != OVER and self.lights is not NO_GAME:
            self._start_show(lights)
        else:
            self._send(lights)

    def _send(self, lights: Lights) -> None:
        with self._out:
            if self._show is not None and self._show.is_alive() and lights.status == OVER:
                return  # the show ends on these lights
            shown = lights.with_error() if time.monotonic() < self._error_until else lights
            self.lights = lights
            for panel in self.panels:
                try:
                    panel.show(shown)
                except Exception:
                    log.exception("panel %s could not show the lights", panel.name)
        self._notify()

    def _start_show(self, final: Lights) -> None:
        """The end of the game: the winners' colours run around the seats, then the final lights."""
        def run() -> None:
            colours = [final.seats[w] for w in final.winners] or list(final.seats)
            count = len(final.seats)
            for frame in range(SHOW_FRAMES):
                lit = frame % max(count, 1)
                seats = tuple(colours[frame % len(colours)] if seat == lit else scale(colours[0], 0.1)
                              for seat in range(count))
                with self._out:
                    for panel in self.panels:
                        panel.show(Lights(seats, OVER, alert=frame % 2 == 0, winners=final.winners))
                time.sleep(SHOW_FRAME_SECONDS)
            self._show = None
            self.refresh()

        self.lights = final
        self._show = threading.Thread(target=run, name="panel end show", daemon=True)
        self._show.start()

    @property
    def showing(self) -> bool:
        """Whether the end-of-game show is running."""
        show = self._show
        return show is not None and show.is_alive()

    # ------------------------------------------------------------ for the tablet

    def state(self) -> dict[str, Any]:
        """What the virtual panel shows: lights, the last message, OK's move, each back end's status."""
        session = self.session
        shown = self.lights.with_error() if time.monotonic() < self._error_until else self.lights
        return {"game": session.id if session is not None else None,
                "title": session.game.title if session is not None else None,
                "players": list(session.players) if session is not None else [], "lights": shown.to_json(),
                "message": dict(self.message), "choice": self.choice, "version": self.shown_version,
                "panels": [panel.status() for panel in self.panels],
                "buttons": [button.value for button in Button],
                "hold_buttons": sorted(button.value for button in HOLD_BUTTONS),
                "hold_seconds": self.hold_seconds}

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(state)`` after each change of lights or message; returns the unsubscriber."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self) -> None:
        if not self._listeners:
            return
        state = self.state()
        for listener in list(self._listeners):
            try:
                listener(state)
            except Exception:
                log.exception("a panel listener failed")

    def close(self) -> None:
        """Stop following the game and close every panel (idempotent)."""
        self.session = None
        for _, unsubscribe in self._subscriptions:
            unsubscribe()
        self._subscriptions = []
        if self._timer is not None:
            self._timer.cancel()
        for panel in self.panels:
            panel.close()
