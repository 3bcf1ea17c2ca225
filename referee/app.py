"""The Flask application factory."""
from __future__ import annotations

from typing import Any

from flask import Flask

MAX_BODY = 1024 * 1024  # 1 MiB


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, JSON_SORT_KEYS=False)
    if test_config:
        app.config.update(test_config)
    app.json.sort_keys = False
    from . import api, pages
    from .store.db import Database
    from .store.service import Store

    app.extensions["referee.store"] = Store(Database(app.config.get("DATABASE_URL")))
    api.register(app)
    pages.register(app)
    return app
