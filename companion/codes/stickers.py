"""Printable sticker sheets at true size: a PDF of A4 or Letter pages, or one PNG per code.

Pages are drawn at ``DPI`` = 508 dots per inch, exactly 20 dots per millimetre, so both A4
(4200 x 5940 dots) and Letter (4318 x 5588 dots) are whole numbers of dots and the PDF's page
size is exact. Pages are black and white (Pillow stores them losslessly, CCITT G4), so the
markers' edges stay sharp. Each sticker is the registry's ``sticker_mm`` square (its white quiet
zone included) with corner cut marks outside it and its title and code printed below. Every page
has a QR code in its header naming the registry version and the page, for hand-held scanners.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import qrcode
from PIL import Image, ImageDraw, ImageFont

from companion.codes.registry import CodeRegistry, Component
from companion.core.errors import MalformedInputError
from companion.vision.markers import marker_image

DPI = 508
DOTS_PER_MM = DPI / 25.4  # 20.0
PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0
HEADER_MM = 22.0
CUT_GAP_MM = 1.0
"""Cut marks start this far outside the sticker's edge, so a slightly off cut keeps the quiet zone white."""
CUT_MARK_MM = 2.5
LABEL_MM = 5.5
"""Room below each sticker for its title and code."""
GAP_MM = 2.0


@dataclass(frozen=True, slots=True)
class Sheet:
    """Pages of one paper size and the sticker each page carries."""

    paper: str
    pages: list[Image.Image]
    codes_by_page: list[list[str]]


def mm_to_dots(mm: float) -> int:
    return int(round(mm * DOTS_PER_MM))


def sticker_image(component: Component, family: str) -> Image.Image:
    """One sticker at ``DPI``, exactly ``sticker_mm`` square (quiet zone included), black and white."""
    art = marker_image(component, mm_to_dots(component.sticker_mm), family)
    return Image.fromarray(np.where(art >= 128, 255, 0).astype(np.uint8), mode="L").convert("1", dither=Image.Dither.NONE)


def sheet(registry: CodeRegistry, components: Sequence[Component], paper: str = "a4") -> Sheet:
    """Lay ``components`` out on pages of ``paper`` ("a4" or "letter"), rows left to right."""
    if paper not in PAPERS_MM:
        raise MalformedInputError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    if not components:
        raise MalformedInputError("no stickers to print")
    width_mm, height_mm = PAPERS_MM[paper]
    size_mm = max(c.sticker_mm for c in components)
    pitch_x = size_mm + 2 * (CUT_GAP_MM + CUT_MARK_MM) + GAP_MM
    pitch_y = pitch_x + LABEL_MM
    columns = int((width_mm - 2 * MARGIN_MM) // pitch_x)
    rows = int((height_mm - 2 * MARGIN_MM - HEADER_MM) // pitch_y)
    per_page = columns * rows
    chunks = [list(components[i:i + per_page]) for i in range(0, len(components), per_page)]
    pages: list[Image.Image] = []
    for number, chunk in enumerate(chunks, start=1):
        page = Image.new("1", (mm_to_dots(width_mm), mm_to_dots(height_mm)), 1)
        draw = ImageDraw.Draw(page)
        _header(page, draw, registry, chunk, number, len(chunks))
        for n, component in enumerate(chunk):
            left = MARGIN_MM + (n % columns) * pitch_x + CUT_GAP_MM + CUT_MARK_MM
            top = MARGIN_MM + HEADER_MM + (n // columns) * pitch_y + CUT_GAP_MM + CUT_MARK_MM
            _sticker(page, draw, registry, component, left, top)
        pages.append(page)
    return Sheet(paper, pages, [[c.code for c in chunk] for chunk in chunks])


def write_pdf(sheet_: Sheet, path: Path) -> None:
    """The sheet as a multi-page PDF at true size."""
    first, *rest = sheet_.pages
    first.save(path, "PDF", resolution=float(DPI), save_all=True, append_images=rest,
               title="Keydom Companion stickers", creator="companion stickers")


def write_pngs(registry: CodeRegistry, components: Sequence[Component], folder: Path) -> Path:
    """One PNG per code (at ``DPI``, its physical size in the file) and ``stickers.json``; returns the JSON's path."""
    folder.mkdir(parents=True, exist_ok=True)
    index: dict[str, object] = {"registry_version": registry.version, "marker_family": registry.marker_family,
                                "dpi": DPI, "stickers": {}}
    stickers: dict[str, object] = {}
    for component in components:
        name = component.code.replace(":", "_") + ".png"
        image = sticker_image(component, registry.marker_family)
        image.save(folder / name, dpi=(DPI, DPI))
        stickers[component.code] = {"file": name, "size_mm": component.sticker_mm, "size_px": image.width,
                                    "title": component.title, "marker_id": component.marker_id,
                                    "provisional": component.provisional}
    index["stickers"] = stickers
    path = folder / "stickers.json"
    path.write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    return path


def _font(size_mm: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=mm_to_dots(size_mm))


def _header(page: Image.Image, draw: ImageDraw.ImageDraw, registry: CodeRegistry, chunk: Sequence[Component],
            number: int, pages: int) -> None:
    """Title, registry version and page, and a QR code carrying the same (for hand-held scanners)."""
    games = sorted({c.game for c in chunk})
    text = f"{registry.payload_prefix}SHEET:{'+'.join(games)}:{number}/{pages}"
    qr = qrcode.QRCode(border=0, box_size=1, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    modules = np.array(qr.get_matrix(), dtype=bool)
    side = mm_to_dots(HEADER_MM - 4)
    qr_image = Image.fromarray(np.where(modules, 0, 255).astype(np.uint8), mode="L").resize((side, side), Image.Resampling.NEAREST)
    page.paste(qr_image.convert("1"), (page.width - mm_to_dots(MARGIN_MM) - side, mm_to_dots(MARGIN_MM)))
    x, y = mm_to_dots(MARGIN_MM), mm_to_dots(MARGIN_MM)
    draw.text((x, y), f"Keydom Companion stickers: {', '.join(games)}", font=_font(5), fill=0)
    draw.text((x, y + mm_to_dots(7)), f"registry version {registry.version} ({registry.marker_family}), page {number} of {pages}",
              font=_font(3.2), fill=0)
    draw.text((x, y + mm_to_dots(12)), "Print at 100 % (no 'fit to page'). Cut at the corner marks. See docs/stickers.md.",
              font=_font(3.2), fill=0)
    if any(c.provisional for c in chunk):
        draw.text((x, y + mm_to_dots(16.5)), "* provisional size: measure your tiles first (docs/stickers.md)", font=_font(3.2), fill=0)


def _sticker(page: Image.Image, draw: ImageDraw.ImageDraw, registry: CodeRegistry, component: Component,
             left_mm: float, top_mm: float) -> None:
    """The sticker with its top-left corner at ``(left_mm, top_mm)``, cut marks and label."""
    image = sticker_image(component, registry.marker_family)
    x, y = mm_to_dots(left_mm), mm_to_dots(top_mm)
    page.paste(image, (x, y))
    size, gap, mark = image.width, mm_to_dots(CUT_GAP_MM), mm_to_dots(CUT_MARK_MM)
    for cx, cy in ((x, y), (x + size, y), (x, y + size), (x + size, y + size)):
        out_x = -1 if cx == x else 1
        out_y = -1 if cy == y else 1
        draw.line([(cx + out_x * gap, cy), (cx + out_x * (gap + mark), cy)], fill=0, width=2)
        draw.line([(cx, cy + out_y * gap), (cx, cy + out_y * (gap + mark))], fill=0, width=2)
    label_y = y + size + gap + mark + mm_to_dots(0.5)
    title = component.title + (" *" if component.provisional else "")
    draw.text((x, label_y), title, font=_font(2.2), fill=0)
    draw.text((x, label_y + mm_to_dots(2.6)), component.code, font=_font(2.0), fill=0)
