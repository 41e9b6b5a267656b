"""Keyper's variant flags: every ambiguity of spec 8.2 (A1-A23) and every difference between the printed rules and
Yucata (spec 6) as a named flag, the spec's default first. A1 (the keep tile's table) is data, not a flag."""

from __future__ import annotations

from companion.core.messages import msg
from companion.core.options import OptionSpec

VARIANT_FLAGS: tuple[OptionSpec, ...] = (
    # spec 6: printed rules versus Yucata
    OptionSpec("payment", ("choose", "cheapest"), "6 #1", msg("kp.variant.payment")),
    OptionSpec("limited_supply", ("yes", "no"), "6 #2, L508", msg("kp.variant.limited_supply")),
    OptionSpec("refill_on_last_action", ("no", "yes"), "6 #3, L545", msg("kp.variant.refill_on_last_action")),
    OptionSpec("tiebreak", ("printed", "yucata", "yucata_gems_first"), "5.3, 6 #4, A3", msg("kp.variant.tiebreak")),
    OptionSpec("open_fairs", ("no", "yes"), "6 #5, A21", msg("kp.variant.open_fairs")),
    # spec 8.2: ambiguities
    OptionSpec("winter_fair_seasons", ("any", "summer_on"), "A2", msg("kp.variant.winter_fair_seasons")),
    OptionSpec("last_action", ("last_turn", "after_trigger"), "A4", msg("kp.variant.last_action")),
    OptionSpec("line_counting", ("lines", "adjacent"), "A5", msg("kp.variant.line_counting")),
    OptionSpec("statue_cap", ("six", "twelve"), "A6", msg("kp.variant.statue_cap")),
    OptionSpec("agent_bonus", ("two_or_more", "exactly_two", "per_pair"), "A7", msg("kp.variant.agent_bonus")),
    OptionSpec("seafarer", ("with_action", "any_use"), "A8", msg("kp.variant.seafarer")),
    OptionSpec("gain_ship_scope", ("turn", "use"), "A9", msg("kp.variant.gain_ship_scope")),
    OptionSpec("trading_post", ("any_types", "other_types"), "A10", msg("kp.variant.trading_post")),
    OptionSpec("windmill_upgraded", ("converts", "scores_only"), "A11", msg("kp.variant.windmill_upgraded")),
    OptionSpec("builder_wheat", ("upgrades_only", "builds_too"), "A12", msg("kp.variant.builder_wheat")),
    OptionSpec("plot_overbuild", ("yes", "no"), "A13", msg("kp.variant.plot_overbuild")),
    OptionSpec("join_lying", ("match", "any"), "A14", msg("kp.variant.join_lying")),
    OptionSpec("lay_two", ("one_or_both", "both"), "A15", msg("kp.variant.lay_two")),
    OptionSpec("lay_targets", ("one", "several"), "A16", msg("kp.variant.lay_targets")),
    OptionSpec("last_placer", ("active", "follower"), "A17", msg("kp.variant.last_placer")),
    OptionSpec("overbuild", ("once", "twice"), "A18", msg("kp.variant.overbuild")),
    OptionSpec("follower_refill", ("after_all", "after_each"), "A19", msg("kp.variant.follower_refill")),
    OptionSpec("seasonal_fair", ("optional", "required"), "A20", msg("kp.variant.seasonal_fair")),
    OptionSpec("no_target", ("skip", "pass_turn"), "A22", msg("kp.variant.no_target")),
    OptionSpec("empty_bag", ("as_far_as_possible", "stop"), "A23", msg("kp.variant.empty_bag")),
    # the rulebook's order of two players building at once
    OptionSpec("build_order", ("alternate", "active_first"), "4.8, L633", msg("kp.variant.build_order")),
)
"""Keyper's flags. Some alternatives are not played yet (they are refused at setup with the reason):
``lay_targets=several`` and ``no_target=pass_turn``, which the rules' text gives no procedure for."""

UNPLAYED: dict[str, tuple[str, ...]] = {"lay_targets": ("several",), "no_target": ("pass_turn",)}
