"""What all four games share: the game protocol, chance, bags, errors, variant options."""

from companion.core.errors import (
    CompanionError,
    CorruptSaveError,
    IllegalMoveError,
    MalformedInputError,
    UndoError,
    UnknownGameError,
)
from companion.core.game import CHANCE, Game, Move, Outcome
from companion.core.options import OptionSpec, Options

__all__ = [
    "CHANCE",
    "CompanionError",
    "CorruptSaveError",
    "Game",
    "IllegalMoveError",
    "MalformedInputError",
    "Move",
    "OptionSpec",
    "Options",
    "Outcome",
    "UndoError",
    "UnknownGameError",
]
