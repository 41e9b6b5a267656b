"""The terminal table (`companion play`): what a table sees and types."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.session import Session
from companion.store import GameStore


def run_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
             typed: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def stored(data: Path) -> list[Session]:
    with GameStore(data / "games.sqlite3") as store:
        return [Session.open(store, record.id) for record in store.list()]


def test_new_game_play_refuse_and_quit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_play(monkeypatch, capsys, ["--data", str(tmp_path)],
                            "Alice,Bob\nplay L Z9\nbuy A1\nend\nquit\n")
    assert code == 0
    assert "PROVISIONAL" in out  # the placeholder layout is announced
    assert "Set up the table:" in out and "take field tile" in out  # each setup draw names the piece
    assert "refused: 'play L Z9'" in out and "[R-B1]" in out  # no such space
    assert "[R-C1]" in out  # nothing to buy: the tile is in no warehouse
    assert "Resume with: companion play --resume" in out
    [session] = stored(tmp_path)
    assert [str(m) for m in session.history if not m.is_chance] == ["end"]


def test_resume_continues_the_same_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--players", "Alice,Bob,Cara"], "end\nquit\n")
    [before] = stored(tmp_path)
    code, out, _ = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--resume", before.id], "end\nquit\n")
    assert code == 0
    [after] = stored(tmp_path)
    ended = [str(m) for m in after.history if str(m) == "end"]
    assert len(ended) == 2
    assert after.state.active == after.state.next_seat(before.state.active)


def test_screens_stay_hidden_on_the_shared_display(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--players", "Alice,Bob"], "quit\n")
    assert "screen hidden" in out
    assert "Alice draws 1 starting stone in secret" in out and "Bob draws 1 starting stone in secret" in out
    [session] = stored(tmp_path)
    dealt = [str(m) for m in session.history if m.verb == "stone"]
    assert len(dealt) == 4  # two each (plus one of the fifth crop) with 2 players


def test_list_and_delete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--players", "Alice,Bob"], "quit\n")
    [session] = stored(tmp_path)
    code, out, _ = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--list"], "")
    assert code == 0 and session.id in out and "Alice, Bob" in out
    code, out, _ = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--delete", session.id], "")
    assert code == 0 and stored(tmp_path) == []
    code, _, err = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--resume", session.id], "")
    assert code == 2 and err.startswith("companion: error:")


def test_bad_player_count_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--players", "Solo"], "")
    assert code == 2
    assert err.strip().splitlines() == ["companion: error: Key Harvest is for 2 to 4 players, not 1"]


def test_the_table_reads_in_german_with_lang_de(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``--lang de``: the log, the prompt, the moves in words and the refusals in German (the notation stays)."""
    code, out, _ = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--lang", "de"],
                            "Alice,Bob\nmoves\nplay L Z9\nbuy A1\nquit\n")
    assert code == 0
    assert "Baut den Tisch auf:" in out and "aus der Schachtel" in out  # each setup draw names the piece
    assert "ist am Zug (noch keine Aktion)" in out
    assert "  end: Beende deinen Zug" in out.splitlines()
    assert "abgelehnt: 'buy A1': Feldplättchen A1 liegt in keinem Lager. [R-C1]" in out
    assert "Gespeichert. Weiter mit: companion play --resume" in out


def test_an_error_line_reads_in_the_language_of_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    code, _, err = run_play(monkeypatch, capsys, ["--data", str(tmp_path), "--players", "Solo"], "")
    assert code == 2
    assert err.strip().splitlines() == ["companion: error: Key Harvest ist für 2 bis 4 Spieler, nicht für 1"]
