"""The Flask application factory."""
from __future__ import annotations

from typing import Any

import os

from flask import Flask

from .api.jsonprovider import OrjsonProvider

MAX_BODY = 1024 * 1024  # 1 MiB: one record (one item of a batch)


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


class Referee(Flask):
    json_provider_class = OrjsonProvider  # responses in the contract's key order, fast


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Referee("referee")
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, BATCH_MAX_BYTES=_env_int("REFEREE_BATCH_MAX_BYTES", 32 * MAX_BODY),
                      BATCH_MAX_ITEMS=_env_int("REFEREE_BATCH_MAX_ITEMS", 10_000))
    if test_config:
        app.config.update(test_config)
    from . import api, pages
    from .store.db import Database
    from .store.service import Store

    from .api.budget import request_budget

    app.extensions["referee.store"] = store = Store(Database(app.config.get("DATABASE_URL")), budget=request_budget)
    api.register(app, store.db.url)
    pages.register(app)
    return app


def served_app() -> Flask:
    """The app as gunicorn serves it (`referee serve`, wsgi.py): built once per server, then
    each worker forks from it with what was loaded frozen (gctune)."""
    from . import gctune

    app = create_app()
    gctune.for_big_verdicts()
    return app
