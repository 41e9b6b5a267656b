"""Stored La Granja logs in an older notation, rewritten in today's (``LaGranja.upgrade_log``).

Before issue 10 several decisions were sent in pieces; today each is one move:

* donkeys: seats chose in turn (``donkey 3``: seat 1 first...) and the siesta step revealed them. Today all choose
  at once (``donkey SEAT MARKER``) and the companion's reveal step ``donkeys M1 M2 ...`` follows the last choice;
* deliveries: ``deliver wagner/2 wine``. Today ``deliver wagner/2=wine cart17=olive:field`` makes several at once;
  an old delivery is a batch of one (``deliver wagner/2=wine``), with the same meaning;
* free upgrades: ``upgrade olive free`` once per upgrade, then ``done``. Today ``upgrade free olive grain``;
* discards and freed markers: ``discard 17`` / ``release olive`` once per card or marker. Today ``discard 17 23``,
  ``release olive trade``.

The rewrite replays the old log with the old meaning of those pieces (``Legacy``) and gathers the pieces of each
decision into one move. A player's other moves made between two pieces (a purchase, a roof marker...) go before
the gathered move, else right after it; the rewritten log is checked against today's rules as it is built. The
log does not say the options and the player count: the count comes from the setup deal (4 cards each), and the
options are the first set of variant flags under which the old log replays (defaults first).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import CHANCE
from companion.core.messages import msg
from companion.games.la_granja import rules
from companion.games.la_granja.moves import LGMove, parse_move, token_key
from companion.games.la_granja.state import State, Task
from companion.games.la_granja.variants import VARIANT_FLAGS

if TYPE_CHECKING:
    from companion.games.la_granja import LaGranja

Log = list[tuple[str, bool]]


def seats_of_log(moves: Sequence[tuple[str, bool]]) -> int:
    """The number of players: the setup deals 4 cards to each before the first player's move (spec 2.1)."""
    dealt = 0
    for text, is_chance in moves:
        if not is_chance:
            break
        dealt += text.split()[0].lower() == "card"
    return max(1, dealt // 4)


def is_old(moves: Sequence[tuple[str, bool]]) -> bool:
    """Whether the log holds a form only the old notation wrote (a lone donkey marker, a free upgrade piece, a
    delivery without ``=``). Older logs without any of them read the same in both notations."""
    for text, is_chance in moves:
        words = text.lower().split()
        if is_chance or not words:
            continue
        if words[0] == "donkey" and len(words) == 2:
            return True
        if words[0] == "upgrade" and words[-1] == "free" and len(words) == 3:
            return True
        if words[0] == "deliver" and len(words) == 3 and "=" not in text:
            return True
    return False


def _piece(state: State, words: list[str]) -> LGMove | None:
    """The old one-piece move ``words`` as today's one-piece move, if it is one of the pieces of the top task."""
    top = state.top
    if top is None or not words:
        return None
    verb = words[0]
    if verb == "upgrade" and len(words) == 3 and words[2] == "free" and top.kind == "upgrade":
        return parse_move(f"upgrade free {words[1]}")
    if verb in ("discard", "release") and len(words) == 2 and top.kind == verb:
        return parse_move(f"{verb} {words[1]}")
    return None


class Legacy:
    """The game as the old notation played it: each piece counts its task down by one."""

    def __init__(self, state: State) -> None:
        self.state = state

    def play_piece(self, move: LGMove) -> None:
        """One piece, checked as a one-piece decision by today's rules, then counted down from its task."""
        s = self.state
        top = s.top
        assert top is not None
        one = s.copy()
        one.stack = s.stack[:-1] + (Task(top.kind, top.player, 1, top.arg),)
        error = rules.validate(one, move)
        if error is not None:
            raise error
        s = s.copy()
        p = s.players[top.player]
        rules._count_down(s)
        if move.verb == "upgrade":
            rules._upgrade(s, p, move.args[1])
        elif move.verb == "discard":
            rules._discard(s, p, int(move.args[0]))
        else:
            rules._release(s, p, move.args[0])
        rules.settle(s)
        self.state = s

    def play(self, move: LGMove) -> None:
        error = rules.validate(self.state, move)
        if error is not None:
            raise error
        self.state = rules.apply(self.state, move)
        if self.state.top is not None and self.state.top.kind == "donkeys":  # the old siesta step revealed them
            self.state = rules.apply(self.state, rules.chance_outcomes(self.state)[0][0])


def _canonical(token: str) -> tuple[int, int, str]:
    return (0, int(token), token) if token.isdigit() else token_key(token)


@dataclass
class Frame:
    """The pieces of one decision being gathered, and the other moves made meanwhile (already rewritten)."""

    depth: int
    kind: str
    player: int
    pieces: list[LGMove] = field(default_factory=list)
    between: Log = field(default_factory=list)

    def whole(self) -> tuple[str, bool]:
        tokens = sorted((m.args[-1] for m in self.pieces), key=_canonical)
        head = "upgrade free" if self.kind == "upgrade" else self.kind
        return (f"{head} {' '.join(tokens)}", False)

    def is_top(self, s: State) -> bool:
        top = s.top
        return top is not None and len(s.stack) - 1 == self.depth and top.kind == self.kind \
            and top.player == self.player

    def alive(self, s: State) -> bool:
        return len(s.stack) > self.depth and s.stack[self.depth].kind == self.kind \
            and s.stack[self.depth].player == self.player


class Rewriter:
    """Replays an old log (``Legacy``) and writes today's log, checked move by move against today's rules."""

    def __init__(self, game: LaGranja, players: int, options: dict[str, str]) -> None:
        self.game = game
        names = [f"P{i + 1}" for i in range(players)]
        self.old = Legacy(game.setup(names, game.options(options)))
        self.new = game.setup(names, game.options(options))
        self.out: Log = []
        self.frames: list[Frame] = []

    def emit(self, moves: Log) -> None:
        """Play rewritten moves: into the open frame's 'between' list, else onto today's game."""
        if self.frames:
            self.frames[-1].between.extend(moves)
            return
        for text, is_chance in moves:
            self._play_new(text, is_chance)

    def _play_new(self, text: str, is_chance: bool) -> None:
        move = parse_move(text)
        if is_chance != (self.game.current_player(self.new) == CHANCE):
            raise IllegalMoveError("upgrade", msg("lg.refuse.log.chance_out_of_place"), text)
        error = self.game.validate(self.new, move)
        if error is not None:
            raise error
        self.new = self.game.apply(self.new, move)
        self.out.append((text, is_chance))
        if self.new.top is not None and self.new.top.kind == "donkeys":
            self._play_new(str(rules.chance_outcomes(self.new)[0][0]), True)

    def step(self, text: str, is_chance: bool) -> None:
        words = text.lower().split()
        s = self.old.state
        if words and words[0] == "donkey" and len(words) == 2:
            deciders = rules.donkey_deciders(s)
            if not deciders:
                raise IllegalMoveError("3.4", msg("lg.refuse.log.no_donkey_due"), text)
            text = f"donkey {deciders[0] + 1} {words[1]}"
            words = text.split()
        if words and words[0] == "deliver" and len(words) == 3 and "=" not in text:
            text = f"deliver {words[1]}={words[2]}"   # one delivery: a batch of one, the same meaning
            words = text.split()
        piece = None if is_chance else _piece(s, words)
        if piece is not None:
            frame = self.frames[-1] if self.frames and self.frames[-1].is_top(s) else None
            if frame is None:
                top = s.top
                assert top is not None
                frame = Frame(len(s.stack) - 1, top.kind, top.player)
                self.frames.append(frame)
            self.old.play_piece(piece)
            frame.pieces.append(piece)
            after = self.old.state
            if not frame.alive(after) or len(after.stack) - 1 > frame.depth:
                self.close()       # the count is used up (or something now asks first)
            return
        move = parse_move(text)
        frame = self.frames[-1] if self.frames and self.frames[-1].is_top(s) else None
        if frame is not None and move.verb == "done":
            self.old.play(move)
            self.close()            # today the gathered move ends the decision: no 'done'
            return
        self.old.play(move)
        self.emit([(text, is_chance)])

    def close(self) -> None:
        frame = self.frames.pop()
        whole = [frame.whole()]
        if self.frames:
            self.emit(frame.between + whole)
            return
        for order in (frame.between + whole, whole + frame.between):
            saved = (self.new, len(self.out))
            try:
                self.emit(order)
                return
            except (IllegalMoveError, MalformedInputError):
                self.new, self.out = saved[0], self.out[:saved[1]]
        raise IllegalMoveError("upgrade", msg("lg.refuse.log.pieces_needed"), whole[0][0])

    def finish(self) -> Log:
        """A decision left half made when the log was stored is taken back (its player makes it again)."""
        while self.frames:
            frame = self.frames.pop()
            try:
                self.emit(frame.between)
            except (IllegalMoveError, MalformedInputError):
                pass
        return self.out


def _option_sets() -> list[dict[str, str]]:
    """Every combination of the variant flags that change play, the defaults first."""
    flags = [spec for spec in VARIANT_FLAGS if spec.name != "hide_vp"]
    return [dict(zip((f.name for f in flags), combo)) for combo in itertools.product(*(f.choices for f in flags))]


def upgrade_log(game: LaGranja, moves: Sequence[tuple[str, bool]]) -> Log:
    """``moves`` in today's notation; a log already in it comes back unchanged."""
    if not is_old(moves):
        return list(moves)
    players = seats_of_log(moves)
    failure: Exception | None = None
    for options in _option_sets():
        rewriter = Rewriter(game, players, options)
        try:
            for text, is_chance in moves:
                rewriter.step(text, is_chance)
            return rewriter.finish()
        except (IllegalMoveError, MalformedInputError, AssertionError, KeyError, ValueError, IndexError) as error:
            failure = failure or error
    raise MalformedInputError(f"this La Granja log cannot be rewritten in today's notation: {failure}")
