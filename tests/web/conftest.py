"""Fixtures for the web service: an app on a temporary data folder and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "STREAM_HEARTBEAT_SECONDS": 0.05})
    yield app
    app.extensions["keydom_table"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    """A new 3-player Key Harvest game, as the API returns it."""
    response = client.post("/api/games", json={"players": ["Alice", "Bob", "Cara"]})
    assert response.status_code == 201
    data: dict[str, Any] = response.get_json()
    return data
