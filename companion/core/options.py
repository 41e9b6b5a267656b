"""Variant flags: named rule choices with the specification's defaults."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from companion.core.errors import MalformedInputError
from companion.core.messages import Text, msg


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One variant flag: its name, allowed values (first is the default) and where the spec discusses it."""

    name: str
    choices: tuple[str, ...]
    ref: str
    help: Text

    @property
    def default(self) -> str:
        return self.choices[0]


class Options(Mapping[str, str]):
    """An immutable, validated set of variant flag values (every flag present)."""

    __slots__ = ("_values",)

    def __init__(self, specs: Iterable[OptionSpec], given: Mapping[str, str] | None = None) -> None:
        by_name = {spec.name: spec for spec in specs}
        values = {name: spec.default for name, spec in by_name.items()}
        for name, value in (given or {}).items():
            spec = by_name.get(name)
            if spec is None:
                raise MalformedInputError(msg("core.refuse.option_unknown", name=str(name), known=sorted(by_name)))
            value = str(value).strip().lower()
            if value not in spec.choices:
                raise MalformedInputError(msg("core.refuse.option_value", name=name, choices=list(spec.choices), value=value))
            values[name] = value
        self._values = values

    @staticmethod
    def parse_pairs(pairs: Iterable[str]) -> dict[str, str]:
        """Turn ``["name=value", ...]`` (as given on a command line) into a dict."""
        out: dict[str, str] = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep or not name.strip():
                raise MalformedInputError(msg("core.refuse.option_pair", pair=pair))
            out[name.strip()] = value.strip()
        return out

    def __getitem__(self, name: str) -> str:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Options({self._values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._values) == dict(other)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items())))
