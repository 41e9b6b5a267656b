"""The ``companion`` command with the web service: the core's commands plus ``serve``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from companion import cli


def add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve", help="run the tablet's web service (waitress)", description="Serve the table on the network."
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the LAN)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--data", metavar="DIR", help="where games are stored (default: your user data folder)")
    serve.add_argument("--threads", type=int, default=32, help="worker threads; each live page holds one")
    serve.add_argument("--public-url", metavar="URL",
                       help="the address phones use, for the QR codes (e.g. http://keydom.local:8000)")
    serve.add_argument("--panel", metavar="KIND",
                       help="button/light panel: simulated (default; the tablet's virtual panel), gpio, "
                            "serial or serial:URL (e.g. serial:/dev/ttyACM0), comma-separated (docs/panel.md)")
    serve.add_argument("--camera", metavar="SOURCE",
                       help="frames for the camera page: samples (default), off, usb:N, pi, or a picture/folder/video")
    serve.set_defaults(handler=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server, until interrupted."""
    import os
    import signal
    import sys

    import waitress

    from web import create_app

    # systemd stops the service with SIGTERM: exit normally so that atexit closes the panel's devices
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))

    if args.data:  # the rest of this process (installed data files, the camera's stickers) reads the same folder
        os.environ["KEYDOM_DATA_DIR"] = args.data
    config = {key: value for key, value in (("DATA_DIR", args.data), ("PUBLIC_URL", args.public_url),
                                            ("PANEL", args.panel), ("CAMERA", args.camera)) if value}
    app = create_app(config or None)
    print(f"Keydom Companion on http://{args.host}:{args.port}/  (games in {app.config['DATA_DIR']})", flush=True)
    health = app.extensions["keydom_table"].health
    if not health.ok:  # docs/store.md: the service runs on and says what is wrong with its store
        print(f"THE GAME STORE NEEDS ATTENTION: {health.reason}", file=sys.stderr, flush=True)
    # send_bytes=1: server-sent events leave at once instead of waiting for a full buffer
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads, send_bytes=1, ident="keydom")
    return cli.EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, add_serve)
