"""Keyper's text and views: every move in words, log lines as each viewer may read them, the JSON views, the
invariants checked by playouts. Pieces, tiles and targets are named by their notation (``clay``, ``2.7``, ``V3``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.core.messages import Message, Text, msg
from companion.games.keyper import rules
from companion.games.keyper.data import ANIMALS, GOODS, KEYPLE_COLOURS, RESOURCES, SEASONS, colour, piece
from companion.games.keyper.moves import KPMove, pieces
from companion.games.keyper.scoring import ties
from companion.games.keyper.state import State

if TYPE_CHECKING:
    from companion.games.keyper import Keyper

_PLAIN = {"pass": "kp.move.pass", "done": "kp.move.done"}


def _list(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(items) if items else "-"


def _pieces(names: tuple[str, ...] | list[str]) -> list[Text] | str:
    """Pieces in words, as a list the catalog joins; ``-`` for none."""
    return [piece(name) for name in names] if names else "-"


def tile_name(tile: str) -> Text:
    """A building tile's printed name (``kp.tile.<id>``)."""
    return Message(f"kp.tile.{tile}")


def fair_words(s: State, fair: str) -> Text:
    """A fair as the table reads it: its season, what it asks and its points (a winter fair: both sides)."""
    f = s.edition.fairs.get(fair)
    if f is None:
        return msg("kp.pick.fair_unknown")
    needs = [msg("kp.pick.count", n=n, what=piece(k)) for k, n in f.requires]
    if f.season == "winter":
        late = [msg("kp.pick.count", n=n, what=piece(k)) for k, n in f.late_requires]
        return msg("kp.pick.winter_fair", needs=needs or "-", vp=f.vp, late=late or "-", late_vp=f.late_vp)
    return msg("kp.pick.fair", season=Message("kp.season." + f.season), needs=needs or "-", vp=f.vp)


def field_words(s: State, target: str) -> Text:
    """A field by its number on the board, what it gives and its colour (``7: gold, black``)."""
    _, board, index = rules.parse_target(target)
    f = rules.field_of(s, board, index)
    what = msg(f"kp.field.{f.kind}", what=piece(f.param) if f.param else "")
    if f.colour in ("none", ""):
        return msg("kp.pick.field", number=index + 1, what=what)
    return msg("kp.pick.field_colour", number=index + 1, what=what, colour=colour(f.colour))


def plot_words(plot: str) -> Text:
    return msg("kp.pick.farm_plot" if plot[0] == "F" else "kp.pick.village_plot", number=int(plot[1:]))


def building_words(s: State, seat: int, plot: str) -> Text:
    """One of ``seat``'s plots: the tile built there, and where (``Kiln, village plot 3``)."""
    area, _, index = rules.parse_target(plot)
    plots = s.players[seat].plots(area)
    if 0 <= index < len(plots) and plots[index].tiles:
        return msg("kp.pick.building", tile=tile_name(plots[index].top), plot=plot_words(plot))
    return plot_words(plot)


def boat_words(s: State, boat: str) -> Text:
    """A boat by the two goods its side up shows this season (``boat with clay and log``)."""
    sides = s.edition.boats.get(boat, {}).get(SEASONS[s.season], ())
    if len(sides) != 2:
        return msg("kp.pick.boat_unknown")
    return msg("kp.pick.boat", a=piece(sides[0]), b=piece(sides[1]))


def target_words(s: State, seat: int, target: str) -> Text:
    """A field (``board 2, field 7: gold (black)``) or one of ``seat``'s plots (the building on it) in words."""
    if target[:1] in ("F", "V"):
        return building_words(s, seat, target)
    if "." in target:
        return msg("kp.pick.on_board", board=int(target.partition(".")[0]), field=field_words(s, target))
    return target


def move_text(s: State, move: KPMove) -> Text:
    """What ``move`` does, in words: tiles, fairs and boats by what is printed on them, fields and plots by what they
    give or hold."""
    verb, a = move.verb, move.args
    seat = rules.actor(s)
    if verb in _PLAIN:
        return msg(_PLAIN[verb])
    if verb == "keyper":
        return msg("kp.move.keyper", board=a[0])
    if verb == "place":
        where = plot_words(a[1]) if a[2:3] == ("build",) else target_words(s, seat, a[1])
        if len(a) >= 5 and a[2] == "build":
            return msg("kp.move.place_build", colour=colour(a[0]), target=where, tile=tile_name(a[3]),
                       pay=_pieces(pieces(a[4])))
        if len(a) == 4:
            return msg("kp.move.place_boat", colour=colour(a[0]), target=where, boat=boat_words(s, a[3]))
        if len(a) == 3:
            return msg("kp.move.place_lay", colour=colour(a[0]), target=where)
        return msg("kp.move.place", colour=colour(a[0]), target=where)
    if verb == "lay":
        return msg("kp.move.lay_both" if len(a) == 2 else "kp.move.lay", target=target_words(s, seat, a[0]))
    if verb == "follow":
        return msg("kp.move.follow", colour=colour(a[0]))
    if verb in ("take", "process", "work", "ship"):
        return msg(f"kp.move.{verb}", kind=piece(a[0]))
    if verb == "pick":
        return msg("kp.move.pick_fair", fair=fair_words(s, a[0])) if a[0] in s.edition.fairs \
            else msg("kp.move.pick", tile=tile_name(a[0]))
    if verb in ("trade", "convert"):
        return msg("kp.move.convert", give=_pieces(pieces(a[0]) if verb == "convert" else (a[0],)),
                   get=_pieces(pieces(a[1])))
    if verb == "build":
        return msg("kp.move.build", tile=tile_name(a[0]), target=plot_words(a[1]), pay=_pieces(pieces(a[2])))
    if verb == "upgrade":
        return msg("kp.move.upgrade", target=building_words(s, seat, a[0]), pay=_pieces(pieces(a[1])))
    if verb == "keep":
        return msg("kp.move.keep", kinds=_pieces(a))
    if verb == "fairs":
        return msg("kp.move.fairs", fairs=[fair_words(s, f) for f in a]) if a else msg("kp.move.fairs_none")
    if verb == "release":
        return msg("kp.move.release", animals=_pieces(a))
    if verb == "rest":
        return msg("kp.move.rest", colours=[colour(c) for c in a] if a else "-")
    if verb == "fold":
        return msg("kp.move.fold", option=a[1])
    return chance_text(s, move)


def chance_text(s: State, move: KPMove) -> Text:
    verb, a = move.verb, move.args
    names = [p.name for p in s.players]
    if verb == "draw":
        return msg("kp.log.draw", tile=fair_words(s, a[0]) if a[0] in s.edition.fairs else tile_name(a[0]))
    if verb == "boats":
        return msg("kp.log.boats", boats=[boat_words(s, b) for b in a], season=Message("kp.season." + SEASONS[s.season]))
    if verb == "fair":
        return msg("kp.log.fair", name=names[int(a[0]) - 1], fair=fair_words(s, a[1]))
    if verb == "ninth":
        return msg("kp.log.ninth", name=names[int(a[0]) - 1], colour=colour(a[1]))
    if verb == "start":
        return msg("kp.log.start", name=names[int(a[0]) - 1])
    if verb == "reveal":
        return msg("kp.log.reveal", folds=_list([f"{n}: {f}" for n, f in zip(names, a)]))
    return str(move)


def describe(s: State, move: KPMove, viewer: int | None) -> Text:
    """A log line: secrets (a private fair dealt, a fold before the reveal) only for their own seat."""
    names = [p.name for p in s.players]
    if move.verb == "fair" and viewer != int(move.args[0]) - 1:
        return msg("kp.log.fair_hidden", name=names[int(move.args[0]) - 1])
    if move.verb == "fold":
        seat = int(move.args[0]) - 1
        if viewer != seat:
            return msg("kp.log.fold_hidden", name=names[seat])
        return msg("kp.log.move", name=names[seat], what=move_text(s, move))
    who = rules.actor(s)
    if move.is_chance or who < 0:
        return chance_text(s, move)
    return msg("kp.log.move", name=names[who], what=move_text(s, move))


def message_ids() -> set[str]:
    """The identifiers built at run time."""
    from companion.games.keyper.data import SECTIONS

    return ({"kp.season." + season for season in SEASONS} | {"kp.section." + section for section in SECTIONS}
            | {"kp.task." + kind for kind in TASKS} | {"kp.colour." + name for name in KEYPLE_COLOURS}
            | {"kp.piece." + name for name in RESOURCES} | {"kp.move." + verb for verb in ("take", "process", "work", "ship")})


TASKS = ("turn", "follow", "use", "pick", "keeptile", "fairs", "house", "rest", "fold")


def _units_left(s: State) -> int:
    """The deciding seat's units still to use on the field, counting its later turns there (L633: two players building
    on one field take turns)."""
    top = s.tasks[-1]
    return sum(t.n for t in s.tasks if t.kind == "use" and t.seat == top.seat and t.arg == top.arg)


def view(game: Keyper, s: State, player: int | None) -> dict[str, Any]:
    """What ``player`` may see (``None``: the table): no one else's private fairs (unless ``open_fairs``), no fold
    before the reveal, the bag's contents but never its order."""
    e = s.edition
    open_fairs = s.options["open_fairs"] == "yes" or s.over
    top = s.top
    waiting = None
    if top is not None and not s.over:
        waiting = {"kind": top.kind, "seat": top.seat if top.kind in rules.DECISIONS else None, "units": _units_left(s)
                   if top.kind == "use" else None, "target": top.arg or None,
                   "text": Message("kp.task." + top.kind) if top.kind in TASKS else None,
                   "deciders": list(game.deciders(s)),
                   "follow": follow_offer(s, top.arg) if top.kind == "follow" else None}
    players = []
    for seat, p in enumerate(s.players):
        mine = player == seat
        players.append({
            "seat": seat, "name": p.name, "keyper_home": p.keyper_home, "keep": list(p.keep),
            "keep_tile": [{"colour": k.colour, "standing": k.standing} for k in p.keep_tile],
            "plots": {area: [{"plot": f"{area[0].upper()}{i + 1}", "tiles": list(plot.tiles),
                              "side": "upgraded" if plot.upgraded else "base",
                              "keyples": [{"colour": k.colour, "standing": k.standing} for k in plot.keyples]}
                             for i, plot in enumerate(p.plots(area))] for area in ("farm", "village")},
            "unbuilt": list(p.unbuilt), "winter_fairs": list(p.winter_fairs),
            "private_fairs": [f or None for f in p.private] if mine or open_fairs else None,
            "private_fair_count": sum(1 for f in p.private if f),
            "held": [{"fair": f, "season": season} for f, season in p.held],
            "goods": dict(zip(GOODS, p.goods)), "animals": dict(zip(ANIMALS, p.animals)),
            "shipping": p.shipping, "claimed": p.claimed + 1 if p.claimed >= 0 else None,
            "fold": (s.folds[seat] or None) if mine and s.folds else None,
            "fold_chosen": bool(s.folds and s.folds[seat]),
        })
    score = game.score(s) if s.over else None
    return {
        "game": "keyper", "data": {"name": e.name, "provisional": list(e.provisional)},
        "options": dict(s.options), "season": SEASONS[s.season], "start": s.start, "active": s.active,
        "final_round": s.final, "over": s.over,
        "to_move": {-1: "chance", -3: "simultaneous", -2: "over"}.get(rules.actor(s), rules.actor(s)),
        "waiting": waiting, "players": players,
        "boards": [{"board": i + 1, "layout": b.layout, "keeper": b.keeper if b.keeper >= 0 else None,
                    "boat": b.boat or None,
                    "fields": [{"field": f"{i + 1}.{j + 1}", "kind": str(e.layouts[b.layout].fields[j]),
                                "keyples": [{"colour": k.colour, "standing": k.standing} for k in f]}
                               for j, f in enumerate(b.fields)]} for i, b in enumerate(s.boards)],
        "display": list(s.display), "bag": dict(sorted(s.bag.composition().items())), "bag_size": len(s.bag),
        "discard": list(s.discard), "set_aside": len(s.set_aside), "boats": list(s.boats),
        "boat_goods": {b: list(e.boats[b][SEASONS[s.season]]) for b in s.boats if b in e.boats},
        "score": score,
        "ties": ties(score, [game.holdings(s, seat) for seat in range(len(s.players))], s.options["tiebreak"])
        if score else [],
        "season_end": season_end(s),
        "fair_tiles": fair_tiles(s, player, open_fairs),
    }


def invariant_violations(s: State) -> list[str]:
    out: list[str] = []
    e = s.edition
    n = len(s.players)
    keyples = Counter[str]()
    for p in s.players:
        keyples.update(p.keep)
        keyples.update(k.colour for k in p.keep_tile)
        for plot in (*p.farm, *p.village):
            keyples.update(k.colour for k in plot.keyples)
            if len(plot.keyples) > 2 or len(plot.tiles) > 3:
                out.append(f"{p.name}: a plot holds {len(plot.keyples)} keyples and {len(plot.tiles)} tiles")
    for b in s.boards:
        for j, f in enumerate(b.fields):
            keyples.update(k.colour for k in f)
            if len(f) > 2 or (f and e.layouts[b.layout].fields[j].kind == "keep"):
                out.append(f"board {b.layout} field {j + 1} holds {len(f)} keyples")
    expected = 8 * n + (len(rules.NINTH_POOL) - len(s.ninth_pool) if n == 2 else 0)
    if sum(keyples.values()) != expected:
        out.append(f"{sum(keyples.values())} keyples in play, not {expected}")
    keepers = [b.keeper for b in s.boards if b.keeper >= 0]
    home = [seat for seat, p in enumerate(s.players) if p.keyper_home]
    if sorted(keepers + home) != list(range(n)):
        out.append(f"Keypers: on boards {keepers}, at home {home}")
    tiles = Counter[str]()
    tiles.update(s.bag)
    tiles.update(s.display)
    tiles.update(s.discard)
    tiles.update(s.set_aside)
    for p in s.players:
        tiles.update(t for t in p.unbuilt if e.tiles.get(t) is None or e.tiles[t].set != "home")
        tiles.update(t for plot in (*p.farm, *p.village) for t in plot.tiles if e.tiles[t].set != "home")
        tiles.update(p.winter_fairs)
        tiles.update(f for f, _ in p.held if e.fairs[f].season == "winter")
    country = [t for t, tile in e.tiles.items() if tile.set != "home"]
    wrong = [t for t in country if tiles[t] != 1] + [f for f, fair in e.fairs.items()
                                                    if fair.season == "winter" and tiles[f] > 1]
    if wrong:
        out.append(f"country tiles not exactly once: {sorted(wrong)}")
    if any(x < 0 for p in s.players for x in (*p.goods, *p.animals)) or any(x < 0 for x in s.supply):
        out.append("a negative stock or supply")
    if s.options["limited_supply"] == "yes":
        for i, kind in enumerate((*GOODS, *ANIMALS)):
            held = sum(p.good(kind) for p in s.players)
            if held + s.supply[i] != rules.SUPPLY[kind]:
                out.append(f"{kind}: {held} held + {s.supply[i]} in the supply != {rules.SUPPLY[kind]}")
    if not 0 <= s.season <= 3 or (s.over and s.season != 3):
        out.append(f"season {s.season} (over: {s.over})")
    return out


SEASON_END_STEPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("claim", frozenset()), ("fairs", frozenset({"season_end", "fairs"})), ("housing", frozenset({"housing", "house"})),
    ("collect", frozenset({"collect"})), ("tiles", frozenset({"next_season", "draw"})), ("boats", frozenset({"boats"})),
    ("fold", frozenset({"fold", "reveal"})), ("team_cap", frozenset({"team_cap", "rest"})),
    ("start", frozenset({"begin_play"})),
)
"""Spec 3.5's end-of-season steps in order, each with the tasks that stand for it while it is under way or to come."""
PLAY_TASKS = frozenset({"turn", "use", "follow", "pick", "keeptile", "resolve", "end_turn", "refill"})


def season_end(s: State) -> dict[str, Any] | None:
    """The end-of-season checklist from the trigger (the final lay-down round) until the next season's first piece:
    each step ``done``, ``now``, ``next`` or ``skip`` (winter ends after collecting), with its public result."""
    untouched = s.season > 0 and all(b.keeper < 0 and not any(b.fields) for b in s.boards)
    if not s.final and not s.over and not untouched:
        return None  # from the new season's first piece placed on, until the next trigger
    kinds = {t.kind for t in s.tasks}
    playing = bool(kinds & PLAY_TASKS) and s.final and not s.over
    moved_on = "next_season" not in kinds and "collect" not in kinds and not s.over and not playing \
        and not kinds & {"season_end", "fairs", "housing", "house"}
    season = s.season - 1 if moved_on else s.season
    current = len(SEASON_END_STEPS)
    if playing:
        current = 0
    else:
        for i, (_, stands_for) in enumerate(SEASON_END_STEPS):
            if stands_for & kinds:
                current = i
                break
    collected = current > 3
    steps: list[dict[str, Any]] = []
    for i, (key, _) in enumerate(SEASON_END_STEPS):
        status = "done" if i < current else "now" if i == current else "next"
        if season == 3 and i > 3:
            status = "skip"
        steps.append({"step": key, "status": status})
    names = [p.name for p in s.players]
    results: dict[str, Any] = {
        "claim": [{"seat": seat, "board": (p.claimed if collected else rules.claimed_board(s, seat)) + 1 or None}
                  for seat, p in enumerate(s.players)],
        "fairs": [{"seat": seat, "fairs": [f for f, when in p.held if when == SEASONS[season]]}
                  for seat, p in enumerate(s.players)],
        "housing": [{"seat": seat, "animals": sum(p.animals)} for seat, p in enumerate(s.players)],
        "collect": [{"seat": seat, "home": p.pieces_home} for seat, p in enumerate(s.players)],
        "tiles": list(s.display), "boats": list(s.boats),
        "fold": [{"board": i + 1, "layout": b.layout} for i, b in enumerate(s.boards)],
        "team_cap": [{"seat": seat, "keep": len(p.keep)} for seat, p in enumerate(s.players)],
        "start": {"seat": s.start, "name": names[s.start]},
    }
    for step in steps:
        if step["status"] == "done":
            step["result"] = results[step["step"]]
    return {"season": SEASONS[season], "steps": steps}


def setup_guide(s: State) -> dict[str, Any]:
    """What to lay out once the setup draws are made (spec 2): every piece named, the draws' outcomes (display,
    boats, start player, two players' ninth keyples); the private fairs only as a count (each seat's page shows its
    own)."""
    e = s.edition
    n = len(s.players)
    p0 = s.players[0]
    return {
        "players": n, "data": {"name": e.name, "provisional": list(e.provisional)},
        "boards": [{"board": i + 1, "layout": b.layout} for i, b in enumerate(s.boards)],
        "display": list(s.display), "bag": dict(sorted(s.bag.composition().items())), "bag_size": len(s.bag),
        "set_aside": len(s.set_aside), "boats": list(s.boats), "spare_boats": sorted(set(e.boats) - set(s.boats)),
        "boat_goods": {b: list(sides[SEASONS[s.season]]) for b, sides in e.boats.items()},
        "each_player": {"keyples": list(rules.START_KEYPLES), "home_tiles": list(p0.unbuilt),
                        "goods": {g: c for g, c in zip(GOODS, p0.goods) if c}},
        "ninth": {seat: sorted((Counter(p.keep) - Counter(rules.START_KEYPLES)).elements())
                  for seat, p in enumerate(s.players)} if n == 2 else {},
        "private_fairs": len(SEASONS) - 1, "winter_fairs": len([f for f in e.fairs.values() if f.season == "winter"]),
        "start": s.start,
    }


def follow_offer(s: State, target: str) -> dict[str, Any] | None:
    """Spec 4.3, public: who placed on ``target``, who is still to be asked (in order, the one asked now first) and
    what each gets: alone, or each of the two with a follower (1 or 2, plus the colour bonus)."""
    resolve = next((t for t in s.tasks if t.kind == "resolve" and t.arg == target), None)
    if resolve is None:
        return None
    here = rules.occupants(s, resolve.seat, target) or ()
    extra = rules.bonus(here[0].colour, rules.target_colour(s, target)) if here else 0
    return {"placer": resolve.seat, "colour": here[0].colour if here else None,
            "asked": [t.seat for t in reversed(s.tasks) if t.kind == "follow" and t.arg == target],
            "alone": 1 + extra, "together": 2 + extra}


def fair_tiles(s: State, player: int | None, open_fairs: bool) -> dict[str, dict[str, Any]]:
    """What each fair asks and gives, for the fairs ``player`` may know: every winter fair, every fair held, and
    the private fairs of ``player`` (all of them with ``open_fairs`` or once the game is over)."""
    known = {f for f, fair in s.edition.fairs.items() if fair.season == "winter"}
    known |= {f for p in s.players for f, _ in p.held}
    for seat, p in enumerate(s.players):
        if open_fairs or seat == player:
            known |= {f for f in p.private if f}
    return {f: {"season": fair.season, "requires": dict(fair.requires), "vp": fair.vp,
                "late_requires": dict(fair.late_requires), "late_vp": fair.late_vp}
            for f, fair in sorted(s.edition.fairs.items()) if f in known}
