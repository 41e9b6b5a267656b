"""Over the Top: a tiny but complete game for testing the session and the store.

Each player is dealt one secret token from a bag of numbered tokens. Then in turn each
player either draws another token or stops. Whoever's total goes over the target loses
at once; when everyone has stopped, the highest total wins. Drawing is a chance step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.core.bag import Bag
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import CHANCE, TERMINAL, Game, Move
from companion.core.options import Options, OptionSpec
from companion.session import CHANCE_RULE

TOKENS = tuple(n for n in range(1, 7) for _ in range(3))


@dataclass(frozen=True, slots=True)
class Draw(Move):
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Stop(Move):
    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Token(Move):
    """A chance outcome: the token that came out of the bag."""

    value: int

    def __str__(self) -> str:
        return f"token {self.value}"


@dataclass(frozen=True, slots=True)
class State:
    target: int
    bag: Bag[int]
    hands: tuple[tuple[int, ...], ...]
    stopped: tuple[bool, ...]
    turn: int
    waiting: tuple[int, ...]  # seats waiting for a token from the bag, in order
    loser: int | None = None

    @property
    def dealing(self) -> bool:
        """True while the secret starting tokens are being dealt."""
        return any(not hand for hand in self.hands)


class OverTheTop(Game[State, Move]):
    name = "toy"
    title = "Over the Top"
    min_players = 2
    max_players = 4
    option_specs = (OptionSpec("target", ("15", "10", "20"), ref="T-1", help="the total that must not be passed"),)

    def setup(self, players: Sequence[str], options: Options) -> State:
        seats = range(len(players))
        return State(
            target=int(options["target"]),
            bag=Bag(TOKENS),
            hands=tuple(() for _ in seats),
            stopped=tuple(False for _ in seats),
            turn=0,
            waiting=tuple(seats),
        )

    def parse_move(self, text: str) -> Move:
        words = text.split()
        if words == ["draw"]:
            return Draw()
        if words == ["stop"]:
            return Stop()
        if len(words) == 2 and words[0] == "token" and words[1].isdigit():
            return Token(int(words[1]))
        raise MalformedInputError(f"not a move: {text!r}")

    def current_player(self, state: State) -> int:
        if state.loser is not None or all(state.stopped):
            return TERMINAL
        return CHANCE if state.waiting else state.turn

    def legal_moves(self, state: State) -> list[Move]:
        player = self.current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes(state)]
        return [Draw(), Stop()] if len(state.bag) else [Stop()]

    def validate(self, state: State, move: Move) -> IllegalMoveError | None:
        player = self.current_player(state)
        if player == TERMINAL:
            return IllegalMoveError("T-END", "the game is over", str(move))
        if player == CHANCE:
            if not isinstance(move, Token):
                return IllegalMoveError(CHANCE_RULE, "a token must come out of the bag first", str(move))
            if move.value not in state.bag:
                return IllegalMoveError("T-BAG", f"there is no {move.value} left in the bag", str(move))
            return None
        if isinstance(move, Token):
            return IllegalMoveError(CHANCE_RULE, "tokens come out of the bag; nobody picks them", str(move))
        if isinstance(move, Draw) and not len(state.bag):
            return IllegalMoveError("T-EMPTY", "the bag is empty", str(move))
        return None

    def apply(self, state: State, move: Move) -> State:
        if isinstance(move, Draw):
            return replace(state, waiting=(state.turn,))
        if isinstance(move, Stop):
            stopped = tuple(s or seat == state.turn for seat, s in enumerate(state.stopped))
            return replace(state, stopped=stopped, turn=self._next(state.turn, stopped))
        assert isinstance(move, Token)
        seat, dealing = state.waiting[0], state.dealing
        hands = tuple(hand + (move.value,) if i == seat else hand for i, hand in enumerate(state.hands))
        state = replace(state, bag=state.bag.remove(move.value), hands=hands, waiting=state.waiting[1:])
        if sum(hands[seat]) > state.target:
            return replace(state, loser=seat)
        if not dealing:
            state = replace(state, turn=self._next(seat, state.stopped))
        return state

    def chance_outcomes(self, state: State) -> list[tuple[Move, int]]:
        return [(Token(value), count) for value, count in state.bag.outcomes()]

    def score(self, state: State) -> list[dict[str, Any]]:
        return [
            {"total": sum(hand), "stopped": stopped, "lost": seat == state.loser}
            for seat, (hand, stopped) in enumerate(zip(state.hands, state.stopped))
        ]

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        over = self.is_over(state)
        hands = [list(hand) if over or seat == player else len(hand) for seat, hand in enumerate(state.hands)]
        return {"bag": len(state.bag), "hands": hands, "turn": state.turn, "over": over, "loser": state.loser}

    def describe(self, state: State, move: Move, viewer: int | None) -> str:
        """The dealt tokens are secret: only their owner sees them in the log."""
        if isinstance(move, Token) and state.dealing and viewer != state.waiting[0]:
            return "token ?"
        return str(move)

    @staticmethod
    def _next(seat: int, stopped: tuple[bool, ...]) -> int:
        """The next seat still playing after ``seat`` (``seat`` itself if nobody else is)."""
        count = len(stopped)
        for step in range(1, count + 1):
            if not stopped[(seat + step) % count]:
                return (seat + step) % count
        return seat
