"""Synthetic photos of printed stickers with their QR codes (marker and QR code beside it, as
``companion/codes/stickers.py`` prints them), for the QR reader's tests and ``benchmarks/vision_qr.py``.

A few tiles lie (or are held) in front of a 1080p pinhole camera at a level's distance; each carries the whole
printed sticker, drawn from the sheet's own artwork at 20 dots per mm, so the QR code's 0.3 mm modules are
exactly as printed. The frame is rendered at twice the size and area-averaged down, then lit, blurred, noised
and JPEG-compressed with the ranges of ``tests/vision/scenes.py``'s medium and hard presets (copied here, so
that these scenes stay the same when those presets are widened). A foreign QR code (another
product's) lies among the tiles: reading it as a code would be a false read.

Truth is each sticker's **marker** centre (what a ``Detection`` of either reader reports); ``Scene.score`` of
``tests/vision/scenes.py`` compares reads with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.codes.registry import CodeRegistry
from companion.codes.stickers import DOTS_PER_MM, qr_matrix, sticker_image, sticker_layout
from tests.vision.scenes import Scene

SUPERSAMPLE = 2
TILE_MM = 30.0
"""The tiles held up here: large enough for the whole sticker (marker and QR code) at any rotation."""
FOREIGN_QR = "https://example.com/menu?table=7"
WIDTH, HEIGHT = 1920, 1080
"""The frame: 1080p, as the camera gives it."""


@dataclass(frozen=True, slots=True)
class Damage:
    """Light and image damage, drawn from these ranges (the values of ``scenes.py``'s medium and hard presets)."""

    gradient: tuple[float, float]
    blur_px: tuple[float, float]
    noise: tuple[float, float]
    jpeg_quality: tuple[int, int]


MEDIUM = Damage((0.75, 0.9), (0.5, 1.0), (2, 4), (80, 92))
HARD = Damage((0.6, 0.8), (1.0, 1.5), (3, 6), (70, 80))


@dataclass(frozen=True, slots=True)
class Level:
    """How far the camera is from the stickers, how many, and the image damage."""

    distance_mm: tuple[float, float]
    tilt_deg: tuple[float, float]
    damage: Damage
    tiles: tuple[int, int]


LEVELS: dict[str, Level] = {
    "close": Level((90, 150), (0, 20), MEDIUM, (1, 1)),
    "near": Level((150, 200), (0, 20), MEDIUM, (1, 3)),
    "mid": Level((200, 260), (0, 25), MEDIUM, (2, 4)),
    "arm": Level((260, 340), (0, 25), MEDIUM, (2, 5)),
    "far": Level((340, 450), (5, 25), HARD, (3, 8)),
    "table": Level((600, 800), (5, 25), HARD, (6, 12)),
}
"""A tile held up to a 1080p camera (lens 48-56 degrees) 9-15 cm away: QR modules of about 3.9-6.6 px, the
marker over 160 px (larger than the marker reader looks for); 15-20 cm: 2.9-3.9 px; 20-26 cm:
2.3-2.9 px; 26-34 cm: 1.7-2.3 px; 34-45 cm: 1.3-1.7 px; and stickers lying on the table 60-80 cm under the camera
as the board reader sees them: 0.7-1.0 px (the QR code is not meant to be read there; the marker is)."""
HFOV_DEG = (48.0, 56.0)


def qr_scene(registry: CodeRegistry, level: str, seed: int) -> Scene:
    """A frame of a few Key Harvest components' stickers at ``level`` (``LEVELS``), seeded."""
    spec = LEVELS[level]
    damage = spec.damage
    rng = np.random.default_rng([seed, 7])
    components = registry.for_game("key-harvest")
    count = int(rng.integers(spec.tiles[0], spec.tiles[1] + 1))
    chosen = [components[int(i)] for i in rng.choice(len(components), size=count, replace=False)]
    columns = max(1, math.ceil(math.sqrt(count + 1)))
    spots = [((n % columns) * (TILE_MM + 6) + float(rng.uniform(-2, 2)), (n // columns) * (TILE_MM + 6)
              + float(rng.uniform(-2, 2))) for n in range(count + 1)]
    centre = (float(np.mean([x for x, _ in spots[:count]])), float(np.mean([y for _, y in spots[:count]])))  # the tiles
    spots = [(x - centre[0], y - centre[1]) for x, y in spots]
    homography, focal, distance = _camera(spec, rng)

    # the table drawn at about 3 texture pixels per rendered pixel (at most the print's 20 dots per mm)
    scale = float(min(DOTS_PER_MM, max(4.0, math.ceil(3 * SUPERSAMPLE * focal / distance))))
    reach = max(max(abs(x), abs(y)) for x, y in spots) + TILE_MM
    size = int(2 * reach * scale)
    texture = np.empty((size, size, 3), dtype=np.uint8)
    texture[:] = np.array([rng.uniform(60, 110), rng.uniform(90, 140), rng.uniform(120, 170)]).astype(np.uint8)
    truth: dict[str, tuple[float, float]] = {}
    sticker_px: dict[str, float] = {}
    cut_off: dict[str, tuple[tuple[float, float], float]] = {}
    to_texture = np.array([[scale, 0, reach * scale], [0, scale, reach * scale], [0, 0, 1]])
    for n, (x, y) in enumerate(spots):
        turn = float(rng.uniform(0, 360))
        colour = tuple(int(v) for v in rng.integers(40, 230, 3))
        _hexagon(texture, to_texture, (x, y), colour, turn)
        if n == count:  # another product's QR code among the tiles
            art = np.where(np.pad(qr_matrix(FOREIGN_QR), 2), 0, 255).astype(np.uint8)
            art = cv2.resize(art, (art.shape[1] * 6, art.shape[0] * 6), interpolation=cv2.INTER_NEAREST)  # 0.3 mm
            _paste(texture, art, to_texture, (x, y), turn)
            continue
        component = chosen[n]
        art = np.asarray(sticker_image(component, registry.marker_family, registry).convert("L"), dtype=np.uint8)
        _paste(texture, art, to_texture, (x, y), turn)
        _, marker = sticker_layout(registry, component)
        half = (art.shape[1] / DOTS_PER_MM / 2, art.shape[0] / DOTS_PER_MM / 2)
        corners = _place(np.array(marker) - np.array(half), (x, y), turn)
        seen = _project(homography, corners)
        middle = (float(seen[:, 0].mean()), float(seen[:, 1].mean()))
        side = float(np.mean(np.linalg.norm(seen - np.roll(seen, 1, axis=0), axis=1))) * 9 / 7  # the 16 mm sticker
        inside = np.all((seen[:, 0] > 2) & (seen[:, 0] < WIDTH - 2) & (seen[:, 1] > 2) & (seen[:, 1] < HEIGHT - 2))
        if inside:
            truth[component.code], sticker_px[component.code] = middle, side
        else:
            cut_off[component.code] = (middle, side)

    warp = np.diag([SUPERSAMPLE, SUPERSAMPLE, 1.0]) @ homography @ np.linalg.inv(to_texture)
    big = cv2.warpPerspective(texture, warp, (WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(int(v) for v in texture[0, 0]))
    image = cv2.resize(big, (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA).astype(np.float32)
    image = _damage(image, rng, damage.gradient, damage.blur_px, damage.noise, damage.jpeg_quality)
    return Scene(image, truth, sticker_px, level, seed, {"focal_px": focal}, cut_off)


def _camera(spec: Level, rng: np.random.Generator) -> tuple[npt.NDArray[np.float64], float, float]:
    """A pinhole camera looking at the table's origin from the level's distance: table mm -> pixels."""
    distance = rng.uniform(*spec.distance_mm)
    tilt, azimuth, roll = math.radians(rng.uniform(*spec.tilt_deg)), rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    focal = (WIDTH / 2) / math.tan(math.radians(rng.uniform(*HFOV_DEG)) / 2)
    look_at = np.array([rng.uniform(-5, 5), rng.uniform(-5, 5), 0.0])
    position = look_at + distance * np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth),
                                              -math.cos(tilt)])
    forward = (look_at - position) / np.linalg.norm(look_at - position)
    right = np.array([math.cos(roll), math.sin(roll), 0.0])
    right = right - forward * float(right @ forward)
    right /= np.linalg.norm(right)
    rotation = np.stack([right, np.cross(forward, right), forward])
    intrinsics = np.array([[focal, 0, WIDTH / 2], [0, focal, HEIGHT / 2], [0, 0, 1]])
    homography = intrinsics @ np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ position])
    return homography / homography[2, 2], focal, float(distance)


def _place(points_mm: npt.NDArray[np.float64], at: tuple[float, float], turn_deg: float) -> npt.NDArray[np.float64]:
    a = math.radians(turn_deg)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(points_mm @ rotation.T + np.array(at), dtype=np.float64)


def _project(homography: npt.NDArray[np.float64], points_mm: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return np.asarray(cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), homography).reshape(-1, 2), dtype=np.float64)


def _hexagon(texture: npt.NDArray[np.uint8], to_texture: npt.NDArray[np.float64], at: tuple[float, float],
             colour: tuple[int, ...], turn_deg: float) -> None:
    radius = TILE_MM / math.sqrt(3)
    corners = np.array([[radius * math.cos(math.radians(30 + 60 * k)), radius * math.sin(math.radians(30 + 60 * k))]
                        for k in range(6)])
    points = _project(to_texture, _place(corners, at, turn_deg)).astype(np.int32)
    cv2.fillPoly(texture, [points], colour, lineType=cv2.LINE_AA)


def _paste(texture: npt.NDArray[np.uint8], art: npt.NDArray[np.uint8], to_texture: npt.NDArray[np.float64],
           at: tuple[float, float], turn_deg: float) -> None:
    """Stick grey ``art`` (20 dots per mm) centred at ``at`` mm, turned (area-averaged to the texture's scale)."""
    h_mm, w_mm = art.shape[0] / DOTS_PER_MM, art.shape[1] / DOTS_PER_MM
    scale = float(to_texture[0, 0])
    if scale < DOTS_PER_MM:
        art = cv2.resize(art, (round(w_mm * scale), round(h_mm * scale)), interpolation=cv2.INTER_AREA)
    h, w = art.shape
    local = np.array([[-w_mm / 2, -h_mm / 2], [w_mm / 2, -h_mm / 2], [w_mm / 2, h_mm / 2], [-w_mm / 2, h_mm / 2]])
    target = _project(to_texture, _place(local, at, turn_deg)).astype(np.float32)
    left, top = np.floor(target.min(axis=0)).astype(int)
    right, bottom = np.ceil(target.max(axis=0)).astype(int) + 1
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(source, target - np.array([left, top], dtype=np.float32))
    size = (int(right - left), int(bottom - top))
    warped = cv2.warpPerspective(art, matrix, size, flags=cv2.INTER_LINEAR, borderValue=0)
    mask = cv2.warpPerspective(np.full_like(art, 255), matrix, size, flags=cv2.INTER_LINEAR, borderValue=0)
    alpha = mask.astype(np.float32)[:, :, None] / 255.0
    roi = texture[top:bottom, left:right]
    roi[:] = (roi * (1 - alpha) + warped[:, :, None].astype(np.float32) * alpha).astype(np.uint8)


def _damage(image: npt.NDArray[np.float32], rng: np.random.Generator, gradient: tuple[float, float],
            blur_px: tuple[float, float], noise: tuple[float, float], jpeg: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """A brightness gradient, defocus blur, sensor noise and JPEG compression."""
    ys, xs = np.mgrid[0:HEIGHT // 8, 0:WIDTH // 8].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = xs * math.cos(angle) + ys * math.sin(angle)
    ramp = (ramp - ramp.min()) / (ramp.max() - ramp.min())
    darkest = rng.uniform(*gradient)
    light = cv2.resize(darkest + (1 - darkest) * ramp, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)
    image = image * light[:, :, None]
    sigma = rng.uniform(*blur_px)
    if sigma > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image = image + rng.normal(0, rng.uniform(*noise), image.shape).astype(np.float32)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(jpeg[0], jpeg[1] + 1))])
    assert ok
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8)
