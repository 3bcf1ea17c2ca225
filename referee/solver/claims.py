"""Settling claims (R-34, R-34a) and finishing a deal at the bell (R-32) by perfect play,
on the one search (core.py):

- g, the claimer's team's tricks against any defence, counted up to the deal's own end
  (objective DEAL_TRICKS, both teams playing for tricks; R-4's play-on where it gains);
- f, the fewest tricks the claimer's team can end with over every line (R-38: a
  concession of tricks that cannot be lost is void), asked only whether it is above the
  award, and then its value;
- the award: min(n, g), or n for an accepted claim some line makes, never below f; when no
  line gives exactly that count, the nearest a line gives;
- the line: perfect play restricted to the award (R-34a, objective EXACT): at every play
  both teams choose, for the claimers' outcome (§13's order), among the plays after which a
  line giving the claimers exactly the award is still possible;
- the defence that beats a claim that failed: perfect play for tricks (DEAL_TRICKS).

f and "does some line give exactly k?" are one search of their own, all four seats choosing
together (core_exact: "does some line give the claimers a count in W?"), with its own
bounds and table; the restricted line asks it too, so each is searched once.

The engine's replay gets these through a settler (`referee.settlers.Searching`), which
imports this module only when a claim or a bell needs it; each search runs under its own
part of the request's budget (referee.solver.limits).
"""
from __future__ import annotations

from ..engine import settlement
from ..engine.cards import DECK, Card
from ..engine.deal import Deal
from ..engine.errors import RecordError
from ..engine.playrecord import PLAY, REVEAL, Event
from . import Solver, UnsolvablePosition, solve
from .limits import SearchLimit, SearchLimitExceeded
from .position import REVEAL_MOVE

# Settled claims and bell lines, remembered per process for the stateless paths (a stored
# match keeps its own with its revision, referee.settlers). Keyed with the search's node
# limit: an outcome under one limit is not the outcome under a smaller one.
_CACHE_SIZE = 256
_cache: dict = {}  # oldest first (dicts keep their order)


def settle(deal: Deal, limit: SearchLimit, core=None) -> settlement.Line:
    """The line that settles `deal`'s answered claim, and the verdict's claim fields.
    `limit`: this search's budget (`core`: the search to use, see Solver). Past its own node limit the claim is the record error
    claim_unsettled (the same on every machine, so remembered too); past the budget it is a
    part of (the request's time, its client gone) SearchLimitExceeded goes on up: no verdict."""
    claim = deal.claimed
    key = ("claim", limit.nodes, _position_key(deal), claim.seat, claim.tricks, claim.answer, core)
    found = _cache.get(key)
    if found is None:
        try:
            found = _settle(deal, limit, core)
        except SearchLimitExceeded as exc:
            if exc.limit is not limit or exc.reason != "nodes":
                raise
            found = _Unsettled("claim_unsettled", f"settling the claim of seat {claim.seat} would search past the "
                               f"referee's limit for one claim ({limit.describe()}); the deal is not scored",
                               claim.event)
        _remember(key, found)
    if type(found) is _Unsettled:
        raise RecordError(*found)
    return found


def finish(deal: Deal, limit: SearchLimit) -> settlement.Line | str:
    """Perfect play (objective score) from `deal`'s position to its end, or why not ("search_limit":
    past `limit`'s own node limit; past the budget it is a part of, SearchLimitExceeded)."""
    if deal.hands is None:
        return "no_hands"
    key = ("bell", limit.nodes, _position_key(deal))
    found = _cache.get(key)
    if found is None:
        root = deal.copy()
        root.claimed = None  # a claim left unanswered at the bell is not settled: play goes on
        try:
            analysis = solve(root, "score", limit)
        except UnsolvablePosition:
            return "illegal_play"
        except SearchLimitExceeded as exc:
            if exc.limit is not limit or exc.reason != "nodes":
                raise
            return "search_limit"
        events = tuple(Event(s, REVEAL) if m == REVEAL_MOVE else Event(s, PLAY, m) for s, m in analysis.line)
        found = settlement.Line(events, None)
        _remember(key, found)
    return found


class _Unsettled(tuple):
    """A remembered claim_unsettled: the record error's code, message and event (a new
    error is raised each time, so no traceback is carried from one verdict to the next)."""

    def __new__(cls, *args):
        return super().__new__(cls, args)


def _remember(key, value) -> None:
    _cache[key] = value
    if len(_cache) > _CACHE_SIZE:
        del _cache[next(iter(_cache))]


def _settle(deal: Deal, limit: SearchLimit, core=None) -> settlement.Line:
    claim = deal.claimed
    root = deal.copy()
    root.claimed, root.play_all = None, False
    try:
        tricks = Solver("deal_tricks", core).prepare(root, claim.team, limit)
        exact = Solver("exact", core).prepare(root, claim.team, limit)
    except UnsolvablePosition as exc:
        raise RecordError("claim_unsettled", f"the claim of seat {claim.seat} cannot be settled here: {exc}",
                          claim.event) from None
    g = tricks.value()
    reaches = exact.search.reaches  # (W) -> does some line give the claimers a count in W (bit k: k)?
    award = _award(claim.tricks, claim.answer, g, lambda k: reaches(1 << k), lambda k: _floor(reaches, k, g))
    line = exact.line(exact.value(award), award)
    held = g >= claim.tricks
    fields = {"held": held, "can_take": g, "awarded": award, "line": _plays(line),
              "defence": None if held else _plays(tricks.line(g)), "rule": ["R-34", "R-34a", "R-33", "perfect.play"]}
    return settlement.Line(tuple(Event(seat, PLAY, DECK[m]) for seat, m in line), fields)


def _award(n: int, answer: str, g: int, reaches, floor) -> int:
    """R-34, R-38: min(n, g); an accepted claim n when a line gives exactly n (`reaches(k)`:
    some line gives exactly k); never below f (`floor(k)`: f when f > k, else None): a
    claim below f gets f, a count some line gives. When no line gives exactly the award, the
    nearest a line gives: the largest below (f at least is), else the smallest above."""
    f = floor(n if answer == "accept" else min(n, g))
    if f is not None:
        return f
    if answer == "accept" and reaches(n):
        return n
    award = min(n, g)
    if reaches(award):
        return award
    below = next((k for k in range(award - 1, -1, -1) if reaches(k)), None)
    return below if below is not None else next(k for k in range(award + 1, g + 1) if reaches(k))


def _floor(reaches, k: int, g: int) -> int | None:
    """R-38's f when it is above k (every line gives the claimers more than k), else None:
    one question first, the value only when asked for (f <= g: the defence's line is one).
    `reaches(W)`: some line gives a count in W; f >= t when none gives fewer than t."""
    if k >= g or reaches((1 << (k + 1)) - 1):
        return None
    lo, hi = k + 1, g  # f >= lo; f <= g
    while lo < hi:
        at = (lo + hi + 1) // 2
        if not reaches((1 << at) - 1):
            lo = at
        else:
            hi = at - 1
    return lo


def _plays(line) -> list[dict]:
    return [{"seat": s, "card": DECK[m].text} for s, m in line]


def _relative(pos: Deal) -> tuple:
    """Who holds each suit's remaining cards, high to low (tens and aces marked): equal for
    positions that differ only in which of the cards already played were played."""
    owner = {c.index: s for s, h in enumerate(pos.hands) for c in h}
    out = []
    for suit in range(4):
        out.append(tuple(owner[i] + (4 if DECK[i].is_ten or DECK[i].is_ace else 0)
                         for i in range(suit * 13 + 12, suit * 13 - 1, -1) if i in owner))
    return tuple(out)


def _state(pos: Deal, exact: bool = False) -> tuple:
    trump = pos.trump
    pairs = tuple(vars(pos.pairs).values()) if pos.pairs is not None else None
    collection = tuple(_frozen(v) for k, v in sorted(vars(pos.collection).items()) if k not in ("options", "rule"))
    hands = tuple(sum(1 << c.index for c in h) for h in pos.hands) if exact else _relative(pos)
    return (hands, pos.leader, len(pos.tricks),
            tuple(pos.tricks_won), tuple(pos.tens_won), pos.pile_tens, collection, _frozen(pairs),
            trump.suit, trump.is_hidden, trump.revealed["event"] if trump.revealed else None,
            pos.first_seven, pos.play_on, pos.court_made, pos.ended, pos.lead_must_trump)


def _position_key(deal: Deal) -> tuple:
    """Everything that decides a settlement: the options, the position, the trick on the table."""
    slots = tuple(None if p is None else (p[0], p[1].index, p[3], p[4]) for p in deal.slots)
    return (repr(sorted(deal.options.as_dict().items())), _state(deal, True) if deal.hands is not None else None, slots,
            deal.first_back, deal.asker, deal.must_trump, deal.caller, deal.n_events)


def _frozen(value):
    if isinstance(value, Card):
        return value.is_ace  # the pile's last winning card: only whether it was an ace matters
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value

