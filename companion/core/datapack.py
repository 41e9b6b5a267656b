"""A game's printed data as a data pack with a schema (docs/core.md, "Printed data").

A data pack is one JSON object: ``name``, ``note`` and one object per **section** (the cards, the
market, the board...). Every section carries ``provisional`` (true until a table checked it against
its box) and ``source`` (where in the spec the values come from), plus its **tables**: rows of typed
fields. The schema (``data/schema.json`` in the game's folder) says which sections, tables and fields
a pack has; ``Schema.check`` refuses a pack that does not fit it, naming the section, row and field,
before the game's own loader checks what the values mean. ``DataPack`` finds, installs and restores
the pack a data folder's new games start on; the CLI and the tablet's forms both use it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

from companion.core.errors import MalformedInputError
from companion.core.messages import Message, Text, msg
from companion.paths import install_json

KINDS = ("int", "text", "bool", "choice", "symbols", "mapping", "text_or_null")
"""Field types: a whole number, text, true/false, one of ``choices`` (``""`` among them: null allowed), a list
of texts (each one of ``choices`` if given), an object of whole numbers (keys among ``choices`` if given), text or
null."""
SCHEMA_FILE = "schema.json"

T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Column:
    """One field of a row: its key (the form's column), where it sits in the row, its type."""

    key: str
    path: tuple[str, ...]
    kind: str
    label: str
    choices: tuple[str, ...] = ()
    optional: bool = False


@dataclass(frozen=True)
class Table:
    """The rows at ``rows`` in a section: a ``list`` or an ``object`` of rows (``record``: the section itself is
    the one row). A row of a scalar table is the value itself (one column with the empty path)."""

    key: str
    rows: str
    shape: str
    columns: tuple[Column, ...]
    row_name: str


@dataclass(frozen=True)
class Help:
    """A sentence shown on the section's form (``key``: its translation key); a link if ``href`` is given."""

    key: str
    text: str
    href: str = ""


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    tables: tuple[Table, ...]
    resizable: bool = False
    optional: bool = False
    notes: tuple[str, ...] = ()
    """Other keys the section may carry (free text such as ``confirmed``)."""
    help: tuple[Help, ...] = ()

    @property
    def keys(self) -> set[str]:
        """Every key the section may hold."""
        own = {t.rows for t in self.tables if t.shape != "record"}
        fields = {c.path[0] for t in self.tables if t.shape == "record" for c in t.columns}
        return {"provisional", "source", *self.notes, *own, *fields}


@dataclass(frozen=True)
class Schema:
    """What a game's data pack holds (read from ``data/schema.json`` in the game's folder)."""

    title: str
    file: str
    default: str
    docs: str
    sections: tuple[Section, ...]

    def section(self, name: str) -> Section:
        for section in self.sections:
            if section.name == name:
                return section
        names = ", ".join(s.name for s in self.sections)
        raise MalformedInputError(msg("core.data.no_section", title=self.title, section=repr(name), sections=names))

    @classmethod
    def from_json(cls, data: Mapping[str, Any], choices: Mapping[str, Sequence[str]]) -> Schema:
        """A schema; a column's ``choices`` names one of the game's lists in ``choices`` (or lists them)."""

        def column(raw: Mapping[str, Any]) -> Column:
            listed = raw.get("choices", ())
            named = tuple(choices[listed]) if isinstance(listed, str) else tuple(listed)
            if raw.get("null"):
                named = ("", *named)
            if raw["type"] not in KINDS:
                raise ValueError(f"unknown field type {raw['type']!r}")
            return Column(raw["key"], tuple(str(p) for p in raw.get("path", [raw["key"]])), raw["type"],
                          raw.get("label", raw["key"]), named, bool(raw.get("optional", False)))

        def table(raw: Mapping[str, Any]) -> Table:
            columns = tuple(column(c) for c in raw.get("columns", ()))
            if "value" in raw:
                columns = (column({"key": "value", "path": [], "label": raw.get("label", "value"), **raw["value"]}),)
            return Table(raw["key"], raw.get("rows", ""), raw.get("shape", "list"), columns,
                         raw.get("row_name", raw.get("rows", raw["key"]) + "[{_}]"))

        return cls(data["title"], data["file"], data["default"], data["docs"], tuple(
            Section(name, raw["title"], tuple(table(t) for t in raw["tables"]), bool(raw.get("resizable")),
                    bool(raw.get("optional")), tuple(raw.get("notes", ())),
                    tuple(Help(h["key"], h["text"], h.get("href", "")) for h in raw.get("help", ())))
            for name, raw in data["sections"].items()))

    def check(self, raw: Any) -> None:
        """Refuse a pack that does not fit the schema: a missing or unknown section or key, a value of the wrong
        type, a choice not offered. ``MalformedInputError`` names the section, the row and the field."""
        if not isinstance(raw, dict):
            raise MalformedInputError(msg("core.data.not_object", where=msg("core.data.pack", title=self.title),
                                          kind=type(raw).__name__))
        where = msg("core.data.pack", title=self.title)
        known = ["name", "note", *(s.name for s in self.sections)]
        for key in raw:
            if key not in known:
                raise MalformedInputError(msg("core.data.unknown_key", where=where, key=repr(key),
                                              expected=", ".join(known)))
        for key in ("name", "note"):
            if not isinstance(raw.get(key, ""), str):
                raise MalformedInputError(msg("core.data.must_be_text", where=where, key=repr(key)))
        for section in self.sections:
            if section.name not in raw:
                if section.optional:
                    continue
                raise MalformedInputError(msg("core.data.missing_section", where=where, key=repr(section.name)))
            self._check_section(section, raw[section.name])

    def _check_section(self, section: Section, data: Any) -> None:
        where = msg("core.data.section", title=self.title, section=repr(section.name))
        if not isinstance(data, dict):
            raise MalformedInputError(msg("core.data.not_an_object", where=where, kind=type(data).__name__))
        for key in data:
            if key not in section.keys:
                raise MalformedInputError(msg("core.data.unknown_key", where=where, key=repr(key),
                                              expected=", ".join(sorted(section.keys))))
        if not isinstance(data.get("provisional", True), bool):
            raise MalformedInputError(msg("core.data.provisional_bool", where=where))
        if not isinstance(data.get("source", ""), str):
            raise MalformedInputError(msg("core.data.must_be_text", where=where, key='"source"'))
        for table in section.tables:
            for name, row in _rows(table, data, where):
                for column in table.columns:
                    _check_value(column, row, msg("core.data.row", where=where, row=name))


def _rows(table: Table, data: Mapping[str, Any], where: Message) -> list[tuple[str, Any]]:
    """Each row of ``table`` in a section, named as the schema names it (e.g. ``card 5``)."""
    if table.shape == "record":
        return [(table.key, data)]
    if table.rows not in data:
        raise MalformedInputError(msg("core.data.missing_key", where=where, key=repr(table.rows)))
    found = data[table.rows]
    wanted = dict if table.shape == "object" else list
    if not isinstance(found, wanted):
        raise MalformedInputError(msg("core.data.rows_object" if wanted is dict else "core.data.rows_list",
                                      where=where, key=repr(table.rows)))
    rows = list(found.items()) if isinstance(found, dict) else list(enumerate(found))

    def name(key: object, row: Any) -> str:
        fields = row if isinstance(row, dict) else {}
        try:
            return table.row_name.format_map({**fields, "_": key})
        except (KeyError, IndexError, ValueError, AttributeError):
            return f"{table.rows}[{key}]"

    return [(name(key, row), row) for key, row in rows]


_MISSING = object()


def _at(row: Any, path: Sequence[str]) -> Any:
    value = row
    for key in path:
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return _MISSING
    return value


def _check_value(column: Column, row: Any, where: Message) -> None:
    value = _at(row, column.path)
    field = ".".join(column.path)
    if value is _MISSING:
        if column.optional:
            return
        raise MalformedInputError(msg("core.data.missing_field", where=where, key=repr(field), label=column.label))
    kind, choices = column.kind, column.choices
    if kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "text":
        ok = isinstance(value, str)
    elif kind == "text_or_null":
        ok = value is None or isinstance(value, str)
    elif kind == "choice":
        ok = value is None and "" in choices or isinstance(value, str) and value in choices and value != ""
        if not ok:
            raise MalformedInputError(msg("core.data.unknown_choice", where=where, label=column.label,
                                          value=repr(value), choices=", ".join(c or "null" for c in choices)))
    elif kind == "symbols":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        unknown = [v for v in value if v not in choices] if ok and choices else []
        if unknown:
            raise MalformedInputError(msg("core.data.unknown_some", where=where, label=column.label,
                                          value=repr(unknown[0]), choices=", ".join(choices)))
    else:  # mapping
        ok = isinstance(value, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
        unknown = [k for k in value if k not in choices] if ok and choices else []
        if unknown:
            raise MalformedInputError(msg("core.data.unknown_some", where=where, label=column.label,
                                          value=repr(unknown[0]), choices=", ".join(choices)))
    if not ok:
        raise MalformedInputError(msg("core.data.wrong_type", where=where, label=column.label, field=field,
                                      kind=_KIND_WORDS[kind], value=repr(value)))


_KIND_WORDS = {"int": msg("core.data.kind.int"), "bool": msg("core.data.kind.bool"),
               "text": msg("core.data.kind.text"), "text_or_null": msg("core.data.kind.text_or_null"),
               "symbols": msg("core.data.kind.symbols"), "mapping": msg("core.data.kind.mapping")}


def read_json_file(path: Path) -> Any:
    """The JSON in ``path``; ``MalformedInputError`` if it cannot be read or parsed."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as error:
        raise MalformedInputError(msg("core.data.unreadable", path=str(path), reason=str(error.strerror))) from None
    except UnicodeDecodeError:
        raise MalformedInputError(msg("core.data.not_utf8", path=str(path))) from None
    return parse_json(text, str(path))


def parse_json(text: str, name: str) -> Any:
    """``text`` parsed as JSON; ``MalformedInputError`` naming ``name`` and the line if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedInputError(msg("core.data.not_json", name=name, reason=error.msg, line=error.lineno)) from None


@dataclass(frozen=True)
class InUse(Generic[T_co]):
    """The pack a data folder's new games start on: its JSON, what the game's loader made of it, where it is."""

    raw: dict[str, Any]
    value: T_co
    path: Path | None
    """The installed file, or ``None``: the shipped default."""
    damaged: Text | None = None
    """Why an installed file could not be used (the shipped default is used instead)."""
    converted: Text | None = None
    """A file in an older format converted just now, said in a message."""


class DataPack(Generic[T_co]):
    """A game's printed data: its schema, its shipped default and the game's own loader (``build``).

    ``legacy`` names files of an older format in the data folder; ``upgrade`` rewrites such JSON (or returns
    today's unchanged). An old file found in a data folder is converted once into today's file, and kept with
    the suffix ``.old``.
    """

    def __init__(self, package: str, build: Callable[[dict[str, Any]], T_co],
                 choices: Mapping[str, Sequence[str]] | None = None,
                 upgrade: Callable[[Any], Any] | None = None, legacy: Sequence[str] = ()) -> None:
        self.package = package
        folder = resources.files(package).joinpath("data")
        self.schema = Schema.from_json(json.loads(folder.joinpath(SCHEMA_FILE).read_text("utf-8")), choices or {})
        self._build = build
        self._upgrade = upgrade
        self.legacy = tuple(legacy)
        self._converting = threading.Lock()

    @property
    def title(self) -> str:
        return self.schema.title

    def path(self, data_dir: Path) -> Path:
        """Where a table's own pack is installed in ``data_dir``."""
        return data_dir / self.schema.file

    def shipped(self) -> dict[str, Any]:
        """The pack shipped with the game (provisional where the rulebook lacks the values)."""
        raw = json.loads(resources.files(self.package).joinpath("data", self.schema.default).read_text("utf-8"))
        return self.read(raw)

    def read(self, raw: Any) -> dict[str, Any]:
        """``raw`` in today's format (an older one converted), checked against the schema."""
        if self._upgrade is not None:
            raw = self._upgrade(raw)
        self.schema.check(raw)
        checked: dict[str, Any] = raw
        return checked

    def load(self, raw: Any) -> T_co:
        """``raw`` checked against the schema, then by the game's loader: what the game plays with."""
        return self._build(self.read(raw))

    def load_file(self, path: Path) -> T_co:
        return self.load(read_json_file(path))

    def provisional(self, raw: Mapping[str, Any]) -> list[str]:
        """The sections of ``raw`` not yet checked against a box (a missing flag counts as provisional)."""
        return [s.name for s in self.schema.sections if s.name in raw and raw[s.name].get("provisional", True)]

    def in_use(self, data_dir: Path) -> InUse[T_co]:
        """The pack new games in ``data_dir`` start on: the installed file, else the shipped default (a damaged
        installed file is named in ``damaged``). An old-format file there is converted first; a damaged one is
        named in ``damaged`` too."""
        converted, damaged = self._convert_legacy(data_dir)
        path = self.path(data_dir)
        if path.exists():
            try:
                raw = self.read(read_json_file(path))
                return InUse(raw, self._build(raw), path, damaged, converted)
            except MalformedInputError as error:
                damaged = error.text
        raw = self.shipped()
        return InUse(raw, self._build(raw), None, damaged, converted)

    def _convert_legacy(self, data_dir: Path) -> tuple[Text | None, Text | None]:
        """Convert an old-format file in ``data_dir`` into today's (replacing it: the old file was written later,
        by an older companion); what was done, and why it could not be."""
        with self._converting:
            return self._convert_one(data_dir)

    def _convert_one(self, data_dir: Path) -> tuple[Text | None, Text | None]:
        for name in self.legacy:
            old = data_dir / name
            if not old.exists():
                continue
            try:
                self.install(read_json_file(old), data_dir)
            except MalformedInputError as error:
                return None, msg("core.data.old_damaged", path=str(old), reason=error.text)
            old.replace(old.with_name(old.name + ".old"))
            said = msg("core.data.converted", old=str(old), new=str(self.path(data_dir)), kept=f"{old.name}.old")
            logging.getLogger(__name__).warning(said)
            return said, None
        return None, None

    def install(self, raw: Any, data_dir: Path) -> Path:
        """Check ``raw`` and install it atomically (checked again on the very file moved in place); its path."""
        path = self.path(data_dir)
        install_json(path, self.read(raw), self.load_file)
        return path

    def install_section(self, name: str, section: Any, data_dir: Path) -> Path:
        """Replace one section of the pack in use and install the whole pack (the caller serialises saves)."""
        self.schema.section(name)
        pack = dict(self.in_use(data_dir).raw)
        pack[name] = section
        return self.install(pack, data_dir)

    def restore(self, data_dir: Path) -> None:
        """Back to the shipped default: the table's file (and any old-format one) is deleted."""
        self.path(data_dir).unlink(missing_ok=True)
        for name in self.legacy:
            (data_dir / name).unlink(missing_ok=True)
