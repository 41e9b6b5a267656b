"""The estate board as data: labels, axial hex coordinates, crops, start pairs.

Space ``i`` of a layout is bit ``1 << i`` of a board mask (at most 64 spaces), so a
player's field tiles, harvested tiles and workers are each one integer, and adjacency
is a table of neighbour masks computed once per layout (the chess engines' bitboards).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from pathlib import Path
from typing import Any

from companion.core.errors import MalformedInputError
from companion.core.messages import msg

Coord = tuple[int, int]
HEX_DIRECTIONS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


class Crop(IntEnum):
    """The five crops; the value indexes every 5-tuple of stone counts."""

    HOPS = 0
    VEGETABLES = 1
    APPLES = 2
    WINE = 3
    WHEAT = 4

    @property
    def key(self) -> str:
        """The crop's name in notation and JSON (``hops``, ``wine``...)."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Crop:
        word = text.strip().lower()
        for crop in cls:
            if crop.key == word or CROP_COLOURS[crop] == word or crop.key[:3] == word[:3] and len(word) >= 3:
                return crop
        raise MalformedInputError(msg("kh.refuse.unknown_crop", crop=text, crops=[c.key for c in cls]))


CROP_KEYS: tuple[str, ...] = ("hops", "vegetables", "apples", "wine", "wheat")
"""``Crop(i).key`` by index, for hot loops."""

CROP_BY_KEY: dict[str, Crop] = {}
"""``Crop`` by its normalised key (moves carry normalised keys), filled below."""

CROP_COLOURS = {Crop.HOPS: "brown", Crop.VEGETABLES: "green", Crop.APPLES: "orange", Crop.WINE: "red", Crop.WHEAT: "yellow"}


CROP_BY_KEY.update({crop.key: crop for crop in Crop})


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def neighbour_masks(coords: Sequence[Coord]) -> tuple[int, ...]:
    """For each space, the mask of the spaces sharing an edge with it."""
    index = {coord: i for i, coord in enumerate(coords)}
    masks = []
    for q, r in coords:
        mask = 0
        for dq, dr in HEX_DIRECTIONS:
            j = index.get((q + dq, r + dr))
            if j is not None:
                mask |= 1 << j
        masks.append(mask)
    return tuple(masks)


def group_of(space: int, mask: int, neighbours: Sequence[int]) -> int:
    """The connected group of the spaces in ``mask`` that holds ``space`` (a flood fill), as a mask."""
    frontier = 1 << space
    group = 0
    while frontier:
        group |= frontier
        grown = 0
        while frontier:
            low = frontier & -frontier
            grown |= neighbours[low.bit_length() - 1]
            frontier ^= low
        frontier = grown & mask & ~group
    return group


def components(mask: int, neighbours: Sequence[int]) -> list[int]:
    """The connected groups of the spaces in ``mask``, each as a mask."""
    groups = []
    while mask:
        group = group_of((mask & -mask).bit_length() - 1, mask, neighbours)
        mask &= ~group
        groups.append(group)
    return groups


@dataclass(frozen=True)
class Layout:
    """One estate board: every space's label, position and crop, and the start pairs."""

    name: str
    labels: tuple[str, ...]
    coords: tuple[Coord, ...]
    crops: tuple[Crop, ...]
    start_pairs: tuple[tuple[int, int], ...]
    pair_colours: tuple[str, ...]
    provisional: bool
    note: str = ""
    neighbours: tuple[int, ...] = field(init=False, repr=False, compare=False)
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    crop_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The spaces of each crop, indexed by ``Crop``."""
    derived: dict[str, Any] = field(init=False, repr=False, compare=False)
    """Tables other modules compute once per layout (the rules' move tables)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "neighbours", neighbour_masks(self.coords))
        object.__setattr__(self, "index", {label: i for i, label in enumerate(self.labels)})
        object.__setattr__(self, "crop_masks", tuple(sum(1 << i for i, c in enumerate(self.crops) if c is crop)
                                                      for crop in Crop))
        object.__setattr__(self, "derived", {})

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def all_spaces(self) -> int:
        return (1 << self.size) - 1

    def space(self, label: str) -> int:
        """The space index of ``label``; ``MalformedInputError`` if the board has no such label."""
        index = self.index.get(label)
        if index is not None:
            return index
        try:
            return self.index[label.strip().upper()]
        except KeyError:
            raise MalformedInputError(f"no space labelled {label!r} on the {self.name} board") from None

    def crop_mask(self, crop: Crop) -> int:
        return self.crop_masks[crop]

    def to_json(self) -> dict[str, Any]:
        pair_of = {i: self.pair_colours[n] for n, pair in enumerate(self.start_pairs) for i in pair}
        return {
            "name": self.name,
            "provisional": self.provisional,
            "note": self.note,
            "spaces": [
                {"label": label, "at": list(self.coords[i]), "crop": self.crops[i].key, "start_pair": pair_of.get(i)}
                for i, label in enumerate(self.labels)
            ],
        }

    @classmethod
    def from_json(cls, data: Any, printed_rules: bool = True) -> Layout:
        """Build and check a layout from its JSON form (see docs/key-harvest-layout.md).

        A board of 56 spaces (the printed board, DE 45) must also keep the rulebook's rules for it
        (``check_printed_rules``); a smaller one is a toy board for examples and tests (spec 12, T20).
        ``printed_rules=False`` skips them: only for a layout a stored game was already played on, which must
        replay as it was played."""
        if not isinstance(data, dict):
            raise MalformedInputError(f"layout is malformed: expected an object, not {type(data).__name__}")
        unknown = sorted(set(data) - set(LAYOUT_KEYS))
        if unknown:
            raise MalformedInputError(f"layout: unknown key {unknown[0]!r}; expected {', '.join(LAYOUT_KEYS)}")
        try:
            spaces = data["spaces"]
            for n, s in enumerate(spaces):
                extra = sorted(set(s) - set(SPACE_KEYS)) if isinstance(s, dict) else []
                if extra:
                    raise MalformedInputError(f"layout spaces[{n}]: unknown key {extra[0]!r}; expected {', '.join(SPACE_KEYS)}")
            labels = tuple(str(s["label"]).strip().upper() for s in spaces)
            coords = tuple((int(s["at"][0]), int(s["at"][1])) for s in spaces)
            crops = tuple(Crop.parse(str(s["crop"])) for s in spaces)
            pairs: dict[str, list[int]] = {}
            for i, s in enumerate(spaces):
                if s.get("start_pair"):
                    pairs.setdefault(str(s["start_pair"]), []).append(i)
            layout = cls(
                name=str(data.get("name", "custom")),
                labels=labels,
                coords=coords,
                crops=crops,
                start_pairs=tuple((p[0], p[1]) if len(p) == 2 else (-1, -1) for p in pairs.values()),
                pair_colours=tuple(pairs),
                provisional=bool(data.get("provisional", True)),
                note=str(data.get("note", "")),
            )
        except MalformedInputError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise MalformedInputError(f"layout is malformed: {exc!r}") from None
        layout.check()
        if printed_rules and layout.size == PRINTED_SPACES:
            layout.check_printed_rules()
        return layout

    def check(self) -> None:
        """Refuse layouts the game cannot use: duplicate labels or positions, too many spaces, bad pairs."""
        if not 8 <= self.size <= 64:
            raise MalformedInputError(msg("kh.data.size", size=self.size))
        if len(set(self.labels)) != self.size:
            raise MalformedInputError(msg("kh.data.labels_unique"))
        if len(set(self.coords)) != self.size:
            raise MalformedInputError(msg("kh.data.same_place"))
        if len(self.start_pairs) != 4 or any(-1 in pair for pair in self.start_pairs):
            raise MalformedInputError(msg("kh.data.start_pairs"))

    def distance(self, a: int, b: int) -> int:
        """Hex steps between spaces ``a`` and ``b`` (axial coordinates)."""
        (q1, r1), (q2, r2) = self.coords[a], self.coords[b]
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def check_printed_rules(self) -> None:
        """Refuse a board that breaks what the rulebook says of it (docs/key-harvest-layout.md).

        Labels are alphanumeric (DE 45). Each player starts with two tiles from different regions of the
        board (DE 587): the two tiles of a start pair lie at least ``MIN_TWIN_DISTANCE`` steps apart, so no
        single tile can join them. They lie away from the other players' start tiles (DE 591): no start
        tile touches a start tile of another pair.
        """
        for label in self.labels:
            if not LABEL_PATTERN.match(label):
                raise MalformedInputError(msg("kh.data.label", label=repr(label)))
        for n, (a, b) in enumerate(self.start_pairs):
            if self.distance(a, b) < MIN_TWIN_DISTANCE:
                raise MalformedInputError(msg("kh.data.pair_apart", pair=self.pair_colours[n], a=self.labels[a],
                                              b=self.labels[b], steps=self.distance(a, b), least=MIN_TWIN_DISTANCE))
        for n, pair in enumerate(self.start_pairs):
            for m in range(n + 1, len(self.start_pairs)):
                for a in pair:
                    for b in self.start_pairs[m]:
                        if self.neighbours[a] >> b & 1:
                            raise MalformedInputError(msg("kh.data.pairs_touch", a=self.labels[a], b=self.labels[b],
                                                          pair_a=self.pair_colours[n], pair_b=self.pair_colours[m]))


DEFAULT_DATA_FILE = "default-data.json"
"""The shipped data pack (docs/key-harvest-layout.md): ``{"name", "note", "layout": {"provisional", "source",
"spaces"}}``."""
LAYOUT_SECTION = "layout"
LAYOUT_KEYS = ("name", "provisional", "note", "spaces")
"""The keys of a layout's own JSON (``Layout.to_json``), the format of layout files before data packs."""
SPACE_KEYS = ("label", "at", "crop", "start_pair")
PRINTED_SPACES = 56
"""Spaces of the printed estate board (DE 45); a layout of that size is held to ``check_printed_rules``."""
MIN_TWIN_DISTANCE = 3
"""The fewest hex steps between the two tiles of a start pair ("different regions", DE 587): 3 means they
neither touch nor share a neighbouring space."""
LABEL_PATTERN = re.compile(r"^[A-Z0-9]{1,4}$")


def is_layout_json(data: Any) -> bool:
    """Whether ``data`` is a layout in its own (older) format, spaces at the top, rather than a data pack."""
    return isinstance(data, dict) and LAYOUT_SECTION not in data and ("spaces" in data or "provisional" in data)


def pack_of_layout(data: Any) -> Any:
    """A layout in its own format (an old ``key-harvest-layout.json``, a stored game's, the camera's) as a data
    pack; a data pack (or anything else) unchanged. Unknown keys are refused as ``Layout.from_json`` does."""
    if not is_layout_json(data):
        return data
    unknown = sorted(set(data) - set(LAYOUT_KEYS))
    if unknown:
        raise MalformedInputError(f"layout: unknown key {unknown[0]!r}; expected {', '.join(LAYOUT_KEYS)}")
    spaces = data.get("spaces")
    if isinstance(spaces, list):
        spaces = [_known_crop(space) for space in spaces]
    pack = {"name": data.get("name", "custom"), "note": data.get("note", ""),
            LAYOUT_SECTION: {"provisional": data.get("provisional", True), "source": "spec 10.1", "spaces": spaces}}
    return pack


def _known_crop(space: Any) -> Any:
    """A space with its crop as the crop's key (older layouts may name a crop by its colour)."""
    if not isinstance(space, dict) or not isinstance(space.get("crop"), str):
        return space
    try:
        return {**space, "crop": Crop.parse(space["crop"]).key}
    except MalformedInputError:
        return space


def layout_of_pack(pack: Any, printed_rules: bool = True) -> Layout:
    """The board of a data pack (or of a layout in its own format)."""
    if is_layout_json(pack) or not isinstance(pack, dict):
        return Layout.from_json(pack, printed_rules)
    if LAYOUT_SECTION not in pack:
        raise MalformedInputError(f"Key Harvest data pack is malformed: missing key {LAYOUT_SECTION!r}")
    section = pack[LAYOUT_SECTION]
    if not isinstance(section, dict):
        raise MalformedInputError("Key Harvest data pack: the layout section must be an object")
    layout = {"name": pack.get("name", "custom"), "provisional": section.get("provisional", True),
              "note": pack.get("note", ""), "spaces": section.get("spaces")}
    return Layout.from_json(layout, printed_rules)


def load_layout(path: str | Path | None = None) -> Layout:
    """The board of a data pack or layout file if given, else of the shipped (provisional) data pack."""
    try:
        if path is None:
            text = resources.files("companion.games.key_harvest").joinpath("data", DEFAULT_DATA_FILE).read_text("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except OSError as exc:
        raise MalformedInputError(f"cannot read layout {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise MalformedInputError(f"layout {path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    return layout_of_pack(data)
