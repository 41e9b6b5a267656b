"""Spec section 10's worked examples played through the rules (Ex 8, 10 and 11 score: test_scoring.py), citing rule
IDs. Fields are found by kind on the (provisional) boards of the data pack."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.bag import Bag
from companion.core.errors import IllegalMoveError
from companion.games.keyper import rules
from companion.games.keyper.data import GOODS, Edition, load_edition
from companion.games.keyper.state import ANIMAL_INDEX, State, Task
from tests.games.keyper.table import GAME, built, field, goods, keep, new_game, on_field, play, turn

ALL = ("blue", "orange", "green", "brown", "black", "grey", "white", "white")


def units(s: State) -> list[tuple[str, int, int]]:
    """The pending uses: (kind, seat, units), next first."""
    return [(t.kind, t.seat, t.n) for t in reversed(s.tasks) if t.kind in ("use", "pick", "follow")]


def test_ex1_follower_on_a_coloured_build_field() -> None:
    """Ex 1 (4.3, L272-L290): B declines, C joins with white, D is never asked; 3 build actions each."""
    s = new_game(4)
    target = field(s, 1, "build@orange")
    s = play(s, f"place orange {target}")
    assert [(t.kind, t.seat) for t in reversed(s.tasks) if t.kind == "follow"] == [("follow", 1), ("follow", 2),
                                                                                  ("follow", 3)]
    s = play(s, "pass", "follow white")
    # L633: the two build one building at a time, in turn, the active player first
    assert units(s) == [("use", 0, 1), ("use", 2, 1)] * 3 and not any(t.kind == "follow" for t in s.tasks)
    assert [k.standing for k in s.boards[0].fields[int(target.split(".")[1]) - 1]] == [True, True]


def test_ex1_variant_white_takes_the_first_keyples_colour() -> None:
    """Ex 1 variant (4.2, L307): brown on the orange field, white joins: 2 each; an orange follower may not."""
    s = play(new_game(4), f"place brown {field(new_game(4), 1, 'build@orange')}", "pass")
    error = GAME.validate(s, GAME.parse_move("follow orange"))
    assert isinstance(error, IllegalMoveError) and error.rule == "4.11-5"
    s = play(s, "follow white")
    assert units(s) == [("use", 0, 1), ("use", 2, 1)] * 2


def test_ex2_white_on_a_tile_field_picks_a_b_b_a_and_the_spring_bag_takes_the_set_aside_stack() -> None:
    """Ex 2 (4.6, 3.7, L543-L547): picks A, B, B, A; refill 4: 2 from the bag, then the 35 set-aside tiles go in."""
    s = new_game(2)
    s = replace(s, bag=Bag(sorted(s.bag)[:2]))
    target = field(s, 1, "tiles@")
    s = play(s, f"place white {target}", "follow white")
    assert [(k, seat) for k, seat, _ in units(s)] == [("pick", 0), ("pick", 1), ("pick", 1), ("pick", 0)]
    for tile in sorted(s.display)[:4]:
        s = play(s, f"pick {tile}")
    assert len(s.display) == 4 and [t.kind for t in s.tasks[-4:]] == ["draw"] * 4
    for _ in range(2):
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    assert len(s.bag) == 35 and not s.set_aside  # empty in spring: the set-aside stack went in (27 + 8)
    for _ in range(2):
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    assert (len(s.display), len(s.bag)) == (8, 33)


def test_ex2_variant_in_summer_the_discard_pile_refills_the_bag() -> None:
    s = new_game(2)
    s = replace(s, season=1, bag=Bag(), set_aside=(), discard=("alchemist",), display=s.display[:7],
                tasks=(*s.tasks, Task("draw")))
    s = rules.settle(s)
    assert list(s.bag) == ["alchemist"] and s.discard == ()


@pytest.mark.parametrize(("lay", "standing", "expected"), [(True, True, 3), (False, True, 2), (False, False, 2)])
def test_ex3_adding_to_an_existing_keyple(lay: bool, standing: bool, expected: int) -> None:
    """Ex 3 (4.4, L292-L309): white beside B's grey keyple on the grey upgrade field: no follower offer; 3 if the
    grey one is laid down, else 2; 2 beside a lying grey one (alone, with the bonus). B gets nothing."""
    s = new_game(4)
    target = field(s, 1, "upgrade@grey")
    s = turn(on_field(s, target, ("grey", standing)), 3)
    s = play(s, f"place white {target}" + (" lay" if lay else ""))
    assert units(s) == [("use", 3, expected)]


def test_ex4_lay_down_priority_and_yields() -> None:
    """Ex 4 (4.5, L326-L348): C must lay down on the claimed board's brown field first: both give 3, one gives 2;
    only once all there lie may C lay down on board 2."""
    s = new_game(3)
    brown = field(s, 3, "res:log@brown")
    gem = field(s, 2, "animal:")
    s = s.board(2, keeper=2).board(1, keeper=0)
    s = on_field(on_field(s, brown, ("brown", True), ("brown", True)), gem, ("black", True))
    s = keep(s, 2, keyper=False)
    s = turn(s, 2)
    assert {str(m) for m in GAME.legal_moves(s)} == {f"lay {brown}", f"lay {brown} both"}
    error = GAME.validate(s, GAME.parse_move(f"lay {gem}"))
    assert isinstance(error, IllegalMoveError) and error.rule == "4.11-6"
    assert units(play(s, f"lay {brown} both")) == [("use", 2, 3)]
    assert units(play(s, f"lay {brown}")) == [("use", 2, 2)]
    s = turn(on_field(s, brown, ("brown", False), ("brown", False)), 2)
    assert f"lay {gem}" in {str(m) for m in GAME.legal_moves(s)}


def test_ex5_the_trigger_the_final_round_and_the_next_start_player() -> None:
    """Ex 5 (3.4, 3.5, L375-L445): C plays the last piece; A then B lay down once each; C starts next season."""
    s = new_game(3)
    s = keep(keep(s, 0, keyper=False), 1, keyper=False)
    s = keep(s, 2, "green", keyper=False)
    s = s.board(0, keeper=0).board(1, keeper=1).board(2, keeper=2)
    s = on_field(s, field(s, 1, "gem:"), ("black", True))
    s = on_field(s, field(s, 2, "animal:sheep"), ("blue", True))
    s = turn(s, 2)
    s = play(s, f"place green {field(s, 3, 'animal:boar')}")
    assert not any(t.kind == "follow" for t in s.tasks)  # no one has a keyple left to follow with
    s = play(s, "done")
    assert s.final and s.last_placer == 2 and (s.top.kind, s.top.seat) == ("turn", 0)  # type: ignore[union-attr]
    s = play(s, f"lay {field(s, 1, 'gem:')}", "done")
    assert (s.top.kind, s.top.seat) == ("turn", 1)  # type: ignore[union-attr]
    s = play(s, f"lay {field(s, 2, 'animal:sheep')}", "done")
    assert s.top.kind == "fairs"  # type: ignore[union-attr]  # then fairs, housing, collect, discard
    while s.top.kind == "fairs":  # type: ignore[union-attr]
        s = play(s, "fairs")
    assert s.season == 1 and s.start == 2 and s.discard and not s.display


def test_ex6_team_cap_and_keep_tile() -> None:
    """Ex 6 (3.2 step 4, 4.1, L443, L246): Q has 10 keyples: 8 stand, 2 rest on the keep tile; playing the Keyper
    lays them down for 2 resources. With 2 players the cap is 9."""
    for players, rest in ((4, 2), (2, 1)):
        s = new_game(players)
        s = keep(s, 1, *ALL, "grey", "white")
        s = rules.settle(replace(s, tasks=(Task("begin_play"), Task("team_cap"))))
        assert (s.top.kind, s.top.seat, s.top.n) == ("rest", 1, rest)  # type: ignore[union-attr]
        s = play(s, "rest " + " ".join(("grey", "white")[:rest]))
        assert len(s.players[1].keep) == (8 if players == 4 else 9) and len(s.players[1].keep_tile) == rest
    s = turn(s, 1)
    s = play(s, "keyper 2")
    assert [k.standing for k in s.players[1].keep_tile] == [False]
    assert (s.top.kind, s.top.n) == ("keeptile", 1)  # type: ignore[union-attr]
    grey = load_edition().keep_tile["grey"][0]
    before = s.players[1].good(grey)
    assert play(s, f"keep {grey}").players[1].good(grey) == before + 1


def boat_game(seafarer: bool, agent: bool, merchant: bool = False) -> tuple[State, str, tuple[str, ...]]:
    s = new_game(2, limited_supply="no")
    tiles = {1: ("seafarer", seafarer), 2: ("shipping_agent", agent)}
    if merchant:
        tiles[3] = ("merchant", True)
    s = built(s, 0, "village", tiles)
    boat = s.boats[0]
    x, y = s.edition.boats[boat]["spring"]
    s = goods(s, 0, **{x: 3})
    return play(s, f"place blue {field(s, 1, 'river')} boat {boat}", "follow white"), x, (x, y)


def test_ex7_boats_with_the_upgraded_seafarer_and_shipping_agent() -> None:
    """Ex 7 (4.7, L580-L591, L828-L840): 3 boat actions each; ship 2 X, work 1 Y: +2x2 +2 (Agent U) +2 (Seafarer U)
    = +8; S may not ship X and also gain X in the same turn."""
    s, x, (_, y) = boat_game(True, True)
    assert units(s)[:2] == [("use", 0, 3), ("use", 1, 3)]
    s = play(s, f"ship {x}", f"ship {x}")
    error = GAME.validate(s, GAME.parse_move(f"work {x}"))
    assert isinstance(error, IllegalMoveError) and error.rule == "4.11-8"
    s = play(s, f"work {y}")
    assert s.players[0].shipping == 8


def test_ex7_variants_merchant_and_base_tiles() -> None:
    """Ex 7 variants: with the upgraded Merchant S gets 4 actions, T still 3 (L998); base Agent and Seafarer,
    shipping exactly 2: 4 + 1 + 1 = +6."""
    s, _, _ = boat_game(True, True, merchant=True)
    assert units(s)[:2] == [("use", 0, 4), ("use", 1, 3)]
    s, x, _ = boat_game(False, False)
    s = play(s, f"ship {x}", f"ship {x}", "done")
    assert s.players[0].shipping == 6


def fair_edition() -> Edition:
    raw = GAME.data_pack().shipped()
    raw["fairs"]["private"][6]["requires"] = {"clay": 2, "wheat": 1}  # the first summer fair: F1
    raw["fairs"]["winter"][0]["early"] = {"clay": 1, "horse": 1}  # W1's spring/summer side: F2
    return load_edition(raw)


@pytest.mark.parametrize(("brick", "both"), [(1, True), (0, False)])
def test_ex9_fair_feasibility_each_piece_shown_once(brick: int, both: bool) -> None:
    """Ex 9 (3.6, L394-L405, L499): 2 clay + 1 brick (as clay) + 1 wheat + 1 horse show both fairs; without the
    brick only one of them. F2 scores 4 on its spring/summer side."""
    from companion.games.keyper import Keyper

    game = Keyper(fair_edition())
    s = game.setup(["S", "T"], game.options())
    while game.current_player(s) == -1:
        s = game.apply(s, game.chance_outcomes(s)[0][0])
    f1 = sorted(f for f, fair in s.edition.fairs.items() if fair.season == "summer")[0]
    s = s.player(0, private=("", f1, ""), winter_fairs=("W1",))
    s = goods(s, 0, clay=2, brick=brick, wheat=1, horse=1, stone=0, timber=0)
    s = rules.settle(replace(s, season=1, tasks=(Task("fairs", 0),)))
    moves = {str(m) for m in game.legal_moves(s)}
    assert (f"fairs {f1} W1" in moves) == both and {f"fairs {f1}", "fairs W1"} <= moves
    if both:
        s = game.apply(s, game.parse_move(f"fairs {f1} W1"))
        assert game.holdings(s, 0).fair_vp == s.edition.fairs[f1].vp + 4
        assert game.holdings(s, 0).fair_seasons == 1 and s.players[0].good("clay") == 2


def test_ex10_housing_keeps_the_most_animals_and_the_player_chooses_the_loss() -> None:
    """Ex 10 (3.5 step 3, 7.5, L407): 12 of 14 animals housed; the player chooses the 2 lost: 1 of deer, goat, boar
    and 1 cow, as the example has it, or a pig (the Farmyard then holds a third cow)."""
    s = new_game(2)
    s = built(s, 0, "farm", {1: ("cow_shed", False), 2: ("farmyard", False), 3: ("paddock", False)})
    s = goods(s, 0, cow=7, pig=2, deer=3, goat=1, boar=1)
    assert rules.housing_capacity(s, 0) == 12
    assert rules.release_options(s, 0, 2) == [("boar", "cow"), ("boar", "pig"), ("cow", "deer"), ("cow", "goat"),
                                              ("deer", "pig"), ("goat", "pig")]
    assert not any(rules.release_options(s, 0, 1))  # one animal lost is not enough


@pytest.mark.parametrize(("mode", "drawn"), [("no", 0), ("yes", 1)])
def test_ex12_no_refill_after_the_last_action_of_a_season_in_printed_mode(mode: str, drawn: int) -> None:
    """Ex 12 (3.7, 6 #3, A4, L545, L21): the final lay-down turn takes 1 tile; printed rules: no refill; Yucata:
    1 drawn (and discarded with the display)."""
    s = new_game(2, refill_on_last_action=mode)
    target = field(s, 1, "tiles@")
    s = keep(keep(s, 0, keyper=False), 1, keyper=False).board(0, keeper=0).board(1, keeper=1)
    s = on_field(s, target, ("blue", True))
    s = replace(s, season=1, final=True, bag=Bag(sorted(s.bag)[:10]), tasks=(Task("season_end"),))
    s = turn(s, 0, final=True)
    s = play(s, f"lay {target}", f"pick {sorted(s.display)[0]}")
    if drawn:
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    assert len(s.bag) == 10 - drawn and s.top.kind == "fairs"  # type: ignore[union-attr]


def test_a_short_supply_is_shared_one_at_a_time_active_player_first() -> None:
    """L508, spec 6 #2: 3 cows left and both owed 2 (blue keyples on the cow field): the active player gets 2, the
    follower 1, no compensation; with an unlimited supply both get their 2."""
    s = new_game(3)
    target = field(s, 1, "animal:cow")
    cow = len(GOODS) + ANIMAL_INDEX["cow"]  # the supply holds the goods, then the animals
    s = replace(s, supply=tuple(3 if i == cow else x for i, x in enumerate(s.supply)))
    s = play(s, f"place blue {target}", "follow blue")
    assert units(s)[:2] == [("use", 0, 2), ("use", 1, 1)]
    s = play(new_game(3, limited_supply="no"), f"place blue {target}", "follow blue")
    assert units(s)[:2] == [("use", 0, 2), ("use", 1, 2)]


def test_a_finished_good_may_be_given_as_the_raw_material_of_its_colour() -> None:
    """L499: the Windmill turns 1 raw material into 2 wheat; a brick may stand in for the clay."""
    s = built(new_game(2), 0, "village", {1: ("windmill", False)})
    s = goods(s, 0, clay=0, log=0, rock=0, brick=1, timber=0, stone=0)
    s = rules.settle(replace(s, tasks=(*s.tasks, Task("use", 0, 1, "V1"))))
    assert "convert brick wheat+wheat" in {str(m) for m in GAME.legal_moves(s)}
