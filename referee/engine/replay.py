"""One deal of a record replayed as the judge replays it: up to its first record error, an
answered claim settled by perfect play (R-34), a trick of four cards closed at the end (R-12);
and the readers' questions of that same replay: the deal event by event (`deal_steps`), the deal
after its first N events (`position`)."""
from __future__ import annotations

from .deal import Deal
from .errors import RecordError
from .options import Options, resolve
from .playrecord import TAKE_BACK, DealRecord, Record
from .settlement import Settler
from .steps import Recorder, Step, dealt_error_step


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
        error = settle(deal, recorder, settler, index)
    if close and (error is None or deal.is_complete):
        deal.finish()
    if recorder is not None:
        recorder.stop(error)
    return deal, error


def settle(deal: Deal, recorder: Recorder | None, settler: Settler | None, index: int) -> RecordError | None:
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
