"""Keyper at the camera (issue 14): one player board photographed, read into the snapshot that `companion score
keyper` scores; overbuilds, stickers of other boards and games, and ambiguous photos."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.cli import main
from companion.codes import load_registry
from companion.games.keyper import Keyper
from companion.games.keyper.camera import KeyperBoards
from companion.vision.board import read_board_photo
from tests.vision.scenes import Placement, render_scene

GAME = Keyper()
BOARDS = KeyperBoards(GAME)
REGISTRY = load_registry()
FRAME = BOARDS.frames()[0]
SPOT = {s.label: s.centre for s in FRAME.spots}

BUILT = [("KP:H:1:COW_SHED:U", "F1"), ("KP:H:1:PIG_STY:B", "F2"), ("KP:C:BARN:B", "F5"), ("KP:C:GOLDSMITH:U", "V6"),
         ("KP:C:DOCK:B", "V8"), ("KP:H:1:BRICKMAKER:B", "V1"), ("KP:C:STATUE:U", "V12")]
FAIRS = [("KP:F:SU2", "summer"), ("KP:W:W3:E", "spring")]


def board_placements(pieces: list[tuple[str, str]], anchors: bool = True, frame: int = 0) -> list[Placement]:
    """Player board ``frame``'s corner stickers and each (code, plot or fair space) at its space's centre."""
    corners = BOARDS.frames()[frame].anchors.items() if anchors else ()
    placed = [Placement(code, x, y, 37.0 * i) for i, (code, (x, y)) in enumerate(corners)]
    return placed + [Placement(code, *SPOT[label], 90.0 * i + 10) for i, (code, label) in enumerate(pieces)]


def photo(tmp_path: Path, placements: list[Placement], difficulty: str = "medium", seed: int = 1) -> str:
    path = tmp_path / f"board-{difficulty}-{seed}.jpg"
    assert cv2.imwrite(str(path), render_scene(placements, REGISTRY, difficulty, seed).image)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def expected_built() -> list[dict[str, str]]:
    return [{"tile": code.split(":")[-2].lower(), "plot": plot, "side": "upgraded" if code.endswith(":U") else "base"}
            for code, plot in BUILT]


@pytest.mark.parametrize("difficulty, seed", [("easy", 3), ("medium", 1), ("hard", 2)])
def test_a_photographed_board_gives_the_snapshot_that_score_scores(
        difficulty: str, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Top tiles by plot and side, fairs by the season of their space; the stores given by hand (spec 5.1)."""
    path = photo(tmp_path, board_placements(BUILT + FAIRS), difficulty, seed)
    status, out, err = run(capsys, "scan", path, "--board", "--game", "keyper", "--players", "Ann",
                           "--hidden", "Ann:emerald=5,gold=4,cow=3,white=2,shipping=12")
    assert status == 0, err
    snapshot = json.loads(out)
    (ann,) = snapshot["players"]
    assert sorted(ann["built"], key=lambda b: b["plot"]) == sorted(expected_built(), key=lambda b: b["plot"])
    assert sorted(ann["fairs"], key=lambda f: f["fair"]) == [{"fair": "SU2", "season": "summer"},
                                                            {"fair": "W3", "season": "spring"}]
    assert (ann["goods"], ann["animals"], ann["keyples"], ann["shipping"]) == \
        ({"emerald": 5, "gold": 4}, {"cow": 3}, {"white": 2}, 12)
    by_hand = {"game": "keyper", "players": [{"name": "Ann", "built": expected_built(),
                                              "fairs": [{"fair": "SU2", "season": "summer"},
                                                        {"fair": "W3", "season": "spring"}],
                                              "goods": {"emerald": 5, "gold": 4}, "animals": {"cow": 3},
                                              "keyples": {"white": 2}, "shipping": 12}]}
    (read,), (typed,) = GAME.score_snapshot(snapshot)["players"], GAME.score_snapshot(by_hand)["players"]
    assert sorted(read.pop("tiles"), key=str) == sorted(typed.pop("tiles"), key=str) and read == typed
    source = tmp_path / "snapshot.json"
    source.write_text(out)
    status, scored, _ = run(capsys, "score", "keyper", str(source))
    assert status == 0 and json.loads(scored)["players"][0]["total"] == GAME.score_snapshot(by_hand)["players"][0]["total"]


def test_an_overbuilt_plot_shows_its_top_tile_and_takes_the_covered_one_by_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The covered tile is dead and scores nothing (L643): the photo's top tile scores, the covered one is recorded."""
    path = photo(tmp_path, board_placements(BUILT))
    status, out, _ = run(capsys, "scan", path, "--board", "--game", "keyper", "--hidden", "Player 1:V8=drainage")
    assert status == 0
    built = {b["plot"]: b for b in json.loads(out)["players"][0]["built"]}
    assert built["V8"] == {"tile": "dock", "plot": "V8", "side": "base", "under": "drainage"}
    plain = GAME.score_snapshot({"players": [{"built": [b for b in built.values() if b["plot"] != "V8"]
                                                        + [{"tile": "dock", "plot": "V8"}]}]})
    assert GAME.score_snapshot(json.loads(out))["players"][0]["total"] == plain["players"][0]["total"]
    status, _, err = run(capsys, "scan", path, "--board", "--game", "keyper", "--hidden", "Player 1:V3=drainage")
    assert status == 2 and "V3 is given as overbuilt over drainage, but the photo shows no tile on V3" in err
    status, _, err = run(capsys, "scan", path, "--board", "--game", "keyper", "--hidden", "Player 1:V8=castle")
    assert status == 2 and "castle is not a Keyper tile" in err


def test_stickers_of_other_boards_and_games_are_not_placed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Another set's home tile, a boat, a Key Harvest tile and a Key Market worker on the board: reported, not built."""
    strangers = [("KP:H:2:STABLE:B", "F3"), ("KP:B:B1:S", "F4"), ("KH:F:A1:U", "V2"), ("KM:W:1:K", "V3")]
    path = photo(tmp_path, board_placements(BUILT[:3] + strangers))
    status, out, err = run(capsys, "scan", path, "--board", "--game", "keyper")
    assert status == 0
    assert {b["plot"] for b in json.loads(out)["players"][0]["built"]} == {"F1", "F2", "F5"}
    assert "KP:H:2:STABLE:B not placed: a home tile of set 2, not of this board's set 1" in err
    assert "KP:B:B1:S not placed: a boat lies beside the country boards" in err
    assert "KH:F:A1:U not placed: a sticker of Key Harvest" in err and "KM:W:1:K not placed: a sticker of Key Market" in err


@pytest.mark.parametrize("case, message", [
    ("between", "lies between spaces"),
    ("two_on_one", "space F1 holds KP:C:BARN:B, KP:H:1:COW_SHED:U"),
    ("both_sides", "tile goldsmith shows both sides at once"),
    ("no_corners", "no keyper board found on the photo: stick a code sticker in each corner"),
])
def test_an_ambiguous_photo_is_refused_with_one_sentence(case: str, message: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    placements = board_placements(BUILT[:3], anchors=case != "no_corners")
    f1, f2 = SPOT["F1"], SPOT["F2"]
    if case == "between":
        placements.append(Placement("KP:C:GOLDSMITH:U", (f1[0] + f2[0]) / 2, f1[1] + 34.0))
    elif case == "two_on_one":
        placements[-1] = Placement("KP:C:BARN:B", f1[0] - 8.0, f1[1] - 9.0)
        placements[-3] = Placement("KP:H:1:COW_SHED:U", f1[0] + 8.0, f1[1] + 9.0)
    elif case == "both_sides":
        placements += [Placement("KP:C:GOLDSMITH:U", *SPOT["V1"]), Placement("KP:C:GOLDSMITH:B", *SPOT["V2"])]
    status, out, err = run(capsys, "scan", photo(tmp_path, placements, "easy"), "--board", "--game", "keyper")
    assert status == 2 and out == "" and message in err


def test_the_board_with_most_corners_in_view_is_the_one_read() -> None:
    """One photo is one player's board: the set with most corners seen; set 3's home tiles are its own."""
    pieces = [("KP:H:3:STABLE:U", "F3"), ("KP:C:MINE:B", "V4")]
    placements = board_placements(pieces, frame=2)
    read, _ = read_board_photo(render_scene(placements, REGISTRY, "medium", 5).image, REGISTRY, BOARDS)
    assert not read.conflicts
    assert sorted((b["tile"], b["plot"], b["side"]) for b in BOARDS.player("Cy", read)["built"]) == \
        [("mine", "V4", "base"), ("stable", "F3", "upgraded")]


def test_the_hidden_pieces_are_checked() -> None:
    assert BOARDS.parse_hidden("rock=1, deer=2, black=3, shipping=4, board=2/winter/B, f2=farmyard") == {
        "goods": {"rock": 1}, "animals": {"deer": 2}, "keyples": {"black": 3}, "shipping": 4, "board": "2/winter/B",
        "under": {"F2": "farmyard"}}
    from companion.core.errors import MalformedInputError

    for bad, reason in (("rock=two", "expected KEY=N"), ("dragon=1", "dragon is not a good")):
        with pytest.raises(MalformedInputError) as error:
            BOARDS.parse_hidden(bad)
        from companion.core.messages import render

        assert reason in render(error.value.text)


def test_the_game_and_the_photo_are_compared_plot_by_plot() -> None:
    """The camera page's disagreements: a tile the game has elsewhere, one only on the photo, another side up."""
    state = GAME.setup(["Ann", "Bob"], GAME.options())
    read, _ = read_board_photo(render_scene(board_placements(BUILT[:2]), REGISTRY, "easy", 4).image, REGISTRY, BOARDS)
    photo_part, differs, table = BOARDS.compare(read, state, 0)
    tracked = {b["tile"]: b for b in GAME.board_reader().player("x", read)["built"]}
    assert set(tracked) == {"cow_shed", "pig_sty"} and table["players"][0] == photo_part
    in_game = {b["tile"] for b in _tracked(state)}
    assert differs["tiles_only_on_photo"] == sorted({"cow_shed", "pig_sty"} - in_game)
    assert GAME.score_snapshot(table)["players"][0]["name"] == "Ann"


def _tracked(state: Any) -> list[dict[str, Any]]:
    from companion.games.keyper.camera import table_snapshot

    built: list[dict[str, Any]] = table_snapshot(GAME, state)["players"][0]["built"]
    return built


@pytest.mark.parametrize("tilt, turn", [(0, 0), (25, 33), (20, 147), (25, 260)])
def test_every_plot_is_found_at_any_turn_and_tilt(tilt: float, turn: float) -> None:
    """Stickers seen through boardkit's camera (board turned in the photo, tilted up to 25 degrees, 1.5 px of corner
    noise): each tile lands on its own plot, and a tile a little off its plot's centre still does."""
    import math

    import numpy as np

    from companion.vision.detection import Detection
    from companion.vision.printed import read_printed
    from tests.vision.boardkit import camera

    homography = camera(tilt, turn, board_mm=260.0)
    rng = np.random.default_rng(int(tilt * 10 + turn))
    every = [(code, SPOT[label]) for code, label in BUILT + FAIRS] + list(FRAME.anchors.items())
    found = []
    for code, (x, y) in every:
        x, y = x - 120.0 + rng.uniform(-5, 5), y - 115.0 + rng.uniform(-5, 5)  # board centred; stuck off-centre
        a = math.radians(rng.uniform(0, 360))
        square = [(x + 6 * (math.cos(a) * dx - math.sin(a) * dy), y + 6 * (math.sin(a) * dx + math.cos(a) * dy))
                  for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        px = cv2.perspectiveTransform(np.array([square], dtype=np.float64), homography)[0]
        px += rng.normal(0, 1.5, px.shape)
        found.append(Detection(code, 0, tuple((float(u), float(v)) for u, v in px)))  # type: ignore[arg-type]
    read = read_printed(found, REGISTRY, BOARDS)
    assert not read.conflicts and not read.others
    assert sorted((BOARDS.spot(p.at)[1].label, p.code) for p in read.pieces) == \
        sorted((label, code) for code, label in BUILT + FAIRS)
