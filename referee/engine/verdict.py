"""The verdict's objects: one deal's judgement (`DealVerdict`: its status, the penalty, its score
in the match, the next dealer) and the record's (`Verdict`), each rendered as docs/records.md's
JSON only when asked (`as_dict`, or `report` for a writer that renders the tricks itself)."""
from __future__ import annotations

from typing import Any, Callable

from .cards import caller_of
from .deal import Deal
from .errors import RecordError
from .scoring import Result, next_dealer
from .steps import Step
from .totals import Match
from .trick import Trick
from .violations import Violation


class DealVerdict:
    """The judgement of one deal. Scores are settled when it is made; `as_dict()`
    renders the deal's docs/records.md form (tricks, violations) only when asked."""

    __slots__ = ("dealer", "deal", "status", "penalty", "result", "next_dealer", "next_dealer_rule", "steps",
                 "at_close")

    def __init__(self, dealer: int, deal: Deal | None, status: str, penalty: Violation | None = None,
                 result: Result | None = None, next_dealer: int | None = None,
                 next_dealer_rule: list[str] | None = None):
        self.steps: list[Step] | None = None  # the state after each event, when the judge was asked to keep it
        self.at_close: dict | None = None     # R-32 under abandoned_deal perfect_play: how the bell ended it
        self.dealer = dealer
        self.deal = deal
        self.status = status
        self.penalty = penalty
        self.result = result
        self.next_dealer = next_dealer
        self.next_dealer_rule = next_dealer_rule

    @property
    def tricks(self) -> list[Trick]:
        """The tricks that count: those up to a penalty (R-1), else all."""
        if self.deal is None:
            return []
        return self.deal.tricks if self.penalty is None else self.deal.tricks[:self.penalty.trick]

    @property
    def violations(self) -> list[Violation]:
        if self.deal is None:
            return []
        cut = self.penalty.trick if self.penalty is not None else None
        closed = self.deal.tricks_over
        shown = [v for v in self.deal.violations if cut is None or v.trick is None or v.trick <= cut]
        for v in shown:
            v.pending = v.trick is not None and v.trick > closed
        return shown

    def as_dict(self) -> dict:
        return self.report(_trick_dicts)

    def report(self, tricks: Callable[[list[Trick]], Any]) -> dict:
        """The deal's verdict in the contract's key order, its tricks rendered by `tricks`
        (dicts for `as_dict`; a writer passes JSON text already written)."""
        deal = self.deal
        if deal is None:
            return {"dealer": self.dealer, "caller": caller_of(self.dealer), "trump": None, "status": self.status,
                    "tricks": [], "tricks_won": [0, 0], "pile": 0, "violations": [], "result": None,
                    "next_dealer": None, "next_dealer_rule": None}
        shown, penalty = self.tricks, self.penalty
        report = {
            "dealer": deal.dealer, "caller": deal.caller,
            "trump": deal.trump.as_dict(finished=self.status not in ("in_progress", "invalid")),  # abandoned: over
            "status": self.status,
            "tricks": tricks(shown),
            "tricks_won": list(deal.won_until(penalty)),
            "pile": shown[-1].pile_after if shown else 0,
            "violations": [v.as_dict() for v in self.violations],
            "result": self.result.as_dict() if self.result else None,
            "next_dealer": self.next_dealer,
            "next_dealer_rule": self.next_dealer_rule,
        }
        if deal.bid is not None:
            report["bid"] = deal.bid._asdict()
        if deal.hands is None:
            report["unproven"] = [u for u in deal.unproven() if penalty is None or u["trick"] <= penalty.trick]
        if penalty is not None:
            report["ignored_events"] = deal.ignored_events(penalty)
        if deal.claimed is not None:
            report["claim"] = deal.claimed.as_dict()
        if self.at_close is not None:
            report["at_close"] = self.at_close
        return report


def _trick_dicts(tricks: list[Trick]) -> list[dict]:
    return [t.as_dict() for t in tricks]


class Verdict:
    """The engine's judgement of a record; `as_dict()` is the verdict JSON of docs/records.md."""

    __slots__ = ("errors", "deals", "match", "next")

    def __init__(self, errors: list[dict], deals: list[DealVerdict], match: dict, next: dict | None):
        self.errors = errors
        self.deals = deals
        self.match = match
        self.next = next

    @property
    def valid(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        return self.report([d.as_dict() for d in self.deals])

    def report(self, deals: list) -> dict[str, Any]:
        """The verdict in the contract's key order with `deals` as given (dicts, or the
        `DealVerdict`s themselves for a writer that renders them)."""
        return {"valid": self.valid, "errors": self.errors, "deals": deals, "match": self.match, "next": self.next}


# The next dealer by the deal's result (dealer.next and the scoring's own dealer rules).
_BY_RESULT = ("dealer.defenders-win", "dealer.callers-win", "dealer.callers-court", "dealer.mendikot-partner")


def deal_verdict(match: Match, deal: Deal, error: RecordError | None) -> DealVerdict:
    """The judgement of a replayed deal (`error`: the record error that stopped it), scored in
    `match` when it ended."""
    penalty = deal.penalty()
    if penalty is not None:
        penalty.penalty = True
    status = deal.status(penalty)
    if error is not None and status == "in_progress":
        status = "invalid"
    result = None
    nxt: int | None = None
    rule = None
    if status == "redeal":
        nxt, rule = deal.dealer, ["dealer.redeal", "R-9"]
    elif status in ("complete", "ended_by_penalty"):
        result = match.score(deal, penalty)
        setter = deal.trump.set_by["seat"] if deal.trump.set_by else None
        nxt, case = next_dealer(match.options, deal.dealer, deal.callers, result, match.scoring.court_kinds, setter)
        rule = [*match.scoring.dealer_rules, case] if case in _BY_RESULT else [case]
        rule += ["R-29"] if error is not None else []
    return DealVerdict(deal.dealer, deal, status, penalty, result, nxt, rule)
