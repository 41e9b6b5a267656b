"""The camera reads a sticker's QR code too: a tile held close to the camera is named either way, at its marker's
place; QR codes the companion did not print are refused with the registry's reason, never read as codes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.codes import load_registry
from companion.codes.stickers import qr_matrix
from companion.core.errors import ForeignCodeError, MalformedInputError, UnknownCodeError
from companion.core.messages import Message
from companion.vision.qr import QrReader, decode_qr, read_codes_and_qr
from companion.vision.reader import CodeReader
from companion.vision.scanner import Debouncer, Scanner, ScanStation
from companion.vision.sources import ImageFiles
from tests.vision.qr_scenes import FOREIGN_QR, qr_scene

REGISTRY = load_registry()


def test_a_tile_held_too_close_for_the_marker_reader_is_read_by_its_qr_code_where_its_marker_lies() -> None:
    """Seeds 1, 3 and 5 hold the tile 9-15 cm from the camera: the marker is larger than the marker reader looks
    for (160 px), the QR code reads, and the read lies on the marker (within a third of a sticker of its centre)."""
    for seed in (1, 3, 5):
        scene = qr_scene(REGISTRY, "close", seed)
        assert scene.score(CodeReader(REGISTRY).read(scene.image).detections).found == []
        outcome = scene.score(read_codes_and_qr(scene.image, REGISTRY))
        assert outcome.missed == [] and outcome.false_reads == [] and len(outcome.found) == 1


@pytest.mark.parametrize("level, seeds", [("near", range(4)), ("mid", range(4))])
def test_tiles_held_up_are_read_by_their_qr_codes_alone(level: str, seeds: range) -> None:
    """15-26 cm from a 1080p camera (QR modules of 2.3-3.9 px), with blur, noise and JPEG: every QR code reads."""
    for seed in seeds:
        scene = qr_scene(REGISTRY, level, seed)
        reading = QrReader(REGISTRY).read(scene.image)
        outcome = scene.score(reading.detections)
        assert outcome.missed == [] and outcome.false_reads == [], (level, seed)
        assert [r.text for r in reading.refused] in ([FOREIGN_QR], [])  # another product's code: refused, not read


def test_on_the_table_the_qr_codes_beside_the_markers_cause_no_false_read() -> None:
    for seed in range(2):
        scene = qr_scene(REGISTRY, "table", seed)
        outcome = scene.score(read_codes_and_qr(scene.image, REGISTRY))
        assert outcome.false_reads == [] and outcome.missed == []


def frame_of(texts: list[str]) -> np.ndarray:
    """QR codes of ``texts`` side by side at 5 px a module on a grey table."""
    frame = np.full((400, 320 * len(texts)), 150, dtype=np.uint8)
    for n, text in enumerate(texts):
        art = np.where(np.pad(qr_matrix(text), 2), 0, 255).astype(np.uint8)
        art = cv2.resize(art, (art.shape[1] * 5, art.shape[0] * 5), interpolation=cv2.INTER_NEAREST)
        frame[40:40 + art.shape[0], 20 + 320 * n:20 + 320 * n + art.shape[1]] = art
    return frame


def test_qr_codes_the_companion_did_not_print_are_refused_like_unknown_markers() -> None:
    texts = ["https://example.com/x", "KEYDOM:1:KH:F:A1:U", "KEYDOM:2:KH:F:Z9:U", "KEYDOM:2:KH:E:M"]
    reading = QrReader(REGISTRY).read(frame_of(texts))
    assert [d.code for d in reading.detections] == ["KH:E:M"]
    refused = {r.text: r.error for r in reading.refused}
    assert set(refused) == set(texts[:3])
    assert isinstance(refused[texts[0]], ForeignCodeError) and isinstance(refused[texts[1]], ForeignCodeError)
    assert isinstance(refused[texts[2]], UnknownCodeError) and not isinstance(refused[texts[2]], ForeignCodeError)
    ids = [e.text.id if isinstance(e.text, Message) else None for e in (refused[t] for t in texts[:3])]
    assert ids == ["core.code.foreign", "core.code.other_version", "core.code.unknown"]


def test_a_frame_that_is_no_picture_is_refused() -> None:
    with pytest.raises(MalformedInputError):
        decode_qr(np.zeros((10, 10), dtype=np.float32))  # type: ignore[arg-type]


def test_the_cameras_scanner_names_a_tile_shown_by_its_qr_code_at_the_scan_station(tmp_path: Path) -> None:
    scene = qr_scene(REGISTRY, "close", 3)  # the marker reader alone sees nothing here
    (code,) = scene.truth
    path = tmp_path / "close.png"
    cv2.imwrite(str(path), scene.image)
    offers: list[str] = []
    scanner = Scanner(ImageFiles([path], hold=3), REGISTRY, debouncer=Debouncer(confirm=2))
    scanner.subscribe(ScanStation(REGISTRY, lambda offer: offers.append(offer.component.code)))
    for _ in range(2):
        scanner.step()
    assert offers == [code]
