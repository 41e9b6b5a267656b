"""Who may use the service on the home network (docs/security.md).

Every request passes, in this order:

1. the **Host allow-list**: the ``Host`` header must name this machine (localhost, its host names, its own IP
   addresses, the host of ``--public-url``, or an ``--allow-host``); a foreign name (DNS rebinding) gets 421;
2. the **same-origin check**: a POST, PUT or DELETE must carry an ``Origin`` (else a ``Referer``) of this very
   host, and a body under ``/api`` must be ``application/json`` (403 and 415 otherwise), so a page on another
   site cannot change anything; clients that are not browsers send neither header and are let through (they
   are no cross-site threat, and the Host and PIN checks still apply to them);
3. **pairing**: a request from another address than loopback needs the signed cookie a device gets by entering
   the table PIN once at ``/pair`` (401 JSON under ``/api``, a redirect to the pairing page for pages).

Seat credentials (who may see a seat's screen) are ``web.table``'s.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import socket
import threading
import time
from collections import deque
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from werkzeug.wrappers import Response as BaseResponse
from flask import Blueprint, Flask, Response, current_app, jsonify, redirect, render_template, request, session

from companion.core.messages import Message, msg, render

bp = Blueprint("security", __name__)

PIN_FILE = "pin"
KEY_FILE = "secret_key"
PIN_DIGITS = 6
PAIR_ATTEMPTS = 5
"""Wrong PINs an address may try per ``PAIR_WINDOW_SECONDS``; then it waits."""
PAIR_WINDOW_SECONDS = 60.0
OPEN_PATHS = ("/pair", "/static/", "/i18n/", "/favicon.ico")
"""What an unpaired device may load: the pairing page and what it is drawn with (scripts, styles, strings)."""
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


# ---------------------------------------------------------------- the secrets in the data folder


def _secret_file(path: Path, make: str, replace: bool = False) -> str:
    """The text of ``path``, written once (owner-only, 0600) with ``make`` if missing or if ``replace``."""
    if path.exists() and not replace:
        os.chmod(path, 0o600)
        return path.read_text().strip()
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "w") as out:
        out.write(make + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, path)
    return make


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def load_secrets(data_dir: Path, reset: bool = False) -> tuple[str, str]:
    """The table PIN and the cookie-signing key kept in ``data_dir`` (created once). ``reset``: a new PIN and a new
    key, so every paired device must enter the new PIN."""
    pin = _secret_file(data_dir / PIN_FILE, new_pin(), replace=reset)
    key = _secret_file(data_dir / KEY_FILE, secrets.token_hex(32), replace=reset)
    return pin, key


# ---------------------------------------------------------------- hosts


def _host_name(host: str) -> str:
    """``host`` of a Host header or URL without its port and brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def machine_hosts() -> set[str]:
    """The names and addresses this machine answers to: localhost, its host names, its IP addresses."""
    hosts = {"localhost", "127.0.0.1", "::1"}
    name = socket.gethostname().lower()
    hosts |= {name, f"{name}.local", socket.getfqdn().lower()}
    for query in (name, f"{name}.local", None):
        try:
            hosts |= {str(info[4][0]).split("%")[0].lower() for info in socket.getaddrinfo(query, None)}
        except (OSError, UnicodeError):
            pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:  # the address of the route out (connecting a UDP socket sends nothing)
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                hosts.add(str(udp.getsockname()[0]).lower())
        except OSError:
            pass
    return hosts


class HostList:
    """The allowed Host names: the machine's (looked up again, at most every 10 s, when an unknown name comes: a
    new DHCP address) plus the configured ones."""

    def __init__(self, extra: set[str]) -> None:
        self.extra = {_host_name(h) for h in extra if h}
        self._machine = machine_hosts()
        self._looked = time.monotonic()
        self._lock = threading.Lock()

    def allows(self, host: str) -> bool:
        name = _host_name(host)
        if name in self.extra or name in self._machine:
            return True
        with self._lock:
            if time.monotonic() - self._looked > 10:
                self._machine = machine_hosts()
                self._looked = time.monotonic()
            return name in self._machine


# ---------------------------------------------------------------- PIN attempts


class Attempts:
    """Wrong PINs per address (an IPv6 address's /64: ``attempts_key``) in a sliding window: ``PAIR_ATTEMPTS`` per
    ``PAIR_WINDOW_SECONDS``."""

    def __init__(self, limit: int = PAIR_ATTEMPTS, window: float = PAIR_WINDOW_SECONDS) -> None:
        self.limit, self.window = limit, window
        self._failed: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next try (0: it may try now)."""
        now = time.monotonic()
        with self._lock:
            failed = self._failed.get(address)
            while failed and now - failed[0] >= self.window:
                failed.popleft()
            if not failed:
                self._failed.pop(address, None)
                return 0.0
            return self.window - (now - failed[0]) if len(failed) >= self.limit else 0.0

    def failed(self, address: str) -> None:
        with self._lock:
            self._failed.setdefault(address, deque()).append(time.monotonic())

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failed.pop(address, None)


def attempts_key(address: str) -> str:
    """Whose PIN attempts an address's are: its own (IPv4), or its /64's (IPv6, where one device may take any address
    of its network)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        return str(mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


# ---------------------------------------------------------------- the checks


def _error(status: int, kind: str, message: Message) -> tuple[Response, int]:
    """A refusal as the API gives it: the reason in English and as a message (the page shows it in its language)."""
    return jsonify(error={"type": kind, "reason": render(message), "message": message.to_json()}), status


def is_local() -> bool:
    """Whether the request comes from this machine (loopback), which needs no pairing."""
    if current_app.config["LAN_TEST"]:
        return False
    try:
        address = ipaddress.ip_address((request.remote_addr or "").split("%")[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool((mapped or address).is_loopback)


def is_paired() -> bool:
    return is_local() or session.get("paired") is True


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _same_origin() -> bool:
    """A state change sent from our own pages: its Origin (else Referer) is this host; neither header: no browser."""
    own = f"{request.scheme}://{request.host}".lower()
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin.strip().lower() == own  # "null" (sandboxed frames, file://) is foreign too
    referer = request.headers.get("Referer")
    if referer is not None:
        return _origin_of(referer) == own
    return True


def check_request() -> tuple[Response, int] | BaseResponse | None:
    """The gate in front of every view (see the module's docstring); ``None`` lets the request through."""
    if not current_app.extensions["keydom_hosts"].allows(request.host):
        return _error(421, "ForeignHost", msg("web.refuse.foreign_host", host=repr(request.host[:100])))
    api = request.path.startswith("/api/")
    if request.method in UNSAFE_METHODS:
        if not _same_origin():
            origin = request.headers.get("Origin") or request.headers.get("Referer") or ""
            return _error(403, "CrossSiteRequest", msg("web.refuse.cross_site", origin=repr(origin[:100])))
        if api and request.method in {"POST", "PUT", "PATCH"} and request.mimetype != "application/json":
            return _error(415, "UnsupportedMediaType", msg("web.refuse.json_only"))
    if is_paired() or request.path.startswith(OPEN_PATHS):
        return None
    if api or request.method != "GET" or request.path.startswith("/camera/"):
        return _error(401, "NotPaired", msg("web.refuse.not_paired"))
    return redirect("/pair?" + urlencode({"next": request.full_path.rstrip("?")}), 303)


CONTENT_SECURITY_POLICY = ("default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
                           "frame-ancestors 'none'")
"""Scripts, styles, images and connections (the API, the live streams, the camera's frames, the QR codes) from this
site only, no inline script or style and no eval, no plugins, no ``<base>`` elsewhere, forms post here only, and no
site frames a page (X-Frame-Options for older browsers)."""


SECURITY_HEADERS = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "Referrer-Policy": "same-origin",
                    "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff"}
"""No seat link leaves in a Referer to another site; no page is framed by another site or runs another site's or
injected script (``CONTENT_SECURITY_POLICY``); no answer is read as another type than it says. On every answer,
Flask's and the live streams' (web/streams.py)."""


def add_headers(response: BaseResponse) -> BaseResponse:
    """``SECURITY_HEADERS`` on a Flask answer."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


# ---------------------------------------------------------------- the pairing page


def _next_page(value: str | None) -> str:
    """Where to go once paired: a path of this site only (never another site's address; a browser drops tabs and
    newlines from a URL, so "/<TAB>/evil.example" would be "//evil.example": no control character passes)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value or not value.isprintable():
        return "/"
    return value


@bp.get("/pair")
def pair_page() -> str | BaseResponse:
    target = _next_page(request.args.get("next"))
    if is_paired():
        return redirect(target, 303)
    return render_template("pair.html", next_page=target, problem=None)


@bp.post("/pair")
def pair() -> tuple[str, int] | BaseResponse:
    """Check the PIN typed on the pairing page; right: a long-lived signed cookie and on to ``next``."""
    target = _next_page(request.form.get("next"))
    address = attempts_key(request.remote_addr or "?")
    attempts: Attempts = current_app.extensions["keydom_pair_attempts"]
    wait = attempts.wait(address)
    if wait > 0:
        page = render_template("pair.html", next_page=target, problem="pair_wait", wait=int(wait) + 1)
        return page, 429
    typed = "".join(str(request.form.get("pin", "")).split())
    if not hmac.compare_digest(typed.encode(), str(current_app.config["TABLE_PIN"]).encode()):
        attempts.failed(address)
        return render_template("pair.html", next_page=target, problem="pair_wrong"), 401
    attempts.succeeded(address)
    session.clear()
    session.permanent = True
    session["paired"] = True
    return redirect(target, 303)


def init_app(app: Flask) -> None:
    """The secrets, the gate and the pairing page. ``ALLOW_HOSTS``: more Host names to answer to; ``LAN_TEST``:
    treat loopback like the LAN (for the browser tests only)."""
    data_dir = Path(app.config["DATA_DIR"])
    pin, key = load_secrets(data_dir, reset=bool(app.config.get("RESET_PIN")))
    app.config.update(TABLE_PIN=pin, SECRET_KEY=key, SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_NAME="keydom_paired", PERMANENT_SESSION_LIFETIME=timedelta(days=400))
    extra = set(app.config.get("ALLOW_HOSTS") or ())
    if app.config.get("PUBLIC_URL"):
        extra.add(urlsplit(str(app.config["PUBLIC_URL"])).netloc)
    app.extensions["keydom_hosts"] = HostList(extra)
    app.extensions["keydom_pair_attempts"] = Attempts()
    app.before_request(check_request)
    app.after_request(add_headers)
    app.register_blueprint(bp)
