"""The code registry: stable codes, one marker per sticker, unknown and foreign codes refused."""

from __future__ import annotations

import json

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
    assert len(set(markers)) == len(markers)
    assert max(c.marker_id for c in registry.for_game("key-harvest")) < 256


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


# ---------------------------------------------------------------- registry version 3: Keyper and Key Market


def test_version_3_adds_keyper_and_key_market_and_keeps_every_version_2_code_and_marker() -> None:
    """The same hash as above over Key Harvest's codes in the full registry, and version-2 payloads still resolve
    (a scanner reading a sticker printed before version 3 gets the same component)."""
    import hashlib

    registry = load_registry()
    assert registry.version == 3 and registry.payload_prefix == "keydom:3:"
    listing = "\n".join(f"{c.code}={c.marker_id}" for c in registry.for_game("key-harvest"))
    assert hashlib.sha256(listing.encode()).hexdigest() == \
        "e2bbcf9cc9c132526a9616164168e40a944609062b2ae6cb2db21a9b401c9621"
    for component in registry.for_game("key-harvest"):
        assert registry.by_payload(f"keydom:2:{component.code}") is component
        assert registry.by_payload(component.payload(registry.payload_prefix)) is component
        assert registry.by_marker(component.marker_id) is component


def test_keyper_and_key_market_have_one_sticker_per_printed_face() -> None:
    registry = load_registry()
    keyper = [c.kind for c in registry.for_game("keyper")]
    assert keyper.count("board") == 4 * 4  # a corner anchor in each corner of each player board
    assert keyper.count("home") == 4 * 12 * 2 and keyper.count("country") == 48 * 2  # both sides (spec 1.3)
    assert keyper.count("boat") == 6 * 2 and keyper.count("winter_fair") == 8 * 2 and keyper.count("fair") == 18
    market = [c.kind for c in registry.for_game("key-market")]
    assert market.count("field") == 4 * 2 * 9 + 6 and market.count("worker") == 4 * 10  # spec 1.1: 9 + keyworker
    assert registry.by_code("KP:C:GOLDSMITH:U").side == "upgraded" and registry.by_code("kp:h:3:stable:b").group == 3
    assert (registry.by_code("KM:W:2:K").key, registry.by_code("KM:W:2:K").group) == ("K", 2)
    assert registry.by_payload("keydom:3:KM:F:1A:11").title == "board 1a field 1,1"
    with pytest.raises(ForeignCodeError, match="registry version 2 did not have"):
        registry.by_payload("keydom:2:KP:C:GOLDSMITH:U")  # version 2 had no Keyper stickers


def test_new_markers_are_far_enough_apart_that_two_wrong_bits_never_confuse_stickers() -> None:
    """Every allocated pair differs in at least 6 of 25 bits in every rotation (Key Harvest's in at least 7): a read
    with 2 wrong bits is nearer its own code than any other, and 3 wrong bits are never taken for another."""
    import numpy as np

    from companion.vision.markers import marker_bits

    registry = load_registry()
    ids = [c.marker_id for c in registry]
    bits = np.array([[np.rot90(marker_bits(i), k).ravel() for k in range(4)] for i in ids], dtype=np.int8)
    distance = np.full((len(ids), len(ids)), 99)
    for k in range(4):
        distance = np.minimum(distance, (bits[:, None, 0, :] != bits[None, :, k, :]).sum(axis=2))
    np.fill_diagonal(distance, 99)
    assert distance.min() >= 6
    harvest = [n for n, c in enumerate(registry) if c.game == "key-harvest"]
    assert distance[np.ix_(harvest, harvest)].min() >= 7
    for k in (1, 2, 3):  # no marker reads as itself turned
        assert min(int((bits[n, 0] != bits[n, k]).sum()) for n in range(len(ids))) >= 6


def test_allocation_follows_the_registry_lists_and_the_sorted_ids() -> None:
    """Marker IDs come from each game's list in the documented order, so reordering a data pack moves nothing."""
    from companion.codes.registry import registry_data
    from companion.games.keyper import Keyper
    from companion.games.keyper.camera import stickers

    spec = registry_data()["games"]["keyper"]
    made = stickers(spec, Keyper().data)
    assert [c.marker_id for c in made] == spec["markers"][:len(made)]
    assert (made[0].code, made[16].code) == ("KP:P:1:1", "KP:H:1:BRICKMAKER:B")
    assert made[-1].code == "KP:F:SU6" and made[-1].kind == "fair"
    raw = json.loads(json.dumps(Keyper().data.raw))
    raw["later_tiles"]["list"].reverse()
    again = stickers(spec, Keyper().with_data(raw).data)
    assert [(c.code, c.marker_id) for c in again] == [(c.code, c.marker_id) for c in made]


def test_a_game_without_enough_marker_ids_is_refused() -> None:
    from companion.codes.registry import registry_data
    from companion.core.errors import MalformedInputError
    from companion.games.key_market import KeyMarket
    from companion.games.key_market.camera import stickers

    spec = dict(registry_data()["games"]["key-market"])
    spec["markers"] = spec["markers"][:50]
    with pytest.raises(MalformedInputError, match="needs 121 marker IDs, its list has 50"):
        stickers(spec, KeyMarket().data)
