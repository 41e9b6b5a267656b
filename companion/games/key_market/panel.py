"""What the table's button panel shows of a Key Market game (docs/panel.md, issue 15): the season's weather.

In Spring, Summer and Autumn the two face-up weather markers name the goods the season affects (spec 3.4, L301-L311):
the round marker's good is *favoured* (its round fields give 3 instead of 1), the square marker's good is *spoiled*
(its square fields give 0 instead of 2). The panel's two indicator lights show them in the good's colour; Winter and
the setup show none. NEXT ends a Farming turn (``done``) or passes on Market Day (``pass``). All of it is public.
"""

from __future__ import annotations

from companion.core.game import Indicator, PanelSignals
from companion.core.messages import msg
from companion.games.key_market import rules, words
from companion.games.key_market.state import State

GOOD_COLOURS: dict[str, str] = {"fruit": "#ff1e1e", "veg": "#ff7800", "wheat": "#ffd200", "sheep": "#f0f0f0",
                                "fish": "#0050ff", "lux": "#b400ff"}
"""The panel's colour for each good: a display choice of the companion (like the seats' colours), not printed
data; an RGB LED shows it."""
NEXT_MOVES = {"farming": "done", "early": "done", "market": "pass"}
"""The move NEXT plays in each stage (the core refuses it with its reason when the rules do)."""
SEASON_STAGES = frozenset({"farming", "commit", "committed", "early", "market", "upkeep", "reveal"})
"""The stages of a season (after the setup): the weather of the season applies."""


def signals(state: State) -> PanelSignals:
    """The favoured and the spoiled good of the season now (none in Winter or during the setup)."""
    return PanelSignals(indicators=weather_lights(state), next_move=NEXT_MOVES.get(state.stage))


def weather_lights(state: State) -> tuple[Indicator, ...]:
    if state.stage not in SEASON_STAGES or state.season not in rules.SEASON_INDEX:
        return ()
    index = rules.SEASON_INDEX[state.season] + (3 if state.year == 2 else 0)
    if index >= len(state.weather):
        return ()  # a year-2 pair not turned up yet
    weather = rules.weather_now(state)
    lights = []
    if weather.round is not None:
        lights.append(Indicator("favoured", msg("km.panel.favoured", good=words.good(weather.round)),
                                GOOD_COLOURS[weather.round]))
    if weather.square is not None:
        lights.append(Indicator("spoiled", msg("km.panel.spoiled", good=words.good(weather.square)),
                                GOOD_COLOURS[weather.square]))
    return tuple(lights)
