"""Replaying a whole record: deals in order, scores, streaks, the next dealer (§4, §7, §8)."""
from __future__ import annotations

from typing import Any, Callable, Container

from .cards import caller_of
from .deal import Deal
from .errors import ERROR_RULES, RecordError
from .options import Options, resolve
from .playrecord import TAKE_BACK, DealRecord, Record
from .scoring import COURT_KINDS, Result, make_scoring, next_dealer
from .settlement import Settler
from .steps import Recorder, Step, dealt_error_step
from .trick import Trick
from .violations import Violation


class Match:
    """Running totals of a match, fed one replayed deal at a time."""

    def __init__(self, options: Options):
        self.options = options
        self.scoring = make_scoring(options)
        self.courts = [0, 0]
        self.points = [0, 0]
        self.streak = [0, 0]
        self.winner: int | None = None
        self.closed = False
        self.rule: list[str] | None = None  # what decided the winner

    def score(self, deal: Deal, penalty: Violation | None) -> Result:
        result = self.scoring.score(deal.facts(penalty))
        result = self._streak(result)
        for team in (0, 1):
            self.courts[team] += result.courts[team]
            self.points[team] += result.points[team]
        self._check_target(result.winner)
        return result

    def _streak(self, result: Result) -> Result:
        """Seven deals in a row score a court or a bonus; any court resets both counts (R-5, R-19)."""
        if not self.scoring.has_streaks:
            return result
        if result.kind in COURT_KINDS:
            self.streak = [0, 0]
            return result
        w = result.winner
        self.streak[w] += 1
        self.streak[1 - w] = 0
        if self.streak[w] >= 7:
            self.streak = [0, 0]
            return result.with_bonus(*self.scoring.streak_bonus())
        return result

    def _check_target(self, team: int) -> None:
        target = self.options.target
        totals = self.points if self.options.target_is_points else self.courts
        if self.options.bidding:  # penalty points: the team that reaches the target loses
            team = 0 if self.points[0] >= self.points[1] else 1
        if target is not None and self.winner is None and totals[team] >= target:
            self.winner = 1 - team if self.options.bidding else team
            self.rule = ["match.target", "score.bid-penalty"] if self.options.bidding else ["match.target"]

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.closed

    def close(self, abandoned: bool = False) -> None:
        """R-26: the organiser ends the session; more courts (points under points/tens) wins.
        R-32: also during a deal (abandoned, not scored) or before a target was reached."""
        if self.finished:
            return
        self.closed = True
        totals = self.points if self.options.target_is_points else self.courts
        self.winner = None if totals[0] == totals[1] else int((totals[1] > totals[0]) != self.options.bidding)
        self.rule = ["match.closed", "R-26"] + (["R-32"] if abandoned or self.options.target is not None else [])

    def as_dict(self) -> dict:
        data = {"courts": list(self.courts), "points": list(self.points), "streak": list(self.streak),
                "target": self.options.target, "winner": self.winner, "finished": self.finished}
        if self.closed:
            data["closed"] = True
        if self.rule is not None:
            data["rule"] = self.rule
        return data


def replay_deal(options: Options, rec: DealRecord, steps: list[Step] | None = None, close: bool = True,
                settler: Settler | None = None, index: int = 0) -> tuple[Deal | None, RecordError | None]:
    """Replay one deal up to its first record error. `steps`: a list that receives the state
    after each event (for readers that step through the deal; without it, the fast path).
    `close`: close a trick of four cards at the end, as a record that ends there (R-12).
    `settler`: perfect play for an answered claim (none: the claim is unsettled); `index`: the
    deal's place in its record, for the settler."""
    try:
        deal = Deal(options, rec.dealer, rec.hands, rec.trump, rec.bid)
    except RecordError as exc:
        if steps is not None:
            steps.append(dealt_error_step(exc))
        return None, exc
    error = None
    recorder = None if steps is None else Recorder(deal, steps)
    try:
        deal.push_all(rec.events) if recorder is None else recorder.push_all(rec.events)
    except RecordError as exc:
        error = exc
    if error is not None and error.code == "illegal_play":
        # under `reject` the illegal play is refused, so the deal stops just before it
        # (it may have been proven only by a later play: replay the events before it).
        deal = Deal(options, rec.dealer, rec.hands, rec.trump, rec.bid)
        if recorder is None:
            deal.push_all(rec.events[:error.event])
        else:
            steps.clear()
            recorder = Recorder(deal, steps)
            recorder.push_all(rec.events[:error.event])
    if error is None and deal.awaiting_settlement:
        error = _settle(deal, recorder, settler, index)
    if close and (error is None or deal.is_complete):
        deal.finish()
    if recorder is not None:
        recorder.stop(error)
    return deal, error


def _settle(deal: Deal, recorder: Recorder | None, settler: Settler | None, index: int) -> RecordError | None:
    """R-34: the answered claim is settled by perfect play and the deal finished along the
    referee's line. A deal an illegal play already decides (R-1) is not settled."""
    deal.finish()
    if deal.penalty() is not None:
        return None
    try:
        if settler is None:
            raise RecordError("claim_unsettled", "claims are settled by perfect play, which is not loaded here",
                              deal.claimed.event)
        line = settler.settle(deal, index)
    except RecordError as exc:
        return exc
    deal.play_line(line.events, None if recorder is None else lambda evs: recorder.push_all(evs, referee=True))
    deal.claimed.settled = line.claim
    return None


def deal_steps(options: Options, rec: DealRecord, settler: Settler | None = None, index: int = 0) -> list[Step]:
    """The states of one deal (deal `index` of its record), event by event, from the judging
    replay (`replay_deal`)."""
    steps: list[Step] = []
    replay_deal(options, rec, steps, settler=settler, index=index)
    return steps


def position(record: Record, index: int, events: int | None = None, settler: Settler | None = None) -> Deal:
    """Deal `index` of the record after its first `events` events (all of them when None), as
    the judging replay holds it: the position to go on from (a solver, an analysis). A trick
    of four cards is closed, as at the end of a record, unless the record's next event takes
    a card back. Raises the RecordError that stops the record before that point, and
    IndexError for a deal or event count the record does not have."""
    rec = record.deals[index]
    n = len(rec.events) if events is None else events
    if not 0 <= n <= len(rec.events):
        raise IndexError(f"deal {index} has {len(rec.events)} events, not {n}")
    options = resolve(record.preset, record.options)
    deal, error = replay_deal(options, rec._replace(events=rec.events[:n]), close=not _takes_back(rec.events, n),
                              settler=settler, index=index)
    if error is not None:
        raise error
    return deal


def _takes_back(events, j: int) -> bool:
    return j < len(events) and events[j].kind == TAKE_BACK


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
        if match.winner is not None:
            errors.append(_error("play_after_end", index, None, f"the match was won by team {match.winner} before deal {index + 1}",
                                 ["record.after-end", "match.target", "R-20"]))
            deals.append(DealVerdict(rec.dealer, None, "invalid"))
            expected = last = None
            continue
        if last is not None and not last.is_complete and not last.redeal and deals[-1].status == "in_progress":
            errors.append(_error("unfinished_deal_not_last", index - 1, None,
                                 f"deal {index} is unfinished, but deal {index + 1} follows it"))
            deals[-1].status = "invalid"
        kept = [] if steps is True or (steps and index in steps) else None
        deal, error = replay_deal(options, rec, kept, settler=settler, index=index)
        if error is not None:
            errors.append(_error(error.code, index, error.event, error.message))
        if deal is None:
            deals.append(DealVerdict(rec.dealer, None, "invalid"))
            deals[-1].steps = kept
            expected = last = None
            continue
        if expected is not None and rec.dealer != expected:
            deal.violations.insert(0, Violation(
                "wrong_dealer", rec.dealer, f"seat {rec.dealer} dealt, but by the rules seat {expected} deals deal {index + 1}"))
        report = _deal_verdict(match, deal, error)
        report.steps = kept
        deals.append(report)
        expected = report.next_dealer
        last = deal
    if record.closed:
        _close(match, deals, last, settler)
    # a last deal that finished before its error still leads to the next deal
    stopped = bool(deals) and deals[-1].status == "invalid"
    return Verdict(errors, deals, match.as_dict(), None if stopped else _next(match, deals, last, expected))


def _close(match: Match, deals: list[DealVerdict], last: Deal | None, settler: Settler | None) -> None:
    """R-26, R-32: a closed session ends after its last finished deal; an unfinished one ends
    at the bell (`_at_the_bell`) or is abandoned, not scored."""
    abandoned = bool(deals) and deals[-1].status == "in_progress"
    if abandoned:
        abandoned = not _at_the_bell(match, deals, last, settler)
    if abandoned:
        _open_trick_over(last)
        deals[-1].status = "abandoned"
    match.close(abandoned)


def _at_the_bell(match: Match, deals: list[DealVerdict], deal: Deal, settler: Settler | None) -> bool:
    """The unfinished last deal at the close; True when it is scored. Its open trick is over,
    so an uncorrected illegal play there stands and the penalty decides the deal (R-36); else a
    claim still waiting for its answer is settled as disputed (R-34b); else, under
    `abandoned_deal: perfect_play`, the referee plays it to its end (R-32)."""
    deal.bell = True
    if deal.penalty() is not None:
        _open_trick_over(deal)
        _rejudged(match, deals, deal)
        return True
    if deal.awaiting_answer:
        return _settle_at_close(match, deals, deal, settler)
    return match.options.abandoned_deal == "perfect_play" and _finish_at_close(match, deals, deal, settler)


def _open_trick_over(deal: Deal) -> None:
    """R-36: the deal ends at the bell; the violations of its open trick stand and say why."""
    for v in deal.violations:
        if deal.filled and v.trick == deal.number:
            v.extra_rules = (*v.extra_rules, "R-36")


def _rejudged(match: Match, deals: list[DealVerdict], deal: Deal) -> DealVerdict:
    """The last deal judged again, now scored, keeping the steps the replay kept."""
    verdict = _deal_verdict(match, deal, None)
    verdict.steps = deals[-1].steps
    deals[-1] = verdict
    return verdict


def _settle_at_close(match: Match, deals: list[DealVerdict], deal: Deal, settler: Settler | None) -> bool:
    """R-34b: the claim is settled as disputed, along the referee's line (R-34); when it cannot
    be (past the search limit), the deal is abandoned and `at_close` says why."""
    claim = deal.claimed
    claim.answer, claim.at_close = "dispute", True
    steps = deals[-1].steps
    recorder = None if steps is None else Recorder(deal, steps, dealt=False)
    error = _settle(deal, recorder, settler, len(deals) - 1)
    if recorder is not None:
        recorder.stop(None)
    if error is not None:
        reason = "search_limit" if settler is not None else "no_solver"
        deals[-1].at_close = {"perfect_play": False, "reason": reason, "line": [], "rule": ["R-34b", "R-32"]}
        return False
    rule = [r for r in claim.settled["rule"] if r != "R-34b"]  # a line recorded at an earlier close has it already
    claim.settled = {**claim.settled, "rule": ["R-34b", *rule]}  # a new dict: the solver keeps its own
    _rejudged(match, deals, deal)
    return True


def _finish_at_close(match: Match, deals: list[DealVerdict], deal: Deal, settler: Settler | None) -> bool:
    """Play the unfinished last deal to its end by perfect play and score it (R-32); False
    when it cannot be (no hands, past the search limit; an illegal play on the table has
    already decided it, R-36)."""
    line = settler.finish(deal, len(deals) - 1) if settler is not None else "no_solver"
    steps = deals[-1].steps
    if isinstance(line, str):
        deals[-1].at_close = {"perfect_play": False, "reason": line, "line": [], "rule": ["R-32"]}
        return False
    start = deal.n_events
    recorder = None if steps is None else Recorder(deal, steps, dealt=False)
    deal.play_line(line.events, None if recorder is None else lambda evs: recorder.push_all(evs, referee=True))
    if recorder is not None:
        recorder.stop(None)
    verdict = _rejudged(match, deals, deal)
    verdict.at_close = {"perfect_play": True, "reason": None, "event": start,
                        "line": [{"seat": e.seat, "card": e.card.text if e.card else "reveal"} for e in line.events],
                        "rule": ["R-32", "perfect.play"]}
    return True


def adjudicate(record: Record, settler: Settler | None = None) -> dict[str, Any]:
    """The verdict on a record as docs/records.md's JSON. Raises OptionError for a bad preset or option."""
    return judge(record, settler=settler).as_dict()


def _error(code: str, deal: int, event: int | None, message: str, rule: list[str] | None = None) -> dict:
    return {"code": code, "deal": deal, "event": event, "message": message, "rule": rule or ERROR_RULES[code]}


def _deal_verdict(match: Match, deal: Deal, error: RecordError | None) -> DealVerdict:
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
        nxt, case = next_dealer(match.options, deal.dealer, deal.callers, result, match.scoring.court_kinds)
        rule = [case] if case == "dealer.rotate" else [*match.scoring.dealer_rules, case]
        rule += ["R-29"] if error is not None else []
    return DealVerdict(deal.dealer, deal, status, penalty, result, nxt, rule)


def _next(match: Match, deals: list[DealVerdict], last: Deal | None, expected: int | None) -> dict | None:
    if match.finished:
        return None
    if deals and deals[-1].status == "in_progress" and last is not None:
        return _next_in_deal(len(deals) - 1, last)
    dealer = expected if deals else None
    caller = None if dealer is None or match.options.bidding else caller_of(dealer)  # bidding: the bid decides
    return {"deal": len(deals), "dealer": dealer, "caller": caller,
            "trick": None, "to_play": None, "legal": None}


def _next_in_deal(index: int, deal: Deal) -> dict:
    if deal.awaiting_answer:
        return _next_answer(index, deal)
    legal = deal.legal_plays()
    data = {
        "deal": index, "dealer": deal.dealer, "caller": deal.caller, "trick": deal.number,
        "to_play": deal.to_play, "legal": [str(c) for c in legal] if legal is not None else None,
        "reveal": deal.can_reveal(), "face_down": deal.can_play_face_down(),
        "trump_hidden": deal.trump.is_hidden,
        "pile": deal.collection.pile,
        "table": _table(deal),
    }
    if deal.trump.is_hidden:
        after = deal.legal_after_reveal()
        data["legal_after_reveal"] = [str(c) for c in after] if after is not None else None
    if deal.options.collection == "pile":
        data["collector"] = deal.collection.collector(deal.number)
    return data


def _next_answer(index: int, deal: Deal) -> dict:
    """R-33: the deal waits for the other team's answer to a claim."""
    claim = deal.claimed
    return {"deal": index, "dealer": deal.dealer, "caller": deal.caller, "trick": deal.number,
            "to_play": None, "legal": None, "reveal": False, "face_down": False, "trump_hidden": False,
            "pile": deal.collection.pile, "table": _table(deal),
            "claim": {"seat": claim.seat, "tricks": claim.tricks, "event": claim.event,
                      "answer_from": claim.answer_from, "rule": ["R-33"]}}


def _table(deal: Deal) -> list[dict]:
    """The open trick's cards, as `next.table` lists them."""
    return [{"seat": p.seat, "card": p.card.text, "face_down": p.face_down, "event": p.event} for p in deal.on_table]


def adjudicate_dict(data: Any, settler: Settler | None = None) -> dict[str, Any]:
    """From parsed JSON to the verdict (the engine's whole pipeline, for scripts; claims and the
    bell need a `settler`: `referee.settlers.Searching()` searches)."""
    return adjudicate(Record.from_dict(data), settler)
