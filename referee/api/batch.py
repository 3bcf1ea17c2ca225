"""POST /v1/verdicts/batch: many records in one request, their verdicts streamed back as
JSON Lines in input order. Each item is judged as it would be alone (200, or the 400, 413 or
422 problem it would get), and one bad item never fails the others. The items share the
request's perfect-play budget (referee.budget): once it is spent, an item that needs a search
gets the problem it would get alone past the budget (503, or 429 with no search slot free),
and the items after it that need none are still judged."""
from __future__ import annotations

from typing import Any, Iterator

import orjson
from flask import Blueprint, Response, current_app, request

from referee import jsonitems, jsontext
from referee.engine import RefereeError
from referee.engine.settlement import Settler, Stopped
from referee.judge import judge, write

from .budget import STATUS, TITLE, new_budget
from .keys import signer
from .problems import Problem, refuse_nul
from .problems import body as problem_body
from .verdicts import load_record, read_body

bp = Blueprint("batch", __name__)
NDJSON = "application/x-ndjson"


def judge_one(data: Any, settler: Settler, raw: bytes | None = None, ring=None) -> tuple[int, orjson.Fragment | dict]:
    """(status, signed verdict or problem) for one parsed item, as POST /v1/verdicts would
    answer (the same checks). `raw`: its text, when known, to clear it of NUL without a walk;
    `ring`: the key ring (api/keys.py; looked up before: the batch's stream runs outside the app)."""
    try:
        refuse_nul(data, raw)
        record = load_record(data)
        return 200, orjson.Fragment(write(judge(record, settler), data, ring))
    except Stopped as exc:
        return STATUS[exc.reason], problem_body(STATUS[exc.reason], TITLE[exc.reason], exc.message, reason=exc.reason)
    except Problem as exc:
        return exc.status, exc.body()
    except RefereeError as exc:  # a shape the record check let through but the engine refuses
        return 422, problem_body(422, "Invalid record", str(exc), errors=[{"pointer": "/", "detail": str(exc)}])


def _judged(body: bytes, spans: list[tuple[int, int]], item_limit: int, settler: Settler,
            ring=None) -> Iterator[tuple[int, orjson.Fragment | dict]]:
    """Each item judged, parsed only then (referee/jsonitems.py): the batch never holds more
    than its body and one item parsed."""
    for start, end in spans:
        if end - start > item_limit:
            yield 413, problem_body(413, "Content Too Large", f"an item is over {item_limit} bytes", limit=item_limit)
            continue
        text = body[start:end]
        try:
            data = jsontext.loads(text)
        except jsontext.NotJSON as exc:
            yield 400, problem_body(400, "Malformed JSON", f"the item is not JSON: {exc}")
            continue
        yield judge_one(data, settler, text, ring)


def _spans(body: bytes, ndjson: bool, most: int) -> list[tuple[int, int]]:
    """Where the items are (`most + 1` at most): the lines, or the JSON array's items by its frame."""
    if ndjson:
        return jsonitems.line_spans(body, most)
    try:
        return jsonitems.array_spans(body, most)
    except jsontext.NotJSON as exc:
        raise Problem(400, "Malformed JSON", f"the body is not JSON: {exc}") from None
    except jsonitems.NotAnArray:
        raise Problem(422, "Invalid batch", "a JSON batch is an array of records",
                      errors=[{"pointer": "/", "detail": "must be an array"}]) from None


@bp.post("/v1/verdicts/batch", endpoint="createVerdicts")
def create_verdicts():
    mimetype = request.mimetype or ""
    ndjson = mimetype in (NDJSON, "application/jsonl", "application/x-jsonlines")
    if not ndjson and mimetype != "application/json":
        raise Problem(415, "Unsupported Media Type", f"send records as {NDJSON} (one per line) or an application/json "
                                                     f"array, not {mimetype or 'no type'}")
    config = current_app.config
    body = read_body(config["BATCH_MAX_BYTES"])
    most = config["BATCH_MAX_ITEMS"]
    spans = _spans(body, ndjson, most)
    if not spans:
        raise Problem(422, "Invalid batch", "the batch holds no record", errors=[{"pointer": "/", "detail": "empty"}])
    if len(spans) > most:
        raise Problem(413, "Content Too Large", f"the batch holds more than {most} items; at most {most} "
                      "are taken (REFEREE_BATCH_MAX_ITEMS)", limit=most)
    item_limit = config["MAX_CONTENT_LENGTH"]
    ring = signer()
    budget = new_budget()  # the answer streams after the view returns: its generator owns the budget

    def lines() -> Iterator[bytes]:
        with budget:
            judged = _judged(body, spans, item_limit, budget.settler(), ring)
            for index, (status, body_) in enumerate(judged):
                key = "verdict" if status == 200 else "problem"
                yield jsontext.dumps_verdict({"index": index, "status": status, key: body_}) + b"\n"

    return Response(lines(), mimetype=NDJSON)
