"""Issue 10 for Key Harvest: one decision is one move, old logs keep replaying, a Benefactor chain goes on.

A bid names all its stones (R-D3) and a payment every stone owed; ``upgrade_log`` rewrites the logs the
companion stored before (tests/games/key_harvest/data/old-log-*.json, recorded with the old code).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import IllegalMoveError
from companion.core.game import CHANCE, TERMINAL
from companion.games.key_harvest import KeyHarvest, State
from companion.games.key_harvest.board import load_layout
from companion.games.key_harvest.upgrade import upgrade_log

from .table import play, table

DATA = Path(__file__).parent / "data"
OLD_LOGS = sorted(DATA.glob("old-log-*.json"))


def replay(data: dict[str, Any], moves: list[tuple[str, bool]]) -> tuple[KeyHarvest, State]:
    game = KeyHarvest().with_edition(data["edition"])
    state = game.setup(data["players"], game.options(data["options"]))
    for text, is_chance in moves:
        assert is_chance == (game.current_player(state) == CHANCE), text
        state = game.play(state, text)
    return game, state


def old_log(path: Path) -> tuple[dict[str, Any], list[tuple[str, bool]]]:
    data = json.loads(path.read_text())
    return data, [(text, bool(chance)) for text, chance in data["moves"]]


@pytest.mark.parametrize("path", OLD_LOGS, ids=lambda p: p.stem)
def test_an_old_log_replays_in_the_new_notation_and_play_goes_on(path: Path) -> None:
    """A log stored in the old notation (bid + add + done, pay stone by stone) is rewritten with one move
    per bid and per payment; it reaches the same table and score, and the game can go on."""
    data, moves = old_log(path)
    assert any(text.startswith("add ") for text, _ in moves)  # really the old notation
    new = upgrade_log(moves)
    assert not any(text.startswith("add ") for text, _ in new)
    assert len(new) < len(moves)
    game, state = replay(data, new)
    if data["over"]:
        assert game.is_over(state)
        assert [row["total"] for row in game.score(state)] == data["score"]
        assert game.snapshot(state) == data["snapshot"]
        return
    # an unfinished decision at the end was dropped: its player makes it again in one move
    rng = random.Random(7)
    for _ in range(40):
        if game.current_player(state) == TERMINAL:
            break
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.play(state, str(rng.choice(game.legal_moves(state))))


def test_an_unfinished_old_bid_is_made_again_as_one_move() -> None:
    """The in-progress log ends inside a bid (bid + add, no done): the rewritten log stops before it; the
    same bid made as one move gives the player the same warehouse and screen as the old log did."""
    data, moves = old_log(DATA / "old-log-3p-mid-bid.json")
    start = max(i for i, (text, _) in enumerate(moves) if text.startswith("bid "))
    stones = [moves[start][0].split()[2]] + [text.split()[1] for text, _ in moves[start + 1:]]
    game, state = replay(data, upgrade_log(moves))
    seat = game.current_player(state)
    label = moves[start][0].split()[1]
    state = game.play(state, f"bid {label} {' '.join(stones)}")
    old = {p["name"]: p for p in data["snapshot"]["players"]}
    mine = game.snapshot(state)
    assert mine["players"][seat]["stones"] == old[data["players"][seat]]["stones"]
    assert mine["warehouses"] == data["snapshot"]["warehouses"]


def test_upgrade_log_leaves_a_new_log_alone() -> None:
    data, moves = old_log(OLD_LOGS[0])
    new = upgrade_log(moves)
    assert upgrade_log(new) == new
    assert KeyHarvest().upgrade_log(moves, 1) == new


def test_a_payment_is_one_move_of_exactly_the_stones_owed() -> None:
    """E/G/I/Q/T payments (R-C3): one ``pay`` move with every stone owed; one stone short or one too many
    is refused whole, naming the count; the order of the stones does not matter."""
    data, moves = old_log(DATA / "old-log-4p-pays.json")
    new = upgrade_log(moves)
    at = next(i for i, (text, _) in enumerate(new) if text.startswith("pay ") and len(text.split()) >= 3)
    game, state = replay(data, new[:at])
    owed = new[at][0].split()[1:]
    for wrong in (owed[:-1], owed + owed[:1]):
        error = game.validate(state, game.parse_move("pay " + " ".join(wrong)))
        assert error is not None and error.rule == "R-C3" and f"Exactly {len(owed)} stones" in error.reason
    reordered = game.parse_move("pay " + " ".join(reversed(owed)))
    assert str(reordered) == new[at][0] and game.is_legal(state, reordered)
    assert len({str(m) for m in game.legal_moves(state)}) == len(game.legal_moves(state))


def benefactor_table() -> tuple[KeyHarvest, State]:
    """Issue 10's reproduction: 2 players, the default layout, C3 and H7 in the land office."""
    layout = load_layout()
    alice = {"name": "Alice", "fields": ["B2", "B3", "C2", "D2", "D3", "B4", "C5"]}
    return table(layout, [alice, {"name": "Bob"}], office=["C3", "H7", "A1", "A2", "A3", "A4"],
                 bag=["E1", "E2", "E3", "E4", "E5", "E6"], bag_events="PQ")


def test_r_d5_a_benefactor_displaced_and_re_placed_refills_before_choosing_again() -> None:
    """R-D5, R-X2: the Benefactor (L) takes C3, its own space; the land office is refilled at once, so the
    re-placed Benefactor chooses from 6 tiles; its second tile is refilled too, and the game goes on
    (before issue 10 a second refill was left pending with the land office full, and failed)."""
    game, state = benefactor_table()
    state = play(game, state, "play L C3", "take C3")
    assert state.top is not None and state.top.kind == "draw"  # the refill comes first
    state = play(game, state, "draw E1")
    assert state.top is not None and state.top.kind == "bonus" and len(state.office_tiles) == 6
    state = play(game, state, "bonus C4")
    takes = {str(m) for m in game.legal_moves(state) if m.verb == "take"}
    assert len(takes) == 6 and "take E1" in takes
    state = play(game, state, "take H7", "draw E2")
    assert len(state.office_tiles) == 6
    assert state.stack == () and game.current_player(state) == 0
    assert state.player(0).fields >> state.layout.space("H7") & 1 and state.player(0).worker_at(state.layout.space("C4")) == "L"


def test_r_d5_every_refill_draw_has_a_space_to_fill() -> None:
    """Whatever the draws (events included), the Benefactor chain never leaves a draw for a full land office."""
    for seed in range(30):
        rng = random.Random(seed)
        game, state = benefactor_table()
        state = play(game, state, "play L C3", "take C3")
        for _ in range(60):
            if game.current_player(state) != CHANCE and state.top is not None and state.top.kind == "bonus":
                state = game.play(state, "bonus C4" if game.is_legal(state, game.parse_move("bonus C4")) else "decline")
            elif game.current_player(state) == CHANCE:
                assert -1 in state.office or state.top is None or state.top.purpose != "office"
                state = game.apply(state, game.sample_chance(state, rng))
            elif state.top is None:
                break
            else:
                state = game.apply(state, rng.choice(game.legal_moves(state)))
        assert not [s for s in state.stack if s.kind == "draw" and s.purpose == "office"] or -1 in state.office


def test_a_whole_bid_is_refused_whole_in_the_storekeeper_too() -> None:
    """The Storekeeper (H) bids in one move as well (R-D3): a stone too many refuses the bid, nothing lands."""
    layout = load_layout()
    alice = {"name": "Alice", "fields": ["B2", "B3", "C2", "D2", "D3", "B4", "C5"], "stones": {"wheat": 1, "wine": 1}}
    game, state = table(layout, [alice, {"name": "Bob"}], office=["H7", "A1", "A2", "A3", "A4", "A5"], bag=["E1"])
    state = play(game, state, "play H C3")
    with pytest.raises(IllegalMoveError) as refused:
        game.play(state, "bid H7 wheat wine wine")
    assert refused.value.rule == "R-D3"
    assert state.player(0).warehouse == ()
    state = play(game, state, "bid H7 wine wheat")
    assert state.player(0).warehouse[0][1] == (0, 0, 0, 1, 1) and state.player(0).stones == (0, 0, 0, 0, 0)
