"""Buttons against a game with dice (a tiny test game registered for the test): ROLL and DRAW
each answer only their own kind of chance step, and NEXT needs an end-turn move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import companion.games as registry
from companion.core.errors import IllegalMoveError, MalformedInputError
from companion.core.game import CHANCE, TERMINAL, Game, Move
from companion.core.options import Options
from companion.session import Session
from companion.store import GameStore
from firmware_bridge.commands import Button, CommandRefused, press
from firmware_bridge.lights import ROLL, lights_for


@dataclass(frozen=True, slots=True)
class Word(Move):
    text: str

    def __str__(self) -> str:
        return self.text


class DiceRace(Game[tuple[int, int], Word]):
    """Two players; each turn a die is rolled for the player to move, who then passes. First to 6 wins."""

    name = "dice-race"
    title = "Dice Race"
    min_players = max_players = 2

    def setup(self, players: Sequence[str], options: Options) -> tuple[int, int]:
        return (0, 0)  # (turn count, total of seat 0); rolls happen at even turns

    def parse_move(self, text: str) -> Word:
        if text == "pass" or (text.startswith("roll ") and text[5:] in "123456" and len(text) == 6):
            return Word(text)
        raise MalformedInputError(f"{text!r} is not a Dice Race move")

    def current_player(self, state: tuple[int, int]) -> int:
        turn, total = state
        if total >= 6:
            return TERMINAL
        return CHANCE if turn % 2 == 0 else (turn // 2) % 2

    def legal_moves(self, state: tuple[int, int]) -> list[Word]:
        if self.current_player(state) == CHANCE:
            return [Word(f"roll {n}") for n in range(1, 7)]
        return [Word("pass")]

    def validate(self, state: tuple[int, int], move: Word) -> IllegalMoveError | None:
        return None if move in self.legal_moves(state) else IllegalMoveError("DR-1", "not now", str(move))

    def apply(self, state: tuple[int, int], move: Word) -> tuple[int, int]:
        turn, total = state
        return (turn + 1, total + int(move.text[5:]) if move.text.startswith("roll") else total)

    def chance_outcomes(self, state: tuple[int, int]) -> list[tuple[Word, int]]:
        return [(move, 1) for move in self.legal_moves(state)]

    def score(self, state: tuple[int, int]) -> list[dict[str, Any]]:
        return [{"total": state[1], "rank": 1}, {"total": 0, "rank": 2}]

    def view(self, state: tuple[int, int], player: int | None) -> dict[str, Any]:
        return {"turn": state[0], "total": state[1]}


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch, store: GameStore) -> Session:
    monkeypatch.setitem(registry.GAMES, DiceRace.name, DiceRace())
    return Session.new(store, "dice-race", ["Ann", "Ben"], auto_chance=False)


def test_roll_makes_the_roll_and_draw_is_told_to_press_roll(dice: Session) -> None:
    assert lights_for(dice).status == ROLL
    with pytest.raises(CommandRefused, match="the game waits for a roll of the dice: press ROLL"):
        press(dice, Button.DRAW)
    assert dice.history == []
    moves = press(dice, Button.ROLL, rng=random.Random(4))
    assert len(moves) == 1 and str(moves[0]).startswith("roll ")
    assert dice.view(None)["total"] == int(str(moves[0])[5:])  # the roll is in the game
    assert dice.game.current_player(dice.state) == 0
    with pytest.raises(CommandRefused, match="nothing waits for a roll now: it is Ann's turn"):
        press(dice, Button.ROLL)


def test_next_in_a_game_without_an_end_turn_move(dice: Session) -> None:
    press(dice, Button.ROLL, rng=random.Random(1))
    with pytest.raises(CommandRefused, match="Dice Race has no end-turn move; use the tablet"):
        press(dice, Button.NEXT)


def test_ok_plays_the_chosen_move_and_refuses_an_illegal_one(dice: Session) -> None:
    press(dice, Button.ROLL, rng=random.Random(1))
    with pytest.raises(IllegalMoveError, match="not now"):
        press(dice, Button.OK, choice="roll 3")
    assert [str(m) for m in press(dice, Button.OK, choice="pass")] == ["pass"]


def test_draw_when_the_companion_draws_itself(store: GameStore) -> None:
    session = Session.new(store, "key-harvest", ["Ann", "Ben"])  # auto_chance: never waits
    with pytest.raises(CommandRefused, match="nothing waits for a draw now"):
        press(session, Button.DRAW)


def test_la_granja_yield_dice_are_rolled_by_the_roll_button(store: GameStore) -> None:
    """La Granja through the real session: DRAW deals the setup, ROLL rolls the 2N + 1 yield dice."""
    session = Session.new(store, "la-granja", ["Ann", "Ben", "Cy"], auto_chance=False)
    rng = random.Random(5)
    presses = {Button.DRAW: 0, Button.ROLL: 0}
    while not any(str(move).startswith("roll ") for move in session.history):
        game, state = session.game, session.state
        if game.current_player(state) == CHANCE:
            wrong = Button.DRAW if str(game.sample_chance(state, rng)).startswith("roll") else Button.ROLL
            with pytest.raises(CommandRefused, match="press (ROLL|DRAW)"):
                press(session, wrong)
            right = Button.ROLL if wrong is Button.DRAW else Button.DRAW
            press(session, right, rng)
            presses[right] += 1
        else:
            with pytest.raises(CommandRefused, match="nothing waits for a roll"):
                press(session, Button.ROLL)
            session.play(rng.choice(game.legal_moves(state)))
    roll = next(str(m) for m in session.history if str(m).startswith("roll "))
    assert len(roll.split()) - 1 == 2 * 3 + 1  # 7 dice for three players (spec: 2N + 1)
    assert presses[Button.ROLL] == 1 and presses[Button.DRAW] > 0
    reopened = Session.open(store, session.id)
    assert [str(m) for m in reopened.history] == [str(m) for m in session.history]
