"""Each game's web view is its folder web/games/<package>/, found through the registry (docs/core.md, "A game's web
view"); a game without one gets a page that says so, never another game's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

import companion.games as registry
from tests.core.toy_game import OverTheTop
from tests.web.apikit import claim_seat

WEB_GAMES = Path(__file__).resolve().parents[2] / "web" / "games"


def scripts(html: str) -> list[str]:
    return re.findall(r'<script type="module" src="([^"]+)"', html)


@pytest.mark.parametrize("package", registry.PACKAGES)
def test_every_registered_game_has_its_web_folder(package: str) -> None:
    for name in ("table.html", "seat.html", "setup.js"):
        assert (WEB_GAMES / package / name).is_file(), f"web/games/{package}/{name}"


@pytest.mark.parametrize("package", registry.PACKAGES)
def test_every_game_s_pages_render_from_its_folder(client: FlaskClient, package: str) -> None:
    game = next(game for game in registry.games() if registry.package_of(game) == package)
    players = ["Ann", "Bo", "Cy", "Di"][:game.min_players]
    created = client.post("/api/games", json={"game": game.name, "players": players})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    own = f"/static/games/{package}/"
    paths = [f"/games/{game_id}", claim_seat(client, game_id, 0)["page"], f"/games/{game_id}/setup"]
    for path in paths:
        page = client.get(path)
        assert page.status_code == 200, path
        html = page.get_data(as_text=True)
        assert f'data-game-id="{game_id}"' in html and "/static/js/companion.js" in scripts(html), path
        own_scripts = [src for src in scripts(html) if src.startswith("/static/games/")]
        assert own_scripts and all(src.startswith(own) for src in own_scripts), path  # its own, no other game's
        for src in own_scripts:
            with client.get(src) as script:
                assert script.status_code == 200, src


def test_a_game_without_a_web_folder_gets_a_clear_page(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    registry.games()  # the real games stay registered beside the toy
    monkeypatch.setitem(registry.GAMES, OverTheTop.name, OverTheTop())
    created = client.post("/api/games", json={"game": "toy", "players": ["Ann", "Bo"]})
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    for path in (f"/games/{game_id}", f"/games/{game_id}/setup", claim_seat(client, game_id, 1)["page"]):
        page = client.get(path)
        html = page.get_data(as_text=True)
        assert page.status_code == 501 and 'id="no-view"' in html and "Over the Top" in html, path
        assert "/static/games/" not in html, path


def test_a_game_folder_serves_scripts_and_styles_only(client: FlaskClient) -> None:
    with client.get("/static/games/key_harvest/key_harvest.js") as script:
        assert script.status_code == 200 and script.mimetype == "text/javascript"
        assert script.headers["X-Content-Type-Options"] == "nosniff"  # the security headers of every answer
    for path in ("/static/games/key_harvest/table.html", "/static/games/no_such_game/x.js",
                 "/static/games/key_harvest/..%2F..%2Fpages.py"):
        assert client.get(path).status_code == 404, path


def test_the_new_game_form_offers_every_registered_game(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert re.findall(r'<option value="([\w-]+)">', html) == [game.name for game in registry.games()]


def test_the_shared_pages_name_no_game() -> None:
    """The shared views, frames and scripts find games through the registry only (the dictionary, and the data
    forms, which are about one game's printed data, are not among them)."""
    web = WEB_GAMES.parent
    shared = [web / "pages.py", web / "table.py", web / "camera.py",
              *(p for p in (web / "templates").glob("*.html") if not p.name.startswith("data_")),
              *(p for p in (web / "static" / "js").glob("*.js") if p.name not in {"data_forms.js", "i18n.js"})]
    named = [p.relative_to(web).as_posix() for p in shared if re.search(r"key[-_ ]harvest|la[-_ ]granja", p.read_text(), re.I)]
    assert named == []


def test_a_game_folder_is_static_like_the_shared_scripts(app: Flask) -> None:
    """Before pairing, a LAN device may load a game's scripts as it may /static/js/, and still no page or game."""
    lan = app.test_client()
    lan.environ_base.update({"REMOTE_ADDR": "192.168.1.23"})
    with lan.get("/static/games/la_granja/la_granja.js") as script, lan.get("/static/js/ui.js") as shared:
        assert script.status_code == shared.status_code == 200
    assert lan.get("/").status_code == 303 and lan.get("/api/games").status_code == 401
    assert lan.get("/static/games/key_harvest/key_harvest.js", headers={"Host": "evil.example"}).status_code == 421
