"""Printable sticker sheets at true size: a PDF of A4 or Letter pages, or one PNG per code.

Pages are drawn at ``DPI`` = 508 dots per inch, exactly 20 dots per millimetre, so both A4
(4200 x 5940 dots) and Letter (4318 x 5588 dots) are whole numbers of dots and the PDF's page
size is exact. Pages are black and white (Pillow stores them losslessly, CCITT G4), so the
markers' edges stay sharp. Each sticker is the registry's ``sticker_mm`` square marker (its white
quiet zone included) with a QR code of the code's text payload beside it (for a hand-held scanner,
or a tile held up to the camera), corner cut marks outside the whole, marks where the QR code may be
cut off, and its title and code printed below. Every page has a QR code in its header naming the
registry version and the page, for hand-held scanners.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import qrcode
from PIL import Image, ImageDraw, ImageFont

from companion.codes.registry import CodeRegistry, Component
from companion.core.errors import MalformedInputError
from companion.vision.markers import QUIET_ZONE_MODULES, marker_image, sticker_modules

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
QR_MODULE_DOTS = 6
"""A sticker's QR module: 6 dots = 0.3 mm (12 mil), which hand-held 2D scanners read easily."""
QR_QUIET_MODULES = 2
"""White modules around a sticker's QR code (the marker's own white margin adds to it on the marker's side)."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """Pages of one paper size and the sticker each page carries."""

    paper: str
    pages: list[Image.Image]
    codes_by_page: list[list[str]]


def mm_to_dots(mm: float) -> int:
    return int(round(mm * DOTS_PER_MM))


def qr_text(registry: CodeRegistry, component: Component) -> str:
    """The payload a sticker's QR code carries: upper case, so that it fits the smallest QR code (version 1,
    alphanumeric mode, 21 modules); ``CodeRegistry.by_payload`` reads either case."""
    return component.payload(registry.payload_prefix).upper()


def qr_matrix(text: str) -> npt.NDArray[np.bool_]:
    """The QR code of ``text`` (error correction M), one element per module, True = black, no quiet zone."""
    qr = qrcode.QRCode(border=0, box_size=1, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    return np.array(qr.get_matrix(), dtype=bool)


def sticker_image(component: Component, family: str, registry: CodeRegistry | None = None) -> Image.Image:
    """One sticker at ``DPI``, black and white: the marker, exactly ``sticker_mm`` square (quiet zone included), and
    with a ``registry`` its QR code beside it (to the right, centred), the sticker as high as the marker."""
    art = marker_image(component, mm_to_dots(component.sticker_mm), family)
    if registry is not None:
        art = np.hstack([art, _qr_block(qr_text(registry, component), art.shape[0])])
    return Image.fromarray(np.where(art >= 128, 255, 0).astype(np.uint8), mode="L").convert("1", dither=Image.Dither.NONE)


def _qr_block(text: str, height: int) -> npt.NDArray[np.uint8]:
    """The QR code of ``text`` with its quiet zone, ``QR_MODULE_DOTS`` a module, centred in a white strip ``height``
    dots high (0 black, 255 white)."""
    modules = np.pad(qr_matrix(text), QR_QUIET_MODULES, constant_values=False)
    block = np.kron(np.where(modules, 0, 255).astype(np.uint8), np.ones((QR_MODULE_DOTS, QR_MODULE_DOTS), np.uint8))
    if block.shape[0] > height:
        raise MalformedInputError(f"the QR code of {text!r} is higher than its sticker")
    strip = np.full((height, block.shape[1]), 255, dtype=np.uint8)
    top = (height - block.shape[0]) // 2
    strip[top:top + block.shape[0]] = block
    return strip


Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


def sticker_layout(registry: CodeRegistry, component: Component) -> tuple[Quad, Quad]:
    """Where a printed sticker's QR code and its marker lie, in mm from the sticker's top-left corner (x right,
    y down): the QR symbol's corners and the marker's black square's corners, each top-left, top-right,
    bottom-right, bottom-left (so a QR code read gives the marker's corners, ``companion.vision.qr``)."""
    side = mm_to_dots(component.sticker_mm)
    modules = qr_matrix(qr_text(registry, component)).shape[0]
    block = (modules + 2 * QR_QUIET_MODULES) * QR_MODULE_DOTS
    left = side + QR_QUIET_MODULES * QR_MODULE_DOTS
    top = (side - block) // 2 + QR_QUIET_MODULES * QR_MODULE_DOTS
    symbol = modules * QR_MODULE_DOTS
    edge = side * QUIET_ZONE_MODULES / sticker_modules(registry.marker_family)
    return (_square(left / DOTS_PER_MM, top / DOTS_PER_MM, symbol / DOTS_PER_MM),
            _square(edge / DOTS_PER_MM, edge / DOTS_PER_MM, (side - 2 * edge) / DOTS_PER_MM))


def _square(x: float, y: float, side: float) -> Quad:
    return ((x, y), (x + side, y), (x + side, y + side), (x, y + side))


def sticker_mm(registry: CodeRegistry, component: Component) -> tuple[float, float]:
    """The printed sticker's width and height in mm: the marker square and its QR code beside it."""
    width, height = sticker_image(component, registry.marker_family, registry).size
    return width / DOTS_PER_MM, height / DOTS_PER_MM


def sheet(registry: CodeRegistry, components: Sequence[Component], paper: str = "a4") -> Sheet:
    """Lay ``components`` out on pages of ``paper`` ("a4" or "letter"), rows left to right."""
    if paper not in PAPERS_MM:
        raise MalformedInputError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    if not components:
        raise MalformedInputError("no stickers to print")
    width_mm, height_mm = PAPERS_MM[paper]
    sizes = [sticker_mm(registry, c) for c in components]
    pitch_x = max(w for w, _ in sizes) + 2 * (CUT_GAP_MM + CUT_MARK_MM) + GAP_MM
    pitch_y = max(h for _, h in sizes) + 2 * (CUT_GAP_MM + CUT_MARK_MM) + GAP_MM + LABEL_MM
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
        image = sticker_image(component, registry.marker_family, registry)
        image.save(folder / name, dpi=(DPI, DPI))
        stickers[component.code] = {"file": name, "size_mm": component.sticker_mm, "size_px": image.height,
                                    "width_mm": image.width / DOTS_PER_MM, "height_mm": image.height / DOTS_PER_MM,
                                    "qr": qr_text(registry, component), "title": component.title,
                                    "marker_id": component.marker_id, "provisional": component.provisional}
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
    modules = qr_matrix(text)
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
    """The sticker with its top-left corner at ``(left_mm, top_mm)``, cut marks, the marks where its QR code may be
    cut off (above and below the marker's edge) and its label."""
    image = sticker_image(component, registry.marker_family, registry)
    x, y = mm_to_dots(left_mm), mm_to_dots(top_mm)
    page.paste(image, (x, y))
    width, height, gap, mark = image.width, image.height, mm_to_dots(CUT_GAP_MM), mm_to_dots(CUT_MARK_MM)
    for cx, cy in ((x, y), (x + width, y), (x, y + height), (x + width, y + height)):
        out_x = -1 if cx == x else 1
        out_y = -1 if cy == y else 1
        draw.line([(cx + out_x * gap, cy), (cx + out_x * (gap + mark), cy)], fill=0, width=2)
        draw.line([(cx, cy + out_y * gap), (cx, cy + out_y * (gap + mark))], fill=0, width=2)
    split = x + mm_to_dots(component.sticker_mm)
    draw.line([(split, y - gap), (split, y - gap - mark)], fill=0, width=2)
    draw.line([(split, y + height + gap), (split, y + height + gap + mark)], fill=0, width=2)
    label_y = y + height + gap + mark + mm_to_dots(0.5)
    title = component.title + (" *" if component.provisional else "")
    room = width + mm_to_dots(GAP_MM)
    draw.text((x, label_y), title, font=_fitted(draw, title, 2.2, room), fill=0)
    draw.text((x, label_y + mm_to_dots(2.6)), component.code, font=_fitted(draw, component.code, 2.0, room), fill=0)


def _fitted(draw: ImageDraw.ImageDraw, text: str, size_mm: float, width: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font of at most ``size_mm`` in which ``text`` fits ``width`` dots, so a long label never runs into the next
    sticker's (down to 1.2 mm; the code is also in the QR code and the marker)."""
    size = size_mm
    while size > 1.2 and draw.textlength(text, font=_font(size)) > width:
        size -= 0.1
    return _font(size)
