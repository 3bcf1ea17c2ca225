"""The feed is a ledger: each fact is announced once, and a later change is a new event that
says what changed. Folding the feed (each deal's last `deal.finished`/`deal.revised`, each
violation's last state) gives exactly what the stored verdicts say.

A write goes from an old verdict to a new one; what the old one made public is what the
feed has said so far (every accepted write publishes its difference). What was *ever*
announced comes from the feed itself, so that a deal finished, reopened and finished again
gets `deal.revised`, never a second `deal.finished`.

Each side of a write is a `PublicView` (visibility.py): its violations are what it made
public, and a violation published before is shown again only as the new revision shows it.
"""
from __future__ import annotations

from typing import Any

from referee.visibility import PublicView

OVER = ("complete", "ended_by_penalty")
ABANDONED = "abandoned"  # closed while unfinished; announced once by deal.abandoned, never scored
DEAL_FIELDS = ("status", "result", "tricks_won", "next_dealer")
EXTRA_FIELDS = ("claim", "at_close")  # only a claimed deal (R-33, R-34) / one finished at the bell has them
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


def diff(old: PublicView | None, new: PublicView, announced_deals: set[int], announced_violations: set[tuple],
         why: str, revision: int) -> list[Event]:
    """The events that a write from `old` to `new` produces."""
    return _deal_events(old and old.full_verdict, new.full_verdict, announced_deals, why, revision) + \
        _violation_events(old, new, announced_violations, why, revision)


def _deal_events(old, new, announced: set[int], why: str, revision: int) -> list[Event]:
    before, after = deal_facts(old), deal_facts(new)
    events: list[Event] = []
    for i in sorted(set(before) | set(after)):
        was, now = before.get(i), after.get(i)
        if was == now:
            continue
        if was is None and i not in announced:
            events.append(("deal.abandoned" if now["status"] == ABANDONED else "deal.finished", now))
        else:
            events.append(("deal.revised", {"deal": i, "previous": was, "result": now and now["result"],
                                            "now": now, "why": why, "revision": revision}))
    return events


def _violation_events(old, new, announced: set[tuple], why: str, revision: int) -> list[Event]:
    before, after = violation_facts(old), violation_facts(new)
    events: list[Event] = []
    for key in sorted(set(before) | set(after), key=_order):
        was, now = before.get(key), after.get(key)
        if was == now:
            continue
        if was is not None:
            was = new.violation(key[0], was)  # what it showed then, as the table sees it now
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
