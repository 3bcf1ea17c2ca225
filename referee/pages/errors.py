"""Not found, for a person: a browser (Accept: text/html) asking for a page gets an HTML 404
page with a way home; API clients (and every /v1/ address) keep the problem+json body."""
from __future__ import annotations

from flask import Flask, render_template, request
from werkzeug.exceptions import NotFound as HTTPNotFound

from referee.api.problems import problem
from referee.store.errors import NotFound as StoreNotFound


def wants_html() -> bool:
    if request.path.startswith("/v1/"):
        return False
    accept = request.accept_mimetypes
    return accept["text/html"] > max(accept["application/json"], accept["application/problem+json"])


# The pages a private tournament's read key opens, and the scripts that send it (and show the
# page it opens).
MATCH_SCRIPTS = ("referee.js", "live.js", "analysis.js")  # analysis.js: it starts on the match swapped in
KEY_PAGES = {"pages_tournaments.tournamentPage": ("tournament.js",), "pages_view.match": MATCH_SCRIPTS,
             "pages_view.revision": MATCH_SCRIPTS}


def not_found_page(detail: str):
    scripts = KEY_PAGES.get(request.endpoint or "")
    return render_template("not_found.html", detail=detail, key_form=scripts is not None, scripts=scripts), 404


def register(app: Flask) -> None:
    @app.errorhandler(HTTPNotFound)
    def _http_not_found(exc: HTTPNotFound):
        detail = exc.description or exc.name
        return not_found_page(detail) if wants_html() else problem(404, exc.name, detail)

    @app.errorhandler(StoreNotFound)
    def _store_not_found(exc: StoreNotFound):
        if wants_html():
            return not_found_page(exc.detail)
        return problem(exc.status, exc.title, exc.detail, **exc.extra)
