"""Bounded input: no request body over ``MAX_CONTENT_LENGTH`` is read (413, JSON under /api), and a JSON body nested
too deep to parse is malformed JSON (``BoundedRequest``).

The limit is checked on the declared length before any view runs, and Werkzeug stops reading a body
without a declared length (chunked) at the same limit.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, abort, request
from werkzeug.exceptions import BadRequest

MAX_BODY = 1024 * 1024
"""1 MB: a move is a few dozen bytes, a whole La Granja data pack about 30 kB."""


class BoundedRequest(Request):
    """A request whose JSON body nested past the parser's depth is malformed JSON like any other (the parser raises
    ``RecursionError``, which Flask does not take for a parse error: a 500)."""

    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        try:
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            if silent:
                return None
            raise BadRequest("the request body is JSON nested too deep") from None


def init_app(app: Flask) -> None:
    app.request_class = BoundedRequest
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default is None: no limit
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @app.before_request
    def refuse_large_bodies() -> None:
        limit = app.config["MAX_CONTENT_LENGTH"]
        if limit is not None and (request.content_length or 0) > limit:
            abort(413, f"the request body is {request.content_length} bytes; at most {limit} are read")
