"""The scanner: debouncing across frames, the scanning thread, and the hand-held scan station."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.core.errors import CompanionError
from companion.session import Session
from companion.store import GameStore
from companion.vision.detection import Detection
from companion.vision.scanner import Change, Debouncer, Offer, Scanner, ScanStation, moves_mentioning
from companion.vision.sources import CameraUnavailable, FrameSource, ImageFiles
from tests.vision.photos import BOARD, REGISTRY, blank_photo, board_photo, save, tile_photo


def seen(*codes: str) -> list[Detection]:
    return [Detection(code, 0, ((0, 0), (1, 0), (1, 1), (0, 1))) for code in codes]


def test_a_code_counts_once_seen_in_two_frames_in_a_row() -> None:
    debouncer = Debouncer(confirm=2, forget=3)
    assert debouncer.update(seen("KH:T:G")) == Change()
    assert debouncer.update(seen()) == Change()           # a one-frame misread never counts
    assert debouncer.update(seen("KH:T:G")) == Change()
    assert debouncer.update(seen("KH:T:G")) == Change(appeared=("KH:T:G",))
    assert set(debouncer.present) == {"KH:T:G"}


def test_a_code_is_gone_only_after_n_frames_unseen() -> None:
    debouncer = Debouncer(confirm=2, forget=3)
    for _ in range(2):
        debouncer.update(seen("KH:T:G", "KH:E:M"))
    assert debouncer.update(seen("KH:E:M")) == Change()    # a hand passes over G
    assert debouncer.update(seen("KH:E:M", "KH:T:G")) == Change()
    changes = [debouncer.update(seen("KH:E:M")) for _ in range(3)]
    assert changes == [Change(), Change(), Change(gone=("KH:T:G",))]
    assert set(debouncer.present) == {"KH:E:M"}


def frames(tmp_path: Path, *images: str, hold: int = 1) -> ImageFiles:
    pictures = {"board": board_photo, "blank": blank_photo}
    paths = [save(pictures[name](), tmp_path / f"{n}-{name}.png") for n, name in enumerate(images)]
    return ImageFiles(paths, hold=hold)


def test_scanning_real_photos_frame_by_frame(tmp_path: Path) -> None:
    source = frames(tmp_path, "board", "board", "blank", "board", "blank", "blank")
    scanner = Scanner(source, REGISTRY, debouncer=Debouncer(confirm=2, forget=2))
    steps = [scanner.step() for _ in range(6)]
    assert [s.number for s in steps if s] == [1, 2, 3, 4, 5, 6]
    assert steps[0] and steps[0].change == Change() and {d.code for d in steps[0].detections} == set(BOARD)
    assert steps[1] and steps[1].change.appeared == tuple(sorted(BOARD))
    assert steps[2] and steps[2].change == Change() and set(steps[2].present) == set(BOARD)  # one blank frame: kept
    assert steps[5] and steps[5].change.gone == tuple(sorted(BOARD))
    assert scanner.latest is steps[5] and scanner.latest.present == {}


class Unplugged(FrameSource):
    """A camera that gives two frames, then is pulled out."""

    name = "usb:0"

    def __init__(self, frame_source: ImageFiles) -> None:
        super().__init__()
        self.inner = frame_source
        self.reads = 0

    def _read(self):  # type: ignore[no-untyped-def]
        self.reads += 1
        if self.reads > 2:
            raise CameraUnavailable("usb:0 stopped giving frames (unplugged?)")
        return self.inner.read()


def test_the_thread_scans_until_the_camera_goes_away_and_says_why(tmp_path: Path) -> None:
    heard: list[int] = []
    scanner = Scanner(Unplugged(frames(tmp_path, "board")), REGISTRY, interval=0.0)
    scanner.subscribe(lambda scan: heard.append(scan.number))
    scanner.start()
    assert scanner._thread is not None
    scanner._thread.join(timeout=60)
    assert not scanner.running
    assert heard == [1, 2] and set(scanner.latest.present if scanner.latest else ()) == set(BOARD)
    assert scanner.error == "usb:0 stopped giving frames (unplugged?)"
    scanner.close()
    scanner.close()
    assert scanner.source.closed
    with pytest.raises(CompanionError, match="closed"):
        scanner.source.read()


def test_moves_mentioning_a_component() -> None:
    moves = ["harvest B3/wine", "harvest B2", "play C D4", "bid B3 wheat", "buy C2", "end"]
    assert moves_mentioning(REGISTRY.by_code("KH:F:B3:U"), moves) == ["harvest B3/wine", "bid B3 wheat"]
    assert moves_mentioning(REGISTRY.by_code("KH:L:2:C"), moves) == ["play C D4"]
    assert moves_mentioning(REGISTRY.by_code("KH:F:D4:H"), moves) == ["play C D4"]


def test_the_scan_station_offers_the_legal_moves_of_the_tile_shown(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "key-harvest", ["Alice", "Bob"], seed="scan-station")
        legal = [str(m) for m in session.game.legal_moves(session.state)]
        bid = next(m for m in legal if m.startswith("bid "))
        label = bid.split()[1]
        code = f"KH:F:{label}:U"
        source = ImageFiles([save(tile_photo(code), tmp_path / "tile.png"), save(blank_photo(), tmp_path / "b.png")],
                            hold=2)
        offers: list[Offer] = []
        station = ScanStation(REGISTRY, offers.append, lambda: [str(m) for m in session.game.legal_moves(session.state)])
        scanner = Scanner(source, REGISTRY, debouncer=Debouncer(confirm=2, forget=1))
        scanner.subscribe(station)
        for _ in range(6):  # tile, tile, blank, blank, tile, tile
            scanner.step()
    assert [o.component.code for o in offers] == [code, code]  # offered each time it is shown again
    assert bid in offers[0].moves and all(label in m.replace("/", " ").split() for m in offers[0].moves)


def test_the_scan_station_does_not_guess_between_several_components(tmp_path: Path) -> None:
    offers: list[Offer] = []
    scanner = Scanner(frames(tmp_path, "board", hold=3), REGISTRY)
    scanner.subscribe(ScanStation(REGISTRY, offers.append))
    for _ in range(3):
        scanner.step()
    assert offers == [] and len(scanner.latest.present if scanner.latest else ()) == len(BOARD)


def test_the_thread_reads_no_frames_while_nobody_wants_them(tmp_path: Path) -> None:
    source = Unplugged(frames(tmp_path, "blank"))
    asked = threading.Semaphore(0)
    wanted = threading.Event()

    def someone_looks() -> bool:
        asked.release()
        return wanted.is_set()

    scanner = Scanner(source, REGISTRY, interval=0.0, wanted=someone_looks)
    scanner.start()
    for _ in range(5):  # the thread asked five times, and was told no each time
        assert asked.acquire(timeout=60)
    assert source.reads == 0 and scanner.running
    wanted.set()
    assert scanner._thread is not None
    scanner._thread.join(timeout=60)  # now it reads, until the 'camera' is unplugged
    assert source.reads == 3 and scanner.error
    scanner.close()
