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
    # Every answer passes here: the request is looked up once, and the Vary header is parsed
    # only when a view set one already (most set none: it is written as it would be added).
    req = request._get_current_object()
    if req.path.startswith("/static/"):
        return response
    headers = response.headers
    if "Vary" in headers:
        response.vary.add("Authorization")
    else:
        headers["Vary"] = "Authorization"
    if "HTTP_AUTHORIZATION" in req.environ:  # the Authorization header, as request.headers finds it
        headers["Cache-Control"] = PRIVATE
    elif "Cache-Control" not in headers:
        headers["Cache-Control"] = CHECK_AGAIN
    return response


def register(app: Flask) -> None:
    app.after_request(cache_headers)
