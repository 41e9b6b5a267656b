"""The data pack: provisional values flagged, a table's own values installed once, bad packs refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.core.errors import MalformedInputError
from companion.core.messages import render
from companion.games.la_granja import LaGranja
from companion.games.la_granja.data import USER_EDITION_FILE, Edition, load_edition
from tests.games.la_granja.table import SHIPPED, edition_with


def test_the_shipped_pack_is_complete_and_says_it_is_provisional() -> None:
    assert len(SHIPPED.cards) == 66 and len(SHIPPED.roofs) == 24 and len(SHIPPED.buildings) == 6
    assert set(SHIPPED.provisional) >= {"cards", "market", "buildings", "siesta", "roof_markers", "prices"}
    raw = SHIPPED.raw
    assert all(raw[section]["provisional"] is True for section in SHIPPED.provisional)
    warning, = LaGranja(SHIPPED).data_warnings()
    assert render(warning).startswith("Some of La Granja's printed values are placeholders (farm cards, market,")
    assert render(warning).endswith("on the Data page.") and "Daten" in render(warning, "de")


def test_a_transcribed_pack_in_the_data_folder_replaces_the_provisional_one(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    raw = json.loads(json.dumps(SHIPPED.raw))
    for section in ("cards", "market", "buildings", "siesta", "roof_markers", "roof_slots", "prices", "donkeys"):
        raw[section]["provisional"] = False
    raw["prices"]["sell"]["grape"] = 2
    raw["name"] = "our box"
    (tmp_path / USER_EDITION_FILE).write_text(json.dumps(raw), "utf-8")
    game = LaGranja()
    assert game.data.name == "our box" and game.data.sell["grape"] == 2
    assert game.data_warnings() == []
    # each game keeps the data it started with
    again = LaGranja().with_edition(game.edition())
    assert again.data.sell["grape"] == 2


@pytest.mark.parametrize(("change", "words"), [
    (lambda raw: raw["cards"]["list"].pop(), "65 cards"),
    (lambda raw: raw["cards"]["list"][0].update(field="rice"), "card 1"),
    (lambda raw: raw["market"].update(start=["M1", "M2", "M3", "M4"]), "central spaces"),
    (lambda raw: raw["roof_markers"]["list"][0].update(effect="fly"), "roof marker R1"),
    (lambda raw: raw["buildings"]["list"].pop(), "six buildings"),
    (lambda raw: raw.pop("prices"), "malformed"),
])
def test_a_damaged_pack_is_refused_with_a_reason(change, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MalformedInputError, match=words):
        edition_with(change)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(MalformedInputError, match="cannot read"):
        load_edition(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", "utf-8")
    with pytest.raises(MalformedInputError, match="not JSON"):
        load_edition(bad)
    with pytest.raises(MalformedInputError):
        Edition.from_json([])


def test_the_data_command_exports_checks_and_installs_a_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["data", "la-granja"]) == 0
    assert "PROVISIONAL" in capsys.readouterr().out
    assert main(["data", "la-granja", "--template"]) == 0
    raw = json.loads(capsys.readouterr().out)
    raw["name"] = "our box"
    raw["siesta"] = {"provisional": False, "vp": [0, 1, 1, 2, 2, 3, 3]}
    pack = tmp_path / "pack.json"
    pack.write_text(json.dumps(raw), "utf-8")
    assert main(["data", "la-granja", str(pack), "--install"]) == 0
    assert "installed" in capsys.readouterr().out
    assert LaGranja().data.name == "our box" and "siesta" not in LaGranja().data.provisional
    broken = tmp_path / "broken.json"
    broken.write_text("{}", "utf-8")
    assert main(["data", "la-granja", str(broken), "--install"]) == 2
    assert "missing key 'cards'" in capsys.readouterr().err
    assert LaGranja().data.name == "our box"     # the installed pack is untouched


def test_grape_to_wine_costs_three_silver_as_the_rulebook_prints() -> None:
    """A-09 (German rulebook L639-646: "Das Aufwerten der Traube vom Feld bzw. aus dem Lager in Wein kostet jeweils
    3 Silber"); the other prices stay provisional until a table transcribes its farm board (D-02, D-03)."""
    assert SHIPPED.upgrade_cost["grape"] == 3
    assert "prices" in SHIPPED.provisional
    assert "A-09" in SHIPPED.raw["prices"]["confirmed"]
    from tests.games.la_granja.table import edit, new_game, refused, task

    game, s = new_game(2)
    s = task(edit(s, 0, silver=3, goods={"grape": 1}), "deliver", 0, 1)
    t = game.play(s, "upgrade grape")
    assert (t.players[0].silver, t.players[0].goods["wine"]) == (0, 1)
    assert refused(game, edit(s, 0, silver=2), "upgrade grape").rule == "4.3.5"


def test_the_installed_file_name_is_the_schemas() -> None:
    from companion.games.la_granja import DATA

    assert DATA.schema.file == USER_EDITION_FILE
