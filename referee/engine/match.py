"""Judging a whole record: its deals replayed in order and scored in the match, the record's
errors, the close of the session and what comes next (docs/records.md's verdict; §4, §7, §8).

`judge` is the loop; each job it calls has its module:

    replay.py    one deal replayed for judging, up to its first record error, an answered
                 claim settled by perfect play (R-34); a deal step by step, a deal after N events
    totals.py    the match's running totals: courts, points, streaks, the target, the winner
    verdict.py   one deal's judgement (status, penalty, score, next dealer) and the record's,
                 rendered as the verdict JSON when asked
    bell.py      the close of a session: the unfinished last deal at the bell (R-26, R-32,
                 R-34b, R-36)
    nextup.py    the verdict's `next`: the next deal, or the open deal's turn and table

Perfect play (claims, the bell) is handed in as a `settler` (settlement.py), never imported.
"""
from __future__ import annotations

from typing import Any, Container

from .bell import close_session
from .deal import Deal
from .errors import ERROR_RULES
from .nextup import next_of
from .options import resolve
from .playrecord import Record
from .replay import replay_deal
from .settlement import Settler
from .totals import Match
from .verdict import DealVerdict, Verdict, deal_verdict
from .violations import Violation


def judge(record: Record, steps: bool | Container[int] = False, settler: Settler | None = None) -> Verdict:
    """Replay and score a record. `steps`: True, or the indices of the deals, whose state after
    each event the replay keeps (`DealVerdict.steps`); the others take the fast path.
    `settler`: perfect play for claims and the bell (settlement.py; none: claims are
    unsettled). Raises OptionError for a bad preset or option, and settlement.Stopped when
    the settler's budget for the request is spent (no verdict)."""
    options = resolve(record.preset, record.options)
    match = Match(options)
    errors: list[dict] = []
    deals: list[DealVerdict] = []
    expected: int | None = None
    last: Deal | None = None
    for index, rec in enumerate(record.deals):
        kept = [] if steps is True or (steps and index in steps) else None
        expected, last = _judge_deal(match, index, rec, expected, last, deals, errors, kept, settler)
    if record.closed:
        close_session(match, deals, last, settler)
    return _verdict(match, errors, deals, last, expected)


def _judge_deal(match: Match, index: int, rec, expected: int | None, last: Deal | None, deals: list[DealVerdict],
                errors: list[dict], kept: list | None, settler: Settler | None) -> tuple[int | None, Deal | None]:
    """Deal `index` judged after the deals before it (`match`'s totals, the dealer `expected`,
    the `last` deal replayed), its judgement added to `deals` and its errors to `errors`;
    the dealer expected next and the deal replayed, for the next one."""
    if match.winner is not None:
        errors.append(_error("play_after_end", index, None, f"the match was won by team {match.winner} before deal {index + 1}",
                             ["record.after-end", "match.target", "R-20"]))
        deals.append(DealVerdict(rec.dealer, None, "invalid"))
        return None, None
    if last is not None and not last.is_complete and not last.redeal and deals[-1].status == "in_progress":
        errors.append(_error("unfinished_deal_not_last", index - 1, None,
                             f"deal {index} is unfinished, but deal {index + 1} follows it"))
        deals[-1].status = "invalid"
    deal, error = replay_deal(match.options, rec, kept, settler=settler, index=index)
    if error is not None:
        errors.append(_error(error.code, index, error.event, error.message))
    if deal is None:
        deals.append(DealVerdict(rec.dealer, None, "invalid"))
        deals[-1].steps = kept
        return None, None
    if expected is not None and rec.dealer != expected:
        deal.violations.insert(0, Violation(
            "wrong_dealer", rec.dealer, f"seat {rec.dealer} dealt, but by the rules seat {expected} deals deal {index + 1}"))
    report = deal_verdict(match, deal, error)
    report.steps = kept
    deals.append(report)
    return report.next_dealer, deal


def _verdict(match: Match, errors: list[dict], deals: list, last: Deal | None, expected: int | None) -> Verdict:
    # a last deal that finished before its error still leads to the next deal
    stopped = bool(deals) and deals[-1].status == "invalid"
    return Verdict(errors, deals, match.as_dict(), None if stopped else next_of(match, deals, last, expected))


def judge_last(record: Record, earlier: list[dict], start: dict, settler: Settler | None = None) -> dict[str, Any]:
    """The verdict (as `adjudicate`'s JSON) of a record whose deals before its last are
    already judged, `earlier` (their verdicts: each over, none invalid, as a valid verdict's
    deals before an unscored last deal are), judging its last deal only: from `start`, the
    match's standing when that deal began (a verdict's `match` with no deal scored since:
    not won, not closed). `record.deals` holds the last deal alone. The same bytes as judging
    the whole record (`judge`): the loop is the same, begun where the earlier deals left it."""
    options = resolve(record.preset, record.options)
    match = Match(options)
    match.courts, match.points, match.streak = list(start["courts"]), list(start["points"]), list(start["streak"])
    index = len(earlier)
    expected = earlier[-1]["next_dealer"] if earlier else None
    errors: list[dict] = []
    deals: list = [None] * index  # only the last is read (nextup, _verdict): the earlier are judged
    expected, last = _judge_deal(match, index, record.deals[0], expected, None, deals, errors, None, settler)
    verdict = _verdict(match, errors, deals, last, expected)
    return verdict.report([*earlier, deals[-1].as_dict()])


def adjudicate(record: Record, settler: Settler | None = None) -> dict[str, Any]:
    """The verdict on a record as docs/records.md's JSON. Raises OptionError for a bad preset or option."""
    return judge(record, settler=settler).as_dict()


def _error(code: str, deal: int, event: int | None, message: str, rule: list[str] | None = None) -> dict:
    return {"code": code, "deal": deal, "event": event, "message": message, "rule": rule or ERROR_RULES[code]}


def adjudicate_dict(data: Any, settler: Settler | None = None) -> dict[str, Any]:
    """From parsed JSON to the verdict (the engine's whole pipeline, for scripts; claims and the
    bell need a `settler`: `referee.settlers.Searching()` searches)."""
    return adjudicate(Record.from_dict(data), settler)
