"""The JSON API the tablet's pages use (docs/api.md). Every decision is the core's."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from werkzeug.exceptions import HTTPException

from companion.core.errors import (
    CompanionError,
    CorruptSaveError,
    DiskFullError,
    IllegalMoveError,
    MalformedInputError,
    StaleMoveError,
    StoreError,
    UndoError,
    UnknownGameError,
    UnsupportedError,
)
from companion.core.game import Move
from companion.core.messages import msg
from companion.core.picks import MAX_PICKS
from companion.games import default_game, find_game, games
from companion.session import Session, check_move_text, check_options, check_players
from web.messages import dumps
from web.table import get_table, move_words, public_game, setup_state

bp = Blueprint("api", __name__, url_prefix="/api")

STATUS = {IllegalMoveError: 422, MalformedInputError: 400, UnknownGameError: 404, UnsupportedError: 400, UndoError: 409,
          StaleMoveError: 409, CorruptSaveError: 500, DiskFullError: 507, StoreError: 503}


class VersionRequired(MalformedInputError):
    """A move or undo that does not name the version of the game it was chosen from (HTTP 428)."""


@bp.errorhandler(CompanionError)
def companion_error(error: CompanionError) -> tuple[Response, int]:
    """A refused request: the error's kind, the rule ID where there is one, and the reason. A stale move also
    carries the game as it is now, so the device can show it at once."""
    status = 428 if isinstance(error, VersionRequired) else next(
        (code for kind, code in STATUS.items() if isinstance(error, kind)), 400)
    body: dict[str, Any] = {"type": type(error).__name__, "reason": str(error)}
    if (message := error.message_json()) is not None:  # the reason as data: the browser renders it
        body["message"] = message
    if isinstance(error, IllegalMoveError):
        body.update(error.to_dict())
    if not isinstance(error, StaleMoveError):
        return jsonify(error=body), status
    body["version"] = error.version
    game_id = (request.view_args or {}).get("game_id")
    fresh = public_game(get_table().session(game_id)) if isinstance(game_id, str) else None
    return jsonify(error=body, game=fresh), status


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[Response, int] | HTTPException:
    """Under /api/ and the camera's JSON routes every HTTP error (an unknown route, a wrong method, a body too big)
    answers JSON too."""
    if not request.path.startswith(("/api/", "/camera/")):
        return error
    message = HTTP_MESSAGES.get(error.code or 500, "web.http.error")
    return jsonify(error={"type": type(error).__name__, "reason": error.description,
                          "message": msg(message, code=error.code or 500)}), error.code or 500


HTTP_MESSAGES = {404: "web.http.not_found", 405: "web.http.method", 413: "web.http.too_large"}
"""The words of the HTTP errors a page may meet (any other: ``web.http.error`` with its code)."""


def body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise MalformedInputError(msg("web.refuse.body_not_object"))
    return data


def chosen_version(data: dict[str, Any]) -> int:
    """The game version a move or undo was chosen from: ``"version"`` in the body, or an ``If-Match`` header."""
    version = data.get("version")
    if version is None and request.headers.get("If-Match"):
        version = request.headers["If-Match"].strip().strip('"').removeprefix("W/").strip('"')
    if version is None:
        raise VersionRequired(msg("web.refuse.version_missing"))
    if isinstance(version, str) and is_digits(version.strip()) and len(version.strip()) < 19:
        version = int(version.strip())
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**62:
        raise MalformedInputError(msg("web.refuse.version_number", given=repr(str(version)[:40])))
    number = version
    return number


def is_digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (``str.isdigit`` also takes "²" and "١٢", which ``int`` refuses or reads)."""
    return text.isascii() and text.isdigit()


def move_request(session: Session, seat: int | None) -> tuple[str | Move, int]:
    """The move and the version it was chosen from: ``{"picks": ["bid", "E4", "wheat"], "version": 12}`` (the
    picks a device assembled, ``Session.picks``) or ``{"move": "bid E4 wheat", "version": 12}`` (notation). Picks
    that no longer make a move on a game that moved on are stale (409)."""
    data = body()
    if "picks" in data:
        chosen = picks_of(data)
        version = chosen_version(data)
        try:
            return session.picked_move(seat, chosen), version
        except MalformedInputError:
            if version != session.version:
                raise StaleMoveError(session.version) from None
            raise
    text = data.get("move")
    if not isinstance(text, str) or not text.strip():
        raise MalformedInputError(msg("web.refuse.move_missing"))
    return check_move_text(text.strip()), chosen_version(data)


def picks_of(data: dict[str, Any]) -> list[str]:
    """The ``picks`` of a request: a list of at most ``MAX_PICKS`` short texts (the ids of the options picked)."""
    chosen = data.get("picks", [])
    if not isinstance(chosen, list) or len(chosen) > MAX_PICKS or not all(
            isinstance(p, str) and 0 < len(p) <= 64 for p in chosen):
        raise MalformedInputError(msg("web.refuse.picks_list", most=MAX_PICKS))
    return chosen


@bp.get("/games")
def list_games() -> Response:
    """The games, the damaged ones with the reason, and the store's health (docs/store.md)."""
    table = get_table()
    records, damaged = table.games()
    return jsonify(games=[{"id": r.id, "game": r.game, "players": list(r.players), "status": r.status,
                           "created": r.created, "updated": r.updated} for r in records],
                   damaged=[{"id": d.id, "reason": d.reason} for d in damaged], store=table.health.to_json())


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Start a game: ``{"game": "key-harvest", "players": ["Alice", "Bob"], "options": {...}}`` (without ``game``:
    the registry's default game)."""
    data = body()
    players = data.get("players")
    if isinstance(players, list) and all(isinstance(p, dict) for p in players):  # [{"name", "colour"}]
        colours: list[str] | None = [str(p.get("colour", "")) for p in players]
        players = [p.get("name") for p in players]
    else:
        colours = None
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):  # a blank: check_players
        raise MalformedInputError(msg("web.refuse.players_list"))
    game = data.get("game", default_game().name)
    if not isinstance(game, str):
        raise MalformedInputError(msg("web.refuse.game_name", games=", ".join(g.name for g in games())))
    names = check_players(players)  # the player count is the game's to check (Session.new)
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                                for v in options.values()):
        raise MalformedInputError(msg("web.refuse.options_object"))
    session = get_table().new_game(game, names, check_options({str(k): str(v) for k, v in options.items()}), colours)
    return jsonify(public_game(session)), 201


@bp.get("/games/options/<name>")
def game_options(name: str) -> Response:
    """A game's variant flags with their choices (default first) and where the spec discusses them."""
    game = find_game(name)
    return jsonify(game=game.name, title=game.title, min_players=game.min_players, max_players=game.max_players,
                   options=[{"name": o.name, "choices": list(o.choices), "default": o.default, "ref": o.ref,
                             "help": o.help} for o in game.option_specs])


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    return jsonify(public_game(get_table().session(game_id)))


@bp.delete("/games/<game_id>")
def delete_game(game_id: str) -> tuple[str, int]:
    get_table().delete(game_id)
    return "", 204


@bp.post("/games/<game_id>/moves")
def play_move(game_id: str) -> Response:
    """Play one move from the shared table: ``{"move": "bid 31 wheat", "version": 12}``. A move chosen from an
    older version is refused (409, with the game now); a refusal whose reason lies behind a screen reads
    "not possible: check your screen" (the player's own page gives the reason); a secret choice is made on the
    seat's own page only."""
    session = get_table().session(game_id)
    with session.lock:
        text, version = move_request(session, None)
        before = len(session.history)
        session.play_shared(text, version)
        game = public_game(session)
    return jsonify(played=game["log"][before:], game=game)


@bp.get("/games/<game_id>/moves")
def table_moves(game_id: str) -> Response:
    """The moves the shared table is offered now in notation, with their words (for the API, the terminal and the
    notation box; the pages pick them, ``/picks``)."""
    return jsonify(offered_moves(get_table().session(game_id), None))


def offered_moves(session: Session, seat: int | None) -> dict[str, Any]:
    """``{"version", "moves", "words"}``: the moves offered to ``seat`` (``None``: the table) in notation."""
    with session.lock:
        moves = session.offered(seat)
        return {"version": session.version, "moves": [str(m) for m in moves],
                "words": move_words(session.game, session.state, moves)}


@bp.post("/games/<game_id>/picks")
def table_picks(game_id: str) -> Response:
    """The next pick of the shared table's decision: ``{"picks": [ids picked so far], "version": N}`` -> what was
    picked in words, the options of the next pick grouped by question, and the move they make when complete
    (``Session.picks``; docs/api.md)."""
    data = body()
    session = get_table().session(game_id)
    return jsonify(session.picks(None, picks_of(data), chosen_version(data)))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Take back the last player move and the draws it set off: ``{"version": 12}`` (the version whose Undo button
    was pressed). The answer's ``lines`` say what the table does, as messages: take the move back, put back each
    piece drawn since (named as the table may read it); those come out again, in order, at the next draws."""
    version = chosen_version(body())
    session = get_table().session(game_id)
    with session.lock:
        info = session.undo_info()
        session.undo(version)
        return jsonify(undone=info["move"], lines=info["lines"], game=public_game(session))


@bp.get("/games/<game_id>/score")
def score(game_id: str) -> Response:
    """The score breakdown: final once the game is over, else the public projection."""
    session = get_table().session(game_id)
    return jsonify(final=session.is_over, players=session.view(None)["score"])


@bp.post("/games/<game_id>/score")
def rescore(game_id: str) -> Response:
    """The score with what is behind the screens as the players report it: ``{"hidden": [{"wheat": 2, ...}, null,
    ...]}``, one entry per seat (``null``: the companion's count, only once the game is over), in the game's
    snapshot format. The stored game is unchanged."""
    hidden = body().get("hidden")
    session = get_table().session(game_id)
    seats = len(session.players)
    if not isinstance(hidden, list) or len(hidden) != seats or not all(s is None or isinstance(s, dict) for s in hidden):
        raise MalformedInputError(msg("core.refuse.hidden_list", n=seats))
    if not session.is_over and None in hidden:
        raise MalformedInputError(msg("core.refuse.hidden_before_end"))
    players = session.game.score_with_hidden(session.state, hidden)
    return jsonify(final=session.is_over, rescored=True, entered=[s is not None for s in hidden], players=players)


@bp.get("/games/<game_id>/setup")
def setup_guide(game_id: str) -> Response:
    """What to lay out for this table (the game's setup guide, from its setup draws)."""
    session = get_table().session(game_id)
    guide = session.game.setup_guide(setup_state(session))
    if guide is None:
        raise UnknownGameError(msg("web.refuse.no_setup_guide", game=session.game.title))
    return jsonify(players=list(session.players), colours=list(session.colours), guide=guide)


@bp.get("/games/<game_id>/seats")
def seats(game_id: str) -> Response:
    """The seats for the tablet: an unclaimed seat's join link (its QR code, which claims the seat once), or
    ``claimed`` (its private link is only on the device that claimed it)."""
    return jsonify(seats=seat_list(game_id))


def seat_list(game_id: str) -> list[dict[str, Any]]:
    table = get_table()
    session = table.session(game_id)
    rows = table.seats(session)
    return [{"seat": row.seat, "name": session.players[row.seat], "claimed": row.token is not None,
             "page": None if row.token is not None else f"/games/{game_id}/join/{row.claim}"} for row in rows]


@bp.post("/games/<game_id>/join/<code>")
def join(game_id: str, code: str) -> Response:
    """Claim the seat whose join code is ``code`` (it works once): its private API link and page, handed out here
    only (the page ``/games/<id>/join/<code>`` does the same and goes to the seat's page)."""
    table = get_table()
    session = table.session(game_id)
    seat, token = table.claim(session, code)
    return jsonify(seat=seat, name=session.players[seat], url=f"/api/games/{game_id}/private/{token}",
                   page=f"/games/{game_id}/seat/{token}")


@bp.post("/games/<game_id>/seats/<int:seat>/reissue")
def reissue(game_id: str, seat: int) -> Response:
    """A lost phone: the seat's old private link stops working and the seat gets a new join link (QR code)."""
    table = get_table()
    table.reissue(table.session(game_id), seat)
    return jsonify(seats=seat_list(game_id))


def private_view(session: Session, seat: int) -> dict[str, Any]:
    """One seat's own view (its screen, its hidden draws), the first pick of its decision when it is to decide (at
    a simultaneous step: its own choice; ``GET .../moves`` lists its moves in notation) and the version they were
    computed from."""
    with session.lock:
        mine = seat in session.game.deciders(session.state)
        return {"seat": seat, "name": session.players[seat], "version": session.version, "view": session.view(seat),
                "log": session.export(seat)["log"], "deciding": mine, "pick": session.picks(seat, []) if mine else None}


def seat_session(game_id: str, token: str) -> tuple[Session, int]:
    """The game and the seat whose private link carries ``token`` (404 for any other token)."""
    table = get_table()
    session = table.session(game_id)
    return session, table.seat_of(session, token)


@bp.get("/games/<game_id>/private/<token>")
def private(game_id: str, token: str) -> Response:
    return jsonify(private_view(*seat_session(game_id, token)))


@bp.post("/games/<game_id>/private/<token>/moves")
def private_move(game_id: str, token: str) -> Response:
    """Play one of this seat's moves from its own page: ``{"move": ..., "version": N}``; a refusal gives the precise
    reason (this page may know what is behind the seat's screen)."""
    session, seat = seat_session(game_id, token)
    with session.lock:
        text, version = move_request(session, seat)
        before = len(session.history)
        session.play(text, version, seat=seat)
        mine = private_view(session, seat)
        return jsonify(played=mine["log"][before:], private=mine, game=public_game(session))


@bp.get("/games/<game_id>/private/<token>/moves")
def private_moves(game_id: str, token: str) -> Response:
    """This seat's moves now in notation, with their words (``/moves`` of the table, for a seat)."""
    return jsonify(offered_moves(*seat_session(game_id, token)))


@bp.post("/games/<game_id>/private/<token>/picks")
def private_picks(game_id: str, token: str) -> Response:
    """The next pick of this seat's own decision, as ``/picks`` gives the table's."""
    data = body()
    session, seat = seat_session(game_id, token)
    return jsonify(session.picks(seat, picks_of(data), chosen_version(data)))


@bp.get("/games/<game_id>/stream")
def stream(game_id: str) -> Response:
    """Server-sent events: the public game now, then after every change (its log as a delta, ``Table.delta``)."""
    table = get_table()
    session = table.session(game_id)
    inbox = table.listen(game_id)
    heartbeat = float(current_app.config["STREAM_HEARTBEAT_SECONDS"])
    tick = min(heartbeat, float(current_app.config["STREAM_SYNC_SECONDS"]))
    first = table.first_update(session)

    def events() -> Iterator[str]:
        quiet = 0.0
        try:
            yield ": connected\n\n"
            yield sse(first)
            while True:
                try:
                    update = inbox.get(timeout=tick)
                except queue.Empty:
                    table.refresh(game_id)  # moves stored by another process reach the inbox
                    quiet += tick
                    if quiet >= heartbeat:
                        quiet = 0.0
                        yield ": heartbeat\n\n"
                    continue
                quiet = 0.0
                yield sse(update)
                if update["event"] == "deleted":
                    return
        finally:
            table.stop_listening(game_id, inbox)

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def sse(update: dict[str, Any]) -> str:
    return f"event: {update['event']}\nid: {update['version']}\ndata: {dumps(update)}\n\n"
