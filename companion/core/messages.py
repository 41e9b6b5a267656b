"""Text for players as data: a catalog identifier and its parameters, rendered in the reader's language at the edge.

The core never builds a sentence for display. A refusal, a log line, a warning or a prompt is a ``Message``:
``Message("kh.refuse.tile_on_space", {"label": "C4"})``. The edges (the tablet, the terminal, the panel's
display) render it with ``render(message, language)`` from the message catalogs, gettext ``.po`` files in
English and German: ``companion/locale/<language>.po``, each game's ``locale/<language>.po`` (the registry adds
them) and the folders an edge adds with ``add_catalog_folder`` (the web's own strings). The browser receives messages as JSON (``to_json``) and renders them
with the very same catalogs.

Parameters are text (names, labels, notation: never translated), whole numbers, other messages (a crop's
name, a list of goods) or lists of those (joined with commas). A parameter ``n`` chooses the plural form
(``msgid_plural`` entries: "1 delivery left", "2 deliveries left").
"""

from __future__ import annotations

import gettext
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

LANGUAGES = ("en", "de")
"""The languages every message is written in; the first is the fallback."""
FALLBACK = LANGUAGES[0]

Param = Union[str, int, "Message", Sequence[Union[str, int, "Message"]]]


@dataclass(frozen=True)
class Message:
    """A catalog identifier (``kh.refuse.tile_on_space``) and its parameters."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"id": ..., "params": {...}}``, nested messages as the same objects (for the browser)."""
        return {"id": self.id, "params": {key: _param_json(value) for key, value in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        return cls(str(data["id"]), {key: _param_from_json(value) for key, value in dict(data.get("params", {})).items()})

    def __str__(self) -> str:
        """In English (for logs and exceptions; players' screens call ``render`` with their language)."""
        return render(self, FALLBACK)


def json_default(value: object) -> Any:
    """``json.dumps(..., default=json_default)``: a message as ``{"id", "params"}`` (as the tablet's JSON shows it)."""
    if isinstance(value, Message):
        return value.to_json()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def msg(id: str, **params: Param) -> Message:
    """``Message(id, params)``, the short way: ``msg("kh.refuse.tile_on_space", label="C4")``."""
    return Message(id, params)


Text = Union[str, Message]
"""What the core hands to an edge for display: a message, or (for notation, names) plain text shown as it is."""


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_param_json(v) for v in value]
    return value


def _param_from_json(value: Any) -> Param:
    if isinstance(value, dict):
        return Message.from_json(value)
    if isinstance(value, list):
        return [_param_from_json(v) for v in value]  # type: ignore[misc]  # a list of plain params
    return value  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------------------ catalogs


@dataclass
class Catalog:
    """One language's messages: ``id -> text`` or ``id -> (singular, plural...)``, and its plural rule."""

    language: str
    messages: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    plural: Callable[[int], int] = lambda n: int(n != 1)


_FOLDERS: list[Path] = [Path(__file__).resolve().parent.parent / "locale"]
_CATALOGS: dict[str, Catalog] = {}
_LOCK = threading.Lock()


def add_catalog_folder(folder: Path) -> None:
    """Read ``folder/<language>.po`` too (a game's folder, the web's), from the next lookup on."""
    with _LOCK:
        if folder not in _FOLDERS:
            _FOLDERS.append(folder)
            _CATALOGS.clear()


def catalog_folders() -> list[Path]:
    """Every folder whose ``<language>.po`` files make up the catalogs: the core's ``companion/locale/``, each
    registered game's ``locale/`` (the registry adds them) and those the edges add."""
    with _LOCK:
        return list(_FOLDERS)


def read_po(path: Path) -> Catalog:
    """One ``.po`` file (Babel's reader); a message whose translation is empty is left out (so it counts as
    missing, and the fallback language shows)."""
    from babel.messages.pofile import read_po as babel_read_po

    with path.open("rb") as handle:
        parsed = babel_read_po(handle, locale=path.stem)
    plural_expr = parsed.plural_expr
    catalog = Catalog(path.stem, plural=gettext.c2py(plural_expr))
    for entry in parsed:
        if not entry.id:
            continue  # the header
        key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
        text: str | tuple[str, ...] = (tuple(entry.string) if isinstance(entry.string, (tuple, list))
                                       else entry.string or "")
        if (all(text) if isinstance(text, tuple) else text) and not entry.fuzzy:
            catalog.messages[str(key)] = text
    return catalog


def catalogs() -> dict[str, Catalog]:
    """Every language's catalog, merged from all folders (read once; ``add_catalog_folder`` reads again).
    ``ValueError`` if two files define the same identifier."""
    with _LOCK:
        if _CATALOGS:
            return _CATALOGS
    _registered_games()
    loaded = {language: Catalog(language) for language in LANGUAGES}
    where: dict[tuple[str, str], Path] = {}
    for folder in catalog_folders():
        for language in LANGUAGES:
            path = folder / f"{language}.po"
            if not path.exists():
                continue
            part = read_po(path)
            loaded[language].plural = part.plural
            for key, text in part.messages.items():
                if (language, key) in where:
                    raise ValueError(f"message {key!r} is defined twice: {where[language, key]} and {path}")
                where[language, key] = path
                loaded[language].messages[key] = text
    with _LOCK:
        _CATALOGS.update(loaded)
        return _CATALOGS


def _registered_games() -> None:
    """Load the registry, which adds each game's catalog folder."""
    from companion.games import games

    games()


def language_of(wanted: str | None) -> str:
    """The supported language closest to ``wanted`` (``de-AT`` -> ``de``), else the fallback."""
    code = (wanted or "").strip().lower()[:2]
    return code if code in LANGUAGES else FALLBACK


def render(text: Text, language: str = FALLBACK) -> str:
    """``text`` in ``language``: a message from its catalog (falling back to English, then to its identifier),
    its parameters rendered too; plain text as it is."""
    if not isinstance(text, Message):
        return text
    found = catalogs()
    catalog = found.get(language_of(language), found[FALLBACK])
    template = catalog.messages.get(text.id) or found[FALLBACK].messages.get(text.id)
    if template is None:
        return text.id
    if isinstance(template, tuple):
        count = text.params.get("n", 1)
        index = catalog.plural(count if isinstance(count, int) else 1)
        template = template[min(index, len(template) - 1)]
    values = {key: _render_param(value, language) for key, value in text.params.items()}
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):
        return template


def _render_param(value: Param, language: str) -> str:
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, (list, tuple)):
        return ", ".join(_render_param(v, language) for v in value)
    return str(value)


def identifiers(messages: Iterable[Text]) -> set[str]:
    """Every message identifier in ``messages``, nested parameters included (for the catalog tests)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Message):
            found.add(value.id)
            for param in value.params.values():
                walk(param)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    for message in messages:
        walk(message)
    return found
