"""Fitting the hex lattice to the stickers of one photographed board, and the snapshot built from it."""

from __future__ import annotations

import random

import pytest

from companion.core.messages import render
from companion.codes import load_registry
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import load_layout
from companion.games.key_harvest.camera import KeyHarvestBoards
from companion.games.key_harvest.snapshot import score_snapshot
from companion.vision.board import fit_lattice, read_board
from tests.vision.boardkit import adjacency, camera, detections

LAYOUT = load_layout()
BOARDS = KeyHarvestBoards(KeyHarvest(LAYOUT))
REGISTRY = load_registry(KeyHarvest(LAYOUT))
SPACES = list(zip(LAYOUT.labels, LAYOUT.coords))
PITCH = 25.0 / 12.0


def same_shape(truth: list[tuple[int, int]], found: tuple[tuple[int, int], ...]) -> bool:
    """The found coordinates are the true ones moved and turned on the lattice: the same neighbours."""
    return adjacency(truth) == adjacency(list(found)) and len(set(found)) == len(truth)


@pytest.mark.parametrize("turn", [0, 23, 90, 141, 200, 333])
@pytest.mark.parametrize("tilt", [0, 12, 25])
def test_a_full_board_is_fitted_at_any_photo_rotation_and_tilt(tilt: float, turn: float) -> None:
    found = fit_lattice(detections(SPACES, camera(tilt, turn), noise_px=0.5, seed=turn), PITCH)
    assert same_shape(list(LAYOUT.coords), found.coords)
    assert max(found.residuals) < 0.1


def test_straight_photo_gives_the_printed_coordinates_themselves() -> None:
    found = fit_lattice(detections(SPACES, camera(0, 4)), PITCH)
    assert found.coords == LAYOUT.coords  # A1 top-left at [0, 0], rows going down


@pytest.mark.parametrize("seed", range(8))
def test_boards_with_missing_tiles_keep_their_adjacency(seed: int) -> None:
    rng = random.Random(seed)
    kept = rng.sample(SPACES, rng.randint(8, 40))
    tilt, turn = rng.uniform(0, 25), rng.uniform(0, 360)
    found = fit_lattice(detections(kept, camera(tilt, turn), noise_px=1.0, seed=seed), PITCH)
    assert same_shape([at for _, at in kept], found.coords), (tilt, turn)


@pytest.mark.parametrize("noise", [1.5, 2.5])
def test_corner_noise_of_a_blurred_photo_does_not_move_tiles(noise: float) -> None:
    kept = random.Random(7).sample(SPACES, 30)
    found = fit_lattice(detections(kept, camera(20, 75), noise_px=noise, seed=3), PITCH)
    assert same_shape([at for _, at in kept], found.coords)


def test_tiles_far_apart_are_still_placed_on_the_same_lattice() -> None:
    corners = [("A1", (0, 0)), ("A2", (1, 0)), ("A7", (6, 0)), ("H1", (-3, 7)), ("H7", (3, 7)), ("E4", (1, 4))]
    found = fit_lattice(detections(corners, camera(18, 250), noise_px=0.5), PITCH)
    shift = (found.coords[0][0], found.coords[0][1])
    rel = [(q - shift[0], r - shift[1]) for q, r in found.coords]
    truth = [at for _, at in corners]
    assert same_shape(truth, found.coords)
    # distances on the lattice are kept exactly: a far tile is not pulled one space closer
    def dist(a: tuple[int, int], b: tuple[int, int]) -> int:
        return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1])) // 2
    assert [dist(rel[0], c) for c in rel] == [dist(truth[0], c) for c in truth]


def test_a_single_row_and_two_tiles_and_one_tile() -> None:
    row = SPACES[:5]
    assert same_shape([at for _, at in row], fit_lattice(detections(row, camera(10, 60)), PITCH).coords)
    apart = [("A1", (0, 0)), ("A3", (2, 0))]
    found = fit_lattice(detections(apart, camera(0, 0)), PITCH).coords
    assert adjacency(list(found)) == set() and len(set(found)) == 2
    assert fit_lattice(detections(SPACES[:1], camera(0, 0)), PITCH).coords == ((0, 0),)


def test_wider_board_spacing_than_the_registry_expects_is_measured_from_the_photo() -> None:
    kept = random.Random(2).sample(SPACES, 25)
    found = fit_lattice(detections(kept, camera(15, 30), pitch_mm=28.0, noise_px=0.5), PITCH)
    assert same_shape([at for _, at in kept], found.coords)


# ------------------------------------------------------------------------------------------ pieces


def tile(label: str, side: str = "U") -> str:
    return f"KH:F:{label}:{side}"


def at(label: str) -> tuple[int, int]:
    return LAYOUT.coords[LAYOUT.index[label]]


def test_sides_workers_and_events_are_read_and_the_snapshot_scores_like_the_truth() -> None:
    board = [(tile("A1", "H"), at("A1")), (tile("A2"), at("A2")), (tile("B1", "H"), at("B1")),
             (tile("A4"), at("A4")), (tile("B5", "H"), at("B5")), (tile("C4"), at("C4")),
             ("KH:L:2:C", at("A3")), ("KH:T:H", at("B4"))]
    seen = detections(board, camera(15, 110), noise_px=0.5)
    seen += detections([("KH:E:P", (12, 12))], camera(15, 110))  # an event lying somewhere else
    read = read_board(seen, REGISTRY, BOARDS)
    assert read.conflicts == ()
    assert {p.key: p.side == "harvested" for p in read.tiles} == {"A1": True, "A2": False, "B1": True, "A4": False,
                                                          "B5": True, "C4": False}
    assert sorted(p.key for p in read.workers) == ["C", "H"]
    assert [(d.code, str(reason)) for d, reason in read.others] == [("KH:E:P", "an event tile is not placed on a board")]

    truth = {"game": "key-harvest", "players": [
        {"name": "Alice", "tiles": [{"label": code.split(":")[2], "crop": LAYOUT.crops[LAYOUT.index[code.split(":")[2]]].key,
                                     "harvested": code.endswith("H"), "at": list(where)}
                                    for code, where in board if code.startswith("KH:F")],
         "workers": [{"worker": "C", "at": list(at("A3"))}, {"worker": "H", "at": list(at("B4"))}],
         "stones": {"wine": 2}},
        {"name": "Bob", "tiles": [], "workers": [], "stones": {"hops": 1}}]}
    photo = BOARDS.snapshot([BOARDS.player("Alice", read, {"wine": 2})])
    photo["players"].append(truth["players"][1])
    assert score_snapshot(photo) == score_snapshot(truth)
    alice = score_snapshot(photo)["players"][0]
    assert (alice["worker_points"], alice["largest_group_points"], alice["second_group_points"]) == (6, 3, 2)


def test_a_worker_beside_the_board_is_reported_not_placed() -> None:
    board = [(tile(label), where) for label, where in SPACES[:14]] + [("KH:L:1:A", (2, 4)), ("KH:T:G", (3, 2))]
    read = read_board(detections(board, camera(10, 20)), REGISTRY, BOARDS)
    assert [p.key for p in read.workers] == ["G"]
    assert [d.code for d, _ in read.others] == ["KH:L:1:A"]
    assert "beside the board" in str(read.others[0][1])


def test_unknown_codes_are_reported_not_placed() -> None:
    seen = detections([(tile("A1"), (0, 0)), ("KH:F:ZZ9:U", (1, 0))], camera(0, 0))
    read = read_board(seen, REGISTRY, BOARDS)
    assert [p.key for p in read.pieces] == ["A1"]
    assert str(read.others[0][1]) == "not a sticker printed by this companion"


def test_conflicts_are_named_clearly() -> None:
    board = [(tile("A1"), (0, 0)), (tile("A1"), (1, 0)),      # one sticker twice
             (tile("B2"), (0, 1)), (tile("B2", "H"), (1, 1)),  # both sides of one tile
             (tile("C3"), (2, 1)), (tile("C4"), (2, 1)),       # two tiles on one space
             ("KH:L:1:A", (3, 0)), ("KH:L:2:A", (3, 1))]       # labourer A of two sets
    seen = detections(board, camera(5, 45))
    kinds = {c.kind: render(c.message) for c in read_board(seen, REGISTRY, BOARDS).conflicts}
    assert "sticker KH:F:A1:U is seen 2 times" in kinds["duplicate"]
    assert kinds["both-sides"] == "tile B2 shows both sides at once (harvested, unharvested)"
    assert kinds["same-space"].endswith("holds KH:F:C3:U, KH:F:C4:U")
    assert "labourer A of 2 sets" in kinds["duplicate-worker"]
    german = {c.kind: render(c.message, "de") for c in read_board(seen, REGISTRY, BOARDS).conflicts}
    assert german["both-sides"].startswith("Plättchen B2 zeigt beide Seiten zugleich")  # the camera page's language
    assert "2-mal zu sehen" in german["duplicate"] and "aus 2 Sätzen" in german["duplicate-worker"]


def test_a_tile_lying_between_spaces_is_a_conflict() -> None:
    board = [(tile(label), where) for label, where in SPACES[:14]]
    seen = detections(board, camera(0, 0))
    nudged = seen[9]
    half = fit_lattice(seen, PITCH).pitch_px / 2
    seen[9] = type(nudged)(nudged.code, 0, tuple((x + half, y) for x, y in nudged.corners))  # type: ignore[arg-type]
    conflicts = read_board(seen, REGISTRY, BOARDS).conflicts
    assert [c.kind for c in conflicts] == ["off-space"]
    assert conflicts[0].codes == (board[9][0],) and "lies between spaces" in render(conflicts[0].message)
