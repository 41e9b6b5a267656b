"""Keyper's decisions as picks (companion/core/picks.py): the piece or the action first, then where, then how to pay.

Ids are the components' own: a keyple by its colour (``white``), the Keyper ``keyper``, a country board
``board-2``, a field by its place (``2.7``), a plot of one's own board (``V3``, ``F1``), a tile, a boat or a fair by
its sticker's key (``boarding_house``, ``B3``, ``W2``, ``SP1``), a good or an animal by its key (``brick``); an action
without a piece is its verb (``pass``, ``done``, ``work``, ``ship``, ``convert``). Paid pieces and pieces taken two at
a time are picked per kind with the count in the id (``brick*2``: two bricks; ``brick`` alone is one), in any order;
the keep tile's resources, the keyples that rest and the animals released one by one, in any order.

A turn: the keyple (or the Keyper), then the board, the field and, for a river field, the boat, or beside a standing
keyple whether to lay it down; or one of the player's buildings; or a tile being built with the keyple on it (4.8 (v)),
its plot and the payment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.core.messages import Param, Text, msg
from companion.core.picks import Step, step
from companion.games.keyper import rules
from companion.games.keyper.data import RESOURCES, colour, piece
from companion.games.keyper.moves import KPMove, pieces
from companion.games.keyper.state import State
from companion.games.keyper.words import boat_words, building_words, fair_words, field_words, plot_words, tile_name

COUNT_SEP = "*"
"""Between a piece and its count in a pick's id (``brick*2``)."""
ASKS = ("piece", "where", "field", "boat", "lay", "plot", "build_plot", "pay", "keyper_board", "lay_where",
        "lay_field", "lay_count", "follow", "or", "take", "process", "river", "work", "ship", "give", "get",
        "build", "upgrade", "exchange", "pick", "keep", "fairs", "release", "rest", "fold")
"""The questions of the picks (``kp.ask.<key>``)."""
CONFIRMED = frozenset({"build", "upgrade", "trade", "convert"})
"""Decisions with a cost, shown in words with an OK first (and a keyple placed onto a tile it builds)."""


def ask(key: str, **params: Param) -> Text:
    """A pick's question (``kp.ask.<key>``)."""
    return msg(f"kp.ask.{key}", **params)


def board_step(question: Text, target: str) -> Step:
    board = target.partition(".")[0]
    return step(question, f"board-{board}", msg("kp.pick.board", board=int(board)))


def where_steps(s: State, seat: int, target: str, question: Text) -> list[Step]:
    """A field (its board, then the field) or one of ``seat``'s plots (the building on it, by name)."""
    if target[:1] in ("F", "V"):
        return [step(question, target, building_words(s, seat, target))]
    return [board_step(question, target), step(ask("field"), target, field_words(s, target))]


def count_steps(question: Text, names: Sequence[str]) -> list[Step]:
    """Pieces picked per kind in any order, the count in the id past one (``brick*2``)."""
    return [step(question, kind if n == 1 else f"{kind}{COUNT_SEP}{n}",
                 piece(kind) if n == 1 else msg("kp.pick.count", n=n, what=piece(kind)), unordered=True)
            for kind, n in sorted(Counter(names).items())]


def unit_steps(question: Text, names: Sequence[str]) -> list[Step]:
    """Pieces picked one by one in any order (the same id as often as there are)."""
    return [step(question, name, piece(name) if name in RESOURCES else name, unordered=True) for name in names]


def keyple(colour_: str) -> Text:
    return msg("kp.pick.keyple", colour=colour(colour_))


def _standing(s: State, seat: int, target: str) -> int:
    return sum(1 for k in rules.occupants(s, seat, target) or () if k.standing)


def pick_path(s: State, move: KPMove) -> list[Step]:
    """How a player picks ``move`` (companion/core/picks.py)."""
    verb, a = move.verb, move.args
    seat = rules.actor(s)
    if verb == "fold":
        return [step(ask("fold"), a[1], msg("kp.pick.side", option=a[1]))]
    if verb in ("pass", "done"):
        return [step(ask("or"), verb, msg(f"kp.pick.{verb}"))]
    if verb == "keyper":
        return [step(ask("piece"), "keyper", msg("kp.pick.keyper")),
                board_step(ask("keyper_board"), f"{a[0]}.1")]
    if verb == "place":
        return [step(ask("piece"), a[0], keyple(a[0])), *place_steps(s, seat, a[1], a[2:])]
    if verb == "lay":
        path = where_steps(s, seat, a[0], ask("lay_where"))
        if _standing(s, seat, a[0]) == 2 and s.options["lay_two"] == "one_or_both":
            path.append(step(ask("lay_count"), "both" if len(a) == 2 else "one",
                             msg("kp.pick.lay_both" if len(a) == 2 else "kp.pick.lay_one")))
        return path
    if verb == "follow":
        return [step(ask("follow"), a[0], keyple(a[0]))]
    if verb in ("take", "process"):
        return [step(ask(verb), a[0], piece(a[0]))]
    if verb in ("work", "ship"):
        return [step(ask("river"), verb, msg(f"kp.pick.{verb}")), step(ask(verb), a[0], piece(a[0]))]
    if verb == "trade":
        return [step(ask("give"), a[0], piece(a[0])), *count_steps(ask("get"), pieces(a[1]))]
    if verb == "convert":
        given = pieces(a[0])
        return [step(ask("exchange"), "convert", msg("kp.pick.convert")),
                step(ask("give"), a[0], msg("kp.pick.pieces", pieces=[piece(x) for x in given] or "-")),
                *count_steps(ask("get"), pieces(a[1]))]
    if verb == "build":
        return [step(ask("build"), a[0], tile_name(a[0])), step(ask("build_plot"), a[1], plot_words(a[1])),
                *count_steps(ask("pay"), pieces(a[2]))]
    if verb == "upgrade":
        return [step(ask("upgrade"), a[0], building_words(s, seat, a[0])), *count_steps(ask("pay"), pieces(a[1]))]
    if verb == "pick":
        words = fair_words(s, a[0]) if a[0] in s.edition.fairs else tile_name(a[0])
        return [step(ask("pick"), a[0], words)]
    if verb == "keep":
        return unit_steps(ask("keep"), a)
    if verb == "fairs":
        if not a:
            return [step(ask("fairs"), "no-fair", msg("kp.pick.no_fair"), unordered=True)]
        return [step(ask("fairs"), f, fair_words(s, f), unordered=True) for f in a]
    if verb == "release":
        return unit_steps(ask("release"), a)
    if verb == "rest":
        return [step(ask("rest"), c, keyple(c), unordered=True) for c in a]
    return [step(ask("or"), str(move), str(move))]


def place_steps(s: State, seat: int, target: str, tail: Sequence[str]) -> list[Step]:
    """Where a keyple goes: a field (board, field, then a boat or the keyple there laid down or not), one of the
    player's buildings, or a tile it builds with the keyple on it (the tile, the plot, the payment)."""
    if tail[:1] == ("build",):
        return [step(ask("where"), tail[1], tile_name(tail[1])), step(ask("build_plot"), target, plot_words(target)),
                *count_steps(ask("pay"), pieces(tail[2]))]
    path = where_steps(s, seat, target, ask("where"))
    if tail[:1] == ("boat",):
        path.append(step(ask("boat"), tail[1], boat_words(s, tail[1])))
    elif tail[:1] == ("lay",):
        path.append(step(ask("lay"), "lay", msg("kp.pick.lay")))
    elif _standing(s, seat, target) == 1:
        path.append(step(ask("lay"), "stand", msg("kp.pick.stand")))
    return path


def confirms(move: KPMove) -> bool:
    """A build, an upgrade, a trade or a conversion (what is paid shown in words with an OK first)."""
    return move.verb in CONFIRMED or (move.verb == "place" and move.args[2:3] == ("build",))


def message_ids() -> set[str]:
    """The identifiers built at run time."""
    from companion.games.keyper.data import FIELD_KINDS
    from companion.games.keyper.tiles import RULES

    return ({f"kp.ask.{key}" for key in ASKS} | {f"kp.field.{kind}" for kind in FIELD_KINDS}
            | {f"kp.tile.{tile}" for tile in RULES}
            | {"kp.pick.pass", "kp.pick.done", "kp.pick.work", "kp.pick.ship", "kp.pick.lay_both",
               "kp.pick.lay_one", "kp.pick.farm_plot", "kp.pick.village_plot"})
