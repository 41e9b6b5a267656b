"""The Season End (spec 3.7-3.9): upkeep, the new turn order and the favour track; worked examples 6 and 7."""

from __future__ import annotations

from companion.core.messages import render
from companion.games.key_market.season_end import (
    Standing,
    has_season_end,
    new_turn_order,
    pick_text,
    reveals_year_two,
    to_top,
    upkeep,
)

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
NAMES = ["Red", "Yellow", "Green", "Blue"]
# Red: 5 workers on 3 large boards, the keyworker alone on board 3
RED_WORKERS = [Standing(1), Standing(1), Standing(2), Standing(2), Standing(3, keyworker=True)]


def test_example_6_upkeep() -> None:
    assert upkeep(RED_WORKERS).gold == 10
    assert upkeep(RED_WORKERS, g4_apprentice=True).gold == 8
    assert upkeep(RED_WORKERS, g12_journeyman=True).gold == 5
    assert upkeep(RED_WORKERS, g4_apprentice=True, g12_journeyman=True).gold == 4
    assert upkeep(RED_WORKERS, g12_master=True).gold == 3
    assert upkeep(RED_WORKERS, g12_master=True, g4_apprentice=True).gold == 2  # board 3 holds only the keyworker
    assert render(upkeep(RED_WORKERS, g12_journeyman=True).reason, "en") == \
        "5 workers at 1 gold each (Marshals' journeyman)"


def test_guild_12_master_and_the_small_board() -> None:
    kept = [Standing(1), Standing(0, large=False)]
    assert upkeep(kept, g12_master=True).gold == 1
    assert upkeep(kept, g12_master=True, small_board="counts").gold == 2


def test_example_6_new_turn_order_and_favour_track() -> None:
    workers = {BLUE: 3, GREEN: 4, YELLOW: 4, RED: 5}
    result = new_turn_order((RED, YELLOW, GREEN, BLUE), workers, (RED, YELLOW, GREEN, BLUE))
    assert result.order == (BLUE, YELLOW, GREEN, RED)
    assert result.favour == (RED, GREEN, BLUE, YELLOW)
    assert [p.how for p in result.picks] == ["alone", "favour", "alone", "alone"]
    assert render(pick_text(result.picks[1], NAMES), "en") == \
        "Yellow: 4 workers, tied with Green; higher on the favour track, drops to its bottom"


def test_example_6_three_way_tie() -> None:
    a, b, c = 0, 1, 2
    result = new_turn_order((a, b, c), {a: 2, b: 2, c: 2}, (c, a, b))
    assert result.order == (c, a, b)
    assert result.favour == (b, c, a)
    assert result.picks[2].how == "alone"


def test_example_6_two_players() -> None:
    assert new_turn_order((0, 1), {0: 3, 1: 3}, None).order == (1, 0)
    assert new_turn_order((0, 1), {0: 3, 1: 2}, None).order == (1, 0)
    assert new_turn_order((1, 0), {0: 3, 1: 3}, None).order == (0, 1)
    assert new_turn_order((0, 1), {0: 2, 1: 3}, None).order == (0, 1)


def test_example_7_take_gold_moves_to_the_top_of_the_favour_track() -> None:
    assert to_top((BLUE, GREEN, YELLOW, RED), YELLOW) == (YELLOW, BLUE, GREEN, RED)


def test_calendar() -> None:
    assert not has_season_end(2, "autumn") and has_season_end(1, "autumn") and has_season_end(2, "summer")
    assert [reveals_year_two(1, s) for s in ("winter", "spring", "summer", "autumn")] == [False, True, True, True]
    assert not reveals_year_two(2, "spring")
