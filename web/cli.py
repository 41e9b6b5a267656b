"""The ``companion`` command with the web service: the core's commands plus ``serve``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from companion import cli

PER_DEVICE = 4
"""The default of --streams-per-device (web.streams.PER_DEVICE; not imported here to keep the CLI light)."""


def add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve", help="run the tablet's web service (uvicorn)", description="Serve the table on the network."
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on: 127.0.0.1 (default) is this machine only; 0.0.0.0 opens the "
                            "table to phones and tablets on the LAN (the seats' QR codes then carry this machine's "
                            "LAN address)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--data", metavar="DIR", help="where games are stored (default: your user data folder)")
    serve.add_argument("--threads", type=int, default=32,
                       help="worker threads for requests (live pages hold none: they are served by the event loop)")
    serve.add_argument("--streams-per-device", type=int, default=PER_DEVICE, metavar="N",
                       help=f"live streams one device keeps open on one game; a new one closes the oldest "
                            f"(default {PER_DEVICE})")
    serve.add_argument("--public-url", metavar="URL",
                       help="the address phones use, for the QR codes (e.g. http://keydom.local:8000)")
    serve.add_argument("--panel", metavar="KIND",
                       help="button/light panel: simulated (default; the tablet's virtual panel), gpio, "
                            "serial or serial:URL (e.g. serial:/dev/ttyACM0), comma-separated (docs/panel.md)")
    serve.add_argument("--camera", metavar="SOURCE",
                       help="frames for the camera page: samples (default), off, usb:N, pi, or a picture/folder/video")
    serve.add_argument("--scanner", metavar="DEVICE",
                       help="a hand-held USB code scanner for the scan station: auto, or its input device "
                            "(/dev/input/by-id/...-event-kbd); needs the input group (README)")
    serve.add_argument("--scanner-layout", choices=("us", "de"),
                       help="the keyboard layout the scanner types in (default us)")
    serve.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                       help="another host name or address the service answers to (repeatable); it already answers to "
                            "localhost, this machine's names and addresses and --public-url's host")
    serve.add_argument("--reset-pin", action="store_true",
                       help="make a new table PIN; every paired device must enter it again (docs/security.md)")
    serve.add_argument("--lan-test", action="store_true",
                       help="TESTS ONLY: treat this machine (loopback) like a device on the network, so it must pair")
    serve.set_defaults(handler=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    """Serve the app on uvicorn until interrupted: live streams on its event loop, other requests through Flask
    in ``--threads`` worker threads (web/streams.py)."""
    import os
    import signal
    import sys
    from types import FrameType

    import uvicorn

    from web import create_app
    from web.pages import is_loopback
    from web.streams import StreamingApp

    # systemd stops the service with SIGTERM: uvicorn shuts down, then re-raises the signal to this handler, and
    # the process exits normally so that atexit closes the panel's devices
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))

    if args.data:  # the rest of this process (installed data files, the camera's stickers) reads the same folder
        os.environ["KEYDOM_DATA_DIR"] = args.data
    config = {key: value for key, value in (("DATA_DIR", args.data), ("PUBLIC_URL", args.public_url),
                                            ("PANEL", args.panel), ("CAMERA", args.camera),
                                            ("SCANNER", args.scanner), ("SCANNER_LAYOUT", args.scanner_layout),
                                            ("ALLOW_HOSTS", tuple(args.allow_host)), ("RESET_PIN", args.reset_pin),
                                            ("LAN_TEST", args.lan_test)) if value}
    app = create_app(config or None)
    app.config["LISTEN_HOST"] = args.host  # loopback only, or the LAN: the seats' QR codes carry what phones reach
    asgi = StreamingApp(app, threads=args.threads, per_device=args.streams_per_device)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            asgi.hub.close_all()  # open streams end now, so the shutdown need not wait for them
            super().handle_exit(sig, frame)

    # httptools parses and frames HTTP where it has a wheel (x86-64, 64-bit Pi OS), else pure-Python h11; plain
    # asyncio; no proxy headers: the client address is the peer's; no access log (waitress had none either)
    server = Server(uvicorn.Config(asgi, host=args.host, port=args.port, http="auto", loop="asyncio",
                                   lifespan="off", proxy_headers=False, server_header=False,
                                   headers=[("Server", "keydom")], access_log=False, log_level="warning",
                                   timeout_graceful_shutdown=3))
    print(f"Keydom Companion on http://{args.host}:{args.port}/  (games in {app.config['DATA_DIR']})", flush=True)
    if is_loopback(args.host):  # the seats' QR codes lead nowhere for a phone: say how to open the table
        print("Only this machine can open it; to let phones on the network join: companion serve --host 0.0.0.0 "
              "(./run serve --host 0.0.0.0)", flush=True)
    health = app.extensions["keydom_table"].health
    if not health.ok:  # docs/store.md: the service runs on and says what is wrong with its store
        print(f"THE GAME STORE NEEDS ATTENTION: {health.reason}", file=sys.stderr, flush=True)
    print(f"Table PIN: {app.config['TABLE_PIN']}  (phones and tablets on the network enter it once; "
          f"{'a new PIN: every device pairs again' if args.reset_pin else 'companion serve --reset-pin makes a new one'})",
          flush=True)
    if args.lan_test:
        print("--lan-test: this machine is treated like a device on the network (for tests only)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return cli.EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, add_serve)
