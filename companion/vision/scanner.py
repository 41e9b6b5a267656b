"""The camera as a steady witness: frames read one after another, each code debounced across frames.

A single frame can miss a sticker (a hand passes over it) or misread one (glare), so the
``Debouncer`` lets a code count only once it was seen in ``confirm`` frames in a row, and
forgets it only after ``forget`` frames without it. The ``Scanner`` runs a frame source through
the reader and the debouncer on its own thread (``start``/``close``) or one frame at a time
(``step``, for tests and for callers with their own loop). The ``ScanStation`` is the hand-held
mode: show one component to the camera, and it is named together with the legal moves that
mention it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from companion.codes.registry import CodeRegistry, Component
from companion.core.errors import CompanionError, UnknownCodeError
from companion.core.game import moves_with_key
from companion.vision.detection import Detection, Reader
from companion.vision.sources import Frame, FrameSource



@dataclass(frozen=True, slots=True)
class Change:
    """Codes that became present or went away with one frame."""

    appeared: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.appeared or self.gone)


class Debouncer:
    """Which codes are on the table, from per-frame detections that may flicker."""

    def __init__(self, confirm: int = 2, forget: int = 5) -> None:
        if confirm < 1 or forget < 1:
            raise ValueError("confirm and forget are at least one frame")
        self.confirm = confirm
        self.forget = forget
        self._streak: dict[str, int] = {}
        self._unseen: dict[str, int] = {}
        self._present: dict[str, Detection] = {}

    @property
    def present(self) -> dict[str, Detection]:
        """Each present code with where it was last seen."""
        return dict(self._present)

    def update(self, detections: Iterable[Detection]) -> Change:
        """Take one frame's detections; say what appeared and what went away."""
        seen: dict[str, Detection] = {}
        for detection in detections:
            seen.setdefault(detection.code, detection)
        appeared: list[str] = []
        gone: list[str] = []
        for code in list(self._streak):
            if code not in seen:
                del self._streak[code]
        for code, detection in seen.items():
            self._streak[code] = self._streak.get(code, 0) + 1
            if code in self._present:
                self._present[code] = detection
                self._unseen[code] = 0
            elif self._streak[code] >= self.confirm:
                self._present[code] = detection
                self._unseen[code] = 0
                appeared.append(code)
        for code in list(self._present):
            if code not in seen:
                self._unseen[code] += 1
                if self._unseen[code] >= self.forget:
                    del self._present[code], self._unseen[code]
                    gone.append(code)
        return Change(tuple(sorted(appeared)), tuple(sorted(gone)))


@dataclass(frozen=True)
class ScanFrame:
    """One processed frame: the picture, what it showed, and what is present after debouncing."""

    number: int
    frame: Frame = field(repr=False)
    detections: tuple[Detection, ...]
    present: dict[str, Detection]
    change: Change
    taken: float
    """``time.time()`` when the frame was read."""


Listener = Callable[[ScanFrame], None]


class Scanner:
    """Frames from ``source`` through ``reader`` and a ``Debouncer``; listeners hear every processed frame."""

    def __init__(self, source: FrameSource, registry: CodeRegistry, *, reader: Reader | None = None,
                 debouncer: Debouncer | None = None, interval: float = 0.2,
                 wanted: Callable[[], bool] | None = None) -> None:
        if reader is None:  # stickers by their marker, and by their QR code (a tile held up close)
            from companion.vision.qr import read_codes_and_qr

            reader = read_codes_and_qr
        self.source = source
        self.registry = registry
        self.reader = reader
        self.debouncer = debouncer or Debouncer()
        self.interval = interval
        self.wanted = wanted
        """While this says False, the thread reads no frames (nobody is looking: spare the Pi's CPU)."""
        self.error: str | None = None
        """Why the scanner stopped, if a frame source failed."""
        self._latest: ScanFrame | None = None
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._count = 0

    @property
    def latest(self) -> ScanFrame | None:
        """The last processed frame (None before the first)."""
        with self._lock:
            return self._latest

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` (on the scanner's thread) with every processed frame."""
        with self._lock:
            self._listeners.append(listener)

    def step(self) -> ScanFrame | None:
        """Read and process one frame; None if the source had none ready."""
        frame = self.source.read()
        if frame is None:
            return None
        detections = tuple(self.reader(frame, self.registry))
        with self._lock:
            change = self.debouncer.update(detections)
            self._count += 1
            scan = ScanFrame(self._count, frame, detections, self.debouncer.present, change, time.time())
            self._latest = scan
            listeners = list(self._listeners)
        for listener in listeners:
            listener(scan)
        return scan

    def start(self) -> None:
        """Scan on a daemon thread until ``close`` (or the source ends or fails)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"scanner {self.source.name}", daemon=True)
            self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while not self._stopping.is_set():
            if self.wanted is not None and not self.wanted():
                self._stopping.wait(self.interval)
                continue
            try:
                self.step()
            except CompanionError as exc:  # the camera went away: say so, and stop
                self.error = str(exc)
                return
            if self.source.ended:
                return
            self._stopping.wait(self.interval)

    def close(self) -> None:
        """Stop the thread and release the source; closing twice is fine."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.source.close()

    def __enter__(self) -> Scanner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------------------------- scan station


@dataclass(frozen=True, slots=True)
class Offer:
    """A component shown to the scan station and the moves that mention it."""

    component: Component
    moves: tuple[str, ...]


def moves_mentioning(component: Component, moves: Iterable[str]) -> list[str]:
    """The moves whose words name ``component`` by its key (``Game.moves_naming``'s default): a field tile by its
    label (``harvest B3/wine`` names B3), a worker by its letter (``play C D4``), an event by its letter."""
    return moves_with_key(component.key, list(moves))


class ScanStation:
    """Hand-held scanning: when exactly one component is in view and it has just appeared, offer it.

    ``moves`` gives the legal moves (as text) at the moment of the offer; ``offer`` hears each offer.
    With several components in view nothing is offered (it would be a guess).
    """

    def __init__(self, registry: CodeRegistry, offer: Callable[[Offer], None],
                 moves: Callable[[], Sequence[str]] = lambda: ()) -> None:
        self.registry = registry
        self.offer = offer
        self.moves = moves
        self.last: Offer | None = None

    def __call__(self, scan: ScanFrame) -> None:
        if len(scan.present) != 1 or not scan.change.appeared:
            return
        (code,) = scan.present
        try:
            component = self.registry.by_code(code)
        except UnknownCodeError:
            return
        self.last = Offer(component, tuple(moves_mentioning(component, self.moves())))
        self.offer(self.last)
