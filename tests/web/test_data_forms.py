"""The data forms (/data): a table enters its box's printed values once, replacing the provisional data.

Saving goes through the core's own loaders (La Granja spec 8.1, D-01 to D-09; Key Harvest spec 10.1),
installs atomically into the app's data folder, and only new games use it.
"""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.core.messages import Message, render
from companion.games.key_harvest import DATA as KEY_HARVEST_DATA
from companion.games.key_harvest.board import load_layout
from companion.games.la_granja.data import USER_EDITION_FILE, load_edition
from tests.web.apikit import english

SHIPPED = load_edition(None)


def pack_file(app: Flask) -> Path:
    return Path(app.config["DATA_DIR"]) / USER_EDITION_FILE


def layout_file(app: Flask) -> Path:
    return KEY_HARVEST_DATA.path(Path(app.config["DATA_DIR"]))


def section(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(SHIPPED.raw[name]))
    return data


def inputs(html: str) -> dict[tuple[Any, ...], str]:
    """Each form input's JSON path and shown value (checkboxes: "on"/"off", selects: the chosen option)."""
    found: dict[tuple[Any, ...], str] = {}
    for match in re.finditer(r"<(input|select)([^>]*)data-path='([^']*)'([^>]*)>", html):
        kind, attrs, path = match.group(1), match.group(2) + match.group(4), tuple(json.loads(unescape(match.group(3))))
        if kind == "select":
            rest = html[match.end():html.index("</select>", match.end())]
            found[path] = unescape(re.findall(r'<option value="([^"]*)"(?: data-t="[^"]*")? selected>', rest)[0])
        elif 'type="checkbox"' in attrs:
            found[path] = "on" if " checked" in attrs else "off"
        else:
            found[path] = unescape(re.search(r'value="([^"]*)"', attrs).group(1))  # type: ignore[union-attr]
    return found


def new_game(client: FlaskClient, game: str, players: list[str]) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "players": players})
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


# ------------------------------------------------------------------ the forms show the data in use


def test_the_overview_lists_each_games_data_and_what_is_provisional(client: FlaskClient) -> None:
    html = client.get("/data").get_data(as_text=True)
    for name in SHIPPED.provisional:
        item = re.search(rf'<li data-section="{name}" class="(\w+)">(.*?)</li>', html, re.S)
        assert item and item.group(1) == "provisional" and "PROVISIONAL" in item.group(2)
        assert f'href="/data/la-granja/{name}"' in item.group(2)
    assert re.search(r'<li data-section="layout" class="provisional">', html)
    assert 'href="/data/key-harvest/layout"' in html
    assert "keeps the data it started with" in html
    assert 'class="data-restore"' not in html  # nothing installed: nothing to restore


def test_each_la_granja_form_is_filled_with_the_pack_in_use(client: FlaskClient) -> None:
    siesta = client.get("/data/la-granja/siesta").get_data(as_text=True)
    assert [inputs(siesta)[("vp", i)] for i in range(len(SHIPPED.siesta_vp))] == [str(v) for v in SHIPPED.siesta_vp]
    assert 'id="provisional-warning"' in siesta and 'id="provisional-warning" hidden' not in siesta
    assert re.search(r'<input type="checkbox" id="checked-against-box">', siesta)  # not ticked: provisional

    cards = inputs(client.get("/data/la-granja/cards").get_data(as_text=True))
    card = SHIPPED.cards[1]
    assert cards[("list", 0, "field")] == card.field
    assert cards[("list", 0, "cart", "symbols")] == ", ".join(card.cart_symbols)
    assert cards[("list", 0, "cart", "vp")] == str(card.cart_vp)
    assert len({path[1] for path in cards}) == 66

    market = inputs(client.get("/data/la-granja/market").get_data(as_text=True))
    assert market[("spaces", 0, "q")] == str(SHIPPED.spaces[0].q) and market[("spaces", 0, "id")] == "M1"
    assert [market[("start", i)] for i in range(4)] == [SHIPPED.spaces[i].id for i in SHIPPED.start_spaces]

    prices = inputs(client.get("/data/la-granja/prices").get_data(as_text=True))
    assert prices[("buy", "pig")] == str(SHIPPED.buy["pig"]) and prices[("sell", "olive")] == str(SHIPPED.sell["olive"])

    roofs = inputs(client.get("/data/la-granja/roof_markers").get_data(as_text=True))
    assert roofs[("list", 0, "effect")] == SHIPPED.roofs["R1"].effect and roofs[("list", 0, "phase")] == ""
    for name in ("buildings", "roof_slots", "donkeys"):
        assert client.get(f"/data/la-granja/{name}").status_code == 200
    assert client.get("/data/la-granja/farm-animals").status_code == 404


def test_the_key_harvest_form_shows_every_space(client: FlaskClient) -> None:
    layout = load_layout(None)
    html = client.get("/data/key-harvest/layout").get_data(as_text=True)
    shown = inputs(html)
    assert len({p[1] for p in shown if p[0] == "spaces"}) == layout.size == 56
    b2 = layout.start_pairs[0][0]  # a start tile (B3 on the provisional board)
    assert shown[("spaces", b2, "label")] == layout.labels[b2] and shown[("spaces", b2, "crop")] == layout.crops[b2].key
    assert (shown[("spaces", b2, "at", 0)], shown[("spaces", b2, "at", 1)]) == tuple(map(str, layout.coords[b2]))
    assert shown[("spaces", b2, "start_pair")] == layout.pair_colours[0]
    assert shown[("spaces", layout.index["A1"], "start_pair")] == ""
    assert 'href="/camera"' in html  # the camera can record the layout: said in words, no command line or path
    assert "companion calibrate" not in html and "axial" not in html and "docs/camera" not in html
    assert 'id="provisional-warning" hidden' not in html


# ------------------------------------------------------------------ a valid edit installs; new games use it


def test_a_checked_section_installs_and_only_new_games_use_it(app: Flask, client: FlaskClient) -> None:
    older = new_game(client, "la-granja", ["Ana", "Ben"])
    assert any("siesta" in english(w) for w in older["warnings"])
    siesta = section("siesta") | {"provisional": False, "vp": [0, 1, 1, 2, 2, 3, 3, 4, 5]}
    response = client.put("/api/data/la-granja/siesta", json=siesta)
    assert response.status_code == 200, response.get_json()
    assert "siesta" not in response.get_json()["provisional"]
    assert load_edition(pack_file(app)).siesta_vp == (0, 1, 1, 2, 2, 3, 3, 4, 5)
    assert not list(pack_file(app).parent.glob("*.tmp"))

    newer = new_game(client, "la-granja", ["Cara", "Dan"])
    warning, = map(english, newer["warnings"])
    assert "siesta" not in warning and "cards" in warning  # the other sections are still provisional
    record = app.extensions["keydom_table"].store.get(newer["id"])
    assert record.edition["data"]["siesta"]["vp"] == [0, 1, 1, 2, 2, 3, 3, 4, 5]  # stored with the game
    stored = client.get(f"/api/games/{newer['id']}").get_json()
    assert not any("siesta" in english(w) for w in stored["warnings"])

    app.extensions["keydom_table"]._sessions.clear()  # reopened from the store, as after a restart
    again = client.get(f"/api/games/{older['id']}").get_json()
    assert any("siesta" in english(w) for w in again["warnings"])  # the older game keeps the data it started with

    page = client.get("/data").get_data(as_text=True)
    assert re.search(r'<li data-section="siesta" class="checked">', page) and 'class="data-restore"' in page
    form = client.get("/data/la-granja/siesta").get_data(as_text=True)
    assert inputs(form)[("vp", 8)] == "5" and 'id="provisional-warning" hidden' in form


def test_every_section_can_be_confirmed_and_the_warning_goes(app: Flask, client: FlaskClient) -> None:
    for name in SHIPPED.provisional:
        assert client.put(f"/api/data/la-granja/{name}", json=section(name) | {"provisional": False}).status_code == 200
    assert new_game(client, "la-granja", ["Ana"])["warnings"] == []


def test_a_whole_pack_can_be_installed_at_once(app: Flask, client: FlaskClient) -> None:
    """What `companion data la-granja FILE --install` does, from the tablet."""
    pack = json.loads(json.dumps(SHIPPED.raw)) | {"name": "our box"}
    pack["prices"] |= {"provisional": False, "buy": {"olive": 3, "grain": 3, "grape": 4, "pig": 5}}
    answer = client.put("/api/data/la-granja", json=pack).get_json()
    assert answer["installed"] and answer["name"] == "our box" and "prices" not in answer["provisional"]
    assert load_edition(pack_file(app)).buy["pig"] == 5
    del pack["donkeys"]
    refused(client, "/api/data/la-granja", pack, "missing key 'donkeys'")
    assert load_edition(pack_file(app)).name == "our box"


def test_a_key_harvest_layout_installs_for_new_games(app: Flask, client: FlaskClient) -> None:
    older = new_game(client, "key-harvest", ["Ana", "Ben"])
    layout = load_layout(None).to_json() | {"name": "our box", "provisional": False}
    layout["spaces"][0]["crop"] = "wine"
    assert client.put("/api/data/key-harvest", json=layout).status_code == 200
    assert load_layout(layout_file(app)).name == "our box"
    newer = new_game(client, "key-harvest", ["Cara", "Dan"])
    assert newer["warnings"] == [] and older["warnings"]
    assert newer["view"]["layout"]["name"] == "our box" and newer["view"]["layout"]["spaces"][0]["crop"] == "wine"
    app.extensions["keydom_table"]._sessions.clear()
    assert client.get(f"/api/games/{older['id']}").get_json()["warnings"]  # still on the provisional board


# ------------------------------------------------------------------ an invalid edit changes nothing


def refused(client: FlaskClient, url: str, body: Any, reason: str) -> None:
    response = client.put(url, json=body)
    assert response.status_code == 400
    assert reason in response.get_json()["error"]["reason"], response.get_json()


def test_invalid_edits_are_refused_with_the_loaders_reason_and_change_nothing(app: Flask, client: FlaskClient) -> None:
    good = section("siesta") | {"provisional": False}
    assert client.put("/api/data/la-granja/siesta", json=good).status_code == 200
    before = pack_file(app).read_bytes()

    cards = section("cards")
    cards["list"][4]["field"] = "cactus"
    refused(client, "/api/data/la-granja/cards", cards, "card 5 has an unknown field crop")
    market = section("market")
    market["spaces"][1] |= {"q": market["spaces"][0]["q"], "r": market["spaces"][0]["r"]}
    refused(client, "/api/data/la-granja/market", market, "coordinates repeat")
    refused(client, "/api/data/la-granja/siesta", {"vp": [3]}, "siesta track 2+ spaces")
    refused(client, "/api/data/la-granja/siesta", ["not", "an", "object"], "JSON object")
    refused(client, "/api/data/la-granja/farm-animals", {"provisional": False}, "no section 'farm-animals'")

    assert pack_file(app).read_bytes() == before
    assert not list(pack_file(app).parent.glob("*.tmp"))

    layout = load_layout(None).to_json()
    layout["spaces"][1]["label"] = layout["spaces"][0]["label"]
    refused(client, "/api/data/key-harvest", layout, "labels must be unique")
    assert not layout_file(app).exists()
    layout = load_layout(None).to_json()
    start = [n for n, space in enumerate(layout["spaces"]) if space["start_pair"]]
    layout["spaces"][start[0]]["start_pair"] = layout["spaces"][start[1]]["start_pair"] = "blue"  # a pair side by side
    layout["spaces"][start[2]]["start_pair"] = None
    answer = client.put("/api/data/key-harvest", json=layout).get_json()["error"]
    assert answer["message"]["id"] in {"kh.data.start_pairs", "kh.data.pair_apart", "kh.data.pairs_touch"}
    german = render(Message.from_json(answer["message"]), "de")  # the form says it in the page's language
    assert german != answer["reason"] and ("Startpaar" in german or "Startplättchen" in german), german


# ------------------------------------------------------------------ restore


def test_restore_deletes_the_tables_values(app: Flask, client: FlaskClient) -> None:
    client.put("/api/data/la-granja/donkeys", json=section("donkeys") | {"provisional": False})
    layout = load_layout(None).to_json() | {"provisional": False}
    client.put("/api/data/key-harvest", json=layout)
    assert pack_file(app).exists() and layout_file(app).exists()

    answer = client.delete("/api/data/la-granja").get_json()
    assert not pack_file(app).exists() and not answer["installed"] and "donkeys" in answer["provisional"]
    assert client.delete("/api/data/key-harvest").get_json()["provisional"] == ["layout"]
    assert not layout_file(app).exists()
    assert 'class="data-restore"' not in client.get("/data").get_data(as_text=True)


def test_a_damaged_installed_file_is_named_and_can_be_restored(app: Flask, client: FlaskClient) -> None:
    pack_file(app).write_text("{ not json")
    page = client.get("/data").get_data(as_text=True)
    assert 'id="la-granja-damaged"' in page and "is not JSON" in page and 'class="data-restore"' in page
    assert client.get("/data/la-granja/siesta").status_code == 200  # the shipped values, to start again


def test_entering_the_siesta_values_in_the_browser_clears_its_warning(server: int, browser: Any, shots: Path) -> None:
    """Real Chromium on a phone-sized screen: edit the siesta VP, tick "checked", save; the warning goes."""
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
    page.goto(f"{base}/data")
    assert "PROVISIONAL" in page.inner_text("li[data-section='siesta']")
    page.click("li[data-section='siesta'] a")
    page.wait_for_url("**/data/la-granja/siesta")
    assert page.is_visible("#provisional-warning")

    page.fill("tr[data-row='3'] input", "")  # emptied: refused in the page, nothing sent
    page.click("#data-save")
    page.locator("#data-error", has_text="Row 3").wait_for()
    page.fill("tr[data-row='3'] input", "2")
    page.click("#add-row")
    page.fill("tr[data-row='8'] input", "5")
    page.check("#checked-against-box")
    page.screenshot(path=str(shots / "data-01-siesta-form.png"), full_page=True)
    page.click("#data-save")
    page.locator("#data-saved").wait_for()
    page.locator("#provisional-warning").wait_for(state="hidden")  # the page hides it once the answer is in
    assert page.is_hidden("#data-error")

    page.goto(f"{base}/data")
    assert "PROVISIONAL" not in page.inner_text("li[data-section='siesta']")
    assert "PROVISIONAL" in page.inner_text("li[data-section='cards']")
    page.screenshot(path=str(shots / "data-02-overview.png"), full_page=True)
    pack = json.loads((page.context.request.get(f"{base}/api/data/la-granja")).text())
    assert pack["data"]["siesta"]["vp"] == [0, 0, 1, 2, 2, 2, 3, 3, 5] and "siesta" not in pack["provisional"]

    page.goto(f"{base}/data/la-granja/siesta?lang=de")  # the form in German, and restoring the default
    page.locator("#data-save", has_text="Speichern").wait_for()  # the German words arrive after the page
    page.goto(f"{base}/data")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#data-la-granja .data-restore")
    page.wait_for_function("() => !document.querySelector('#data-la-granja .data-restore')")
    page.locator("li[data-section='siesta']", has_text="VORLÄUFIG").wait_for()  # the reloaded page, translated

    tablet = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    tablet.goto(f"{base}/data/key-harvest/layout?lang=en")
    tablet.fill("tr[data-row='1'] input[data-kind='text']", "A1")  # a second A1: the loader's reason, nothing saved
    tablet.click("#data-save")
    tablet.locator("#data-error", has_text="labels must be unique").wait_for()
    tablet.screenshot(path=str(shots / "data-03-layout-refused.png"))


def test_every_form_of_every_game_saves_as_it_is_shown(server: int, browser: Any) -> None:
    """Real Chromium: each form saved unchanged is accepted (the values it shows read back as the pack holds them:
    Key Market's guild tiles "A:2, J:1" and abilities "vp_each:5" were refused), and its inputs are announced
    by their row and column in the page's language, never by a key."""
    base = f"http://127.0.0.1:{server}"
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{base}/?lang=de")
    refused = {}
    for path in data_pages()[1:]:
        page.goto(base + path)
        page.locator("#data-save", has_text="Speichern").wait_for()
        labels = page.eval_on_selector_all("td [data-path]", """inputs => inputs.map(i => [i.getAttribute('aria-label'),
            i.closest('table').tHead.rows[0].cells[i.closest('td').cellIndex].textContent])""")
        assert [label for label, column in labels if "_" in label or not label.endswith(" " + column)] == [], path
        page.click("#data-save")
        page.wait_for_selector("#data-saved:visible, #data-error:visible")
        if page.is_visible("#data-error"):
            refused[path] = page.inner_text("#data-error")
    assert refused == {}



# ------------------------------------------------------------------ one set of forms and endpoints for every game


def test_the_overview_and_the_endpoints_serve_every_registered_game_with_a_pack(
        app: Flask, client: FlaskClient, monkeypatch: Any) -> None:
    import companion.games as registry
    from tests.core.toy_game import OverTheTop

    registry.games()
    monkeypatch.setitem(registry.GAMES, "toy", OverTheTop())  # a game without printed data
    page = client.get("/data").get_data(as_text=True)
    assert 'id="data-key-harvest"' in page and 'id="data-la-granja"' in page and 'id="data-toy"' not in page
    assert 'href="/data/la-granja/farm"' in page  # the optional section is shown too (checked)
    for url in ("/api/data/toy", "/api/data/chess"):
        assert client.get(url).status_code == 404 and client.put(url, json={}).status_code == 404
    assert client.get("/data/toy/layout").status_code == 404 and client.get("/data/key-harvest/siesta").status_code == 404


def test_a_key_harvest_section_is_checked_against_the_schema_then_installed(app: Flask, client: FlaskClient) -> None:
    board = client.get("/api/data/key-harvest/layout").get_json()
    assert board["section"] == "layout" and board["provisional"] == ["layout"] and len(board["data"]["spaces"]) == 56
    section = board["data"]
    section["spaces"][0]["crop"] = "pumpkins"
    refused(client, "/api/data/key-harvest/layout", section, "space A1 has an unknown crop 'pumpkins'")
    section["spaces"][0]["crop"] = "wine"
    section["spaces"][1]["at"] = [1, "zero"]
    refused(client, "/api/data/key-harvest/layout", section, "space A2: position r (at.1) must be a whole number")
    assert not layout_file(app).exists() and not list(layout_file(app).parent.glob("*.tmp"))

    section["spaces"][1]["at"] = [1, 0]
    answer = client.put("/api/data/key-harvest/layout", json=section | {"provisional": False}).get_json()
    assert answer["installed"] and answer["provisional"] == [] and answer["warnings"] == []
    assert load_layout(layout_file(app)).crops[0].key == "wine"
    assert new_game(client, "key-harvest", ["Ana", "Ben"])["view"]["layout"]["spaces"][0]["crop"] == "wine"


def test_an_old_layout_file_in_the_apps_folder_is_converted_and_said(app: Flask, client: FlaskClient) -> None:
    from companion.games.key_harvest import USER_LAYOUT_FILE

    old = Path(app.config["DATA_DIR"]) / USER_LAYOUT_FILE
    old.write_text(json.dumps(load_layout(None).to_json() | {"name": "our old box", "provisional": False}))
    page = client.get("/data").get_data(as_text=True)
    assert 'id="key-harvest-converted"' in page and "key-harvest-layout.json.old" in page
    assert re.search(r'<li data-section="layout" class="checked">', page) and "our old box" in page
    assert layout_file(app).exists() and not old.exists()
    assert new_game(client, "key-harvest", ["Ana", "Ben"])["warnings"] == []


# ------------------------------------------------------------------ every word in the page's language

class BareText(HTMLParser):
    """The text of a page that no catalog names: outside every element with ``data-t``/``data-i18n`` (the script
    puts the page's language there), scripts, the inputs' values (data) and the pack's English notes."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}
    OWN = {"script", "style", "title", "textarea", "option", "details"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append((tag, tag in self.OWN or any(name in ("data-t", "data-i18n") for name, _ in attrs)))

    def handle_endtag(self, tag: str) -> None:
        while tag not in self.VOID and self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if data.strip() and not any(named for _, named in self.open):
            self.text.append(data.strip())


def data_pages() -> list[str]:
    from web.data_forms import games_with_data
    return ["/data", *(f"/data/{name}/{part.name}" for name, pack in games_with_data() for part in pack.schema.sections)]


def test_every_data_form_of_every_game_says_each_word_in_english_and_german(client: FlaskClient) -> None:
    """Issue 27, German complete on the data forms: every string a form names is in both catalogs, the schema's
    help is the English catalog's, nothing but the game's printed title and numbers bypasses the catalogs (an
    object table's rows are named: La Granja's goods, Keyper's keyple colours), and no file path is shown."""
    from companion.core.messages import catalogs
    from web.data_forms import games_with_data
    from web.messages import add_web_catalogs

    add_web_catalogs()
    english, german = catalogs()["en"].messages, catalogs()["de"].messages
    titles = {pack.title for _, pack in games_with_data()}
    chrome = {"EN", "DE", "Keydom Companion needs JavaScript."}  # the header's language switch, <noscript>
    pages = data_pages()
    assert len(pages) == 1 + 9 + 1 + 9 + 8  # the overview; La Granja, Key Harvest, Keyper, Key Market
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        keys = {f"ui.data.{key}" for key in re.findall(r'\sdata-t="([\w.-]+)"', html)}
        assert sorted(keys - english.keys()) == [] and sorted(keys - german.keys()) == [], path
        bare = BareText()
        bare.feed(html)
        assert [text for text in bare.text if text not in chrome and text.rstrip(":") not in titles
                and not re.fullmatch(r"[\d\W]*", text)] == [], path
        assert "docs/" not in html and ".md" not in html, path
    for _, pack in games_with_data():
        for part in pack.schema.sections:
            assert [(h.key, h.text) for h in part.help if english[f"ui.data.{h.key}"] != h.text] == []


UNNOTICED = {"ui.data.table_donkeys"}
"""Sentences whose English words are all in German texts too: "Hats per donkey marker" ("Marker" is German, and La
Granja's typed notation "donkey PLATZ MARKER" is in its German catalog)."""


def test_the_screen_audit_would_refuse_a_data_form_sentence_in_the_other_language() -> None:
    """The screen audit (test_screenshots) refuses a word only the other language's catalogs use: every sentence
    the data forms show has such a word in each language, so an untranslated one on a page would be caught; and no
    data form text is refused as an identifier (a ``key:value`` token)."""
    from companion.core.messages import catalogs
    from tests.web.test_screenshots import RAW, WORD, foreign_words

    english, german = catalogs()["en"].messages, catalogs()["de"].messages
    foreign = foreign_words()
    sentences = [key for key in english if key.startswith("ui.data.") and len(str(english[key]).split()) >= 4]
    assert len(sentences) >= 15
    for key in sentences:
        words = {language: {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", str(text)))}
                 for language, text in (("en", english[key]), ("de", german[key]))}
        assert words["en"] & foreign["de"] or key in UNNOTICED, f"{key}: English on a German page would not be noticed"
        assert words["de"] & foreign["en"], f"{key}: German on an English page would not be noticed"
        assert not words["de"] & foreign["de"] and not words["en"] & foreign["en"], key
    shown = [(key, re.sub(r"\{\w+\}", " ", str(text))) for language in (english, german)
             for key, text in language.items() if key.startswith("ui.data.")]
    assert [(key, RAW.findall(text)) for key, text in shown if RAW.search(text)] == []  # e.g. name:number
