"""The camera page: what the camera sees, the board it reads with its score, and how that differs from the game.

``CAMERA`` in the app config names the frame source (``off``, ``samples``, ``usb:N``, ``pi`` or a
path; see ``companion.vision.sources``). The source is opened on the first request that needs it,
never when the app is made; a camera that cannot be opened is reported on the page and the rest
of the service runs on. ``CAMERA_THREAD = False`` (tests) scans only when ``Camera.step`` is called.

Routes (JSON unless said otherwise):

* ``GET /camera``: the page;
* ``GET /camera/frame.jpg``: the latest frame with each recognised sticker outlined (JPEG);
* ``GET /camera/codes``: the camera's state and every sticker in the latest frame;
* ``GET /camera/board?game=ID&seat=N``: the latest frame read as one board, its score, and with a
  game chosen, its disagreements with that seat's board in the game (through the game's ``BoardReader``;
  without a game, the board of the game whose stickers are in view);
* ``GET /camera/table?game=ID``: the latest frame read as the whole table (every board given to its player,
  the land office, the event track), the points on each board and every difference from the game in words;
* ``GET /camera/station?game=ID``: the one component held up to the camera, or the one last read by the
  hand-held scanner or typed into the station's field, and the game's legal moves that mention it (the scan
  station);
* ``POST /camera/station/scan?game=ID`` ``{"payload": "KEYDOM:3:KH:F:C4:U"}``: a scanned code's text, from the
  station's field (a scanner on the tablet types into it); answered like ``GET /camera/station``.

``SCANNER`` in the app config names a hand-held USB scanner on the Pi (``auto`` or an input device's path;
``firmware_bridge.handscanner``), ``SCANNER_LAYOUT`` its keyboard layout (``us``, ``de``): its scans reach the
station as the field's do.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from companion.codes import load_registry
from companion.codes.registry import CodeRegistry, Component
from companion.core.boards import BoardReader
from companion.core.errors import (CompanionError, MalformedInputError, UnknownCodeError, UnknownGameError,
                                   UnsupportedError)
from companion.core.game import Game
from companion.core.messages import Message, Text, msg, render
from companion.core.picks import starts_naming
from companion.games import games
from companion.session import Session
from companion.vision.board import BoardRead, second_look
from companion.vision.scanner import ScanFrame, Scanner
from companion.vision.sources import CameraUnavailable, open_source
from firmware_bridge.handscanner import HandScanner, Scan, ScannerUnavailable, open_device, resolve
from companion.vision.table import TableRead, TableReader, table_reader
from web.table import get_table

log = logging.getLogger(__name__)
EXTENSION = "keydom_camera"
PREVIEW_WIDTH = 1280
IDLE_SECONDS = 30.0
"""The scanner thread rests when no camera endpoint was asked for this long."""
"""Frames wider than this are scaled down for the tablet."""
SCAN_HOLD_SECONDS = 60.0
"""A code read by the hand-held scanner or typed into the station is offered this long (or until the next)."""

bp = Blueprint("camera", __name__, url_prefix="/camera")


class Camera:
    """The configured frame source behind a scanner, opened on first use."""

    def __init__(self, spec: str, threaded: bool = True, data_dir: Path | None = None) -> None:
        self.spec = spec.strip() or "off"
        self.threaded = threaded
        self.data_dir = data_dir
        self.error: str | None = None
        self._scanner: Scanner | None = None
        self._registry: CodeRegistry | None = None
        self._opened = False
        self._board: tuple[int, str, BoardRead] | None = None
        self._table: tuple[tuple[int, str, int | None], TableRead] | None = None
        self._asked = time.monotonic()
        self._lock = threading.Lock()
        self._scan: tuple[float, Scan] | None = None
        self.hand_scanner: HandScanner | None = None
        self.hand_scanner_error: CompanionError | None = None

    def installed(self, game: Game[Any, Any]) -> Game[Any, Any]:
        """``game`` on the data new games of this service use: installed in its data folder, else the default."""
        return game.with_installed_data(self.data_dir) if self.data_dir is not None else game

    @property
    def registry(self) -> CodeRegistry:
        """The stickers of every game on that data."""
        if self._registry is None:
            self._registry = load_registry(*(self.installed(game) for game in games()))
        return self._registry

    def scanner(self) -> Scanner | None:
        """The running scanner; None when the camera is off or cannot be opened (``error`` says why)."""
        with self._lock:
            self._asked = time.monotonic()
            if not self._opened and self.spec != "off":
                self._opened = True
                try:
                    self._scanner = Scanner(open_source(self.spec), self.registry, wanted=self._wanted)
                except (CameraUnavailable, MalformedInputError) as exc:
                    self.error = str(exc)
                    return None
                if self.threaded:
                    self._scanner.start()
            return self._scanner

    def _wanted(self) -> bool:
        return time.monotonic() - self._asked < IDLE_SECONDS

    def step(self) -> ScanFrame | None:
        """Scan one frame now (without the thread)."""
        scanner = self.scanner()
        return scanner.step() if scanner is not None else None

    def latest(self) -> ScanFrame | None:
        scanner = self.scanner()
        return scanner.latest if scanner is not None else None

    def board(self, scan: ScanFrame, boards: BoardReader) -> BoardRead:
        """The board of ``boards``' game ``scan`` shows, with the second look on the straightened board (kept per
        frame)."""
        with self._lock:
            cached = self._board
        if cached is not None and cached[:2] == (scan.number, boards.game):
            return cached[2]
        scanner = self.scanner()
        assert scanner is not None  # a frame came from it
        read, _ = second_look(scan.frame, list(scan.detections), self.registry, boards, scanner.reader)
        with self._lock:
            self._board = (scan.number, boards.game, read)
        return read

    def table(self, scan: ScanFrame, reader: TableReader, seats: int | None) -> TableRead:
        """The whole table ``scan`` shows, each board read again straightened (kept per frame)."""
        key = (scan.number, reader.boards.game, seats)
        with self._lock:
            cached = self._table
        if cached is not None and cached[0] == key:
            return cached[1]
        scanner = self.scanner()
        assert scanner is not None  # a frame came from it
        read = reader.read(scan.frame, list(scan.detections), self.registry, scanner.reader, seats)
        with self._lock:
            self._table = (key, read)
        return read

    def status(self) -> str:
        """``off``, ``unavailable``, ``stopped`` (the source failed or ended), ``waiting`` or ``live``."""
        scanner = self.scanner()
        if self.spec == "off":
            return "off"
        if scanner is None:
            return "unavailable"
        if scanner.error or (self.threaded and not scanner.running):
            return "stopped"
        return "live" if scanner.latest is not None else "waiting"

    def take_scan(self, scan: Scan) -> None:
        """A code read by the hand-held scanner (on its thread) or typed into the station: offered next."""
        with self._lock:
            self._scan = (time.monotonic(), scan)

    def scanned(self) -> Scan | None:
        """The last code scanned or typed, while it is offered."""
        with self._lock:
            if self._scan is not None and time.monotonic() - self._scan[0] < SCAN_HOLD_SECONDS:
                return self._scan[1]
            return None

    def start_hand_scanner(self, spec: str, layout: str) -> None:
        """Read the hand-held scanner ``spec`` (``auto`` or a path); a scanner that cannot be read is reported
        (``hand_scanner_error``), and the service runs on."""
        try:
            self.hand_scanner = HandScanner(open_device(spec), self.registry, self.take_scan, layout)
            self.hand_scanner.start()
        except ScannerUnavailable as exc:
            self.hand_scanner = None
            self.hand_scanner_error = exc
            log.error("hand-held scanner: %s", exc)

    def close(self) -> None:
        with self._lock:
            if self._scanner is not None:
                self._scanner.close()
            if self.hand_scanner is not None:
                self.hand_scanner.close()


def init_app(app: Flask) -> None:
    camera = Camera(str(app.config.get("CAMERA", "off")), bool(app.config.get("CAMERA_THREAD", True)),
                    Path(app.config["DATA_DIR"]))
    app.extensions[EXTENSION] = camera
    if app.config.get("SCANNER"):
        camera.start_hand_scanner(str(app.config["SCANNER"]), str(app.config.get("SCANNER_LAYOUT", "us")))
    atexit.register(camera.close)


def get_camera() -> Camera:
    camera: Camera = current_app.extensions[EXTENSION]
    return camera


@bp.errorhandler(CompanionError)
def camera_error(error: CompanionError) -> tuple[Response, int]:
    status = 404 if isinstance(error, UnknownGameError) else 403 if isinstance(error, SeatCredentialRequired) else 400
    return jsonify(error={"type": type(error).__name__, "reason": str(error), "message": error.message_json()}), status


def _no_frame(camera: Camera) -> tuple[Response, int]:
    message = msg("web.camera.off") if camera.spec == "off" else msg("web.camera.no_frame")
    reason = camera.error or render(message)
    return jsonify(error={"type": "NoFrame", "reason": reason, "message": None if camera.error else message},
                   status=camera.status()), 503


@bp.get("")
def page() -> str:
    readable = " ".join(game.name for game in games() if game.board_reader() is not None)
    return render_template("camera.html", camera=get_camera().spec, readable=readable)


@bp.get("/frame.jpg")
def frame() -> Response | tuple[Response, int]:
    camera = get_camera()
    scan = camera.latest()
    if scan is None:
        return _no_frame(camera)
    image = scan.frame.copy()  # the scanner keeps its frame unmarked
    for detection in scan.detections:
        colour = (60, 200, 60) if detection.code in scan.present else (0, 200, 255)
        quad = np.array(detection.corners, dtype=np.int32)
        cv2.polylines(image, [quad], True, colour, 3, cv2.LINE_AA)
        x, y = quad.min(axis=0)
        cv2.putText(image, detection.code, (int(x), int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    if image.shape[1] > PREVIEW_WIDTH:
        scale = PREVIEW_WIDTH / image.shape[1]
        image = np.asarray(cv2.resize(image, (PREVIEW_WIDTH, int(image.shape[0] * scale)),
                                      interpolation=cv2.INTER_AREA), dtype=np.uint8)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise MalformedInputError("the frame cannot be encoded as JPEG")
    response = Response(encoded.tobytes(), mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Frame-Number"] = str(scan.number)
    return response


def _component(registry: CodeRegistry, code: str) -> Component | None:
    try:
        return registry.by_code(code)
    except UnknownCodeError:
        return None


@bp.get("/codes")
def codes() -> Response:
    camera = get_camera()
    scan = camera.latest()
    result: dict[str, Any] = {"camera": camera.spec, "status": camera.status(), "error": camera.error, "frame": None}
    scanner = camera.scanner()
    if scanner is not None and scanner.error:
        result["error"] = scanner.error
    if scan is not None:
        height, width = scan.frame.shape[:2]
        found = []
        for detection in scan.detections:
            component = _component(camera.registry, detection.code)
            found.append({"code": detection.code, "title": component.title if component else detection.code,
                          "center": [round(v, 1) for v in detection.center],
                          "corners": [[round(x, 1), round(y, 1)] for x, y in detection.corners],
                          "present": detection.code in scan.present})
        result.update(frame=scan.number, taken=scan.taken, size=[width, height], codes=found,
                      present=sorted(scan.present))
    return jsonify(result)


def _chosen_game(seat_required: bool) -> tuple[Session, int] | None:
    game_id = request.args.get("game")
    if not game_id:
        return None
    session = get_table().session(game_id)
    seat_text = request.args.get("seat", "0" if not seat_required else "")
    if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) < 4) or not 0 <= int(seat_text) < len(
            session.players):
        raise MalformedInputError(msg("core.camera.bad_seat", most=len(session.players) - 1, seat=seat_text[:20]))
    if seat_required:  # a seat's board against the game tells its stones: only with that seat's private link
        token = request.args.get("token", "")
        if not token:
            raise SeatCredentialRequired(msg("web.camera.seat_link_needed"))
        try:
            owner = get_table().seat_of(session, token)
        except UnknownGameError:  # a wrong link is refused like another seat's (docs/security.md: 403 here)
            owner = None
        if owner != int(seat_text):
            raise SeatCredentialRequired(msg("web.camera.seat_link_other", name=session.players[int(seat_text)]))
    return session, int(seat_text)


class SeatCredentialRequired(CompanionError):
    """A seat-private answer asked without that seat's credential (HTTP 403)."""


def _boards(game: Game[Any, Any]) -> BoardReader:
    """How ``game``'s boards are read; ``UnsupportedError`` (HTTP 400) if they are not."""
    boards = game.board_reader()
    if boards is None:
        raise UnsupportedError(msg("core.camera.no_board_stickers", game=game.title))
    return boards


def _game_in_view(scan: ScanFrame) -> Game[Any, Any]:
    """The game whose stickers are most of those in view among the games whose boards are read (with none in
    view, the first such game), on this service's data."""
    camera = get_camera()
    seen = Counter(c.game for c in (_component(camera.registry, d.code) for d in scan.detections) if c is not None)
    readable = [game for game in games() if game.board_reader() is not None]
    if not readable:
        raise UnsupportedError(msg("core.camera.no_readable_game"))
    return camera.installed(max(readable, key=lambda game: seen[game.name]))


@bp.get("/board")
def board() -> Response | tuple[Response, int]:
    camera = get_camera()
    chosen = _chosen_game(seat_required=True)
    boards = _boards(chosen[0].game) if chosen is not None else None  # refused before any frame is needed
    scan = camera.latest()
    if scan is None:
        return _no_frame(camera)
    game = chosen[0].game if chosen is not None else _game_in_view(scan)
    boards = boards or _boards(game)
    read = camera.board(scan, boards)
    result: dict[str, Any] = {"frame": scan.number, "read": read.to_json(), "summary": boards.summary(read)}
    if chosen is None:
        result.update(_alone(read, game, boards))
        result["note"] = msg(boards.alone_note_id)
    else:
        result.update(_against_game(read, boards, *chosen))
        result["note"] = msg("core.camera.game_note")
    # the game's own words for its points and differences: the page knows no game
    result["score_lines"] = boards.score_lines(result["score"]) if result["score"] is not None else None
    differs = result["disagreements"]
    result["difference_lines"] = boards.difference_lines(differs) if differs is not None else None
    return jsonify(result)


def _alone(read: BoardRead, game: Game[Any, Any], boards: BoardReader) -> dict[str, Any]:
    """The board's own points; what compares it with the other players needs their boards."""
    try:
        player = boards.player("photo", read)
    except CompanionError as exc:
        return {"player": None, "score": None, "score_error": exc.text, "disagreements": None}
    if read.conflicts:
        return {"player": player, "score": None, "score_error": _conflict_text(read), "disagreements": None}
    (row,) = game.score_snapshot(boards.snapshot([player]))["players"]
    return {"player": player, "score": boards.screened(row), "score_error": None, "disagreements": None}


def _against_game(read: BoardRead, boards: BoardReader, session: Session, seat: int) -> dict[str, Any]:
    """The table's score with this seat's board as photographed, and what differs from the tracked game."""
    player, differs, table = boards.compare(read, session.state, seat)
    result: dict[str, Any] = {"game": session.id, "seat": seat, "player": player,
                              "disagreements": differs, "score": None, "score_error": None}
    if read.conflicts:
        result["score_error"] = _conflict_text(read)
        return result
    try:
        rows = session.game.score_snapshot(table, dict(session.options))["players"]
    except CompanionError as exc:
        result["score_error"] = exc.text
        return result
    # what the score tells of the screens is shown only at the end, as on the table page
    result["score"] = rows[seat] if session.is_over else boards.screened(rows[seat])
    return result


def _conflict_text(read: BoardRead) -> Message:
    return msg("core.camera.cannot_score", conflicts=[c.message for c in read.conflicts])


def _table_reader(game: Game[Any, Any]) -> TableReader:
    """How ``game``'s whole table is read; ``UnsupportedError`` (HTTP 400) with the reason in words if it is not."""
    try:
        return table_reader(_boards(game))
    except UnsupportedError as error:
        if error.message_json() is not None:
            raise
        raise UnsupportedError(msg("web.camera.no_table_read", game=game.title)) from None


@bp.get("/table")
def table() -> Response | tuple[Response, int]:
    """The whole table in the latest frame (``companion.vision.table``): every board given to its player, the land
    office and the event track, the points each board shows, and with a game chosen, every difference from the
    game in words. Public information only: no stones, so no majorities until the game is over."""
    camera = get_camera()
    game_id = request.args.get("game")
    session = get_table().session(game_id) if game_id else None
    chosen = _table_reader(session.game) if session is not None else None  # refused before any frame is needed
    scan = camera.latest()
    if scan is None:
        return _no_frame(camera)
    game = session.game if session is not None else _game_in_view(scan)
    reader = chosen or _table_reader(game)
    names = list(session.players) if session is not None else None
    read = camera.table(scan, reader, len(names) if names is not None else None)
    names = names or [f"Player {i + 1}" for i in range(max([len(read.boards)] + [(b.seat or 0) + 1 for b in read.boards]))]
    result: dict[str, Any] = {"frame": scan.number, "read": read.to_json(), "names": names, "score": None,
                              "score_error": None, "differences": None}
    conflicts = [c.message for b in read.boards for c in b.read.conflicts]
    over, hidden, differences = False, None, None
    if session is not None:
        with session.lock:
            state, over = session.state, session.is_over
        # the screens are open at the end: what lay behind them scores too
        hidden = reader.revealed(state) if over else None
    try:
        snapshot = reader.snapshot(read, camera.registry, names, hidden)
        if session is not None:
            differences = reader.differences(snapshot, state)
    except CompanionError as exc:
        result["score_error"] = exc.text
        return jsonify(result)
    result["snapshot"], result["differences"] = snapshot, differences
    if conflicts:
        result["score_error"] = msg("core.camera.cannot_score", conflicts=conflicts)
        return jsonify(result)
    try:
        rows = game.score_snapshot(snapshot, dict(session.options) if session is not None else None)["players"]
    except CompanionError as exc:
        result["score_error"] = exc.text
        return jsonify(result)
    boards = reader.boards
    result["score"] = rows if over else [boards.screened(row) for row in rows]
    return jsonify(result)


@bp.get("/station")
def station() -> Response:
    """The scan station: the code last scanned or typed (while offered), else exactly one component in view, is
    named, with the moves that mention it among those the whole table may see (``public_moves``: the scan station
    is a shared screen, it never tells what a player can pay)."""
    camera = get_camera()
    chosen = _chosen_game(seat_required=False)
    scanned = camera.scanned()
    if scanned is not None:
        return _scanned(scanned, chosen)
    scan = camera.latest()
    present = sorted(scan.present) if scan is not None else []
    if len(present) != 1:
        return jsonify(offer=None, in_view=len(present), **_hand_scanner(camera))
    component = _component(camera.registry, present[0])
    if component is None:
        return jsonify(offer=None, in_view=1, **_hand_scanner(camera))
    return jsonify(offer=_offer(component, chosen, "camera"), in_view=1, **_hand_scanner(camera))


@bp.post("/station/scan")
def station_scan() -> Response | tuple[Response, int]:
    """A code's text from the station's field: offered as the hand-held scanner's scans are; a code the companion
    did not print is refused (HTTP 400) with the registry's reason."""
    camera = get_camera()
    chosen = _chosen_game(seat_required=False)
    body = request.get_json(silent=True)
    payload = body.get("payload") if isinstance(body, dict) else None
    if not isinstance(payload, str) or not payload.strip():
        raise MalformedInputError(msg("core.camera.scan_empty"))
    scan = resolve(camera.registry, payload)
    camera.take_scan(scan)
    if scan.error is not None:
        raise scan.error
    return _scanned(scan, chosen)


def _scanned(scan: Scan, chosen: tuple[Session, int] | None) -> Response:
    """The station's answer for a scanned or typed code: its offer, or why it was refused."""
    hand = _hand_scanner(get_camera())
    if scan.component is None:
        assert scan.error is not None
        return jsonify(offer=None, in_view=0, refused={"text": scan.text[:40], "message": scan.error.message_json(),
                                                       "reason": str(scan.error)}, **hand)
    return jsonify(offer=_offer(scan.component, chosen, "scanner"), in_view=0, **hand)


def _hand_scanner(camera: Camera) -> dict[str, Any]:
    """The hand-held scanner's state for the station, when one is configured: ``reading``, or ``stopped`` and why."""
    scanner, error = camera.hand_scanner, camera.hand_scanner_error
    if scanner is not None and scanner.error is not None:
        error = scanner.error
    if scanner is None and error is None:
        return {}
    return {"hand_scanner": {"state": "reading" if error is None else "stopped",
                             "error": error.message_json() if error is not None else None}}


def _offer(component: Component, chosen: tuple[Session, int] | None, source: str) -> dict[str, Any]:
    """``component`` named, with where it leads in the picks of the chosen game's public moves that mention it
    (``starts``: the picks up to it, a tap goes on from there; ``picks.starts_naming``)."""
    starts: list[dict[str, Any]] = []
    version = None
    if chosen is not None:
        session = chosen[0]
        with session.lock:
            tree = session.pick_tree(None)
            by_text = {str(move): move for move, _, _ in tree.paths}
            naming = session.game.moves_naming(session.state, component, list(by_text))
            starts = [s.to_json() for s in starts_naming(tree, component.key, [by_text[m] for m in naming])]
            version = session.version  # a move played from this offer names it
    return {"code": component.code, "kind": component.kind, "key": component.key, "title": component.title,
            "starts": starts, "version": version, "source": source}
