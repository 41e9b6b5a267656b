"""Keyper's data pack (spec 7, 8.1): the shipped tile lists and placeholders, each unconfirmed section marked
provisional with its source, and a pack that does not fit refused with the section named."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.games.keyper import DATA, Keyper
from companion.games.keyper.data import SEASONS, load_edition
from companion.games.keyper.tiles import RULES


def test_the_shipped_pack_holds_the_tile_lists_of_spec_7() -> None:
    e = load_edition()
    assert [len(e.tile_ids(s)) for s in ("home", "spring", "later")] == [12, 21, 27]
    assert set(e.tiles) == set(RULES)
    assert sum(1 for f in e.fairs.values() if f.season == "winter") == 8 and len(e.boats) == 6
    assert {h.tile for h in e.housing.values()} >= {"cow_shed", "farmyard", "paddock", "hop_field", "copse"}
    for board in range(1, 5):
        assert len(e.options(board, "spring")) == 1
        assert all(len(e.options(board, season)) == 4 for season in SEASONS[1:])  # L520: 4 per season


def test_winter_sides_respect_the_field_colour_tiles_maxima() -> None:
    """7.4 [inferred]: at most 3 green, 2 orange, 3 brown, 4 black and 3 grey fields on a winter side."""
    most = {"green": 3, "orange": 2, "brown": 3, "black": 4, "grey": 3}
    for layout in load_edition().layouts.values():
        if layout.season == "winter":
            assert all(layout.colour_count(c) <= n for c, n in most.items()), layout.key


def test_every_placeholder_section_says_provisional_and_names_its_source() -> None:
    raw = DATA.shipped()
    assert DATA.provisional(raw) == ["home_tiles", "spring_tiles", "later_tiles", "fairs", "boats", "boards",
                                     "player_board", "keep_tile"]
    assert all(raw[s]["source"].startswith("spec") for s in DATA.provisional(raw))
    assert raw["housing"]["provisional"] is False  # spec 7.5, from the text
    assert Keyper(load_edition()).data_warnings()  # every output says so


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["spring_tiles"]["list"].pop(), "lists 20 tiles, not 21"),
    (lambda d: d["boats"]["list"][0].update(spring=["clay", "clay"]), "boat B1"),
    (lambda d: d["boards"]["layouts"][0]["fields"].pop(), "board side 1/spring/A"),
    (lambda d: d["player_board"].update(village_rows=4), "8 farm plots and 12 village plots"),
    (lambda d: d["home_tiles"]["list"][0].update(area="castle"), "unknown area 'castle'"),
    (lambda d: d["keep_tile"]["yields"].pop("white"), "keep tile"),
])
def test_a_pack_that_does_not_fit_is_refused_with_its_reason(change: Callable[[dict[str, Any]], object],
                                                             words: str) -> None:
    raw = copy.deepcopy(DATA.shipped())
    change(raw)
    with pytest.raises(MalformedInputError, match=words):
        load_edition(raw)
