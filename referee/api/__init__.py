"""The HTTP layer: parses, calls the engine, serialises."""
from flask import Flask

from . import analysis, batch, budget, caching, keys, meta, problems, rules, tournaments, verdicts


def register(app: Flask, database_url: str | None = None) -> None:
    problems.register(app)
    caching.register(app)
    budget.register(app, database_url)
    app.register_blueprint(meta.bp)
    app.register_blueprint(verdicts.bp)
    app.register_blueprint(batch.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(analysis.bp)
    app.register_blueprint(keys.bp)
