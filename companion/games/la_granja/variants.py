"""La Granja's variant flags: each ambiguity of spec 8.2 that changes play, with the spec's default."""

from __future__ import annotations

from companion.core.messages import msg
from companion.core.options import OptionSpec

VARIANT_FLAGS: tuple[OptionSpec, ...] = (
    OptionSpec("lock_removal", ("distinct_buildings", "completions"), "A-03",
               msg("lg.variant.lock_removal")),
    OptionSpec("pig_overflow", ("sell", "forbid"), "A-05",
               msg("lg.variant.pig_overflow")),
    OptionSpec("solo_third_space", ("2", "3"), "A-16 (v)",
               msg("lg.variant.solo_third_space")),
    OptionSpec("extra_purchase", ("at_once", "one_at_a_time"), "4.3.14, 8.3",
               msg("lg.variant.extra_purchase")),
    OptionSpec("marker_limit", ("enforce", "off"), "A-19",
               msg("lg.variant.marker_limit")),
    OptionSpec("hide_vp", ("no", "yes"), "L228-229",
               msg("lg.variant.hide_vp")),
)
