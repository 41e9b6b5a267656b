"""Key Harvest's variant flags: every rule choice of spec section 10.3, default first.

The engine's ``option_specs`` and the snapshot scorer share this one tuple, so a flag
means the same on the table and in ``companion score``.
"""

from __future__ import annotations

from companion.core.messages import msg
from companion.core.options import OptionSpec

VARIANT_FLAGS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "turn_direction",
        ("clockwise", "counterclockwise"),
        ref="§3, §10.2 #1",
        help=msg("kh.option.turn_direction"),
    ),
    OptionSpec(
        "min_scoring_group_size",
        ("1", "2"),
        ref="§8, §10.2 #4",
        help=msg("kh.option.min_scoring_group_size"),
    ),
    OptionSpec(
        "single_tile_group_harvestable",
        ("true", "false"),
        ref="R-A6, §10.2 #4",
        help=msg("kh.option.single_tile_group_harvestable"),
    ),
    OptionSpec(
        "final_extra_turns_for_trigger_player",
        ("2", "1"),
        ref="R-END3, §10.2 #5",
        help=msg("kh.option.final_extra_turns_for_trigger_player"),
    ),
    OptionSpec(
        "seventh_check_timing",
        ("after_resolution", "before_resolution"),
        ref="R-EV7-4, §10.2 #10",
        help=msg("kh.option.seventh_check_timing"),
    ),
    OptionSpec(
        "tiebreak_tiles",
        ("fields_only", "fields_and_workers"),
        ref="§8, §10.2 #6",
        help=msg("kh.option.tiebreak_tiles"),
    ),
    OptionSpec(
        "worker_adjacency",
        ("at_least", "exactly"),
        ref="R-B3, §10.2 #8",
        help=msg("kh.option.worker_adjacency"),
    ),
    OptionSpec(
        "bonus_replacement_can_replace_lower",
        ("true", "false"),
        ref="R-X2, §10.2 #19",
        help=msg("kh.option.bonus_replacement_can_replace_lower"),
    ),
    OptionSpec(
        "lawyer_mode",
        ("reuse_in_place", "lift_and_replace"),
        ref="§5.2 J, §10.2 #16",
        help=msg("kh.option.lawyer_mode"),
    ),
    OptionSpec(
        "gift_forwarding",
        ("all_but_final_receiver", "not_last_in_order"),
        ref="§6.4, §10.2 #15",
        help=msg("kh.option.gift_forwarding"),
    ),
    OptionSpec(
        "events_only_bag_end",
        ("de_normal_end", "it_immediate"),
        ref="§6.6, §10.2 #13",
        help=msg("kh.option.events_only_bag_end"),
    ),
    OptionSpec(
        "ability_purchase_payee",
        ("owner", "supply"),
        ref="§5.1 E, §5.2 G, §10.2 #14",
        help=msg("kh.option.ability_purchase_payee"),
    ),
    OptionSpec(
        "ignored_event_disposal",
        ("out_of_play", "back_to_bag"),
        ref="R-END4, §10.2 #21",
        help=msg("kh.option.ignored_event_disposal"),
    ),
    OptionSpec(
        "seventh_rule_guard",
        ("skip_when_no_fields_in_bag", "off"),
        ref="R-EV7-5",
        help=msg("kh.option.seventh_rule_guard"),
    ),
)
"""All 14 flags of spec section 10.3, names and values exactly as written there."""
