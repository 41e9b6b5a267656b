"""The protocol every game implements, in the manner of OpenSpiel and python-chess.

A game is a set of pure functions over immutable states. Randomness is never hidden inside
``apply``: when the game needs a draw, a roll or a shuffle, ``current_player`` is ``CHANCE``
and ``chance_outcomes`` lists the possible results with weights. The caller (the session, a
test, a playout) picks one and applies it like any move, so a game log replays exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from companion.core.errors import IllegalMoveError, MalformedInputError, UnknownGameError, UnsupportedError
from companion.core.messages import Text, msg
from companion.core.rng import weighted_choice
from companion.core.options import Options, OptionSpec

if TYPE_CHECKING:
    from companion.codes.registry import Component
    from companion.core.picks import Step
    from companion.core.boards import BoardReader
    from companion.core.datapack import DataPack

CHANCE = -1
"""``current_player`` while the game waits for a chance step (a draw, a roll, a shuffle)."""
TERMINAL = -2
"""``current_player`` once the game is over."""
SIMULTANEOUS = -3
"""``current_player`` while several seats decide at once, each in secret (``deciders`` says who is still
to choose; each move names its seat, ``seat_of``). The choices are revealed together once all are made."""


SCREEN_RULE = "SCREEN"
"""Rule ID of a refusal on a shared screen whose reason lies behind a player's screen (``table_refusal``)."""


@dataclass(frozen=True)
class Indicator:
    """A light a game asks the table's panel to show (Key Market: the good the weather favours): a stable ``key``
    (``favoured``), what it shows in words (``label``, a message) and its colour (``#rrggbb``). Public information
    only, as on every shared output."""

    key: str
    label: Text
    colour: str


@dataclass(frozen=True)
class PanelSignals:
    """What the table's button panel shows of a state beyond who decides now (``Game.panel_signals``).

    ``waiting``: the seats that may be asked next, in the order they will be (Keyper's followers), not those
    deciding now; their lights blink. ``indicators``: named lights, at most ``MAX_INDICATORS`` of them on a
    physical panel. ``next_move``: the move NEXT plays now, in notation (``None``: the end-turn move ``end``).
    """

    waiting: tuple[int, ...] = ()
    indicators: tuple[Indicator, ...] = ()
    next_move: str | None = None


MAX_INDICATORS = 2
"""Indicator lights on a physical panel (hardware/README.md); the virtual panel shows every one."""


class Move:
    """Base of every game's moves: frozen values whose ``str()`` is their text notation.

    Each game's ``parse_move(str(move)) == move`` holds for every move it generates.
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class VerbMove(Move):
    """A move written as a verb and its arguments, e.g. ``place B C4`` (games subclass it).

    ``chance_verbs`` names the verbs of the companion's own chance steps (draws, rolls).
    """

    verb: str
    args: tuple[str, ...] = ()
    chance_verbs: ClassVar[frozenset[str]] = frozenset()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))

    @property
    def is_chance(self) -> bool:
        return self.verb in self.chance_verbs


def split_move(text: object, verbs: Collection[str]) -> tuple[str, list[str]]:
    """The lower-case verb and the argument tokens of a move's text; ``MalformedInputError`` if
    it is not text, empty, or starts with none of ``verbs``."""
    if not isinstance(text, str):
        raise MalformedInputError(msg("core.refuse.move_not_text", kind=type(text).__name__))
    tokens = text.split()
    if not tokens:
        raise MalformedInputError(msg("core.refuse.move_empty"))
    verb = tokens[0].lower()
    if verb not in verbs:
        raise MalformedInputError(msg("core.refuse.unknown_verb", move=text, verb=tokens[0], verbs=list(verbs)))
    return verb, tokens[1:]


S = TypeVar("S")
M = TypeVar("M", bound=Move)
Outcome = tuple[Move, int]
"""A chance outcome and its integer weight."""


class Game(ABC, Generic[S, M]):
    """One game's rules. Subclasses are stateless; all state lives in ``S`` values."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def options(self, given: Mapping[str, str] | None = None) -> Options:
        """Validated variant flags, defaults filled in from the specification."""
        return Options(self.option_specs, given)

    @abstractmethod
    def setup(self, players: Sequence[str], options: Options) -> S:
        """The state before the setup's chance steps (those are chance moves like any draw)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move in the game's notation; raise ``MalformedInputError`` if unreadable."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """Seat index of whoever must decide now, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal move now (chance outcomes when ``current_player`` is ``CHANCE``)."""

    def random_move(self, state: S, rng: random.Random) -> M:
        """A legal move of whoever decides now, picked uniformly with ``rng`` (random playouts).

        The same as ``rng.choice(legal_moves(state))``; a game may do it faster (without making every move) but must
        draw the same random numbers and map them to the same move.
        """
        return rng.choice(self.legal_moves(state))

    @abstractmethod
    def validate(self, state: S, move: M) -> IllegalMoveError | None:
        """Why ``move`` is illegal now (rule ID and reason), or ``None`` if it is legal."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The state after ``move``, unchecked: call ``validate`` (or ``play``) first."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[M, int]]:
        """At a chance node: each possible outcome with its integer weight."""

    def sample_chance(self, state: S, rng: random.Random) -> M:
        """One chance outcome picked with ``rng`` in proportion to its weight.

        The same as ``weighted_choice(rng, chance_outcomes(state))``; a game may do it faster
        but must map each random number to the same outcome.
        """
        return weighted_choice(rng, self.chance_outcomes(state))

    @abstractmethod
    def score(self, state: S) -> list[dict[str, Any]]:
        """Per seat, the score breakdown (live during the game, final once over)."""

    @abstractmethod
    def view(self, state: S, player: int | None) -> dict[str, Any]:
        """JSON-ready state as ``player`` may see it (``None``: the shared table view)."""

    def edition(self) -> dict[str, Any]:
        """The printed data this instance plays with (a board layout...), JSON-ready.

        A session stores it with each game, so the game replays on the same data even if other
        data is installed later; ``with_edition`` rebuilds the game from it.
        """
        return {}

    def with_edition(self, edition: Mapping[str, Any]) -> Game[S, M]:
        """This game playing with the stored ``edition`` data."""
        return self

    def data_pack(self) -> DataPack[Game[S, M]] | None:
        """The game's printed data (its schema, shipped default and loader, each game's ``data/schema.json``),
        whose loader makes this game on a pack; ``None`` for a game without printed data (docs/core.md)."""
        return None

    def with_installed_data(self, data_dir: Path) -> Game[S, M]:
        """This game on the printed data installed in ``data_dir`` now (read again on every call, so a
        table that installs its box's values starts its next game on them); the same game if it has none.
        ``MalformedInputError`` if the installed file is damaged."""
        pack = self.data_pack()
        if pack is None:
            return self
        use = pack.in_use(data_dir)
        if use.damaged is not None:
            raise MalformedInputError(use.damaged)
        return use.value

    def with_data(self, raw: Any) -> Game[S, M]:
        """This game on the data pack ``raw`` (parsed JSON, e.g. a file the user gives), checked against the schema
        and by the game's loader (``MalformedInputError`` says what is wrong); the same game if it has no printed
        data."""
        pack = self.data_pack()
        return self if pack is None else pack.load(raw)

    def install_data(self, raw: Any, data_dir: Path) -> Path:
        """Check ``raw`` and install it atomically as the data pack new games in ``data_dir`` start on; its path.
        ``UnknownGameError`` if the game has no printed data."""
        pack = self.data_pack()
        if pack is None:
            raise UnknownGameError(f"{self.title} has no printed data to install")
        return pack.install(raw, data_dir)

    def data_warnings(self) -> Sequence[Text]:
        """One message per piece of provisional data this game is using (shown on every output)."""
        return []

    def score_with_hidden(self, state: S, hidden: Sequence[Mapping[str, Any] | None]) -> list[dict[str, Any]]:
        """``score`` rows with what lies behind some players' screens as they report it, one entry per seat
        (``None``: the companion's count), checked like a snapshot; the game is unchanged. The default raises
        ``UnsupportedError`` (a game that hides nothing that scores)."""
        raise UnsupportedError(f"{self.title} cannot be rescored with what is behind the screens")

    def score_snapshot(self, snapshot: Any, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Score a table snapshot (parsed JSON in the game's documented format, e.g. read off the table by a person
        or a camera) on this game's data, ``options`` winning over the snapshot's own: ``{"game", "players": [per
        player its points by source, "total", "rank"], "warnings": [sentences], ...}``; ``MalformedInputError``
        says what is wrong with the snapshot. ``UnsupportedError`` for a game that scores no snapshots."""
        raise UnsupportedError(f"{self.title} cannot score a table snapshot")

    def board_reader(self) -> BoardReader | None:
        """How this game's boards are read off code stickers, on this game's data; ``None``: they are not."""
        return None

    def stickers(self, spec: Mapping[str, Any]) -> list[Component]:
        """This game's code stickers on its data, allocated as ``spec`` (its entry in the code registry's
        ``registry.json``) says; none by default."""
        return []

    def moves_naming(self, state: S, component: Component, moves: Sequence[str]) -> list[str]:
        """The moves among ``moves`` (notation) that name ``component``, a sticker just scanned: what the scan
        station offers. The default: the moves with the component's key as a word after the verb (``harvest B3/wine``
        names tile B3, ``play C D4`` worker C); a game whose moves name a piece otherwise (by where it lies) says so."""
        return moves_with_key(component.key, moves)

    invariant_names: ClassVar[tuple[str, ...]] = ()
    """What ``invariant_violations`` checks (for playouts and ``companion simulate``)."""

    def invariant_violations(self, state: S) -> list[str]:
        """Broken invariants of ``state`` (conservation of pieces and the like); empty if sound."""
        return []

    def deciders(self, state: S) -> tuple[int, ...]:
        """The seats that may move now: the current player, or at a ``SIMULTANEOUS`` step every seat
        still to choose (empty at a draw or the end)."""
        who = self.current_player(state)
        return (who,) if who >= 0 else ()

    def seat_of(self, state: S, move: M) -> int | None:
        """The seat ``move`` is made by (``None`` for a chance outcome). Games with ``SIMULTANEOUS`` steps
        override it: their moves name the seat."""
        who = self.current_player(state)
        return who if who >= 0 else None

    def is_secret(self, state: S, move: M) -> bool:
        """Whether the table must not learn what ``move`` is (a draw only its player sees, a choice made
        behind a screen). ``describe(state, move, None)`` masks it; the indistinguishability tests swap such
        moves for others to build states that differ only in hidden information."""
        return False

    def reveals(self, state: S, move: M) -> object:
        """The hidden information the public ``move`` shows the table (a secretly drawn tile as it is placed),
        ``None`` if none: ``hidden_twin`` stops before a public move that would show its twin something else."""
        return None

    notation: ClassVar[int] = 1
    """The version of the game's move notation; raise it (and extend ``upgrade_log``) when a log written before
    no longer replays. Each stored game records the notation its log is written in."""

    def upgrade_log(self, moves: Sequence[tuple[str, bool]], notation: int) -> list[tuple[str, bool]]:
        """A stored log ``(text, is_chance)`` written in the older ``notation``, rewritten in today's (one decision
        that used to take several moves becomes one move). The session rewrites a stored game once with it."""
        return list(moves)

    def public_moves(self, state: S) -> list[M]:
        """The moves of whoever decides now, as the whole table may know them (empty at a draw or the end).

        ``legal_moves`` can give hidden information away (which bids a player can pay tells
        what is behind their screen). A shared screen offers these instead: every legal move,
        plus moves that would be legal for some hidden information the table cannot rule
        out; the core refuses those with its reason when played. The default is
        ``legal_moves``, for a game whose decider hides nothing that changes their moves.
        """
        return [] if self.current_player(state) in (CHANCE, TERMINAL, SIMULTANEOUS) else self.legal_moves(state)

    def table_refusal(self, state: S, move: M, error: IllegalMoveError) -> IllegalMoveError:
        """``error`` as a shared screen may show it. A move the table was offered (``public_moves``) can only be
        refused for what is behind a screen, so its reason would tell it: the table reads a generic sentence and
        the player's own page gives the reason. Any other refusal depends on public information only (each game's
        ``validate`` checks the public conditions first) and is shown as it is. At a simultaneous step the choices
        are secret: they are made on the players' own pages."""
        if self.current_player(state) == SIMULTANEOUS:
            return IllegalMoveError(SCREEN_RULE, msg("core.refuse.simultaneous"), str(move))
        if move in self.public_moves(state):
            return IllegalMoveError(SCREEN_RULE, msg("core.refuse.screen"), str(move))
        return error

    def panel_signals(self, state: S) -> PanelSignals:
        """What the table's panel shows beyond whose turn it is (docs/panel.md): the seats that may be asked next,
        named indicator lights, the move NEXT plays. Public information only; the default shows nothing more."""
        return PanelSignals()

    def setup_guide(self, state: S) -> dict[str, Any] | None:
        """What to lay out on the table once the setup draws are made (``state`` is the state when
        the first player decides), naming each physical piece; ``None`` if the game has no guide."""
        return None

    def describe(self, state: S, move: M, viewer: int | None) -> Text:
        """The move's text as ``viewer`` may see it in the log (hidden draws are masked)."""
        return str(move)

    def move_text(self, state: S, move: M) -> Text:
        """What ``move`` does, in words, for the player choosing it in ``state`` (every screen shows it next to
        each offered move); the default is the move's notation."""
        return str(move)

    def pick_path(self, state: S, move: M) -> Sequence[Step]:
        """How a player picks ``move`` in ``state``: the piece or action first, then where, then how to pay, each
        step the question it answers and the component picked (its sticker's and its picture's id, and its words;
        companion/core/picks.py). Paths must differ between moves. The default offers the move whole, in words."""
        from companion.core.picks import default_ask, whole_move_path

        return whole_move_path(default_ask(), str(move), self.move_text(state, move))

    def confirms(self, state: S, move: M) -> bool:
        """Whether a device shows ``move`` in words before sending it once its picks are made (a decision with a
        cost: a bid, a payment); the default sends it on the last pick."""
        return False

    def message_ids(self) -> Collection[str]:
        """Every message identifier the game builds at run time (``f"kh.crop.{key}"``), for the catalog test; the
        identifiers written out in its source are found there."""
        return ()

    def table_text(self, view: Mapping[str, Any]) -> Text | Sequence[Text] | None:
        """``view`` as text for the terminal table (``companion play``), or as lines; ``None``: the console's
        default."""
        return None

    def prompt_text(self, state: S, names: Sequence[str]) -> Text | None:
        """Who must decide now and about what, as one line; ``None``: the console's default."""
        return None

    def score_text(self, rows: Sequence[Mapping[str, Any]]) -> Text | Sequence[Text] | None:
        """``score`` rows as text, or as lines; ``None``: the console's default."""
        return None

    # Derived helpers, the same for every game.

    def is_over(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def is_legal(self, state: S, move: M) -> bool:
        return self.validate(state, move) is None

    def play(self, state: S, move: M | str) -> S:
        """Checked ``apply``: parse text, validate, raise ``IllegalMoveError`` with the reason."""
        if isinstance(move, str):
            move = self.parse_move(move)
        error = self.validate(state, move)
        if error is not None:
            raise error
        return self.apply(state, move)


class Edition(Protocol):
    """A game's printed data read from its data pack: the pack's JSON (``raw``) and what is still provisional."""

    @property
    def raw(self) -> Mapping[str, Any]: ...

    def warnings(self) -> list[Text]: ...


E = TypeVar("E", bound=Edition)


class GameOnEdition(Game[S, M], Generic[S, M, E]):
    """A game that plays on an ``Edition`` of its printed data: the one given, else the one installed in the data
    folder, else the shipped provisional one. Each stored game keeps the edition it started with."""

    def __init__(self, edition: E | None = None) -> None:
        self._edition = edition

    @abstractmethod
    def read_edition(self, raw: Any) -> E:
        """The edition in the pack ``raw`` (the game's loader; ``MalformedInputError`` says what is wrong)."""

    @property
    def data(self) -> E:
        """The edition this game plays on."""
        if self._edition is None:
            from companion.paths import default_data_dir

            self._edition = self.with_installed_data(default_data_dir()).data
        return self._edition

    def with_installed_data(self, data_dir: Path) -> Self:
        game = super().with_installed_data(data_dir)
        assert isinstance(game, type(self))
        return game

    def edition(self) -> dict[str, Any]:
        return {"data": dict(self.data.raw)}

    def with_edition(self, edition: Mapping[str, Any]) -> Self:
        return type(self)(self.read_edition(edition["data"])) if "data" in edition else self

    def data_warnings(self) -> list[Text]:
        return self.data.warnings()


def moves_with_key(key: str, moves: Sequence[str]) -> list[str]:
    """The moves (notation) with ``key`` as a word after the verb, any case, ``/`` parting words too."""
    key = key.upper()
    return [move for move in moves if key in move.upper().replace("/", " ").split()[1:]]
