"""Keyper table snapshots (docs/keyper-snapshot.md): scored per player with the assignment tile by tile, refused
with a clear reason when they cannot be read."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.games.keyper.data import load_edition
from companion.games.keyper.snapshot import score_snapshot

EDITION = load_edition()
EXAMPLE = json.loads((Path(__file__).parent / "data" / "ex8-snapshot.json").read_text("utf-8"))


def test_the_documented_example_scores_ex8_and_ranks_the_table() -> None:
    """Ex 8 as a snapshot (spec 10): A scores 94 (the fair given by its VP), B less; each tile's assignment shown."""
    result = score_snapshot(EXAMPLE, EDITION)
    a, b = result["players"]
    assert (a["name"], a["total"], a["rank"], a["winner"]) == ("Ann", 94, 1, True)
    assert b["rank"] == 2 and b["total"] < 94
    goldsmith = next(t for t in a["tiles"] if t["tile"] == "goldsmith")
    assert goldsmith == {"tile": "goldsmith", "plot": "V6", "side": "upgraded", "points": 18,
                         "assigned": {"emerald": 3, "gold": 3, "sapphire": 3}}
    assert "warnings" not in result and result["data"]["provisional"] == []


def test_a_fair_named_by_its_tile_and_a_board_by_its_side_use_provisional_data_and_say_so() -> None:
    """3.6 and 7.4: a winter fair held in autumn scores its autumn/winter side; the Kiln counts the orange fields
    of the winter side named. Both values come from the placeholder data pack, so the result warns."""
    snap = {"players": [{"name": "Cy", "built": [{"tile": "kiln", "plot": "V1"}],
                         "fairs": [{"fair": "W1", "season": "autumn"}], "board": "1/winter/A"}]}
    result = score_snapshot(snap, EDITION)
    row = result["players"][0]
    orange = EDITION.layouts["1/winter/A"].colour_count("orange")
    assert row["fairs"] == EDITION.fairs["W1"].late_vp and row["tiles"][0]["points"] == 2 * orange
    assert result["data"]["provisional"] == ["boards", "fairs"]
    assert "PROVISIONAL" in result["warnings"][0]


def test_the_tie_break_option_wins_over_the_snapshot() -> None:
    """Ex 11 through a snapshot: printed mode by default (gems), Yucata when asked (finished goods)."""
    snap: dict[str, Any] = {"players": [
        {"name": "A", "shipping": 91, "goods": {"ruby": 7, "stone": 1}},
        {"name": "B", "shipping": 91, "goods": {"ruby": 4, "stone": 3}}]}
    assert [r["rank"] for r in score_snapshot(snap, EDITION)["players"]] == [1, 2]
    assert [r["rank"] for r in score_snapshot({**snap, "tiebreak": "printed"}, EDITION, "yucata")["players"]] == [2, 1]


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: s["players"][0]["built"].append({"tile": "castle", "plot": "V12"}), "castle is no Keyper tile"),
    (lambda s: s["players"][0]["built"].append({"tile": "kiln", "plot": "V13"}), "V13 is no plot"),
    (lambda s: s["players"][0]["built"].append({"tile": "kiln", "plot": "V1"}), "two top tiles on plot V1"),
    (lambda s: s["players"][1]["built"].append({"tile": "goldsmith", "plot": "V9"}), "built by two players"),
    (lambda s: s["players"][0].update(goods={"diamond": 1}), "\"goods\" counts"),
    (lambda s: s["players"][0].update(shipping=-1), "at least 0"),
    (lambda s: s["players"][0]["built"][0].update(side="flipped"), "\"base\" or \"upgraded\""),
    (lambda s: s.update(colour="red"), "unknown snapshot keys"),
    (lambda s: s["players"][0].update(fairs=[{"fair": "SU1", "season": "spring"}]), "end of summer, not spring"),
])
def test_a_snapshot_that_cannot_be_read_is_refused_with_its_reason(change: Any, words: str) -> None:
    snap = copy.deepcopy(EXAMPLE)
    change(snap)
    with pytest.raises(MalformedInputError, match=words):
        score_snapshot(snap, EDITION)


def test_a_tile_on_a_plot_of_the_other_area_is_scored_where_it_stands_with_a_warning() -> None:
    """D10: the areas of most country tiles are inferred, so a snapshot's plot wins, with a warning."""
    result = score_snapshot({"players": [{"name": "D", "built": [{"tile": "barn", "plot": "V2"}]}]}, EDITION)
    assert result["players"][0]["village"] == 0 and "barn stands on V2" in result["warnings"][0]


def test_companion_score_keyper_prints_the_score(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``companion score keyper -`` reads the snapshot from standard input; ``--option tiebreak=`` wins over it."""
    import io

    from companion.cli import main
    from companion.games import find_game

    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(EXAMPLE)))
    assert main(["score", "keyper", "-", "--option", "tiebreak=yucata"]) == 0
    out, err = capsys.readouterr()
    printed = json.loads(out)
    assert printed == find_game("keyper").score_snapshot(EXAMPLE, {"tiebreak": "yucata"})
    assert printed["tiebreak"] == "yucata" and printed["players"][0]["total"] == 94 and err == ""
