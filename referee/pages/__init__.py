"""Pages people read: server-rendered HTML from the same app (Jinja), working offline."""
from flask import Flask

from . import errors, rules, tournament, view


def register(app: Flask) -> None:
    app.register_blueprint(rules.bp)
    app.register_blueprint(view.bp)
    app.register_blueprint(tournament.bp)
    errors.register(app)
