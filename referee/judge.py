"""The one judging path. Every surface that judges a record (POST /v1/verdicts and its batch,
the store's writes, `referee check`, the pages, `referee verify`) reads it, judges it and
writes its verdict here, so that they give the same verdict, byte for byte:

    read(data)                the one reader: the record as received (or as stored) to the
                              engine's record, or RecordProblems pointing at every problem
    judge(record, settler)    the one judge: a record whole (the engine's Verdict), or a stored
                              record (its JSON); judge_deal, its last deal alone
    write(verdict, data)      the one writer: the verdict's JSON with its provenance and
                              signature (null without a key); write_tail, the same from the
                              deals a live write changed and the states of the hashes before

A live write that only appended events to the last deal, or added a deal after finished ones
(resumes()), judges that deal alone, from the standing it began from (its row's `start`, or
for a new deal the verdict's `match`); any other write judges the whole record. Both give the
same bytes, and write_tail the same provenance and signature as write
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
from referee.engine.facts import OVER  # a deal the next one may follow
from referee.engine.settlement import Settler
from referee.record_shape import read_record
from referee.record_shape.plain import plain_record
from referee.record_shape.walk import check_record



def read(data: Any, pointer: str = "", accepted: bool = False, checked: bool = False,
         stored: bool = False) -> Record | dict:
    """The engine's record of `data`, or RecordProblems (a JSON pointer per problem).
    `accepted`: a record a referee took before (`referee verify`'s), whose options are not
    refused for having no effect; `checked`: one this server checked when it took it (a
    stored match's), read without walking it again; `stored`: a record for a tournament's
    match, whose preset and options are its tournament's (both optional) and whose deals may
    be absent, given back cleaned as the store keeps it (a dict), never refused for options
    without effect."""
    if stored:
        return check_record(data, pointer, stored=True)
    if checked:
        return Record.from_dict(data)
    if not accepted:
        return read_record(data, pointer)
    record = plain_record(data)  # what the strict walk takes unchanged, the lenient one takes the same
    return record if record is not None else Record.from_dict(check_record(data, pointer, accepted=True))


def judge(record: Record | dict, settler: Settler | None = None, steps: bool | Container[int] = False
          ) -> Verdict | dict:
    """The verdict on `record`. An engine record (read()) is judged whole: the engine's Verdict,
    keeping the steps of the deals `steps` names (True: all). A stored record (its dict, as
    checked when taken) gives its verdict's JSON. `settler`: perfect play for claims and the
    bell (settlement.Stopped: no verdict)."""
    if isinstance(record, Record):
        return judge_whole(record, steps, settler)
    return judge_whole(read(record, checked=True), settler=settler).as_dict()


def judge_deal(record: dict, index: int, start: dict, expected: int | None, settler: Settler | None = None) -> dict:
    """The verdict's JSON of a stored record whose deals before `index` are judged, valid and
    over, judging deal `index` alone (`record`'s last deal) from `start`, the standing it
    begins from; `expected`: the dealer the deal before it named (None: the first deal). Its
    deals are that deal's verdict alone; the rest is the whole judge's, byte for byte."""
    last = read({"preset": record["preset"], "options": record.get("options"), "deals": record["deals"][-1:]},
                checked=True)
    earlier = [*[None] * (index - 1), {"next_dealer": expected}] if index else []  # only the last is read
    verdict = judge_last(last, earlier, start, settler)
    return {**verdict, "deals": verdict["deals"][index:]}


def resumes(record: dict, old_record: dict, old_verdict: dict, start: dict) -> tuple[int, dict] | None:
    """Where a live write may judge one deal alone: `record`, `old_record` and `old_verdict`
    hold their deals from the old last deal on (all of them when there is none), `start` the
    standing that deal began from. A deal added after a finished one: (its place among them,
    the verdict's `match`); events appended to an unfinished last deal: (0, `start`); None
    for anything else. The deals before are over: in a valid verdict not closed, an
    unfinished deal followed by another is an error."""
    old, new, standing = old_record["deals"], record["deals"], old_verdict["match"]
    if (not old_verdict["valid"] or standing["finished"] or record.get("closed") or not new
            or without(record, "deals") != without(old_record, "deals") or len(old) > 1):
        return None
    status = old_verdict["deals"][-1]["status"] if old else None
    if len(new) == len(old) + 1 and new[:-1] == old and status in (None, *OVER):
        return len(old), standing
    if len(new) == len(old) == 1 and appended(old[0], new[0]) and status == "in_progress":
        return 0, start
    return None


def appended(old: dict, new: dict) -> bool:
    """`new` is the deal `old` with events added after its own."""
    return alike(new, old, len(old.get("events") or []))


def alike(a: dict, b: dict, events: int | None = None) -> bool:
    """Two deals alike: all but their events, and their first `events` events (all when None):
    a deal that only gained events (appended), or whose claim's answer is unchanged (the
    settlers' reuse)."""
    if without(a, "events") != without(b, "events"):
        return False
    ea, eb = a.get("events") or [], b.get("events") or []
    return ea == eb if events is None else ea[:events] == eb[:events]


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


def write_tail(verdict: dict, record: dict, prefix: dict, signer=None, place: dict | None = None) -> dict:
    """write() of a live write's verdict: `verdict` and `record` hold their deals from some deal
    on, `prefix` the SHA-256 states of the whole's canonical forms up to it (store/deals.py),
    or those hashes resumed (hashed()). The same provenance and signature as write() of the
    whole, hashing these deals alone."""
    from referee.provenance import provenance
    from referee import verdict_signing as signing

    prov = provenance(None, resolve(record["preset"], record.get("options")), place,
                      "sha256:" + hashed(prefix["record"], record).hex())
    key = signing.sign_provenance(prov, signer)
    out = {**{k: v for k, v in verdict.items() if k not in ("provenance", "signature")}, "provenance": prov}
    out["signature"] = key.sign(signing.PREFIX + hashed(prefix["verdict"], out)) if key is not None else None
    return out


def hashed(state, value: dict) -> bytes:
    """The SHA-256 of the canonical form of a record or verdict whose deals before `value`'s
    were hashed into `state` (a midstate's: '{"deals":[' and each deal's form and a comma;
    or a midstate.Sha256 resumed from it, left as it is); its members but its deals all sort
    after "deals" (a live write's: not closed)."""
    from referee.midstate import Sha256
    from referee.provenance import canonical

    h = Sha256(state) if isinstance(state, dict) else state.copy()
    for i, deal in enumerate(value["deals"]):
        h.update(b"," + canonical(deal) if i else canonical(deal))
    rest = canonical(without(value, "deals"))
    return h.update(b"]," + rest[1:] if rest != b"{}" else b"]}").digest()
