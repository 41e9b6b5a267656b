"""Printed data as data packs: each game's schema, the check against it, old files converted, one command."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import companion.games as registry
from companion.cli import main
from companion.core.datapack import DataPack
from companion.core.errors import MalformedInputError, UnknownGameError
from companion.games import find_game, games
from companion.games.key_harvest import DATA as KH, USER_LAYOUT_FILE, KeyHarvest
from companion.games.key_harvest.board import load_layout
from companion.games.la_granja import DATA as LG
from companion.session import Session
from companion.store import GameStore
from tests.core.toy_game import OverTheTop
from tests.games.key_harvest.table import t20_layout


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data folder, and a fresh registry whose games read it."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(folder))
    monkeypatch.setattr(registry, "GAMES", {})
    return folder


def changed(pack: DataPack[Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    raw = copy.deepcopy(pack.shipped())
    change(raw)
    return raw


def test_every_registered_game_ships_a_pack_that_passes_its_own_schema_or_declares_none() -> None:
    found = games()
    assert {game.name for game in found} >= {"key-harvest", "la-granja"}
    for game in found:
        pack = game.data_pack()
        if pack is None:
            continue
        raw = pack.shipped()
        pack.schema.check(raw)
        assert type(pack.load(raw)) is type(game)
        assert all("provisional" in raw[s.name] and "source" in raw[s.name] for s in pack.schema.sections
                   if s.name in raw), game.name  # every section says whether it is checked, and where it comes from
        assert game.with_data(raw).data_warnings() == game.data_warnings()


@pytest.mark.parametrize(("pack", "change", "reason"), [
    (LG, lambda raw: raw["cards"]["list"][2]["cart"].update(vp="4"),
     "section 'cards': card 3: cart VP (cart.vp) must be a whole number, not '4'"),
    (LG, lambda raw: raw.pop("market"), "missing key 'market' (a section)"),
    (LG, lambda raw: raw["roof_markers"]["list"][7].update(phase="dinner"),
     "roof marker R8 has an unknown phase 'dinner'; expected one of null, farm, yield, transport, scoring"),
    (LG, lambda raw: raw["siesta"].update(provisional="no"), "\"provisional\" must be true or false"),
    (LG, lambda raw: raw.update(farms={}), "unknown key 'farms'"),
    (KH, lambda raw: raw["layout"]["spaces"][4].update(crop="rice"),
     "section 'layout': space A5 has an unknown crop 'rice'; expected one of hops, vegetables, apples, wine, wheat"),
    (KH, lambda raw: raw["layout"]["spaces"][0].update(at=["0", 0]), "space A1: position q (at.0) must be a whole number"),
    (KH, lambda raw: raw.pop("layout"), "missing key 'layout'"),
])
def test_a_pack_that_does_not_fit_its_schema_is_refused_naming_the_place_and_nothing_is_installed(
        data_dir: Path, pack: DataPack[Any], change: Callable[[dict[str, Any]], object], reason: str) -> None:
    with pytest.raises(MalformedInputError) as refused:
        pack.install(changed(pack, change), data_dir)
    assert reason in str(refused.value)
    assert list(data_dir.iterdir()) == []  # no file, no temp file
    assert pack.in_use(data_dir).path is None


# ------------------------------------------------------------------ old Key Harvest layouts


def test_an_installed_old_layout_file_is_converted_once_and_kept(data_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    old = data_dir / USER_LAYOUT_FILE
    old.write_text(json.dumps(t20_layout().to_json()))
    assert main(["data", "key-harvest"]) == 0
    out, err = capsys.readouterr()
    assert "'T20'" in out and "transcribed" in out
    assert f"converted {old}" in err and "key-harvest-data.json" in err
    assert not old.exists() and (data_dir / f"{USER_LAYOUT_FILE}.old").exists()
    pack = json.loads((data_dir / "key-harvest-data.json").read_text())
    assert pack["name"] == "T20" and pack["layout"]["provisional"] is False
    assert KeyHarvest().layout == t20_layout()
    assert main(["data", "key-harvest"]) == 0 and "converted" not in capsys.readouterr().err  # only once


def test_a_damaged_old_layout_file_is_named_and_the_shipped_board_shown(data_dir: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    (data_dir / USER_LAYOUT_FILE).write_text("{ not json")
    assert main(["data", "key-harvest"]) == 0
    out, err = capsys.readouterr()
    assert "PROVISIONAL: layout" in out and "key-harvest-layout.json" in err and "not JSON" in err
    with pytest.raises(MalformedInputError, match="not JSON"):  # a new game does not silently use the placeholder
        KeyHarvest().with_installed_data(data_dir)
    KH.restore(data_dir)
    assert KeyHarvest().with_installed_data(data_dir).layout.provisional


def test_an_old_layout_file_written_after_the_pack_replaces_it(data_dir: Path) -> None:
    """An older companion (or tool) that writes key-harvest-layout.json after the pack was installed wins: it was
    the table's last word."""
    KeyHarvest().install_data(KH.shipped() | {"name": "first"}, data_dir)
    (data_dir / USER_LAYOUT_FILE).write_text(json.dumps(t20_layout().to_json()))
    assert KeyHarvest().with_installed_data(data_dir).layout == t20_layout()
    (data_dir / USER_LAYOUT_FILE).write_text(json.dumps({"spaces": "none"}))  # damaged: named, never skipped
    use = KH.in_use(data_dir)
    assert use.path is not None and use.damaged is not None and "key-harvest-layout.json" in str(use.damaged)
    with pytest.raises(MalformedInputError, match="key-harvest-layout.json"):
        KeyHarvest().with_installed_data(data_dir)


def test_an_old_format_layout_is_still_read_everywhere(data_dir: Path, tmp_path: Path) -> None:
    old = t20_layout().to_json()
    assert KeyHarvest().with_data(old).layout == t20_layout()  # what the camera hands over
    path = KeyHarvest().install_data(old, data_dir)
    assert path.name == "key-harvest-data.json" and "layout" in json.loads(path.read_text())
    file = tmp_path / "old.json"
    file.write_text(json.dumps(old))
    assert load_layout(file) == load_layout(path) == t20_layout()


def test_a_game_stored_with_an_old_layout_edition_replays_on_it(data_dir: Path) -> None:
    old = {"layout": t20_layout().to_json()}  # the edition every stored Key Harvest game has
    with GameStore(data_dir / "games.sqlite3") as store:
        game_id = store.create("key-harvest", ["Ana", "Ben"], {}, "a seed", old, notation=KeyHarvest.notation)
        reopened = Session.open(store, game_id)
        assert reopened.game.layout == t20_layout() and reopened.state.layout == t20_layout()
        assert reopened.game.edition() == old  # and it stays stored as it was


# ------------------------------------------------------------------ one command for every game


@pytest.mark.parametrize(("game", "section"), [("key-harvest", "layout"), ("la-granja", "siesta")])
def test_the_data_command_shows_exports_checks_and_installs_any_games_pack(
        game: str, section: str, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", game]) == 0
    assert "PROVISIONAL" in capsys.readouterr().out
    assert main(["data", game, "--template"]) == 0
    raw = json.loads(capsys.readouterr().out)
    raw["name"] = "our box"
    raw[section]["provisional"] = False
    file = tmp_path / "ours.json"
    file.write_text(json.dumps(raw))
    assert main(["data", game, str(file)]) == 0
    assert "'our box'" in capsys.readouterr().out and list(data_dir.iterdir()) == []  # checked only
    assert main(["data", game, str(file), "--install"]) == 0
    assert "installed" in capsys.readouterr().out
    assert section not in find_game(game).data_pack().provisional(  # type: ignore[union-attr]
        find_game(game).data_pack().in_use(data_dir).raw)  # type: ignore[union-attr]

    raw[section]["provisional"] = "yes"
    file.write_text(json.dumps(raw))
    before = {path.name: path.read_bytes() for path in data_dir.iterdir()}
    assert main(["data", game, str(file), "--install"]) == 2
    assert "\"provisional\" must be true or false" in capsys.readouterr().err
    assert {path.name: path.read_bytes() for path in data_dir.iterdir()} == before
    assert main(["data", game, "--install"]) == 2
    assert "--install needs a data pack FILE" in capsys.readouterr().err


def test_the_data_command_names_a_game_without_printed_data(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", OverTheTop())
    assert main(["data", "toy"]) == 2
    assert "has no printed data" in capsys.readouterr().err
    assert main(["data", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    with pytest.raises(UnknownGameError):
        OverTheTop().install_data({}, Path("."))


def test_the_layout_command_is_gone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["layout"]) == 2
    assert "invalid choice: 'layout'" in capsys.readouterr().err
