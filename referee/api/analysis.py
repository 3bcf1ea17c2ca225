"""POST /v1/analysis and GET /v1/matches/{id}/analysis: perfect play from a position of a
deal with hands (referee.solver), under a search limit so no request holds a worker long.

Two forms. One position (`event`): one JSON answer. The whole deal (`whole_deal`): every
position with a seat to play, streamed as JSON Lines, one line per position as it is
solved (the last position first), under one budget for the whole request; a position past it
is a `past_limit` line, never a guess (docs/records.md, "A whole deal").

The limit: `ANALYSIS_MAX_NODES` search nodes (default 2,000,000; a whole deal's positions
together `ANALYSIS_DEAL_MAX_NODES`, default 20,000,000) and `ANALYSIS_MAX_SECONDS` of wall
time (default 10), each from the app's config or the environment variable `REFEREE_<name>`.
Past it the one position is a 422 problem naming the limit (`limit`), never a partial value.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request
from marshmallow import Schema, ValidationError, validate, validates_schema

from referee import jsontext
from referee.budget import Budget
from referee.engine import Record, RecordError
from referee.engine.settlement import Settler, Stopped
from referee.judge import read
from referee.settlers import Recorded
from referee.solver import OBJECTIVES, SearchLimit, SearchLimitExceeded, UnsolvablePosition
from referee.solver.review import DealAnalysis, NoHands, NoSuchPosition, Shared, analysis_at
from referee.store.errors import Unauthorized

from .auth import bearer_key
from .bodies import Index, Raw, StrictBool, String, invalid, load
from .budget import new_budget, request_budget
from .batch import NDJSON
from .problems import Problem
from .verdicts import read_json

bp = Blueprint("analysis", __name__)

MAX_NODES, DEAL_MAX_NODES, MAX_SECONDS = 2_000_000, 20_000_000, 10.0
ONE_OF_OBJECTIVES = "must be \"score\" or \"tricks\""


class AnalysisSchema(Schema):
    record = Raw(required=True)
    deal = Index(required=True)
    event = Index(allow_none=True, load_default=None)
    objective = String(load_default="score", validate=validate.OneOf(OBJECTIVES, error=ONE_OF_OBJECTIVES))
    whole_deal = StrictBool(load_default=False)
    from_event = Index(load_default=None)
    line = StrictBool(load_default=True)

    @validates_schema
    def _forms(self, data: dict, **kwargs) -> None:
        _check_forms(data)


def _check_forms(data: dict) -> None:
    """`event` names the one position; `from_event` where a whole deal's positions start."""
    if data.get("whole_deal") and data.get("event") is not None:
        raise ValidationError("the whole deal's analysis has every position: leave event out "
                              "(from_event: the first position)", "event")
    if not data.get("whole_deal") and data.get("from_event") is not None:
        raise ValidationError("from_event is the first position of a whole deal's analysis (whole_deal: true)",
                              "from_event")


def search_limit(whole_deal: bool = False) -> SearchLimit:
    """One request's limits: one position's, or a whole deal's (its positions together: ten of
    one position's nodes, as a deal has some fifty positions and most are quick; its time the same)."""
    config = current_app.config
    name, default = ("ANALYSIS_DEAL_MAX_NODES", DEAL_MAX_NODES) if whole_deal else ("ANALYSIS_MAX_NODES", MAX_NODES)
    nodes = config.get(name) or int(os.environ.get(f"REFEREE_{name}") or default)
    seconds = config.get("ANALYSIS_MAX_SECONDS") or float(os.environ.get("REFEREE_ANALYSIS_MAX_SECONDS") or MAX_SECONDS)
    return SearchLimit(nodes, seconds)


def analysis_budget():
    """The request's budget of perfect play, with the analysis's own limits: a claim settled on
    the way to the position spends from it too."""
    limit = search_limit()
    return request_budget(nodes=limit.nodes, seconds=limit.seconds)


@bp.post("/v1/analysis", endpoint="createAnalysis")
def create_analysis():
    data = load(AnalysisSchema, read_json(), "analysis request", {"record": read})
    return respond(data["record"], data, lambda budget: budget.settler())


@bp.get("/v1/matches/<match_id>/analysis", endpoint="getMatchAnalysis")
def match_analysis(match_id: str):
    store = current_app.extensions["referee.store"]
    view = store.get_match(match_id, bearer_key())  # 401/403/404 as for the match itself
    query = _query()
    index = query["deal"]
    record = view.revision.record
    if not view.full and index < len(record["deals"]) and view.public().hidden(index):
        raise Unauthorized(f"deal {index + 1} is still in play and its analysis shows every hand: "
                           "send the tournament's write or read key (Authorization: Bearer <key>)")
    recorded = Recorded(view.revision.verdict)  # its claims: never searched again
    return respond(read(record, checked=True), query, lambda budget: recorded)


QUERY_NUMBERS, QUERY_FLAGS = ("deal", "event", "from_event"), {"whole_deal": False, "line": True}


def _query() -> dict:
    errors = []
    values: dict[str, Any] = {}
    for name in QUERY_NUMBERS:
        raw = request.args.get(name)
        if raw is None:
            if name == "deal":
                errors.append({"pointer": "/deal", "detail": "required"})
            values[name] = None
        elif raw.isdigit() and raw.isascii():
            values[name] = int(raw)
        else:
            errors.append({"pointer": f"/{name}", "detail": "must be a whole number from 0"})
    for name, default in QUERY_FLAGS.items():
        raw = request.args.get(name)
        if raw is None or raw in ("true", "false"):
            values[name] = default if raw is None else raw == "true"
        else:
            errors.append({"pointer": f"/{name}", "detail": "must be true or false"})
    values["objective"] = request.args.get("objective", "score")
    if values["objective"] not in OBJECTIVES:
        errors.append({"pointer": "/objective", "detail": ONE_OF_OBJECTIVES})
    try:
        _check_forms(values)
    except ValidationError as exc:
        errors += [{"pointer": f"/{field}", "detail": detail} for field, details in exc.normalized_messages().items()
                   for detail in details]
    if errors:
        raise invalid("query", errors)
    return values


def respond(record: Record, asked: dict, settler_of: Callable[[Budget], Settler]) -> Response:
    """The one position's answer, or the whole deal's lines; the 422 problem that says why
    there is none. `settler_of(budget)`: for a claim settled on the way to a position, within
    the budget of the answer (a whole deal's is its stream's, which holds the request's one
    search slot)."""
    index, objective = asked["deal"], asked["objective"]
    if asked["whole_deal"]:
        limit = search_limit(whole_deal=True)
        stream = new_budget(seconds=limit.seconds)  # the lines stream after the view returns: they own this budget
        shared = Shared(limit.nodes, limit.seconds, within=stream.limit())
        try:
            stream.reserve()  # no slot free in its turn: 429 now, not a stream of positions past the limit
            whole = _unprocessable_if(lambda: DealAnalysis(record, index, objective, shared, asked["line"],
                                                           asked["from_event"] or 0, settler_of(stream)), index)
        except BaseException:
            stream.close()
            raise
        response = Response(_lines(whole, stream, shared), mimetype=NDJSON)
        response.headers["X-Accel-Buffering"] = "no"  # each line to the client as it is solved, through a proxy too
        return response
    budget = analysis_budget()
    try:
        with budget.search() as limit:
            found = _unprocessable_if(lambda: analysis_at(record, index, asked["event"], objective, limit,
                                                          asked["line"], settler_of(budget)), index)
        return jsonify(found)
    except SearchLimitExceeded as exc:
        if exc.reason == "cancelled":
            raise budget.stopped(exc) from None
        raise _past_limit(str(exc), budget, exc.nodes) from None
    except Stopped as exc:  # settling a claim on the way spent the request's budget
        if exc.reason not in ("nodes", "seconds"):
            raise
        raise _past_limit(exc.message, budget, budget.limit().spent) from None


def _past_limit(why: str, budget, nodes: int) -> Problem:
    return Problem(422, "Analysis limit reached", f"{why}: this position takes longer than the referee searches "
                   "for one request; ask for a later position of the deal",
                   limit={"nodes": budget.nodes, "seconds": budget.seconds}, nodes=nodes)


def _lines(whole: DealAnalysis, stream, shared: Shared) -> Iterator[str]:
    """The whole deal: a `deal` line (the positions to come, in order), one line per position
    as it is solved, an `end` line. A client that goes away stops it between positions, and
    its search at once. Each position holds a search slot while it is solved, not while its
    line is written to the client."""
    with stream:
        yield jsontext.dumps_line(whole.start_dict())
        positions = iter(whole)
        while (found := _next_position(positions, stream, shared)) is not None:
            yield jsontext.dumps_line(found.as_dict())
        if not whole.cancelled:
            yield jsontext.dumps_line(whole.end_dict())


def _next_position(positions, stream, shared: Shared):
    """The next position solved, with a slot taken in turn; when none comes (or the time is
    spent), the positions left are past the limit, unsearched."""
    left = stream.time_left()
    if not shared.stopped and (left is None or left > 0):
        try:
            stream.reserve()
        except Stopped:  # busy: no slot in this position's turn
            shared.stop()
    if shared.stopped or (left is not None and left <= 0):
        shared.stop()
        return next(positions, None)
    with stream.search():
        return next(positions, None)


def _unprocessable_if(run, index: int):
    """`run()`, its errors as 422 problems (deals counted from 1 in the details, pointers as in JSON)."""
    try:
        return run()
    except NoSuchPosition as exc:
        raise _unprocessable("No such position", str(exc), exc.pointer) from None
    except NoHands as exc:
        raise _unprocessable("No hands", str(exc), f"/record/deals/{exc.index}/hands") from None
    except UnsolvablePosition as exc:
        raise _unprocessable("Not a position to analyse", f"deal {index + 1}: {exc}",
                             f"/record/deals/{index}/events") from None
    except RecordError as exc:
        at = f"/record/deals/{index}/events" + (f"/{exc.event}" if exc.event is not None else "")
        where = f" (event {exc.event + 1})" if exc.event is not None else ""
        raise Problem(422, "Impossible record", f"deal {index + 1} is impossible before that point{where}: {exc.message}",
                      errors=[{"pointer": at, "detail": exc.message, "code": exc.code, "deal": index,
                               "event": exc.event, "message": exc.message}]) from None


def _unprocessable(title: str, detail: str, pointer: str) -> Problem:
    return Problem(422, title, detail, errors=[{"pointer": pointer, "detail": detail}])
