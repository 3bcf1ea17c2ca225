"""Feed events: what changed between two verdicts of a match, as publishable payloads."""
from __future__ import annotations

from typing import Any

from referee.visibility import public_violations

OVER = ("complete", "ended_by_penalty")


def _finished_deals(verdict: dict | None) -> set[int]:
    if verdict is None:
        return set()
    return {i for i, d in enumerate(verdict["deals"]) if d["status"] in OVER and d["result"] is not None}


def _violation_key(deal: int, v: dict) -> tuple:
    return (deal, v["code"], v.get("trick"), v.get("event"), v["seat"])


def diff(old: dict | None, new: dict, match_finished_before: bool, match_finished_now: bool) -> list[tuple[str, dict[str, Any]]]:
    """The (type, payload) events that a write from `old` to `new` produces."""
    events: list[tuple[str, dict]] = []
    before = _finished_deals(old)
    for i in sorted(_finished_deals(new) - before):
        d = new["deals"][i]
        events.append(("deal.finished", {
            "deal": i, "dealer": d["dealer"], "status": d["status"], "result": d["result"],
            "tricks_won": d["tricks_won"], "next_dealer": d["next_dealer"],
        }))
    seen = {_violation_key(i, v) for i, v in public_violations(old)} if old else set()
    for i, v in public_violations(new):
        if _violation_key(i, v) not in seen:
            events.append(("violation.found", {"deal": i, **v}))
    if match_finished_now and not match_finished_before:
        events.append(("match.finished", {"match": new["match"]}))
    return events
