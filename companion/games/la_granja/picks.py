"""La Granja's decisions as picks (issue 27): the card or action first, then where, then how to pay.

Each move's path (``pick_path``) is a few steps, each the question it answers and the component picked: a card
by its number, a die by its face (``die3``), a roof marker (``R8``), a market space (``M6``), a building row
(``handelshaus/2``), a good (``olive``; ``olive:field`` from a field). The ids never show: a player reads the
printed names of ``words``. Sets are picked in any order (``unordered``): the crops of ``take``, the goods paying an
extension or upgraded for free, the cards discarded, the markers taken back, and the deliveries of one turn, each
delivery one pick (a good to a symbol of a building row or a cart, the picture's symbol slot).
"""

from __future__ import annotations

from companion.core.messages import Text, msg
from companion.core.picks import Step, step
from companion.games.la_granja import words
from companion.games.la_granja.moves import LGMove
from companion.games.la_granja.rules import pairs_of
from companion.games.la_granja.state import State

WHAT, CARD, ROOF, HELPER = msg("lg.pick.what"), msg("lg.pick.card"), msg("lg.pick.roof"), msg("lg.pick.helper")
GOOD_ASKS = {"buy": "lg.pick.buy", "sell": "lg.pick.sell", "upgrade": "lg.pick.upgrade"}
VERBS = ("buy", "sell", "upgrade", "trade")
"""Actions picked by their verb first, then the good or the use (a word of the catalog ``lg.verb.*``)."""
ENDS = ("done", "skip", "pass", "draw")
"""Actions picked whole, in the words of the move."""
COSTLY = frozenset({"roof", "buy", "sell", "upgrade", "trade", "discard", "release"})
"""Moves that spend something (silver, goods, a trade good, cards): shown in words before they are sent."""


def verb(name: str) -> Step:
    """An action picked by name (``done``, ``buy``...)."""
    return step(WHAT, name, msg(f"lg.verb.{name}"))


def card_words(state: State, card: int) -> Text:
    """A card of the hand by its number and what its sides show: "card 7: olive field · 3 VP cart · Helper 7"."""
    e = state.edition
    return msg("lg.pick.card_words", card=card, crop=words.good(e.cards[card].field), vp=e.cards[card].cart_vp,
               helper=words.helper_name(e, card))


def delivery_ids(args: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each delivery of a batch as (target, good), the row chosen written on every delivery to that building: a
    batch's deliveries are then the same whatever order they are picked in."""
    pairs = pairs_of(args)
    rows = {t.partition("/")[0]: t for t, _ in pairs if "/" in t}
    return [(rows.get(t.partition("/")[0], t), g) for t, g in pairs]


def pick_path(state: State, move: LGMove) -> list[Step]:
    """How ``move`` is picked in ``state`` (see the module's docstring)."""
    e, verb_, args = state.edition, move.verb, move.args
    top = state.top
    if verb_ == "place":
        card, side, rest = int(args[0]), args[1], args[2:]
        path = [step(CARD, args[0], card_words(state, card)),
                step(msg("lg.pick.side", card=card), side, msg(f"lg.side.{side}", n=1))]
        if side == "ext":
            path += [step(msg("lg.pick.pay", n=len(rest)), t, words.token(t), unordered=True) for t in rest]
        elif rest:
            old = int(rest[1])
            name = words.helper_name(e, old) if side == "helper" else msg("lg.target.cart_name", card=old)
            path.append(step(msg("lg.pick.replace"), rest[1], name))
        return path
    if verb_ in ("buy", "sell", "upgrade") and args[0] != "free":
        return [verb(verb_), step(msg(GOOD_ASKS[verb_]), args[0], words.tokens(args[:1], e)[0])]
    if verb_ == "upgrade":
        n = top.n if top is not None else len(args) - 1
        return [step(msg("lg.pick.upgrade_free", n=n), t, words.token(t), unordered=True) for t in args[1:]]
    if verb_ == "trade":
        return [verb("trade"), step(msg("lg.pick.trade"), args[0], msg(f"lg.trade.{args[0]}"))]
    if verb_ in ENDS:
        return [step(WHAT, verb_, words.move_text(state, move))]
    if verb_ == "take":
        return [step(msg("lg.pick.take", n=len(args)), g, words.good(g), unordered=True) for g in args]
    if verb_ == "deliver":
        n = top.n if top is not None else len(args)
        return [step(msg("lg.pick.deliver", n=n), f"{t}={g}", msg("lg.delivery", good=words.token(g),
                                                                     target=words.target(t)), unordered=True)
                for t, g in delivery_ids(args)]
    if verb_ == "discard":
        return [step(msg("lg.pick.discard", n=len(args)), c, card_words(state, int(c)), unordered=True)
                for c in args]
    if verb_ == "release":
        return [step(msg("lg.pick.release", n=len(args)), t, words.tokens([t], e)[0], unordered=True) for t in args]
    if verb_ == "roof":
        return [step(msg("lg.pick.roof_buy", cost=state.round), args[0], words.roof(e.roofs[args[0]].effect))]
    if verb_ == "use":
        path = [step(ROOF, args[0], words.roof(e.roofs[args[0]].effect))]
        if len(args) > 1:
            path.append(step(msg("lg.pick.refresh"), args[1], words.roof(e.roofs[args[1]].effect)))
        return path
    if verb_ == "helper":
        return [step(HELPER, args[0], words.helper_name(e, int(args[0])))]
    if verb_ == "die":
        return [step(msg("lg.pick.die"), f"die{args[0]}", msg("lg.pick.die_words", value=args[0],
                                                                gives=msg(f"lg.face.{args[0]}")))]
    if verb_ == "option":
        return [step(msg("lg.pick.option"), f"option.{args[0]}", msg(f"lg.option.{args[0]}"))]
    if verb_ == "donkey":
        d = int(args[1])
        return [step(msg("lg.pick.donkey"), f"donkey{d}", msg("lg.pick.donkey_words", n=d,
                                                               steps=msg("lg.count.steps", n=e.hats[d])))]
    if verb_ == "extra":
        return [step(msg("lg.pick.extra"), f"extra{args[0]}", msg("lg.pick.extra_words", n=int(args[0])))]
    if verb_ == "stall":
        return [step(msg("lg.pick.stall"), args[0], words.space(e, args[0]))]
    return [step(WHAT, str(move), words.move_text(state, move))]


def confirms(state: State, move: LGMove) -> bool:
    """A move that spends something is shown in words before it is sent: a roof marker bought, a good bought,
    sold or upgraded for silver, a trade good, an extension paid, a card replaced or discarded, extra deliveries
    bought, markers taken back."""
    if move.verb == "upgrade":
        return move.args[0] != "free"
    if move.verb == "place":
        return move.args[1] == "ext" or len(move.args) > 2
    if move.verb == "extra":
        return move.args[0] != "0"
    return move.verb in COSTLY
