"""What the table's button panel shows of a Keyper game (docs/panel.md, issue 14): whose light blinks.

When a keyple goes onto an empty field, the other players who may follow are asked one after the other from the
placer's left (spec 4.3). The one asked now decides (their light is bright, as for any decision); the others who
may still be asked wait, and their lights blink. NEXT passes the offer. All of it is public: the keep areas are.
"""

from __future__ import annotations

from companion.core.game import PanelSignals
from companion.games.keyper import rules
from companion.games.keyper.state import State


def signals(state: State) -> PanelSignals:
    """The followers still to be asked after the one asked now, in asking order; NEXT plays ``pass`` at an offer."""
    top = state.top
    if state.over or top is None or top.kind != "follow":
        return PanelSignals()
    later = [t for t in reversed(state.tasks[:-1]) if t.kind == "follow" and t.arg == top.arg]
    waiting = tuple(t.seat for t in later if len(rules.follow_moves(state, t)) > 1)  # more than a pass: may follow
    return PanelSignals(waiting=waiting, next_move="pass")
