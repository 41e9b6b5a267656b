"""The pages' strings come from the message catalogs: every key a page or script uses is there in English and
German with the same placeholders; /i18n/<language>.json serves them, before pairing too; the browser renders
a message (plural, nested, list) exactly as Python's ``render``; messages in API answers are data."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.core.messages import Message, catalogs, msg, render
from companion.games import find_game, games
from tests.web.apikit import claim_seat, offered, seat_offered
from web.messages import add_web_catalogs, dumps

WEB = Path(__file__).resolve().parents[2] / "web"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ATTRIBUTES = {"data-i18n": "", "data-i18n-placeholder": "", "data-i18n-aria-label": "", "data-cam": "camera.",
              "data-cam-alt": "camera.", "data-t": "data."}
"""The attributes a page names a string with, and the prefix of its key."""
CALLS = {"camera.js": (r"\bs\(", "camera."), "data_forms.js": (r"\bt\(", "data."), "panel.js": (r"\bt\(", "panel.")}
"""Scripts with their own short name for t: the call and the prefix of its keys (every other script calls t)."""


def page_keys(html: str) -> set[str]:
    return {prefix + key for attribute, prefix in ATTRIBUTES.items()
            for key in re.findall(rf'\s{attribute}="([\w.-]+)"', html)}


def script_keys() -> set[str]:
    """The literal keys the scripts pass to t (a key built at run time is covered by the catalogs' own checks)."""
    found: set[str] = set()
    for script in [*(WEB / "static" / "js").glob("*.js"), *(WEB / "games").rglob("*.js")]:
        call, prefix = CALLS.get(script.name, (r"\bt\(", ""))
        found |= {prefix + key for key in re.findall(call + r"""["`]([\w.-]+)["`]""", script.read_text())}
    return found


def texts(entry: str | tuple[str, ...]) -> tuple[str, ...]:
    return entry if isinstance(entry, tuple) else (entry,)


@pytest.fixture(autouse=True)
def web_catalogs() -> None:
    add_web_catalogs()


def placeholders(entry: str | tuple[str, ...]) -> set[str]:
    return {name for text in texts(entry) for name in PLACEHOLDER.findall(text)}


def test_every_key_the_pages_use_is_in_english_and_german(client: FlaskClient, game: dict[str, Any]) -> None:
    seat = claim_seat(client, game["id"], 0)["page"]
    paths = ["/", f"/games/{game['id']}", f"/games/{game['id']}/setup", seat, "/games/no-such-game", "/pair",
             "/camera", "/panel", "/data", "/data/key-harvest/layout", "/data/la-granja/cards"]
    used = {key for path in paths for key in page_keys(client.get(path).get_data(as_text=True))} | script_keys()
    assert len(used) > 300
    english, german = catalogs()["en"].messages, catalogs()["de"].messages
    for language in (english, german):
        assert sorted(key for key in used if f"ui.{key}" not in language) == []


def test_german_has_every_browser_string_with_the_same_placeholders() -> None:
    english, german = catalogs()["en"].messages, catalogs()["de"].messages
    ours = {key for key in english.keys() | german.keys() if key.startswith("ui.")}
    assert sorted(ours - english.keys()) == [] and sorted(ours - german.keys()) == []
    assert [key for key in ours if placeholders(english[key]) != placeholders(german[key])] == []
    assert [key for key in ours if len(texts(english[key])) != len(texts(german[key]))] == []


def test_every_house_rule_is_named_in_german(client: FlaskClient) -> None:
    """The new-game form's variant flags: name and every choice (the spec's English is only a fallback); the help is
    the game's own message, in both languages."""
    german = catalogs()["de"].messages
    missing = [f"{game.name}: {option.name}.{part}" for game in games() for option in game.option_specs
               for part in ("label", *(f"choice.{choice}" for choice in option.choices))
               if f"ui.variants.{option.name}.{part}" not in german]
    assert missing == []
    helps = [option.help for game in games() for option in game.option_specs]
    assert all(isinstance(help, Message) and help.id in german for help in helps)


def test_counts_have_plural_forms() -> None:
    assert render(msg("ui.bag_fields", n=1), "en") == "1 field tile"
    assert render(msg("ui.bag_fields", n=3), "en") == "3 field tiles"
    assert render(msg("ui.lg_waiting.take", name="Ana", n=1), "de") == "Ana nimmt 1 Ware."
    assert render(msg("ui.lg_waiting.take", name="Ana", n=2), "de") == "Ana nimmt 2 Waren."


def test_the_catalog_is_served_to_unpaired_devices_and_cached_by_etag(app: Flask) -> None:
    lan = app.test_client()
    lan.environ_base.update({"REMOTE_ADDR": "192.168.1.23"})  # not paired: like the pairing page's script
    answer = lan.get("/i18n/de.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    data = answer.get_json()
    assert data["language"] == "de" and data["plural"] == "(n != 1)"
    assert data["messages"]["ui.crops.wine"] == "Wein" and data["messages"]["core.count.moves_left"] == [
        "noch {n} Zug", "noch {n} Züge"]
    assert lan.get("/i18n/de.json", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    assert lan.get("/i18n/fr.json").status_code == 404


def test_server_pages_speak_the_requests_language(client: FlaskClient) -> None:
    assert '<html lang="de">' in client.get("/?lang=de").get_data(as_text=True)
    assert '<html lang="de">' in client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9"}).get_data(as_text=True)
    client.set_cookie("lang", "de")
    assert "Keydom Companion braucht JavaScript." in client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in client.get("/?lang=en").get_data(as_text=True)


def test_messages_in_answers_and_streams_are_data(app: Flask) -> None:
    message = msg("core.count.moves_left", n=2)
    with app.app_context():
        assert json.loads(app.json.dumps({"log": [message]})) == {"log": [message.to_json()]}
    assert json.loads(dumps({"warning": message})) == {"warning": {"id": "core.count.moves_left", "params": {"n": 2}}}


SAMPLES = [
    msg("ui.bag_fields", n=1),
    msg("ui.bag_fields", n=4),
    msg("core.count.moves_left", n=1),
    msg("ui.error_refused", move="bid F6 wheat", reason=msg("core.count.moves_left", n=3)),
    msg("ui.set_aside", events=[msg("ui.events.M"), msg("ui.events.P"), "Z"]),
    msg("ui.turn_of"),  # a missing parameter: the text as it is
    msg("no.such.message"),
]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_browser_renders_messages_like_python(server: int, browser: Any, language: str) -> None:
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{server}/?lang={language}")
    rendered = page.evaluate("""async (messages) => {
        const { render, say } = await import("/static/js/i18n.js");
        return [...messages.map(render), say("plain text"), say(messages[0])];
    }""", [m.to_json() for m in SAMPLES])
    expected = [render(Message.from_json(m.to_json()), language) for m in SAMPLES]
    assert rendered == [*expected, "plain text", expected[0]]
    assert expected[3].endswith("3 Züge") if language == "de" else expected[3].endswith("3 moves left")


def test_offered_moves_come_with_their_words(client: FlaskClient, game: dict[str, Any],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's moves and a seat's each carry what they do in words (``Game.move_text``), as data a page
    renders (``GET .../moves``, and a complete decision's words in its picks); without a game's own words, the
    notation."""
    table = client.get(f"/api/games/{game['id']}/moves").get_json()
    assert table["moves"] and set(table["words"]) == set(table["moves"])
    assert table["words"]["end"] == {"id": "kh.move.end", "params": {}}  # Key Harvest's words for "end"
    kind = type(find_game(game["game"]))
    monkeypatch.setattr(kind, "move_text", lambda self, state, move: msg("ui.undo_names", move=str(move)))
    table = client.get(f"/api/games/{game['id']}/moves").get_json()
    assert table["words"] == {move: {"id": "ui.undo_names", "params": {"move": move}} for move in table["moves"]}
    seat = next(s for s in range(3) if seat_offered(client, claim_seat(client, game["id"], s)["url"]))
    private = client.get(claim_seat(client, game["id"], seat)["url"] + "/moves").get_json()
    assert private["words"] == {move: {"id": "ui.undo_names", "params": {"move": move}} for move in private["moves"]}


def test_every_data_form_heading_column_and_choice_is_named_in_both_languages() -> None:
    """The data forms (/data) name each table, column and offered choice in the page's language: a label a person
    reads, never the pack's key (``vp_upgraded``, ``grain_or_olive``); single letters and digits aside."""
    found = catalogs()
    missing = []
    for game in games():
        pack = game.data_pack()
        for table in (t for section in (pack.schema.sections if pack else ()) for t in section.tables):
            keys = [f"ui.data.table_{table.key}", *(f"ui.data.col_{c.key}" for c in table.columns),
                    *(f"ui.data.choice_{ch}" for c in table.columns if c.kind == "choice" for ch in c.choices if ch)]
            missing += [f"{language}: {key}" for key in keys for language in ("en", "de")
                        if key not in found[language].messages]
    assert missing == []
