"""Printable stickers: exact paper sizes, true-size stickers, and every printed code reads back as itself, by its
marker and by the QR code beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.codes import load_registry
from companion.codes.stickers import DOTS_PER_MM, sheet
from companion.vision.markers import sticker_modules
from companion.vision.qr import QrReader, decode_qr
from companion.vision.reader import CodeReader

PAPER_POINTS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
PAGES = {"a4": 4, "letter": 4}  # 156 Key Harvest stickers (marker and QR code), 40 or 42 a page


def _media_boxes(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_pages_are_exactly_the_paper_size(paper: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "kh.pdf"
    assert main(["stickers", "key-harvest", "--out", str(out), "--paper", paper]) == 0
    boxes = _media_boxes(out.read_bytes())
    assert len(boxes) == PAGES[paper]
    for width, height in boxes:
        assert width == pytest.approx(PAPER_POINTS[paper][0], abs=0.01)
        assert height == pytest.approx(PAPER_POINTS[paper][1], abs=0.01)
    assert f"156 stickers on {PAGES[paper]} {paper} pages" in capsys.readouterr().out


def test_a_printed_sticker_is_its_registry_size_and_every_code_on_a_page_reads_back() -> None:
    """Measured on the page raster (20 dots per mm): the marker is 7/9 of the 16 mm sticker."""
    registry = load_registry()
    printed = sheet(registry, registry.for_game("key-harvest"), "a4")
    assert printed.pages[0].size == (4200, 5940) and DOTS_PER_MM == pytest.approx(20.0)
    reader = CodeReader(registry)
    for page, codes in zip(printed.pages, printed.codes_by_page):
        raster = np.asarray(page.convert("L"), dtype=np.uint8)
        small = cv2.resize(raster, (raster.shape[1] // 5, raster.shape[0] // 5), interpolation=cv2.INTER_AREA)
        reading = reader.read(small)
        assert sorted(d.code for d in reading.detections) == sorted(codes)
        for detection in reading.detections:
            marker_mm = detection.side_px * 5 / DOTS_PER_MM
            sticker_mm = registry.by_code(detection.code).sticker_mm
            assert marker_mm * sticker_modules() / (sticker_modules() - 2) == pytest.approx(sticker_mm, abs=0.3)


def test_every_sticker_on_a_page_reads_back_by_its_qr_code_as_the_same_component_as_its_marker() -> None:
    """At 10 dots per mm (a tile held a hand's width from a 1080p camera) each sticker's QR code names the
    component its marker names, and gives the marker's place; the page's own QR code is no sticker and is refused."""
    registry = load_registry()
    printed = sheet(registry, registry.for_game("key-harvest"), "letter")
    page, codes = printed.pages[-1], printed.codes_by_page[-1]
    raster = np.asarray(page.convert("L"), dtype=np.uint8)
    small = cv2.resize(raster, (raster.shape[1] // 2, raster.shape[0] // 2), interpolation=cv2.INTER_AREA)
    markers = {d.code: d for d in CodeReader(registry).read(small).detections}
    qr = QrReader(registry).read(small)
    assert sorted(markers) == sorted(codes) == sorted(d.code for d in qr.detections)
    for detection in qr.detections:
        marker = markers[detection.code]
        assert detection.marker_id == marker.marker_id
        assert np.hypot(*np.subtract(detection.center, marker.center)) < 0.05 * marker.side_px
    for text, corners in decode_qr(small):  # printed true to size: 21 modules of 0.3 mm
        if text.startswith(f"KEYDOM:{registry.version}:KH:"):
            side_mm = np.mean([np.hypot(*np.subtract(corners[i], corners[i - 1])) for i in range(4)]) * 2 / DOTS_PER_MM
            assert side_mm == pytest.approx(6.3, abs=0.15)
    (header,) = qr.refused
    assert header.text == f"keydom:{registry.version}:SHEET:key-harvest:{len(printed.pages)}/{len(printed.pages)}"
    assert f"unknown sticker code 'SHEET:key-harvest:{len(printed.pages)}/{len(printed.pages)}'" in str(header.error)


def test_png_stickers_carry_their_size_and_read_back_as_their_code(tmp_path: Path) -> None:
    registry = load_registry()
    assert main(["stickers", "key-harvest", "--format", "png", "--out", str(tmp_path)]) == 0
    index = json.loads((tmp_path / "stickers.json").read_text())
    assert index["registry_version"] == registry.version
    stickers = index["stickers"]
    assert set(stickers) == {c.code for c in registry.for_game("key-harvest")}
    frame = np.full((1080, 1920), 200, dtype=np.uint8)
    cells: dict[str, tuple[int, int]] = {}
    for n, (code, entry) in enumerate(sorted(stickers.items())):
        image = Image.open(tmp_path / entry["file"])
        dpi = image.info["dpi"][0]
        assert image.height / dpi * 25.4 == pytest.approx(entry["size_mm"], abs=0.05) and entry["size_mm"] == 16.0
        assert (image.width / dpi * 25.4, entry["width_mm"]) == (pytest.approx(23.5, abs=0.05), 23.5)
        sticker = cv2.resize(np.asarray(image.convert("L"), dtype=np.uint8), (79, 54), interpolation=cv2.INTER_AREA)
        x, y = 20 + (n % 20) * 94, 20 + (n // 20) * 78
        frame[y:y + 54, x:x + 79] = sticker
        cells[code] = (x + 27, y + 27)
    detections = CodeReader(registry).read(frame).detections
    assert {d.code for d in detections} == set(stickers)
    for detection in detections:
        assert np.hypot(*np.subtract(detection.center, cells[detection.code])) < 3
    held_up = Image.open(tmp_path / stickers["KH:L:2:C"]["file"]).convert("L")  # close to the camera: its QR code reads
    big = cv2.resize(np.asarray(held_up, dtype=np.uint8), (470 // 2, 320 // 2), interpolation=cv2.INTER_AREA)
    frame = np.full((400, 600), 90, dtype=np.uint8)
    frame[100:260, 150:385] = big
    assert [d.code for d in QrReader(registry).read(frame).detections] == ["KH:L:2:C"]
    assert stickers["KH:L:2:C"]["qr"] == f"KEYDOM:{registry.version}:KH:L:2:C"


def test_stickers_for_an_unknown_game_or_an_unwritable_place_are_refused(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stickers", "monopoly", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "no stickers for game 'monopoly'" in capsys.readouterr().err
    assert main(["stickers", "key-harvest", "--out", str(tmp_path / "missing" / "x.pdf")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("game, count, pages", [("keyper", 254, 7), ("key-market", 118, 3)])
def test_keyper_and_key_market_sheets_print_and_every_sticker_reads_back(
        game: str, count: int, pages: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The registry-version-3 stickers (issues 14, 15) on A4 pages: each page's codes read back as themselves."""
    out = tmp_path / f"{game}.pdf"
    assert main(["stickers", game, "--out", str(out)]) == 0
    assert len(_media_boxes(out.read_bytes())) == pages
    assert f"{count} stickers on {pages} a4 pages" in capsys.readouterr().out
    registry = load_registry()
    printed = sheet(registry, registry.for_game(game), "a4")
    reader = CodeReader(registry)
    for page, codes in zip(printed.pages, printed.codes_by_page):
        raster = np.asarray(page.convert("L"), dtype=np.uint8)
        small = cv2.resize(raster, (raster.shape[1] // 5, raster.shape[0] // 5), interpolation=cv2.INTER_AREA)
        assert sorted(d.code for d in reader.read(small).detections) == sorted(codes)


def test_every_label_fits_under_its_own_sticker_and_never_runs_into_the_next() -> None:
    """The longest titles and codes (``KP:C:GAME_WARDENS_COTTAGE:U``) are printed smaller, not across a neighbour."""
    from PIL import ImageDraw

    from companion.codes.stickers import GAP_MM, _fitted, mm_to_dots, sticker_image

    registry = load_registry()
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    too_wide = []
    for component in registry:
        room = sticker_image(component, registry.marker_family, registry).width + mm_to_dots(GAP_MM)
        for text, size in ((component.title, 2.2), (component.code, 2.0)):
            if draw.textlength(text, font=_fitted(draw, text, size, room)) > room:
                too_wide.append(text)
    assert {c.game for c in registry} >= {"keyper", "key-market"} and not too_wide
