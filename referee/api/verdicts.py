"""POST /v1/verdicts and GET /v1/presets."""
from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify, request
from referee import jsontext
from referee.engine import Record
from referee.engine.rulebook import explained
from referee.judge import judge, read, write

from .bodies import load_record as _load
from .budget import request_budget
from .keys import signer
from .problems import Problem, refuse_nul

bp = Blueprint("verdicts", __name__)


def read_json(body: bytes | None = None) -> Any:
    """The request body (`body` when it has been read already) as JSON, or a 400/415 problem."""
    _check_json_type()
    if body is None:
        body = read_body()
    try:
        data = jsontext.loads(body)
    except jsontext.NotJSON as exc:
        raise Problem(400, "Malformed JSON", f"the body is not JSON: {exc}") from None
    refuse_nul(data, body)
    return data


def _check_json_type() -> None:
    mimetype = request.mimetype or ""
    if mimetype and mimetype != "application/json" and not mimetype.endswith("+json"):
        raise Problem(415, "Unsupported Media Type", f"send the record as application/json, not {mimetype}")


def read_json_later() -> Callable[[], Any]:
    """The body received whole now, parsed when the returned function is called: a live write
    reads it before its transaction (a slow client must not hold the match's row lock, or
    SQLite's write lock, while it sends) and parses it after its key is checked, so 401/403/404
    still come before the body's 415, 413, 400 and 422."""
    try:
        body, refused = read_body(), None
    except Problem as exc:  # 413: said after the key, as before
        body, refused = None, exc

    def parsed() -> Any:
        if refused is not None:
            _check_json_type()
            raise refused
        return read_json(body)
    return parsed


def read_body(limit: int | None = None) -> bytes:
    """The whole body, at most `limit` bytes (the app's MAX_CONTENT_LENGTH): a longer one is
    413, also when it comes chunked (no Content-Length to check beforehand)."""
    req = request._get_current_object()  # looked up once: every verdict's body is read here
    limit = limit or current_app.config["MAX_CONTENT_LENGTH"]
    req.max_content_length = limit  # this endpoint's limit, not only the app's
    length = req.content_length
    if length is not None:
        if length > limit:
            raise Problem(413, "Content Too Large", f"the body is over the limit of {limit} bytes", limit=limit)
        return req.get_data(cache=True)
    stream = req.environ["wsgi.input"]
    body = stream.read(limit + 1)
    if len(body) > limit:
        raise Problem(413, "Content Too Large", f"the body is over the limit of {limit} bytes", limit=limit)
    return body


def load_record(data: Any) -> Record:
    """The engine's record, or 422 with a pointer per problem in its shape."""
    return _load(data, read)


@bp.post("/v1/verdicts", endpoint="createVerdict")
def create_verdict():
    data = read_json()
    record = load_record(data)
    return Response(write(judge(record, request_budget().settler()), data, signer()), mimetype="application/json")


@bp.get("/v1/presets", endpoint="listPresets")
def list_presets():
    return jsonify(explained())
