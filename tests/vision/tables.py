"""Synthetic photos of a whole Key Harvest table, with the truth: 2-4 estate boards, the land office and the
event track in one 3840x2160 frame seen from 1.3-1.7 m (``scenes.py``'s "table-" presets).

The table plane is in millimetres. The land office (6 spaces, 30 mm apart) and the event track (10 spaces) lie
on a printed main board in the middle; the estate boards lie around it, each the layout's 56 spaces with a
35 mm margin, turned towards its player: seats 1 and 2 below the main board (left, right), seats 3 and 4 above
it (right, left), turned half round (each board also a few degrees off): the seats go round the table
counter-clockwise seen from above, as the table reader gives seats to boards without labourers. A board holds 6-14 of the 56 field tiles at their
labelled spaces (either side up), 0-3 of its player's labourers (set = seat) and a townsfolk on free spaces
next to tiles, and a spare labourer lying beside it. The event tiles lie upright on the track, space 1 first
in the main board's reading direction.

    table = table_scene(registry, players=3, difficulty="table-medium", seed=4)
    table.scene.image, table.scene.truth      # the frame; every sticker's true centre
    table.snapshot                            # the true table in the snapshot format (stones included)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.codes.registry import CodeRegistry
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import HEX_DIRECTIONS, Layout
from tests.vision.scenes import Placement, PrintedBoard, Scene, hex_centre_mm, render_scene

NAMES = ("Ann", "Bo", "Cy", "Dee")
CROPS = ("hops", "vegetables", "apples", "wine", "wheat")
BOARD_MARGIN_MM = 35.0
OFFICE_STEP_MM = 30.0
TRACK_STEP_MM = 30.0
EVENTS = "MNOPQRSTUVWXYZ"


@dataclass
class TableScene:
    """A rendered table and its truth."""

    scene: Scene
    snapshot: dict[str, Any]
    """The table as the snapshot format has it: players in seat order (tiles, workers, stones), land office,
    event track in order."""
    beside: list[str]
    """Codes lying beside a board (spare labourers): seen, but on no board."""


def _turn(x: float, y: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)


def table_scene(registry: CodeRegistry, players: int, difficulty: str = "table-medium", seed: int = 0,
                layout: Layout | None = None, events: int | None = None, labourers: bool = True,
                printed: bool = False) -> TableScene:
    """A whole table of ``players`` (2-4) estate boards with the land office and ``events`` events on the track
    (default 3-10), photographed at ``difficulty``; ``labourers=False``: none stands on a board; ``printed``: the
    stickers as printed, each with its QR code beside the marker (``render_scene``)."""
    rng = np.random.default_rng([seed, 3])
    layout = layout or KeyHarvest().layout
    spaces = np.array([hex_centre_mm(*c) for c in layout.coords])
    middle = (spaces.min(axis=0) + spaces.max(axis=0)) / 2
    board_w, board_h = (spaces.max(axis=0) - spaces.min(axis=0)) + 2 * BOARD_MARGIN_MM
    placements: list[Placement] = []
    boards: list[PrintedBoard] = []
    main_turn = float(rng.uniform(-6, 6))
    boards.append(PrintedBoard(0.0, 0.0, 340.0, 110.0, main_turn))

    order = rng.permutation(layout.size).tolist()
    office = order[:6]
    rest = order[6:]
    sizes = [int(rng.integers(6, 15)) for _ in range(players)]  # the rest is in the bag, warehouses or fallow
    starts = np.cumsum([0] + sizes)
    shares = [rest[starts[i]:starts[i + 1]] for i in range(players)]

    for n, t in enumerate(office):
        x, y = _turn((n - 2.5) * OFFICE_STEP_MM, -25.0, main_turn)
        placements.append(Placement(f"KH:F:{layout.labels[t]}:U", x, y, float(rng.uniform(0, 360))))
    count = int(rng.integers(3, 11)) if events is None else events
    track = [EVENTS[int(i)] for i in rng.choice(len(EVENTS), size=count, replace=False)]
    for n, letter in enumerate(track):
        x, y = _turn((n - 4.5) * TRACK_STEP_MM, 25.0, main_turn)
        placements.append(Placement(f"KH:E:{letter}", x, y, main_turn + float(rng.uniform(-8, 8))))

    gap = float(rng.uniform(25, 60))
    folk = [str(c) for c in rng.permutation(list("GHIJKL"))]
    below, above = (players + 1) // 2, players // 2
    snapshot_players: list[dict[str, Any]] = []
    beside: list[str] = []
    for seat in range(players):
        row_below = seat < below
        in_row, row_count = (seat, below) if row_below else (seat - below, above)
        x = (in_row - (row_count - 1) / 2) * (board_w + gap) * (1 if row_below else -1)  # round the table
        y = (55 + gap + board_h / 2) * (1 if row_below else -1)
        turn = (0.0 if row_below else 180.0) + float(rng.uniform(-8, 8))
        boards.append(PrintedBoard(x, y, float(board_w), float(board_h), turn))

        def at(q: float, r: float, turn: float = turn, cx: float = x, cy: float = y) -> tuple[float, float]:
            px, py = hex_centre_mm(q, r)  # type: ignore[arg-type]
            dx, dy = _turn(px - middle[0], py - middle[1], turn)
            return cx + dx, cy + dy

        player: dict[str, Any] = {"name": NAMES[seat], "tiles": [], "workers": [],
                                  "stones": {crop: int(rng.integers(0, 4)) for crop in CROPS}}
        for t in shares[seat]:
            side = "UH"[int(rng.integers(2))]
            placements.append(Placement(f"KH:F:{layout.labels[t]}:{side}", *at(*layout.coords[t]),
                                        rotation_deg=float(rng.uniform(0, 360))))
            player["tiles"].append({"label": layout.labels[t], "crop": layout.crops[t].key, "harvested": side == "H"})
        taken = {layout.coords[t] for t in shares[seat]}
        free = [c for c in layout.coords if c not in taken
                and any((c[0] + dq, c[1] + dr) in taken for dq, dr in HEX_DIRECTIONS)]
        workers = [f"KH:L:{seat + 1}:{letter}" for letter in "ABC"[:int(rng.integers(0, 4))]][:3 if labourers else 0]
        workers.append(f"KH:T:{folk[seat]}")
        for code in workers:
            if not free:
                break
            spot = free.pop(int(rng.integers(len(free))))
            free = [c for c in free if (c[0] - spot[0], c[1] - spot[1]) not in HEX_DIRECTIONS]  # R-B4
            placements.append(Placement(code, *at(*spot), rotation_deg=float(rng.uniform(0, 360))))
            player["workers"].append({"worker": code[-1]})
        spare = f"KH:L:{seat + 1}:F"  # lies beside the board, towards its player
        bx, by = _turn(float(rng.uniform(-60, 60)), board_h / 2 + 22, turn)
        placements.append(Placement(spare, x + bx, y + by, float(rng.uniform(0, 360))))
        beside.append(spare)
        snapshot_players.append(player)
    scene = render_scene(placements, registry, difficulty, seed, aim_mm=(0.0, 0.0), boards=boards, printed=printed)
    snapshot = {"game": "key-harvest", "players": snapshot_players,
                "land_office": [layout.labels[t] for t in office], "event_track": track}
    return TableScene(scene, snapshot, beside)

