"""La Granja in words: the names of goods, buildings, roof markers and helpers, and every move, as messages.

One place for each: the refusals (``rules``), the log (``describe``), the prompts (``text``), the views and
``move_text`` all name a good with ``good``, a delivery target with ``target``... The catalogs are
``locale/en.po`` and ``locale/de.po``; ``message_ids`` lists the identifiers built from keys (for the catalog
test).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.messages import Message, Text, msg
from companion.games.la_granja.data import BUILDINGS, PHASES, ROOF_EFFECTS, SECTIONS, SYMBOLS, UPGRADE_TO, Edition
from companion.games.la_granja.moves import LGMove
from companion.games.la_granja.state import State

COUNTED = ("play", "deliver", "upgrade", "discard")
"""The tasks whose prompt says how many are left ("2 deliveries left")."""
WAITING = ("play", "discard", "roof", "pick", "face", "take", "upgrade", "deliver", "card", "donkey", "extra",
           "stall", "release")
"""The tasks a player decides (``Task.kind``): each has a prompt and a ``waiting`` phrase."""
ENDS = {"done": ("play", "upgrade", "deliver"), "skip": ("face", "take", "card"), "pass": ("roof",)}
"""What ``done``, ``skip`` and ``pass`` end, per task."""


def good(kind: str, n: int = 1) -> Text:
    """A good, trade good, silver or VP by name (``n`` picks the plural: "olive", "olives"); unknown: as given."""
    return msg(f"lg.good.{kind}", n=n) if kind in SYMBOLS else kind


def goods(kinds: Sequence[str]) -> list[Text]:
    return [good(kind) for kind in kinds]


def token(text: str) -> Text:
    """A good as a move names it: ``olive``, ``olive:field`` (from a field), ``M3`` (a market stall)."""
    kind, _, where = text.partition(":")
    if where == "field":
        return msg("lg.token.field", good=good(kind))
    if text[:1] == "M" and text[1:].isdigit():
        return msg("lg.token.stall", space=text)
    return good(text)


def tokens(texts: Sequence[str], edition: Edition | None = None) -> list[Text]:
    """Goods as a move names them; with ``edition`` a market stall is named by its space's printed value."""
    return [space(edition, t) if edition is not None and t[:1] == "M" and t[1:].isdigit() else token(t)
            for t in texts]


def space(edition: Edition, space_id: str) -> Text:
    """A market space by its printed value and its neighbours' values (two spaces may show the same value)."""
    sp = edition.spaces[edition.space_index(space_id)]
    return msg("lg.space", value=sp.value, next=", ".join(str(v) for v in sorted(edition.spaces[i].value
                                                                                 for i in sp.neighbours)))


def building(key: str) -> Text:
    return msg(f"lg.building.{key}") if key in BUILDINGS else key


def craft(key: str) -> Text:
    """What a craft marker does once turned to its back side (from the round after it is taken)."""
    return msg(f"lg.craft.{key}") if key in BUILDINGS else key


def target(text: str) -> Text:
    """A delivery target: ``cart12``, ``handelshaus`` (the row held), ``handelshaus/2`` (choosing row 2)."""
    if text.startswith("cart") and text[4:].isdigit():
        return msg("lg.target.cart", card=text[4:])
    key, slash, row = text.partition("/")
    if slash and row.isdigit():
        return msg("lg.target.row", building=building(key), row=int(row))
    return msg("lg.target.building", building=building(key))


def roof(effect: str) -> Text:
    """What a roof marker does."""
    return msg(f"lg.roof.{effect}") if effect in ROOF_EFFECTS else effect


def helper_name(edition: Edition, card: int) -> Text:
    """A helper's name: the box's printed name, or while the cards are placeholders the companion's own."""
    if "cards" in edition.provisional or not edition.cards[card].helper_name:
        return msg(f"lg.card.{card}.helper")
    return edition.cards[card].helper_name


def helper_text(edition: Edition, card: int) -> Text:
    """What a helper does, as the companion applies it; a helper it does not apply is handled at the table."""
    c = edition.cards[card]
    does: list[Text] = []
    if c.helper_hand_limit:
        does.append(msg("lg.helper.hand_limit", n=c.helper_hand_limit))
    if c.sell_field_crops:
        does.append(msg("lg.helper.sell_field_crops"))
    if c.roof_slots:
        does.append(msg("lg.helper.roof_slots", n=c.roof_slots))
    if does:
        return msg("lg.helper.does", effects=does)
    if "cards" not in edition.provisional and c.helper_text:
        return c.helper_text
    return msg("lg.helper.by_hand")


def waiting(kind: str) -> Text:
    """What the game waits for (a refusal's "the game waits for ...")."""
    return msg(f"lg.waiting.{kind}") if kind in WAITING else kind


def prompt(kind: str) -> Text:
    """What a player is asked to do now (the terminal's prompt)."""
    return msg(f"lg.prompt.{kind}") if kind in WAITING else kind


def _card_side(side: str, card: str) -> Message:
    return msg(f"lg.move.place.{side}", card=card)


def move_text(state: State, move: LGMove) -> Text:
    """What ``move`` does, in words, with its counts (``str(move)`` for a move the game has no words for)."""
    e, verb, args = state.edition, move.verb, move.args
    top = state.top
    try:
        if verb == "place":
            card, side, rest = args[0], args[1], args[2:]
            if side == "field":
                return msg("lg.move.place.field", card=card, crop=good(e.cards[int(card)].field))
            if side == "ext":
                return msg("lg.move.place.ext", card=card, n=len(rest), goods=tokens(rest))
            if rest:
                return msg("lg.move.place.replace", what=_card_side(side, card), old=rest[1])
            return _card_side(side, card)
        if verb in ENDS:
            kind = top.kind if top is not None and top.kind in ENDS[verb] else ENDS[verb][0]
            return msg(f"lg.move.{verb}.{kind}")
        if verb == "discard":
            return msg("lg.move.discard", n=len(args), cards=", ".join(args))
        if verb == "roof":
            return msg("lg.move.roof", marker=args[0], effect=roof(e.roofs[args[0]].effect), cost=state.round)
        if verb == "die":
            return msg("lg.move.die", value=args[0], gives=msg(f"lg.face.{args[0]}"))
        if verb == "option":
            return msg(f"lg.option.{args[0]}")
        if verb == "take":
            return msg("lg.move.take", n=len(args), goods=goods(args))
        if verb == "upgrade" and args[0] == "free":
            return msg("lg.move.upgrade_free", n=len(args) - 1, goods=[_upgraded(t) for t in args[1:]])
        if verb == "upgrade":
            return msg("lg.move.upgrade", what=_upgraded(args[0]), cost=e.upgrade_cost[args[0].partition(":")[0]])
        if verb == "deliver":
            pairs = [a.partition("=") for a in args]
            return msg("lg.move.deliver", n=len(pairs),
                       deliveries=[msg("lg.delivery", good=token(g), target=target(t)) for t, _, g in pairs])
        if verb == "draw":
            return msg("lg.move.draw")
        if verb == "donkey":
            d = int(args[1])
            return msg("lg.move.donkey", n=d, steps=msg("lg.count.steps", n=e.hats[d]))
        if verb == "extra":
            return msg("lg.move.extra", n=int(args[0])) if int(args[0]) else msg("lg.move.extra_none")
        if verb == "stall":
            return msg("lg.move.stall", space=space(e, args[0]), value=e.spaces[e.space_index(args[0])].value)
        if verb == "buy":
            return msg("lg.move.buy", good=good(args[0]), cost=e.buy[args[0]])
        if verb == "sell":
            return msg("lg.move.sell", good=token(args[0]), price=e.sell[args[0].partition(":")[0]])
        if verb == "trade":
            return msg(f"lg.trade.{args[0]}")
        if verb == "use" and len(args) > 1:
            return msg("lg.move.use_refresh", marker=args[0], other=roof(e.roofs[args[1]].effect))
        if verb == "use":
            return msg("lg.move.use", marker=args[0], effect=roof(e.roofs[args[0]].effect))
        if verb == "helper":
            return msg("lg.move.helper", card=args[0], name=helper_name(e, int(args[0])))
        if verb == "adjust":
            return msg("lg.move.adjust", good=good(args[0], 2), delta=args[1], note=" ".join(args[2:]) or "-")
        if verb == "release":
            return msg("lg.move.release", n=len(args), goods=tokens(args, e))
        return _chance_text(state, move)
    except (IndexError, KeyError, ValueError):
        return str(move)


def _upgraded(text: str) -> Message:
    """``olive`` upgraded: "olive to food"."""
    return msg("lg.upgrade.one", good=token(text), result=good(UPGRADE_TO.get(text.partition(":")[0], "")))


def _chance_text(state: State, move: LGMove) -> Text:
    """The companion's own steps: draws, rolls, reveals."""
    e, verb, args = state.edition, move.verb, move.args
    if verb == "card":
        return msg("lg.move.card", card=args[0])
    if verb == "start":
        return msg("lg.move.start", name=state.players[int(args[0]) - 1].name)
    if verb == "order":
        return msg("lg.move.order", marker=args[0])
    if verb == "lock":
        return msg("lg.move.lock", building=building(args[0]))
    if verb == "reveal":
        return msg("lg.move.reveal", marker=args[0], effect=roof(e.roofs[args[0]].effect))
    if verb == "roll":
        return msg("lg.move.roll", n=len(args), values=" ".join(args))
    if verb == "donkeys":
        return msg("lg.move.donkeys", shown=donkeys_shown(state, args))
    return str(move)


def donkeys_shown(state: State, args: Sequence[str]) -> list[Text]:
    """Each player's donkey marker as the reveal turns them up: "Ana: 2 donkeys"."""
    return [msg("lg.donkey.shown", name=p.name, n=int(d)) for p, d in zip(state.players, args)]


def message_ids() -> set[str]:
    """Every identifier built from a key (``f"lg.good.{kind}"``...), for the catalog test."""
    from companion.games.la_granja.rules import FACE_OPTIONS, SIDES, TRADE_USES

    ids = {f"lg.good.{k}" for k in SYMBOLS} | {f"lg.building.{k}" for k in BUILDINGS}
    ids |= {f"lg.craft.{k}" for k in BUILDINGS}
    ids |= {f"lg.roof.{k}" for k in ROOF_EFFECTS} | {f"lg.waiting.{k}" for k in WAITING}
    ids |= {f"lg.prompt.{k}" for k in WAITING} | {f"lg.face.{v}" for v in range(1, 7)}
    ids |= {f"lg.option.{k}" for options in FACE_OPTIONS.values() for k in options}
    ids |= {f"lg.trade.{k}" for k in TRADE_USES} | {f"lg.verb.{k}" for k in ("buy", "sell", "upgrade", "trade")}
    ids |= {f"lg.move.{verb}.{kind}" for verb, kinds in ENDS.items() for kind in kinds}
    ids |= {f"lg.move.place.{side}" for side in SIDES} | {f"lg.side.{side}" for side in SIDES}
    ids |= {f"lg.phase.{phase}" for phase in PHASES}
    ids |= {f"lg.card.{card}.helper" for card in range(1, 67)} | {f"lg.left.{kind}" for kind in COUNTED}
    ids |= {f"lg.section.{section}" for section in (*SECTIONS, "farm")}
    return ids
