"""``companion play la-granja``: the terminal table shows La Granja's board, prompt and refusals."""

from __future__ import annotations

import io
from pathlib import Path

from companion.console import console
from companion.session import Session
from companion.store import GameStore


def test_a_terminal_table_plays_and_refuses_with_the_rule(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "la-granja", ["Ana", "Ben"], seed="terminal")
        out = io.StringIO()
        console(store, session, iter(["done\n", "donkey 1 2\n", "view\n", "quit\n"]), out)
        text = out.getvalue()
    assert "placeholders" in text and "Set up the table:" in text
    assert "Round 1, farm phase" in text and "Market stalls:" in text
    assert "place a card" in text
    assert "refused: 'donkey 1 2'" in text and "[3.1]" in text
    assert "Saved. Resume with: companion play --resume" in text


def test_a_german_terminal_table_shows_the_board_in_german(tmp_path: Path) -> None:
    """``companion play la-granja --lang de``: the table's lines (round, buildings, market, players) in German."""
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "la-granja", ["Ana", "Ben"], seed="terminal")
        out = io.StringIO()
        console(store, session, iter(["view\n", "quit\n"]), out, language="de")
        text = out.getvalue()
    assert "Runde 1, Hofphase; Zugreihenfolge:" in text and "Marktstände:" in text and "Gebäude: " in text
    assert "Ana: " in text and " SP, Silber " in text
    for english in ("Round 1", "Market stalls", "Buildings:", "silver", "turn order"):
        assert english not in text
