"""Key Market's variant flags: each ambiguity of spec 7.2 that changes play, the spec's default first.

Not flags: #7 and #8 (the '+' marks and rank VP are tile data, ``guild_tiles``), #21 and #24 (no effect on play),
#23 (the keyworker is ordinary without guild 4: the text, L113), #25 (eight seasons: the text, L230).
"""

from __future__ import annotations

from companion.core.messages import msg
from companion.core.options import OptionSpec

VARIANT_FLAGS: tuple[OptionSpec, ...] = (
    OptionSpec("first_game", ("no", "yes"), "2.2 step 16 (L125)", msg("km.variant.first_game")),
    OptionSpec("g1_apprentice_fields", ("round", "any_shape"), "7.2 #1 (L656, L670)",
               msg("km.variant.g1_apprentice_fields")),
    OptionSpec("g9_base_one", ("seasonal", "raised"), "7.2 #2 (L758, L760)", msg("km.variant.g9_base_one")),
    OptionSpec("moves_per_farming", ("several", "one"), "7.2 #3 (L263, L726)", msg("km.variant.moves_per_farming")),
    OptionSpec("covered_sell_price", ("1", "0"), "7.2 #4 (L418, L422, L479)", msg("km.variant.covered_sell_price")),
    OptionSpec("g12_apprentice", ("plus_four", "nine_minus"), "7.2 #5 (L796)", msg("km.variant.g12_apprentice")),
    OptionSpec("take_gold_at_five", ("allowed", "forbidden"), "7.2 #6 (L493)", msg("km.variant.take_gold_at_five")),
    OptionSpec("leave_guild", ("to_use", "any_time"), "7.2 #9 (L652)", msg("km.variant.leave_guild")),
    OptionSpec("once_only", ("per_placement", "per_game"), "7.2 #10 (L690, L816)", msg("km.variant.once_only")),
    OptionSpec("g12_master_small_board", ("free", "counts"), "7.2 #11 (L792)",
               msg("km.variant.g12_master_small_board")),
    OptionSpec("region", ("sort", "sort_and_shape"), "7.2 #12 (L133, L279)", msg("km.variant.region")),
    OptionSpec("winter_yields", ("all", "marked"), "6.1, 9 ex. 4 (L658, L746-748, L806, L814)",
               msg("km.variant.winter_yields")),
    OptionSpec("weather_shape", ("same_shape", "all_fields"), "7.2 #13 (L303, L311)", msg("km.variant.weather_shape")),
    OptionSpec("removed_goods", ("supply", "box"), "7.2 #14 (L526-534)", msg("km.variant.removed_goods")),
    OptionSpec("priority_two_players", ("turn_order", "favour_none"), "7.2 #15 (L766-768)",
               msg("km.variant.priority_two_players")),
    OptionSpec("mixed_set_bonuses", ("g10a_g11m", "none"), "7.2 #16 (L826-828)", msg("km.variant.mixed_set_bonuses")),
    OptionSpec("flex_total", ("exact", "at_least"), "7.2 #17 (L836-840)", msg("km.variant.flex_total")),
    OptionSpec("flex_with_g7", ("reduced", "not_reduced"), "7.2 #17 (L736)", msg("km.variant.flex_with_g7")),
    OptionSpec("g7_apprentice_lux", ("resource_only", "lux_allowed"), "7.2 #18 (L738)",
               msg("km.variant.g7_apprentice_lux")),
    OptionSpec("exchange_shortage", ("gold", "nothing"), "7.2 #19 (L321)", msg("km.variant.exchange_shortage")),
    OptionSpec("buy_two", ("needs_two", "takes_one"), "7.2 #20 (L483)", msg("km.variant.buy_two")),
    OptionSpec("board_dealer_two_players", ("last_player", "start_player"), "7.2 #22 (L224)",
               msg("km.variant.board_dealer_two_players")),
)
"""Every flag: name, choices (the spec's default first), where the spec discusses it, help text."""
