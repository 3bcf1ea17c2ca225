"""RFC 9457 problem details: every error the API returns."""
from __future__ import annotations

from flask import Flask, Response, json
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import HTTPException, InternalServerError

PROBLEM = "application/problem+json"
MAX_ERRORS = 100  # entries of `errors` in one problem; `errors_omitted` counts the rest


def body(status: int, title: str, detail: str, type_: str = "about:blank", **extra) -> dict:
    """A problem document; its `errors` bounded (a small body may hold a great many)."""
    errors = extra.get("errors")
    if isinstance(errors, list) and len(errors) > MAX_ERRORS:
        extra = {**extra, "errors": errors[:MAX_ERRORS], "errors_omitted": len(errors) - MAX_ERRORS}
    return {"type": type_, "title": title, "status": status, "detail": detail, **extra}


def problem(status: int, title: str, detail: str, type_: str = "about:blank", **extra) -> Response:
    return Response(json.dumps(body(status, title, detail, type_, **extra)), status=status, mimetype=PROBLEM)


class Problem(Exception):
    """Raised by a view to answer with a problem document."""

    def __init__(self, status: int, title: str, detail: str, **extra):
        super().__init__(detail)
        self.status, self.title, self.detail, self.extra = status, title, detail, extra

    def body(self) -> dict:
        return body(self.status, self.title, self.detail, **self.extra)


def refuse_nul(data, raw: bytes | str | None = None) -> None:
    """422 for text holding the NUL character anywhere (PostgreSQL cannot store it).
    `raw`: the JSON text, when known, to clear it without a walk."""
    from referee import jsontext

    nul = jsontext.nul_pointers(data) if raw is None or jsontext.may_hold_nul(raw) else []
    if nul:
        raise Problem(422, "Invalid request", "text must not contain the NUL character",
                      errors=[{"pointer": p, "detail": "must not contain the NUL character"} for p in nul])


def register(app: Flask) -> None:
    from referee.serving import RequestTimeout
    from referee.store.errors import StoreError, Unauthorized

    @app.errorhandler(Problem)
    def _problem(exc: Problem):
        return problem(exc.status, exc.title, exc.detail, **exc.extra)

    @app.errorhandler(StoreError)
    def _store(exc: StoreError):
        response = problem(exc.status, exc.title, exc.detail, **exc.extra)
        if isinstance(exc, Unauthorized):
            response.headers["WWW-Authenticate"] = 'Bearer realm="referee"'
        if "etag" in exc.extra:
            response.headers["ETag"] = exc.extra["etag"]
        return response

    @app.errorhandler(NoMoreData)
    @app.errorhandler(ParseException)
    def _unreadable(exc: Exception):
        """A body the server cannot read (a chunk size `zz`, a body cut short): the client's
        fault, found only when the app reads the body, after gunicorn handed the request over."""
        return problem(400, "Bad Request", f"the request body is malformed: {type(exc).__name__}")

    @app.errorhandler(RequestTimeout)
    def _too_slow(exc: RequestTimeout):
        """The body did not arrive in time (referee.serving's deadline, or a read's timeout)."""
        return problem(408, "Request Timeout", str(exc))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        response = problem(exc.code or 500, exc.name, exc.description or exc.name)
        if exc.code == 405 and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # never leak internals
        app.logger.exception("unhandled error")
        err = InternalServerError()
        return problem(500, err.name, "the referee failed on this request; it has been logged")
