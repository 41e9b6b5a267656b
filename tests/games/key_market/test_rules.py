"""The engine's rules on a driven game: setup (spec 2.2), the Farming order and limits (3.3, 4.3, 4.6), Market Day
(4.4: the secret commitment, one guild action, passing, bought goods), the Season End (3.7-3.9). Every limit of
spec 4.6 has a legal and an illegal case here or in the pure modules' tests."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.game import CHANCE, SIMULTANEOUS
from companion.core.messages import render
from companion.games.key_market.data import GOODS
from tests.games.key_market.table import GAME, give, member, play, started


def refused(state, move: str) -> str:  # type: ignore[no-untyped-def]
    error = GAME.validate(state, GAME.parse_move(move))
    assert error is not None, f"{move} should be refused"
    return error.rule


def test_setup_gives_each_player_the_spec_2_2_start() -> None:
    s = started(3)
    assert [sum(p.goods) for p in s.seats] == [4, 4, 4]
    assert [s.seat(p).gold for p in s.order] == [3, 4, 4]
    assert [len(p.fields()) for p in s.seats] == [1, 1, 1]
    assert [p.workers.count("pool") for p in s.seats] == [7, 7, 7]
    assert s.favour == tuple(reversed(s.order))
    two = started(2)
    assert [p.workers.count("pool") for p in two.seats] == [8, 8] and two.favour is None
    assert len(two.placements) == 3 and two.placements[0].board == 0  # the small board + 2 large


def test_the_farmhouse_payment_is_secret_until_shown_together() -> None:
    s = GAME.setup(["A", "B", "C"], GAME.options({"first_game": "yes"}))
    s = play(s, "weather S1 S2 S3 R1 R2 R3", "order 1 2 3", "farmhouses 1 2 3")
    for i in range(3):
        s = GAME.apply(play(s, f"deal {i + 1}a"), GAME.legal_moves(play(s, f"deal {i + 1}a"))[0])
    assert GAME.current_player(s) == SIMULTANEOUS and GAME.deciders(s) == (0, 1, 2)
    assert refused(s, "pay 1 fruit fruit") == "2.2-17" and refused(s, "pay 1 veg wheat") == "2.2-17"
    move = GAME.parse_move("pay 1 fruit sheep")
    assert GAME.is_secret(s, move)
    assert render(GAME.describe(s, move, 1), "en") == "A chose in secret"
    s = GAME.apply(s, move)
    assert GAME.view(s, None)["players"][0]["secret"] is None and GAME.view(s, 0)["players"][0]["secret"]
    assert GAME.deciders(s) == (1, 2)
    s = play(s, "pay 2 veg wheat", "pay 3 wheat fish")
    assert GAME.current_player(s) == CHANCE
    before = s.market
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    assert sum(s.market) == sum(before) + 6 and s.stage == "farming"


def test_farming_actions_come_in_order() -> None:
    s = give(started(3), 0, gold=10)
    s = play(s, "hire 2,1")
    assert refused(s, "move 0,0 1,0") == "3.3"  # F1 after F2
    assert refused(s, "hire 0,2") == "4.3-F2"  # one hire a season
    s = play(s, "produce")
    assert refused(s, "hire 0,2") == "3.3"


def test_hiring_costs_the_workers_already_there_and_guild_5() -> None:
    s = give(started(3), 0, gold=10)
    assert play(s, "hire 2,1").seat(0).gold == 9  # 1 worker already on the territory
    assert refused(s, "hire 1,1") == "4.3-F2"  # no hiring into a village
    assert refused(s, "hire 1,0") == "4.1-2"  # next to the own worker on 0,0
    s5 = member(s, 0, 5, "J")
    twice = play(s5, "hire 2,1", "hire 0,2")
    assert twice.seat(0).gold == 10 - 1 - 2
    assert refused(twice, "hire 2,2") == "4.3-F2"


def test_moving_into_a_village_costs_steps_and_settling() -> None:
    s = give(started(3), 0, gold=10)
    moved = play(s, "move 0,0 1,1")
    assert moved.seat(0).gold == 10 - 2 - 5
    assert refused(give(s, 0, gold=6), "move 0,0 1,1") == "4.3-F1"
    assert play(member(s, 0, 6, "A"), "move 0,0 1,1").seat(0).gold == 10 - 2 - 2


def test_the_manor_once_and_retiring_needs_it() -> None:
    s = give(started(3), 0, gold=5, fruit=2, veg=2, wheat=1, sheep=1, lux=3)
    assert refused(s, "retire 0,0 veg wheat lux") == "4.3-F6"
    built = play(s, "manor fruit veg lux")
    assert built.seat(0).manor and refused(built, "manor fruit sheep lux") == "4.3-F5"
    retired = play(built, "retire 0,0 fruit sheep lux")
    assert retired.seat(0).workers.count("retired") == 1
    assert refused(retired, "retire g1 veg wheat lux") == "4.3-F6"


def to_market(s):  # type: ignore[no-untyped-def]
    """Every player ends Farming: the secret commitment begins."""
    for _ in range(s.n):
        s = play(s, "done")
    return s


def test_market_day_commitment_sale_guild_action_and_passing() -> None:
    s = to_market(started(3))
    assert GAME.current_player(s) == SIMULTANEOUS
    assert refused(s, "commit 1 lux") == "4.2"  # not held
    s = play(s, "commit 1 fruit", "commit 2 fish", "commit 3 fruit fish")
    assert GAME.view(s, None)["players"][2]["committed"] == {}  # nothing shown before all are shown together
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    assert s.stage == "market" and GAME.view(s, None)["players"][2]["committed"] == {"fruit": 1, "fish": 1}
    assert refused(s, "pass") == "4.4-III"
    assert refused(s, "sell fruit 2") == "4.4-I"
    s = play(s, "sell fruit 1")
    assert refused(s := play(s, "sell fish 1", "sell fruit 1"), "pass") == "4.4-III"  # seat 1: guild action first
    s = play(s, "gold", "gold", "sell fish 1")  # seats 1, 2, 3: back to seat 1, guild action done
    assert refused(s, "gold") == "4.4-II" and refused(s, "buy fruit 1") == "4.4-II"
    s = play(s, "pass")
    assert s.seat(0).passed and GAME.current_player(s) == 1


def test_take_gold_moves_to_the_top_of_the_favour_track() -> None:
    s = to_market(started(3))
    s = play(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    gold = s.seat(0).gold
    s = play(s, "gold")
    assert s.seat(0).gold == gold + 4 and s.favour[0] == 0


def test_goods_bought_today_cannot_be_sold_today() -> None:
    s = to_market(give(started(3), 0, gold=10, fruit=1))
    s = play(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    s = play(s, "buy veg 1")
    assert s.seat(0).goods[1] == 1
    s = play(s, "sell fish 1", "sell fish 1")
    assert refused(s, "sell veg 1") == "4.4-I"


def test_upkeep_pays_or_removes_and_the_new_turn_order() -> None:
    s = give(started(3), 2, gold=5, fish=2)
    s = play(s, "done", "done", "hire -4,2", "done")  # seat 3 hires a second worker (1 gold): 2 on the territory
    s = play(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    s = play(s, "sell fruit 1", "sell fish 1", "sell fish 1", "gold", "gold", "gold", "pass", "pass", "pass")
    assert s.stage == "upkeep" and GAME.current_player(s) == 0
    poor = give(s, 0, gold=1)
    assert refused(poor, "release") == "3.7-S3"
    assert GAME.validate(poor, GAME.parse_move("release 0,0")) is None
    s = play(s, "release", "release", "release")
    assert (s.year, s.season, s.stage) == (1, "spring", "farming")
    assert s.order[-1] == 2  # the most workers plays last
    assert s.favour is not None and len(s.favour) == 3


def test_guild_actions_place_an_apprentice_and_promote() -> None:
    s = to_market(give(started(3), 0, gold=5, fruit=2, veg=2, wheat=2, sheep=2, fish=2))
    s = play(s, "commit 1 fruit", "commit 2 fish", "commit 3 fish")
    s = GAME.apply(s, GAME.legal_moves(s)[0])
    assert refused(s, "apprentice 9 pool veg wheat") == "4.4-A"  # not in play (first game: guilds 1-6)
    assert refused(s, "apprentice 1 pool veg wheat") == "4.4-A"  # guild 1 needs a column
    assert refused(s, "apprentice 2 pool veg veg") == "4.2"
    s = play(s, "apprentice 2 pool veg wheat")
    assert s.seat(0).guilds()[2][1] == "A" and s.seat(0).guild_action
    s = replace(s, stage="farming", turn=0).with_seat(0, step=0)
    s = play(s, "promote 2 veg wheat sheep")
    assert s.seat(0).guilds()[2][1] == "J"
    assert refused(s, "promote 2 fruit sheep fish lux") == "4.3-F4"  # one promotion in F4


@pytest.mark.parametrize("players", [2, 4])
def test_the_game_ends_after_autumn_of_year_two_without_a_season_end(players: int) -> None:
    from tests.games.key_market.table import random_game

    log = random_game(players, 1)
    assert log.count("release") + sum(m.startswith("release ") for m in log) <= 7 * players
    reveals = [m for m in log if m.startswith("reveal ")]
    assert len(reveals) == 3  # the year-2 pairs of spring, summer, autumn, one per Season End of year 1


def test_one_worker_per_guild_slot_and_one_member_per_player_and_guild() -> None:
    s = give(started(4), 0, fruit=2, veg=2, wheat=2, sheep=2)
    full = member(member(member(s, 1, 2, "A", 0), 2, 2, "A", 1), 3, 2, "A", 2)  # guild 2's 3 apprentice places
    full = at_market_with(full)
    assert refused(full, "apprentice 2 pool veg wheat") == "4.4-A"
    assert GAME.validate(full, GAME.parse_move("apprentice 3 pool veg wheat")) is None
    mine = at_market_with(member(s, 0, 2, "A"))
    assert refused(mine, "apprentice 2 pool veg wheat") == "4.4-A"  # one member per guild


def at_market_with(s):  # type: ignore[no-untyped-def]
    s = to_market(s)
    s = play(s, *(f"commit {i + 1} {next(g for g, n in zip(GOODS, seat.goods) if n)}"
                  for i, seat in enumerate(s.seats)))
    return GAME.apply(s, GAME.legal_moves(s)[0])


def test_leaving_a_guild_for_the_pool_is_a_variant() -> None:
    """Spec 7.2 #9: by default a worker leaves a guild only to be used elsewhere."""
    s = member(started(3), 0, 2, "A")
    assert refused(s, "leave g2") == "6.1"
    free = member(started(3, leave_guild="any_time"), 0, 2, "A")
    left = play(free, "leave g2")
    assert left.seat(0).workers[2] == "pool" and GAME.current_player(left) == 0


def rich(s):  # type: ignore[no-untyped-def]
    s = give(member(s, 0, 2, "A"), 0, gold=10, fruit=3, veg=3, wheat=3, sheep=3, fish=3, lux=3)
    return s.with_seat(0, manor=True)


def test_a_second_promotion_as_the_guild_action_after_farming_action_4() -> None:
    """Spec 4.6: 1 promotion in F4 + 1 as guild action B per season (L325, L337)."""
    s = play(rich(started(3)), "promote 2 fruit veg wheat")
    assert refused(s, "promote 2 sheep fish lux") == "4.3-F4"
    s = at_market_with(s)
    s = play(s, "promote 2 sheep fish lux")
    assert s.seat(0).guilds()[2][1] == "M" and s.seat(0).guild_action


def test_a_second_retirement_as_the_guild_action_after_farming_action_6() -> None:
    """Spec 4.6: 1 retirement in F6 + 1 as guild action C per season; no overall limit (L368, L370)."""
    s = play(rich(started(3)), "retire 0,0 fruit veg lux")
    assert refused(s, "retire g2 sheep fish lux") == "4.3-F6"
    s = at_market_with(s)
    s = play(s, "retire g2 sheep fish lux")
    assert s.seat(0).workers.count("retired") == 2


def test_the_table_sees_each_coming_harvest_with_its_reasons_and_a_shortage_before_it_happens() -> None:
    s = replace(started(3), season="spring")  # year 1 spring: square marker fruit (S1), round marker fruit (R1)
    sheep = GOODS.index("sheep")
    s = replace(s, supply=tuple(1 if i == sheep else n for i, n in enumerate(s.supply)),
                box=tuple(n - 1 if i == sheep else 0 for i, n in enumerate(s.supply)))
    view = GAME.view(s, None)
    first, second = view["harvests"][0], view["harvests"][1]
    assert first["fields"][0]["total"] == 0  # the fruit square under the fruit square marker
    assert render(first["fields"][0]["parts"][0]["reason"], "en").startswith("square field, the square weather")
    assert second["goods"] == {"sheep": 1} and second["shortage"] == {"sheep": 1} and second["gold"] == 1
    played = play(s, "done", "produce")  # seat 2 produces what the table was shown
    assert played.seat(1).goods[sheep] == s.seat(1).goods[sheep] + 1
    assert played.seat(1).gold == s.seat(1).gold + 1
    assert view["upkeep"][0]["gold"] == 2


def test_the_season_end_checklist_shows_the_next_turn_order_and_its_ties() -> None:
    s = at_market_with(started(3))  # one worker each; favour track P3, P2, P1
    lines = [render(m, "en") for m in GAME.view(s, None)["next_order"]]
    assert lines[0] == "P3: 1 worker, tied with P1, P2; higher on the favour track, drops to its bottom"
    assert lines[2] == "P1: 1 worker on the territory, no tie"


def test_moves_paid_from_behind_the_screen_stay_on_the_players_own_page() -> None:
    s = rich(started(3))
    shared = {str(m) for m in GAME.public_moves(s)}
    assert "done" in shared and "promote 2 fruit veg wheat" not in shared
    assert "promote 2 fruit veg wheat" in {str(m) for m in GAME.legal_moves(s)}
    move = GAME.parse_move("promote 2 fruit fruit fruit")
    error = GAME.validate(s, move)
    assert error is not None and error.rule == "4.2"
    assert render(GAME.table_refusal(s, move, error).text, "en") == \
        "Not possible here: make this move on your own page."


@pytest.mark.parametrize("players, options, dealer", [
    (3, {}, "C"), (4, {}, "D"), (2, {}, "B"), (2, {"board_dealer_two_players": "start_player"}, "A")])
def test_the_board_dealer_is_named_by_the_setup_and_the_log(players: int, options: dict[str, str],
                                                            dealer: str) -> None:
    """Setup step 15 (L153, L224): the last player in turn order hands out the boards; with 2 players the flag
    ``board_dealer_two_players`` (spec 7.2 #22) can name the start player instead."""
    names = ["A", "B", "C", "D"][:players]
    s = GAME.setup(names, GAME.options({"first_game": "yes", **options}))
    s = play(s, "weather S1 S2 S3 R1 R2 R3", "order " + " ".join(str(i + 1) for i in range(players)),
             "farmhouses " + " ".join(str(i + 1) for i in range(players)))
    assert GAME.setup_guide(s)["dealer"] == names.index(dealer)
    line = render(GAME.describe(s, GAME.parse_move("deal 2b"), None), "en")
    assert line == f"{dealer} hands A large board 2, side b up"
    assert render(GAME.describe(s, GAME.parse_move("deal 2b"), None), "de").startswith(f"{dealer} gibt A ")


def test_the_table_sees_who_laid_each_board() -> None:
    """Setup step 15 (L153-163, L214-222): each player lays one board; with 2 players the small board lies first."""
    three = GAME.view(play(started(3), "done"), None)
    assert [(b["board"], b["side"], b["seat"]) for b in three["boards"]] == [(1, "a", 0), (2, "a", 1), (3, "a", 2)]
    two = GAME.view(started(2), None)
    assert [(b["board"], b["seat"]) for b in two["boards"]] == [(0, None), (1, 0), (2, 1)]
    assert sum(1 for f in three["fields"] if f["board"] == 2) == 9
