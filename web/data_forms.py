"""The tablet's data forms: a table enters its box's printed values once, replacing the provisional data.

La Granja's data pack (docs/la-granja-data.md) is edited one section at a time, Key Harvest's board
layout (docs/key-harvest-layout.md) as one table. Every save is checked by the core's own loader on
the very file that is then installed (temp file + ``os.replace``), in the app's ``DATA_DIR``: the
folder this app's new games read from (``Table.data_dir``). Stored games keep their data.
"""

from __future__ import annotations

import copy
import errno
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion.core.errors import CompanionError, MalformedInputError
from companion.paths import install_json
from companion.games.key_harvest import user_layout_path
from companion.games.key_harvest.board import CROP_KEYS, load_layout
from companion.games.la_granja.data import CROPS, PHASES, ROOF_EFFECTS, SECTIONS, load_edition, user_edition_path

bp = Blueprint("data_forms", __name__)

_SAVING = threading.Lock()
"""One save at a time: a section is merged into the pack in use, which another save may be replacing."""

LA_GRANJA = "la-granja"
KEY_HARVEST = "key-harvest"


@dataclass(frozen=True)
class Column:
    """One editable value of a row: its key (the column heading's string), where it sits, how it is typed.

    ``kind``: ``int``, ``text``, ``bool``, ``choice`` (one of ``choices``; ``""`` means null),
    ``symbols`` (a comma-separated list), ``income`` (``silver:1, trade:1``), ``text_or_null``.
    """

    key: str
    path: tuple[str, ...]
    kind: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class FormTable:
    """The rows found at ``rows`` in the section (a list or an object), one input per column and row."""

    key: str
    rows: str
    columns: tuple[Column, ...]


def _scalar(kind: str) -> tuple[Column, ...]:
    return (Column("value", (), kind),)


LA_GRANJA_FORMS: dict[str, tuple[FormTable, ...]] = {
    "cards": (FormTable("cards", "list", (
        Column("id", ("id",), "int"), Column("field", ("field",), "choice", CROPS),
        Column("cart_symbols", ("cart", "symbols"), "symbols"), Column("cart_vp", ("cart", "vp"), "int"),
        Column("income", ("extension", "income"), "income"), Column("grey_rows", ("extension", "grey_rows"), "int"),
        Column("sty", ("extension", "sty"), "int"), Column("helper", ("helper", "name"), "text"),
        Column("helper_text", ("helper", "text"), "text"), Column("hand_limit", ("helper", "hand_limit"), "int"),
        Column("sell_field_crops", ("helper", "sell_field_crops"), "bool"),
        Column("roof_slots_bonus", ("helper", "roof_slots"), "int"))),),
    "market": (
        FormTable("spaces", "spaces", (Column("id", ("id",), "text"), Column("q", ("q",), "int"),
                                       Column("r", ("r",), "int"), Column("value", ("value",), "int"),
                                       Column("x", ("x",), "bool"))),
        FormTable("start", "start", _scalar("text")),
    ),
    "buildings": (FormTable("buildings", "list", (
        Column("key", ("key",), "text"), Column("name", ("name",), "text"), Column("die", ("die",), "int"),
        Column("row", ("row",), "symbols"))),),
    "siesta": (FormTable("siesta", "vp", _scalar("int")),),
    "roof_markers": (FormTable("roof_markers", "list", (
        Column("id", ("id",), "text"), Column("round", ("round",), "int"),
        Column("effect", ("effect",), "choice", ROOF_EFFECTS), Column("phase", ("phase",), "choice", ("", *PHASES)))),),
    "roof_slots": (FormTable("roof_slots", "vp", _scalar("int")),),
    "prices": (FormTable("buy", "buy", _scalar("int")), FormTable("sell", "sell", _scalar("int")),
               FormTable("upgrade", "upgrade", _scalar("int"))),
    "donkeys": (FormTable("donkeys", "hats", _scalar("int")),),
}
"""Each La Granja section's form (the format: docs/la-granja-data.md)."""

KEY_HARVEST_FORM = (FormTable("spaces", "spaces", (
    Column("label", ("label",), "text"), Column("q", ("at", "0"), "int"), Column("r", ("at", "1"), "int"),
    Column("crop", ("crop",), "choice", CROP_KEYS), Column("start_pair", ("start_pair",), "text_or_null"))),)
"""The board layout's form: one row per space (docs/key-harvest-layout.md)."""


@bp.errorhandler(CompanionError)
def refused(error: CompanionError) -> tuple[Response, int]:
    """A refused save: 400 with the loader's reason (the same body as the rest of /api)."""
    return jsonify(error={"type": type(error).__name__, "reason": str(error)}), 400


@bp.errorhandler(OSError)
def not_written(error: OSError) -> tuple[Response, int]:
    """A save the disk refused (full, read-only): nothing was installed (``install_json`` writes a temp file)."""
    if error.errno == errno.ENOSPC:
        return jsonify(error={"type": "DiskFullError", "reason": "the disk is full: the data was not saved"}), 507
    return jsonify(error={"type": "StoreError", "reason": f"the data was not saved: {error.strerror or error}"}), 503


# ------------------------------------------------------------------ where the data is

def data_dir() -> Path:
    """This app's data folder, where its new games read installed data from (``Table.data_dir``)."""
    return Path(current_app.config["DATA_DIR"])


def _in_use(path: Path, load: Callable[[Path | None], Any]) -> tuple[Any, str | None]:
    """The installed data at ``path`` (else the shipped), and why an installed file cannot be used."""
    if not path.exists():
        return load(None), None
    try:
        return load(path), None
    except MalformedInputError as error:
        return load(None), str(error)


def la_granja_in_use() -> dict[str, Any]:
    """The data pack new La Granja games of this app start on: its JSON, whose it is, what is provisional."""
    path = user_edition_path(data_dir())
    edition, damaged = _in_use(path, load_edition)
    return {"game": LA_GRANJA, "installed": path.exists() and damaged is None, "damaged": damaged,
            "name": edition.name, "provisional": list(edition.provisional), "warnings": edition.warnings(),
            "data": edition.raw}


def key_harvest_in_use() -> dict[str, Any]:
    """The board layout new Key Harvest games of this app start on."""
    path = user_layout_path(data_dir())
    layout, damaged = _in_use(path, load_layout)
    return {"game": KEY_HARVEST, "installed": path.exists() and damaged is None, "damaged": damaged,
            "name": layout.name, "provisional": layout.provisional, "data": layout.to_json()}


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise MalformedInputError("the request body must be a JSON object")
    return data


def _section(name: str) -> str:
    if name not in SECTIONS:
        raise MalformedInputError(f"La Granja data has no section {name!r}; sections: {', '.join(SECTIONS)}")
    return name


# ------------------------------------------------------------------ JSON endpoints

@bp.get("/api/data/la-granja")
def get_la_granja() -> Response:
    return jsonify(la_granja_in_use())


@bp.put("/api/data/la-granja")
def put_la_granja() -> Response:
    """Install a whole data pack (checked by ``load_edition`` first)."""
    install_json(user_edition_path(data_dir()), _body(), load_edition)
    return jsonify(la_granja_in_use())


@bp.put("/api/data/la-granja/<section>")
def put_la_granja_section(section: str) -> Response:
    """Replace one section of the pack in use, e.g. ``{"provisional": false, "vp": [0, 1, ...]}``."""
    body = _body()
    with _SAVING:
        pack = copy.deepcopy(dict(la_granja_in_use()["data"]))
        pack[_section(section)] = body
        install_json(user_edition_path(data_dir()), pack, load_edition)
    return jsonify(la_granja_in_use())


@bp.delete("/api/data/la-granja")
def restore_la_granja() -> Response:
    """Back to the shipped data pack: the table's file is deleted."""
    user_edition_path(data_dir()).unlink(missing_ok=True)
    return jsonify(la_granja_in_use())


@bp.get("/api/data/key-harvest/layout")
def get_key_harvest() -> Response:
    return jsonify(key_harvest_in_use())


@bp.put("/api/data/key-harvest/layout")
def put_key_harvest() -> Response:
    """Install a board layout (checked by ``load_layout``: ``Layout.from_json`` and ``check``)."""
    install_json(user_layout_path(data_dir()), _body(), load_layout)
    return jsonify(key_harvest_in_use())


@bp.delete("/api/data/key-harvest/layout")
def restore_key_harvest() -> Response:
    user_layout_path(data_dir()).unlink(missing_ok=True)
    return jsonify(key_harvest_in_use())


# ------------------------------------------------------------------ pages

def cell_value(row: Any, column: Column) -> Any:
    """What a row holds for ``column`` (absent values as the loader's defaults)."""
    value = row
    for key in column.path:
        if isinstance(value, list):
            value = value[int(key)] if int(key) < len(value) else None
        elif isinstance(value, dict):
            value = value.get(key)
        else:
            value = None
    if column.kind == "symbols":
        return ", ".join(str(v) for v in value or [])
    if column.kind == "income":
        return ", ".join(f"{k}:{v}" for k, v in (value or {}).items())
    if column.kind == "bool":
        return bool(value)
    if column.kind == "int":
        return 0 if value is None else value
    return "" if value is None else str(value)


def table_rows(section: dict[str, Any], table: FormTable) -> list[tuple[str, list[tuple[Column, str, Any]]]]:
    """Per row: its key and, per column, the input's JSON path and value."""
    found = section.get(table.rows, [])
    rows = list(enumerate(found)) if isinstance(found, list) else list(found.items())
    return [(str(key), [(column, json.dumps([table.rows, key, *(int(p) if p.isdigit() else p for p in column.path)]),
                         cell_value(row, column)) for column in table.columns])
            for key, row in rows]


@bp.get("/data")
def overview() -> str:
    """Each game's printed data in use, what is provisional, links to edit it."""
    return render_template("data_overview.html", la_granja=la_granja_in_use(), key_harvest=key_harvest_in_use(),
                           sections=SECTIONS)


@bp.get("/data/la-granja/<section>")
def edit_la_granja(section: str) -> str:
    if section not in LA_GRANJA_FORMS:
        abort(404)
    pack = la_granja_in_use()
    data = pack["data"][section]
    return render_template("data_section.html", pack=pack, section=section, data=data,
                           tables=[(table, table_rows(data, table)) for table in LA_GRANJA_FORMS[section]],
                           provisional=section in pack["provisional"], resizable=section == "siesta")


@bp.get("/data/key-harvest/layout")
def edit_key_harvest() -> str:
    layout = key_harvest_in_use()
    data = layout["data"]
    return render_template("data_layout.html", layout=layout, data=data,
                           tables=[(table, table_rows(data, table)) for table in KEY_HARVEST_FORM])
