"""Hidden information by construction: every shared output of La Granja is a function of public information.

Twins are logs that read the same to the table but differ in secret moves (``Game.is_secret``: cards drawn into a
hand, donkey choices before the reveal), built with ``companion.core.hidden.hidden_twin`` from random seeded games,
and, to reach every phase, with the same swap started later in the game (``hidden_twin``'s ``start``). After each move of a twin
pair the shared outputs must be byte-identical: ``view(state, None)``, ``public_moves``, the public log line
(``describe(state, move, None)``), the console's ``table_text``, ``prompt_text`` and ``score_text``, and the refusal
reason of every move outside ``public_moves`` that both twins refuse (the other twin's legal moves, mutated moves).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, TERMINAL
from companion.core.hidden import hidden_twin
from companion.core.messages import Message, render
from companion.games.la_granja import LaGranja, LGMove, State
from companion.games.la_granja.data import GOODS, load_edition

GAME = LaGranja(load_edition(None))
NAMES = ("Ana", "Ben", "Cleo", "Dan")
TOKENS = ("1", "2", "3", "4", "5", "6", "17", *GOODS, "silver", "trade", "free", "field", "cart", "helper", "ext",
          "olive:field", "grape:field", "wagner", "wagner/1", "R3", "M2", "card", "crop")


def random_log(players: int, seed: int, length: int, options: dict[str, str]) -> list[LGMove]:
    """A random seeded game's first ``length`` moves (chance by weight, player moves uniform over the legal ones)."""
    rng = random.Random(seed)
    state = GAME.setup(NAMES[:players], GAME.options(options))
    log: list[LGMove] = []
    while len(log) < length and (who := GAME.current_player(state)) != TERMINAL:
        move = GAME.sample_chance(state, rng) if who == CHANCE else rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, move)
        log.append(move)
    return log


def states(players: int, options: dict[str, str], log: list[LGMove]) -> list[State]:
    state = GAME.setup(NAMES[:players], GAME.options(options))
    out = [state]
    for move in log:
        state = GAME.apply(state, move)
        out.append(state)
    return out


def shared(state: State, names: list[str]) -> str:
    """Everything a shared screen shows at ``state``, as JSON text."""
    view = GAME.view(state, None)
    return json.dumps({
        "view": view, "public": [str(m) for m in GAME.public_moves(state)],
        "table": GAME.table_text(view), "prompt": GAME.prompt_text(state, names),
        "score": GAME.score_text(view["score"]) if view["score"] is not None else None,
        "deciders": GAME.deciders(state), "who": GAME.current_player(state),
    }, sort_keys=True, default=to_json)


def to_json(value: object) -> object:
    """A message as the browser receives it (``Message.to_json``)."""
    assert isinstance(value, Message), value
    return value.to_json()


def mutations(moves: list[LGMove], rng: random.Random) -> Iterator[LGMove]:
    """Each move with one argument swapped for another token, or one dropped or added (those that read as moves)."""
    for move in moves:
        args = list(move.args)
        texts = [[move.verb, *args, rng.choice(TOKENS)]]
        if args:
            i = rng.randrange(len(args))
            texts += [[move.verb, *args[:i], rng.choice(TOKENS), *args[i + 1:]], [move.verb, *args[:i], *args[i + 1:]]]
        for words in texts:
            try:
                yield GAME.parse_move(" ".join(words))
            except MalformedInputError:
                pass


def refusal(state: State, move: LGMove) -> str | None:
    try:
        error = GAME.validate(state, move)
    except (ValueError, IndexError, KeyError) as crash:  # a malformed move must be refused, not crash
        return f"crash {crash!r}"
    return None if error is None else f"[{error.rule}] {error.reason}"


def pairs() -> Iterator[tuple[int, dict[str, str], list[LGMove], list[LGMove]]]:
    """Twin pairs that differ in at least one secret move: 4 player counts x seeds x start points."""
    for players in (1, 2, 3, 4):
        for seed in range(8):
            options = {"hide_vp": "yes"} if seed % 4 == 3 else {}
            log = random_log(players, 1000 * players + seed, 700, options)
            rng = random.Random(seed)
            starts = [0] + sorted(rng.sample(range(len(log)), 6))
            for start in starts:
                twin = hidden_twin(GAME, NAMES[:players], GAME.options(options), log, rng, start)
                if twin != log[:len(twin)]:
                    yield players, options, log, twin


PAIRS = list(pairs())
MASKED = {"lg.log.card_hidden", "lg.log.donkey_hidden"}
"""The log lines of a move the table must not learn."""


def test_describe_masks_exactly_the_secret_moves() -> None:
    """``is_secret`` is what the table's log line masks (``card ?``, ``donkey ?``), and only for the others."""
    for players, options, log, _ in PAIRS[::10]:
        for state, move in zip(states(players, options, log), log):
            line = GAME.describe(state, move, None)
            assert isinstance(line, Message)
            assert (line.id in MASKED) == GAME.is_secret(state, move), (line, str(move))
            if GAME.is_secret(state, move):
                owner = state.top.player if move.verb == "card" else GAME.seat_of(state, move)  # type: ignore[union-attr]
                shown = GAME.describe(state, move, owner)
                assert isinstance(shown, Message) and shown.id not in MASKED and move.args[-1] in render(shown)


def test_there_are_at_least_200_twin_pairs_reaching_every_phase() -> None:
    assert len(PAIRS) >= 200
    kinds = set()
    for players, options, log, twin in PAIRS:
        kinds |= {s.top.kind for s in states(players, options, twin) if s.top is not None}
    assert {"deal", "play", "donkey", "deliver", "pick", "roof", "discard"} <= kinds, kinds


@pytest.mark.parametrize("chunk", range(4))
def test_twins_look_the_same_on_every_shared_output(chunk: int) -> None:
    rng = random.Random(chunk)
    for players, options, log, twin in PAIRS[chunk::4]:
        names = list(NAMES[:players])
        first = next(i for i, (a, b) in enumerate(zip(log, twin)) if a != b)
        ours, theirs = states(players, options, log[:len(twin)]), states(players, options, twin)
        for i in range(max(0, first - 2), min(len(twin), first + 80)):
            a, b = ours[i], theirs[i]
            assert shared(a, names) == shared(b, names), (players, i, str(log[i - 1]), str(twin[i - 1]))
            assert GAME.describe(a, log[i], None) == GAME.describe(b, twin[i], None), (i, str(log[i]))
            if GAME.current_player(a) == CHANCE:
                continue
            public = set(GAME.public_moves(a))
            tried = [m for m in (*GAME.legal_moves(a), *GAME.legal_moves(b)) if m not in public]
            tried += [m for m in mutations([*GAME.legal_moves(a), *GAME.legal_moves(b)], rng) if m not in public]
            for move in tried:
                ra, rb = refusal(a, move), refusal(b, move)
                assert not (ra or "").startswith("crash") and not (rb or "").startswith("crash"), (str(move), ra, rb)
                if ra is not None and rb is not None:
                    assert ra == rb, (players, i, str(move))
