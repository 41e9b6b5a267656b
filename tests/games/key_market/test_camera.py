"""Key Market at the camera (issue 15): one photo of the territory read into where each worker stands, and the
coming harvest computed from that snapshot (spec 3.4); unknown stickers and ambiguous photos refused."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.codes import load_registry
from companion.games.key_market import KeyMarket
from companion.games.key_market.camera import KeyMarketBoards, geometry
from companion.vision.board import read_board_photo
from tests.vision.scenes import Placement, render_scene

GAME = KeyMarket()
BOARDS = KeyMarketBoards(GAME)
REGISTRY = load_registry()
PITCH = float(geometry()["field_mm"])


def territory(boards: list[tuple[str, float, float]], workers: list[tuple[str, str, int, int]]) -> list[Placement]:
    """Board sides (``1A``) laid with their top-left corner at (x, y) mm, unturned, every field's sticker in its
    corner; each worker (code, board, x, y) in the middle of its field."""
    at = {name: (x, y) for name, x, y in boards}
    frames = {f.name: f for f in BOARDS.frames()}
    placed = [Placement(code, at[name][0] + p[0], at[name][1] + p[1], 23.0 * n)
              for name, _, _ in boards for n, (code, p) in enumerate(frames[name].anchors.items())]
    return placed + [Placement(code, at[name][0] + (x + 0.5) * PITCH, at[name][1] + (y + 0.5) * PITCH, 41.0 * n)
                     for n, (code, name, x, y) in enumerate(workers)]


def cells(name: str) -> dict[tuple[int, int], tuple[str, str]]:
    board, side = int(name[0]), name[1].lower()
    return {(c.x, c.y): (c.shape, c.good) for c in GAME.data.boards[(board, side)]}


WORKERS = [("KM:W:1:3", "1A", 0, 0), ("KM:W:1:K", "2B", 2, 2), ("KM:W:2:1", "1A", 2, 2), ("KM:W:2:5", "2B", 0, 1)]
LAID = [("1A", 0.0, 0.0), ("2B", 3 * PITCH, 0.0)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def photo(tmp_path: Path, placements: list[Placement], difficulty: str = "medium", seed: int = 4) -> str:
    path = tmp_path / f"territory-{difficulty}-{seed}.jpg"
    assert cv2.imwrite(str(path), render_scene(placements, REGISTRY, difficulty, seed).image)
    return str(path)


@pytest.mark.parametrize("difficulty, seed", [("easy", 2), ("medium", 4), ("hard", 9)])
def test_one_photo_of_the_territory_says_where_every_worker_stands(difficulty: str, seed: int) -> None:
    read, _ = read_board_photo(render_scene(territory(LAID, WORKERS), REGISTRY, difficulty, seed).image, REGISTRY,
                               BOARDS)
    assert not read.conflicts
    seen = sorted((w["set"], w["worker"], w["board"], w["side"], tuple(w["field"]))
                  for w in BOARDS.territory(read)["workers"])
    assert seen == sorted((int(code.split(":")[2]), code.split(":")[3], int(name[0]), name[1].lower(), (x, y))
                          for code, name, x, y in WORKERS)


def test_the_scanned_snapshot_gives_the_coming_harvest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Spec 3.4 (Ex. L311): square fields 2, round 1, the village 1; a square field whose good the square marker shows
    gives 0, a round one whose good the round marker shows 3; guild 2 J adds 1 to square fields (its ability)."""
    path = photo(tmp_path, territory(LAID, WORKERS))
    a, b = cells("1A"), cells("2B")
    square_good = a[(0, 0)][1] if a[(0, 0)][0] == "square" else "fish"
    round_good = b[(2, 2)][1] if b[(2, 2)][0] == "round" else "veg"
    status, out, err = run(capsys, "scan", path, "--board", "--game", "key-market", "--players", "Red,Blue",
                           "--given", f"season=spring,square={square_good},round={round_good}",
                           "--hidden", "Blue:gold=4,fish=2")
    assert status == 0, err
    snapshot = json.loads(out)
    assert snapshot["season"] == "spring" and [p["name"] for p in snapshot["players"]] == ["Red", "Blue"]
    assert snapshot["players"][1] == {"name": "Blue", "gold": 4, "goods": {"fish": 2}}
    source = tmp_path / "territory.json"
    source.write_text(out)
    status, scored, _ = run(capsys, "score", "key-market", str(source))
    assert status == 0
    harvest = json.loads(scored)["harvest"]
    weather = {"square": square_good, "round": round_good}

    def base(shape: str, good: str) -> int:
        if good == "lux":
            return 1
        if good == weather[shape]:
            return 0 if shape == "square" else 3
        return 2 if shape == "square" else 1

    for name, fields in (("Red", [a[(0, 0)], b[(2, 2)]]), ("Blue", [a[(2, 2)], b[(0, 1)]])):
        assert [f["total"] for f in harvest[name]["fields"]] == [base(*f) for f in fields]
        assert all(isinstance(part["reason"], str) for f in harvest[name]["fields"] for part in f["parts"])
    assert json.loads(scored)["players"][1]["gold"] == 4
    with_guild = dict(snapshot, weather={"square": "wheat", "round": round_good},
                      players=[{"name": "Red", "guilds": {"2": "J"}}, snapshot["players"][1]])
    red = GAME.score_snapshot(with_guild)["harvest"]["Red"]["fields"]
    assert a[(0, 0)][0] == "square" and [f["total"] for f in red] == [2 + 1, base(*b[(2, 2)])]  # guild 2 J: +1


def test_the_harvest_needs_the_season_and_the_weather(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    snapshot = {"game": "key-market", "territory": {"workers": [{"set": 1, "worker": "1", "board": 1, "side": "a",
                                                                 "field": [0, 0]}]}, "players": [{"name": "Red"}]}
    for extra, reason in (({}, "needs the season"), ({"season": "spring"}, "give \"weather\""),
                          ({"season": "winter", "territory": {"workers": [{"set": 1, "worker": "1", "board": 9,
                                                                           "side": "a", "field": [0, 0]}]}},
                           "names a field the data pack does not have")):
        source = tmp_path / "s.json"
        source.write_text(json.dumps({**snapshot, **extra}))
        status, out, err = run(capsys, "score", "key-market", str(source))
        assert status == 2 and out == "" and reason in err
    source.write_text(json.dumps({**snapshot, "season": "winter"}))
    status, out, _ = run(capsys, "score", "key-market", str(source))
    assert status == 0 and json.loads(out)["harvest"]["Red"]["fields"][0]["total"] == 0  # nothing grows in Winter


def test_stickers_of_other_games_are_reported_and_a_worker_off_the_boards_is_not_placed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    placements = territory(LAID, WORKERS[:2]) + [Placement("KP:C:MINE:B", 40.0, 3.5 * PITCH),
                                                 Placement("KM:W:2:9", 2 * PITCH, 4.5 * PITCH)]
    status, out, err = run(capsys, "scan", photo(tmp_path, placements), "--board", "--game", "key-market",
                           "--players", "Red,Blue", "--given", "season=summer,square=wheat,round=fish")
    assert status == 0
    assert {w["worker"] for w in json.loads(out)["territory"]["workers"]} == {"3", "K"}
    assert "KP:C:MINE:B not placed: a sticker of Keyper" in err and "KM:W:2:9 not placed: beside the board" in err


@pytest.mark.parametrize("case, message", [
    ("between", "lies between spaces"),
    ("two_on_one", "holds KM:W:1:3, KM:W:2:1"),
    ("unnamed", "workers of set 2 are on the territory, but only 1 players are named"),
    ("no_fields", "no key-market board found on the photo"),
])
def test_an_ambiguous_photo_is_refused(case: str, message: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    workers = WORKERS[:3]
    placements = territory(LAID if case != "no_fields" else [], workers if case != "no_fields" else [])
    if case == "no_fields":
        placements = [Placement("KM:W:1:1", 0.0, 0.0), Placement("KM:W:1:2", 60.0, 0.0)]
    elif case == "between":
        placements.append(Placement("KM:W:2:7", 1.0 * PITCH, 2.5 * PITCH))
    elif case == "two_on_one":
        placements[-1] = Placement("KM:W:2:1", 0.5 * PITCH + 16.0, 0.5 * PITCH + 12.0)
        placements[-3] = Placement("KM:W:1:3", 0.5 * PITCH - 14.0, 0.5 * PITCH - 12.0)
    players = "Red" if case == "unnamed" else "Red,Blue"
    status, out, err = run(capsys, "scan", photo(tmp_path, placements, "easy"), "--board", "--game", "key-market",
                           "--players", players)
    assert status == 2 and out == "" and message in err


def test_table_and_hidden_text_are_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert BOARDS.parse_table("season=autumn, square=veg, round=sheep") == {
        "season": "autumn", "weather": {"square": "veg", "round": "sheep"}}
    assert BOARDS.parse_hidden("1=M sheep,5=A,gold=3,lux=1") == {"guilds": {"1": "M sheep", "5": "A"}, "gold": 3,
                                                               "goods": {"lux": 1}}
    path = photo(tmp_path, territory(LAID, WORKERS[:1]), "easy")
    for flag, text, reason in (("--given", "season=monsoon", "expected season=SEASON"),
                               ("--hidden", "Red:5=Z", "expected GUILD=LEVEL"),
                               ("--hidden", "Red:silver=2", "silver is neither a guild number")):
        status, out, err = run(capsys, "scan", path, "--board", "--game", "key-market", "--players", "Red", flag, text)
        assert status == 2 and out == "" and reason in err


def test_the_camera_compares_a_seats_workers_with_the_game() -> None:
    """The camera page: workers on the photo that the game does not have on those fields, and the other way."""
    import random

    from companion.games.key_market.rules import land

    state = GAME.setup(["Red", "Blue"], GAME.options())
    rng = random.Random(3)
    while not state.seat(0).fields():
        state = GAME.apply(state, GAME.sample_chance(state, rng) if GAME.current_player(state) < 0
                           else rng.choice(GAME.legal_moves(state)))
    fields = land(state).fields
    kept = {f"{f.board}{f.side.upper()}:{f.cell[0]}{f.cell[1]}" for _, pos in state.seat(0).fields()
            for f in (fields[pos],)}
    read, _ = read_board_photo(render_scene(territory(LAID, WORKERS[:1]), REGISTRY, "easy", 4).image, REGISTRY, BOARDS)
    _, differs, table = BOARDS.compare(read, state, 0)
    assert differs == {"workers_only_on_photo": sorted({"1A:00"} - kept), "workers_only_in_game": sorted(kept - {"1A:00"})}
    assert kept and table["players"][0]["name"] == "Red"


def test_a_board_turned_on_the_table_still_names_its_printed_fields() -> None:
    """Boards may be turned as they join (spec 2.2 step 15): the fields are named as printed on the side, whatever
    way round it lies. Board 1A turned a quarter clockwise, 3B below it unturned."""
    frames = {f.name: f for f in BOARDS.frames()}
    size = 3 * PITCH

    def turned(x: float, y: float) -> tuple[float, float]:  # a quarter clockwise about the board's centre
        return size - y, x

    placements = [Placement(code, *turned(*p), 90.0 + 17 * n) for n, (code, p) in enumerate(frames["1A"].anchors.items())]
    placements += [Placement(code, p[0], size + p[1], 11.0 * n) for n, (code, p) in enumerate(frames["3B"].anchors.items())]
    workers = [("KM:W:1:1", "1A", 2, 0), ("KM:W:2:K", "1A", 0, 1), ("KM:W:1:2", "3B", 1, 2)]
    for n, (code, name, x, y) in enumerate(workers):
        cx, cy = (x + 0.5) * PITCH, (y + 0.5) * PITCH
        placements.append(Placement(code, *(turned(cx, cy) if name == "1A" else (cx, size + cy)), 30.0 * n))
    scene = render_scene(placements, REGISTRY, "medium", 2)
    assert not scene.cut_off
    read, _ = read_board_photo(scene.image, REGISTRY, BOARDS)
    assert not read.conflicts
    assert sorted((w["worker"], w["board"], w["side"], tuple(w["field"])) for w in BOARDS.territory(read)["workers"]) \
        == [("1", 1, "a", (2, 0)), ("2", 3, "b", (1, 2)), ("K", 1, "a", (0, 1))]
