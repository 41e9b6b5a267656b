"""The board layout keeps the rulebook's rules for it (DE 45, 587, 591; spec 1 and 10.1 #3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.core.game import CHANCE
from companion.games.key_harvest import KeyHarvest
from companion.games.key_harvest.board import MIN_TWIN_DISTANCE, Layout, components, load_layout

DATA = Path(__file__).parent / "data"


def default_json() -> dict[str, Any]:
    data: dict[str, Any] = load_layout().to_json()
    return data


def with_pairs(data: dict[str, Any], pairs: dict[str, str]) -> dict[str, Any]:
    for space in data["spaces"]:
        space["start_pair"] = pairs.get(space["label"])
    return data


def test_the_shipped_layout_keeps_the_start_rules_and_stays_provisional() -> None:
    """DE 587/591: each start pair's tiles lie in different regions, away from the other pairs' tiles."""
    layout = load_layout()
    assert layout.provisional and layout.size == 56
    layout.check_printed_rules()
    for a, b in layout.start_pairs:
        assert layout.distance(a, b) >= MIN_TWIN_DISTANCE
    tiles = [t for pair in layout.start_pairs for t in pair]
    assert not any(layout.neighbours[a] >> b & 1 for a in tiles for b in tiles)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_starts_with_two_single_tiles_not_a_group(players: int) -> None:
    """Spec 2.1 step 4 with DE 587: a player's two start tiles are two groups of one, never a group of two."""
    game = KeyHarvest()
    import random

    rng = random.Random(players)
    state = game.setup([f"P{i}" for i in range(players)], game.options())
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    for p in state.players:
        assert p.fields.bit_count() == 2
        assert len(components(p.fields, state.layout.neighbours)) == 2


def test_start_tiles_of_one_pair_side_by_side_are_refused() -> None:
    """The old placeholder (B2/B3, B5/B6, G2/G3, G5/G6) gave every player a group of two: refused, naming DE 587."""
    data = with_pairs(default_json(), {"B2": "blue", "B3": "blue", "B5": "purple", "B6": "purple",
                                       "G2": "black", "G3": "black", "G5": "white", "G6": "white"})
    with pytest.raises(MalformedInputError, match=r"start pair blue \(B2, B3\) lies 1 step\(s\) apart.*DE 587"):
        Layout.from_json(data)


def test_twins_sharing_a_neighbour_are_too_close() -> None:
    data = with_pairs(default_json(), {"B3": "blue", "B5": "blue", "C2": "purple", "F4": "purple",
                                       "D3": "black", "F6": "black", "D5": "white", "G3": "white"})
    with pytest.raises(MalformedInputError, match=r"start pair blue \(B3, B5\) lies 2 step"):
        Layout.from_json(data)


def test_start_tiles_of_two_pairs_touching_are_refused() -> None:
    data = with_pairs(default_json(), {"B3": "blue", "F4": "blue", "B4": "purple", "F1": "purple",
                                       "D3": "black", "F6": "black", "D5": "white", "G3": "white"})
    with pytest.raises(MalformedInputError, match=r"start tiles B3 \(blue\) and B4 \(purple\) touch.*DE 591"):
        Layout.from_json(data)


def test_a_label_that_is_not_alphanumeric_is_refused() -> None:
    data = default_json()
    data["spaces"][0]["label"] = "A-1"
    with pytest.raises(MalformedInputError, match=r"'A-1' is not 1 to 4 letters or digits \(DE 45\)"):
        Layout.from_json(data)


def test_a_layout_file_breaking_the_rules_is_refused_by_the_loader(tmp_path: Path) -> None:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(with_pairs(default_json(), {"B2": "a", "B3": "a", "D2": "b", "D6": "b",
                                                             "F2": "c", "F6": "c", "H2": "d", "H6": "d"})))
    with pytest.raises(MalformedInputError, match="DE 587"):
        load_layout(path)


def test_a_stored_game_keeps_replaying_on_the_layout_it_was_played_on() -> None:
    """Games stored on the old placeholder (start pairs side by side) still open: their edition replays as played."""
    edition = json.loads((DATA / "old-log-2p.json").read_text())["edition"]
    with pytest.raises(MalformedInputError):
        Layout.from_json(edition["layout"])
    game = KeyHarvest().with_edition(edition)
    assert game.layout.start_pairs[0] == (game.layout.space("B2"), game.layout.space("B3"))


@pytest.mark.parametrize("typo, message", [
    ({"provisonal": False}, "layout: unknown key 'provisonal'; expected name, provisional, note, spaces"),
    ({"space": []}, "layout: unknown key 'space'"),
])
def test_a_typo_in_a_layout_is_refused_not_defaulted(typo: dict[str, Any], message: str) -> None:
    """A misspelt key must not fall back to a default (a typo in "provisional" would mark a board provisional)."""
    with pytest.raises(MalformedInputError, match=message):
        Layout.from_json(default_json() | typo)


def test_a_typo_in_a_layout_space_is_refused() -> None:
    data = default_json()
    data["spaces"][3]["start_par"] = "blue"
    with pytest.raises(MalformedInputError, match=r"layout spaces\[3\]: unknown key 'start_par'"):
        Layout.from_json(data)


@pytest.mark.parametrize("typo", [{"warehouse": {}}, {"land_offices": []}, {"Players": []}])
def test_a_typo_in_a_snapshot_is_refused(typo: dict[str, Any]) -> None:
    """The snapshot reader (docs/key-harvest-snapshot.md) refuses unknown top-level keys by name."""
    from companion.games.key_harvest.snapshot import score_snapshot

    table = {"game": "key-harvest", "players": [{"name": "A", "tiles": [], "workers": [], "stones": {}}]} | typo
    with pytest.raises(MalformedInputError, match=f"snapshot: unknown key {next(iter(typo))!r}"):
        score_snapshot(table)
