"""Logs stored before issue 10 (tests/games/la_granja/data/old-logs.json, written by the code of that time through
a Session) upgrade to today's notation, replay move by move to the same final state and score, and play on."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE, TERMINAL
from companion.games.la_granja import LaGranja, State

OLD = json.loads((Path(__file__).parent / "data" / "old-logs.json").read_text())["games"]


def replay(entry: dict[str, Any], log: list[tuple[str, bool]]) -> tuple[LaGranja, State]:
    """Every move checked like a stored one: readable, a chance step exactly where the game draws, legal."""
    game = LaGranja().with_edition(entry["edition"])
    state = game.setup(entry["players"], game.options(entry["options"]))
    for ply, (text, is_chance) in enumerate(log):
        move = game.parse_move(text)
        assert is_chance == (game.current_player(state) == CHANCE), (ply, text)
        error = game.validate(state, move)
        assert error is None, (ply, text, str(error))
        if is_chance:
            assert move in [m for m, w in game.chance_outcomes(state) if w > 0], (ply, text)
        state = game.apply(state, move)
    return game, state


@pytest.mark.parametrize("entry", OLD, ids=[f"{len(g['players'])}p-{g['seed']}" for g in OLD])
def test_an_old_log_upgrades_replays_to_the_same_end_and_plays_on(entry: dict[str, Any]) -> None:
    old = [(text, chance) for text, chance in entry["moves"]]
    with pytest.raises(MalformedInputError):     # as stored, today's notation cannot read it
        replay(entry, old)
    game = LaGranja().with_edition(entry["edition"])
    log = game.upgrade_log(old, 1)
    assert game.upgrade_log(log, 1) == log           # upgrading twice changes nothing
    game, state = replay(entry, log)
    assert game.is_over(state) == entry["over"]
    rows = game.score(state)
    assert [{k: r[k] for k in ("name", "vp", "total", "silver", "ledger")} for r in rows] == entry["score"]
    for p, final in zip(state.players, entry["final"]):
        assert (p.goods, p.trade, list(p.hand)) == (final["goods"], final["trade"], final["hand"])
        assert [list(f) for f in p.fields] == final["fields"] and [c for c, _ in p.carts] == final["carts"]
        assert [[k, r, list(f)] for k, r, f in p.rows] == final["rows"]
        assert [list(x) for x in p.roofs] == final["roofs"]
    rng = random.Random(5)                        # and the upgraded game plays on to its end
    while (who := game.current_player(state)) != TERMINAL:
        move = game.sample_chance(state, rng) if who == CHANCE else rng.choice(game.legal_moves(state))
        state = game.play(state, move)
    assert game.is_over(state)


def test_each_old_decision_in_pieces_becomes_one_move() -> None:
    """Sequential donkeys become simultaneous choices and the reveal; pieces of deliveries and of free upgrades
    become one move each, without the old closing 'done'."""
    game = LaGranja().with_edition(OLD[2]["edition"])
    old = [(text, chance) for text, chance in OLD[2]["moves"]]
    log = game.upgrade_log(old, 1)
    first = next(i for i, (text, _) in enumerate(old) if text.startswith("donkey"))
    assert old[first:first + 3] == [("donkey 4", False), ("donkey 3", False), ("donkey 1", False)]
    assert log[first:first + 4] == [("donkey 1 4", False), ("donkey 2 3", False), ("donkey 3 1", False),
                                    ("donkeys 4 3 1", True)]
    texts = [text for text, _ in log]
    old_deliveries = [t for t, _ in old if t.startswith("deliver")]
    assert [t for t in texts if t.startswith("deliver")] == [
        "deliver {}={}".format(*t.split()[1:]) for t in old_deliveries]     # one delivery: a batch of one
    assert not any(t.startswith("upgrade") and t.endswith(" free") for t in texts)
    assert sum(t == "done" for t in texts) < sum(t == "done" for t, _ in old)


def test_two_hundred_old_logs_of_every_player_count_and_flag_upgrade_exactly() -> None:
    """Every finished old game replays to the same VP, silver and goods; a game stored in the middle of a free
    grant, a discard or a release takes that half-made decision back and is otherwise the same."""
    raw = gzip.decompress((Path(__file__).parent / "data" / "old-logs-200.json.gz").read_bytes())
    games = json.loads(raw)["games"]
    assert len(games) == 200
    taken_back = 0
    for i, entry in enumerate(games):
        game = LaGranja().with_edition(entry["edition"])
        log = game.upgrade_log([(text, chance) for text, chance in entry["moves"]], 1)
        game, state = replay(entry, log)
        same = ([p.vp for p in state.players], [p.silver for p in state.players],
                [p.goods for p in state.players]) == (entry["vp"], entry["silver"], entry["goods"])
        if not same:
            assert not entry["over"] and entry["stack"][-1][0] in ("upgrade", "discard", "release"), i
            taken_back += 1
    assert taken_back <= 2
