"""The one judging path. Every surface that judges a record (POST /v1/verdicts and its batch,
the store's writes, `referee check`, the pages, `referee verify`) reads it, judges it and
writes its verdict here, so that they give the same verdict, byte for byte:

    read(data)                the one reader: the record as received (or as stored) to the
                              engine's record, or RecordProblems pointing at every problem
    judge(record, settler)    the one judge: a record whole (the engine's Verdict), or a stored
                              record (its JSON), whose live write judges its last deal alone
    write(verdict, data)      the one writer: the verdict's JSON with its provenance and
                              signature (null without a key)

A live write that only appended events to the last deal, or added a deal after finished ones,
judges that deal alone, from the standing the earlier deals left (the verdict before's `match`
and their verdicts); any other write judges the whole record. Both give the same bytes
(tests/store/test_incremental_judge.py).

Nothing here imports the web or the database, nor (until a verdict is written) the digests
and signing: `referee check` stays light (tests/test_one_judge.py).
"""
from __future__ import annotations

from typing import Any, Container

import orjson

from referee import jsontext
from referee.engine import Record, Verdict, judge_last, resolve
from referee.engine import judge as judge_whole
from referee.engine.settlement import Settler
from referee.record_shape import read_record
from referee.record_shape.plain import plain_record
from referee.record_shape.walk import check_record

OVER = ("complete", "ended_by_penalty", "redeal")  # a deal the next one may follow


def read(data: Any, pointer: str = "", accepted: bool = False, checked: bool = False) -> Record:
    """The engine's record of `data`, or RecordProblems (a JSON pointer per problem).
    `accepted`: a record a referee took before (`referee verify`'s), whose options are not
    refused for having no effect; `checked`: one this server checked when it took it (a
    stored match's), read without walking it again."""
    if checked:
        return Record.from_dict(data)
    if not accepted:
        return read_record(data, pointer)
    record = plain_record(data)  # what the strict walk takes unchanged, the lenient one takes the same
    return record if record is not None else Record.from_dict(check_record(data, pointer, accepted=True))


def judge(record: Record | dict, settler: Settler | None = None, steps: bool | Container[int] = False,
          before: tuple[dict, dict] | None = None) -> Verdict | dict:
    """The verdict on `record`. An engine record (read()) is judged whole: the engine's Verdict,
    keeping the steps of the deals `steps` names (True: all). A stored record (its dict, as
    checked when taken) gives its verdict's JSON; `before`: the (record, verdict) a live write
    changed, when its last deal may be judged alone (resumable()). `settler`: perfect play for
    claims and the bell (settlement.Stopped: no verdict)."""
    if isinstance(record, Record):
        return judge_whole(record, steps, settler)
    start = resumable(record, before[0], before[1]) if before is not None else None
    if start is None:
        return judge_whole(read(record, checked=True), settler=settler).as_dict()
    last = read({"preset": record["preset"], "options": record.get("options"), "deals": record["deals"][-1:]},
                checked=True)
    return judge_last(last, *start, settler)


def resumable(record: dict, old_record: dict, old_verdict: dict) -> tuple[list[dict], dict] | None:
    """The earlier deals' verdicts and the standing the last deal starts from, when `record` is
    `old_record` with events appended to its last deal (unscored: the standing is the verdict's
    `match`) or with a deal added after finished ones; else None."""
    old, new, standing = old_record["deals"], record["deals"], old_verdict["match"]
    if (not old_verdict["valid"] or standing["finished"] or record.get("closed") or not new
            or without(record, "deals") != without(old_record, "deals")):
        return None
    statuses = [d["status"] for d in old_verdict["deals"][-2:]]
    if len(new) == len(old) + 1 and new[:-1] == old and (not statuses or statuses[-1] in OVER):
        return old_verdict["deals"], standing
    if (len(new) == len(old) and new[:-1] == old[:-1] and _appended(old[-1], new[-1])
            and statuses[-1] == "in_progress" and all(s in OVER for s in statuses[:-1])):
        return old_verdict["deals"][:-1], standing
    return None


def _appended(old: dict, new: dict) -> bool:
    """`new` is the deal `old` with events added after its own."""
    events, more = old.get("events") or [], new.get("events") or []
    return without(old, "events") == without(new, "events") and more[:len(events)] == events


def without(d: dict, name: str) -> dict:
    """`d` but its `name` (store/deals.py too)."""
    return {k: v for k, v in d.items() if k != name}


def write(verdict: Verdict | dict, data: Any, signer=None, place: dict | None = None) -> bytes | dict:
    """The verdict with its provenance (of `data`, the record as received, under its preset and
    options; `place`: a stored match's revision, provenance.place()) and its signature, by
    `signer`'s current key (a verdict_signing.Signer; null without one). An engine Verdict is
    written as JSON text, each deal written once and hashed as it is written; a verdict's JSON
    (a stored match's, a dict) is given back as a dict, any provenance it held replaced."""
    from referee.provenance import provenance  # its digests' hashlib: not for a summary's start-up

    prov = provenance(data, resolve(data["preset"], data.get("options")), place)
    if signer is None and not isinstance(verdict, dict):
        return _unsigned(verdict, prov)
    from referee import verdict_signing as signing

    key = signing.sign_provenance(prov, signer)
    if isinstance(verdict, dict):
        out = {**{k: v for k, v in verdict.items() if k not in ("provenance", "signature")}, "provenance": prov}
        out["signature"] = key.sign(signing.message(out)) if key is not None else None
        return out
    if key is None:
        return _unsigned(verdict, prov)
    body, digest = signing.written_and_hashed(verdict, prov)
    return orjson.dumps({**body, "signature": key.sign(signing.PREFIX + digest)})  # signed_bytes()'s


def _unsigned(verdict: Verdict, prov: dict) -> bytes:
    from referee.provenance import unsigned_verdict

    return unsigned_verdict(jsontext.dumps_verdict(verdict), prov)
