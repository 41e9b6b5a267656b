"""Key Market's printed data pack (spec 7.1): the shipped default fits its schema, says what is provisional, and a
pack that does not fit is refused with the reason."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import MalformedInputError
from companion.core.messages import render
from companion.games.key_market.data import DATA, Edition


def shipped() -> dict[str, Any]:
    return copy.deepcopy(DATA.shipped())


def test_the_shipped_pack_fits_its_schema_and_names_its_provisional_sections(edition: Edition) -> None:
    assert DATA.provisional(DATA.shipped()) == ["territory_boards", "small_board", "weather", "farmhouses", "guild_tiles",
                                                "market"]
    assert edition.provisional == tuple(DATA.provisional(DATA.shipped()))
    for section in DATA.shipped().values():
        if isinstance(section, dict):
            assert section["source"], "every section says where its values come from"
    warning = render(edition.warnings()[0], "de")
    assert "Gebietstableaus" in warning and "Gildenplättchen" in warning


def test_the_printed_values_the_text_does_state(edition: Edition) -> None:
    assert len(edition.boards) == 8 and all(len(cells) == 9 for cells in edition.boards.values())
    assert sum(m.year2 for m in edition.markers.values()) == 3
    assert sorted(edition.farmhouses.values()) == ["fish", "fruit", "sheep", "veg", "wheat"]
    assert edition.value(14, "M", "retire_gold") == 9 and edition.value(6, "J", "free_steps") == 6
    assert edition.abilities[(9, "A")].winter and not edition.abilities[(1, "A")].winter
    assert edition.guild_tiles[10].active_levels("M") == ("M", "J")  # L766: the master has the early buy
    assert edition.guild_tiles[9].active_levels("M") == ("M",)  # spec 9 ex. 4: guild 9 M alone


def test_install_and_use_a_corrected_pack(tmp_path: Path) -> None:
    raw = shipped()
    raw["farmhouses"]["provisional"] = False
    DATA.install(raw, tmp_path)
    assert "farmhouses" not in DATA.in_use(tmp_path).value.provisional


def broken(change: str) -> dict[str, Any]:
    raw = shipped()
    if change == "village":
        raw["territory_boards"]["fields"][0]["good"] = "lux"
    elif change == "board":
        raw["territory_boards"]["fields"] = raw["territory_boards"]["fields"][:-1]
    elif change == "markers":
        raw["weather"]["markers"][0]["year2"] = True
    elif change == "guild":
        raw["guild_tiles"]["tiles"].pop()
    elif change == "columns":
        raw["guild_tiles"]["tiles"][1]["columns"] = ["fruit"]
    elif change == "ability":
        raw["guild_abilities"]["abilities"].pop()
    elif change == "removal":
        raw["market"]["removal"] = [0, 1]
    elif change == "choice":
        raw["territory_boards"]["fields"][0]["shape"] = "hexagon"
    return raw


@pytest.mark.parametrize(("change", "words"), [
    ("village", "village"), ("board", "9 fields"), ("markers", "2 on the back"), ("guild", "1-16"),
    ("columns", "columns"), ("ability", "3 levels"), ("removal", "removals"), ("choice", "hexagon")])
def test_a_pack_that_does_not_fit_is_refused_with_the_reason(change: str, words: str) -> None:
    with pytest.raises(MalformedInputError, match=words):
        DATA.load(broken(change))
