"""Synthetic tabletop photos with known ground truth, for the code reader's tests and benchmark.

A scene is a flat table (the plane z = 0, millimetres, x to the right and y down as drawn) with a
printed board, hex tiles, worker and event tokens, each carrying its code sticker, photographed by
a pinhole camera 60-80 cm above it (the "table-" presets: the whole table from 1.3-1.7 m, see tables.py). The
picture is rendered at twice the output size and area-averaged down to 1920x1080 (tables: 3840x2160), then lit
(gradient, shadow, glare), blurred (focus, motion), noised and JPEG-compressed.

Usage::

    placements = [Placement.at_hex("KH:F:A1:U", q=0, r=0), Placement("KH:E:M", x_mm=120, y_mm=-40)]
    scene = render_scene(placements, registry, difficulty="hard", seed=7)
    scene.image          # 1080x1920x3 BGR uint8
    scene.truth          # {"KH:F:A1:U": (x_px, y_px), ...}: each visible sticker's true centre
    scene.score(read_codes(scene.image, registry))   # found / missed / false reads

or ``random_scene(registry, tiles=30, difficulty="medium", seed=3)`` for a player's board of 30
field tiles (either side up, at the Key Harvest layout's spaces) plus a few workers and events.

Hex coordinates are axial ``(q, r)`` of pointy-top hexes: centre ``x = pitch * (q + r / 2)``,
``y = pitch * r * sqrt(3) / 2``. Everything is drawn from one ``numpy`` generator seeded with
``seed``, so a scene is the same on every run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry, Component
from companion.codes.stickers import DOTS_PER_MM, sticker_image
from companion.vision.detection import Detection
from companion.vision.markers import marker_image

SUPERSAMPLE = 2
TEXTURE_PX_PER_MM = 4.0
HEX_PITCH_MM = 27.0
"""Centre distance of neighbouring board spaces (25 mm tiles with a 2 mm gap)."""
TILE_MM = 25.0
"""A hex tile's width across flats."""
STICKER_WHITE_BORDER_MM = 0.6
"""The sticker paper's extra white margin around the printed artwork (a little cut slack)."""

Image = npt.NDArray[np.uint8]
Pixel = tuple[float, float]

CROP_BGR = [(40, 70, 120), (60, 150, 70), (40, 140, 230), (60, 40, 150), (70, 200, 230)]
"""Tile colours: hops brown, vegetables green, apples orange, wine red, wheat yellow."""
SEAT_BGR = [(200, 80, 30), (30, 30, 200), (40, 160, 40), (20, 200, 230)]


@dataclass(frozen=True, slots=True)
class Difficulty:
    """Ranges the scene's camera, light and image damage are drawn from."""

    height_mm: tuple[float, float]
    tilt_deg: tuple[float, float]
    hfov_deg: tuple[float, float]
    blur_px: tuple[float, float]
    noise: tuple[float, float]
    jpeg_quality: tuple[int, int]
    gradient: tuple[float, float]
    """The darkest corner's brightness relative to the brightest."""
    shadow: float
    """How dark a shadow gets (0: no shadow, 0.5: half the light)."""
    px_per_mm: tuple[float, float] | None = None
    """If given, the scale at the aimed point (the lens follows from it and the height) instead of ``hfov_deg``."""
    cast_shadow: bool = False
    """The shadow is a hard-edged band (an arm or a lamp's edge, 2-6 px soft) instead of a soft ellipse."""
    motion_px: tuple[float, float] = (0.0, 0.0)
    """Length of a straight motion blur (a hand-held or moving camera), in pixels."""
    glare: tuple[float, float] = (0.0, 0.0)
    """Strength of 1-3 uneven glare patches (0: none, 0.8: 80 % of the way to white at their centre)."""
    size: tuple[int, int] = (1920, 1080)
    """The frame's width and height in pixels."""
    reach_mm: float = 350.0
    """How far from the aimed point the table is drawn."""


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty((600, 700), (0, 8), (48, 56), (0.0, 0.5), (1, 2), (90, 95), (0.9, 1.0), 0.0),
    "medium": Difficulty((600, 800), (5, 15), (48, 56), (0.5, 1.0), (2, 4), (80, 92), (0.75, 0.9), 0.35),
    "hard": Difficulty((600, 800), (15, 25), (48, 56), (1.0, 1.5), (3, 6), (70, 80), (0.6, 0.8), 0.5),
    "harder": Difficulty((600, 800), (15, 25), (48, 56), (1.0, 1.5), (3, 6), (70, 80), (0.4, 0.55), 0.5,
                         px_per_mm=(2.0, 2.6), cast_shadow=True),
    "hardest": Difficulty((600, 800), (15, 25), (48, 56), (1.0, 1.5), (4, 7), (60, 60), (0.4, 0.55), 0.5,
                          px_per_mm=(2.0, 2.6), cast_shadow=True, motion_px=(1.5, 4.0), glare=(0.4, 0.75)),
    "table-easy": Difficulty((1300, 1500), (0, 5), (0, 0), (0.0, 0.5), (1, 2), (90, 95), (0.85, 1.0), 0.0,
                             px_per_mm=(1.85, 2.45), size=(3840, 2160), reach_mm=1100.0),
    "table-medium": Difficulty((1300, 1700), (3, 12), (0, 0), (0.5, 1.0), (2, 4), (80, 92), (0.7, 0.9), 0.35,
                               px_per_mm=(1.85, 2.45), size=(3840, 2160), reach_mm=1100.0),
    "table-hard": Difficulty((1300, 1700), (8, 18), (0, 0), (1.0, 1.5), (3, 6), (70, 80), (0.5, 0.7), 0.5,
                             px_per_mm=(1.85, 2.45), cast_shadow=True, size=(3840, 2160), reach_mm=1100.0),
}
"""The presets: easy (near, straight down, sharp), medium, hard (15-25 degrees tilt, blur 1-1.5 px, shadow).

The lens (48-56 degrees across 1920 px) puts a 16 mm sticker at about 32-57 px: the range the issue measured.
"harder" is issue 16's hard scene: 16 mm stickers at 2.0-2.6 px/mm (32-42 px), a strong light gradient and a
hard-edged cast shadow; "hardest" adds motion blur, JPEG at quality 60 and uneven glare. The "table-" presets
photograph the whole table in a 3840x2160 frame from 1.3-1.7 m (16 mm stickers at about 29-39 px).
"""


@dataclass(frozen=True, slots=True)
class Placement:
    """One sticker on the table: its code, its centre on the table in mm and its rotation."""

    code: str
    x_mm: float
    y_mm: float
    rotation_deg: float = 0.0

    @classmethod
    def at_hex(cls, code: str, q: int, r: int, pitch_mm: float = HEX_PITCH_MM, rotation_deg: float = 0.0) -> Placement:
        """A sticker on the hex tile at axial ``(q, r)`` of a board with spaces ``pitch_mm`` apart."""
        x, y = hex_centre_mm(q, r, pitch_mm)
        return cls(code, x, y, rotation_deg)


@dataclass(frozen=True, slots=True)
class PrintedBoard:
    """A printed board lying on the table: its centre and size in mm, turned by ``rotation_deg``."""

    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float
    rotation_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class Decoy:
    """Something printed on the table that is not one of the registry's stickers (a foreign marker, a QR code)."""

    artwork: Image
    x_mm: float
    y_mm: float
    size_mm: float
    rotation_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a reading compares with a scene's truth."""

    found: list[str]
    missed: list[str]
    false_reads: list[Detection]


@dataclass(slots=True)
class Scene:
    """A rendered photo and what is really in it."""

    image: Image
    truth: dict[str, Pixel]
    """Each sticker wholly in the frame: its code and true centre in pixels."""
    sticker_px: dict[str, float]
    """Each visible sticker's apparent side (the printed square, quiet zone included) in pixels."""
    difficulty: str
    seed: int
    camera: dict[str, float] = field(default_factory=dict)
    cut_off: dict[str, tuple[Pixel, float]] = field(default_factory=dict)
    """Stickers partly outside the frame: true centre and size. Reading them is allowed, not required."""

    def score(self, detections: Sequence[Detection]) -> Outcome:
        """Found: true codes read within a third of a sticker of their centre; false: any other read
        (a read of a sticker cut off by the frame's edge, where it lies, is neither)."""
        found: list[str] = []
        false_reads: list[Detection] = []
        for detection in detections:
            if detection.code in self.cut_off:
                (x, y), side = self.cut_off[detection.code]
                if math.dist((x, y), detection.center) > side / 3:
                    false_reads.append(detection)
                continue
            centre = self.truth.get(detection.code)
            if centre is None or math.dist(centre, detection.center) > self.sticker_px[detection.code] / 3:
                false_reads.append(detection)
            elif detection.code not in found:
                found.append(detection.code)
            else:
                false_reads.append(detection)  # the same sticker reported twice
        missed = [code for code in self.truth if code not in found]
        return Outcome(found, missed, false_reads)


def hex_centre_mm(q: int, r: int, pitch_mm: float = HEX_PITCH_MM) -> tuple[float, float]:
    """The table position of axial hex ``(q, r)`` (pointy-top hexes, ``pitch_mm`` apart)."""
    return pitch_mm * (q + r / 2.0), pitch_mm * r * math.sqrt(3) / 2.0


def random_scene(registry: CodeRegistry, tiles: int, difficulty: str = "medium", seed: int = 0,
                 workers: int = 3, events: int = 2, decoys: Sequence[Decoy] = (), printed: bool = False) -> Scene:
    """A player's board: ``tiles`` field tiles (random labels, random side up) at their layout spaces,
    with ``workers`` labourer/townsfolk tokens and ``events`` event tiles laid beside the board (``printed``: see
    ``render_scene``)."""
    from companion.games.key_harvest import KeyHarvest

    rng = np.random.default_rng([seed, 1])
    layout = KeyHarvest().layout
    chosen = sorted(rng.choice(layout.size, size=min(tiles, layout.size), replace=False).tolist())
    placements = [Placement.at_hex(f"KH:F:{layout.labels[i]}:{'UH'[int(rng.integers(2))]}", *layout.coords[i],
                                   rotation_deg=float(rng.uniform(0, 360))) for i in chosen]
    xs = [hex_centre_mm(*c)[0] for c in layout.coords]
    ys = [hex_centre_mm(*c)[1] for c in layout.coords]
    people = [c for c in registry.for_game("key-harvest") if c.kind in ("labourer", "townsfolk")]
    event_tiles = [c for c in registry.for_game("key-harvest") if c.kind == "event"]
    extras = [people[int(i)] for i in rng.choice(len(people), size=workers, replace=False)]
    extras += [event_tiles[int(i)] for i in rng.choice(len(event_tiles), size=events, replace=False)]
    for n, component in enumerate(extras):  # a row of tokens below the board
        x = min(xs) + n * 34.0 + float(rng.uniform(-3, 3))
        y = max(ys) + 40.0 + float(rng.uniform(-4, 4))
        placements.append(Placement(component.code, x, y, float(rng.uniform(0, 360))))
    return render_scene(placements, registry, difficulty, seed, decoys=decoys, printed=printed)


def render_scene(placements: Sequence[Placement], registry: CodeRegistry, difficulty: str = "medium", seed: int = 0,
                 decoys: Sequence[Decoy] = (), aim_mm: tuple[float, float] | None = None,
                 boards: Sequence[PrintedBoard] | None = None, printed: bool = False) -> Scene:
    """Photograph the table with ``placements`` (and ``decoys``) at ``difficulty`` (a key of ``DIFFICULTIES``),
    the camera aimed within 30 mm of ``aim_mm`` (default: the stickers' mean position). ``boards``: the printed
    boards under the pieces (default: one board around the field tiles). ``printed``: each piece carries the
    sticker as ``companion stickers`` prints it, its QR code beside the marker (default: the marker alone)."""
    preset = DIFFICULTIES[difficulty]
    rng = np.random.default_rng([seed, 2])
    components = [registry.by_code(p.code) for p in placements]
    if aim_mm is not None:
        centre = aim_mm
    else:
        centre = (float(np.mean([p.x_mm for p in placements])) if placements else 0.0,
                  float(np.mean([p.y_mm for p in placements])) if placements else 0.0)
    homography, camera = _camera(preset, rng, (float(centre[0]), float(centre[1])))
    width, height = preset.size

    origin, size = _table_window(homography, centre, preset)
    texture = _draw_table(rng, origin, size, placements, components, decoys, registry, boards, printed)
    to_texture = np.array([[TEXTURE_PX_PER_MM, 0, -origin[0] * TEXTURE_PX_PER_MM],
                           [0, TEXTURE_PX_PER_MM, -origin[1] * TEXTURE_PX_PER_MM], [0, 0, 1]])
    upscale = np.diag([SUPERSAMPLE, SUPERSAMPLE, 1.0])
    warp = upscale @ homography @ np.linalg.inv(to_texture)
    table_colour = tuple(int(v) for v in texture[0, 0])
    big = cv2.warpPerspective(texture, warp, (width * SUPERSAMPLE, height * SUPERSAMPLE), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=table_colour)
    image = cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    image = _light(image, preset, rng)
    image = _damage(image, preset, rng)

    truth: dict[str, Pixel] = {}
    sticker_px: dict[str, float] = {}
    cut_off: dict[str, tuple[Pixel, float]] = {}
    for placement, component in zip(placements, components):
        corners = _project(homography, _square(placement.x_mm, placement.y_mm, component.sticker_mm, placement.rotation_deg))
        cx, cy = _project(homography, np.array([[placement.x_mm, placement.y_mm]]))[0]
        side = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
        if np.all((corners[:, 0] > 2) & (corners[:, 0] < width - 2) & (corners[:, 1] > 2) & (corners[:, 1] < height - 2)):
            truth[component.code] = (float(cx), float(cy))
            sticker_px[component.code] = side
        else:
            cut_off[component.code] = ((float(cx), float(cy)), side)
    return Scene(image, truth, sticker_px, difficulty, seed, camera, cut_off)


def _camera(preset: Difficulty, rng: np.random.Generator, target: tuple[float, float]) -> tuple[npt.NDArray[np.float64], dict[str, float]]:
    """A pinhole camera above ``target``: the table-mm-to-pixel homography and its parameters."""
    width, frame_height = preset.size
    height = rng.uniform(*preset.height_mm)
    tilt = math.radians(rng.uniform(*preset.tilt_deg))
    azimuth = rng.uniform(0, 2 * math.pi)
    roll = rng.uniform(0, 2 * math.pi)
    hfov = math.radians(rng.uniform(*preset.hfov_deg))
    look_at = np.array([target[0] + rng.uniform(-30, 30), target[1] + rng.uniform(-30, 30), 0.0])
    distance = height / math.cos(tilt)
    if preset.px_per_mm is not None:  # the scale at the aimed point fixes the lens
        focal = rng.uniform(*preset.px_per_mm) * distance
    else:
        focal = (width / 2) / math.tan(hfov / 2)
    position = look_at + distance * np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), -math.cos(tilt)])
    forward = (look_at - position) / np.linalg.norm(look_at - position)
    right = np.array([math.cos(roll), math.sin(roll), 0.0])
    right = right - forward * float(right @ forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)  # x right, y down, z forward: a proper rotation, so nothing is mirrored
    rotation = np.stack([right, down, forward])
    intrinsics = np.array([[focal, 0, width / 2], [0, focal, frame_height / 2], [0, 0, 1]])
    translation = -rotation @ position
    homography = intrinsics @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    camera = {"height_mm": float(height), "tilt_deg": math.degrees(tilt), "focal_px": focal}
    return homography / homography[2, 2], camera


def _project(homography: npt.NDArray[np.float64], points_mm: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    pts = cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2).astype(np.float64), homography)
    return np.asarray(pts.reshape(-1, 2), dtype=np.float64)


def _square(x: float, y: float, side: float, rotation_deg: float) -> npt.NDArray[np.float64]:
    """The corners of a square of ``side`` mm centred on ``(x, y)``, turned by ``rotation_deg``."""
    a = math.radians(rotation_deg)
    half = side / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(local @ turn.T + np.array([x, y]), dtype=np.float64)


def _table_window(homography: npt.NDArray[np.float64], centre: tuple[float, float],
                  preset: Difficulty) -> tuple[tuple[float, float], tuple[float, float]]:
    """The part of the table the camera sees (clipped to ``reach_mm`` around the board), as origin and size in mm."""
    width, height = preset.size
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    seen = _project(np.linalg.inv(homography), frame)
    low = np.maximum(seen.min(axis=0), np.array(centre) - preset.reach_mm)
    high = np.minimum(seen.max(axis=0), np.array(centre) + preset.reach_mm)
    return (float(low[0]), float(low[1])), (float(high[0] - low[0]), float(high[1] - low[1]))


def _draw_table(rng: np.random.Generator, origin: tuple[float, float], size: tuple[float, float],
                placements: Sequence[Placement], components: Sequence[Component], decoys: Sequence[Decoy],
                registry: CodeRegistry, boards: Sequence[PrintedBoard] | None = None, printed: bool = False) -> Image:
    """The table seen from straight above at ``TEXTURE_PX_PER_MM``: board, art, tiles, tokens, stickers."""
    scale = TEXTURE_PX_PER_MM
    w, h = int(size[0] * scale) + 1, int(size[1] * scale) + 1
    wood = np.array([rng.uniform(60, 110), rng.uniform(90, 140), rng.uniform(120, 170)])
    canvas = np.empty((h, w, 3), dtype=np.uint8)
    canvas[:] = wood.astype(np.uint8)
    grain = rng.normal(0, 6, size=(h // 8 + 1, 1, 1)).repeat(8, axis=0)[:h]
    canvas = np.clip(canvas.astype(np.int16) + grain.astype(np.int16), 0, 255).astype(np.uint8)

    def px(x_mm: float, y_mm: float) -> tuple[int, int]:
        return int(round((x_mm - origin[0]) * scale)), int(round((y_mm - origin[1]) * scale))

    fields = [p for p, c in zip(placements, components) if c.kind == "field"]
    if boards is None and fields:  # the printed board under the field tiles
        xs, ys = [p.x_mm for p in fields], [p.y_mm for p in fields]
        boards = [PrintedBoard((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs) + 80,
                               max(ys) - min(ys) + 80)]
    for board in boards or ():
        corners = cv2.boxPoints(((board.x_mm, board.y_mm), (board.width_mm, board.height_mm), board.rotation_deg))
        outline = np.array([px(float(x), float(y)) for x, y in corners], dtype=np.int32)
        cv2.fillPoly(canvas, [outline], (int(rng.uniform(120, 180)), int(rng.uniform(170, 210)), int(rng.uniform(170, 220))))
        inside = np.zeros(canvas.shape[:2], dtype=np.uint8)
        cv2.fillPoly(inside, [outline], 255)
        art = canvas.copy()
        _board_art(art, rng, px, (float(corners[:, 0].min()), float(corners[:, 1].min()),
                                  float(corners[:, 0].max()), float(corners[:, 1].max())))
        canvas[inside > 0] = art[inside > 0]  # the print stays on its board

    for placement, component in zip(placements, components):
        centre = px(placement.x_mm, placement.y_mm)
        if component.kind == "field":
            colour = CROP_BGR[int(rng.integers(len(CROP_BGR)))]
            if component.side == "harvested":
                colour = tuple(int(c * 0.6 + 60) for c in colour)
            _hexagon(canvas, centre, TILE_MM / math.sqrt(3) * scale, colour, float(rng.uniform(-4, 4)))
            _tile_art(canvas, rng, centre, scale)
        elif component.kind == "event":
            _hexagon(canvas, centre, TILE_MM / math.sqrt(3) * scale, (230, 230, 225), float(rng.uniform(-4, 4)))
            cv2.circle(canvas, centre, int(11.5 * scale), (20, 20, 20), 2)
        else:
            cv2.circle(canvas, centre, int(13 * scale), SEAT_BGR[(component.group or 1) - 1], -1)
        if printed:
            _paste_printed(canvas, component, registry, centre, placement.rotation_deg, scale)
        else:
            art = marker_image(component, _art_px(component.sticker_mm), registry.marker_family)
            _paste(canvas, art, centre, component.sticker_mm + 2 * STICKER_WHITE_BORDER_MM, placement.rotation_deg,
                   scale)
    for decoy in decoys:
        _paste(canvas, decoy.artwork, px(decoy.x_mm, decoy.y_mm), decoy.size_mm, decoy.rotation_deg, scale, border=False)
    return canvas


def _art_px(sticker_mm: float) -> int:
    """The artwork size at the texture resolution (a whole number of texture pixels per module)."""
    return max(8, int(round(sticker_mm * TEXTURE_PX_PER_MM / 8)) * 8)


def _paste(canvas: Image, art: Image, centre: tuple[int, int], size_mm: float, rotation_deg: float, scale: float,
           border: bool = True) -> None:
    """Stick grey ``art`` (with, if ``border``, the paper's white margin) centred on ``centre``, turned."""
    margin = int(round(STICKER_WHITE_BORDER_MM * scale)) if border else 0
    paper = cv2.copyMakeBorder(art, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)
    side = size_mm * scale
    a = math.radians(rotation_deg)
    k = side / paper.shape[0]
    turn = np.array([[k * math.cos(a), -k * math.sin(a)], [k * math.sin(a), k * math.cos(a)]])
    half = (paper.shape[0] - 1) / 2
    _stick(canvas, paper, centre, turn, np.array([half, half]), int(side * 0.75) + 2, cv2.INTER_LINEAR)


def _stick(canvas: Image, paper: Image, centre: tuple[int, int], turn: npt.NDArray[np.float64],
           anchor: npt.NDArray[np.float64], reach: int, interpolation: int) -> None:
    """Lay grey ``paper`` on ``canvas`` scaled and turned by ``turn``, its point ``anchor`` on ``centre`` (drawn
    within ``reach`` pixels of it)."""
    left, top = max(0, centre[0] - reach), max(0, centre[1] - reach)
    right, bottom = min(canvas.shape[1], centre[0] + reach), min(canvas.shape[0], centre[1] + reach)
    if right <= left or bottom <= top:
        return
    matrix = np.hstack([turn, (np.array(centre) - turn @ anchor - np.array([left, top]))[:, None]])
    size = (right - left, bottom - top)
    warped = cv2.warpAffine(paper, matrix, size, flags=interpolation, borderValue=0)
    mask = cv2.warpAffine(np.full_like(paper, 255), matrix, size, flags=interpolation, borderValue=0)
    alpha = mask.astype(np.float32)[:, :, None] / 255.0
    roi = canvas[top:bottom, left:right]
    roi[:] = (roi.astype(np.float32) * (1 - alpha) + warped.astype(np.float32)[:, :, None] * alpha).astype(np.uint8)


def _paste_printed(canvas: Image, component: Component, registry: CodeRegistry, centre: tuple[int, int],
                   rotation_deg: float, scale: float) -> None:
    """Stick the printed sticker of ``component`` (``sticker_image``: the marker and its QR code to the right, with
    the paper's white margin) on ``canvas``, the marker's centre on ``centre``, turned."""
    art = np.asarray(sticker_image(component, registry.marker_family, registry).convert("L"), dtype=np.uint8)
    margin = int(round(STICKER_WHITE_BORDER_MM * DOTS_PER_MM))
    paper = cv2.copyMakeBorder(art, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)
    k, a = scale / DOTS_PER_MM, math.radians(rotation_deg)
    turn = np.array([[k * math.cos(a), -k * math.sin(a)], [k * math.sin(a), k * math.cos(a)]])
    marker_centre = np.array([margin + component.sticker_mm * DOTS_PER_MM / 2, paper.shape[0] / 2])
    _stick(canvas, paper, centre, turn, marker_centre, int(max(paper.shape) * k) + 2, cv2.INTER_AREA)


def _hexagon(canvas: Image, centre: tuple[int, int], radius: float, colour: Sequence[int], turn_deg: float) -> None:
    corners = [(centre[0] + radius * math.cos(math.radians(30 + 60 * k + turn_deg)),
                centre[1] + radius * math.sin(math.radians(30 + 60 * k + turn_deg))) for k in range(6)]
    polygon = np.array(corners, dtype=np.int32)
    cv2.fillPoly(canvas, [polygon], tuple(int(c) for c in colour), lineType=cv2.LINE_AA)
    cv2.polylines(canvas, [polygon], True, (30, 30, 30), 1, lineType=cv2.LINE_AA)


def _tile_art(canvas: Image, rng: np.random.Generator, centre: tuple[int, int], scale: float) -> None:
    """Crop pictograms around the sticker: dots, strokes and small black squares."""
    for _ in range(int(rng.integers(2, 6))):
        angle = rng.uniform(0, 2 * math.pi)
        reach = rng.uniform(9.5, 11.5) * scale
        x, y = int(centre[0] + reach * math.cos(angle)), int(centre[1] + reach * math.sin(angle))
        kind = int(rng.integers(3))
        if kind == 0:
            cv2.circle(canvas, (x, y), int(rng.uniform(0.6, 1.2) * scale), (20, 20, 20), -1)
        elif kind == 1:
            s = int(rng.uniform(1.0, 2.0) * scale)
            cv2.rectangle(canvas, (x - s, y - s), (x + s, y + s), (15, 15, 15), -1)
        else:
            cv2.line(canvas, (x, y), (x + int(rng.uniform(-8, 8)), y + int(rng.uniform(-8, 8))), (240, 240, 240), 2)


def _board_art(canvas: Image, rng: np.random.Generator, px: Callable[[float, float], tuple[int, int]], box: tuple[float, float, float, float]) -> None:
    """The board's print: lines, text, and small black squares, some with white inside."""
    x0, y0, x1, y1 = box
    for _ in range(40):
        a, b = px(rng.uniform(x0, x1), rng.uniform(y0, y1)), px(rng.uniform(x0, x1), rng.uniform(y0, y1))
        cv2.line(canvas, a, b, tuple(int(v) for v in rng.integers(30, 200, 3)), int(rng.integers(1, 4)), cv2.LINE_AA)
    for _ in range(12):
        cv2.putText(canvas, "".join(rng.choice(list("KEYDOMHARVST0123456789"), 6)), px(rng.uniform(x0, x1), rng.uniform(y0, y1)),
                    cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.8, 1.8), (20, 20, 20), 2, cv2.LINE_AA)
    for _ in range(int(rng.integers(40, 80))):  # the small black squares that fooled the default detector
        side = rng.uniform(2.0, 14.0) * TEXTURE_PX_PER_MM
        cx, cy = px(rng.uniform(x0, x1), rng.uniform(y0, y1))
        box_points = cv2.boxPoints(((cx, cy), (side, side), rng.uniform(0, 90))).astype(np.int32)
        cv2.fillPoly(canvas, [box_points], (12, 12, 12), lineType=cv2.LINE_AA)
        if side > 6 * TEXTURE_PX_PER_MM and rng.random() < 0.6:  # an icon: white marks inside a black square
            for _ in range(int(rng.integers(1, 4))):
                s = int(side * rng.uniform(0.12, 0.3))
                ox, oy = int(cx + rng.uniform(-0.25, 0.25) * side), int(cy + rng.uniform(-0.25, 0.25) * side)
                cv2.rectangle(canvas, (ox - s // 2, oy - s // 2), (ox + s // 2, oy + s // 2), (235, 235, 235), -1)
        if rng.random() < 0.3:  # on a white label, like a sticker's quiet zone
            cv2.polylines(canvas, [box_points], True, (235, 235, 235), int(rng.uniform(1, 2.5) * TEXTURE_PX_PER_MM))


def _light(image: npt.NDArray[np.float32], preset: Difficulty, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """A brightness gradient across the frame and, for harder presets, a soft shadow (both smooth, so
    drawn at an eighth of the size and scaled up)."""
    step = 8
    width, height = preset.size
    h, w = height // step, width // step
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(angle) + ys * math.sin(angle))
    ramp = (ramp - ramp.min()) / (ramp.max() - ramp.min())
    darkest = rng.uniform(*preset.gradient)
    light = darkest + (1 - darkest) * ramp
    if preset.shadow > 0 and preset.cast_shadow:
        light = cv2.resize(light, (width, height), interpolation=cv2.INTER_LINEAR)
        light *= 1 - preset.shadow * _cast_shadow(rng, width, height)
        step, h, w = 1, height, width
    elif preset.shadow > 0:
        mask = np.zeros((h, w), dtype=np.float32)
        centre = (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.2, 0.8) * h))
        axes = (int(rng.uniform(150, 450) / step), int(rng.uniform(80, 250) / step))
        cv2.ellipse(mask, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(15, 40) / step)
        light *= 1 - preset.shadow * mask
    full = cv2.resize(light * rng.uniform(0.9, 1.1), (width, height), interpolation=cv2.INTER_LINEAR)
    image = image * full[:, :, None]
    if preset.glare[1] > 0:
        image = _glare(image, rng, preset)
    return np.asarray(image, dtype=np.float32)


def _cast_shadow(rng: np.random.Generator, width: int, height: int) -> npt.NDArray[np.float32]:
    """A hard-edged shadow (an arm, a lamp's edge): a wide band across part of the frame, its edge 2-6 px soft."""
    mask = np.zeros((height, width), dtype=np.float32)
    angle = rng.uniform(0, math.pi)
    along = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-along[1], along[0]])
    centre = np.array([rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height])
    half_width = rng.uniform(0.08, 0.25) * width
    length = 2.0 * max(width, height)
    start = centre - along * rng.uniform(0.2, 0.6) * length / 2  # the arm ends inside the frame
    corners = [start - across * half_width, start + across * half_width,
               start + across * half_width + along * length, start - across * half_width + along * length]
    cv2.fillPoly(mask, [np.array(corners, dtype=np.int32)], 1.0, lineType=cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(mask, (0, 0), rng.uniform(2.0, 6.0)), dtype=np.float32)


def _glare(image: npt.NDArray[np.float32], rng: np.random.Generator, preset: Difficulty) -> npt.NDArray[np.float32]:
    """1-3 uneven glare patches: the picture pulled towards white, strongest at each patch's streaky middle."""
    width, height = preset.size
    step = 4
    mask = np.zeros((height // step, width // step), dtype=np.float32)
    for _ in range(int(rng.integers(1, 4))):
        centre = (int(rng.uniform(0.1, 0.9) * width / step), int(rng.uniform(0.1, 0.9) * height / step))
        axes = (int(rng.uniform(60, 260) / step), int(rng.uniform(25, 110) / step))
        patch = np.zeros_like(mask)
        cv2.ellipse(patch, centre, axes, rng.uniform(0, 180), 0, 360, float(rng.uniform(*preset.glare)), -1)
        streaks = rng.uniform(0.6, 1.0, size=(mask.shape[0] // 4 + 1, mask.shape[1] // 4 + 1)).astype(np.float32)
        patch *= cv2.resize(streaks, (mask.shape[1], mask.shape[0]), interpolation=cv2.INTER_LINEAR)
        mask = np.maximum(mask, cv2.GaussianBlur(patch, (0, 0), rng.uniform(8, 20) / step))
    full = cv2.resize(mask, (width, height), interpolation=cv2.INTER_LINEAR)[:, :, None]
    return np.asarray(image + (255.0 - image) * full, dtype=np.float32)


def _damage(image: npt.NDArray[np.float32], preset: Difficulty, rng: np.random.Generator) -> Image:
    """Defocus blur, motion blur, sensor noise and JPEG compression."""
    blur = rng.uniform(*preset.blur_px)
    if blur > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if preset.motion_px[1] > 0:
        length, angle = rng.uniform(*preset.motion_px), rng.uniform(0, math.pi)
        size = int(math.ceil(length)) * 2 + 1
        kernel = np.zeros((size, size), dtype=np.float32)
        half = length / 2
        middle = size // 2
        cv2.line(kernel, (round((middle - half * math.cos(angle)) * 16), round((middle - half * math.sin(angle)) * 16)),
                 (round((middle + half * math.cos(angle)) * 16), round((middle + half * math.sin(angle)) * 16)),
                 1.0, 1, cv2.LINE_AA, shift=4)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    noise = np.empty(image.shape, dtype=np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(noise, 0.0, float(rng.uniform(*preset.noise)))
    image += noise
    frame = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(rng.integers(preset.jpeg_quality[0], preset.jpeg_quality[1] + 1))
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8)
