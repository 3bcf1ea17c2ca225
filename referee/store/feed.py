"""The feed is a ledger: each fact is announced once, and a later change is a new event that
says what changed. Folding the feed (each deal's last `deal.finished`/`deal.revised`, each
violation's last state, each trick's last `trick.finished`/`trick.revised`) gives exactly what
the stored verdicts say.

A write goes from an old verdict to a new one; what the old one made public is what the
feed has said so far (every accepted write publishes its difference). What was *ever*
announced comes from the feed itself, so that a deal finished, reopened and finished again
gets `deal.revised`, never a second `deal.finished`.

Each side of a write is a `PublicView` (visibility.py): its violations are what it made
public, and a violation published before is shown again only as the new revision shows it.
"""
from __future__ import annotations

from typing import Any, Callable, Container

from referee.visibility import PublicView

OVER = ("complete", "ended_by_penalty")
ABANDONED = "abandoned"  # closed while unfinished; announced once by deal.abandoned, never scored
DEAL_FIELDS = ("status", "result", "tricks_won", "next_dealer")
EXTRA_FIELDS = ("claim", "at_close")  # only a claimed deal (R-33, R-34) / one finished at the bell has them
# No card: a card that won a trick of a live deal may be corrected away later, and the ledger
# keeps what it said (R-31: the table would still be shown a card it has not seen).
TRICK_FIELDS = ("leader", "winner", "winning_team", "collected_by", "collected")
Event = tuple[str, dict[str, Any]]


def deal_facts(verdict: dict | None) -> dict[int, dict]:
    """Per finished (or abandoned) deal, what the feed says of it."""
    if verdict is None:
        return {}
    return {i: {"deal": i, "dealer": d["dealer"], **{k: d[k] for k in DEAL_FIELDS},
                **{k: d[k] for k in EXTRA_FIELDS if k in d}}
            for i, d in enumerate(verdict["deals"])
            if d["status"] in OVER and d["result"] is not None or d["status"] == ABANDONED}


def violation_key(deal: int, v: dict) -> tuple:
    """A violation is the same violation while its deal, event and code are."""
    return (deal, v.get("event"), v["code"])


def violation_facts(view: PublicView | None) -> dict[tuple, dict]:
    """The violations the feed may publish: public ones whose trick is complete (a pending
    one may still be taken back, R-28)."""
    if view is None:
        return {}
    return {violation_key(i, v): v for i, v in view.violations() if not v.get("pending")}


def trick_facts(view: PublicView | None, deals: set[int]) -> dict[tuple, dict]:
    """Per completed trick that counts (the verdict's `tricks`) of `deals`, what the feed
    says of it, as the view shows it: numbers (seats, a team, counts), which R-31 hides none
    of, read from the full verdict (a hidden deal's shown verdict keeps every trick), so the
    feed's diff of a card makes no shown verdict of its deal."""
    if view is None:
        return {}
    shown = view.full_verdict["deals"]
    return {(i, t["number"]): {"deal": i, "trick": t["number"], **{k: t[k] for k in TRICK_FIELDS},
                               "pile": t["pile_after"]}
            for i in sorted(deals) if i < len(shown) for t in shown[i]["tricks"]}


def changed_deals(old: dict | None, new: dict) -> set[int]:
    """The deals whose verdict a write changed (only their tricks can have changed)."""
    before = old["deals"] if old is not None else []
    return {i for i, d in enumerate(new["deals"]) if i >= len(before) or before[i] != d} | \
        set(range(len(new["deals"]), len(before)))


def diff(old: PublicView | None, new: PublicView, announced_deals: Container[int],
         announced_violations: Container[tuple], why: str, revision: int,
         announced_tricks: Callable[[set[int]], set[tuple]] = lambda deals: set()) -> list[Event]:
    """The events that a write from `old` to `new` produces; `announced_tricks(deals)`: the
    (deal, trick) pairs of those deals the feed has ever announced."""
    then = Later(lambda: old.as_now(new)) if old is not None else None  # the old revision as R-31 shows it now
    return _trick_events(old, new, announced_tricks, why, revision) + \
        _deal_events(old, new, then, announced_deals, why, revision) + \
        _violation_events(old, new, then, announced_violations, why, revision)


class Later:
    """A value made when first used (an attribute read, or `in`): most writes (a card that
    changes no fact of its deal) never read the old revision as R-31 shows it now, nor what
    the feed announced of the deal (store/publishing.py)."""

    def __init__(self, make: Callable[[], Any]):
        self._make, self._made = make, None

    def _value(self):
        if self._made is None:
            self._made = self._make()
        return self._made

    def __getattr__(self, name: str):
        return getattr(self._value(), name)

    def __contains__(self, item) -> bool:
        return item in self._value()


def _trick_events(old, new, announced: Callable[[set[int]], set[tuple]], why: str, revision: int) -> list[Event]:
    """A trick is announced by trick.finished once; a take-back that reopens it, a correction
    or a penalty that changes or drops it is trick.revised (`now` null: no longer a
    completed trick that counts), so the feed folds to the verdicts' tricks."""
    deals = changed_deals(old and old.full_verdict, new.full_verdict)
    before, after = trick_facts(old, deals), trick_facts(new, deals)
    keys = sorted(set(before) | set(after))
    reopened = {key for key in keys if key not in before}
    ever = announced({deal for deal, _ in reopened}) if reopened and old is not None else set()
    events: list[Event] = []
    for key in keys:
        was, now = before.get(key), after.get(key)
        if was == now:
            continue
        if was is None and key not in ever:
            events.append(("trick.finished", now))
        else:
            events.append(("trick.revised", {"deal": key[0], "trick": key[1], "previous": was, "now": now,
                                             "why": why, "revision": revision}))
    return events


def _deal_events(old, new: PublicView, then, announced: Container[int], why: str, revision: int) -> list[Event]:
    before, after = deal_facts(old and old.full_verdict), deal_facts(new.full_verdict)
    events: list[Event] = []
    for i in sorted(set(before) | set(after)):
        was, now = before.get(i), after.get(i)
        if was == now:
            continue
        if was is None and i not in announced:
            events.append(("deal.abandoned" if now["status"] == ABANDONED else "deal.finished", now))
            continue
        revised = {"deal": i, "previous": was, "result": now and now["result"], "now": now, "why": why,
                   "revision": revision}
        if was is not None and then.hidden(i):
            # live again, maybe moved: what it said then, as the table sees it now; a
            # claim's faced cards (its line, its defence) are held again, and the event says so
            revised["previous"] = then.tables[i].scrub(was)
            if "claim" in was and new.hidden(i):
                revised["claim_removed"] = True
        events.append(("deal.revised", revised))
    return events


def shown_now(payload: dict, view: PublicView) -> dict:
    """A stored payload as R-31 shows it now, from its match's current revision (`view`): a
    deal live now (a correction removed its claim, or reopened it) shows no card the table
    has not seen, whatever the payload said when it was written. A payload is not told by
    its place either: one that says what the current revision no longer says of that deal
    was written of an earlier state, maybe of a deal a correction moved and reopened since,
    so while a deal is live it names only cards every live table has seen."""
    deal = payload.get("deal")
    if not isinstance(deal, int):
        return payload
    if view.hidden(deal):
        table = view.tables[deal]
    elif not view.tables or _said_now(payload, view, deal):
        return payload
    else:
        table = view.live_tables()
    payload = dict(payload)
    for key in ("violation", "previous"):
        if isinstance(payload.get(key), dict) and "code" in payload[key]:
            payload[key] = table.violation(payload[key])
    return table.scrub(payload)


def _said_now(payload: dict, view: PublicView, deal: int) -> bool:
    """Does the current revision (public at `deal`) say what this payload says of the deal? Of a
    violation's event (found, revised, withdrawn), the violation it names: the event's other
    fields (why, revision, previous) are of the change, not of the deal."""
    fact = {k: v for k, v in payload.items() if k != "match"}
    violation = payload.get("violation")
    return fact == deal_facts(view.full_verdict).get(deal) or \
        any(violation == v for i, v in view.violations() if i == deal)


def _violation_events(old, new, then, announced: Container[tuple], why: str, revision: int) -> list[Event]:
    before, after = violation_facts(old), violation_facts(new)
    events: list[Event] = []
    for key in sorted(set(before) | set(after), key=_order):
        was, now = before.get(key), after.get(key)
        if was == now:
            continue
        if was is not None:
            was = then.violation(key[0], was)  # what it showed then, as the table sees it now
        if now is None:
            events.append(("violation.withdrawn", {"deal": key[0], "violation": was, "why": why, "revision": revision}))
        elif was is None and key not in announced:
            events.append(("violation.found", {"deal": key[0], "violation": now}))
        else:
            events.append(("violation.revised", {"deal": key[0], "previous": was, "violation": now, "why": why,
                                                 "revision": revision}))
    return events


def _order(key: tuple) -> tuple:
    deal, event, code = key
    return deal, -1 if event is None else event, code
