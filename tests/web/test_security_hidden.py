"""Hidden information through the web service itself (issue 10, docs/security.md), for every game: the answers of
the shared endpoints, the camera's and the scan station's included, are the same for two stored games that differ
only in what is behind the screens; and a seat's private answers are the same for two games that differ only in
what is behind the *other* seats' screens (a seat's link never reads another seat's secrets).

tests/test_hidden_information.py proves this for the core's outputs; here the HTTP answers are compared, so the
service's own paths count too (a move played from the table, a rescoring, a scanned code, a camera read)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.game import CHANCE, SCREEN_RULE, Game, Move
from companion.core.hidden import hidden_twin, legal_here, secret_alternatives
from companion.games import find_game
from tests.test_hidden_information import random_log, secret_plies
from tests.web.apikit import claim_seat, offered, seat_offered
from web import create_app
from web.camera import get_camera
from web.table import get_table

GAMES = ("key-harvest", "la-granja", "keyper", "key-market")
PAIRS = 12
"""Pairs of positions compared per game (and per kind of twin)."""
MOVES_TRIED = 40
"""Moves sent per position: every offered move and every move legal in either twin, the first ones in order."""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CAMERA": "samples", "CAMERA_THREAD": False,
                      "STREAM_HEARTBEAT_SECONDS": 0.01})
    with app.app_context():
        get_camera().step()  # a frame: the camera's table read answers for real
    yield app
    with app.app_context():
        get_camera().close()
    app.extensions["keydom_table"].close()


def store(app: Flask, game: Game[Any, Any], players: list[str], moves: list[Move]) -> str:
    """``moves`` stored as a new game of the app (as another process would store them): its id."""
    state, rows = game.setup(players, game.options()), []
    for move in moves:
        rows.append((str(move), game.current_player(state) == CHANCE))
        state = game.apply(state, move)
    with app.app_context():
        table = get_table().store
        game_id = table.create(game.name, players, {}, "the-same-seed", game.edition(),
                               ("#c0392b", "#2471a3", "#d4ac0d", "#239b56")[:len(players)])
        table.append(game_id, 0, rows)
    return game_id


def answer(client: FlaskClient, method: str, path: str, game_id: str, body: Any = None) -> tuple[int, str]:
    """A request's status and its body with the game's id (and the seat's link) taken out."""
    response = client.open(path, method=method, json=body)
    return response.status_code, response.get_data(as_text=True).replace(game_id, "ID")


def first_event(client: FlaskClient, game_id: str) -> str:
    """The stream's first update (the whole public game)."""
    response = client.get(f"/api/games/{game_id}/stream")
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: update" in text and text.endswith("\n\n"):
            break
    response.close()
    return text.replace(game_id, "ID")


def shared_answers(app: Flask, client: FlaskClient, game_id: str, seats: int, codes: list[str]) -> dict[str, Any]:
    """Everything a shared screen may ask of the service about one game."""
    base = f"/api/games/{game_id}"
    out: dict[str, Any] = {path: answer(client, "GET", path.format(base=base, id=game_id), game_id)
                           for path in ("{base}", "{base}/moves", "{base}/score", "{base}/setup",
                                        "/camera/table?game={id}", "/games/{id}", "/games/{id}/setup")}
    out["stream"] = first_event(client, game_id)
    version = client.get(base).get_json()["version"]
    first = client.post(f"{base}/picks", json={"picks": [], "version": version}).get_json()
    for group in first.get("groups", [])[:3]:  # the table's next picks after each of a few first options
        for option in group["options"][:3]:
            out[f"picks {option['id']}"] = answer(client, "POST", f"{base}/picks", game_id,
                                                  {"picks": [option["id"]], "version": version})
    for entry in ({}, {"gold": 0, "goods": {}}):
        out[f"rescore {entry}"] = answer(client, "POST", f"{base}/score", game_id, {"hidden": [entry] * seats})
    for code in codes:
        out[f"scan {code}"] = answer(client, "POST", f"/camera/station/scan?game={game_id}", game_id, {"payload": code})
    out["station"] = answer(client, "GET", f"/camera/station?game={game_id}", game_id)  # offers the last code scanned
    out["panel"] = answer(client, "POST", "/api/panel/follow", game_id, {"game": game_id})  # its lights and words
    return out


def refusal(client: FlaskClient, game_id: str, url: str, move: str) -> tuple[int, Any]:
    """What ``url`` answers to ``move`` chosen from the version now: 200, or the status and error."""
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    response = client.post(url, json={"move": move, "version": version})
    error = response.get_json().get("error") if response.status_code >= 400 else None
    return response.status_code, error


def positions(name: str, seed: str, twin_of: Any) -> Iterator[tuple[list[str], list[Move], list[Move]]]:
    """``PAIRS`` pairs of different move lists of ``name`` that read the same to some viewer (``twin_of`` builds the
    second); a twin that came out the same as its game is not counted."""
    game = find_game(name)
    rng = random.Random(seed)
    pairs = 0
    for attempt in range(20 * PAIRS):
        if pairs >= PAIRS:
            return
        players = ["Ann", "Bo", "Cy", "Di"][:rng.choice((2, 3, 4))]
        history = random_log(game, players, f"{seed}-{attempt}", rng)
        start = rng.choice(secret_plies(game, players, history) or [0])
        twin = twin_of(game, players, history, rng, start)
        ends = range(start + 1, len(twin) + 1)
        for k in sorted(rng.sample(ends, min(3, len(ends)))):
            state = game.setup(players, game.options())
            for move in history[:k]:
                state = game.apply(state, move)
            if game.current_player(state) == CHANCE or history[:k] == twin[:k]:
                continue  # the service never rests on a draw; a twin the same as its game proves nothing
            pairs += 1
            yield players, history[:k], twin[:k]
    raise AssertionError(f"{name}: only {pairs} twins differing from their game in {20 * PAIRS} random games")


@pytest.mark.parametrize("name", GAMES)
def test_the_shared_endpoints_answer_the_same_whatever_is_behind_the_screens(app: Flask, name: str) -> None:
    client = app.test_client()
    game = find_game(name)
    with app.app_context():
        components = get_camera().registry.for_game(name)
        prefix = get_camera().registry.payload_prefix
    rng = random.Random(name)
    for players, one, two in positions(name, f"shared-{name}",
                                       lambda g, p, h, r, s: hidden_twin(g, p, g.options(), h, r, s)):
        ids = store(app, game, players, one), store(app, game, players, two)
        codes = [c.payload(prefix) for c in rng.sample(components, min(6, len(components)))]
        seen = [shared_answers(app, client, game_id, len(players), codes) for game_id in ids]
        assert seen[0] == seen[1], f"{name} after {len(one)} moves"
        table_moves = offered(client, ids[0])
        states = [game.setup(players, game.options()) for _ in ids]
        for i, moves in enumerate((one, two)):
            for move in moves:
                states[i] = game.apply(states[i], move)
        tried = sorted(set(table_moves) | {str(m) for s in states for m in game.legal_moves(s)})[:MOVES_TRIED]
        public = game.public_moves(states[0])  # the same for both: they read the same to the table
        for move in tried:
            refused = [refusal(client, game_id, f"/api/games/{game_id}/moves", move) for game_id in ids]
            if refused[0][0] < 400 or refused[1][0] < 400:  # played in one twin at least: legal behind one screen
                assert game.parse_move(move) in public, (name, len(one), move, "played from the table, not offered")
                if refused[0][0] != refused[1][0]:
                    error = refused[0][1] or refused[1][1]
                    assert error["rule"] == SCREEN_RULE, (name, len(one), move, refused)
                ids = store(app, game, players, one), store(app, game, players, two)
            else:
                assert refused[0] == refused[1], (name, len(one), move, refused)


def seat_twin(game: Game[Any, Any], players: list[str], history: list[Move], rng: random.Random, start: int,
              seat: int) -> list[Move]:
    """``hidden_twin`` for one seat: the secret moves that seat cannot see (another seat's draw or choice) are chosen
    again; its own are kept; like ``hidden_twin`` it ends before a public move that reveals a secret chosen again."""
    state = original = game.setup(players, game.options())
    twin: list[Move] = []
    for ply, move in enumerate(history):
        unseen = game.describe(state, move, seat) == game.describe(state, move, None)
        if ply >= start and game.is_secret(state, move) and unseen:
            others = [m for m in secret_alternatives(game, state, move)
                      if game.describe(state, m, seat) == game.describe(state, m, None)]
            chosen = rng.choice(others or [move])
        elif not legal_here(game, state, move) or game.reveals(state, move) != game.reveals(original, move):
            break
        else:
            chosen = move
        state, original = game.apply(state, chosen), game.apply(original, move)
        twin.append(chosen)
    return twin


@pytest.mark.parametrize("name", GAMES)
def test_a_seats_link_answers_the_same_whatever_is_behind_the_other_screens(app: Flask, name: str) -> None:
    client = app.test_client()
    game = find_game(name)
    seats: list[int] = []  # the seat each twin was built for

    def twin_of(g: Game[Any, Any], players: list[str], history: list[Move], rng: random.Random, start: int) -> Any:
        seats.append(rng.randrange(len(players)))
        return seat_twin(g, players, history, rng, start, seats[-1])

    for players, one, two in positions(name, f"seat-{name}", twin_of):
        seat = seats[-1]
        ids = store(app, game, players, one), store(app, game, players, two)
        links = [claim_seat(client, game_id, seat)["url"] for game_id in ids]
        seen = [answer(client, "GET", link, game_id) for link, game_id in zip(links, ids)]
        assert seen[0] == seen[1], f"{name} seat {seat} after {len(one)} moves"
        # the camera's comparison of the seat's board with the game, with its link (the samples show a board)
        boards = [answer(client, "GET", f"/camera/board?game={game_id}&seat={seat}&token={link.rsplit('/', 1)[1]}",
                         game_id) for link, game_id in zip(links, ids)]
        assert boards[0] == boards[1], f"{name} seat {seat}'s board after {len(one)} moves"
        for move in seat_offered(client, links[0])[:MOVES_TRIED]:
            refused = [refusal(client, game_id, f"{link}/moves", move) for link, game_id in zip(links, ids)]
            assert refused[0] == refused[1] or (refused[0][0] < 400 and refused[1][0] < 400), (name, move, refused)
            if refused[0][0] < 400:
                ids = store(app, game, players, one), store(app, game, players, two)
                links = [claim_seat(client, game_id, seat)["url"] for game_id in ids]
