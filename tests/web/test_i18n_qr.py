"""The header's language switch; the seat pages' QR codes encode their absolute URLs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qrcode  # type: ignore[import-untyped]
import qrcode.image.svg  # type: ignore[import-untyped]
from flask import Flask
from flask.testing import FlaskClient

WEB = Path(__file__).resolve().parents[2] / "web"


def test_the_header_has_a_language_switch(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    for lang in ("en", "de"):
        assert f'href="?lang={lang}" data-lang="{lang}"' in html


# ---------------------------------------------------------------- QR codes of the seat pages


def seat_page(client: FlaskClient, game: dict[str, Any], seat: int) -> str:
    page: str = client.get(f"/api/games/{game['id']}/seats").get_json()["seats"][seat]["page"]
    return page


def expected_svg(data: str) -> bytes:
    svg: bytes = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathFillImage).to_string()
    return svg


@pytest.mark.parametrize("seat", [0, 2])
def test_seat_qr_code_encodes_the_absolute_seat_url(client: FlaskClient, game: dict[str, Any], seat: int) -> None:
    path = seat_page(client, game, seat)
    response = client.get(f"{path}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data
    assert response.data == expected_svg(f"http://localhost{path}")
    assert client.get(path).status_code == 200  # the join page: it asks before it claims the seat
    claimed = client.post(path)  # its button claims the seat and leads to its private page, which exists
    assert claimed.status_code == 303 and client.get(claimed.headers["Location"]).status_code == 200
    assert response.data != expected_svg(f"http://localhost{seat_page(client, game, (seat + 1) % 3)}")


def test_seat_qr_code_follows_the_host(app: Flask, client: FlaskClient, game: dict[str, Any]) -> None:
    path = seat_page(client, game, 1)
    app.extensions["keydom_hosts"].extra.add("keydom.local")  # as companion serve --allow-host keydom.local
    response = client.get(f"{path}/qr.svg", base_url="http://keydom.local:8000")
    assert response.data == expected_svg(f"http://keydom.local:8000{path}")


def test_seat_qr_code_uses_the_public_url_when_set(app: Flask, client: FlaskClient, game: dict[str, Any]) -> None:
    """Opened as localhost on the tablet, the code still carries the address phones can reach."""
    app.config["PUBLIC_URL"] = "http://keydom.local:8000/"
    path = seat_page(client, game, 1)
    assert client.get(f"{path}/qr.svg").data == expected_svg(f"http://keydom.local:8000{path}")


def test_seat_qr_code_needs_the_seats_token(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.get(f"/games/{game['id']}/join/{'0' * 16}/qr.svg").status_code == 404
    assert client.get("/games/no-such-game/join/abc/qr.svg").status_code == 404
    path = seat_page(client, game, 0)
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    assert client.get(f"{path}/qr.svg").status_code == 404


def test_table_page_shows_the_seat_qr_codes() -> None:
    script = (WEB / "static" / "js" / "ui.js").read_text()  # renderSeatLinks: the table page and the setup guide
    assert "/qr.svg`" in script and 'class: "seat-qr"' in script
