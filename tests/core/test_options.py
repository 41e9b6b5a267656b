"""Variant flags."""

from __future__ import annotations

import pytest

from companion.core.errors import MalformedInputError
from companion.core.options import Options, OptionSpec

SPECS = (
    OptionSpec("harvest", ("short", "long"), ref="R-1", help="game length"),
    OptionSpec("market", ("open", "closed", "none"), ref="R-2", help="the market rule"),
)


def test_defaults() -> None:
    options = Options(SPECS)
    assert dict(options) == {"harvest": "short", "market": "open"}
    assert options == {"harvest": "short", "market": "open"}
    assert len(options) == 2 and SPECS[1].default == "open"
    assert Options(SPECS, {}) == options and hash(Options(SPECS, None)) == hash(options)


def test_given_values_are_normalised() -> None:
    options = Options(SPECS, {"market": " Closed "})
    assert options["market"] == "closed" and options["harvest"] == "short"


def test_unknown_flag() -> None:
    with pytest.raises(MalformedInputError, match="unknown option 'weather'"):
        Options(SPECS, {"weather": "rain"})


def test_bad_value() -> None:
    with pytest.raises(MalformedInputError, match="market must be one of open, closed, none"):
        Options(SPECS, {"market": "sometimes"})


def test_parse_pairs() -> None:
    assert Options.parse_pairs(["harvest = long", "market=none"]) == {"harvest": "long", "market": "none"}
    assert Options.parse_pairs([]) == {}
    for bad in ("harvest", "=long", " =x"):
        with pytest.raises(MalformedInputError):
            Options.parse_pairs([bad])
