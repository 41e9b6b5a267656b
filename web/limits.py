"""Bounded input: no request body over ``MAX_CONTENT_LENGTH`` is read (413, JSON under /api).

The limit is checked on the declared length before any view runs, and Werkzeug stops reading a body
without a declared length (chunked) at the same limit.
"""

from __future__ import annotations

from flask import Flask, abort, request

MAX_BODY = 1024 * 1024
"""1 MB: a move is a few dozen bytes, a whole La Granja data pack about 30 kB."""


def init_app(app: Flask) -> None:
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default is None: no limit
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @app.before_request
    def refuse_large_bodies() -> None:
        limit = app.config["MAX_CONTENT_LENGTH"]
        if limit is not None and (request.content_length or 0) > limit:
            abort(413, f"the request body is {request.content_length} bytes; at most {limit} are read")
