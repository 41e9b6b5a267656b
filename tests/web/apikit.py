"""Posting moves and undos through the JSON API as a device does: naming the version it shows."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse


def version_of(client: FlaskClient, game_id: str) -> int:
    """The game's version now, as a device that just fetched the game shows it."""
    version: int = client.get(f"/api/games/{game_id}").get_json()["version"]
    return version


def post_move(client: FlaskClient, game_id: str, move: str, version: int | None = None) -> TestResponse:
    """POST a move from the shared table, chosen from ``version`` (default: the version now)."""
    chosen = version_of(client, game_id) if version is None else version
    return client.post(f"/api/games/{game_id}/moves", json={"move": move, "version": chosen})


def post_undo(client: FlaskClient, game_id: str, version: int | None = None) -> TestResponse:
    chosen = version_of(client, game_id) if version is None else version
    return client.post(f"/api/games/{game_id}/undo", json={"version": chosen})


def played(client: FlaskClient, game_id: str, move: str) -> dict[str, Any]:
    """Play ``move`` (it must be accepted); the game after it."""
    answer = post_move(client, game_id, move)
    assert answer.status_code == 200, answer.get_json()
    game: dict[str, Any] = answer.get_json()["game"]
    return game


def claim_seat(client: FlaskClient, game_id: str, seat: int) -> dict[str, Any]:
    """The seat's private links ``{seat, name, url, page}`` as the device that claimed it has them: the seat is
    claimed through its join code on first use; later calls with the same client answer the same links."""
    links: dict[tuple[str, int], dict[str, Any]] = client.__dict__.setdefault("seat_links", {})
    if (game_id, seat) not in links:
        seats = client.get(f"/api/games/{game_id}/seats").get_json()["seats"]
        if seats[seat]["claimed"]:  # claimed by another client of the same app: give it a new link
            seats = client.post(f"/api/games/{game_id}/seats/{seat}/reissue", json={}).get_json()["seats"]
        code = seats[seat]["page"].rsplit("/", 1)[1]
        answer = client.post(f"/api/games/{game_id}/join/{code}", json={})
        assert answer.status_code == 200, answer.get_json()
        links[(game_id, seat)] = answer.get_json()
    return links[(game_id, seat)]


def seat_url(client: FlaskClient, game_id: str, seat: int) -> str:
    """The seat's private API link (claimed on first use)."""
    url: str = claim_seat(client, game_id, seat)["url"]
    return url


def english(text: Any) -> str:
    """A text of an API answer as an English reader sees it: a message (``{"id", "params"}``) rendered, plain text
    as it is."""
    from companion.core.messages import Message, render

    return render(Message.from_json(text)) if isinstance(text, dict) else str(text)


def notation(line: Any) -> str | None:
    """The move notation a log line names (its ``move`` parameter), else ``None``."""
    return line.get("params", {}).get("move") if isinstance(line, dict) else None


def offered(client: FlaskClient, game_id: str) -> list[str]:
    """The moves the shared table is offered now, in notation (``GET /api/games/<id>/moves``; the pages pick them)."""
    moves: list[str] = client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    return moves


def seat_offered(client: FlaskClient, url: str) -> list[str]:
    """A seat's moves now, in notation, from its private API link ``url``."""
    moves: list[str] = client.get(f"{url}/moves").get_json()["moves"]
    return moves
