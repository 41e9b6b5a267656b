"""``companion play`` is a shared screen (issue 10): its choices, table, prompt and score show public information only."""

from __future__ import annotations

import io
from pathlib import Path

from companion.console import console
from companion.session import Session
from companion.store import GameStore


def run(tmp_path: Path, *commands: str) -> tuple[Session, str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = GameStore(tmp_path / "games.sqlite3")
    session = Session.new(store, "key-harvest", ["Ann", "Bo", "Cy"], seed="shared-terminal")
    out = io.StringIO()
    console(store, session, iter([*commands, "quit"]), out)
    return session, out.getvalue()


def test_moves_view_and_score_show_no_screen(tmp_path: Path) -> None:
    """'moves' lists the table's choices (every bid the stones behind all the screens could pay, never only the
    decider's); 'view' is the table's view; 'score' mid-game leaves the majorities (which tell the screens) for the
    end."""
    session, text = run(tmp_path, "moves", "view", "score")
    state = session.state
    seat = session.game.current_player(state)
    bids = {line.split(":")[0].strip() for line in text.splitlines() if line.startswith("  bid ")}
    assert {bid.split()[1] for bid in bids} == {state.layout.labels[t] for t in state.office_tiles}
    assert {str(m) for m in session.game.public_moves(state) if m.verb == "bid"} == bids
    assert any(session.game.validate(state, session.game.parse_move(bid)) is not None for bid in bids)  # R-D3 decides
    assert "  end: End your turn" in text.splitlines()  # each move in words
    assert "screen hidden" in text
    held = state.player(seat).stones
    assert "screen " + ", ".join(f"{n} {c}" for c, n in zip(("hops", "vegetables", "apples", "wine", "wheat"), held) if n) not in text
    assert "majorities counted at the end (behind the screens)" in text


def test_a_bid_is_one_move_at_the_terminal(tmp_path: Path) -> None:
    session, _ = run(tmp_path)
    state = session.state
    tile = state.layout.labels[state.office_tiles[0]]
    held = [c for c, n in zip(("hops", "vegetables", "apples", "wine", "wheat"), state.player(session.game.current_player(state)).stones) for _ in range(n)]
    session2, text = run(tmp_path / "again", f"bid {tile} {' '.join(held[:2])}")
    assert f"Bid on {tile} with " in text and "refused" not in text
    seat = session2.game.current_player(session2.state)
    assert len(session2.state.player(0).warehouse) + len(session2.state.player(1).warehouse) + len(session2.state.player(2).warehouse) == 1
    assert seat >= 0
