"""La Granja's final score in words (issue 13): the terminal's score (``score_text``) lists the players best first,
each VP source in words (the same messages the tablet's final screen renders), and which tie-break decided
(spec 5.4: most VP, then the silver left over)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from companion.console import json_scores
from companion.core.game import TERMINAL
from companion.core.messages import render
from companion.games.la_granja import LaGranja
from companion.games.la_granja.data import load_edition
from companion.games.la_granja.scoring import tiebreak_notes
from companion.session import Session
from companion.store import GameStore

GAME = LaGranja(load_edition(None))


def row(name: str, total: int, rest: int, rank: int) -> dict[str, object]:
    return {"name": name, "total": total, "rest_silver": rest, "rank": rank, "ledger": {"V1": 1, "V15": total - 1}}


def test_the_terminal_score_ranks_the_players_with_each_source_in_words(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "la-granja", ["Ana", "Ben", "Cleo"], seed="final words")
        rng = random.Random(5)
        while GAME.current_player(session.state) != TERMINAL:
            session.play(rng.choice(session.game.legal_moves(session.state)))
        rows = session.game.score(session.state)
        english, german = json_scores(session, "en"), json_scores(session, "de")
    ranked = sorted(rows, key=lambda r: (r["rank"], rows.index(r)))
    lines = english.splitlines()
    for line, expected in zip(lines, ranked):  # best first, each with its place and total
        assert line.startswith(f"{expected['rank']}. {expected['name']}: {expected['total']} VP (")
    assert "starting VP +1" in lines[0] and "final conversion (every 5 silver)" in lines[0]
    assert "Start-SP +1" in german and "Schlussumrechnung (je 5 Silber)" in german and " SP (" in german
    assert not re.search(r"\bV\d+\b", english + german)  # no ledger codes
    assert lines[-1] == render(tiebreak_notes(rows)[-1], "en")


def test_the_tie_break_says_what_decided() -> None:
    level = [row("Ana", 20, 3, 2), row("Ben", 20, 4, 1), row("Cleo", 12, 0, 3)]
    assert [render(note, "en") for note in tiebreak_notes(level)] == [
        "Ana, Ben are level on 20 VP: the silver left over decides (Ana 3 silver, Ben 4 silver)."]
    shared = [row("Ana", 20, 4, 1), row("Ben", 20, 4, 1)]
    assert render(tiebreak_notes(shared)[0], "de") == (
        "Ana, Ben haben gleich viele SP (20) und gleich viel übriges Silber (Ana 4 Silber, Ben 4 Silber): "
        "sie teilen sich den Platz.")
    assert render(tiebreak_notes([row("Ana", 21, 0, 1), row("Ben", 20, 4, 2)])[0], "en").startswith("No tie")
