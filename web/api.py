"""The JSON API the tablet's pages use (docs/api.md). Every decision is the core's."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from werkzeug.exceptions import HTTPException

from companion.core.errors import (
    CompanionError,
    CorruptSaveError,
    IllegalMoveError,
    MalformedInputError,
    UndoError,
    UnknownGameError,
)
from companion.games import find_game
from web.table import get_table, public_game, setup_state

bp = Blueprint("api", __name__, url_prefix="/api")

STATUS = {IllegalMoveError: 422, MalformedInputError: 400, UnknownGameError: 404, UndoError: 409,
          CorruptSaveError: 500}


@bp.errorhandler(CompanionError)
def companion_error(error: CompanionError) -> tuple[Response, int]:
    """A refused request: the error's kind, the rule ID where there is one, and the reason."""
    status = next((code for kind, code in STATUS.items() if isinstance(error, kind)), 400)
    body: dict[str, Any] = {"type": type(error).__name__, "reason": str(error)}
    if isinstance(error, IllegalMoveError):
        body.update(error.to_dict())
    return jsonify(error=body), status


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[Response, int] | HTTPException:
    """Under /api/ every HTTP error (an unknown route, a wrong method) answers JSON too."""
    if not request.path.startswith(bp.url_prefix or "/api"):
        return error
    return jsonify(error={"type": type(error).__name__, "reason": error.description}), error.code or 500


def body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise MalformedInputError("the request body must be a JSON object")
    return data


@bp.get("/games")
def list_games() -> Response:
    records = get_table().store.list()
    return jsonify(games=[{"id": r.id, "game": r.game, "players": list(r.players), "status": r.status,
                           "created": r.created, "updated": r.updated} for r in records])


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Start a game: ``{"game": "key-harvest", "players": ["Alice", "Bob"], "options": {...}}``."""
    data = body()
    players = data.get("players")
    if isinstance(players, list) and all(isinstance(p, dict) for p in players):  # [{"name", "colour"}]
        colours: list[str] | None = [str(p.get("colour", "")) for p in players]
        players = [p.get("name") for p in players]
    else:
        colours = None
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise MalformedInputError("players must be a list of names in seat order")
    if len({p.strip() for p in players}) != len(players):
        raise MalformedInputError("player names must differ")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise MalformedInputError("options must be an object of flag names and values")
    game = str(data.get("game", "key-harvest"))
    session = get_table().new_game(game, [p.strip() for p in players], {str(k): str(v) for k, v in options.items()},
                                   colours)
    return jsonify(public_game(session, get_table())), 201


@bp.get("/games/options/<name>")
def game_options(name: str) -> Response:
    """A game's variant flags with their choices (default first) and where the spec discusses them."""
    game = find_game(name)
    return jsonify(game=game.name, title=game.title, min_players=game.min_players, max_players=game.max_players,
                   options=[{"name": o.name, "choices": list(o.choices), "default": o.default, "ref": o.ref,
                             "help": o.help} for o in game.option_specs])


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    table = get_table()
    return jsonify(public_game(table.session(game_id), table))


@bp.delete("/games/<game_id>")
def delete_game(game_id: str) -> tuple[str, int]:
    get_table().delete(game_id)
    return "", 204


@bp.post("/games/<game_id>/moves")
def play_move(game_id: str) -> Response:
    """Play one move: plain text (``bid 31 wheat``) or ``{"move": "bid 31 wheat"}``."""
    if request.mimetype == "application/json":
        text = body().get("move")
    else:
        text = request.get_data(as_text=True)
    if not isinstance(text, str) or not text.strip():
        raise MalformedInputError('give a move as text, or as {"move": "..."}')
    table = get_table()
    session = table.session(game_id)
    before = len(session.history)
    session.play(text.strip())
    game = public_game(session, table)
    return jsonify(played=game["log"][before:], game=game)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Response:
    table = get_table()
    session = table.session(game_id)
    session.undo()
    return jsonify(game=public_game(session, table))


@bp.get("/games/<game_id>/score")
def score(game_id: str) -> Response:
    """The score breakdown: final once the game is over, else the public projection."""
    session = get_table().session(game_id)
    return jsonify(final=session.is_over, players=session.view(None)["score"])


@bp.post("/games/<game_id>/score")
def rescore(game_id: str) -> Response:
    """The score with stones entered by the players: ``{"stones": [{"wheat": 2, ...}, null, ...]}``, one entry
    per seat (``null``: the companion's count, only once the game is over). The stored game is unchanged."""
    stones = body().get("stones")
    session = get_table().session(game_id)
    seats = len(session.players)
    if not isinstance(stones, list) or len(stones) != seats or not all(s is None or isinstance(s, dict) for s in stones):
        raise MalformedInputError(f"stones must be a list of {seats} entries in seat order: counts by crop, or null")
    if not session.is_over and None in stones:
        raise MalformedInputError("before the end, give every player's stones: the companion shows no screen")
    scorer = getattr(session.game, "score_with_stones", None)
    if scorer is None:
        raise UnknownGameError(f"{session.game.title} cannot be rescored with entered stones")
    players = scorer(session.state, stones)
    return jsonify(final=session.is_over, rescored=True, entered=[s is not None for s in stones], players=players)


@bp.get("/games/<game_id>/setup")
def setup_guide(game_id: str) -> Response:
    """What to lay out for this table (the game's setup guide, from its setup draws)."""
    session = get_table().session(game_id)
    guide = session.game.setup_guide(setup_state(session))
    if guide is None:
        raise UnknownGameError(f"{session.game.title} has no setup guide")
    return jsonify(players=list(session.players), colours=list(session.colours), guide=guide)


@bp.get("/games/<game_id>/seats")
def seats(game_id: str) -> Response:
    """The private join links, one per seat (shown as QR codes on the tablet)."""
    table = get_table()
    session = table.session(game_id)
    tokens = [table.seat_token(session, seat) for seat in range(len(session.players))]
    return jsonify(seats=[{"seat": seat, "name": name, "url": f"/api/games/{game_id}/private/{token}",
                           "page": f"/games/{game_id}/seat/{token}"}
                          for (seat, name), token in zip(enumerate(session.players), tokens)])


@bp.get("/games/<game_id>/private/<token>")
def private(game_id: str, token: str) -> Response:
    """One seat's own view (its screen, its hidden draws) and its legal moves when it is to decide."""
    table = get_table()
    session = table.session(game_id)
    seat = table.seat_of(session, token)
    game, state = session.game, session.state
    mine = game.current_player(state) == seat
    return jsonify(seat=seat, name=session.players[seat], view=session.view(seat),
                   log=session.export(seat)["log"], legal=[str(m) for m in game.legal_moves(state)] if mine else [])


@bp.get("/games/<game_id>/stream")
def stream(game_id: str) -> Response:
    """Server-sent events: the public game now, then after every change."""
    table = get_table()
    session = table.session(game_id)
    inbox = table.listen(game_id)
    heartbeat = float(current_app.config["STREAM_HEARTBEAT_SECONDS"])
    first = {"event": "update", "version": table.version(game_id), "game": public_game(session, table)}

    def events() -> Iterator[str]:
        try:
            yield ": connected\n\n"
            yield sse(first)
            while True:
                try:
                    update = inbox.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": heartbeat\n\n"
                    continue
                yield sse(update)
                if update["event"] == "deleted":
                    return
        finally:
            table.stop_listening(game_id, inbox)

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def sse(update: dict[str, Any]) -> str:
    return f"event: {update['event']}\nid: {update['version']}\ndata: {json.dumps(update)}\n\n"
