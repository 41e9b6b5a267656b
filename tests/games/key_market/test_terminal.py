"""``companion play key-market`` shows the table in words (issue 27): the season and stage, the market's rows, the guilds
by name, each player's workers on fields named as the table names them, never the view's JSON or a grid position;
who decides; the score by the scoring sheet's rows (spec 5). A shared screen: nobody's gold or goods before the end."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from companion.console import console
from companion.session import Session
from companion.store import GameStore

NAMES = ["Ann", "Ben", "Cy"]


def played(tmp_path: Path, moves: int, *commands: str, language: str = "en") -> tuple[Session, str]:
    """A seeded game ``moves`` random moves in, then ``commands`` typed at the terminal; what it printed."""
    store = GameStore(tmp_path / "games.sqlite3")
    session = Session.new(store, "key-market", NAMES, seed="km-terminal")
    rng = random.Random(7)
    for _ in range(moves):
        if session.is_over:
            break
        session.play(rng.choice(session.game.legal_moves(session.state)))
    out = io.StringIO()
    console(store, session, iter([*commands, "quit"]), out, language)
    return session, out.getvalue()


def test_the_table_is_shown_in_words_not_json(tmp_path: Path) -> None:
    session, text = played(tmp_path, 60, "view")
    view = session.view(None)
    assert "{" not in text and '"stage"' not in text  # no JSON dump
    assert f"Year {view['year']}, {view['season']}: " in text
    assert re.search(r"^Market: fruit \d+ \(buy \d+, sell \d+\), vegetables \d+", text, re.M)
    assert "Guilds in play: " in text and "Guild" in text and not re.search(r"guild \d+", text)
    worked = [p for p in view["players"] if any(w.startswith("f:") for w in p["workers"])]
    assert worked
    for p in worked:
        line = next(line for line in text.splitlines() if line[2:].startswith(f"{p['name']}: workers on "))
        assert re.search(r"the \w+ field at the [a-z ]+ of \w+'s board|the village at", line), line
        assert "gold and goods behind the screen" in line  # a shared screen
    assert not re.search(r"-?\d+,-?\d+", text)  # no grid position anywhere
    deciders = ", ".join(NAMES[seat] for seat in session.game.deciders(session.state))
    assert f"To decide: {deciders} (" in text


def test_the_table_speaks_german(tmp_path: Path) -> None:
    _, text = played(tmp_path, 60, "view", language="de")
    assert "Markt: Früchte " in text and "Gilden im Spiel: " in text and "Am Zug: " in text
    assert re.search(r"Arbeiter auf das Feld \(\w+\) [a-z ]+ auf \w+s Tableau|Arbeiter auf (nichts|das Dorf)", text)


def test_the_score_is_the_scoring_sheet_by_rows(tmp_path: Path) -> None:
    """Spec 5: at the end each player's total and the sheet's rows, the winner first."""
    session, text = played(tmp_path, 100_000)
    assert session.is_over
    rows = sorted(session.game.score(session.state), key=lambda row: row["rank"])
    lines = [line for line in text.splitlines() if re.match(r"\d\. ", line)]
    assert [line.split(":")[0] for line in lines] == [f"{row['rank']}. {row['name']}" for row in rows]
    assert lines[0].startswith(f"1. {rows[0]['name']}: {rows[0]['total']} VP (Manor {rows[0]['manor']}, ")
