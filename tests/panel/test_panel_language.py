"""The panel speaks the table's language (issue 13): ``"language"`` in ``panel.json`` (English by default) writes
its refusals, hints and the moves made in that language; each message is also sent as data for a screen that
reads another language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.core.errors import MalformedInputError
from companion.core.messages import Message, render
from companion.session import Session
from firmware_bridge.config import load_config
from firmware_bridge.controller import PanelController
from firmware_bridge.panel import SimulatedPanel
from firmware_bridge.protocol import HOLD


def test_the_panel_config_names_the_tables_language(tmp_path: Path) -> None:
    assert load_config().language == "en"
    file = tmp_path / "panel.json"
    file.write_text(json.dumps({"language": "de"}))
    assert load_config(file).language == "de"
    file.write_text(json.dumps({"language": "fr"}))
    with pytest.raises(MalformedInputError, match="language 'fr' is not one of en, de"):
        load_config(file)


def test_a_german_panel_refuses_hints_and_takes_back_in_german(session: Session) -> None:
    control = PanelController([SimulatedPanel()], language="de")
    assert control.press("DRAW")["text"] == "auf dem Tablet ist kein Spiel geöffnet"
    control.follow(session)
    refused = control.press("DRAW")
    assert refused == {"ok": False, "button": "DRAW", "text": "gerade wird nichts gezogen: Alice ist am Zug",
                       "message": refused["message"]}
    assert render(Message.from_json(refused["message"]), "en") == "nothing waits for a draw now: it is Alice's turn"
    assert control.press("OK")["text"] == "wählt zuerst einen Zug auf dem Tablet, dann OK drücken"
    assert control.press("UNDO")["text"] == "UNDO 1 s gedrückt halten, um den letzten Zug zurückzunehmen"
    assert control.press("NEXT")["ok"]
    took_back = control.press("UNDO", HOLD)["text"]
    assert took_back.startswith("zurückgenommen: Alice") and "End your turn" not in took_back
