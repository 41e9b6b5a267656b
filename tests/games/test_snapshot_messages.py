"""A table snapshot that cannot be read is refused with a message (issue 13): the English as before, German for
the camera page and ``companion score`` under a German ``LANG``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.errors import MalformedInputError
from companion.core.messages import Message, render
from companion.games import find_game


def refused(game: str, snapshot: object) -> MalformedInputError:
    with pytest.raises(MalformedInputError) as error:
        find_game(game).score_snapshot(snapshot)
    assert isinstance(error.value.text, Message)
    return error.value


def test_key_harvest_names_the_place_and_the_fault_in_both_languages() -> None:
    player = {"name": "Ana", "tiles": [], "workers": [{"worker": "Q", "at": [0, 0]}], "stones": {}}
    error = refused("key-harvest", {"game": "key-harvest", "players": [player, {**player, "name": "Ben"}]})
    assert str(error) == "players[0].workers[0]: worker 'Q' is not a letter A to L"
    assert render(error.text, "de") == "players[0].workers[0]: Arbeiter 'Q' ist kein Buchstabe von A bis L"
    too_many = refused("key-harvest", {"game": "key-harvest", "players": [player] * 5})
    assert render(too_many.text, "de") == "players: Key Harvest ist für 2 bis 4 Spieler (oder ein Tableau allein), nicht 5"


def test_la_granja_names_the_player_and_the_value_in_both_languages() -> None:
    error = refused("la-granja", {"players": [{"name": "Ana", "silver": -1}]})
    assert str(error) == "Ana's silver must be a whole number of at least 0, not -1"
    assert render(error.text, "de") == "silver von Ana muss eine ganze Zahl ab 0 sein, nicht -1"
    error = refused("la-granja", {"players": [{}], "sell": {"gold": 3}})
    assert render(error.text, "de") == "\"sell\" nennt Preise für olive, grain, grape, pig, nicht für 'gold'"


def test_the_score_command_refuses_in_the_terminals_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "table.json"
    file.write_text(json.dumps({"game": "chess", "players": []}))
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    assert main(["score", "la-granja", str(file)]) == 2
    err = capsys.readouterr().err
    assert "dieser Schnappschuss ist für 'chess', nicht für la-granja" in err
