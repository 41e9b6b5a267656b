"""One small exception tree. Each error also subclasses the builtin it resembles."""

from __future__ import annotations

from typing import Any

from companion.core.messages import Message, Text


class CompanionError(Exception):
    """Base of every error the companion raises on purpose.

    Its first argument is what a person reads: a ``Message`` (rendered in their language at the edge; ``str()``
    of the error is its English) or, for errors not yet turned into messages, plain English text; ``text``
    keeps it as given.
    """

    def __init__(self, *args: Any) -> None:
        self.text: Text = args[0] if args and isinstance(args[0], Message) else (str(args[0]) if args else "")
        super().__init__(*((str(args[0]), *args[1:]) if args else ()))

    def message_json(self) -> dict[str, Any] | None:
        """The message as the browser renders it (``Message.to_json``), or ``None`` for plain text."""
        return self.text.to_json() if isinstance(self.text, Message) else None


class MalformedInputError(CompanionError, ValueError):
    """Input that cannot be read at all: bad move text, a malformed snapshot, a bad option."""


class IllegalMoveError(CompanionError, ValueError):
    """A well-formed move the rules do not allow now.

    ``rule`` is the specification's rule ID (for example ``R-T2``), ``reason`` a message (or sentence) a player
    understands, ``move`` the move text as given. ``text`` keeps the reason as given, ``reason`` is its English.
    """

    def __init__(self, rule: str, reason: Text, move: str = "") -> None:
        prefix = f"{move!r}: " if move else ""
        super().__init__(reason)
        self.args = (f"{prefix}{reason} [{rule}]",)
        self.rule = rule
        self.reason = str(reason)
        self.move = move

    def to_dict(self) -> dict[str, Any]:
        """The error as the tablet and the API show it (``message``: the reason as data, when it is a message)."""
        shown: dict[str, Any] = {"rule": self.rule, "reason": self.reason, "move": self.move}
        if isinstance(self.text, Message):
            shown["message"] = self.text.to_json()
        return shown


class UnknownGameError(CompanionError, LookupError):
    """No game (or no stored game) by that name or id."""


class StaleMoveError(CompanionError, RuntimeError):
    """A move or undo chosen from a version of the game the table has moved on from (another device, or another
    process, changed it first). ``version`` is the game's version now."""

    def __init__(self, version: int, reason: Text | None = None) -> None:
        self.version = version
        super().__init__(Message("core.refuse.stale") if reason is None else reason)


class UndoError(CompanionError, ValueError):
    """Nothing may be undone: no player move yet, or the game is over."""


class CorruptSaveError(CompanionError, RuntimeError):
    """A stored game whose log cannot be replayed or read."""


class UnknownCodeError(CompanionError, LookupError):
    """A sticker code or marker the code registry does not know."""


class ForeignCodeError(UnknownCodeError):
    """A scanned code the companion did not print (another product, or another registry version)."""


class StoreError(CompanionError, OSError):
    """The game store cannot be written now (another program holds it, it is not the companion's): nothing was
    changed."""


class DiskFullError(StoreError):
    """The disk is full: the change was not saved (and nothing else was lost)."""


class UnsupportedError(CompanionError, LookupError):
    """A game asked for something it does not offer (scoring a snapshot, reading its boards from codes)."""
