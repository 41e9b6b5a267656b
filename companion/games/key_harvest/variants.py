"""Key Harvest's variant flags: every rule choice of spec section 10.3, default first.

The engine's ``option_specs`` and the snapshot scorer share this one tuple, so a flag
means the same on the table and in ``companion score``.
"""

from __future__ import annotations

from companion.core.options import OptionSpec

VARIANT_FLAGS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "turn_direction",
        ("clockwise", "counterclockwise"),
        ref="§3, §10.2 #1",
        help="seat order for turns, event resolution and the Gift (DE clockwise, IT counter-clockwise)",
    ),
    OptionSpec(
        "min_scoring_group_size",
        ("1", "2"),
        ref="§8, §10.2 #4",
        help="smallest group that scores as largest or second-largest (DE 1, IT 2)",
    ),
    OptionSpec(
        "single_tile_group_harvestable",
        ("true", "false"),
        ref="R-A6, §10.2 #4",
        help="whether action A may harvest a single isolated tile",
    ),
    OptionSpec(
        "final_extra_turns_for_trigger_player",
        ("2", "1"),
        ref="R-END3, §10.2 #5",
        help="extra turns after the 10th event for the player who placed it (DE 2, IT 1)",
    ),
    OptionSpec(
        "seventh_check_timing",
        ("after_resolution", "before_resolution"),
        ref="R-EV7-4, §10.2 #10",
        help="whether the 7th-event tile count is checked after or before that event resolves",
    ),
    OptionSpec(
        "tiebreak_tiles",
        ("fields_only", "fields_and_workers"),
        ref="§8, §10.2 #6",
        help="what tie-break 1 counts on the board: field tiles, or field and worker tiles",
    ),
    OptionSpec(
        "worker_adjacency",
        ("at_least", "exactly"),
        ref="R-B3, §10.2 #8",
        help="a worker needs at least (DE) or exactly (IT reading) its value in neighbouring field tiles",
    ),
    OptionSpec(
        "bonus_replacement_can_replace_lower",
        ("true", "false"),
        ref="R-X2, §10.2 #19",
        help="whether a displaced worker's bonus re-placement may replace a lower-valued worker",
    ),
    OptionSpec(
        "lawyer_mode",
        ("reuse_in_place", "lift_and_replace"),
        ref="§5.2 J, §10.2 #16",
        help="the Lawyer reuses a worker's ability where it stands, or lifts and places it again",
    ),
    OptionSpec(
        "gift_forwarding",
        ("all_but_final_receiver", "not_last_in_order"),
        ref="§6.4, §10.2 #15",
        help="who may not forward a received Gift tile: the final receiver (drawer) or the last in order",
    ),
    OptionSpec(
        "events_only_bag_end",
        ("de_normal_end", "it_immediate"),
        ref="§6.6, §10.2 #13",
        help="with only events left in the bag, the 10th event starts the normal end (DE) or ends at once (IT)",
    ),
    OptionSpec(
        "ability_purchase_payee",
        ("owner", "supply"),
        ref="§5.1 E, §5.2 G, §10.2 #14",
        help="who receives the Skilled Labourer's and Merchant's payment: the warehouse owner or the supply",
    ),
    OptionSpec(
        "ignored_event_disposal",
        ("out_of_play", "back_to_bag"),
        ref="R-END4, §10.2 #21",
        help="where an event drawn after the 10th goes: out of play or back into the bag",
    ),
    OptionSpec(
        "seventh_rule_guard",
        ("skip_when_no_fields_in_bag", "off"),
        ref="R-EV7-5",
        help="engine guard: skip the 7th-event return while the bag holds no field tiles",
    ),
)
"""All 14 flags of spec section 10.3, names and values exactly as written there."""
