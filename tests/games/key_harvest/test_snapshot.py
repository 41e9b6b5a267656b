"""Snapshot scoring: the spec's worked examples 1-3 (section 12) on the toy board T20."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.games.key_harvest.table import T20_ROWS as ROWS
from tests.games.key_harvest.table import snap_tile, snap_worker, t20_at

from companion.core.messages import render
from companion.core.errors import MalformedInputError
from companion.core.messages import LANGUAGES, render
from companion.games.key_harvest.board import Layout, load_layout, neighbour_masks
from companion.games.key_harvest.snapshot import read_snapshot, score_snapshot, snapshot_options
from companion.games.key_harvest.variants import VARIANT_FLAGS

DOC = Path(__file__).parents[3] / "docs" / "key-harvest-snapshot.md"
T20_LABELS = tuple(f"{row}{n}" for row in ROWS for n in range(1, 6))

# Spec section 12, "Toy board T20": every space and its neighbours.
T20_TABLE = """
A1: A2 B1            A2: A1 A3 B1 B2         A3: A2 A4 B2 B3        A4: A3 A5 B3 B4        A5: A4 B4 B5
B1: A1 A2 B2 C1      B2: A2 A3 B1 B3 C1 C2   B3: A3 A4 B2 B4 C2 C3  B4: A4 A5 B3 B5 C3 C4  B5: A5 B4 C4 C5
C1: B1 B2 C2 D1      C2: B2 B3 C1 C3 D1 D2   C3: B3 B4 C2 C4 D2 D3  C4: B4 B5 C3 C5 D3 D4  C5: B5 C4 D4 D5
D1: C1 C2 D2         D2: C2 C3 D1 D3         D3: C3 C4 D2 D4        D4: C4 C5 D3 D5        D5: C5 D4
"""


def player(
    name: str,
    tiles: list[dict[str, Any]] | None = None,
    workers: list[dict[str, Any]] | None = None,
    stones: dict[str, int] | None = None,
) -> dict[str, Any]:
    return {"name": name, "tiles": tiles or [], "workers": workers or [], "stones": stones or {}}


def snapshot(*players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": "key-harvest", "players": list(players), **extra}


def scores(data: dict[str, Any], **options: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = score_snapshot(data, options)["players"]
    return rows


def test_t20_coordinates_give_the_spec_adjacency() -> None:
    masks = neighbour_masks([(q, r) for q, r in map(t20_at, T20_LABELS)])
    expected = {label: set(rest.split()) for label, rest in re.findall(r"([A-D][1-5]): ((?:[A-D][1-5] ?)+)", T20_TABLE)}
    assert len(expected) == 20
    for i, label in enumerate(T20_LABELS):
        assert {T20_LABELS[j] for j in range(20) if masks[i] >> j & 1} == expected[label], label


def test_example_1_groups_and_workers() -> None:
    alice = player(
        "Alice",
        [snap_tile(label) for label in ("A1", "A2", "B1", "B2", "C1", "A4", "A5", "B5", "D3")],
        [snap_worker("C", "A3"), snap_worker("A", "D4")],  # Day Labourer (2) and Apprentice (1)
    )
    row = scores(snapshot(alice, player("Bob"), player("Cara")))[0]
    assert row["worker_points"] == 3
    assert row["largest_group_points"] == 5  # {A1, A2, B1, B2, C1}; A3's worker does not connect
    assert row["second_group_points"] == 6  # {A4, A5, B5}
    assert row["majority_points"] == 0
    assert row["total"] == 14


EX2A = ("A1", "A2", "B1", "B2", "C4", "C5", "D4", "D5")
EX2B = ("A1", "A2", "A3", "B1", "B2", "B3", "D1", "D5")


def test_example_2a_equal_groups_both_count() -> None:
    row = scores(snapshot(player("Alice", [snap_tile(label) for label in EX2A]), player("Bob")))[0]
    assert (row["largest_group_points"], row["second_group_points"], row["total"]) == (4, 8, 12)


def test_example_2b_single_tile_second_group() -> None:
    data = snapshot(player("Alice", [snap_tile(label) for label in EX2B]), player("Bob"))
    assert scores(data)[0]["total"] == 8
    assert scores(data, min_scoring_group_size="2")[0]["total"] == 6


def test_example_2b_group_minimum_from_the_snapshot_options() -> None:
    data = snapshot(
        player("Alice", [snap_tile(label) for label in EX2B]), player("Bob"), options={"min_scoring_group_size": 2}
    )
    assert scores(data)[0]["total"] == 6
    assert scores(data, min_scoring_group_size="1")[0]["total"] == 8  # the caller's options win


def test_example_2c_warehouse_tiles_do_not_count() -> None:
    data = snapshot(
        player("Alice", [snap_tile(label) for label in EX2A], stones={"wheat": 1}),
        player("Bob"),
        warehouses={"Alice": [{"label": "D3", "crop": "wine", "bid": {"wheat": 1}}]},
    )
    assert scores(data)[0]["total"] == 12 + 1  # 12 from groups, +1 for the only wheat stone


def ex3_stones(wheat: int, red: int, green: int, orange: int, brown: int) -> dict[str, int]:
    """Spec Ex 3 writes stones as (wheat, red, green, orange, brown): colour names are accepted."""
    return {"yellow": wheat, "red": red, "green": green, "orange": orange, "brown": brown}


def test_example_3_majorities_ignore_bids() -> None:
    data = snapshot(
        player("Alice", stones=ex3_stones(3, 2, 0, 1, 2)),
        player("Bob", stones=ex3_stones(3, 1, 2, 0, 1)),
        player("Cara", stones=ex3_stones(1, 1, 2, 0, 0)),
        warehouses={"Bob": [{"label": "8", "bid": {"hops": 4}}]},
    )
    assert [row["majority_points"] for row in scores(data)] == [3, 0, 0]


def ex3_sequel(bob_stones: dict[str, int]) -> dict[str, Any]:
    """Alice and Bob on 31 points with 14 field tiles each (groups 7 and 7)."""
    shape = ("A1", "A2", "A3", "A4", "A5", "B1", "B2", "C4", "C5", "D1", "D2", "D3", "D4", "D5")
    alice = player(
        "Alice", [snap_tile(label) for label in shape], [snap_worker("E", "B4"), snap_worker("G", "C1")], ex3_stones(3, 2, 0, 1, 2)
    )
    bob_tiles = [snap_tile(str(100 + i), at=t20_at(label)) for i, label in enumerate(shape)]  # made-up labels
    bob = player("Bob", bob_tiles, [snap_worker("J", "B4"), snap_worker("K", "C1")], bob_stones)
    return snapshot(alice, bob, player("Cara", stones=ex3_stones(1, 1, 2, 0, 0)))


def test_example_3_tiebreak_on_stones() -> None:
    alice, bob, cara = scores(ex3_sequel(ex3_stones(3, 1, 2, 0, 1)))
    assert (alice["total"], bob["total"]) == (31, 31)
    assert alice["tiebreak"] == {"tiles": 14, "stones": 8}
    assert bob["tiebreak"] == {"tiles": 14, "stones": 7}
    assert (alice["rank"], bob["rank"], cara["rank"]) == (1, 2, 3)


def test_tiebreak_on_tiles_first() -> None:
    alice = player("Alice", [snap_tile("A1"), snap_tile("A2"), snap_tile("A3")])  # 3 points, 3 tiles
    bob = player("Bob", [snap_tile("X1", at=[0, 0]), snap_tile("X2", at=[1, 0])], [snap_worker("A", "D5")])  # 2 + 1 points
    rows = scores(snapshot(alice, bob))
    assert [row["total"] for row in rows] == [3, 3]
    assert [row["rank"] for row in rows] == [1, 2]  # 3 field tiles against 2
    rows = scores(snapshot(alice, bob), tiebreak_tiles="fields_and_workers")
    assert [row["tiebreak"]["tiles"] for row in rows] == [3, 3]
    assert [row["rank"] for row in rows] == [1, 1]  # and 0 stones each: a shared win


def test_shared_win_when_stones_are_equal_too() -> None:
    rows = scores(
        snapshot(
            player("Alice", [snap_tile("A1")], stones={"wheat": 2}),
            player("Bob", [snap_tile("B1", at=[0, 0])], stones={"wine": 2}),
            player("Cara"),
        )
    )
    assert [row["total"] for row in rows] == [2, 2, 0]
    assert [row["rank"] for row in rows] == [1, 1, 3]


def test_all_positions_given_means_no_layout() -> None:
    data = snapshot(player("Alice", [snap_tile("A1")]), player("Bob"))
    result = score_snapshot(data, None)
    assert "layout" not in result
    assert read_snapshot(data).provisional_layout is False


def test_labels_are_placed_through_the_layout() -> None:
    layout = load_layout()
    labels = ("A1", "A2", "B1", "D5", "D6")
    by_label = snapshot(
        player(
            "Alice",
            [{"label": label, "crop": "wheat", "harvested": True} for label in labels],
            [{"worker": "C", "label": "C5"}],
        ),
        player("Bob"),
    )
    at = [list(layout.coords[layout.space(label)]) for label in labels]
    by_at = snapshot(
        player(
            "Alice",
            [snap_tile(label, at=pos) for label, pos in zip(labels, at)],
            [{"worker": "C", "at": list(layout.coords[layout.space("C5")])}],
        ),
        player("Bob"),
    )
    snap = read_snapshot(by_label)
    assert snap.provisional_layout is True and snap.layout is not None and snap.layout.provisional
    result = score_snapshot(by_label, None)
    assert result["layout"]["provisional"] is True and result["layout"]["name"] == "default"
    assert result["players"] == score_snapshot(by_at, None)["players"]
    assert result["players"][0]["largest_group_points"] == 3


def t20_layout(provisional: bool) -> Layout:
    """T20 as a layout file would give it, with every crop wheat except D5 (wine)."""
    pairs = {
        "A1": "blue",
        "A2": "blue",
        "A4": "red",
        "A5": "red",
        "D1": "green",
        "D2": "green",
        "D4": "pink",
        "D5": "pink",
    }
    spaces = [
        {"label": label, "at": t20_at(label), "crop": "wine" if label == "D5" else "wheat", "start_pair": pairs.get(label)}
        for label in T20_LABELS
    ]
    return Layout.from_json({"name": "t20", "provisional": provisional, "spaces": spaces})


def test_transcribed_layout_checks_crops_and_labels() -> None:
    layout = t20_layout(provisional=False)
    good = snapshot(player("Alice", [snap_tile("A1"), {"label": "D5", "crop": "wine", "harvested": False}]), player("Bob"))
    result = score_snapshot(good, None, layout)
    assert result["layout"] == {"name": "t20", "provisional": False, "note": ""}
    assert read_snapshot(good, layout).provisional_layout is False
    with pytest.raises(
        MalformedInputError, match=r"^players\[0\]\.tiles\[0\]: crop wine disagrees with the layout \(A1 is wheat\)$"
    ):
        read_snapshot(snapshot(player("Alice", [snap_tile("A1", crop="wine")]), player("Bob")), layout)
    with pytest.raises(MalformedInputError, match=r"^players\[1\]\.tiles\[0\]: unknown label 'Q9'"):
        read_snapshot(snapshot(player("Alice"), player("Bob", [snap_tile("Q9", at=[0, 0])])), layout)


def test_provisional_layout_does_not_check_crops() -> None:
    data = snapshot(player("Alice", [snap_tile("A1", crop="wine")]), player("Bob"))
    assert read_snapshot(data, t20_layout(provisional=True)).layout is None


def test_snapshot_is_not_modified_and_errors_name_the_place() -> None:
    data = snapshot(player("Alice", [snap_tile("A1")]), player("Bob", [snap_tile("A1")]))
    before = copy.deepcopy(data)
    with pytest.raises(MalformedInputError, match=r"^players\[1\]\.tiles\[0\]: tile A1 is also on Alice's board$"):
        read_snapshot(data)
    assert data == before


def test_variant_flags_are_section_10_3() -> None:
    expected = {
        "turn_direction": ("clockwise", "counterclockwise"),
        "min_scoring_group_size": ("1", "2"),
        "single_tile_group_harvestable": ("true", "false"),
        "final_extra_turns_for_trigger_player": ("2", "1"),
        "seventh_check_timing": ("after_resolution", "before_resolution"),
        "tiebreak_tiles": ("fields_only", "fields_and_workers"),
        "worker_adjacency": ("at_least", "exactly"),
        "bonus_replacement_can_replace_lower": ("true", "false"),
        "lawyer_mode": ("reuse_in_place", "lift_and_replace"),
        "gift_forwarding": ("all_but_final_receiver", "not_last_in_order"),
        "events_only_bag_end": ("de_normal_end", "it_immediate"),
        "ability_purchase_payee": ("owner", "supply"),
        "ignored_event_disposal": ("out_of_play", "back_to_bag"),
        "seventh_rule_guard": ("skip_when_no_fields_in_bag", "off"),
    }
    assert {spec.name: spec.choices for spec in VARIANT_FLAGS} == expected
    assert all(spec.ref and all(render(spec.help, language) and "\n" not in render(spec.help, language)
                                for language in LANGUAGES) for spec in VARIANT_FLAGS)
    assert dict(snapshot_options()) == {name: choices[0] for name, choices in expected.items()}


def test_the_documented_example_scores_as_documented() -> None:
    blocks = re.findall(r"```json\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    example, output = (json.loads(block) for block in blocks[:2])
    result = score_snapshot(example, None)
    result["warnings"] = [render(warning) for warning in result["warnings"]]  # as `companion score` prints them
    assert result == output


def test_options_fall_back_to_the_shared_flags_without_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.games.key_harvest.snapshot as module

    def not_written_yet(name: str) -> None:
        raise ImportError("cannot import name 'KeyHarvest'")

    monkeypatch.setattr(module, "find_game", not_written_yet)
    assert snapshot_options({"min_scoring_group_size": "2"})["min_scoring_group_size"] == "2"
    with pytest.raises(MalformedInputError, match="unknown option 'house_rule'"):
        snapshot_options({"house_rule": "yes"})
    data = snapshot(player("Alice", [snap_tile(label) for label in EX2B]), player("Bob"))
    assert scores(data, min_scoring_group_size="2")[0]["total"] == 6
