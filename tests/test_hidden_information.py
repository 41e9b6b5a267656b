"""Issue 10: shared outputs are a function of public information only, proven over random games of every game.

For random seeded games, ``hidden_twin`` builds a second log that reads the same to the table but re-chooses every
secret move (a draw only its player sees, a choice behind a screen). Both logs are stored and opened as the
service opens them; after many of their moves, everything a shared screen shows must be byte-identical: the
public game the tablet and the live stream receive (its choices are the scan station's moves too), the setup guide,
the panel's lights, the terminal's lines, and the refusal of every move the table is offered (and of the moves the
other twin could make).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.console import json_scores, prompt_for, render
from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE, SCREEN_RULE, TERMINAL, Game, Move
from companion.core.hidden import hidden_twin
from companion.core.messages import json_default
from companion.core.rng import step_rng
from companion.games import find_game
from companion.session import Session
from companion.store import GameStore
from firmware_bridge.lights import lights_for
from web.table import public_game, setup_state

GAMES = {"key-harvest": (2, 3, 4), "la-granja": (2, 3, 4), "keyper": (2, 3, 4), "key-market": (2, 3, 4)}
PAIRS_PER_GAME = 200
POINTS_PER_GAME = 10
"""How many prefixes of each random game are compared (the pairs come from ``PAIRS_PER_GAME / POINTS`` games)."""
REFUSALS_PER_PAIR = 120
"""How many of a pair's moves (offered or legal behind either screen) are played against both, drawn at random:
Key Harvest's table is offered thousands of bids, each refusal checked against them all."""


def random_log(game: Game[Any, Any], players: list[str], seed: str, rng: random.Random) -> list[Move]:
    """A whole random game: chance as the session draws it, players' moves uniformly among the legal ones."""
    state = game.setup(players, game.options())
    history: list[Move] = []
    while (who := game.current_player(state)) != TERMINAL and len(history) < 3000:
        move = game.sample_chance(state, step_rng(seed, len(history))) if who == CHANCE else rng.choice(
            game.legal_moves(state))
        state = game.apply(state, move)
        history.append(move)
    return history


def secret_plies(game: Game[Any, Any], players: list[str], history: list[Move]) -> list[int]:
    """Where ``history`` holds a secret move (early ones are the setup's, later ones hands and screens)."""
    state, plies = game.setup(players, game.options()), []
    for ply, move in enumerate(history):
        if game.is_secret(state, move):
            plies.append(ply)
        state = game.apply(state, move)
    return plies


def store_log(store: GameStore, name: str, players: list[str], moves: list[Move]) -> Session:
    """``moves`` stored as a game of ``name`` and opened as the service opens it (no draws made on opening)."""
    game = find_game(name)
    state = game.setup(players, game.options())
    rows = []
    for move in moves:
        rows.append((str(move), game.current_player(state) == CHANCE))
        state = game.apply(state, move)
    colours = ("#c0392b", "#2471a3", "#d4ac0d", "#239b56")[:len(players)]
    game_id = store.create(name, players, {}, "the-same-seed", game.edition(), colours)
    store.append(game_id, 0, rows)
    return Session.open(store, game_id, auto_chance=False)


def refusal(session: Session, move: str) -> dict[str, str] | None:
    """What a shared screen answers to ``move``: ``None`` if it is legal, else the refusal the table reads."""
    game = session.game
    parsed = game.parse_move(move)
    error = game.validate(session.state, parsed)
    if error is None:
        return None
    assert isinstance(error, IllegalMoveError)
    return session.table_refusal(error).to_dict()


def shared_outputs(session: Session) -> dict[str, Any]:
    """Everything a shared screen shows of ``session`` (the game's id aside)."""
    public = public_game(session)
    del public["id"]
    return {
        "public_game": json.dumps(public, sort_keys=True, default=json_default),
        "lights": lights_for(session).to_json(),
        "table_picks": table_picks(session),
        "setup_guide": json.dumps(session.game.setup_guide(setup_state(session)), sort_keys=True, default=json_default),
        "terminal": [prompt_for(session), session.game.table_text(session.view(None)) or
                     (render(session.view(None)) if session.game.name == "key-harvest" else ""), json_scores(session)],
    }


def table_picks(session: Session) -> str:
    """Every pick the shared table may walk (each offered move's path: questions, ids, words, and whether it asks to
    confirm), as the devices would receive them node by node."""
    tree = session.pick_tree(None)
    game, state = session.game, session.state
    paths = sorted(json.dumps([[s.ask, s.choice.id, s.choice.words, s.unordered] for s in path]
                              + [game.confirms(state, move), game.move_text(state, move)], sort_keys=True,
                              default=json_default) for move, path, _ in tree.paths)
    return json.dumps(paths)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_states_that_differ_only_in_hidden_information_look_the_same_to_the_table(name: str, tmp_path: Path) -> None:
    game = find_game(name)
    rng = random.Random(f"twins-{name}")
    sampler = random.Random(f"refusals-{name}")
    pairs = differing = 0
    with GameStore(tmp_path / "games.sqlite3") as store:
        while pairs < PAIRS_PER_GAME:
            players = ["Ann", "Bo", "Cy", "Di"][:rng.choice(GAMES[name])]
            seed = f"{name}-{pairs}"
            history = random_log(game, players, seed, rng)
            start = rng.choice(secret_plies(game, players, history) or [0])  # secrets re-chosen from a random one on
            twin = hidden_twin(game, players, game.options(), history, rng, start)
            ends = range(start + 1, len(twin) + 1)
            for k in sorted(rng.sample(ends, min(POINTS_PER_GAME, len(ends)))):
                one, two = store_log(store, name, players, history[:k]), store_log(store, name, players, twin[:k])
                if one.game.current_player(one.state) == CHANCE:
                    continue  # the service never rests on a draw: it makes it at once
                pairs += 1
                differing += history[:k] != twin[:k]
                assert shared_outputs(one) == shared_outputs(two), f"{name} {seed} after {k} moves"
                offered = [str(m) for m in one.offered(None)]
                tried = set(offered) | {str(m) for m in two.game.legal_moves(two.state)} | {
                    str(m) for m in one.game.legal_moves(one.state)}
                for move in sorted(sampler.sample(sorted(tried), min(REFUSALS_PER_PAIR, len(tried)))):
                    first, second = refusal(one, move), refusal(two, move)
                    if first is not None and second is not None:
                        assert first == second, f"{name} {seed} after {k} moves: {move!r} refused differently"
                    elif first is not None or second is not None:  # legal behind one screen only
                        assert (first or second)["rule"] == SCREEN_RULE, (move, first, second)  # type: ignore[index]
    assert differing >= PAIRS_PER_GAME // 4, f"only {differing} of {pairs} pairs differ in hidden information"
