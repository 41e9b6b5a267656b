"""What La Granja's shared screen may offer and name: the public moves and the setup guide.

The tablet's shared table shows ``public_moves``: the decider's legal moves without those that
would tell the table a secret (the cards in their hand, their donkey choice); those are made on
the decider's private seat page. ``setup_guide`` names each physical piece to take once the
companion's setup draws are made (spec 2.1, 2.2); the cards dealt stay on the private pages.
"""

from __future__ import annotations

from typing import Any

from companion.games.la_granja import rules, words
from companion.games.la_granja.moves import LGMove
from companion.games.la_granja.state import NEUTRAL, State

PRIVATE_VERBS = frozenset({"place", "discard", "donkey"})
"""Moves that name a card in the decider's hand or their secret donkey marker: only on their seat page."""
HAND_VERBS = frozenset({"place", "discard"})
"""Moves that name cards of the hand: whether they are possible depends on the hand."""


def public_moves(state: State) -> list[LGMove]:
    """The decider's legal moves that give nothing hidden away (empty at a draw or the end)."""
    if state.over or rules.actor(state) < 0:
        return []
    return [move for move in rules.legal_moves(state) if move.verb not in PRIVATE_VERBS]


def setup_guide(state: State) -> dict[str, Any]:
    """Spec 2.1 for this table, each piece named; ``state`` is the state when the first player decides."""
    e = state.edition
    n = len(state.players)
    order = list(state.order)
    market = [{"space": sp.id, "value": sp.value,
               "holder": "neutral" if o == NEUTRAL else o}
              for sp, o in zip(e.spaces, state.market) if o >= 0]
    return {
        "players": n,
        "data": {"name": e.name, "provisional": list(e.provisional)},
        "table": [
            {"piece": "game_board", "count": 1},
            {"piece": "farm_cards_sorted", "count": len(e.cards)},
            {"piece": "yield_dice", "count": rules.dice_count(n)},
            {"piece": "craft_markers_each_building", "count": n},
            {"piece": "vp_on_completion_areas", "count": len(e.buildings)},
        ],
        "each_player": [
            {"piece": "farm_board", "count": 1},
            {"piece": "markers", "count": rules.MARKERS},
            {"piece": "donkey_set", "count": 4},
            {"piece": "siesta_disc", "count": 1},
            {"piece": "vp", "count": 1},
            {"piece": "silver", "count": 1},
            {"piece": "trade_good", "count": 1},
            {"piece": "hand_cards", "count": 4},
        ],
        "first_player": order[0] if order else 0,
        "turn_order": order,
        "solo_turn_marker": (2 if state.solo_start else 3) if state.solo else None,
        "locks": [{"lock": i + 1, "building": key, "name": words.building(key), "die": e.buildings[key].die}
                  for i, key in enumerate(state.locks)],
        "roof_display": [{"marker": r, "effect": e.roofs[r].effect, "text": words.roof(e.roofs[r].effect)}
                         for r in state.display],
        "roof_stacks": {str(rnd): sorted(r.id for r in e.roofs.values() if r.round == rnd) for rnd in range(2, 7)},
        "roofs_per_round": len(state.display),
        "market": market,
        "siesta_stack": list(state.siesta[0]) if state.siesta else [],
        "cards_each": 4,
        "draw_pile": len(state.pile),
    }
