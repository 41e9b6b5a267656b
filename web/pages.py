"""The tablet's pages: thin views that render templates; the pages fetch everything from the JSON API.

A game's own pages live in its folder ``web/games/<package>/`` (the package of its rules under
``companion/games/``): ``table.html`` and ``seat.html`` (extending the shared ``table_base.html`` and
``seat_base.html``), ``setup.js`` (the steps of the shared setup guide) and its scripts, served at
``/static/games/<package>/<file>``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qrcode
import qrcode.image.svg
from werkzeug.wrappers import Response as BaseResponse
from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, send_from_directory, url_for

from companion.core.errors import CompanionError, UnknownGameError
from companion.games import find_game, games, package_of
from web.table import get_table

GAMES_DIR = Path(__file__).with_name("games")
SERVED = frozenset({".js", ".css", ".svg"})
"""What a game's folder serves (its templates are rendered, never served)."""

bp = Blueprint("pages", __name__, template_folder="games")  # a game's page is "<package>/table.html"


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
    return render_template("index.html", store=table.health, damaged=damaged, games=games())


def game_page(game: str, template: str, **context: Any) -> str | tuple[str, int]:
    """``template`` (``{package}`` in it names the game's folder) rendered for a page of ``game``, with ``package``
    for its scripts' URLs; a game without a folder gets the page that says so (501), never another game's."""
    known = find_game(game)
    package = package_of(known)
    if package is None or not (GAMES_DIR / package).is_dir():
        return render_template("no_view.html", title=known.title), 501
    return render_template(template.format(package=package), package=package, **context)


@bp.get("/static/games/<package>/<path:filename>")
def game_file(package: str, filename: str) -> Response:
    """A script or style of a game's folder, served like ``/static/`` (same origin; open before pairing)."""
    if Path(filename).suffix not in SERVED:
        abort(404)
    return send_from_directory(GAMES_DIR, f"{package}/{filename}")  # safe_join: nothing outside web/games/


@bp.get("/games/<game_id>")
def table(game_id: str) -> str | tuple[str, int]:
    """The shared table of one game (404 if there is no such game)."""
    record = get_table().store.get(game_id)
    return game_page(record.game, "{package}/table.html", game_id=game_id)


@bp.get("/games/<game_id>/setup")
def setup(game_id: str) -> str | tuple[str, int]:
    """The setup guide of one game: what to lay out, step by step (404 if there is no such game)."""
    record = get_table().store.get(game_id)
    return game_page(record.game, "setup.html", game_id=game_id)


@bp.get("/games/<game_id>/seat/<token>")
def seat(game_id: str, token: str) -> str | tuple[str, int]:
    """One seat's private page (404 unless the token is that game's link for some seat)."""
    table = get_table()
    session = table.session(game_id)
    seat = table.seat_of(session, token)
    return game_page(session.game.name, "{package}/seat.html", game_id=game_id, token=token, seat=seat)


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
