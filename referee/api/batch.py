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

from referee import jsontext
from referee.engine import RefereeError, judge
from referee.engine.settlement import Settler, Stopped

from .budget import STATUS, TITLE, new_budget
from .keys import signed, signer
from .problems import Problem, refuse_nul
from .problems import body as problem_body
from .verdicts import load_record, read_body

bp = Blueprint("batch", __name__)
NDJSON = "application/x-ndjson"


def judge_one(data: Any, settler: Settler, raw: bytes | None = None, ring=True) -> tuple[int, orjson.Fragment | dict]:
    """(status, signed verdict or problem) for one parsed item, as POST /v1/verdicts would
    answer (the same checks). `raw`: its text, when known, to clear it of NUL without a walk;
    `ring`: the key ring (api/keys.py)."""
    try:
        refuse_nul(data, raw)
        record = load_record(data)
        return 200, orjson.Fragment(signed(judge(record, settler=settler), data, record, ring))
    except Stopped as exc:
        return STATUS[exc.reason], problem_body(STATUS[exc.reason], TITLE[exc.reason], exc.message, reason=exc.reason)
    except Problem as exc:
        return exc.status, exc.body()
    except RefereeError as exc:  # a shape the record check let through but the engine refuses
        return 422, problem_body(422, "Invalid record", str(exc), errors=[{"pointer": "/", "detail": str(exc)}])


def _size(data: Any) -> int:
    """An item's size as JSON text (0 for one nested too deep to write: it is refused anyway)."""
    try:
        return len(orjson.dumps(data))
    except TypeError:
        return 0


def _items(body: bytes | list, item_limit: int, settler: Settler, clean: bool = False, small: bool = False,
           ring=None) -> Iterator[tuple[int, orjson.Fragment | dict]]:
    """Each item judged. `clean`: the array's text holds no NUL at all; `small`: the whole
    body is within the item limit, so no item can be over it."""
    if isinstance(body, bytes):  # JSON Lines
        for line in body.split(b"\n"):
            if not line.strip():
                continue
            if len(line) > item_limit:
                yield 413, problem_body(413, "Content Too Large", f"an item is over {item_limit} bytes", limit=item_limit)
                continue
            try:
                data = jsontext.loads(line)
            except jsontext.NotJSON as exc:
                yield 400, problem_body(400, "Malformed JSON", f"the item is not JSON: {exc}")
                continue
            yield judge_one(data, settler, line, ring)
        return
    for data in body:  # a JSON array, already read
        if not small and _size(data) > item_limit:
            yield 413, problem_body(413, "Content Too Large", f"an item is over {item_limit} bytes", limit=item_limit)
        else:
            yield judge_one(data, settler, b"" if clean else None, ring)


def _read(body: bytes, ndjson: bool) -> tuple[int, bytes | list]:
    """How many items, and the items: the lines (still bytes) or the parsed JSON array."""
    if ndjson:
        return sum(1 for line in body.split(b"\n") if line.strip()), body
    try:
        data = jsontext.loads(body)
    except jsontext.NotJSON as exc:
        raise Problem(400, "Malformed JSON", f"the body is not JSON: {exc}") from None
    if not isinstance(data, list):
        raise Problem(422, "Invalid batch", "a JSON batch is an array of records",
                      errors=[{"pointer": "/", "detail": "must be an array"}])
    return len(data), data


@bp.post("/v1/verdicts/batch", endpoint="createVerdicts")
def create_verdicts():
    mimetype = request.mimetype or ""
    ndjson = mimetype in (NDJSON, "application/jsonl", "application/x-jsonlines")
    if not ndjson and mimetype != "application/json":
        raise Problem(415, "Unsupported Media Type", f"send records as {NDJSON} (one per line) or an application/json "
                                                     f"array, not {mimetype or 'no type'}")
    config = current_app.config
    body = read_body(config["BATCH_MAX_BYTES"])
    count, items = _read(body, ndjson)
    if count == 0:
        raise Problem(422, "Invalid batch", "the batch holds no record", errors=[{"pointer": "/", "detail": "empty"}])
    if count > config["BATCH_MAX_ITEMS"]:
        raise Problem(413, "Content Too Large", f"the batch holds {count} items; at most {config['BATCH_MAX_ITEMS']} "
                      "are taken (REFEREE_BATCH_MAX_ITEMS)", limit=config["BATCH_MAX_ITEMS"])
    item_limit = config["MAX_CONTENT_LENGTH"]
    ring = signer()
    budget = new_budget()  # the answer streams after the view returns: its generator owns the budget

    def lines() -> Iterator[bytes]:
        clean = not jsontext.may_hold_nul(body)
        with budget:
            judged = _items(items, item_limit, budget.settler(), clean, len(body) <= item_limit, ring)
            for index, (status, body_) in enumerate(judged):
                key = "verdict" if status == 200 else "problem"
                yield jsontext.dumps_verdict({"index": index, "status": status, key: body_}) + b"\n"

    return Response(lines(), mimetype=NDJSON)
