"""The tablet's pages: thin views that render templates; the pages fetch everything from the JSON API."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from werkzeug.wrappers import Response as BaseResponse
from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for

from companion.core.errors import CompanionError, UnknownGameError
from web.table import get_table

bp = Blueprint("pages", __name__)


@bp.errorhandler(CompanionError)
def page_error(error: CompanionError) -> tuple[str, int]:
    """An unknown game or private link: the 404 page; a game that cannot be opened: the same page, 500."""
    status = 404 if isinstance(error, UnknownGameError) else 500
    return render_template("error.html", status=status), status


@bp.get("/")
def index() -> str:
    """The stored games and the new-game form; what is wrong with the store, if anything (docs/store.md)."""
    table = get_table()
    _, damaged = table.games()
    return render_template("index.html", store=table.health, damaged=damaged)


GAME_TEMPLATES = {"la-granja": "la_granja"}
"""Games whose table and seat pages have their own templates (``table_<x>.html``, ``seat_<x>.html``)."""


def page_template(page: str, game: str) -> str:
    """The template of ``page`` (table, seat) for ``game``: its own where it has one, else Key Harvest's."""
    own = GAME_TEMPLATES.get(game)
    return f"{page}_{own}.html" if own else f"{page}.html"


@bp.get("/games/<game_id>")
def table(game_id: str) -> str:
    """The shared table of one game (404 if there is no such game)."""
    record = get_table().store.get(game_id)
    return render_template(page_template("table", record.game), game_id=game_id)


@bp.get("/games/<game_id>/setup")
def setup(game_id: str) -> str:
    """The setup guide of one game: what to lay out, step by step (404 if there is no such game)."""
    get_table().store.get(game_id)
    return render_template("setup.html", game_id=game_id)


@bp.get("/games/<game_id>/seat/<token>")
def seat(game_id: str, token: str) -> str:
    """One seat's private page (404 unless the token is that game's link for some seat)."""
    table = get_table()
    session = table.session(game_id)
    seat = table.seat_of(session, token)
    return render_template(page_template("seat", session.game.name), game_id=game_id, token=token, seat=seat)


@bp.get("/games/<game_id>/join/<code>")
def join(game_id: str, code: str) -> BaseResponse:
    """A seat's QR code leads here: the seat is claimed by this device (the code works once) and the device goes
    on to the seat's private page, whose link only it has. An unpaired phone comes here after the pairing page."""
    table = get_table()
    _, token = table.claim(table.session(game_id), code)
    response = redirect(url_for("pages.seat", game_id=game_id, token=token), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/join/<code>/qr.svg")
def join_qr(game_id: str, code: str) -> Response:
    """A QR code of an unclaimed seat's absolute join URL, for a phone to scan off the table (404 once claimed)."""
    table = get_table()
    table.seat_of_claim(table.session(game_id), code)
    base = current_app.config["PUBLIC_URL"] or request.host_url  # phones need the Pi's address, not localhost
    url = base.rstrip("/") + url_for("pages.join", game_id=game_id, code=code)
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


def qr_svg(data: str) -> bytes:
    """``data`` as a standalone SVG QR code (dark modules on white, quiet zone included; no PIL needed)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathFillImage)
    svg: bytes = image.to_string()
    return svg
