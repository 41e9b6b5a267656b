"""The code registry: stable codes, one marker per sticker, unknown and foreign codes refused."""

from __future__ import annotations

import pytest

from companion.codes import load_registry
from companion.core.errors import ForeignCodeError, UnknownCodeError
from companion.games.key_harvest import KeyHarvest


def test_every_key_harvest_component_has_one_sticker_per_printed_face() -> None:
    registry = load_registry()
    kinds = [c.kind for c in registry.for_game("key-harvest")]
    assert kinds.count("field") == 2 * 56  # both sides of each of the 56 field tiles
    assert kinds.count("labourer") == 24 and kinds.count("townsfolk") == 6 and kinds.count("event") == 14
    markers = [c.marker_id for c in registry]
    assert len(set(markers)) == len(markers) and max(markers) < 256


def test_a_code_finds_its_tile_side_and_its_marker_finds_it_back() -> None:
    registry = load_registry()
    label = KeyHarvest().layout.labels[10]
    front, back = registry.by_code(f"KH:F:{label}:U"), registry.by_code(f"kh:f:{label}:h")
    assert (front.key, front.side, back.side) == (label, "unharvested", "harvested")
    assert registry.by_marker(front.marker_id) is front
    assert registry.by_code("KH:L:3:F").group == 3
    assert registry.by_payload("keydom:2:KH:E:Q").title == "event Q"


def test_allocation_depends_only_on_the_label_set_not_its_order() -> None:
    from companion.codes.registry import registry_data
    from companion.games.key_harvest.camera import stickers

    labels = list(KeyHarvest().layout.labels)
    spec = registry_data()["games"]["key-harvest"]
    one, other = stickers(spec, labels), stickers(spec, list(reversed(labels)))
    assert [(c.code, c.marker_id) for c in one] == [(c.code, c.marker_id) for c in other]


@pytest.mark.parametrize("code", ["KH:F:ZZ9:U", "KH:X:1", "LG:F:1", ""])
def test_unknown_codes_are_refused(code: str) -> None:
    with pytest.raises(UnknownCodeError, match="unknown sticker code"):
        load_registry().by_code(code)


def test_unallocated_marker_is_refused() -> None:
    with pytest.raises(UnknownCodeError, match="marker 250"):
        load_registry().by_marker(250)


@pytest.mark.parametrize("text, reason", [
    ("https://example.com/x", "not a Keydom Companion sticker"),
    ("keydom:9:KH:E:Q", "another registry version"),
    ("keydom:1:KH:E:Q", "another registry version"),  # version 1 stickers (4x4 markers) are withdrawn
])
def test_foreign_payloads_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ForeignCodeError, match=reason):
        load_registry().by_payload(text)


def test_each_game_building_its_own_stickers_keeps_every_code_and_marker_id() -> None:
    """The allocation of the shipped layout, as printed on stickers before games built their own: a changed code
    or marker ID would make printed stickers read as something else."""
    import hashlib

    from companion.games.key_harvest.board import load_layout

    registry = load_registry(KeyHarvest(load_layout()))
    listing = "\n".join(f"{c.code}={c.marker_id}" for c in registry)
    assert len(registry) == 156
    assert [(c.code, c.marker_id) for c in (registry.by_marker(0), registry.by_marker(111))] == \
        [("KH:F:A1:U", 0), ("KH:F:H7:H", 111)]
    assert (registry.by_code("KH:L:1:A").marker_id, registry.by_code("KH:T:G").marker_id,
            registry.by_code("KH:E:M").marker_id, registry.by_code("KH:E:Z").marker_id) == (128, 152, 158, 171)
    assert hashlib.sha256(listing.encode()).hexdigest() == \
        "e2bbcf9cc9c132526a9616164168e40a944609062b2ae6cb2db21a9b401c9621"
