"""The panel in the web service: the controller for the table's game, and the virtual panel's API.

``init_app`` builds the back ends named by ``PANEL`` (``simulated``, ``gpio``, ``serial`` or
``serial:URL``, comma-separated; the virtual panel on the tablet is always there) from the pin
map in ``<data dir>/panel.json`` over the package defaults, and makes the panel follow the game of
the latest move. A back end that cannot start (no GPIO off a Pi) is reported, not fatal. Routes
(docs/panel.md): ``GET /api/panel``, ``POST /api/panel/press``, ``POST /api/panel/choice``,
``POST /api/panel/follow``, ``GET /api/panel/stream`` and the pages ``/panel``, ``/games/<id>/panel``.

The physical panels follow one game at a time (the one the table chose last: opened, moved in, or chosen on /panel).
A table page's virtual panel names its own game (``?game=<id>``, ``"game"`` in a press): it shows that game's lights
whatever the physical panel follows, says which game that is, and its presses act on its own game.
"""

from __future__ import annotations

import atexit
import logging
import queue
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request, stream_with_context

from companion.core.errors import CompanionError, DiskFullError, MalformedInputError, StoreError, UnknownGameError
from companion.core.game import CHANCE, SIMULTANEOUS, Move
from companion.core.messages import Text, msg
from companion.core.rng import step_rng
from companion.games import find_game
from companion.session import Session, check_move_text
from companion.store import OVER, GameRecord
from firmware_bridge.commands import END_TURN, Button
from firmware_bridge.config import PanelConfig, load_config
from firmware_bridge.controller import PanelController
from firmware_bridge.lights import lights_for
from firmware_bridge.panel import GpioPanel, Panel, SimulatedPanel
from firmware_bridge.protocol import HOLD, PRESS
from web.messages import dumps
from web.table import Table, get_table

log = logging.getLogger(__name__)
EXTENSION = "keydom_panel"
bp = Blueprint("panel", __name__)


class PanelService:
    """The table's panels, their controller, and what failed to start."""

    def __init__(self, table: Table, spec: str, config: PanelConfig, pin_factory: Any = None) -> None:
        self.table = table
        self.config = config
        self.problems: list[str] = []
        self.virtual = SimulatedPanel()
        panels: list[Panel] = [self.virtual]
        for part in (p.strip() for p in spec.split(",") if p.strip()):
            kind, _, url = part.partition(":")
            try:
                if kind in ("simulated", "sim"):
                    continue
                if kind == "gpio":
                    panels.append(GpioPanel(config.gpio, config.hold_seconds, pin_factory=pin_factory))
                elif kind == "serial":
                    from firmware_bridge.link import SerialPanel

                    panels.append(SerialPanel(config.serial, url or None))
                else:
                    raise MalformedInputError(f"unknown panel {part!r}: use simulated, gpio, serial or serial:URL")
            except MalformedInputError:
                raise
            except Exception as error:  # no GPIO here, a pin in use...: the rest of the product runs
                problem = f"the {kind} panel could not start: {error}"
                log.error(problem)
                self.problems.append(problem)
        self.controller = PanelController(panels, config.hold_seconds, config.error_seconds, rng_for=self._rng,
                                          language=config.language)

    def _rng(self, session: Session) -> random.Random:
        """A button draw picks what the companion would have drawn itself at this step."""
        return step_rng(self.table.store.get(session.id).seed, len(session.history))

    def follow(self, session: Session) -> None:
        if self.config.draw_by_button:
            session.auto_chance = False  # the game waits for DRAW / ROLL
        self.controller.follow(session)

    def follow_playing(self, session: Session) -> None:
        """A game opened or moved in: followed if it is in progress (a finished game opened is never followed)."""
        if not session.is_over or session is self.controller.session:
            self.follow(session)

    def in_progress(self) -> list[GameRecord]:
        """The stored games in progress, the latest moved first: the games the panel may follow."""
        return sorted((r for r in self.table.store.list() if r.status != OVER), key=lambda r: r.updated, reverse=True)

    def default_game(self) -> str:
        """The game /panel shows first: the one followed if it is in progress, else the latest moved in, else none."""
        session = self.controller.session
        playing = [r.id for r in self.in_progress()]
        if session is not None and session.id in playing and not session.is_over:
            return session.id
        return playing[0] if playing else ""

    def follow_latest(self) -> None:
        """On start: the unfinished game with the latest move, if any."""
        records = self.in_progress()
        if records:
            try:
                self.follow(self.table.session(records[0].id))
            except CompanionError as error:
                log.error("the panel cannot follow the latest game: %s", error)

    def state(self, game_id: str | None = None) -> dict[str, Any]:
        """The panel as a page shows it. With ``game_id`` (a table page's own game), that game's lights, what NEXT
        plays there and a move of it to show as an example, even while the physical panel follows another game
        (then with no message and no chosen move: those belong to the game followed); ``follows`` names the game
        the physical panel follows."""
        state = {**self.controller.state(), "problems": list(self.problems),
                 "draw_by_button": self.config.draw_by_button}
        followed = self.controller.session
        state["follows"] = None if followed is None else {
            "game": followed.id, "title": followed.game.title, "players": list(followed.players)}
        session = followed
        if game_id and (followed is None or followed.id != game_id):
            session = self.table.session(game_id)
            with session.lock:
                state.update(game=session.id, title=session.game.title, players=list(session.players),
                             lights=lights_for(session).to_json(), version=session.version, choice=None,
                             message={"text": "", "ok": True})
        state.update(suggestion(session) if session is not None else
                     {"next": None, "example": None, "example_words": None})
        return state

    def close(self) -> None:
        self.controller.close()


def suggestion(session: Session) -> dict[str, Any]:
    """What the panel suggests in ``session``'s game now, as the table may read it: ``next``, the move NEXT plays
    in words (``Game.panel_signals().next_move``, else the end-turn move; ``None`` if NEXT does nothing now), and
    ``example``, a move of that game the table may play now (NEXT's if it has one), in notation for OK's box and in
    words (``example_words``)."""
    with session.lock:
        game, state = session.game, session.state
        who = game.current_player(state)
        if session.is_over or who in (CHANCE, SIMULTANEOUS):
            return {"next": None, "example": None, "example_words": None}
        offered = game.public_moves(state)
        text = game.panel_signals(state).next_move or END_TURN
        move: Move | None
        try:
            move = game.parse_move(text)
        except CompanionError:
            move = None
        words: Text | None = None
        if move is not None and move in offered:
            words = game.move_text(state, move)
        example = move if words is not None else (offered[0] if offered else None)
        return {"next": words, "example": None if example is None else str(example),
                "example_words": None if example is None else game.move_text(state, example)}


def get_panel() -> PanelService:
    service: PanelService = current_app.extensions[EXTENSION]
    return service


def init_app(app: Flask) -> None:
    table = get_table_of(app)
    config = load_config(Path(app.config["DATA_DIR"]) / "panel.json")
    service = PanelService(table, str(app.config["PANEL"]), config, app.config.get("PANEL_PIN_FACTORY"))
    app.extensions[EXTENSION] = service
    table.on_change.append(service.follow_playing)
    service.follow_latest()
    atexit.register(service.close)


def get_table_of(app: Flask) -> Table:
    table: Table = app.extensions["keydom_table"]
    return table


# ---------------------------------------------------------------- API


@bp.errorhandler(CompanionError)
def panel_error(error: CompanionError) -> tuple[Response, int]:
    status = 404 if isinstance(error, UnknownGameError) else 507 if isinstance(error, DiskFullError) else (
        503 if isinstance(error, StoreError) else 400)
    return jsonify(error={"type": type(error).__name__, "reason": str(error), "message": error.message_json()}), status


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise MalformedInputError(msg("web.refuse.body_not_object"))
    return data


def _game_of(data: dict[str, Any]) -> str | None:
    return str(data["game"]) if data.get("game") else None


def _follow_from(data: dict[str, Any]) -> None:
    if data.get("game"):
        get_panel().follow(get_table().session(str(data["game"])))


def _game_asked() -> str | None:
    """The game a table page's panel names (``?game=<id>``), checked to exist; ``None`` for /panel's."""
    game_id = request.args.get("game") or None
    if game_id is not None:
        get_table().store.get(game_id)  # UnknownGameError (404) for a game that is not stored
    return game_id


@bp.get("/api/panel")
def panel_state() -> Response:
    """The panel's state; ``?game=<id>``: as the virtual panel of that game's table page shows it."""
    return jsonify(get_panel().state(_game_asked()))


@bp.post("/api/panel/follow")
def follow() -> Response:
    data = _body()
    if not data.get("game"):
        raise MalformedInputError(msg("web.refuse.panel_game"))
    _follow_from(data)
    return jsonify(get_panel().state())


@bp.post("/api/panel/press")
def press() -> Response:
    """A button of the virtual panel: ``{"button": "DRAW", "kind": "press"|"hold", "game": ID?, "version": N?}``
    (``version``: the game's version the page showed; a press on an older one is refused)."""
    data = _body()
    try:
        button = Button(str(data.get("button", "")).upper())
    except ValueError:
        raise MalformedInputError(msg("web.refuse.panel_button", button=repr(str(data.get("button"))[:40]),
                                      buttons=", ".join(b.value for b in Button))) from None
    kinds = {"press": PRESS, "hold": HOLD}
    kind = data.get("kind", "press")
    if kind not in kinds:
        raise MalformedInputError(msg("web.refuse.panel_kind"))
    version = data.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**62):
        raise MalformedInputError(msg("web.refuse.panel_version"))
    _follow_from(data)
    service = get_panel()
    result = service.controller.press(button, kinds[kind], version)
    return jsonify(result=result, panel=service.state(_game_of(data)))


@bp.post("/api/panel/choice")
def choice() -> Response:
    """The move OK plays: ``{"move": "bid C2 wheat"}`` (``null`` clears it)."""
    data = _body()
    move = data.get("move")
    if move is not None and not isinstance(move, str):
        raise MalformedInputError(msg("web.refuse.panel_move"))
    if move is not None:
        check_move_text(move)
    _follow_from(data)
    service = get_panel()
    service.controller.choose(move)
    return jsonify(service.state(_game_of(data)))


@bp.get("/api/panel/stream")
def stream() -> Response:
    """Server-sent events: the panel's state now and after every change of lights or message; ``?game=<id>``: as
    the virtual panel of that game's table page shows it (``PanelService.state``)."""
    service = get_panel()
    game_id = _game_asked()
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()
    stop = service.controller.listen(inbox.put)
    heartbeat = float(current_app.config["STREAM_HEARTBEAT_SECONDS"])
    first = service.state(game_id)

    def events() -> Iterator[str]:
        try:
            yield f"event: panel\ndata: {dumps(first)}\n\n"
            while True:
                try:
                    inbox.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": heartbeat\n\n"
                    continue
                while not inbox.empty():  # a change: the state now is what matters
                    inbox.get_nowait()
                state = service.state(game_id)  # for the page's own game if it names one
                yield f"event: panel\ndata: {dumps(state)}\n\n"
        finally:
            stop()

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# ---------------------------------------------------------------- pages


def _choice(record: GameRecord) -> tuple[str, str, str]:
    """A game as the chooser offers it: its id, the game's title, its players."""
    return record.id, find_game(record.game).title, ", ".join(record.players)


@bp.get("/panel")
def page() -> str:
    """The virtual panel with a chooser of the games in progress: the one followed if it is in progress, else the
    latest moved in (a finished game is never chosen for the players)."""
    service = get_panel()
    game_id = service.default_game()
    if not game_id and service.controller.session is not None:  # only finished games: the panel follows none
        service.controller.follow(None)
    choices = [_choice(r) for r in service.in_progress()]
    return render_template("panel.html", game_id=game_id, choices=choices)


@bp.get("/games/<game_id>/panel")
def game_page(game_id: str) -> str:
    """The virtual panel of one game (the physical panels follow it too)."""
    get_panel().follow(get_table().session(game_id))
    choices = [_choice(r) for r in get_panel().in_progress()]
    if game_id not in [c[0] for c in choices]:  # a finished game, asked for by its address: shown, not offered
        choices.append(_choice(get_table().store.get(game_id)))
    return render_template("panel.html", game_id=game_id, choices=choices)
