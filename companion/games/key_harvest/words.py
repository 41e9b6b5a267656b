"""Key Harvest in words, in one place: the names of crops, workers and events, what each move does, the log's
lines and the prompt, all as messages (``kh.*`` in this folder's ``locale/<language>.po``)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.messages import Message, Text, msg
from companion.games.key_harvest.board import Crop
from companion.games.key_harvest.moves import EVENT_LETTERS, WORKER_LETTERS, KHMove, label_crop
from companion.games.key_harvest.state import LABOURERS, NORMAL, TRACK_SPACES, State, Step, Stones, stones_of

STEP_KINDS = ("harvest", "bid_more", "buy_more", "pay", "bonus", "ability", "trader_choice", "replacement_choice",
              "event", "gift", "windfall")
"""The decisions a player may be asked for (each has a ``kh.step.<kind>`` sentence: what is asked)."""
DRAW_PURPOSES = ("office", "place", "trader", "replace")
"""Where a drawn field tile goes (each has a ``kh.log.draw.<purpose>`` line)."""


def message_ids() -> list[str]:
    """Every identifier this module builds from a key (the catalog test checks each has its entries)."""
    return ([f"kh.crop.{crop.key}" for crop in Crop] + [f"kh.worker.{w}" for w in WORKER_LETTERS]
            + [f"kh.event.{e}" for e in EVENT_LETTERS] + [f"kh.step.{kind}" for kind in STEP_KINDS]
            + [f"kh.log.draw.{purpose}" for purpose in DRAW_PURPOSES]
            + [f"kh.move.done.{kind}" for kind in ("harvest", "bid_more", "buy_more")]
            + [f"kh.log.crops.{n}" for n in (2, 3, 4)])


def crop(which: Crop | str) -> Message:
    """A crop's name (``kh.crop.wheat``)."""
    return Message(f"kh.crop.{which.key if isinstance(which, Crop) else which}")


def worker(letter: str) -> Message:
    """A worker's name (``kh.worker.A``: Apprentice)."""
    return Message(f"kh.worker.{letter}")


def event(letter: str) -> Message:
    """An event's name (``kh.event.M``: Exchange)."""
    return Message(f"kh.event.{letter}")


def step_sentence(kind: str) -> Message:
    """What a decision asks for (``kh.step.harvest``: harvest another tile of the group, or say done)."""
    return Message(f"kh.step.{kind}")


def stones(counts: Stones) -> Text:
    """Stones counted per crop: ``1 vegetables stone, 2 wheat stones`` (``no stones`` for none)."""
    parts: list[str | int | Message] = [msg("kh.stones", n=n, crop=crop(Crop(c))) for c, n in enumerate(counts) if n]
    return msg("kh.stones.list", items=parts) if parts else msg("kh.stones.none")


def _tile_crop(state: State, label: str) -> Message | None:
    space = state.layout.index.get(label)
    return None if space is None else crop(state.layout.crops[space])


def _stone_from(state: State, arg: str) -> Message:
    """``L`` or ``L/crop`` of a harvest or a take: one stone of the tile's crop (or the named one) from L."""
    label, substitute = label_crop(arg)
    printed = _tile_crop(state, label)
    if substitute is not None:
        return msg("kh.move.stone_from_instead", label=label, crop=crop(substitute), printed=printed or "?")
    return msg("kh.move.stone_from", label=label, crop=printed or "?")


def _owner(state: State, label: str) -> str | None:
    space = state.layout.index.get(label)
    if space is None:
        return None
    owner = state.warehouse_owner(space)
    if owner < 0:
        owner = state.board_owner(space)
    return None if owner < 0 else state.player(owner).name


def move_text(state: State, move: KHMove) -> Text:
    """What ``move`` does, in words, for the player choosing it now (public information only)."""
    step = state.top
    verb, args = move.verb, move.args
    if move.is_chance:
        return describe_draw(state, move, None)
    if step is None or step.kind in ("harvest", "bid_more", "buy_more"):
        return _turn_text(state, step, move)
    if step.kind == "pay":
        if not args:
            return msg("kh.move.pay_choose", n=step.n)
        return msg("kh.move.pay", stones=stones(stones_of(args)))
    if step.kind == "bonus":
        if verb == "decline":
            return msg("kh.move.bonus_decline", worker=step.worker, name=worker(step.worker))
        return msg("kh.move.bonus", worker=step.worker, name=worker(step.worker), label=args[0])
    if step.kind == "ability":
        return _ability_text(state, step, move)
    if step.kind == "trader_choice":
        return msg("kh.move.trader_keep") if verb == "keep" else msg("kh.move.trader_discard")
    if step.kind == "replacement_choice":
        return msg("kh.move.replacement_discard") if verb == "discard" else msg("kh.move.replacement_keep", label=args[0])
    if step.kind == "event":
        return _event_text(state, step, move)
    if step.kind == "gift":
        nxt = state.player(state.next_seat(step.player)).name
        if verb == "give":
            return msg("kh.move.gift_give", label=args[0], player=nxt)
        if verb == "forward":
            return msg("kh.move.gift_forward", player=nxt)
        return msg("kh.move.gift_keep") if verb == "keep" else msg("kh.move.gift_discard")
    if step.kind == "windfall":
        return msg("kh.move.windfall", player=state.player(step.target).name, crop=crop(args[0]))
    return str(move)


def _turn_text(state: State, step: Step | None, move: KHMove) -> Text:
    """The actions of a turn, and the second harvest, bid or purchase of one action."""
    verb, args = move.verb, move.args
    if verb == "harvest":
        return msg("kh.move.harvest", stone=_stone_from(state, args[0]))
    if verb == "play":
        kind = "kh.move.play_labourer" if args[0] in LABOURERS else "kh.move.play_townsfolk"
        return msg(kind, worker=args[0], name=worker(args[0]), label=args[1])
    if verb == "remove":
        return msg("kh.move.remove", label=args[0])
    if verb == "buy":
        return _buy_text(state, args[0])
    if verb == "bid":
        if len(args) == 1:
            return msg("kh.move.bid_choose", label=args[0])
        return msg("kh.move.bid", label=args[0], stones=stones(stones_of(args[1:])))
    if verb == "add":
        return msg("kh.move.add", crop=crop(args[0]))
    if verb == "end":
        return msg("kh.move.end")
    if verb == "done" and step is not None:
        return Message(f"kh.move.done.{step.kind}")
    return str(move)


def _in_warehouse(state: State, label: str) -> tuple[int, Stones] | None:
    """The seat whose warehouse holds tile ``label``, and its bid; ``None`` if none does."""
    space = state.layout.index.get(label)
    owner = -1 if space is None else state.warehouse_owner(space)
    if space is None or owner < 0:
        return None
    return owner, dict(state.player(owner).warehouse)[space]


def _buy_text(state: State, label: str) -> Text:
    found = _in_warehouse(state, label)
    if found is None:
        return msg("kh.move.buy", label=label, player="?", stones=msg("kh.stones.none"))
    owner, bid = found
    if owner == (state.active if state.top is None else state.top.player):
        return msg("kh.move.buy_own", label=label)
    return msg("kh.move.buy", label=label, player=state.player(owner).name, stones=stones(bid))


def _ability_text(state: State, step: Step, move: KHMove) -> Text:
    """A worker's ability (spec 5): what it gives, takes or moves."""
    who, verb, args = worker(step.worker), move.verb, move.args
    if verb == "decline":
        return msg("kh.move.ability_decline", name=who)
    if verb == "take" and step.worker in "AB":
        return msg("kh.move.ability_take_stones", name=who, stones=[_stone_from(state, a) for a in args])
    if verb == "gain":
        return msg("kh.move.ability_gain", name=who, stones=stones(stones_of(args)))
    if verb == "flip":
        return msg("kh.move.flip", name=who, n=len(args), labels=list(args))
    if verb == "buy":
        _, bid = _in_warehouse(state, args[0]) or (-1, (0, 0, 0, 0, 0))
        price = sum(bid) + (1 if step.worker == "E" else 0)
        return msg("kh.move.ability_buy", name=who, label=args[0], player=_owner(state, args[0]) or "?", n=price)
    if verb == "fallow":
        return msg("kh.move.ability_fallow", name=who, label=args[0])
    if verb == "bid":
        return msg("kh.move.ability_bid", name=who, bid=_turn_text(state, None, move))
    if verb == "seize":
        return msg("kh.move.ability_seize", name=who, label=args[0], player=_owner(state, args[0]) or "?", n=3)
    if verb == "reuse":
        space = state.layout.index.get(args[0])
        again = state.player(step.player).worker_at(space) if space is not None else None
        return msg("kh.move.ability_reuse", name=who, label=args[0], worker=again or "?",
                   again=worker(again) if again else "?")
    if verb == "trade":
        return msg("kh.move.ability_trade", name=who)
    if verb == "take" and step.worker == "K":
        return msg("kh.move.ability_trader_take", name=who, label=args[0])
    if verb == "take":
        return msg("kh.move.ability_office_take", name=who, label=args[0])
    return str(move)


def _event_text(state: State, step: Step, move: KHMove) -> Text:
    """A player's part of an event (spec 6.2)."""
    name, verb, args = event(step.event), move.verb, move.args
    if verb == "decline":
        return msg("kh.move.event_decline", name=name)
    if verb == "fallow":
        return msg("kh.move.event_exchange", name=name, label=args[0])
    if verb == "swap" and step.event == "U":
        return msg("kh.move.event_consolidate", name=name, own=args[0], label=args[1])
    if verb == "swap":
        return msg("kh.move.event_swap", name=name, own=args[0], label=args[1], player=_owner(state, args[1]) or "?")
    if verb == "gain":
        return msg("kh.move.event_gain", name=name, crop=crop(args[0]))
    if verb == "dip":
        return msg("kh.move.event_dip", name=name, n=2)
    if verb == "buy":
        return msg("kh.move.event_office_pay", name=name, label=args[0], n=2)
    if verb == "take":
        return msg("kh.move.event_office_pay", name=name, label=args[0], n=3)
    if verb == "flip":
        return msg("kh.move.flip", name=name, n=len(args), labels=list(args))
    if verb == "harvest":
        return msg("kh.move.event_harvest", name=name, stone=_stone_from(state, args[0]))
    if verb == "move":
        return msg("kh.move.event_move", name=name, label=args[0], to=args[1])
    if verb == "remove":
        return msg("kh.move.event_remove", name=name, label=args[0])
    return str(move)


# ---------------------------------------------------------------- the log


def describe(state: State, move: KHMove, viewer: int | None, secret: bool) -> Text:
    """A log line: a player's move in words, or a draw naming the physical piece to take (``secret``: masked
    for ``viewer`` unless it is theirs)."""
    step = state.top
    if not move.is_chance or step is None:
        player = state.player(step.player if step is not None and step.player >= 0 else state.active).name
        return msg("kh.log.move", player=player, words=move_text(state, move), move=str(move))
    if secret and viewer != step.player:
        name = state.player(step.player).name
        if step.kind == "stone":
            return msg("kh.log.stone_hidden", player=name)
        if step.kind == "remove_event":
            return msg("kh.log.removed_hidden")
        return msg("kh.log.trader_hidden", player=name)
    return describe_draw(state, move, viewer)


def describe_draw(state: State, move: KHMove, viewer: int | None) -> Text:
    """A draw's log line, as the companion made it (the caller masks secret draws)."""
    step = state.top
    assert step is not None
    names = [p.name for p in state.players]
    kind, arg, text = step.kind, move.args[0], str(move)
    if kind == "first":
        return msg("kh.log.first", move=text, player=names[int(arg) - 1])
    if kind == "pair":
        tile = state.layout.space(arg)
        twin = next(b if a == tile else a for a, b in state.layout.start_pairs if tile in (a, b))
        return msg("kh.log.pair", move=text, player=names[step.player], label=arg, twin=state.label(twin))
    if kind == "crops":
        return msg(f"kh.log.crops.{len(names)}", move=text, crops=[crop(a) for a in move.args])
    if kind == "stone":
        return msg("kh.log.stone", crop=crop(arg), player=names[step.player])
    if kind == "remove_event":
        return msg("kh.log.removed", event=arg, name=event(arg))
    if move.verb == "draw":
        tile_crop = crop(state.layout.crops[state.layout.space(arg)])
        return msg(f"kh.log.draw.{step.purpose}", move=text, label=arg, crop=tile_crop, player=names[step.player])
    if len(state.track) >= TRACK_SPACES:
        return msg("kh.log.event_ignored", move=text, event=arg, name=event(arg))
    if step.context != NORMAL and state.bag_fields:
        return msg("kh.log.event_set_aside", move=text, event=arg, name=event(arg))
    return msg("kh.log.event_placed", move=text, event=arg, name=event(arg), space=len(state.track) + 1)


def prompt(state: State, who: int, names: Sequence[str]) -> Text:
    """Who decides now and about what, from public information only."""
    name = names[who]
    step = state.top
    if step is None:
        if not state.actions:
            return msg("kh.prompt.turn_fresh", player=name)
        return msg("kh.prompt.turn", player=name, n=len(state.actions), actions=list(state.actions))
    if step.kind == "pay":
        return msg("kh.prompt.pay", player=name, n=step.n)
    about: Text = step_sentence(step.kind)
    if step.kind in ("ability", "bonus") and step.worker:
        about = msg("kh.prompt.about_worker", worker=step.worker, name=worker(step.worker), ask=about)
    elif step.event:
        about = msg("kh.prompt.about_event", event=step.event, name=event(step.event), ask=about)
    return msg("kh.prompt.decides", player=name, ask=about)
