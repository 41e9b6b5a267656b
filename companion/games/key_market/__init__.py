"""Key Market (David Brain, R&D Games 2019) on the companion's core: 2 to 4 players (spec ../shared/rules/key-market.md).

This session lands the printed data and the pure computations (market, production, Season End, scoring, the table
snapshot); the game engine and its registration in ``companion.games.PACKAGES`` follow.
"""

