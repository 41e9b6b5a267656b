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
    assert "round 1, farm phase" in text and "market stalls:" in text
    assert "place a card" in text
    assert "refused: 'donkey 1 2'" in text and "[3.1]" in text
    assert "Saved. Resume with: companion play --resume" in text
