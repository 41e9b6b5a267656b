"""Issue 12's seams: every game scores snapshots and reads its boards through the protocol (or says it does
not), so `companion score`, `scan --board`, `calibrate` and the camera page have no per-game code."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.codes import load_registry
from companion.codes.registry import registry_data
from companion.core.boards import BoardReader
from companion.core.errors import MalformedInputError, UnsupportedError
from companion.games import find_game, games
from tests.vision.photos import board_photo, full_board_photo, save

SNAPSHOTS: dict[str, dict[str, Any]] = {
    "key-harvest": {"game": "key-harvest", "players": [
        {"name": "Alice", "tiles": [{"label": "A1", "crop": "wheat", "harvested": False, "at": [0, 0]},
                                    {"label": "A2", "crop": "wheat", "harvested": True, "at": [1, 0]}],
         "workers": [], "stones": {"wheat": 2}},
        {"name": "Bob", "tiles": [], "workers": [], "stones": {"wine": 1}}]},
    "la-granja": {"game": "la-granja", "sell": {"olive": 1, "grain": 1, "grape": 1, "pig": 2},
                  "siesta_vp": [0, 1, 2, 3],
                  "players": [{"name": "A", "vp": 27, "silver": 12}, {"name": "B", "vp": 30}]},
}


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))


def test_every_registered_game_scores_snapshots_and_reads_boards_or_says_it_does_not() -> None:
    registry = load_registry()
    for game in games():
        try:
            scored = game.score_snapshot(SNAPSHOTS.get(game.name, {"players": []}))
        except UnsupportedError as exc:
            assert game.title in str(exc)
        else:
            assert all({"name", "total", "rank"} <= set(row) for row in scored["players"])
        boards = game.board_reader()
        assert boards is None or isinstance(boards, BoardReader) and boards.game == game.name
        if boards is not None:  # its board pieces are stickers of the registry
            kinds = {c.kind for c in registry.for_game(game.name)}
            assert boards.tile_kinds <= kinds and boards.standing_kinds <= kinds
        spec = registry_data()["games"].get(game.name)
        for component in game.stickers(spec) if spec else []:
            assert component.game == game.name
            assert spec is not None and spec["first_marker"] <= component.marker_id <= spec["last_marker"]


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_companion_score_prints_what_the_game_scores(name: str, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "score", name, "-", stdin=json.dumps(SNAPSHOTS[name]))
    assert (status, err) == (0, "")
    assert json.loads(out) == find_game(name).score_snapshot(SNAPSHOTS[name])


def test_score_reads_a_data_pack_given_with_data(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """La Granja's sell prices from the data pack given: the pack's prices count, and no provisional warning."""
    pack = json.loads(json.dumps(find_game("la-granja").edition()["data"]))
    snapshot = {"players": [{"name": "A", "vp": 1, "goods": {"pig": 3}}]}
    status, out, err = run(capsys, monkeypatch, "score", "la-granja", "-", stdin=json.dumps(snapshot))
    assert status == 0 and "PROVISIONAL" in err and err.count("\n") == 1
    before = json.loads(out)["players"][0]["total"]
    pack["prices"].update(provisional=False, sell={**pack["prices"]["sell"], "pig": pack["prices"]["sell"]["pig"] + 10})
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(pack), "utf-8")
    status, out, err = run(capsys, monkeypatch, "score", "la-granja", "-", "--data", str(path),
                           stdin=json.dumps(snapshot))
    assert (status, err) == (0, "") and json.loads(out)["players"][0]["total"] > before


def test_a_game_whose_boards_are_not_read_is_refused_by_scan_and_calibrate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    photo = str(save(board_photo(), tmp_path / "board.png"))
    status, out, err = run(capsys, monkeypatch, "scan", photo, "--board", "--game", "la-granja")
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("companion: error: scan --board: La Granja boards are not read from code stickers")
    assert "key-harvest" in err  # the games whose boards are
    status, out, err = run(capsys, monkeypatch, "calibrate", "la-granja", photo)
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("companion: error: calibrate: La Granja boards are not read from code stickers")


def test_calibrate_prints_the_game_data_it_installs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """What `calibrate` prints is a data pack the game takes with `--data`."""
    photo = str(save(full_board_photo(), tmp_path / "full.jpg"))
    status, out, _ = run(capsys, monkeypatch, "calibrate", "key-harvest", photo)
    assert status == 0
    pack = tmp_path / "calibrated.json"
    pack.write_text(out, "utf-8")
    status, scored, err = run(capsys, monkeypatch, "score", "key-harvest", "-", "--data", str(pack),
                              stdin=json.dumps(SNAPSHOTS["key-harvest"]))
    assert status == 0 and json.loads(scored)["players"][0]["largest_group_points"] == 2


WEB_GAMES = Path(__file__).resolve().parents[1] / "web" / "games"
NO_WEB_VIEW_YET: set[str] = set()
"""Games registered before their tablet pages (issue 14: Keyper's web view comes later); their pages answer 501 "No
table view yet" (tests/web/test_game_views.py). Remove a game from here when its folder arrives."""


def test_every_game_provides_each_part_or_declares_it_absent() -> None:
    """The parts of a game the shared layers look for (docs/core.md, "Adding a game"): each is there and works,
    or the game declares it absent (``None``, or ``UnsupportedError`` naming the game), never half of it."""
    from companion.core.datapack import DataPack
    from companion.games import package_of

    for game in games():
        package = package_of(game)
        assert package is not None, game.name
        state = game.setup([f"P{i}" for i in range(game.min_players)], game.options())
        assert game.current_player(state) is not None  # the rules: a state every layer can drive
        pack = game.data_pack()
        assert pack is None or isinstance(pack, DataPack) and game.with_data(pack.shipped()).name == game.name
        with pytest.raises((UnsupportedError, MalformedInputError)) as refused:  # one screen too many
            game.score_with_hidden(state, [{}] * (game.min_players + 1))
        assert isinstance(refused.value, MalformedInputError) or game.title in str(refused.value)
        view = WEB_GAMES / package
        if game.name in NO_WEB_VIEW_YET:
            assert not view.exists(), f"{game.name} has a web view now: take it off NO_WEB_VIEW_YET"
            continue
        assert {"table.html", "seat.html", "setup.js"} <= {p.name for p in view.iterdir()}, game.name
