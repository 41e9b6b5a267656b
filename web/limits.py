"""Bounded input: no request body over ``MAX_CONTENT_LENGTH`` is read (413, JSON under /api), and a JSON body nested
too deep to parse is malformed JSON (``BoundedRequest``).

The limit is checked before any view runs: on the declared length, or on a body sent in chunks (no Content-Length),
which is read up to one byte past the limit and then handed to the views as a body of known length. Werkzeug
would read a chunked body as empty (the servers do not say they end it: ``wsgi.input_terminated``), so a view
that reads no body would act on the request and one that does would find nothing in it. A refused body is not read
on: the server (uvicorn) discards the rest of it, and the client reads the 413 once it stops sending.
"""

from __future__ import annotations

import io
from typing import IO, Any

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


def bound_chunked_body(request: Request, limit: int) -> None:
    """Read a body sent in chunks (no Content-Length) before any view does: over ``limit`` bytes a 413, else the body
    of known length the views read as any other. Called before anything reads ``request.stream``."""
    if request.content_length is not None or "chunked" not in request.headers.get("Transfer-Encoding", "").lower():
        return
    body = read_at_most(request.environ["wsgi.input"], limit + 1)
    if len(body) > limit:
        abort(413, f"the request body is more than {limit} bytes; at most {limit} are read")
    for sent_in_chunks in ("HTTP_TRANSFER_ENCODING", "wsgi.input_terminated"):
        request.environ.pop(sent_in_chunks, None)
    request.environ.update({"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})


def read_at_most(stream: IO[bytes], size: int) -> bytes:
    """Up to ``size`` bytes of ``stream`` (a read may return fewer than asked before the end)."""
    parts: list[bytes] = []
    left = size
    while left > 0 and (part := stream.read(min(left, 65536))):
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def init_app(app: Flask) -> None:
    app.request_class = BoundedRequest
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default is None: no limit
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY

    @app.before_request
    def refuse_large_bodies() -> None:
        limit = app.config["MAX_CONTENT_LENGTH"]
        if limit is None:
            return
        if (request.content_length or 0) > limit:
            abort(413, f"the request body is {request.content_length} bytes; at most {limit} are read")
        bound_chunked_body(request, limit)
