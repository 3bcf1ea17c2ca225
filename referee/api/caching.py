"""What caches may keep: nothing shown with a key, and every answer says so explicitly.

A request that sends `Authorization` may get what only a key shows: `Cache-Control: private,
no-store`, so no shared cache, browser history or disk keeps it. Everything else the app
answers (API JSON, problems, pages) that did not say otherwise is `no-cache`: it may be
kept, but is checked again (its ETag) before each use. Every answer but the static files
varies with `Authorization`, and a keyed view's ETag is never the public view's."""
from __future__ import annotations

from flask import Flask, Response, request

PRIVATE = "private, no-store"
CHECK_AGAIN = "no-cache"


def cache_headers(response: Response) -> Response:
    if request.path.startswith("/static/"):
        return response
    response.vary.add("Authorization")
    if "Authorization" in request.headers:
        response.headers["Cache-Control"] = PRIVATE
    elif "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = CHECK_AGAIN
    return response


def register(app: Flask) -> None:
    app.after_request(cache_headers)
