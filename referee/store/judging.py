"""The store's judge: a record's signed verdict, an impossible record refused. A write that
only appended events to the last deal, or added a deal after finished ones, judges that deal
alone, from the standing the earlier deals left (the stored verdict's `match` and their
verdicts); any other write (a correction, a close, a change to an earlier deal) judges the
whole record. Both give the same bytes (tests/store/test_incremental_judge.py)."""
from __future__ import annotations

from referee.engine import Record, adjudicate_dict, judge_last, resolve
from referee.engine.settlement import Settler
from referee.verdict_signing import Signer, sign_dict

from .errors import Conflict
from .views import Head

OVER = ("complete", "ended_by_penalty", "redeal")  # a deal the next one may follow


def judge(record: dict, settler: Settler, signer: Signer | None = None, where: dict | None = None,
          before: Head | None = None) -> dict:
    """The record's verdict, with its provenance and signature (by `signer`'s key); an
    impossible record is refused (nothing impossible is stored). `settler`: perfect play for
    its claims and bell (settlement.Stopped: no verdict). `where`: its place among the
    match's revisions (provenance.place()), signed with it. `before`: the head a live write
    (events appended, a deal added) changed, when its last deal may be judged alone."""
    start = resumable(record, before) if before is not None else None
    if start is None:
        verdict = adjudicate_dict(record, settler)
    else:
        last = Record.from_dict({"preset": record["preset"], "options": record.get("options"),
                                 "deals": record["deals"][-1:]})
        verdict = judge_last(last, *start, settler)
    if not verdict["valid"]:
        first = verdict["errors"][0]
        at = "" if first["event"] is None else f", event {first['event'] + 1}"
        raise Conflict(f"the record would be impossible: {first['message']} (deal {first['deal'] + 1}{at})",
                       errors=verdict["errors"])
    return sign_dict(verdict, record, resolve(record["preset"], record.get("options")), signer, where)


def resumable(record: dict, before: Head) -> tuple[list[dict], dict] | None:
    """The earlier deals' verdicts and the standing the last deal starts from, when `record`
    is `before`'s with events appended to its last deal (unscored: the standing is the
    verdict's `match`) or with a deal added after finished ones; else None."""
    old, new, verdict = before.record["deals"], record["deals"], before.verdict
    standing = verdict["match"]
    if (not verdict["valid"] or standing["finished"] or record.get("closed") or not new
            or {k: v for k, v in record.items() if k != "deals"} != {k: v for k, v in before.record.items() if k != "deals"}):
        return None
    statuses = [d["status"] for d in verdict["deals"][-2:]]
    if len(new) == len(old) + 1 and new[:-1] == old and (not statuses or statuses[-1] in OVER):
        return verdict["deals"], standing
    if (len(new) == len(old) and new[:-1] == old[:-1] and _appended(old[-1], new[-1])
            and statuses[-1] == "in_progress" and all(s in OVER for s in statuses[:-1])):
        return verdict["deals"][:-1], standing
    return None


def _appended(old: dict, new: dict) -> bool:
    """`new` is the deal `old` with events added after its own."""
    events, more = old.get("events") or [], new.get("events") or []
    return ({k: v for k, v in old.items() if k != "events"} == {k: v for k, v in new.items() if k != "events"}
            and more[:len(events)] == events)
