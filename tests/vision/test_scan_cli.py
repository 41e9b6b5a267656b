"""companion scan and companion calibrate on rendered photos, as a user runs them."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games.key_harvest.board import layout_of_pack, load_layout
from companion.games.key_harvest.snapshot import score_snapshot
from tests.vision.photos import BOARD, LAYOUT, board_photo, full_board_photo, save, tile_photo


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_scan_lists_every_code_with_its_pixel_centre(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = str(save(board_photo(), tmp_path / "alice.jpg"))
    status, out, _ = run(capsys, "scan", photo, "--json")
    assert status == 0
    (listing,) = json.loads(out)
    assert listing["image"] == photo and {c["code"] for c in listing["codes"]} == set(BOARD)
    assert all(0 < c["center"][0] < 1920 and 0 < c["center"][1] < 1080 for c in listing["codes"])
    status, out, _ = run(capsys, "scan", photo)
    assert status == 0 and out.startswith(f"{photo}: 7 stickers") and "KH:T:H" in out


def test_scan_board_prints_the_snapshot_that_score_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    alice = str(save(board_photo(), tmp_path / "alice.jpg"))
    bob = str(save(tile_photo("KH:F:C4:U"), tmp_path / "bob.jpg"))
    status, out, err = run(capsys, "scan", alice, bob, "--board", "--players", "Alice,Bob",
                           "--stones", "Alice:wheat=3,wine=2,apples=1,hops=2", "--stones", "Bob:wheat=3,red=1")
    assert status == 0 and err == ""
    snapshot = json.loads(out)
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    status, scored, _ = run(capsys, "score", "key-harvest", "-")
    assert status == 0

    def tile(code: str) -> dict[str, Any]:
        label = code.split(":")[2]
        return {"label": label, "crop": LAYOUT.crops[LAYOUT.index[label]].key, "harvested": code.endswith("H"),
                "at": list(BOARD.get(code, (0, 0)))}
    truth = {"game": "key-harvest", "players": [
        {"name": "Alice", "tiles": [tile(c) for c in BOARD if c.startswith("KH:F")],
         "workers": [{"worker": "C", "at": [2, 0]}, {"worker": "H", "at": [2, 1]}],
         "stones": {"wheat": 3, "wine": 2, "apples": 1, "hops": 2}},
        {"name": "Bob", "tiles": [tile("KH:F:C4:U")], "workers": [], "stones": {"wheat": 3, "wine": 1}}]}
    assert json.loads(scored) == score_snapshot(truth)
    alice_score = json.loads(scored)["players"][0]
    assert (alice_score["worker_points"], alice_score["largest_group_points"], alice_score["second_group_points"]) == (6, 3, 2)
    assert [p["name"] for p in snapshot["players"]] == ["Alice", "Bob"]


def test_one_photographed_board_scores_on_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion scan PHOTO --board | companion score key-harvest -`: the board's own points, and a warning."""
    alice = str(save(board_photo(), tmp_path / "alice.jpg"))
    status, out, _ = run(capsys, "scan", alice, "--board", "--players", "Alice")
    assert status == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    status, scored, err = run(capsys, "score", "key-harvest", "-")
    assert status == 0 and "one board alone" in err
    (alice_score,) = json.loads(scored)["players"]
    assert (alice_score["worker_points"], alice_score["largest_group_points"], alice_score["second_group_points"],
            alice_score["majority_points"], alice_score["total"]) == (6, 3, 2, 0, 11)


def test_scan_board_warns_about_what_a_camera_cannot_see(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = str(save(board_photo(), tmp_path / "alice.jpg"))
    status, out, err = run(capsys, "scan", alice, "--board")
    assert status == 0 and json.loads(out)["players"][0]["name"] == "Player 1"
    assert "one board alone" in err and "no stones given for Player 1" in err


@pytest.mark.parametrize("argv,message", [
    (["--players", "Alice,Bob"], "--players names 2 players for 1 photos"),
    (["--stones", "Zed:wheat=1"], "'Zed' is not one of Player 1"),
    (["--stones", "Player 1:wheat=many"], "expected CROP=N"),
    (["--stones", "Player 1:gold=1"], "unknown crop 'gold'"),
])
def test_scan_refuses_bad_arguments_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            argv: list[str], message: str) -> None:
    photo = str(save(tile_photo("KH:F:C4:U"), tmp_path / "p.jpg"))
    status, out, err = run(capsys, "scan", photo, "--board", *argv)
    assert status == 2 and out == "" and message in err


def test_scan_refuses_a_missing_or_broken_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 not really")
    status, _, err = run(capsys, "scan", str(tmp_path / "broken.jpg"))
    assert status == 2 and "not a picture OpenCV can open" in err
    status, _, err = run(capsys, "scan", str(tmp_path / "nothing.jpg"), "--board")
    assert status == 2 and "no such file" in err


def test_calibrate_installs_the_photographed_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    photo = str(save(full_board_photo(), tmp_path / "full.jpg"))
    status, out, err = run(capsys, "calibrate", "key-harvest", photo)
    assert status == 0 and "calibrated 56 spaces" in err and "0 labels sit elsewhere" in err
    assert layout_of_pack(json.loads(out)).neighbours == LAYOUT.neighbours
    assert not (tmp_path / "data" / "key-harvest-data.json").exists()  # without --install nothing changes

    status, out, _ = run(capsys, "calibrate", "key-harvest", photo, "--install")
    installed = tmp_path / "data" / "key-harvest-data.json"
    assert status == 0 and str(installed) in out
    layout = load_layout(installed)
    assert layout.name == "camera-calibrated" and layout.neighbours == LAYOUT.neighbours
    assert layout.provisional and "PROVISIONAL" in layout.note  # crops still the placeholders
    status, out, _ = run(capsys, "data", "key-harvest")
    assert "'camera-calibrated'" in out


def test_calibrate_refuses_a_board_with_tiles_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    photo = str(save(full_board_photo(leave_out=("D4", "G7")), tmp_path / "gaps.jpg"))
    status, out, err = run(capsys, "calibrate", "key-harvest", photo, "--install")
    assert status == 2 and out == ""
    assert "2 of the 56 field tiles are not on the photo (D4, G7)" in err
    assert not (tmp_path / "data" / "key-harvest-data.json").exists()


def test_scan_board_refuses_an_ambiguous_board_naming_the_problem(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tests.vision.scenes import Placement, render_scene
    from tests.vision.photos import REGISTRY

    stickers = [Placement.at_hex(f"KH:F:{label}:U", *at, rotation_deg=30.0 * n)
                for n, (label, at) in enumerate(zip(LAYOUT.labels[:12], LAYOUT.coords[:12]))]
    stickers.append(Placement.at_hex("KH:F:A1:H", 2, 2, rotation_deg=10.0))  # A1's other side, on another tile
    photo = str(save(render_scene(stickers, REGISTRY, "easy", seed=4).image, tmp_path / "odd.jpg"))
    status, out, err = run(capsys, "scan", photo, "--board")
    assert status == 2 and out == ""
    assert f"{photo}: tile A1 shows both sides at once (harvested, unharvested)" in err
    status, _, err = run(capsys, "scan", photo, "--game", "la-granja")
    assert status == 2 and "unknown game 'la-granja' for scan" in err
