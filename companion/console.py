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
from companion.core.messages import FALLBACK, Message, Text, json_default, msg
from companion.core.messages import render as render_text
from companion.session import Session
from companion.store import GameStore


def render(view: Mapping[str, Any]) -> str:
    """The table as plain text, for a game with no ``table_text`` of its own: the view's JSON."""
    return json.dumps(view, indent=1, ensure_ascii=False, default=json_default)


def prompt_for(session: Session) -> Text:
    """Who must decide, and what about: the game's own line, else who is to move."""
    game, state = session.game, session.state
    if game.current_player(state) == TERMINAL:
        return msg("core.console.over")
    own = game.prompt_text(state, session.players)
    if own is not None:
        return own
    names = [session.players[seat] for seat in game.deciders(state)]
    return msg("core.console.to_move", names=names) if names else msg("core.console.drawing")


def console(store: GameStore, session: Session, lines: Iterator[str], out: TextIO, language: str = FALLBACK) -> None:
    """Read commands from ``lines`` until the game ends or ``quit``; write the table to ``out``, every message in
    ``language``."""
    game = session.game

    def say(text: Text) -> None:
        out.write(render_text(text, language) + "\n")

    def show_new(moves: Sequence[Any], before: int) -> None:
        log = session.export(None)["log"]
        for text in log[before:]:
            say(f"  {render_text(text, language)}")

    for warning in game.data_warnings():
        say(f"!! {render_text(warning, language)}")
    log = session.export(None)["log"]
    fresh = session.player_moves == 0
    say(msg("core.console.set_up") if fresh else msg("core.console.last_moves"))
    for text in log if fresh else log[-6:]:
        say(f"  {render_text(text, language)}")

    def show(view: Mapping[str, Any]) -> str:
        return lines_text(game.table_text(view), language) or render(view)

    out.write(show(session.view(None)) + "\n")
    while True:
        if game.current_player(session.state) == TERMINAL:
            say(json_scores(session, language))
            return
        out.write(render_text(prompt_for(session), language) + "\n> ")
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
            say(msg("core.console.saved", command=f"companion play --resume {session.id}"))
            return
        if command == "help":
            say(msg("core.console.help"))
        elif command == "moves":
            for move in game.public_moves(session.state):
                words = render_text(game.move_text(session.state, move), language)
                say(f"  {move}" if words == str(move) else f"  {move}: {words}")
        elif command == "view":
            out.write(show(session.view(None)) + "\n")
        elif command == "screen":
            deciders = game.deciders(session.state)
            for seat in deciders:
                say(msg("core.console.screen_of", name=session.players[seat]))
                say(show(session.view(seat)))
            if not deciders:
                say(msg("core.console.nobody_deciding"))
        elif command == "score":
            say(json_scores(session, language))
        elif command == "undo":
            lines = session.undo_info()["lines"]
            try:
                session.undo(shown)
                for line in lines:
                    say(line)
            except StaleMoveError:
                say(msg("core.console.stale"))
                say(show(session.view(None)))
            except CompanionError as exc:
                say(msg("core.console.refused", reason=exc.text))
        else:
            before = len(session.history)
            try:
                moves = session.play(command, shown)
            except StaleMoveError:
                say(msg("core.console.stale"))
                say(show(session.view(None)))
                continue
            except IllegalMoveError as exc:
                say(msg("core.console.refused", reason=refusal_text(session.table_refusal(exc), language)))
                continue
            except CompanionError as exc:
                say(msg("core.console.refused", reason=exc.text))
                continue
            show_new(moves, before)
            if game.current_player(session.state) != CHANCE:
                out.write(show(session.view(None)) + "\n")


def lines_text(text: Text | Sequence[Text] | None, language: str) -> str | None:
    """A game's own text for the terminal (``table_text``, ``score_text``: one text or lines) in ``language``."""
    if text is None:
        return None
    return "\n".join(render_text(line, language) for line in ([text] if isinstance(text, (str, Message)) else text))


def refusal_text(error: IllegalMoveError, language: str) -> str:
    """A refusal as the terminal shows it: the move, the reason in ``language`` and the rule (``'play L Z9': ...
    [R-B1]``)."""
    move = f"{error.move!r}: " if error.move else ""
    return f"{move}{render_text(error.text, language)} [{error.rule}]"


def json_scores(session: Session, language: str = FALLBACK) -> str:
    """The score as the table may see it: final once over, else the game's public projection (no screen)."""
    rows = session.game.score(session.state) if session.is_over else session.view(None).get("score")
    if not rows:
        return render_text(msg("core.console.score_at_end"), language)
    own = lines_text(session.game.score_text(rows), language)
    if own is not None:
        return own
    return "\n".join(f"{row.get('rank', '-')}. {row.get('name', '?')}: {row.get('total', '?')}"
                     for row in sorted(rows, key=lambda r: r.get("rank") or 0))
