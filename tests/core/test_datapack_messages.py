"""A data pack that does not fit its schema is refused with a message (issue 13): the same clear English as
before, and German for the tablet's /data page and ``companion data`` under a German ``LANG``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.datapack import parse_json
from companion.core.errors import MalformedInputError
from companion.core.messages import Message, render
from companion.games.la_granja import DATA as LG


def refusal(change: dict[str, object]) -> MalformedInputError:
    raw = copy.deepcopy(LG.shipped())
    raw["cards"]["list"][2]["cart"].update(change)
    with pytest.raises(MalformedInputError) as refused:
        LG.schema.check(raw)
    return refused.value


def test_a_wrong_value_names_section_row_and_field_in_english_and_german() -> None:
    error = refusal({"vp": "4"})
    assert isinstance(error.text, Message) and error.text.id == "core.data.wrong_type"
    assert str(error) == ("La Granja data pack, section 'cards': card 3: cart VP (cart.vp) must be a whole number, "
                          "not '4'")
    assert render(error.text, "de") == ("Datenpaket La Granja, Abschnitt 'cards': card 3: cart VP (cart.vp) muss eine "
                                        "ganze Zahl sein, nicht '4'")


def test_a_file_that_is_not_json_is_named_with_its_line_in_german() -> None:
    with pytest.raises(MalformedInputError) as refused:
        parse_json('{"name": "x",\n', "ours.json")
    assert str(refused.value).startswith("ours.json is not JSON: ")
    assert render(refused.value.text, "de").startswith("ours.json ist kein JSON: ")
    assert "in Zeile 2" in render(refused.value.text, "de")


def test_the_data_command_refuses_in_the_terminals_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path))
    raw = copy.deepcopy(LG.shipped())
    raw["siesta"]["provisional"] = "yes"
    file = tmp_path / "ours.json"
    file.write_text(json.dumps(raw))
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    assert main(["data", "la-granja", str(file)]) == 2
    err = capsys.readouterr().err
    assert "Datenpaket La Granja, Abschnitt 'siesta': \"provisional\" muss true oder false sein" in err
    assert "must be" not in err


def test_a_damaged_installed_file_is_named_in_german_on_the_data_page(tmp_path: Path) -> None:
    """``InUse.damaged`` (what /data shows with ``say``) is the refusal's message."""
    (tmp_path / LG.schema.file).write_text('{"name": ')
    use = LG.in_use(tmp_path)
    assert use.path is None and isinstance(use.damaged, Message)
    assert render(use.damaged, "de").startswith(f"{tmp_path / LG.schema.file} ist kein JSON: ")
