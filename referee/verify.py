"""Checking a signed verdict offline (`referee verify`): does its signature hold, by which key,
and does this engine, judging the record again, give the same verdict? No server, no
database: the verdict, its record (in the same file or given apart) and the public keys.

Claims settled by perfect play are settled again by this engine's own search, within its
limit; a claim (or a deal finished at the bell) past that limit is finished along the line the
signed verdict records, played through the rules, and the report says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from referee import __version__
from referee.budget import Budget, Limits
from referee.engine import resolve
from referee.engine.errors import RecordError, RefereeError
from referee.engine.settlement import Stopped
from referee.inputs import read_items, record_of
from referee.judge import judge, read
from referee.jsontext import NotJSON
from referee.provenance import engine_source, options_digest, record_digest, rulebook_digest
from referee.record_shape import RecordProblems
from referee.settlers import Recorded
from referee.verdict_signing import Key, RingError, message
from referee.verify_input import load_keys, malformed, misplaced, places, strict_loads

OK, DIFFERS, REFUSED, INCOMPLETE, MALFORMED = 0, 1, 2, 3, 4
_SEVERITY = (OK, INCOMPLETE, DIFFERS, REFUSED, MALFORMED)  # the exit status of several: the worst
NOT_COMPARED = ("provenance", "signature")


def worst(statuses) -> int:
    return max(statuses, key=_SEVERITY.index, default=OK)


@dataclass
class Subject:
    """One verdict to check: where it is, the verdict, and its record when known."""
    where: str
    verdict: Any
    record: Any = None
    place: dict | None = None  # where the file shows it: verify_input.places()


@dataclass
class Report:
    where: str
    lines: list[str] = field(default_factory=list)
    status: int = OK

    def say(self, text: str, status: int = OK) -> None:
        self.lines.append(f"{self.where}: {text}")
        self.status = worst([self.status, status])


# -- what a file holds ---------------------------------------------------------------------

def subjects(files: list[str], record_files: list[str]) -> Iterator[Subject | Report]:
    """Every verdict of the files, with its record: one beside it in the file (a stored match,
    a revision, an export's revisions, a `{"record", "verdict"}` pair), else the next one of
    `record_files` (a bare verdict; a batch answer's line takes the record of its index)."""
    records = [record_of(i.data) for i in read_items(record_files, strict_loads) if record_of(i.data) is not None]
    bare = 0
    for item in read_items(files, strict_loads):
        data = item.data
        if isinstance(data, Exception):
            yield _problem(item.where, str(data) if isinstance(data, OSError) else f"cannot read it: {data}",
                           MALFORMED if isinstance(data, NotJSON) else REFUSED)
        elif isinstance(data, dict) and data.get("kind") == "tournament":
            continue
        elif isinstance(data, dict) and data.get("kind") == "match":
            yield from _export_line(item.where, data)
        elif isinstance(data, dict) and isinstance(data.get("verdict"), dict):
            record = data.get("record")
            if record is None and isinstance(data.get("index"), int):  # a batch answer's line
                record = records[data["index"]] if data["index"] < len(records) else None
            elif record is None and isinstance(data.get("file"), str):  # a `referee check --json` line
                record = _checked_record(data["file"], data.get("line"))
            where = {"match": data["id"], "revision": data["revision"]} if _stored_match(data) else None
            yield Subject(item.where, data["verdict"], record, where)
        elif isinstance(data, dict) and "deals" in data and "valid" in data:
            yield Subject(item.where, data, records[bare] if bare < len(records) else None)
            bare += 1
        else:
            yield _problem(item.where, "not a verdict (nor a stored match, an export or a batch answer holding one)")


def _problem(where: str, text: str, status: int = REFUSED) -> Report:
    report = Report(where)
    report.say(text, status)
    return report


def _stored_match(data: dict) -> bool:
    """A stored match as GET /v1/matches/{id} gives it: its verdict is its revision's."""
    return isinstance(data.get("id"), str) and isinstance(data.get("revision"), int) and "tournament" in data


def _export_line(where: str, data: dict) -> Iterator[Subject]:
    revisions = data.get("revisions") or []
    if not isinstance(revisions, list) or not all(isinstance(r, dict) and "verdict" in r for r in revisions):
        yield _problem(where, "its revisions are not a list of revisions, each with its verdict", MALFORMED)
        return
    if not revisions:
        yield Subject(where, data.get("verdict"), data.get("record"))
    for r, place in zip(revisions, places(data.get("id"), revisions)):
        yield Subject(f"{where} revision {r.get('number')}", r["verdict"], r.get("record"), place)
    last = revisions[-1] if revisions else None
    if last is not None and (data.get("verdict"), data.get("record"), data.get("revision", last.get("number"))) != \
            (last["verdict"], last.get("record"), last.get("number")):
        yield _problem(where, f"the match's current record, verdict or revision number is not its last revision's "
                              f"(revision {last.get('number')}): not what the server exported")


def _checked_record(path: str, line: int | None) -> Any:
    """The record a `referee check --json` line names by its file and line, if still there."""
    if not Path(path).is_file():
        return None
    for item in read_items([path]):
        if item.line == line:
            return record_of(item.data)
    return None


# -- one verdict --------------------------------------------------------------------------

def check(subject: Subject, keys: dict[str, Key], keys_from: str) -> Report:
    report = Report(subject.where)
    verdict = subject.verdict
    shape = malformed(verdict)
    if shape is not None:
        report.say(f"not a verdict a referee signed: {shape}", MALFORMED)
        return report
    prov = verdict.get("provenance")
    if not isinstance(prov, dict):
        report.say("no provenance: not a verdict of a referee that says where its verdicts come from", REFUSED)
        return report
    if prov.get("withheld"):
        report.say(f"a public view, not the signed verdict: {prov['withheld']}", REFUSED)
        return report
    _check_signature(report, verdict, prov, keys, keys_from)
    if subject.place is not None and report.status != REFUSED:
        wrong = misplaced(prov, subject.place)
        if wrong is not None:
            report.say(wrong[0], REFUSED if wrong[1] else INCOMPLETE)
    if subject.record is None:
        report.say("the record is not here, so it was not judged again (pass it with --record FILE)", INCOMPLETE)
        return report
    if record_digest(subject.record) != prov.get("record"):
        report.say(f"the record given is not the one this verdict judged (its digest is "
                   f"{record_digest(subject.record)}, the verdict's {prov.get('record')})", REFUSED)
        return report
    if prov.get("rulebook") != rulebook_digest():
        report.say(f"judged under another text of the rulebook ({prov.get('rulebook')}; this copy's docs/rules.md is "
                   f"{rulebook_digest()})")
    _judge_again(report, subject, prov)
    return report


def _check_signature(report: Report, verdict: dict, prov: dict, keys: dict[str, Key], keys_from: str) -> None:
    signature, kid, at = verdict.get("signature"), prov.get("key"), prov.get("signed_at")
    if signature is None:
        report.say("not signed: no server's key signed it (a verdict of `referee check`, or of a server without a "
                   "key ring)", REFUSED)
        return
    key = keys.get(kid)
    if key is None:
        among = f"which is not among {keys_from}" if keys_from != "no key" else "and no key was given"
        report.say(f"cannot check the signature: signed by key {kid}, {among}; pass the server's keys with --key "
                   "(GET /v1/keys lists them)", REFUSED)
        return
    if not isinstance(signature, str) or not key.holds(message(verdict), signature):
        report.say(f"the signature does not hold: the verdict or its provenance was changed after key {kid} "
                   "signed it", REFUSED)
        return
    by = f"by referee {prov.get('engine')}" + (f" as revision {prov.get('revision')} of match {prov['match']}"
                                               if prov.get("match") is not None else "")
    if key.revoked:
        report.say(f"signed by key {kid}, which was revoked on {key.retired_at} (it may have been stolen): "
                   "its signatures are not trusted", REFUSED)
    elif key.retired_at is not None and (not isinstance(at, str) or at > key.retired_at):
        report.say(f"signed at {at}, after key {kid} was retired ({key.retired_at}): not trusted", REFUSED)
    elif key.retired_at is not None:
        report.say(f"the signature holds: key {kid} (retired on {key.retired_at}; this verdict was signed "
                   f"before, at {at} {by})")
    else:
        report.say(f"the signature holds: key {kid} ({key.status}), signed {at} {by}")


def _judge_again(report: Report, subject: Subject, prov: dict) -> None:
    other_build = prov.get("engine_source") != engine_source()
    here = f"this engine (referee {__version__}" + (f", engine source {engine_source()[7:15]})" if other_build else ")")
    signed_by = f"signed by version {prov.get('engine')}" + \
        (f" (engine source {str(prov.get('engine_source'))[7:15]})" if other_build else "")
    try:
        record = read(subject.record, accepted=True)
        options = resolve(record.preset, record.options)
    except (RecordProblems, RefereeError) as exc:
        problems = getattr(exc, "problems", None)
        why = "; ".join(f"{p['pointer']}: {p['detail']}" for p in problems) if problems else str(exc)
        report.say(f"{signed_by}; {here} does not read the record: {why}", DIFFERS)
        return
    if options_digest(options) != prov.get("options"):
        report.say(f"{signed_by}; {here} resolves the record's preset and options to other rules "
                   f"({options_digest(options)}, the verdict's {prov.get('options')})", DIFFERS)
    settler = RecordedWhenPast(subject.verdict)
    try:
        fresh = judge(record, settler).as_dict()
    except Stopped as exc:
        report.say(f"not judged again: {exc.message}", INCOMPLETE)
        return
    used = settler.used
    signed = {k: v for k, v in subject.verdict.items() if k not in NOT_COMPARED}
    found = first_difference(signed, fresh)
    for deal, what in used:
        report.say(f"deal {deal + 1}: {what} could not be settled again within this engine's search limit; the line "
                   "the verdict records was played through the rules instead (not searched again)", INCOMPLETE)
    if found is None:
        same = f", another build than the one that signed it (version {prov.get('engine')}, engine source " \
            f"{str(prov.get('engine_source'))[7:15]})" if other_build else ""
        report.say(f"judged again by {here}{same}: the same verdict")
        return
    path, was, now = found
    at = where_of(path, signed, fresh, subject.record)
    what = f"{_shown(path)} is {_value(was)} in the verdict, {_value(now)} by this engine"
    if report.status == REFUSED:  # not what the key signed: only say what differs
        report.say(f"judged again by {here}, the verdict differs {at}: {what}", DIFFERS)
    else:
        report.say(f"{signed_by}; {here} judges the record differently {at}: {what}", DIFFERS)


# -- settling claims along the recorded lines -------------------------------------------------

class RecordedWhenPast:
    """Settle claims (and deals at the bell) with this engine's own search, within the budget
    of a command (referee.budget); one past its node limit along the line `verdict` records for
    it, when that line fits the position (referee.settlers.Recorded). `used`: the (deal index,
    what) so played."""

    def __init__(self, verdict: dict):
        self.searching = Budget(Limits.from_settings(), clock="cpu").settler()
        self.recorded = Recorded(verdict if isinstance(verdict.get("deals"), list) else {})
        self.used: list[tuple[int, str]] = []

    def settle(self, deal, index: int):
        try:
            return self.searching.settle(deal, index)
        except RecordError as exc:
            line = self.recorded.line(deal, index) if exc.code == "claim_unsettled" else None
            if line is None:
                raise
            self.used.append((index, "the claim"))
            return line

    def finish(self, deal, index: int):
        line = self.searching.finish(deal, index)
        if line == "search_limit":
            recorded = self.recorded.finish(deal, index)
            if not isinstance(recorded, str):
                self.used.append((index, "the deal finished at the bell"))
                return recorded
        return line


# -- what differs, and where ------------------------------------------------------------------

def first_difference(a: Any, b: Any, path: tuple = ()) -> tuple[tuple, Any, Any] | None:
    """The first place where two JSON values differ (in `a`'s order): (path, a's, b's)."""
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                       and not isinstance(a, bool) and not isinstance(b, bool)):
        return path, a, b
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return path + (k,), a.get(k, _ABSENT), b.get(k, _ABSENT)
            found = first_difference(a[k], b[k], path + (k,))
            if found:
                return found
        return None
    if isinstance(a, list):
        for k in range(max(len(a), len(b))):
            if k >= len(a) or k >= len(b):
                return path + (k,), a[k] if k < len(a) else _ABSENT, b[k] if k < len(b) else _ABSENT
            found = first_difference(a[k], b[k], path + (k,))
            if found:
                return found
        return None
    return None if a == b else (path, a, b)


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _value(v: Any) -> str:
    import json

    return "absent" if v is _ABSENT else json.dumps(v, ensure_ascii=False)


def _shown(path: tuple) -> str:
    return "/" + "/".join(str(p) for p in path) if path else "the verdict"


def where_of(path: tuple, signed: dict, fresh: dict, record: Any) -> str:
    """"at deal N, event M" (counted from 1) for a difference at `path`, as far as it is known."""
    try:
        deal, event = _deal_event(path, signed, fresh, record)
    except (KeyError, IndexError, TypeError, AttributeError):
        deal, event = None, None
    if deal is None:
        return "in the match as a whole"
    return f"at deal {deal + 1}" + (f", event {event + 1}" if isinstance(event, int) else "")


def _deal_event(path: tuple, signed: dict, fresh: dict, record: Any) -> tuple[int | None, int | None]:
    def pick(*keys):
        for v in (signed, fresh):
            try:
                for k in keys:
                    v = v[k]
                return v
            except (KeyError, IndexError, TypeError):
                continue
        raise KeyError(keys)

    if path[:1] == ("errors",) and len(path) > 1:
        error = pick("errors", path[1])
        return error["deal"], error["event"]
    if path[:1] != ("deals",) or len(path) < 2:
        count = len(record["deals"])
        return (count - 1, _last_event(record, count - 1)) if count else (None, None)
    index, rest = path[1], path[2:]
    part = rest[0] if rest else None
    if part == "tricks" and len(rest) > 1:
        cards = pick("deals", index, "tricks", rest[1], "cards")
        card = rest[3] if len(rest) > 3 and rest[2] == "cards" else -1
        return index, cards[card]["event"]
    if part in ("violations", "unproven") and len(rest) > 1:
        return index, pick("deals", index, part, rest[1])["event"]
    if part in ("claim", "at_close"):
        return index, pick("deals", index, part).get("event")
    return index, _last_event(record, index)


def _last_event(record: Any, index: int) -> int | None:
    events = record["deals"][index].get("events") or []
    return len(events) - 1 if events else None


def _checked(subject: Subject, keys: dict[str, Key], keys_from: str) -> Report:
    """check(); a verdict or record past what this reading foresaw is a refusal that says so,
    never the command's crash."""
    try:
        return check(subject, keys, keys_from)
    except (RecursionError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        return _problem(subject.where, f"not a verdict or record a referee wrote ({type(exc).__name__}: {exc})",
                        MALFORMED)


def verify_files(files: list[str], record_files: list[str], key_args: list[str]) -> tuple[list[Report], int]:
    try:
        keys, keys_from = load_keys(key_args)
    except (RingError, OSError, ValueError) as exc:  # a key file unreadable (2) or not keys (4)
        status = REFUSED if isinstance(exc, OSError) else MALFORMED
        return [_problem("referee verify", str(exc), status)], status
    reports = []
    for subject in subjects(files, record_files):
        reports.append(subject if isinstance(subject, Report) else _checked(subject, keys, keys_from))
    if not reports:
        report = Report(", ".join(files))
        report.say("holds no verdict", REFUSED)
        reports.append(report)
    return reports, worst(r.status for r in reports)
