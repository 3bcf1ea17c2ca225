"""POST /v1/analysis and GET /v1/matches/{id}/analysis: perfect play from a position of a
deal with hands (referee.solver), under a search limit so no request holds a worker long.

The limit: `ANALYSIS_MAX_NODES` search nodes (default 2,000,000) and `ANALYSIS_MAX_SECONDS`
of wall time (default 10), each from the app's config or the environment variable
`REFEREE_ANALYSIS_MAX_NODES` / `REFEREE_ANALYSIS_MAX_SECONDS`. Past it the answer is a 422
problem naming the limit (`limit`), never a partial value.
"""
from __future__ import annotations

import os
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from marshmallow import Schema, ValidationError, fields, validate

from referee.engine import Record, RecordError
from referee.records import check_record
from referee.solver import OBJECTIVES, SearchLimit, SearchLimitExceeded, UnsolvablePosition
from referee.solver.review import NoHands, NoSuchPosition, analysis_at
from referee.store.errors import Unauthorized

from .auth import bearer_key
from .problems import Problem
from .validation import load
from .verdicts import read_json

bp = Blueprint("analysis", __name__)

MAX_NODES, MAX_SECONDS = 2_000_000, 10.0


class Index(fields.Field):
    """A whole number from 0 (not true/false, not 1.5, not "1")."""

    def _deserialize(self, value: Any, attr, data, **kwargs) -> int:
        if type(value) is not int or value < 0:
            raise ValidationError("must be a whole number from 0")
        return value


class AnalysisSchema(Schema):
    record = fields.Raw(required=True)
    deal = Index(required=True)
    event = Index(allow_none=True, load_default=None)
    objective = fields.String(load_default="score",
                              validate=validate.OneOf(OBJECTIVES, error="must be \"score\" or \"tricks\""))


def search_limit() -> SearchLimit:
    config = current_app.config
    nodes = config.get("ANALYSIS_MAX_NODES") or int(os.environ.get("REFEREE_ANALYSIS_MAX_NODES") or MAX_NODES)
    seconds = config.get("ANALYSIS_MAX_SECONDS") or float(os.environ.get("REFEREE_ANALYSIS_MAX_SECONDS") or MAX_SECONDS)
    return SearchLimit(nodes, seconds)


@bp.post("/v1/analysis", endpoint="createAnalysis")
def create_analysis():
    data = load(AnalysisSchema(), read_json(), "analysis request", {"record": _record})
    return jsonify(answer(Record.from_dict(data["record"]), data["deal"], data["event"], data["objective"]))


def _record(data, pointer):
    return check_record(data, pointer)


@bp.get("/v1/matches/<match_id>/analysis", endpoint="getMatchAnalysis")
def match_analysis(match_id: str):
    store = current_app.extensions["referee.store"]
    view = store.get_match(match_id, bearer_key())  # 401/403/404 as for the match itself
    index, event, objective = _query()
    record = view.revision.record
    if not view.full and index < len(record["deals"]) and view.public().hidden(index):
        raise Unauthorized(f"deal {index} is still in play and its analysis shows every hand: "
                           "send the tournament's write or read key (Authorization: Bearer <key>)")
    return jsonify(answer(Record.from_dict(record), index, event, objective))


def _query() -> tuple[int, int | None, str]:
    errors = []
    values = {}
    for name in ("deal", "event"):
        raw = request.args.get(name)
        if raw is None:
            if name == "deal":
                errors.append({"pointer": "/deal", "detail": "required"})
            values[name] = None
        elif raw.isdigit() and raw.isascii():
            values[name] = int(raw)
        else:
            errors.append({"pointer": f"/{name}", "detail": "must be a whole number from 0"})
    objective = request.args.get("objective", "score")
    if objective not in OBJECTIVES:
        errors.append({"pointer": "/objective", "detail": "must be \"score\" or \"tricks\""})
    if errors:
        raise Problem(422, "Invalid query", f"{len(errors)} problem(s) in the query; see errors", errors=errors)
    return values["deal"], values["event"], objective


def answer(record: Record, index: int, event: int | None, objective: str) -> dict:
    """The analysis, or the 422 problem that says why there is none."""
    limit = search_limit()
    try:
        return analysis_at(record, index, event, objective, limit)
    except NoSuchPosition as exc:
        raise _unprocessable("No such position", str(exc), exc.pointer) from None
    except NoHands as exc:
        raise _unprocessable("No hands", str(exc), f"/record/deals/{exc.index}/hands") from None
    except UnsolvablePosition as exc:
        raise _unprocessable("Not a position to analyse", f"deal {index}: {exc}",
                             f"/record/deals/{index}/events") from None
    except RecordError as exc:
        at = f"/record/deals/{index}/events" + (f"/{exc.event}" if exc.event is not None else "")
        raise Problem(422, "Impossible record", f"deal {index} is impossible before that point: {exc.message}",
                      errors=[{"pointer": at, "detail": exc.message, "code": exc.code, "deal": index,
                               "event": exc.event, "message": exc.message}]) from None
    except SearchLimitExceeded as exc:
        raise Problem(422, "Analysis limit reached",
                      f"{exc}: this position takes longer than the referee searches for one request; "
                      "ask for a later position of the deal",
                      limit={"nodes": limit.nodes, "seconds": limit.seconds}, nodes=exc.nodes) from None


def _unprocessable(title: str, detail: str, pointer: str) -> Problem:
    return Problem(422, title, detail, errors=[{"pointer": pointer, "detail": detail}])
