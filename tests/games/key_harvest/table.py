"""Build Key Harvest positions for tests: the spec's toy board T20 and a table builder.

T20 (spec section 12) is a 4 x 5 parallelogram: space ``Rn`` sits at axial ``(n, row)`` with
rows A-D = 0-3, which gives exactly the spec's adjacency table. The made-up tiles of the
examples (8, 17, 23, 31, 44, 52 ...) are the labels ``1`` to ``36`` plus ``44`` and ``52``,
placed apart from T20 and from each other so that each is an isolated space (58 spaces).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.key_harvest import KeyHarvest, rules
from companion.games.key_harvest.board import Crop, Layout
from companion.games.key_harvest.moves import parse_move
from companion.games.key_harvest.state import LABOURERS, Player, State, Stones

T20_ROWS = "ABCD"
CROPS = [c.key for c in Crop]


def t20_layout(crops: Mapping[str, str] | None = None) -> Layout:
    """T20 plus isolated spaces 1-36, 44 and 52; ``crops`` overrides the crop of any label."""
    spaces: list[dict[str, Any]] = []
    for r, row in enumerate(T20_ROWS):
        for n in range(1, 6):
            spaces.append({"label": f"{row}{n}", "at": [n, r], "crop": CROPS[(n + r) % 5]})
    for k in [*range(1, 37), 44, 52]:
        spaces.append({"label": str(k), "at": [2 * k, 10], "crop": CROPS[k % 5]})
    for space in spaces:
        if crops and space["label"] in crops:
            space["crop"] = crops[space["label"]]
    pairs = {"1": "blue", "3": "blue", "2": "purple", "4": "purple", "5": "black", "7": "black", "6": "white", "9": "white"}
    for space in spaces:
        space["start_pair"] = pairs.get(space["label"])
    return Layout.from_json({"name": "T20", "provisional": False, "spaces": spaces})


def stones(spec: Mapping[str, int] | None = None, **named: int) -> Stones:
    counts = [0] * 5
    for name, count in {**(spec or {}), **named}.items():
        counts[Crop.parse(name)] += count
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def table(
    layout: Layout,
    players: Iterable[Mapping[str, Any]],
    options: Mapping[str, str] | None = None,
    **fields: Any,
) -> tuple[KeyHarvest, State]:
    """A started game in a chosen position.

    Each player: ``name``, ``fields`` (labels), ``harvested`` (labels), ``workers``
    ({label: letter}), ``stones`` ({crop: n}), ``warehouse`` ([(label, {crop: n})]).
    Other keyword arguments set ``State`` fields; ``office``, ``bag`` and ``fallow`` take
    labels, ``supply`` a {crop: n} dict (default 12 of each minus what the players hold).
    """
    game = KeyHarvest(layout)
    space = layout.space
    players = list(players)
    built = []
    for p in players:
        workers = tuple(sorted((space(label), letter) for label, letter in p.get("workers", {}).items()))
        placed = "".join(letter for _, letter in workers)
        built.append(Player(
            name=p["name"],
            fields=sum(1 << space(label) for label in p.get("fields", ())),
            harvested=sum(1 << space(label) for label in p.get("harvested", ())),
            workers=workers,
            beside=p.get("beside", "".join(w for w in LABOURERS if w not in placed)),
            warehouse=tuple((space(label), stones(bid)) for label, bid in p.get("warehouse", ())),
            stones=stones(p.get("stones")),
        ))
    held = [sum(p.stones[c] + sum(b[c] for _, b in p.warehouse) for p in built) for c in range(5)]
    supply = fields.pop("supply", None)
    supply_stones = stones(supply) if supply is not None else stones({c: max(0, 12 - h) for c, h in zip(CROPS, held)})
    office = [space(label) for label in fields.pop("office", ())]
    town = fields.pop("town", "".join(w for w in "GHIJKL" if all(w not in p.get("workers", {}).values() for p in players)))
    state = State(
        layout=layout,
        options=game.options(options),
        players=tuple(built),
        supply=supply_stones,
        town=town,
        office=tuple(office + [-1] * (6 - len(office))),
        bag_fields=sum(1 << space(label) for label in fields.pop("bag", ())),
        fallow=sum(1 << space(label) for label in fields.pop("fallow", ())),
        started=True,
    )
    return game, replace(state, **fields)


def play(game: KeyHarvest, state: State, *moves: str) -> State:
    """Play moves checked by the validator (chance moves included, to force outcomes)."""
    for text in moves:
        state = game.play(state, parse_move(text))
    return state


def labels(state: State, mask: int) -> set[str]:
    return set(state.labels(mask))


def legal(game: KeyHarvest, state: State) -> set[str]:
    return {str(m) for m in game.legal_moves(state)}


def t20_at(label: str) -> list[int]:
    """T20 space ``Rn`` as axial coordinates [n, row index], rows A..D = 0..3 (for snapshots)."""
    return [int(label[1:]), T20_ROWS.index(label[0])]


def snap_tile(label: str, crop: str = "wheat", at: list[int] | None = None) -> dict[str, Any]:
    """A snapshot field tile, unharvested, placed on T20 unless ``at`` is given."""
    return {"label": label, "crop": crop, "harvested": False, "at": at if at is not None else t20_at(label)}


def snap_worker(letter: str, label: str) -> dict[str, Any]:
    """A snapshot worker on T20 space ``label``."""
    return {"worker": letter, "at": t20_at(label)}


def fields_of(state: State, seat: int) -> set[str]:
    return labels(state, state.player(seat).fields)


def harvested_of(state: State, seat: int) -> set[str]:
    return labels(state, state.player(seat).harvested)


def workers_of(state: State, seat: int) -> dict[str, str]:
    return {state.label(space): w for space, w in state.player(seat).workers}


__all__ = ["t20_layout", "table", "play", "stones", "labels", "legal", "rules"]
