"""The ``companion`` command: ``score`` (snapshots on the toy board T20) and ``simulate`` (a toy game)."""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from tests.games.key_harvest.table import T20_ROWS as ROWS
from tests.games.key_harvest.table import snap_tile, snap_worker

import companion.games as registry
from companion.cli import main
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import CHANCE, TERMINAL, Game, Move
from companion.core.options import Options, OptionSpec
from companion.core.rng import step_rng, weighted_choice
from companion.simulate import SimulationResult, simulate

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run ``companion`` with these arguments (and optional stdin); return (status, stdout, stderr)."""

    def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        status = main(list(args))
        out, err = capsys.readouterr()
        return status, out, err

    return run


# -- score ---------------------------------------------------------------------------------------


def player(
    name: str, tiles: Sequence[str] = (), workers: Sequence[tuple[str, str]] = (), stones: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "name": name,
        "tiles": [snap_tile(label) for label in tiles],
        "workers": [snap_worker(letter, label) for letter, label in workers],
        "stones": stones or {},
    }


def snapshot(*players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": "key-harvest", "players": list(players), **extra}


def ex1() -> dict[str, Any]:
    alice = player("Alice", ("A1", "A2", "B1", "B2", "C1", "A4", "A5", "B5", "D3"), (("C", "A3"), ("A", "D4")))
    return snapshot(alice, player("Bob"), player("Cara"))


def write(tmp_path: Path, data: Any, name: str = "table.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_score_example_1(cli: Run, tmp_path: Path) -> None:
    status, out, err = cli("score", "key-harvest", write(tmp_path, ex1()))
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert out.startswith('{\n  "game": "key-harvest",')  # indent 2
    assert "layout" not in result
    alice = result["players"][0]
    assert alice == {
        "name": "Alice",
        "worker_points": 3,
        "largest_group_points": 5,
        "second_group_points": 6,
        "majority_points": 0,
        "total": 14,
        "rank": 1,
        "tiebreak": {"tiles": 9, "stones": 0},
    }
    assert [row["name"] for row in result["players"]] == ["Alice", "Bob", "Cara"]
    assert result["options"]["min_scoring_group_size"] == "1" and len(result["options"]) == 14


@pytest.mark.parametrize(
    ("tiles", "options", "total"),
    [
        (("A1", "A2", "B1", "B2", "C4", "C5", "D4", "D5"), (), 12),
        (("A1", "A2", "A3", "B1", "B2", "B3", "D1", "D5"), (), 8),
        (("A1", "A2", "A3", "B1", "B2", "B3", "D1", "D5"), ("min_scoring_group_size=2",), 6),
        (("A1", "A2", "A3", "B1", "B2", "B3", "D1", "D5"), ("min_scoring_group_size=1",), 8),
    ],
)
def test_score_example_2(
    cli: Run, tmp_path: Path, tiles: tuple[str, ...], options: tuple[str, ...], total: int
) -> None:
    path = write(tmp_path, snapshot(player("Alice", tiles), player("Bob")))
    args = [arg for option in options for arg in ("--option", option)]
    status, out, _ = cli("score", "key-harvest", path, *args)
    assert status == 0
    assert json.loads(out)["players"][0]["total"] == total


def test_score_example_2c_warehouse_from_stdin(cli: Run) -> None:
    data = snapshot(
        player("Alice", ("A1", "A2", "B1", "B2", "C4", "C5", "D4", "D5")),
        player("Bob", stones={"wheat": 1}),
        warehouses={"Alice": [{"label": "D3", "crop": "wine", "bid": {"wine": 1}}]},
    )
    status, out, err = cli("score", "key-harvest", "-", stdin=json.dumps(data))
    assert (status, err) == (0, "")
    assert [row["total"] for row in json.loads(out)["players"]] == [12, 1]


def test_score_example_3(cli: Run, tmp_path: Path) -> None:
    def stones(wheat: int, red: int, green: int, orange: int, brown: int) -> dict[str, int]:
        return {"wheat": wheat, "wine": red, "vegetables": green, "apples": orange, "hops": brown}

    data = snapshot(
        player("Alice", stones=stones(3, 2, 0, 1, 2)),
        player("Bob", stones=stones(3, 1, 2, 0, 1)),
        player("Cara", stones=stones(1, 1, 2, 0, 0)),
        warehouses={"Bob": [{"label": "31", "bid": {"brown": 4}}]},
    )
    status, out, _ = cli("score", "key-harvest", write(tmp_path, data))
    rows = json.loads(out)["players"]
    assert status == 0
    assert [row["majority_points"] for row in rows] == [3, 0, 0]
    assert [row["rank"] for row in rows] == [1, 2, 3]  # Bob and Cara: 0 points, 0 tiles, 7 and 4 stones
    assert [row["tiebreak"]["stones"] for row in rows] == [8, 7, 4]


def test_score_ranks_tiles_then_stones_then_shared(cli: Run, tmp_path: Path) -> None:
    data = snapshot(
        player("Alice", ("A1", "A2", "A3")),  # 3
        player("Bob", ("A1",), (("A", "D5"),)),  # 1 + 1 worker ... relabelled below
        player("Cara", ("B1",), (("A", "D5"),)),
    )
    data["players"][1]["tiles"] = [snap_tile("X1", at=[0, 0]), snap_tile("X2", at=[1, 0])]  # 2 + worker 1 = 3
    data["players"][2]["tiles"] = [snap_tile("Y1", at=[0, 0]), snap_tile("Y2", at=[1, 0])]
    data["players"][1]["stones"] = {"wheat": 2}
    data["players"][2]["stones"] = {"wine": 2}
    status, out, _ = cli("score", "key-harvest", write(tmp_path, data))
    rows = json.loads(out)["players"]
    assert status == 0
    assert [row["total"] for row in rows] == [3, 4, 4]  # Bob and Cara each hold one majority
    assert [row["rank"] for row in rows] == [3, 1, 1]  # 2 tiles and 2 stones each: a shared win
    status, out, _ = cli("score", "key-harvest", write(tmp_path, data), "--option", "tiebreak_tiles=fields_and_workers")
    assert [row["tiebreak"]["tiles"] for row in json.loads(out)["players"]] == [3, 3, 3]


def test_score_warns_when_the_provisional_layout_places_tiles(cli: Run, tmp_path: Path) -> None:
    data = ex1()
    del data["players"][0]["tiles"][0]["at"]  # A1 placed by its label
    status, out, err = cli("score", "key-harvest", write(tmp_path, data))
    assert status == 0
    assert json.loads(out)["layout"]["provisional"] is True
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: warning: ") and "provisional" in lines[0]


T20_LAYOUT = {
    "name": "t20",
    "provisional": False,
    "spaces": [
        {
            "label": f"{row}{n}",
            "at": [n, r],
            "crop": "wheat",
            "start_pair": {"A1": "a", "A2": "a", "A4": "b", "A5": "b", "D1": "c", "D2": "c", "D4": "d", "D5": "d"}.get(
                f"{row}{n}"
            ),
        }
        for r, row in enumerate(ROWS)
        for n in range(1, 6)
    ],
}


def test_score_with_a_transcribed_layout(cli: Run, tmp_path: Path) -> None:
    layout = write(tmp_path, T20_LAYOUT, "t20.json")
    data = ex1()
    for entry in data["players"][0]["tiles"]:
        del entry["at"]
    data["players"][0]["workers"] = [{"worker": "C", "label": "A3"}, {"worker": "A", "label": "D4"}]
    status, out, err = cli("score", "key-harvest", write(tmp_path, data), "--layout", layout)
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result["layout"] == {"name": "t20", "provisional": False, "note": ""}
    assert result["players"][0]["total"] == 14
    data["players"][0]["tiles"][3]["crop"] = "wine"
    status, out, err = cli("score", "key-harvest", write(tmp_path, data), "--layout", layout)
    assert (status, out) == (2, "")
    assert err == "companion: error: players[0].tiles[3]: crop wine disagrees with the layout (B2 is wheat)\n"
    status, out, err = cli("score", "key-harvest", write(tmp_path, data))  # provisional: crops not checked
    assert status == 0, err


def mutate(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """Example 1's snapshot with ``change`` applied."""
    data = ex1()
    change(data)
    return data


def alice(data: dict[str, Any]) -> dict[str, Any]:
    seat: dict[str, Any] = data["players"][0]
    return seat


def bob(data: dict[str, Any]) -> dict[str, Any]:
    seat: dict[str, Any] = data["players"][1]
    return seat


MALFORMED: list[tuple[str, Any, str]] = [
    ("not json", "{", "{path} is not JSON: Expecting property name enclosed in double quotes at line 1"),
    ("empty", "", "{path} is not JSON: Expecting value at line 1"),
    ("not an object", [], "snapshot: expected an object, not a list"),
    ("unknown top key", mutate(lambda d: d.update(fallow=[])), "snapshot: unknown key 'fallow'"),
    ("no players key", {"game": "key-harvest"}, "snapshot: missing key 'players'"),
    ("wrong game", mutate(lambda d: d.update(game="key-market")), "game: expected 'key-harvest', not 'key-market'"),
    ("no player", mutate(lambda d: d.update(players=[])), "players: Key Harvest is for 2 to 4 players (or one board alone), not 0"),
    (
        "five players",
        mutate(lambda d: d["players"].extend([player("Dan"), player("Eve")])),
        "players: Key Harvest is for 2 to 4 players (or one board alone), not 5",
    ),
    ("unknown player key", mutate(lambda d: bob(d).update(score=3)), "players[1]: unknown key 'score'"),
    ("missing stones", mutate(lambda d: bob(d).pop("stones")), "players[1]: missing key 'stones'"),
    (
        "same name",
        mutate(lambda d: bob(d).update(name="Alice")),
        "players[1].name: 'Alice' is already another player's name",
    ),
    (
        "unknown label",
        mutate(
            lambda d: bob(d).update(
                tiles=[snap_tile(f"X{n}", at=[n, 0]) for n in range(3)]
                + [{"label": "Q9", "crop": "wine", "harvested": False}]
            )
        ),
        "players[1].tiles[3]: unknown label 'Q9'",
    ),
    (
        "unknown tile key",
        mutate(lambda d: alice(d)["tiles"][2].update(colour="red")),
        "players[0].tiles[2]: unknown key 'colour'",
    ),
    (
        "tile without crop",
        mutate(lambda d: alice(d)["tiles"][2].pop("crop")),
        "players[0].tiles[2]: missing key 'crop'",
    ),
    (
        "unknown crop",
        mutate(lambda d: alice(d)["tiles"][2].update(crop="barley")),
        "players[0].tiles[2].crop: unknown crop 'barley'",
    ),
    (
        "harvested not boolean",
        mutate(lambda d: alice(d)["tiles"][2].update(harvested="yes")),
        "players[0].tiles[2].harvested: expected true or false, not 'yes'",
    ),
    (
        "bad position",
        mutate(lambda d: alice(d)["tiles"][2].update(at=[1])),
        "players[0].tiles[2].at: expected two whole numbers",
    ),
    (
        "position not numbers",
        mutate(lambda d: alice(d)["tiles"][2].update(at=[1, "2"])),
        "players[0].tiles[2].at: expected two whole numbers",
    ),
    (
        "duplicate label",
        mutate(lambda d: alice(d)["tiles"].append(snap_tile("A1", at=[9, 9]))),
        "players[0].tiles[9]: tile A1 appears twice on this board",
    ),
    (
        "duplicate position",
        mutate(lambda d: alice(d)["tiles"].append(snap_tile("E1", at=[1, 0]))),
        "players[0].tiles[9]: position [1, 0] already holds tile A1",
    ),
    (
        "tile on two boards",
        mutate(lambda d: bob(d)["tiles"].append(snap_tile("B5"))),
        "players[1].tiles[0]: tile B5 is also on Alice's board",
    ),
    (
        "worker on a field tile",
        mutate(lambda d: alice(d)["workers"].append(snap_worker("B", "B2"))),
        "players[0].workers[2]: worker B stands on field tile B2's position [2, 1]",
    ),
    (
        "two workers on one space",
        mutate(lambda d: alice(d)["workers"].append(snap_worker("B", "D4"))),
        "players[0].workers[2]: position [4, 3] already holds worker A",
    ),
    (
        "worker letter M",
        mutate(lambda d: alice(d)["workers"].append(snap_worker("M", "C3"))),
        "players[0].workers[2]: worker 'M' is not a letter A to L",
    ),
    (
        "worker letter number",
        mutate(lambda d: alice(d)["workers"].append({"worker": 3, "at": [9, 9]})),
        "players[0].workers[2]: worker 3 is not a letter A to L",
    ),
    (
        "worker nowhere",
        mutate(lambda d: alice(d)["workers"].append({"worker": "B"})),
        "players[0].workers[2]: a worker needs 'at' or 'label'",
    ),
    (
        "unknown worker key",
        mutate(lambda d: alice(d)["workers"][0].update(value=2)),
        "players[0].workers[0]: unknown key 'value'",
    ),
    (
        "labourer twice on a board",
        mutate(lambda d: alice(d)["workers"].append(snap_worker("C", "C3"))),
        "players[0].workers[2]: labourer C appears twice on this board",
    ),
    (
        "townsfolk twice on a board",
        mutate(lambda d: alice(d)["workers"].extend([snap_worker("H", "C3"), snap_worker("H", "C5")])),
        "players[0].workers[3]: townsfolk H appears twice on this board",
    ),
    (
        "townsfolk on two boards",
        mutate(lambda d: (alice(d)["workers"].append(snap_worker("H", "C3")), bob(d)["workers"].append(snap_worker("h", "A1")))),
        "players[1].workers[0]: townsfolk H is also on Alice's board",
    ),
    (
        "negative stones",
        mutate(lambda d: bob(d).update(stones={"wheat": -1})),
        "players[1].stones.wheat: expected a whole number, not -1",
    ),
    (
        "fractional stones",
        mutate(lambda d: bob(d).update(stones={"wine": 1.5})),
        "players[1].stones.wine: expected a whole number, not 1.5",
    ),
    (
        "stones as text",
        mutate(lambda d: bob(d).update(stones={"wine": "2"})),
        "players[1].stones.wine: expected a whole number, not '2'",
    ),
    (
        "stones as boolean",
        mutate(lambda d: bob(d).update(stones={"wine": True})),
        "players[1].stones.wine: expected a whole number, not True",
    ),
    (
        "unknown stone crop",
        mutate(lambda d: bob(d).update(stones={"gold": 1})),
        "players[1].stones.gold: unknown crop 'gold'",
    ),
    (
        "crop counted twice",
        mutate(lambda d: bob(d).update(stones={"wine": 1, "red": 1})),
        "players[1].stones.red: wine is given twice",
    ),
    (
        "13 stones of a crop",
        mutate(lambda d: (alice(d).update(stones={"wheat": 7}), bob(d).update(stones={"yellow": 6}))),
        "table: 13 wheat stones behind screens and in bids; the game has 12",
    ),
    (
        "13 with bids",
        mutate(
            lambda d: (
                alice(d).update(stones={"hops": 10}),
                d.update(warehouses={"Bob": [{"label": "E1", "bid": {"hops": 3}}]}),
            )
        ),
        "table: 13 hops stones behind screens and in bids; the game has 12",
    ),
    (
        "warehouse of a stranger",
        mutate(lambda d: d.update(warehouses={"Dan": []})),
        "warehouses.Dan: 'Dan' is not a player",
    ),
    (
        "warehouse of three",
        mutate(lambda d: d.update(warehouses={"Bob": [{"label": f"E{n}", "bid": {"wine": 1}} for n in range(3)]})),
        "warehouses.Bob: a warehouse holds at most 2 tiles, not 3",
    ),
    (
        "empty bid",
        mutate(lambda d: d.update(warehouses={"Bob": [{"label": "E1", "bid": {}}]})),
        "warehouses.Bob[0].bid: a bid is at least one stone",
    ),
    (
        "warehouse tile on a board",
        mutate(lambda d: d.update(warehouses={"Bob": [{"label": "A1", "bid": {"wine": 1}}]})),
        "warehouses.Bob[0]: tile A1 is also on Alice's board",
    ),
    (
        "land office of seven",
        mutate(lambda d: d.update(land_office=[f"E{n}" for n in range(7)])),
        "land_office: the land office holds at most 6 tiles, not 7",
    ),
    (
        "land office tile in a warehouse",
        mutate(lambda d: d.update(warehouses={"Bob": [{"label": "E1", "bid": {"wine": 1}}]}, land_office=["e1"])),
        "land_office[0]: tile E1 is also in Bob's warehouse",
    ),
    (
        "event letter",
        mutate(lambda d: d.update(event_track=["P", "A"])),
        "event_track[1]: 'A' is not an event letter M to Z",
    ),
    (
        "event twice",
        mutate(lambda d: d.update(event_track=["P", "Q", "P"])),
        "event_track[2]: event P is already on the track",
    ),
    (
        "eleven events",
        mutate(lambda d: d.update(event_track=list("MNOPQRSTUVW"))),
        "event_track: the track holds at most 10 events, not 11",
    ),
    (
        "fifteen events",
        mutate(lambda d: d.update(event_track=list("MNOPQRSTUV"), bag={"events": 5})),
        "table: 15 events on the track and in the bag; the game has 14",
    ),
    ("57 field tiles", mutate(lambda d: d.update(bag={"field_tiles": 48})), "table: 57 field tiles; the game has 56"),
    (
        "negative bag",
        mutate(lambda d: d.update(bag={"field_tiles": -1})),
        "bag.field_tiles: expected a whole number, not -1",
    ),
    ("unknown bag key", mutate(lambda d: d.update(bag={"tiles": 3})), "bag: unknown key 'tiles'"),
    (
        "unknown option in the file",
        mutate(lambda d: d.update(options={"house_rule": "yes"})),
        "options: unknown option 'house_rule'",
    ),
    (
        "bad option value in the file",
        mutate(lambda d: d.update(options={"min_scoring_group_size": 3})),
        "options: option min_scoring_group_size must be one of 1, 2, not '3'",
    ),
]


@pytest.mark.parametrize(("data", "reason"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_score_refuses_malformed_snapshots(cli: Run, tmp_path: Path, data: Any, reason: str) -> None:
    path = write(tmp_path, data)
    status, out, err = cli("score", "key-harvest", path)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion: error: {reason.replace('{path}', path)}")
    assert err.endswith("\n") and err.count("\n") == 1


def test_score_refuses_malformed_stdin(cli: Run) -> None:
    status, out, err = cli("score", "key-harvest", "-", stdin="[1, 2")
    assert (status, out) == (2, "")
    assert err.startswith("companion: error: standard input is not JSON: ") and err.count("\n") == 1


def test_score_accepts_one_labourer_letter_on_several_boards(cli: Run, tmp_path: Path) -> None:
    data = mutate(lambda d: bob(d)["workers"].append(snap_worker("C", "A3")))
    status, out, _ = cli("score", "key-harvest", write(tmp_path, data))
    assert status == 0
    assert json.loads(out)["players"][1]["worker_points"] == 2


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--option", "min_scoring_group_size=3"), "option min_scoring_group_size must be one of 1, 2, not '3'"),
        (("--option", "house_rule=yes"), "unknown option 'house_rule'; known: "),
        (("--option", "min_scoring_group_size"), "option 'min_scoring_group_size' is not of the form name=value"),
        (
            ("--layout", "/nonexistent/layout.json"),
            "cannot read layout /nonexistent/layout.json: No such file or directory",
        ),
    ],
)
def test_score_refuses_bad_options_and_layouts(cli: Run, tmp_path: Path, args: tuple[str, ...], reason: str) -> None:
    status, out, err = cli("score", "key-harvest", write(tmp_path, ex1()), *args)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion: error: {reason}") and err.count("\n") == 1


def test_score_refuses_unknown_games_and_missing_files(cli: Run, tmp_path: Path) -> None:
    status, out, err = cli("score", "chess", write(tmp_path, ex1()))
    assert (status, out) == (2, "")
    assert err.startswith("companion: error: unknown game 'chess' for score; known: key-harvest")
    status, out, err = cli("score", "key-harvest", str(tmp_path / "missing.json"))
    assert (status, out) == (2, "")
    assert err == f"companion: error: cannot read {tmp_path / 'missing.json'}: No such file or directory\n"


def test_usage_errors_exit_2(cli: Run) -> None:
    assert cli()[0] == 2
    assert cli("score", "key-harvest")[0] == 2
    assert cli("--help")[0] == 0


# -- simulate: a toy dice race -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll(Move):
    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Rest(Move):
    def __str__(self) -> str:
        return "rest"


@dataclass(frozen=True, slots=True)
class Jump(Move):
    """Never legal: what a buggy move generator yields."""

    def __str__(self) -> str:
        return "jump"


@dataclass(frozen=True, slots=True)
class Die(Move):
    value: int

    def __str__(self) -> str:
        return f"die {self.value}"


@dataclass(frozen=True, slots=True)
class RaceState:
    goal: int
    positions: tuple[int, ...]
    turn: int = 0
    rolling: bool = False
    rests: int = 0


class Race(Game[RaceState, Move]):
    """Roll a die (a chance step) or rest; the first to reach the goal wins. Sixes are twice as likely."""

    name = "race"
    title = "Dice Race"
    min_players = 2
    max_players = 4
    option_specs = (OptionSpec("goal", ("12", "30"), ref="RACE-1", help="the square that wins"),)
    invariant_names = ("positions_in_range", "turn_in_range")

    def setup(self, players: Sequence[str], options: Options) -> RaceState:
        return RaceState(goal=int(options["goal"]), positions=tuple(0 for _ in players))

    def parse_move(self, text: str) -> Move:
        words = text.split()
        if words in (["roll"], ["rest"], ["jump"]):
            return {"roll": Roll(), "rest": Rest(), "jump": Jump()}[words[0]]
        if len(words) == 2 and words[0] == "die" and words[1].isdigit():
            return Die(int(words[1]))
        raise MalformedInputError(f"not a move: {text!r}")

    def current_player(self, state: RaceState) -> int:
        if max(state.positions) >= state.goal:
            return TERMINAL
        return CHANCE if state.rolling else state.turn

    def legal_moves(self, state: RaceState) -> list[Move]:
        player = self.current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes(state)]
        return [Roll(), Rest()]

    def validate(self, state: RaceState, move: Move) -> IllegalMoveError | None:
        player = self.current_player(state)
        if player == TERMINAL:
            return IllegalMoveError("RACE-END", "the race is over", str(move))
        if (player == CHANCE) != isinstance(move, Die):
            return IllegalMoveError("CHANCE", "dice roll only at a chance step", str(move))
        if isinstance(move, Jump):
            return IllegalMoveError("RACE-J", "nobody may jump", str(move))
        if isinstance(move, Die) and not 1 <= move.value <= 6:
            return IllegalMoveError("RACE-D", "a die shows 1 to 6", str(move))
        return None

    def apply(self, state: RaceState, move: Move) -> RaceState:
        if isinstance(move, Roll):
            return replace(state, rolling=True)
        if isinstance(move, Rest):
            return replace(state, turn=(state.turn + 1) % len(state.positions), rests=state.rests + 1)
        assert isinstance(move, Die)
        positions = tuple(p + move.value if seat == state.turn else p for seat, p in enumerate(state.positions))
        return replace(state, positions=positions, rolling=False, turn=(state.turn + 1) % len(positions))

    def chance_outcomes(self, state: RaceState) -> list[tuple[Move, int]]:
        return [(Die(value), 2 if value == 6 else 1) for value in range(1, 7)]

    def score(self, state: RaceState) -> list[dict[str, Any]]:
        return [{"position": p} for p in state.positions]

    def view(self, state: RaceState, player: int | None) -> dict[str, Any]:
        return {"positions": list(state.positions), "turn": state.turn}

    def invariant_violations(self, state: RaceState) -> list[str]:
        problems = []
        if any(not 0 <= p < state.goal + 6 for p in state.positions):
            problems.append(f"positions_in_range: {state.positions}")
        if not 0 <= state.turn < len(state.positions):
            problems.append(f"turn_in_range: {state.turn}")
        return problems


class JumpyRace(Race):
    """A move generator that yields a move its own rules refuse."""

    def legal_moves(self, state: RaceState) -> list[Move]:
        moves = super().legal_moves(state)
        return [Jump()] if self.current_player(state) >= 0 else moves


class LeakyRace(Race):
    """A six sends the player backwards off the track."""

    def apply(self, state: RaceState, move: Move) -> RaceState:
        state = super().apply(state, move)
        return replace(state, positions=(-1,) + state.positions[1:]) if move == Die(6) else state


class LazyRace(Race):
    """Nobody ever rolls: the race never ends."""

    def legal_moves(self, state: RaceState) -> list[Move]:
        return [Rest()]


class ForgetfulRace(Race):
    """Counts rests with a counter outside the state, so a replay gives another state."""

    counter = itertools.count()

    def apply(self, state: RaceState, move: Move) -> RaceState:
        state = super().apply(state, move)
        return replace(state, rests=next(self.counter)) if isinstance(move, Rest) else state


class MisreadRace(Race):
    """Reads "rest" back as a roll."""

    def parse_move(self, text: str) -> Move:
        return Roll() if text == "rest" else super().parse_move(text)


class CrashingRace(Race):
    def apply(self, state: RaceState, move: Move) -> RaceState:
        if move == Die(5):
            raise RuntimeError("five is unlucky")
        return super().apply(state, move)


def test_simulate_plays_and_checks_every_game() -> None:
    result = simulate(Race(), players=3, games=20, seed="s1")
    assert isinstance(result, SimulationResult)
    assert result.ok and result.failures == ()
    assert (result.games, result.finished, result.players, result.game) == (20, 20, 3, "race")
    assert 0 < result.chance_moves < result.moves
    assert result.invariant_checks == {"positions_in_range": result.moves + 20, "turn_in_range": result.moves + 20}
    assert result.games_per_second > 0 and result.moves_per_second > 0
    assert result.options == {"goal": "12"}
    again = simulate(Race(), players=3, games=20, seed="s1")
    assert (again.moves, again.chance_moves) == (result.moves, result.chance_moves)
    assert simulate(Race(), players=3, games=20, seed="s2", options={"goal": "30"}).moves > result.moves


def test_simulate_picks_moves_with_the_step_generators() -> None:
    game, seed = Race(), "abc"
    state, moves = game.setup(("P1", "P2"), game.options()), 0
    while game.current_player(state) != TERMINAL:
        rng = step_rng(f"{seed}:0", moves)
        if game.current_player(state) == CHANCE:
            move = weighted_choice(rng, game.chance_outcomes(state))
        else:
            move = rng.choice(game.legal_moves(state))
        state, moves = game.apply(state, move), moves + 1
    assert simulate(game, players=2, games=1, seed=seed).moves == moves


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (JumpyRace(), "move 'jump': generated move refused: 'jump': nobody may jump [RACE-J]"),
        (LeakyRace(), "move 'die 6': invariant broken: positions_in_range: (-1,"),
        (ForgetfulRace(), "replay: replaying the move list gives a different final state"),
        (MisreadRace(), "move 'rest': replay: the move text parses back as 'roll'"),
        (CrashingRace(), "move 'die 5': raised RuntimeError: five is unlucky"),
    ],
    ids=["illegal generated move", "invariant", "replay", "notation", "crash"],
)
def test_simulate_reports_failures(game: Race, expected: str) -> None:
    result = simulate(game, players=2, games=30, seed="s1")
    assert not result.ok
    assert expected in str(result.failures[0])
    assert len(result.failures) <= 30
    assert f"failures: {len(result.failures)}" in result.summary().splitlines()


def test_simulate_reports_a_game_that_does_not_end() -> None:
    result = simulate(LazyRace(), players=2, games=2, seed="s", max_moves=50)
    assert [str(f) for f in result.failures] == [
        "game 0, ply 50: the game did not end within 50 moves",
        "game 1, ply 50: the game did not end within 50 moves",
    ]
    assert result.finished == 0


def test_simulate_refuses_bad_player_counts_and_options() -> None:
    with pytest.raises(MalformedInputError, match="Dice Race is for 2 to 4 players, not 5"):
        simulate(Race(), players=5, games=1, seed="s")
    with pytest.raises(MalformedInputError, match="option goal must be one of 12, 30"):
        simulate(Race(), players=2, games=1, seed="s", options={"goal": "7"})


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> Callable[[Race], None]:
    """Register a race game as "race" for the test."""

    def register(game: Race) -> None:
        monkeypatch.setitem(registry.GAMES, "race", game)

    return register


def test_simulate_command_json(cli: Run, race: Callable[[Race], None]) -> None:
    race(Race())
    status, out, err = cli(
        "simulate", "race", "--players", "4", "--games", "5", "--seed", "x", "--json", "--option", "goal=30"
    )
    assert (status, err) == (0, "")
    summary = json.loads(out)
    assert summary == simulate(Race(), players=4, games=5, seed="x", options={"goal": "30"}).to_dict() | {
        key: summary[key] for key in ("seconds", "games_per_second", "moves_per_second")
    }
    assert summary["games"] == 5 and summary["failures"] == [] and summary["options"] == {"goal": "30"}
    assert set(summary["invariant_checks"]) == {"positions_in_range", "turn_in_range"}


def test_simulate_command_text(cli: Run, race: Callable[[Race], None]) -> None:
    race(Race())
    status, out, _ = cli("simulate", "race", "--games", "3", "--seed", "x")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "race: 3 games of 2 players, seed 'x', 3 finished"
    assert "games/s" in lines[1] and "moves/s" in lines[1]
    moves = int(lines[1].split()[1])
    assert lines[2:] == [
        "invariants checked:",
        f"  positions_in_range: {moves + 3}",
        f"  turn_in_range: {moves + 3}",
        "failures: 0",
    ]


def test_simulate_command_fails_on_a_bad_game(cli: Run, race: Callable[[Race], None]) -> None:
    race(JumpyRace())
    status, out, err = cli("simulate", "race", "--games", "2", "--seed", "x")
    assert (status, err) == (1, "")
    assert "failures: 2" in out and "nobody may jump [RACE-J]" in out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("simulate", "nonesuch"), "unknown game 'nonesuch'; known: "),
        (("simulate", "race", "--players", "1"), "Dice Race is for 2 to 4 players, not 1"),
        (("simulate", "race", "--option", "goal=7"), "option goal must be one of 12, 30, not '7'"),
    ],
)
def test_simulate_command_errors(cli: Run, race: Callable[[Race], None], args: tuple[str, ...], reason: str) -> None:
    race(Race())
    status, out, err = cli(*args)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion: error: {reason}") and err.count("\n") == 1


def test_random_is_not_used_globally() -> None:
    """A run does not depend on (or disturb) the global random generator."""
    random.seed(1)
    first = simulate(Race(), players=2, games=3, seed="g")
    state = random.getstate()
    random.seed(2)
    assert simulate(Race(), players=2, games=3, seed="g").moves == first.moves
    random.setstate(state)
