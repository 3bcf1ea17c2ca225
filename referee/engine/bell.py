"""The close of a session (R-26, R-32): its last finished deal ends it; an unfinished last deal
ends at the bell, where its open trick is over (R-36), a claim still waiting for its answer is
settled as disputed (R-34b), or the referee plays it to its end (`abandoned_deal: perfect_play`);
a play-on in progress keeps its court (R-38); else it is abandoned, not scored."""
from __future__ import annotations

from .deal import Deal
from .replay import settle
from .settlement import Settler
from .steps import Recorder
from .totals import Match
from .verdict import DealVerdict, deal_verdict


def close_session(match: Match, deals: list[DealVerdict], last: Deal | None, settler: Settler | None) -> None:
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
    `abandoned_deal: perfect_play`, the referee plays it to its end (R-32); else a play-on keeps
    the court the first seven made (R-38)."""
    deal.bell = True
    if deal.penalty() is not None:
        _open_trick_over(deal)
        _rejudged(match, deals, deal)
        return True
    if deal.awaiting_answer:
        return _settle_at_close(match, deals, deal, settler)
    if match.options.abandoned_deal == "perfect_play" and _finish_at_close(match, deals, deal, settler):
        return True
    return deal.play_on and _court_kept(match, deals, deal)


def _court_kept(match: Match, deals: list[DealVerdict], deal: Deal) -> bool:
    """R-38: a play-on stopped by the close scores the court its first seven made, as if the
    court team had stopped there (no bavney: the play-on did not take all 13). Its open
    trick is over (R-36)."""
    deal.ended = True
    _open_trick_over(deal)
    verdict = _rejudged(match, deals, deal)
    verdict.at_close = {"perfect_play": False, "reason": "court_kept", "line": [], "rule": ["R-38", "R-10", "R-32"]}
    return True


def _open_trick_over(deal: Deal) -> None:
    """R-36: the deal ends at the bell; the violations of its open trick stand and say why."""
    for v in deal.violations:
        if deal.filled and v.trick == deal.number:
            v.extra_rules = (*v.extra_rules, "R-36")


def _rejudged(match: Match, deals: list[DealVerdict], deal: Deal) -> DealVerdict:
    """The last deal judged again, now scored, keeping the steps the replay kept."""
    verdict = deal_verdict(match, deal, None)
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
    error = settle(deal, recorder, settler, len(deals) - 1)
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
