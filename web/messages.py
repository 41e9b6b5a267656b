"""Messages at the web's edge: the catalogs the pages speak from, the request's language, and JSON that carries
``Message`` objects as data.

The browser's own strings are catalog entries too (ids ``ui.<key>``): the shared ones in ``web/locale/``, each
game's in ``web/games/<package>/locale/``. ``GET /i18n/<language>.json`` serves every catalog merged (core,
games, web; English where a translation is missing) with the plural rule, and ``web/static/js/i18n.js``
renders from it exactly as ``companion.core.messages.render`` does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, request
from flask.json.provider import DefaultJSONProvider

from companion.core.messages import FALLBACK, LANGUAGES, Message, add_catalog_folder, catalogs, language_of, render

WEB = Path(__file__).resolve().parent
LANGUAGE_COOKIE = "lang"
"""Set by the pages' script (i18n.js) when the language is chosen, so server-rendered text follows it."""


def json_default(value: Any) -> Any:
    """A ``Message`` as ``{"id", "params"}`` (the browser renders it); anything else as Flask would."""
    if isinstance(value, Message):
        return value.to_json()
    return DefaultJSONProvider.default(value)


def dumps(value: Any) -> str:
    """``value`` as JSON, messages included (for the event streams, which write JSON themselves)."""
    return json.dumps(value, default=json_default)


class MessageJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with every ``Message`` in a response serialized as data."""

    default = staticmethod(json_default)


def request_language() -> str:
    """The request's language: ``?lang=``, else the cookie the pages set, else ``Accept-Language``."""
    asked = request.args.get("lang") or request.cookies.get(LANGUAGE_COOKIE)
    if asked:
        return language_of(asked)
    return request.accept_languages.best_match(LANGUAGES) or FALLBACK


def plural_expression(language: str) -> str:
    """The C expression of ``language``'s plural rule (``(n != 1)``), from the header of the web's catalog."""
    from babel.messages.pofile import read_po

    with (WEB / "locale" / f"{language}.po").open("rb") as handle:
        return str(read_po(handle, locale=language).plural_expr)


def browser_catalog(language: str) -> dict[str, Any]:
    """Every message of every catalog in ``language`` (English where it has none) and its plural rule."""
    found = catalogs()
    merged = {**found[FALLBACK].messages, **found[language].messages}
    return {"language": language, "plural": plural_expression(language),
            "messages": {key: list(text) if isinstance(text, tuple) else text for key, text in merged.items()}}


def catalog_response(language: str) -> Response:
    """``/i18n/<language>.json``: cacheable (the browser revalidates with its ETag), 404 for another language."""
    if language not in LANGUAGES:
        abort(404)
    response = Response(json.dumps(browser_catalog(language), ensure_ascii=False), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    response.make_conditional(request)
    return response


def add_web_catalogs() -> None:
    """Make the web's catalogs part of every lookup: ``web/locale/`` and each registered game's web folder."""
    from companion.games import games, package_of

    add_catalog_folder(WEB / "locale")
    for game in games():
        package = package_of(game)
        if package is not None and (WEB / "games" / package / "locale").is_dir():
            add_catalog_folder(WEB / "games" / package / "locale")


def init_app(app: Flask) -> None:
    """Add the web's catalogs, JSON with messages, the catalog route, and for the templates ``language``,
    ``tr(id, **params)`` (a catalog entry) and ``say(text)`` (a core text or message)."""
    add_web_catalogs()
    app.json = MessageJSONProvider(app)
    app.add_url_rule("/i18n/<language>.json", "i18n_catalog", catalog_response)

    @app.context_processor
    def language_context() -> dict[str, Any]:
        language = request_language()
        return {"language": language, "tr": lambda id, **params: render(Message(id, params), language),
                "say": lambda text: render(text, language)}
