"""Fixtures for the web service: an app on a temporary data folder and its test client; the service
in a subprocess and the system's Chromium for the browser tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(folder: Path, *options: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """`companion serve` in a subprocess on a free port, games in ``folder``: (port, process); stopped after."""
    port = free_port()
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen([sys.executable, "-c", "from web.cli import main; main()", "serve", "--port",
                                str(port), "--data", str(folder), *options], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail(f"the server did not start: {(folder / 'serve.log').read_text()}")
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    """`companion serve` in a subprocess on a free port; yields the port."""
    with serving(tmp_path) as (port, _):
        yield port


SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
"""Where the browser tests leave screenshots for a person to look at (the repo's gitignored test-output/)."""

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture
def browser() -> Iterator[Any]:
    """The system's Chromium driven by Playwright (skipped without it, a failure under CI)."""
    with chromium() as launched:
        yield launched


@contextmanager
def chromium() -> Iterator[Any]:
    """The system's Chromium driven by Playwright, for a test or a whole module (skipped without it, a failure
    under CI)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed (.ci/run installs the Debian package)")
        pytest.skip("Chromium is not installed: apt-get install chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def shots() -> Path:
    """The screenshots folder, created."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
