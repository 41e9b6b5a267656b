"""La Granja's variant flags: each ambiguity of spec 8.2 that changes play, with the spec's default."""

from __future__ import annotations

from companion.core.options import OptionSpec

VARIANT_FLAGS: tuple[OptionSpec, ...] = (
    OptionSpec("lock_removal", ("distinct_buildings", "completions"), "A-03",
               "lock marker k goes when the k-th distinct building is completed, or at the k-th completion"),
    OptionSpec("pig_overflow", ("sell", "forbid"), "A-05",
               "a pig from a trade good or income with a full sty is sold at once, or may not be chosen"),
    OptionSpec("solo_third_space", ("2", "3"), "A-16 (v)",
               "the solo player starts next round from this siesta space on (0 is the bottom space)"),
    OptionSpec("extra_purchase", ("at_once", "one_at_a_time"), "4.3.14, 8.3",
               "extra deliveries are bought all at once (German rulebook) or one at a time (English rulebook)"),
    OptionSpec("marker_limit", ("enforce", "off"), "A-19",
               "with all 25 markers in use, a player first takes one off the farm or board before reusing it"),
    OptionSpec("hide_vp", ("no", "yes"), "L228-229",
               "keep each player's VP and ledger on their own view only until the game is over"),
)
