"""Where the companion was checked against the German rulebook itself (``../shared/seeds/002_*``, lines ``Lnnn``):
the defects found in the audit of issue 14 and the places where the rulebook settles what the specification left
open. docs/games/keyper.md lists where the rulebook and the specification differ."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import IllegalMoveError
from companion.games.keyper import rules
from companion.games.keyper.scoring import Built, Holdings, score_player
from companion.games.keyper.state import State, Task
from tests.games.keyper.table import GAME, built, field, goods, keep, new_game, on_field, play, turn


def moves(s: State) -> set[str]:
    return {str(m) for m in GAME.legal_moves(s)}


def using(s: State, seat: int, n: int, target: str) -> State:
    """``seat`` with ``n`` units on ``target`` now."""
    return rules.settle(replace(s, tasks=(*s.tasks, Task("use", seat, n, target))))


# ------------------------------------------------------------------ building (L641-L645, L790)


def test_a_tile_built_over_with_its_own_units_is_dead_and_its_other_units_lapse() -> None:
    """L790: the Farm Labourer may build over itself and is then no longer usable; L643: a building built over
    loses its function. Two units on the upgraded Farm Labourer: building over it ends the use, building elsewhere
    leaves the second unit."""
    s = built(new_game(2), 0, "farm", {1: ("farm_labourer", True)})
    s = using(s, 0, 2, "F1")
    over = play(s, "build cow_shed F1 free")
    assert over.players[0].farm[0].tiles == ("farm_labourer", "cow_shed")
    assert not any(t.kind == "use" for t in over.tasks)  # no unit left for the Cow Shed now on top
    beside = play(s, "build cow_shed F2 free")
    assert [(t.kind, t.n, t.arg) for t in beside.tasks if t.kind == "use"] == [("use", 1, "F1")]
    assert "build farmyard F3 free" in moves(beside)


def test_an_overbuild_pays_the_build_cost_as_modified_by_the_builder() -> None:
    """L641: building over a building costs the new tile's cost unchanged; L561-L565: the Builder reduces any build
    to 1 finished good, so also an overbuild (the Farm Labourer even builds over itself for free, L790)."""
    s = built(new_game(2), 0, "village", {1: ("builder", False), 2: ("statue", False)})
    s = goods(using(s, 0, 1, "V1"), 0, brick=1, timber=0, stone=0)
    assert "build brickmaker V2 brick" in moves(s)


# ------------------------------------------------------------------ trades (L506, L856, L1139-L1147)


def test_a_trade_field_takes_any_two_even_when_the_trading_post_takes_other_types() -> None:
    """L1139-L1147: a 1:2 trade field gives 2 *any* raw materials; only the Trading Post says 2 *other* ones (L856,
    A10). With ``trading_post=other_types`` the field still trades clay for clay, the Post no longer does."""
    s = new_game(2, trading_post="other_types")
    s = goods(s.board(0, layout="1/summer/B"), 0, clay=1, log=0, rock=0, brick=0, timber=0, stone=0)
    on_field_ = using(s, 0, 1, field(s, 1, "trade_raw"))
    assert {"trade clay clay+clay", "trade clay log+rock"} <= moves(on_field_)
    post = using(built(s, 0, "village", {1: ("trading_post", False)}), 0, 1, "V1")
    offered = moves(post)
    assert "trade clay log+rock" in offered
    assert not any(m.startswith(("trade clay", "convert clay")) and "clay" in m.split()[-1] for m in offered)
    default = using(built(goods(new_game(2), 0, clay=1), 0, "village", {1: ("trading_post", False)}), 0, 1, "V1")
    assert "convert clay clay+clay" in moves(default)  # A10's default: any types


# ------------------------------------------------------------------ boats (L499, L589, L591)


def boat(stock: dict[str, int], which: int = 0) -> tuple[State, tuple[str, ...]]:
    """Seat 0's blue keyple alone on an empty river field with boat ``which`` of the season (2 units), holding
    ``stock``."""
    s = new_game(2, limited_supply="no")
    s = goods(s, 0, **{"clay": 0, "log": 0, "rock": 0, "brick": 0, "timber": 0, "stone": 0, **stock})
    name = s.boats[which]
    return play(s, f"place blue {field(s, 1, 'river')} boat {name}", "pass"), s.edition.boats[name]["spring"]


def test_a_finished_good_may_be_shipped_as_the_raw_material_its_boat_shows() -> None:
    """L499: a finished good can *always* be used as the raw material of its colour; L589: shipping returns a piece
    the boat shows for 2 points. Shipped as clay, the brick forbids working clay in the same turn (L591)."""
    s, types = boat({"brick": 1})
    assert types[0] == "clay" and "brick" not in types
    assert "ship brick" in moves(s)
    s = play(s, "ship brick")
    assert s.players[0].shipping == 2 and s.players[0].good("brick") == 0
    error = GAME.validate(s, GAME.parse_move("work clay"))
    assert isinstance(error, IllegalMoveError) and error.rule == "4.11-8"
    assert f"work {types[1]}" in moves(s)


def test_a_raw_material_is_never_shipped_as_a_finished_good() -> None:
    """L499: never the reverse: with clay and no brick, a boat showing bricks and timber ships nothing."""
    s, types = boat({"clay": 2}, which=3)
    assert types == ("brick", "timber")
    assert not any(m.startswith("ship") for m in moves(s)) and "work brick" in moves(s)


# ------------------------------------------------------------------ scoring (L934-L1010)


def test_field_colour_tiles_score_at_most_their_printed_maximum() -> None:
    """L976-L978: the Kiln scores 2 per orange field (max 4), 4 upgraded (max 8); L1002: the Mine 1 per black field
    (max 4). A board with more such fields (a transcription slip, a snapshot) scores the printed maximum."""
    tiles = (Built("kiln", "village", 1, False), Built("mine", "village", 2, True))
    row = score_player(GAME.data, Holdings("A", tiles, {}, {}, {}, 0, field_colours={"orange": 3, "black": 6}))
    points = {t["tile"]: t["points"] for t in row["tiles"]}
    assert points == {"kiln": 4, "mine": 8}
    row = score_player(GAME.data, Holdings("A", tiles, {}, {}, {}, 0, field_colours={"orange": 1, "black": 2}))
    assert {t["tile"]: t["points"] for t in row["tiles"]} == {"kiln": 2, "mine": 4}


# ------------------------------------------------------------------ what the rulebook settles (A14, A17)


def test_the_start_player_is_the_active_player_even_when_a_follower_empties_the_last_keep() -> None:
    """L445: the next start player is the one who last played a piece from the keep area *on their own turn*
    (A17): C places its last keyple, B follows with its last one; C is the last placer, B still lays down once."""
    s = new_game(3)
    s = keep(keep(s, 0, keyper=False), 2, "orange", keyper=False)
    s = keep(s, 1, "white", keyper=False)
    s = s.board(0, keeper=0).board(1, keeper=1).board(2, keeper=2)
    s = on_field(s, field(s, 1, "gem:"), ("black", True))
    s = turn(s, 2)
    target = field(s, 3, "build@orange")
    s = play(s, f"place orange {target}", "follow white")
    while s.top is not None and s.top.kind == "use":
        s = play(s, "done")
    assert s.final and s.last_placer == 2
    assert (s.top.kind, s.top.seat) == ("turn", 0)  # type: ignore[union-attr]


def test_joining_a_lying_keyple_needs_its_colour_or_white() -> None:
    """L296, L300: the keyple added beside an earlier one must match it or be white, also beside a lying one
    (A14's default); it then works alone."""
    s = new_game(3)
    target = field(s, 1, "upgrade@grey")
    s = on_field(s, target, ("grey", False))
    offered = moves(s)
    assert f"place grey {target}" in offered and f"place white {target}" in offered
    assert f"place blue {target}" not in offered and f"place grey {target} lay" not in offered


def test_a_white_keyple_beside_a_lying_one_takes_its_colour_not_the_fields() -> None:
    """L307 (spec 4.2, 4.4): a white keyple added to a field takes the colour of the keyple placed there first, not
    the field's, also when that one already lies (L300: it then works alone): white beside a lying orange keyple on
    the grey upgrade field gives 1 upgrade, beside a lying grey one 2. Laid down later, it still counts as orange."""
    s = new_game(4)
    target = field(s, 1, "upgrade@grey")
    for first, expected in (("orange", 1), ("grey", 2)):
        placed = play(turn(on_field(s, target, (first, False)), 3), f"place white {target}")
        assert [(t.kind, t.seat, t.n) for t in placed.tasks if t.kind == "use"] == [("use", 3, expected)]
    s = keep(s, 3, keyper=False).board(0, keeper=3)
    s = turn(on_field(s, target, ("orange", False), ("white", True)), 3)
    assert [(t.kind, t.n) for t in play(s, f"lay {target}").tasks if t.kind == "use"] == [("use", 1)]
