"""A terminal table: play a stored game move by move on the real session and SQLite store.

Until the tablet exists this is how a table uses the companion: it makes every draw, names
the physical piece to take, checks each move with the rule's reason, and keeps the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TextIO

from companion.core.errors import CompanionError, IllegalMoveError, StaleMoveError
from companion.core.game import CHANCE, TERMINAL
from companion.core.messages import render as render_text
from companion.session import Session
from companion.store import GameStore

HELP = """Type a move in the game's notation (e.g. 'harvest B3', 'play C D4', 'bid 31 wheat wine', 'end').
Other commands: moves (the moves the table may see), view (the table), screen (the deciding player's own
screen: the others look away), score, undo, help, quit. The terminal is a shared screen: it shows what the
whole table may know, and a move refused for what is behind a screen reads "check your screen"."""


def render(view: Mapping[str, Any]) -> str:
    """The table as plain text, for a game with no ``table_text`` of its own: the view's JSON."""
    return json.dumps(view, indent=1, ensure_ascii=False)


def prompt_for(session: Session) -> str:
    """Who must decide, and what about: the game's own line, else who is to move."""
    game, state = session.game, session.state
    if game.current_player(state) == TERMINAL:
        return "The game is over."
    own = game.prompt_text(state, session.players)
    if own is not None:
        return render_text(own)
    names = [session.players[seat] for seat in game.deciders(state)]
    return f"{' and '.join(names)} to move" if names else "The companion is drawing."


def console(store: GameStore, session: Session, lines: Iterator[str], out: TextIO) -> None:
    """Read commands from ``lines`` until the game ends or ``quit``; write the table to ``out``."""
    game = session.game

    def show_new(moves: Sequence[Any], before: int) -> None:
        log = session.export(None)["log"]
        for text in log[before:]:
            out.write(f"  {text}\n")

    for warning in game.data_warnings():
        out.write(f"!! {warning}\n")
    log = session.export(None)["log"]
    fresh = session.player_moves == 0
    out.write("Set up the table:\n" if fresh else "Last moves:\n")
    for text in log if fresh else log[-6:]:
        out.write(f"  {text}\n")

    def show(view: Mapping[str, Any]) -> str:
        return game.table_text(view) or render(view)

    out.write(show(session.view(None)) + "\n")
    while True:
        if game.current_player(session.state) == TERMINAL:
            out.write(json_scores(session) + "\n")
            return
        out.write(prompt_for(session) + "\n> ")
        out.flush()
        shown = session.version  # a move typed now is chosen from this version of the game
        line = next(lines, None)
        if line is None:
            out.write("\n")
            return
        command = line.strip()
        if not command:
            continue
        if command in ("quit", "exit"):
            out.write(f"Saved. Resume with: companion play --resume {session.id}\n")
            return
        if command == "help":
            out.write(HELP + "\n")
        elif command == "moves":
            out.write(", ".join(str(m) for m in game.public_moves(session.state)) + "\n")
        elif command == "view":
            out.write(show(session.view(None)) + "\n")
        elif command == "screen":
            deciders = game.deciders(session.state)
            for seat in deciders:
                out.write(f"-- {session.players[seat]}'s screen --\n{show(session.view(seat))}\n")
            if not deciders:
                out.write("nobody is deciding now\n")
        elif command == "score":
            out.write(json_scores(session) + "\n")
        elif command == "undo":
            taken = session.undo_info()["move"]
            try:
                session.undo(shown)
                out.write(f"took back: {taken}\n")
            except StaleMoveError:
                out.write("refused: the table has moved on (another device played); here it is now\n")
                out.write(show(session.view(None)) + "\n")
            except CompanionError as exc:
                out.write(f"refused: {exc}\n")
        else:
            before = len(session.history)
            try:
                moves = session.play(command, shown)
            except StaleMoveError:
                out.write("refused: the table has moved on (another device played); here it is now\n")
                out.write(show(session.view(None)) + "\n")
                continue
            except IllegalMoveError as exc:
                out.write(f"refused: {session.table_refusal(exc)}\n")
                continue
            except CompanionError as exc:
                out.write(f"refused: {exc}\n")
                continue
            show_new(moves, before)
            if game.current_player(session.state) != CHANCE:
                out.write(show(session.view(None)) + "\n")


def json_scores(session: Session) -> str:
    """The score as the table may see it: final once over, else the game's public projection (no screen)."""
    rows = session.game.score(session.state) if session.is_over else session.view(None).get("score")
    if not rows:
        return "the score is shown at the end (it depends on what is behind the screens)"
    own = session.game.score_text(rows)
    if own is not None:
        return own
    return "\n".join(f"{row.get('rank', '-')}. {row.get('name', '?')}: {row.get('total', '?')}"
                     for row in sorted(rows, key=lambda r: r.get("rank") or 0))
