"""A new game is a folder and one line in the registry (issue 12, docs/core.md "Adding a game").

The test writes a small game package, ``companion/games/tiny/``, in a temporary folder, adds its one line
to ``PACKAGES``, and drives it through every shared layer with no other change: the command line, the
store and session, the JSON API and the pages. What the game does not provide (printed data, snapshots,
board stickers, a web view) each layer refuses with a sentence naming the game.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import companion.games as registry
from companion.cli import main
from tests.web.apikit import offered
from web import create_app

TINY = '''
"""Tiny: the test's toy game, registered as a package of its own."""

from tests.core.toy_game import OverTheTop


class Tiny(OverTheTop):
    name = "tiny"
    title = "Tiny"


GAME = Tiny
'''


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``companion/games/tiny/`` on the games' package path and its line in ``PACKAGES``; gone afterwards."""
    package = tmp_path / "games" / "tiny"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(TINY, encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path / "games")])
    monkeypatch.setattr(registry, "PACKAGES", (*registry.PACKAGES, "tiny"))
    monkeypatch.setattr(registry, "GAMES", {})
    monkeypatch.setenv("KEYDOM_DATA_DIR", str(tmp_path / "data"))
    yield
    sys.modules.pop("companion.games.tiny", None)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.usefixtures("tiny")
def test_the_registry_finds_the_new_game_by_its_line() -> None:
    game = registry.find_game("tiny")
    assert registry.package_of(game) == "tiny"
    assert [g.name for g in registry.games()][-1] == "tiny"
    assert registry.default_game().name == registry.games()[0].name  # the first line stays the default


@pytest.mark.usefixtures("tiny")
def test_the_command_line_plays_and_refuses_what_the_game_lacks(capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(capsys, "simulate", "tiny", "--games", "20", "--seed", "7")
    assert status == 0 and "20 games" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("{}"))
    for argv, words in ((("score", "tiny", "-"), "Tiny cannot score a table snapshot"),
                        (("data", "tiny"), "Tiny has no printed data"),
                        (("stickers", "tiny", "--out", "x.pdf"), "no stickers for game 'tiny'")):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == "" and words in err, argv


@pytest.mark.usefixtures("tiny")
def test_the_tablet_offers_stores_and_plays_the_new_game(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "service")})
    client: FlaskClient = app.test_client()
    try:
        assert '<option value="tiny">' in client.get("/").get_data(as_text=True)
        created = client.post("/api/games", json={"game": "tiny", "players": ["Ann", "Bo"]})
        assert created.status_code == 201
        game = created.get_json()
        assert game["game"] == "tiny"
        assert offered(client, game["id"]) == ["draw", "stop"]  # after the secret deal, the first player decides
        played = client.post(f"/api/games/{game['id']}/moves", json={"move": "stop", "version": game["version"]})
        assert played.status_code == 200 and played.get_json()["game"]["version"] > game["version"]
        page = client.get(f"/games/{game['id']}")
        assert page.status_code == 501 and "Tiny" in page.get_data(as_text=True)  # no web view yet: it says so
        assert client.get("/api/data/tiny").status_code == 404
        assert "Tiny" not in client.get("/data").get_data(as_text=True)
    finally:
        app.extensions["keydom_table"].close()
