"""The tablet's web service: a Flask app over the companion's sessions (views stay thin)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The application; ``DATA_DIR`` chooses where games are stored (default: the user data folder)."""
    from companion.paths import default_data_dir

    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DATA_DIR=None, PANEL="simulated", CAMERA="samples", STREAM_HEARTBEAT_SECONDS=15.0,
                            STREAM_SYNC_SECONDS=1.0,
                            PUBLIC_URL=None, ALLOW_HOSTS=(), LAN_TEST=False, RESET_PIN=False)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.update(test_config)
    data_dir = Path(app.config["DATA_DIR"] or default_data_dir())
    data_dir.mkdir(parents=True, exist_ok=True)
    app.config["DATA_DIR"] = str(data_dir)

    from web import api, camera, data_forms, limits, messages, pages, panel, security, table

    security.init_app(app)  # first: its checks run before every other view
    limits.init_app(app)
    messages.init_app(app)
    table.init_app(app)
    panel.init_app(app)
    camera.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(panel.bp)
    app.register_blueprint(camera.bp)
    app.register_blueprint(data_forms.bp)
    return app
