"""The code reader: every sticker in a photo, never a code that is not there."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import qrcode

from companion.codes import load_registry
from companion.core.errors import MalformedInputError
from companion.vision.markers import marker_bits, marker_image
from companion.vision import reader
from companion.vision.reader import CodeReader, read_codes
from tests.vision.scenes import Decoy, Placement, random_scene, render_scene

UNALLOCATED_MARKER = 900
"""Above every game's marker range (registry.json: Key Market ends at 649)."""


def test_every_sticker_of_an_easy_board_is_read_where_it_lies() -> None:
    registry = load_registry()
    scene = random_scene(registry, 20, "easy", seed=11)
    outcome = scene.score(read_codes(scene.image, registry))
    assert outcome.missed == [] and outcome.false_reads == []
    assert len(outcome.found) == 25


def test_a_marker_the_registry_never_allocated_is_not_read() -> None:
    registry = load_registry()
    foreign = Decoy(marker_image(UNALLOCATED_MARKER, 64), 80.0, 0.0, 16.0)
    scene = render_scene([Placement.at_hex("KH:F:A1:U", 0, 0)], registry, "easy", seed=3, decoys=[foreign])
    assert [d.code for d in CodeReader(registry).read(scene.image).detections] == ["KH:F:A1:U"]


def test_a_random_qr_code_is_not_a_sticker() -> None:
    registry = load_registry()
    image = qrcode.make("https://example.com/not-ours", box_size=4, border=2).get_image().convert("L")
    qr = Decoy(np.asarray(image, dtype=np.uint8), 0.0, 0.0, 40.0)
    scene = render_scene([], registry, "easy", seed=4, decoys=[qr])
    assert read_codes(scene.image, registry) == []


@pytest.mark.parametrize("value", [0, 128, 255])
def test_a_photo_of_nothing_has_no_codes(value: int) -> None:
    registry = load_registry()
    assert read_codes(np.full((1080, 1920, 3), value, dtype=np.uint8), registry) == []
    noise = np.random.default_rng(value).integers(0, 256, (1080, 1920), dtype=np.uint8)
    assert read_codes(noise, registry) == []


@pytest.mark.parametrize("frame", [np.zeros((10, 10), dtype=np.float32), np.zeros((0, 5), dtype=np.uint8),
                                   np.zeros((8, 8, 4), dtype=np.uint8)])
def test_a_frame_that_is_not_an_8_bit_picture_is_refused(frame: np.ndarray) -> None:
    with pytest.raises(MalformedInputError, match="frame must be"):
        read_codes(frame, load_registry())


@pytest.mark.parametrize("difficulty, scenes, least_recall", [("easy", 3, 1.0), ("medium", 3, 1.0), ("hard", 6, 0.98),
                                                              ("harder", 6, 0.98), ("hardest", 4, 0.7)])
def test_whole_boards_are_read_with_no_false_reads(difficulty: str, scenes: int, least_recall: float) -> None:
    """8 to 56 field tiles with 16 mm stickers, plus workers and events, seen 60-80 cm above the table.

    A guard on a few fixed scenes (one of them the farthest, most tilted camera: 32 px stickers);
    the 99.5 % goal is measured over many more scenes by ``benchmarks/vision.py``. "hardest" (motion blur, JPEG 60,
    glare) goes beyond the goal: there the guard is only that nothing is misread and most is read.
    """
    registry = load_registry()
    reader = CodeReader(registry)
    found = total = 0
    for n in range(scenes):
        scene = random_scene(registry, 8 + 48 * n // (scenes - 1), difficulty, seed=500 + n)
        outcome = scene.score(reader.read(scene.image).detections)
        assert outcome.false_reads == [], f"seed {500 + n}"
        found, total = found + len(outcome.found), total + len(scene.truth)
    assert found / total >= least_recall, f"{total - found} of {total} stickers missed"


@pytest.mark.parametrize("seed, tiles, code", [(10028, 42, "KH:F:H4:U"), (10031, 46, "KH:F:H2:H")])
def test_a_small_blurred_sticker_is_read_where_refining_its_corners_drifts(seed: int, tiles: int, code: str) -> None:
    """A 31-32 px sticker on a "harder" board (tilted, blur 1-1.5 px: a cell is 3 px): OpenCV finds its outline but
    not its bits, and refining the outline's corners to sub-pixel moves them a third of a cell, so the second look
    read 6 bits wrong; from the corners as found, every bit reads right."""
    registry = load_registry()
    scene = random_scene(registry, tiles, "harder", seed=seed)
    outcome = scene.score(CodeReader(registry).read(scene.image).detections)
    assert code in outcome.found and outcome.false_reads == []


def test_a_code_printed_at_another_size_among_the_board_is_not_a_sticker_on_it() -> None:
    """A code on the box lid, twice the size of the board's stickers, is dropped by the size check."""
    registry = load_registry()
    big = Decoy(marker_image(registry.by_code("KH:E:Z"), 90), 60.0, 120.0, 32.0)
    placements = [Placement.at_hex(f"KH:F:A{i}:U", i, 0) for i in range(1, 6)]
    scene = render_scene(placements, registry, "easy", seed=8, decoys=[big])
    reading = CodeReader(registry).read(scene.image)
    assert sorted(d.code for d in reading.detections) == sorted(p.code for p in placements)
    assert [d.code for d in reading.implausible] == ["KH:E:Z"]


def test_one_code_seen_twice_is_reported_once() -> None:
    registry = load_registry()
    placements = [Placement.at_hex("KH:F:A1:U", 0, 0), Placement.at_hex("KH:F:A2:U", 1, 0), Placement.at_hex("KH:F:A3:U", 2, 0)]
    copy = Decoy(marker_image(registry.by_code("KH:F:A1:U"), 90), 4 * 27.0, 0.0, 16.0 + 1.2)
    scene = render_scene(placements, registry, "easy", seed=9, decoys=[copy])
    reading = CodeReader(registry).read(scene.image)
    assert sorted(d.code for d in reading.detections) == ["KH:F:A1:U", "KH:F:A2:U", "KH:F:A3:U"]
    assert [d.code for d in reading.implausible] == ["KH:F:A1:U"]


def test_a_withdrawn_version_1_sticker_is_never_read_as_a_code() -> None:
    """Registry version 1 printed the same IDs as 4x4 markers; the 5x5 reader must not see them as stickers."""
    registry = load_registry()
    old = [Decoy(marker_image(marker, 64, "DICT_4X4_1000"), 30.0 * (marker % 8), 30.0 * (marker // 8), 16.0, 10.0 * marker)
           for marker in range(0, 172, 7)]
    scene = render_scene([], registry, "easy", seed=12, decoys=old)
    reading = CodeReader(registry).read(scene.image)
    assert reading.detections == [] and reading.implausible == []


def _frame_with(markers: list[tuple[int, np.ndarray | None]]) -> np.ndarray:
    """A white frame with 45 px stickers in a row; a sticker's data bits may be given changed (1 = white, a fraction:
    that grey, as a smudge or blur leaves a cell)."""
    from companion.vision.markers import BORDER_MODULES, QUIET_ZONE_MODULES, sticker_modules

    frame = np.full((200, 80 + 90 * len(markers)), 255, dtype=np.uint8)
    for i, (marker_id, bits) in enumerate(markers):
        art = marker_image(marker_id, 45).copy()
        if bits is not None:
            module = 45 // sticker_modules()
            inner = (QUIET_ZONE_MODULES + BORDER_MODULES) * module
            changed = np.kron(bits, np.ones((module, module))) * 255
            art[inner:inner + changed.shape[0], inner:inner + changed.shape[1]] = changed
        frame[80:125, 40 + 90 * i:85 + 90 * i] = art
    return frame


def test_a_lone_sticker_of_another_game_counts_only_when_read_without_correction() -> None:
    """A table plays one game: among Key Harvest stickers, one Keyper code read with two bits corrected is far
    likelier art or a damaged marker than a stray tile, and is dropped as implausible; read exactly, it counts.
    Alone in view (a tile held up to the scan station), the same damaged marker is read."""
    registry = load_registry()
    keyper = registry.for_game("keyper")[0]
    harvest = [c.marker_id for c in registry.for_game("key-harvest")[:4]]
    damaged = smudged(marker_bits(keyper.marker_id), (1, 1), (3, 2))
    reader = CodeReader(registry)

    clean = reader.read(_frame_with([(m, None) for m in harvest] + [(keyper.marker_id, None)]))
    assert keyper.code in {d.code for d in clean.detections}
    mixed = reader.read(_frame_with([(m, None) for m in harvest] + [(keyper.marker_id, damaged)]))
    assert {d.code for d in mixed.detections} == {registry.by_marker(m).code for m in harvest}
    assert keyper.code in {d.code for d in mixed.implausible}
    alone = reader.read(_frame_with([(keyper.marker_id, damaged)]))
    assert [d.code for d in alone.detections] == [keyper.code]


def smudged(bits: np.ndarray, *cells: tuple[int, int]) -> np.ndarray:
    """Marker bits with ``cells`` turned just past grey, to the other side of the threshold (a smudge or blur)."""
    changed = bits.astype(np.float64)
    for cell in cells:
        changed[cell] = 0.6 if bits[cell] == 0 else 0.4
    return changed


def plainly_changed(bits: np.ndarray, *cells: tuple[int, int]) -> np.ndarray:
    """Marker bits with ``cells`` as plainly the other colour as the marker's own (a white mark on a black icon)."""
    changed = bits.copy()
    for cell in cells:
        changed[cell] ^= 1
    return changed


def test_a_read_whose_corrected_cells_are_plainly_the_other_colour_is_art_on_a_busy_frame() -> None:
    """Blur or a smudge leaves a wrong cell grey, near the threshold, and two such cells are corrected; a cell as plainly
    white as the marker's whitest where the code has black is another picture (board art: a black icon with white
    marks) and is dropped among a board's stickers. Held up alone, the same scratched sticker is read."""
    registry = load_registry()
    tile = registry.by_code("KH:F:C6:H")
    rest = [registry.by_code(code).marker_id for code in ("KH:F:A1:U", "KH:F:B2:H", "KH:F:D3:U")]
    reader = CodeReader(registry)

    smudge = smudged(marker_bits(tile.marker_id), (0, 1), (4, 0))
    blurred = reader.read(_frame_with([(m, None) for m in rest] + [(tile.marker_id, smudge)]))
    assert tile.code in {d.code for d in blurred.detections}
    icon = plainly_changed(marker_bits(tile.marker_id), (0, 1), (4, 0))
    art = reader.read(_frame_with([(m, None) for m in rest] + [(tile.marker_id, icon)]))
    assert tile.code not in {d.code for d in art.detections} and tile.code in {d.code for d in art.implausible}
    assert [d.code for d in reader.read(_frame_with([(tile.marker_id, icon)])).detections] == [tile.code]


def test_a_tile_shows_one_face_so_a_corrected_read_of_its_other_face_is_art() -> None:
    """A field tile has a sticker on each face and shows one: a read of the other face's marker with two bits
    corrected (art, or a reflection) is dropped, not reported as a second tile; both faces read equally well are both
    kept, for the table to show as a conflict."""
    registry = load_registry()
    shown, other = registry.by_code("KH:F:C6:U"), registry.by_code("KH:F:C6:H")
    rest = [registry.by_code(code).marker_id for code in ("KH:F:A1:U", "KH:F:B2:H", "KH:F:D3:U")]
    art = smudged(marker_bits(other.marker_id), (0, 1), (4, 0))
    reader = CodeReader(registry)

    reading = reader.read(_frame_with([(m, None) for m in rest] + [(shown.marker_id, None), (other.marker_id, art)]))
    assert shown.code in {d.code for d in reading.detections}
    assert other.code not in {d.code for d in reading.detections}
    assert other.code in {d.code for d in reading.implausible}
    both = reader.read(_frame_with([(m, None) for m in rest] + [(shown.marker_id, None), (other.marker_id, None)]))
    assert {shown.code, other.code} <= {d.code for d in both.detections}


@pytest.mark.parametrize("turn", [0.0, 20.0, 45.0])
def test_a_small_sticker_is_read_however_it_is_turned(turn: float) -> None:
    """Stickers of 29 px (a whole table in 4K: 22.6 px markers) turned 45 degrees were never looked at: OpenCV measures
    an outline by its pixels, and a turned square's diagonal steps are fewer pixels than its length."""
    registry = load_registry()
    codes = [c for c in registry.for_game("key-harvest") if c.side != "harvested"][:6]  # six tiles, one face each
    frame = np.full((200, 150 * len(codes) + 100), 110, dtype=np.uint8)  # a mid-grey table
    for i, component in enumerate(codes):
        big = np.full((224, 224), 110, dtype=np.uint8)  # drawn at four times the size, turned, area-averaged down
        big[54:170, 54:170] = marker_image(component, 116)
        turned = cv2.warpAffine(big, cv2.getRotationMatrix2D((112, 112), turn, 1.0), (224, 224), borderValue=110)
        frame[72:128, 100 + 150 * i:156 + 150 * i] = cv2.resize(turned, (56, 56), interpolation=cv2.INTER_AREA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8)
    assert {d.code for d in CodeReader(registry).read(frame).detections} == {c.code for c in codes}


@pytest.mark.parametrize("seed, tiles, code", [(10017, 12, "KH:L:3:B"), (10072, 25, "KH:F:G2:U")])
def test_the_outline_of_a_small_blurred_marker_turned_45_degrees_is_kept(seed: int, tiles: int, code: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A 29-33 px sticker on a "harder" board turned about 45 degrees: its blurred corners are round, and at OpenCV's
    polygon accuracy (0.03 of the outline's pixels, which a turned square has 1/sqrt 2 as many of) its outline was not
    taken for a four-cornered one, so it was never read."""
    registry = load_registry()
    scene = random_scene(registry, tiles, "harder", seed=seed)
    outcome = scene.score(CodeReader(registry).read(scene.image).detections)
    assert code in outcome.found and outcome.false_reads == []
    monkeypatch.setattr(reader, "POLYGON_ACCURACY", 0.03)
    assert code in scene.score(CodeReader(registry).read(scene.image).detections).missed


@pytest.mark.parametrize("seed, tiles, code", [(10095, 30, "KH:F:C1:U"), (10178, 50, "KH:F:D6:U")])
def test_a_sticker_too_blurred_for_its_cells_is_read_by_fitting_it_blurred(seed: int, tiles: int, code: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A 33-37 px sticker on a "harder" board (blur 1-1.5 px on 3.5 px modules): its outline is found, but its cells'
    middles read 3 or more bits wrong from every corner tried; fitted as the printed sticker blurred, it reads right."""
    registry = load_registry()
    scene = random_scene(registry, tiles, "harder", seed=seed)
    outcome = scene.score(CodeReader(registry).read(scene.image).detections)
    assert code in outcome.found and outcome.false_reads == []
    monkeypatch.setattr(CodeReader, "_read_blurred", lambda self, grey, outlines: {})
    assert code in scene.score(CodeReader(registry).read(scene.image).detections).missed


def test_a_read_the_blurred_fit_contradicts_is_replaced_by_the_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a "hardest" board (motion blur, JPEG at quality 60), OpenCV read a smeared ``KH:F:C3:H`` as ``KH:F:G3:U``
    (6 bits wrong by this reader's own sampling): a false read. The blurred fit reads it as printed."""
    registry = load_registry()
    scene = random_scene(registry, 28, "hardest", seed=70043)
    outcome = scene.score(CodeReader(registry).read(scene.image).detections)
    assert "KH:F:C3:H" in outcome.found and outcome.false_reads == []
    monkeypatch.setattr(CodeReader, "_read_blurred", lambda self, grey, outlines: {})
    assert [d.code for d in scene.score(CodeReader(registry).read(scene.image).detections).false_reads] == ["KH:F:G3:U"]
