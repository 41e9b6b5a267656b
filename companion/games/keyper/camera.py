"""Keyper at the camera: its code stickers and one player board read off them into a snapshot
(docs/keyper-snapshot.md, "From a photo"). Where the plots lie on a player board is printed, not in the text:
``data/camera.json`` (provisional). The geometry is ``companion.vision.printed``'s; what the pieces mean is here.

=================================  ===========================================  =====================
Code                               Component                                    Kind
=================================  ===========================================  =====================
``KP:P:<set>:<1-4>``               player board of set 1-4, corner anchor       ``board``
``KP:H:<set>:<TILE>:<B|U>``        home tile of set 1-4, base or upgraded side  ``home``
``KP:C:<TILE>:<B|U>``              country tile, base or upgraded side          ``country``
``KP:B:<boat>:<S|A>``              boat, spring/summer or autumn/winter side    ``boat``
``KP:W:<fair>:<E|L>``              winter fair, spring/summer or autumn/winter  ``winter_fair``
``KP:F:<fair>``                    private fair (its face)                      ``fair``
=================================  ===========================================  =====================

Marker IDs are the registry's ``markers`` list for Keyper, taken in this order (tiles and boats by their ids
sorted, private fairs last so that a pack with more of them moves nothing else).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any

from companion.codes.registry import Component
from companion.core.boards import BoardPhoto
from companion.core.errors import MalformedInputError
from companion.core.messages import Text, msg
from companion.games.keyper.data import ANIMALS, GOODS, KEYPLE_COLOURS, SEASONS, Edition
from companion.vision.printed import Frame, PrintedBoardReader, Spot

if TYPE_CHECKING:
    from companion.games.keyper import Keyper
    from companion.games.keyper.state import State

GAME = "keyper"
TILE_KINDS = frozenset({"home", "country"})
FAIR_KINDS = frozenset({"fair", "winter_fair"})


def geometry() -> dict[str, Any]:
    """The player board's printed geometry (``data/camera.json``, provisional)."""
    data: dict[str, Any] = json.loads(resources.files("companion.games.keyper").joinpath("data", "camera.json")
                                      .read_text(encoding="utf-8"))
    return data


def stickers(spec: Mapping[str, Any], edition: Edition) -> list[Component]:
    """Keyper's components as ``spec`` (its entry in the code registry) allocates and sizes them."""
    prefix, markers = str(spec["prefix"]), [int(m) for m in spec["markers"]]
    made: list[Component] = []

    def make(code: str, kind: str, key: str, title: str, part: Mapping[str, Any], side: str | None = None,
             group: int | None = None) -> None:
        if len(made) >= len(markers):
            raise MalformedInputError(f"code registry: more Keyper stickers than its {len(markers)} marker IDs")
        made.append(Component(f"{prefix}:{code}", markers[len(made)], GAME, kind, key, side, group, title,
                              float(part["sticker_mm"]), float(part["component_mm"]),
                              bool(part.get("provisional", True))))

    board, tile, boat, fair = spec["board"], spec["tile"], spec["boat"], spec["fair"]
    for s in range(1, int(board["sets"]) + 1):
        for corner in range(1, int(board["corners"]) + 1):
            make(f"P:{s}:{corner}", "board", str(corner), f"player board {s} corner {corner}", board, group=s)
    home = sorted(t.id for t in edition.tiles.values() if t.set == "home")
    for s in range(1, int(spec["home_tile"]["sets"]) + 1):
        for tile_id in home:
            for letter, side in tile["sides"].items():
                make(f"H:{s}:{tile_id.upper()}:{letter}", "home", tile_id,
                     f"{edition.tiles[tile_id].name} {letter} set {s}", tile, side, s)
    for tile_id in sorted(t.id for t in edition.tiles.values() if t.set != "home"):
        for letter, side in tile["sides"].items():
            make(f"C:{tile_id.upper()}:{letter}", "country", tile_id, f"{edition.tiles[tile_id].name} {letter}", tile,
                 side)
    for boat_id in sorted(edition.boats):
        for letter, side in boat["sides"].items():
            make(f"B:{boat_id.upper()}:{letter}", "boat", boat_id, f"boat {boat_id} {letter}", boat, side)
    for fair_id in sorted(f.id for f in edition.fairs.values() if f.season == "winter"):
        for letter, side in fair["winter_sides"].items():
            make(f"W:{fair_id.upper()}:{letter}", "winter_fair", fair_id, f"winter fair {fair_id} {letter}", fair, side)
    private = sorted(f.id for f in edition.fairs.values() if f.season != "winter")
    if len(private) > int(fair["private_slots"]):
        raise MalformedInputError(f"code registry: at most {fair['private_slots']} private fairs, not {len(private)}")
    for fair_id in private:
        make(f"F:{fair_id.upper()}", "fair", fair_id, f"{edition.fairs[fair_id].season} fair {fair_id}", fair)
    return made


class KeyperBoards(PrintedBoardReader):
    """One player board per photo, found by its four corner stickers: the top tile of each farm and village plot
    (side up as photographed) and the fairs on the fair spaces. Stores, animals, keyples and the shipping track
    carry no stickers: they are given by hand (``--hidden``), as is a tile covered by an overbuild."""

    game = GAME
    tile_kinds = TILE_KINDS
    standing_kinds = FAIR_KINDS
    reported = {"boat": "kp.camera.boat_beside"}
    hidden_name = "pieces"
    hidden_note = ("a camera cannot count the stores, animals, keyples and the shipping track, nor see a tile under "
                   "an overbuild; give them with --hidden NAME:emerald=2,cow=3,white=1,shipping=12,V8=drainage")
    score_sources = (("shipping", "kp.camera.source.shipping"), ("farm", "kp.camera.source.farm"),
                     ("village", "kp.camera.source.village"), ("fairs", "kp.camera.source.fairs"))
    difference_ids = {"tiles_only_on_photo": "kp.camera.only_photo", "tiles_only_in_game": "kp.camera.only_game",
                      "tiles_other_side_up": "kp.camera.other_side", "tiles_on_another_plot": "kp.camera.other_plot",
                      "fairs_only_on_photo": "kp.camera.fairs_photo", "fairs_only_in_game": "kp.camera.fairs_game"}
    summary_id = "kp.camera.summary"
    alone_note_id = "kp.camera.alone_note"
    not_found = msg("kp.camera.no_board")

    def __init__(self, rules: Keyper) -> None:
        self.rules = rules

    @cached_property
    def _frames(self) -> tuple[Frame, ...]:
        g = geometry()
        edition = self.rules.data
        pitch = float(g["plot_pitch_mm"])
        half = pitch / 2  # a plot's space reaches halfway to the next
        spots: list[Spot] = []
        for area, letter in (("farm", "F"), ("village", "V")):
            rows, columns = edition.grid(area)
            x0, y0 = (float(v) for v in g[f"{area}_first_plot_mm"])
            for n in range(rows * columns):
                centre = (x0 + (n % columns) * pitch, y0 + (n // columns) * pitch)
                spots.append(Spot(f"{letter}{n + 1}", centre, (half, half), TILE_KINDS))
        for season in SEASONS:
            x, y = (float(v) for v in g["fair_spaces_mm"][season])
            spots.append(Spot(season, (x, y), (half, half), FAIR_KINDS))
        size = (float(g["board_mm"][0]), float(g["board_mm"][1]))
        corners = {str(k): (float(v[0]), float(v[1])) for k, v in g["anchors_mm"].items()}
        sets = self._sets()
        return tuple(Frame(str(s), {f"KP:P:{s}:{c}": p for c, p in corners.items()}, tuple(spots), size)
                     for s in sets)

    def _sets(self) -> range:
        from companion.codes.registry import registry_data

        return range(1, int(registry_data()["games"][GAME]["board"]["sets"]) + 1)

    def frames(self) -> Sequence[Frame]:
        return self._frames

    def belongs(self, component: Component, frame: int) -> Text | None:
        """A home tile of another set is another player's: not placed on this board."""
        own = int(self._frames[frame].name)
        if component.kind == "home" and component.group != own:
            return msg("kp.camera.home_other_set", set=str(component.group), own=str(own))
        return None

    def player(self, name: str, board: BoardPhoto, hidden: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The board as one player of a snapshot; ``hidden``: what ``parse_hidden`` read (stores, animals, keyples,
        shipping, a country board, the tiles under overbuilds by plot)."""
        given = dict(hidden or {})
        under: dict[str, str] = dict(given.pop("under", {}))
        built = []
        for piece in sorted(board.tiles, key=lambda p: p.at):
            plot = self.spot(piece.at)[1].label
            entry = {"tile": piece.key, "plot": plot, "side": "upgraded" if piece.side == "upgraded" else "base"}
            if plot in under:
                entry["under"] = under.pop(plot)
            built.append(entry)
        if under:
            plot = sorted(under)[0]
            raise MalformedInputError(msg("kp.camera.under_empty", name=name, plot=plot, tile=under[plot]))
        fairs = [{"fair": p.key, "season": self.spot(p.at)[1].label} for p in sorted(board.workers, key=lambda p: p.at)]
        return {"name": name, "built": built, "fairs": fairs, **given}

    def snapshot(self, players: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return {"game": GAME, "players": list(players)}

    def parse_hidden(self, text: str) -> dict[str, Any]:
        """``emerald=2,cow=3,white=1,shipping=12,board=2/winter/B,V8=drainage``: counts of goods, animals and keyples
        by colour, the shipping track, the country board claimed in winter, and the tile under each overbuilt plot."""
        edition = self.rules.data
        out: dict[str, Any] = {}
        for pair in (p.strip() for p in text.split(",") if p.strip()):
            key, _, value = (part.strip() for part in pair.partition("="))
            key, plot = key.lower(), key.upper()
            if plot[:1] in ("F", "V") and plot[1:].isdigit():
                if value not in edition.tiles:
                    raise MalformedInputError(msg("kp.camera.hidden_tile", plot=plot, tile=value))
                out.setdefault("under", {})[plot] = value
            elif key == "board":
                out["board"] = value
            elif not value.isdigit():
                raise MalformedInputError(msg("kp.camera.hidden_count", pair=pair))
            elif key == "shipping":
                out["shipping"] = int(value)
            else:
                group = next((g for g, names in (("goods", GOODS), ("animals", ANIMALS), ("keyples", KEYPLE_COLOURS))
                              if key in names), None)
                if group is None:
                    raise MalformedInputError(msg("kp.camera.hidden_key", key=key))
                out.setdefault(group, {})[key] = int(value)
        return out

    def compare(self, board: BoardPhoto, state: State, seat: int) -> tuple[dict[str, Any], dict[str, list[str]],
                                                                            dict[str, Any]]:
        """The seat's board as photographed with the game's stores, and what differs from the game's board."""
        table = table_snapshot(self.rules, state)
        mine = table["players"][seat]
        photo = self.player(mine["name"], board, {k: v for k, v in mine.items() if k not in ("name", "built", "fairs")})
        table["players"][seat] = photo
        return photo, _disagreements(photo, mine), table

    def screened(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """Everything a Keyper score counts lies open on the table; only the rank waits for the end."""
        return {**row, "rank": None, "winner": None}


def table_snapshot(rules: Keyper, state: State) -> dict[str, Any]:
    """The game as a snapshot (docs/keyper-snapshot.md): every player's top tiles, stores, fairs held."""
    players = []
    for seat, p in enumerate(state.players):
        held = rules.holdings(state, seat)
        players.append({
            "name": held.name,
            "built": [{"tile": b.tile, "plot": f"{'F' if b.area == 'farm' else 'V'}{b.plot}",
                       "side": "upgraded" if b.upgraded else "base"} for b in held.built],
            "fairs": [{"fair": fair, "season": season} for fair, season in p.held],
            "goods": {k: v for k, v in held.goods.items() if v}, "animals": {k: v for k, v in held.animals.items() if v},
            "keyples": dict(held.keyples), "shipping": held.shipping, "field_colours": dict(held.field_colours),
        })
    return {"game": GAME, "tiebreak": state.options["tiebreak"], "players": players}


def _disagreements(photo: Mapping[str, Any], tracked: Mapping[str, Any]) -> dict[str, list[str]]:
    """Tiles and fairs on the photo that the game's board does not have, the other way round, other side, other
    plot."""
    seen = {b["tile"]: b for b in photo["built"]}
    kept = {b["tile"]: b for b in tracked["built"]}
    both = set(seen) & set(kept)
    seen_fairs = {f["fair"] for f in photo["fairs"]}
    kept_fairs = {f["fair"] for f in tracked["fairs"]}
    return {
        "tiles_only_on_photo": sorted(set(seen) - set(kept)),
        "tiles_only_in_game": sorted(set(kept) - set(seen)),
        "tiles_other_side_up": sorted(t for t in both if seen[t]["side"] != kept[t]["side"]),
        "tiles_on_another_plot": sorted(t for t in both if seen[t]["plot"] != kept[t]["plot"]),
        "fairs_only_on_photo": sorted(seen_fairs - kept_fairs),
        "fairs_only_in_game": sorted(kept_fairs - seen_fairs),
    }
