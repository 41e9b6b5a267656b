"""The tablet's pages: served by the app, every asset local (string keys: tests/web/test_catalogs.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

WEB = Path(__file__).resolve().parents[2] / "web"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # an XML namespace name, never fetched


class Page(HTMLParser):
    """The ids, the data-i18n keys and the linked assets of an HTML page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: dict[str, dict[str, str | None]] = {}
        self.keys: set[str] = set()
        self.assets: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.elements[str(found["id"])] = {"tag": tag, **found}
        for name in ("data-i18n", "data-i18n-placeholder", "data-i18n-aria-label"):
            if found.get(name):
                self.keys.add(str(found[name]))
        if tag in ("script", "link", "img") and (found.get("src") or found.get("href")):
            self.assets.append(str(found.get("src") or found.get("href")))


def page(client: FlaskClient, path: str, status: int = 200) -> Page:
    response = client.get(path)
    assert response.status_code == status, path
    assert response.mimetype == "text/html"
    return Page(response.get_data(as_text=True))


def seat_path(client: FlaskClient, game: dict[str, Any], seat: int = 0) -> str:
    from tests.web.apikit import claim_seat

    page: str = claim_seat(client, game["id"], seat)["page"]
    return page


# ---------------------------------------------------------------- the pages


def test_index_has_the_games_list_and_the_new_game_form(client: FlaskClient) -> None:
    index = page(client, "/")
    for element in ("game-list", "new-game", "game-select", "players", "variants", "start", "error"):
        assert element in index.elements, element
    assert index.elements["error"]["role"] == "alert"


def test_table_page_has_every_area(client: FlaskClient, game: dict[str, Any]) -> None:
    table = page(client, f"/games/{game['id']}")
    for element in ("warnings", "turn", "pending", "boards", "land-office", "event-track", "town", "fallow", "bag",
                    "score", "final", "log", "seats", "move", "play", "undo", "error", "flow", "flow-options",
                    "flow-back", "expert", "setup-link"):
        assert element in table.elements, element
    assert table.elements["setup-link"]["href"] == f"/games/{game['id']}/setup"
    assert table.elements["error"]["role"] == "alert"
    assert table.elements["move"]["tag"] == "input"
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'data-game-id="{game["id"]}"' in html and 'data-page="table"' in html


def test_seat_page_needs_the_seats_token(client: FlaskClient, game: dict[str, Any]) -> None:
    seat = page(client, seat_path(client, game, 1))
    for element in ("seat-name", "stones", "pending", "legal", "error", "log"):
        assert element in seat.elements, element
    page(client, f"/games/{game['id']}/seat/{'0' * 32}", status=404)


def test_setup_page_has_the_guide_and_its_steps(client: FlaskClient, game: dict[str, Any]) -> None:
    setup = page(client, f"/games/{game['id']}/setup")
    for element in ("setup-steps", "setup-back", "setup-next", "setup-start", "setup-progress", "error", "warnings"):
        assert element in setup.elements, element
    assert setup.elements["setup-start"]["href"] == f"/games/{game['id']}"
    html = client.get(f"/games/{game['id']}/setup").get_data(as_text=True)
    assert 'data-page="setup"' in html and f'data-game-id="{game["id"]}"' in html


@pytest.mark.parametrize("path", ["/games/no-such-game", "/games/no-such-game/seat/abc", "/games/no-such-game/setup"])
def test_unknown_game_is_a_404_page(client: FlaskClient, path: str) -> None:
    not_found = page(client, path, status=404)
    assert "not-found" in not_found.elements and "not_found_title" in not_found.keys


def test_deleted_game_page_is_gone(client: FlaskClient, game: dict[str, Any]) -> None:
    path = seat_path(client, game)
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    page(client, f"/games/{game['id']}", status=404)
    page(client, path, status=404)


def test_api_errors_stay_json(client: FlaskClient) -> None:
    response = client.get("/api/games/no-such-game")
    assert response.status_code == 404 and response.get_json()["error"]["type"] == "UnknownGameError"


# ---------------------------------------------------------------- assets: local, served, translated


def test_linked_assets_are_local_and_served(client: FlaskClient, game: dict[str, Any]) -> None:
    paths = ["/", f"/games/{game['id']}", seat_path(client, game), "/games/no-such-game"]
    assets = {asset for path in paths for asset in Page(client.get(path).get_data(as_text=True)).assets}
    assert {"/static/css/companion.css", "/static/js/companion.js"} <= assets
    for asset in assets | {"/static/js/i18n.js"}:
        assert asset.startswith("/static/"), asset
        with client.get(asset) as response:
            assert response.status_code == 200, asset


@pytest.mark.parametrize("path", sorted(p.relative_to(WEB).as_posix() for p in [
    *(WEB / "templates").glob("*.html"), *(WEB / "static").rglob("*.js"), *(WEB / "static").rglob("*.css"),
    *(WEB / "static").rglob("*.svg"), *(WEB / "games").rglob("*.*")]))
def test_no_external_urls(path: str) -> None:
    """The Pi is often offline: no CDN, no web font, no absolute URL (an XML namespace name is not fetched)."""
    text = (WEB / path).read_text().replace(SVG_NAMESPACE, "")
    assert not re.search(r"https?://", text), path
    assert not re.search(r"""(src|href)=["']//|url\(\s*["']?//|@import""", text), path


def test_table_draws_every_board_space_and_tile_crops() -> None:
    """The boards draw all of view.layout.spaces, workers on their spaces; shared tiles are coloured by crop."""
    script = (WEB / "games" / "key_harvest" / "key_harvest.js").read_text()
    assert "view.layout.spaces" in script
    for name in ("land_office_tiles", "fallow_tiles", '"g", { class: "space"', "class: `worker "):
        assert name in script, name


def test_new_game_form_has_seat_colours_and_the_pages_show_them(client: FlaskClient) -> None:
    """Each player name gets a colour input preset to its seat's default; the pages read game.colours."""
    index = client.get("/").get_data(as_text=True)
    assert 'id="players"' in index and 'id="new-game"' in index  # the fields are built into #players by the script
    script = "".join((WEB / "static" / "js" / name).read_text() for name in ("companion.js", "ui.js"))
    assert 'type: "color", name: "colour"' in script and '"data-seat": n - 1' in script
    for default in ("#c0392b", "#2471a3", "#d4ac0d", "#239b56"):
        assert default in script, default
    assert "input[name=colour]" in script and "colour: " in script  # posted as players [{name, colour}]
    assert "game.colours" in script and "update.game.colours" in script
    css = (WEB / "static" / "css" / "companion.css").read_text()
    assert ".seat-dot" in css and "var(--seat" in css


def test_the_index_links_the_camera_the_panel_and_the_data_forms(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for path in ("/camera", "/panel", "/data"):
        assert f'href="{path}"' in page and client.get(path).status_code == 200
