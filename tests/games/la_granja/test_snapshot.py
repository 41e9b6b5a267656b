"""``companion score la-granja FILE|-`` and ``companion simulate la-granja`` as a table uses them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.errors import MalformedInputError
from companion.games.la_granja.snapshot import score_snapshot
from companion.simulate import random_playout
from tests.games.la_granja.table import SHIPPED, at, edit, edition_with, new_game

T9 = {
    "game": "la-granja",
    "sell": {"olive": 1, "grain": 1, "grape": 1, "pig": 2},
    "players": [
        {"name": "A", "vp": 27, "silver": 12, "trade_goods": 2, "goods": {"olive": 1, "grain": 1, "wine": 1},
         "field_crops": 1},
        {"name": "B", "vp": 30, "silver": 9},
    ],
}


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
        stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_t9_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "score", "la-granja", "-", stdin=json.dumps(T9))
    assert status == 0 and err == ""            # every price given: no provisional warning
    a, b = json.loads(out)["players"]
    assert (a["conversion_points"], a["total"], a["rank"]) == (4, 31, 2)
    assert (b["conversion_points"], b["total"], b["rank"], b["winner"]) == (1, 31, 1, True)
    assert "round_points" not in a


def test_round_points_when_the_round_is_still_to_score(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    snap = {"score_round": True, "players": [{"name": "A", "vp": 10, "silver": 4, "stalls": 4, "siesta": 3}]}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(snap), "utf-8")
    status, out, err = run(capsys, monkeypatch, "score", "la-granja", str(path))
    row, = json.loads(out)["players"]
    assert status == 0 and row["round_points"] == 4 + SHIPPED.siesta_vp[3]
    assert row["total"] == 10 + row["round_points"] + 0
    assert "PROVISIONAL" in err                 # the shipped siesta values and prices were used
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # a German terminal reads the warning in German, JSON and stderr
    monkeypatch.delenv("LC_ALL", raising=False)
    status, out, err = run(capsys, monkeypatch, "score", "la-granja", str(path))
    assert status == 0 and "VORLÄUFIG" in err and "Siesta" in err and "PROVISIONAL" not in err
    assert json.loads(out)["warnings"] == [line for line in [err.split("warning: ", 1)[1].strip()]]


@pytest.mark.parametrize(("snap", "words"), [
    ({"players": []}, "1 to 4 players"),
    ({"players": [{"name": "A", "silver": -1}]}, "at least 0"),
    ({"players": [{"name": "A", "coins": 3}]}, "unknown keys"),
    ({"players": [{"name": "A", "goods": {"gold": 1}}]}, "goods"),
    ({"score_round": True, "players": [{"name": "A", "siesta": 99}]}, "past the top"),
    ({"game": "key-harvest", "players": [{"name": "A"}]}, "not la-granja"),
    ({"sel": {"grape": 5}, "players": [{"name": "A"}]}, r"unknown snapshot keys \['sel'\]"),   # a typo
    ({"prices": {"sell": {"grape": 5}}, "players": [{"name": "A"}]}, "unknown snapshot keys"),
    ({"sell": [1, 2], "players": [{"name": "A"}]}, "sell prices"),
])
def test_bad_snapshots_are_refused_with_a_reason(snap: object, words: str) -> None:
    with pytest.raises(MalformedInputError, match=words):
        score_snapshot(snap, SHIPPED)


def test_bad_snapshot_on_the_command_line_exits_2(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "score", "la-granja", "-", stdin="{\"players\": 3}")
    assert status == 2 and out == "" and err.startswith("companion: error:")


def test_the_game_snapshot_scores_like_the_game() -> None:
    game, s = new_game(3)
    s = edit(s, 0, silver=13, trade=1, goods={"pig": 2, "olive": 1})
    s = at(s, "scoring", round=6)
    from_snapshot = score_snapshot(game.snapshot(s), s.edition)["players"]
    for row, snap_row in zip(game.score(s), from_snapshot):
        assert (row["total"], row["rank"], row["rest_silver"]) == \
            (snap_row["total"], snap_row["rank"], snap_row["rest_silver"])


def test_simulate_la_granja(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "simulate", "la-granja", "--players", "1", "--games", "3",
                           "--seed", "s", "--json")
    result = json.loads(out)
    assert status == 0 and result["finished"] == 3 and result["failures"] == []
    assert result["invariant_checks"]


def _dear(raw):  # type: ignore[no-untyped-def]
    raw["prices"]["sell"] = {"olive": 2, "grain": 3, "grape": 4, "pig": 5}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_played_game_snapshot_scores_exactly_like_the_game_on_its_own_prices(players: int) -> None:
    """The snapshot carries the game's sell prices under ``sell`` (docs/la-granja-snapshot.md), so scoring it with
    another data pack (the shipped one) gives the game's own totals, conversions and ranks (spec 5.3, 5.4)."""
    from companion.games.la_granja import LaGranja

    game = LaGranja(edition_with(_dear))
    for seed in range(3):
        state, _ = random_playout(game, players, seed)
        snap = game.snapshot(state)
        assert snap["sell"] == {"olive": 2, "grain": 3, "grape": 4, "pig": 5}
        keys = ("vp", "silver_total", "conversion_points", "rest_silver", "total", "rank", "winner")
        assert [{k: r[k] for k in keys} for r in score_snapshot(snap, SHIPPED)["players"]] == \
            [{k: r[k] for k in keys} for r in game.score(state)]
