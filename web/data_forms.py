"""The tablet's data forms: a table enters its box's printed values once, replacing the provisional data.

Every registered game with a data pack (``Game.data_pack``) gets an overview entry, one form per section,
generated from its schema, and the JSON endpoints ``/api/data/<game>``. Every save is checked against the
schema and by the game's loader on the very file that is then installed (temp file + ``os.replace``), in the
app's ``DATA_DIR``: the folder this app's new games read from (``Table.data_dir``). Stored games keep their data.
"""

from __future__ import annotations

import errno
import json
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion.core.datapack import Column, DataPack, Section, Table
from companion.core.errors import CompanionError, MalformedInputError, UnknownGameError
from companion.core.messages import msg
from companion.games import find_game, games

bp = Blueprint("data_forms", __name__)

_SAVING = threading.Lock()
"""One save at a time: a section is merged into the pack in use, which another save may be replacing."""


@bp.errorhandler(CompanionError)
def refused(error: CompanionError) -> tuple[Response, int]:
    """A refused save: 400 with the loader's reason (the same body as the rest of /api); 404 for no such game."""
    status = 404 if isinstance(error, UnknownGameError) else 400
    body: dict[str, Any] = {"type": type(error).__name__, "reason": str(error)}
    if (message := error.message_json()) is not None:  # the reason as data: the form renders it in its language
        body["message"] = message
    return jsonify(error=body), status


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


def pack_of(name: str) -> DataPack[Any]:
    """The data pack of the game registered as ``name``; ``UnknownGameError`` if none."""
    game = find_game(name)
    pack = game.data_pack()
    if pack is None:
        raise UnknownGameError(msg("web.refuse.no_data", game=game.title))
    return pack


def games_with_data() -> list[tuple[str, DataPack[Any]]]:
    """Every registered game that has printed data, with its pack, in registry order."""
    return [(game.name, pack) for game in games() if (pack := game.data_pack()) is not None]


def in_use(name: str) -> dict[str, Any]:
    """The data pack new games of ``name`` in this app start on: its JSON, whose it is, what is provisional."""
    pack = pack_of(name)
    use = pack.in_use(data_dir())
    return {"game": find_game(name).name, "title": pack.title, "installed": use.path is not None, "damaged": use.damaged,
            "converted": use.converted, "name": use.raw.get("name", "unnamed"),
            "provisional": pack.provisional(use.raw), "warnings": use.value.data_warnings(), "data": use.raw}


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise MalformedInputError(msg("web.refuse.body_not_object"))
    return data


# ------------------------------------------------------------------ JSON endpoints

@bp.get("/api/data/<game>")
def get_pack(game: str) -> Response:
    return jsonify(in_use(game))


@bp.put("/api/data/<game>")
def put_pack(game: str) -> Response:
    """Install a whole data pack (checked against the schema, then by the game's loader)."""
    with _SAVING:
        pack_of(game).install(_body(), data_dir())
    return jsonify(in_use(game))


@bp.get("/api/data/<game>/<section>")
def get_section(game: str, section: str) -> Response:
    """The pack in use, with ``data`` holding only the one section."""
    pack_of(game).schema.section(section)
    answer = in_use(game)
    return jsonify(answer | {"section": section, "data": answer["data"].get(section, {})})


@bp.put("/api/data/<game>/<section>")
def put_section(game: str, section: str) -> Response:
    """Replace one section of the pack in use, e.g. ``{"provisional": false, "vp": [0, 1, ...]}``."""
    body = _body()
    with _SAVING:
        pack_of(game).install_section(section, body, data_dir())
    return jsonify(in_use(game))


@bp.delete("/api/data/<game>")
def restore(game: str) -> Response:
    """Back to the shipped data pack: the table's file is deleted."""
    pack_of(game).restore(data_dir())
    return jsonify(in_use(game))


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
    if column.kind == "mapping":
        return ", ".join(f"{k}:{v}" for k, v in (value or {}).items())
    if column.kind == "bool":
        return bool(value)
    if column.kind == "int":
        return 0 if value is None else value
    return "" if value is None else str(value)


def table_rows(section: dict[str, Any], table: Table) -> list[tuple[str, list[tuple[Column, str, Any]]]]:
    """Per row: its key and, per column, the input's JSON path (into the section) and value."""
    if table.shape == "record":
        rows: list[tuple[Any, Any]] = [("", section)]
        prefix: list[Any] = []
    else:
        found = section.get(table.rows, [])
        rows = list(enumerate(found)) if isinstance(found, list) else list(found.items())
        prefix = [table.rows]
    return [(str(key), [(column, json.dumps([*prefix, *([key] if prefix else []),
                                             *(int(p) if p.isdigit() else p for p in column.path)]),
                         cell_value(row, column)) for column in table.columns])
            for key, row in rows]


BOARD_COLUMNS = ("q", "r")
"""A table with these columns holds hex spaces (axial, pointy-top): its form draws them as a board to tap, the
coordinates kept as hidden data (no player knows them)."""


def on_board(table: Table) -> bool:
    """Whether ``table``'s rows are spaces of a hex board (it has the axial columns ``q`` and ``r``)."""
    return set(BOARD_COLUMNS) <= {column.key for column in table.columns}


@bp.get("/data")
def overview() -> str:
    """Each game's printed data in use, what is provisional, links to edit it."""
    packs = [(in_use(name), pack.schema.sections) for name, pack in games_with_data()]
    return render_template("data_overview.html", games=packs)


@bp.get("/data/<game>/<section>")
def edit(game: str, section: str) -> str:
    try:
        pack = pack_of(game)
        form: Section = pack.schema.section(section)
    except CompanionError:
        abort(404)
    shown = in_use(game)
    data = shown["data"].get(section, {})
    return render_template("data_section.html", pack=shown, form=form, section=section, data=data,
                           kinds={column.kind for table in form.tables for column in table.columns},
                           board_columns=BOARD_COLUMNS,
                           tables=[(table, table_rows(data, table), on_board(table)) for table in form.tables],
                           provisional=section in shown["provisional"])
