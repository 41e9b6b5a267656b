"""The synthetic scene generator the reader is measured with: deterministic, with truthful ground truth."""

from __future__ import annotations

import math

import numpy as np

from companion.codes import load_registry
from tests.vision.scenes import HEX_PITCH_MM, Placement, hex_centre_mm, random_scene, render_scene


def test_the_same_seed_draws_the_same_photo_and_another_seed_another() -> None:
    registry = load_registry()
    one, again, other = (random_scene(registry, 10, "medium", seed) for seed in (4, 4, 5))
    assert one.image.shape == (1080, 1920, 3) and one.image.dtype == np.uint8
    assert np.array_equal(one.image, again.image) and one.truth == again.truth
    assert not np.array_equal(one.image, other.image)


def test_neighbouring_hexes_are_one_pitch_apart() -> None:
    origin = hex_centre_mm(0, 0)
    for q, r in ((1, 0), (0, 1), (-1, 1), (1, -1)):
        assert math.isclose(math.dist(origin, hex_centre_mm(q, r)), HEX_PITCH_MM)


def test_truth_places_stickers_where_they_are_drawn() -> None:
    """The true centre of a lone sticker on an empty table is the centre of the dark pixels there."""
    registry = load_registry()
    scene = render_scene([Placement.at_hex("KH:E:M", 0, 0), Placement.at_hex("KH:E:N", 4, 0)], registry, "easy", seed=1)
    assert set(scene.truth) == {"KH:E:M", "KH:E:N"}
    grey = scene.image.mean(axis=2)
    for code, (x, y) in scene.truth.items():
        half = int(scene.sticker_px[code] * 0.4)
        patch = grey[int(y) - half:int(y) + half, int(x) - half:int(x) + half]
        ys, xs = np.nonzero(patch < 80)
        assert len(xs) > 0.2 * patch.size  # the marker's black border and bits are there
    (ax, ay), (bx, by) = scene.truth["KH:E:M"], scene.truth["KH:E:N"]
    assert 3.5 * 27 * 2.0 < math.dist((ax, ay), (bx, by)) < 4.5 * 27 * 3.6  # 108 mm at 2-3.6 px/mm


def test_presets_get_harder_sticker_sizes_stay_in_the_measured_range() -> None:
    registry = load_registry()
    for difficulty in ("easy", "medium", "hard"):
        scene = random_scene(registry, 56, difficulty, seed=2)
        assert len(scene.truth) == 56 + 5
        assert 28 < min(scene.sticker_px.values()) and max(scene.sticker_px.values()) < 64


def test_a_sticker_cut_off_by_the_frame_is_not_required_but_may_be_read() -> None:
    registry = load_registry()
    scene = render_scene([Placement.at_hex("KH:E:M", 0, 0), Placement("KH:E:N", 2000.0, 0.0)], registry, "easy", seed=5,
                         aim_mm=(0.0, 0.0))
    assert set(scene.truth) == {"KH:E:M"} and set(scene.cut_off) == {"KH:E:N"}
    (x, y), side = scene.cut_off["KH:E:N"]
    assert not (0 <= x <= 1920 and 0 <= y <= 1080) and side > 20  # far outside, a full-size sticker


def test_issue_16s_hard_scenes_put_16_mm_stickers_at_2_to_2_6_px_per_mm_and_tables_at_29_to_39_px() -> None:
    """The harder presets fix the scale at the aimed point (2.0-2.6 px/mm); tilt makes the far side smaller."""
    registry = load_registry()
    for difficulty in ("harder", "hardest"):
        scene = random_scene(registry, 30, difficulty, seed=3)
        assert scene.image.shape == (1080, 1920, 3)
        assert 26 < min(scene.sticker_px.values()) and max(scene.sticker_px.values()) < 16 * 2.6 * 1.25
    from tests.vision.tables import table_scene

    table = table_scene(registry, 4, "table-medium", seed=1)
    assert table.scene.image.shape == (2160, 3840, 3)
    assert 26 < min(table.scene.sticker_px.values()) and max(table.scene.sticker_px.values()) < 44
    assert len(table.snapshot["players"]) == 4 and len(table.snapshot["land_office"]) == 6
