"""Messages as data (companion/core/messages.py): an identifier and parameters, rendered from the catalogs."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core import messages
from companion.core.errors import IllegalMoveError
from companion.core.messages import Message, msg, render


def test_a_message_renders_in_each_language_with_its_plural() -> None:
    assert render(msg("core.refuse.screen"), "en") == "Not possible: check your screen."
    assert render(msg("core.refuse.screen"), "de-AT") == "Nicht möglich: Schau auf deinen Bildschirm."
    assert [render(msg("core.count.moves_left", n=n), "en") for n in (1, 2)] == ["1 move left", "2 moves left"]
    assert [render(msg("core.count.moves_left", n=n), "de") for n in (1, 2)] == ["noch 1 Zug", "noch 2 Züge"]


def test_an_unknown_language_falls_back_to_english_and_plain_text_stays_as_it_is() -> None:
    assert render(msg("core.refuse.screen"), "fr") == "Not possible: check your screen."
    assert render("play A C4", "de") == "play A C4"


def test_messages_travel_as_json_nested_ones_included() -> None:
    nested = msg("core.count.moves_left", n=2, why=msg("core.refuse.screen"), labels=["C4", msg("core.refuse.screen")])
    assert Message.from_json(nested.to_json()) == nested
    assert nested.to_json()["params"]["why"] == {"id": "core.refuse.screen", "params": {}}


def test_a_refusal_keeps_its_message_and_its_english(tmp_path: Path) -> None:
    error = IllegalMoveError("R-B1", msg("core.refuse.screen"), "play A C4")
    assert error.reason == "Not possible: check your screen." and isinstance(error.text, Message)
    assert error.to_dict()["message"] == {"id": "core.refuse.screen", "params": {}}
    assert "message" not in IllegalMoveError("R-B1", "plain", "x").to_dict()


def test_an_identifier_defined_twice_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "en.po").write_text('msgid "core.refuse.screen"\nmsgstr "again"\n', encoding="utf-8")
    monkeypatch.setattr(messages, "_FOLDERS", [*messages._FOLDERS, tmp_path])
    monkeypatch.setattr(messages, "_CATALOGS", {})
    with pytest.raises(ValueError, match="defined twice"):
        messages.catalogs()
