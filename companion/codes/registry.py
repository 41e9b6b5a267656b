"""The code registry: every physical component the companion tracks has a stable code and a marker ID.

A code names one printed sticker, for example ``KH:F:C4:U`` (Key Harvest, field tile C4, unharvested
side). Each code maps to one marker ID of the registry's marker family; a camera reads the marker, a
hand-held scanner reads the code's text payload (``keydom:3:KH:F:C4:U`` in a QR code). The allocation
comes from ``data/registry.json`` (each game's marker range and sticker sizes) and from each game, which
builds its own components in its folder (``Game.stickers``; Key Harvest's field tiles from the board
layout's labels, sorted, so the same label set always gives the same IDs). The marker family is OpenCV's
``DICT_5X5_1000``; Key Harvest's IDs 0-171 differ in at least 7 of 25 bits in every rotation, the later games'
(version 3) in at least 6 from every ID before them, so the reader can correct 2 wrong bits without mistaking one
sticker for another (``docs/stickers.md``). A version that only adds codes still reads the stickers printed for
the versions it lists in ``reads_versions``.

Each game lists its own codes with its stickers (Key Harvest: ``companion/games/key_harvest/camera.py``, Keyper and
Key Market: ``camera.py`` in their folders).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from companion.core.errors import ForeignCodeError, MalformedInputError, UnknownCodeError
from companion.core.messages import msg

if TYPE_CHECKING:
    from companion.core.game import Game


@dataclass(frozen=True, slots=True)
class Component:
    """One printed sticker: its code, marker ID and what it is stuck on."""

    code: str
    marker_id: int
    game: str
    kind: str
    """What it is, in the game's words (Key Harvest: ``field``, ``labourer``, ``townsfolk`` or ``event``)."""
    key: str
    """Which one of its kind (a tile label, a worker letter); a move's text names it by this."""
    side: str | None
    """The side of a two-sided component the sticker is on (``unharvested``, ``harvested``), else None."""
    group: int | None
    """The set of a component printed in several sets (Key Harvest's labourer sets 1-4), else None."""
    title: str
    """A short human-readable name, printed under the sticker."""
    sticker_mm: float
    component_mm: float
    provisional: bool

    @property
    def piece(self) -> str:
        """What one physical piece is: a two-sided tile whichever side is up, else its code (labourer A of set 2 is
        not labourer A of set 1). A piece lies in one place, one face up."""
        return f"{self.game}:{self.kind}:{self.key}" if self.side is not None else self.code

    def payload(self, prefix: str) -> str:
        """The text a QR code or a hand-held scanner carries."""
        return prefix + self.code


class CodeRegistry:
    """All codes of one registry version, found by code, by marker ID or by text payload."""

    def __init__(self, version: int, marker_family: str, payload_prefix: str, components: Iterable[Component],
                 reads_versions: Iterable[int] = (), since: Mapping[str, int] | None = None) -> None:
        self.version = version
        self.marker_family = marker_family
        self.payload_prefix = payload_prefix
        self.reads_versions = frozenset({version, *reads_versions})
        """Versions whose stickers this one still reads: it only added codes, every older code kept its marker."""
        self.since = dict(since or {})
        """Per game the first version that printed its stickers (an older payload naming one is not ours)."""
        self._by_code: dict[str, Component] = {}
        self._by_marker: dict[int, Component] = {}
        for component in components:
            if component.code in self._by_code or component.marker_id in self._by_marker:
                raise MalformedInputError(f"code registry: {component.code} (marker {component.marker_id}) is allocated twice")
            self._by_code[component.code] = component
            self._by_marker[component.marker_id] = component

    def __iter__(self) -> Iterator[Component]:
        return iter(sorted(self._by_code.values(), key=lambda c: c.marker_id))

    def __len__(self) -> int:
        return len(self._by_code)

    def for_game(self, game: str) -> list[Component]:
        """The game's components in marker order."""
        return [c for c in self if c.game == game]

    def by_code(self, code: str) -> Component:
        """The component with ``code``; ``UnknownCodeError`` if this registry has none."""
        text = code.strip().upper()
        try:
            return self._by_code[text]
        except KeyError:
            raise UnknownCodeError(msg("core.code.unknown", code=repr(code), version=self.version)) from None

    def by_marker(self, marker_id: int) -> Component:
        """The component printed with marker ``marker_id``; ``UnknownCodeError`` for an unallocated ID."""
        try:
            return self._by_marker[marker_id]
        except KeyError:
            raise UnknownCodeError(msg("core.code.unknown_marker", marker=marker_id, version=self.version)) from None

    def by_payload(self, text: str) -> Component:
        """The component a scanned text names; ``ForeignCodeError`` if the companion did not print it."""
        stripped = text.strip()
        head, _, rest = stripped.partition(":")
        version, _, code = rest.partition(":")
        if head.lower() != "keydom" or not code:
            raise ForeignCodeError(msg("core.code.foreign", text=repr(stripped[:40])))
        if not version.isdigit() or int(version) not in self.reads_versions:
            raise ForeignCodeError(msg("core.code.other_version", text=repr(stripped[:40]), version=self.version))
        component = self.by_code(code)
        if int(version) < self.since.get(component.game, 0):
            raise ForeignCodeError(msg("core.code.not_in_version", text=repr(stripped[:40]), version=int(version)))
        return component


def registry_data() -> dict[str, Any]:
    """The shipped allocation file."""
    data: dict[str, Any] = json.loads(resources.files("companion.codes").joinpath("data", "registry.json").read_text())
    return data


def load_registry(*games: Game[Any, Any]) -> CodeRegistry:
    """The stickers of ``games`` on their data (default: every registered game on the data it uses now), each
    game building its own (``Game.stickers``) within the marker IDs ``registry.json`` allocates to it."""
    if not games:
        from companion.games import games as registered

        games = tuple(registered())
    data = registry_data()
    components: list[Component] = []
    for game in games:
        spec = data["games"].get(game.name)
        if spec is None:
            continue
        made = game.stickers(spec)
        outside = [c.code for c in made if not int(spec["first_marker"]) <= c.marker_id <= int(spec["last_marker"])]
        if outside:
            raise MalformedInputError(f"code registry: {', '.join(outside[:3])} lie outside {game.name}'s marker IDs")
        components += made
    return CodeRegistry(int(data["version"]), str(data["marker_family"]), str(data["payload_prefix"]), components,
                        (int(v) for v in data.get("reads_versions", ())),
                        {name: int(spec.get("since", 0)) for name, spec in data["games"].items()})
