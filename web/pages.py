"""The tablet's pages: thin views that render templates; the pages fetch everything from the JSON API.

A game's own pages live in its folder ``web/games/<package>/`` (the package of its rules under
``companion/games/``): ``table.html`` and ``seat.html`` (extending the shared ``table_base.html`` and
``seat_base.html``), ``setup.js`` (the steps of the shared setup guide) and its scripts, served at
``/static/games/<package>/<file>``.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from werkzeug.wrappers import Response as BaseResponse
from flask import (Blueprint, Response, abort, current_app, jsonify, make_response, redirect, render_template,
                   request, send_from_directory, url_for)

from companion.core.errors import CompanionError, UnknownGameError
from companion.core.messages import Message, msg
from companion.games import find_game, games, package_of
from web.table import get_table

GAMES_DIR = Path(__file__).with_name("games")
SERVED = frozenset({".js", ".css", ".svg"})
"""What a game's folder serves (its templates are rendered, never served)."""

AnyResponse = TypeVar("AnyResponse", bound=BaseResponse)

bp = Blueprint("pages", __name__, template_folder="games")  # a game's page is "<package>/table.html"


@bp.errorhandler(CompanionError)
def page_error(error: CompanionError) -> tuple[str, int]:
    """An unknown game or private link: the 404 page, saying why where the error says it in words (a used seat
    code, say); a game that cannot be opened: the same page, 500."""
    status = 404 if isinstance(error, UnknownGameError) else 500
    reason = error.text if isinstance(error.text, Message) else None
    return render_template("error.html", status=status, reason=reason), status


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
def join_page(game_id: str, code: str) -> BaseResponse:
    """A seat's QR code leads here: whose seat it is and a button that claims it (``join``). Opening the link claims
    nothing, so a link preview, a prefetch or a phone's QR preview cannot use up the code. An unpaired phone comes
    here after the pairing page; a used or unknown code gets the 404 page saying so, in the words the button's
    refusal uses."""
    table = get_table()
    session = table.session(game_id)
    try:
        seat = table.seat_of_claim(session, code)
    except UnknownGameError:
        raise UnknownGameError(msg("core.seat.code_used")) from None
    page = render_template("join.html", game_id=game_id, code=code, seat=seat, name=session.players[seat],
                           game=session.game.name)
    return no_store(make_response(page))


@bp.post("/games/<game_id>/join/<code>")
def join(game_id: str, code: str) -> BaseResponse:
    """The join page's button: the seat is claimed by this device (the code works once) and the device goes on to
    the seat's private page, whose link only it has. Another site cannot post it (web.security's same-origin
    check)."""
    table = get_table()
    _, token = table.claim(table.session(game_id), code)
    return no_store(redirect(url_for("pages.seat", game_id=game_id, token=token), 303))


def no_store(response: AnyResponse) -> AnyResponse:
    """``response`` kept in no cache: a join code or a seat's link must not outlive its use in one."""
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/join/<code>/qr.svg")
def join_qr(game_id: str, code: str) -> Response:
    """A QR code of an unclaimed seat's absolute join URL, for a phone to scan off the table (404 once claimed)."""
    table = get_table()
    table.seat_of_claim(table.session(game_id), code)
    url = join_address()[0] + url_for("pages.join_page", game_id=game_id, code=code)
    return no_store(Response(qr_svg(url), mimetype="image/svg+xml"))


def qr_svg(data: str) -> bytes:
    """``data`` as a standalone SVG QR code (dark modules on white, quiet zone included; no PIL needed)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathFillImage)
    svg: bytes = image.to_string()
    return svg


# ---------------------------------------------------------------- the address phones join at

LAN_PROBE = "192.0.2.1"
"""A documentation address (TEST-NET-1): "connecting" a UDP socket towards it picks the route out and sends nothing."""


def lan_address() -> str | None:
    """This machine's IPv4 address on the LAN (the local end of the route out), ``None`` without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect((LAN_PROBE, 9))
            address = str(udp.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) else address


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) means this machine only: localhost, 127.x, ::1."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def join_address() -> tuple[str, bool]:
    """The address the seats' QR codes carry (no trailing slash), and whether a phone on the LAN can reach it.

    ``--public-url`` if given; else the address the tablet opened, unless that is this machine's loopback while the
    service listens on the LAN (``--host 0.0.0.0``, config ``LISTEN_HOST``): then this machine's LAN address on the
    same port. A service bound to loopback can be reached from this machine only."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/"), True
    opened = urlsplit(request.host_url)
    host = opened.hostname or ""
    listen = current_app.config.get("LISTEN_HOST")
    if not is_loopback(host):
        return request.host_url.rstrip("/"), listen is None or not is_loopback(str(listen))
    if listen is None or is_loopback(str(listen)):
        return request.host_url.rstrip("/"), False
    wildcard = str(listen) in ("", "0.0.0.0", "::")
    lan = lan_address() if wildcard else str(listen)
    if lan is None:
        return request.host_url.rstrip("/"), False
    shown = f"[{lan}]" if ":" in lan else lan
    port = f":{opened.port}" if opened.port else ""
    return f"{opened.scheme}://{shown}{port}", True


@bp.get("/api/join-address")
def join_address_info() -> Response:
    """Where the seats' QR codes lead and whether phones can reach it (the setup guide says so beside the codes)."""
    url, reachable = join_address()
    return jsonify(url=url, reachable=reachable)
