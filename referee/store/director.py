"""What a tournament director reads of a whole tournament: its matches with their scores,
where play is and their corrections, the standings with the rules that decided them, and
every dispute (violation or disputed claim) of every match, newest first; and the tournament's ETag (tournaments.py), which a live page polls cheaply."""
from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.visibility import public_violations

from .db import Database
from .deals import heads_of
from .ids import keyed
from .keys import reader_sees_all
from .models import Match, Revision, Tournament
from .standings import TIE_BREAK, kept_table
from .tournaments import load_tournament, tournament_etag
from .views import iso, summary, tournament_settings


class Head(NamedTuple):
    match: Match
    record: dict
    verdict: dict


def heads(s: Session, tid: str) -> list[Head]:
    """Every match of the tournament with its current record and verdict: one query."""
    rows = s.scalars(select(Match).where(Match.tournament_id == tid).order_by(Match.created_at, Match.id)).all()
    whole = heads_of(s, rows)
    return [Head(m, *whole[m.id]) for m in rows]


def moment(mid: str, deal: int, event: int | None) -> str:
    """The address of a moment on the match page: the deal and event as people count them, from 1
    (the fields `deal` and `event` are the record's 0-based indexes)."""
    return f"/matches/{mid}?deal={deal + 1}" + (f"&event={event + 1}" if event is not None else "")


def _trick_at(deal: dict, event: int) -> int:
    """The trick in play at an event: one more than the tricks all played before it."""
    done = 0
    for t in deal["tricks"]:
        events = [c["event"] for c in t["cards"] if c.get("event") is not None]
        if events and max(events) < event:
            done += 1
    return done + 1


def disputed_claims(h: Head, full: bool) -> list[tuple[int, dict]]:
    """The claims the other team disputed (or left unanswered at the bell, R-34b), settled, as
    disputes: (deal, the claim as a violation's fields). A reader without the key sees those
    of deals that are over (a settled claim ends its deal)."""
    out = []
    for i, d in enumerate(h.verdict["deals"]):
        c = d.get("claim")
        if not c or "awarded" not in c or not (c.get("answer") == "dispute" or c.get("at_close")):
            continue
        if not full and d["status"] == "in_progress":
            continue
        how = "unanswered at the close, settled as disputed" if c.get("at_close") else f"disputed by seat {c['answered_by']}"
        held = "held" if c["held"] else f"did not hold (could take {c['can_take']})"
        out.append((i, {"code": "claim", "seat": c["seat"], "event": c["event"], "trick": _trick_at(d, c["event"]),
                        "message": f"seat {c['seat']} claimed {c['tricks']} of the remaining tricks, {how}: {held}; "
                                   f"awarded {c['awarded']}",
                        "rule": c.get("rule") or [], "claim": {"claimed": c["tricks"], "awarded": c["awarded"],
                                                                "held": c["held"]}}))
    return out


def disputes_of(h: Head, full: bool) -> list[dict[str, Any]]:
    """A match's violations and disputed claims as a director lists them (a reader without the
    key sees those the table may know)."""
    if full:
        found = [(i, v) for i, d in enumerate(h.verdict["deals"]) for v in d["violations"]]
    else:
        found = public_violations(h.record, h.verdict)
    found += disputed_claims(h, full)
    players = h.record.get("players") or []
    out = []
    for deal, v in found:
        seat = v.get("seat")
        out.append({"match": h.match.id, "external_id": h.match.external_id, "status": h.match.status,
                    "updated_at": iso(h.match.updated_at), "deal": deal, "trick": v.get("trick"),
                    "event": v.get("event"), "seat": seat,
                    "player": players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None,
                    "code": v["code"], "penalty": bool(v.get("penalty")), "corrected": bool(v.get("corrected")),
                    "pending": bool(v.get("pending")), "message": v.get("message"), "rule": v.get("rule") or [],
                    "moment": moment(h.match.id, deal, v.get("event")),
                    **({"claim": v["claim"]} if "claim" in v else {})})
    return out


def newest_first(disputes: list[dict]) -> list[dict]:
    """By the match's last change, then the latest deal and event first."""
    return sorted(disputes, key=lambda d: (d["updated_at"], d["match"], d["deal"],
                                           -1 if d["event"] is None else d["event"]), reverse=True)


def match_row(h: Head, corrections: list[dict], disputes: int) -> dict:
    """A table as the director's list shows it: its summary, how many disputes it has, and
    its corrections with their reasons (the audit trail, each a revision)."""
    return {**summary(h.match), "disputes": disputes, "corrections": corrections}


def corrections_of(s: Session, tid: str) -> dict[str, list[dict]]:
    """Every correction (PUT /record) of the tournament's matches, by match: one query."""
    rows = s.execute(select(Revision.match_id, Revision.number, Revision.reason, Revision.created_at)
                     .join(Match, Match.id == Revision.match_id)
                     .where(Match.tournament_id == tid, Revision.kind == "revise")
                     .order_by(Revision.match_id, Revision.number)).all()
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(r.match_id, []).append({"revision": r.number, "reason": r.reason, "at": iso(r.created_at)})
    return out


def listing(s: Session, public_only: bool, limit: int, offset: int) -> list[dict]:
    """Tournaments newest first, each with its preset, number of matches and last change:
    their rows' kept counts, no match read."""
    stmt = select(Tournament).order_by(Tournament.created_at.desc(), Tournament.id.desc()).offset(offset).limit(limit)
    if public_only:
        stmt = stmt.where(Tournament.public.is_(True))
    return [{**tournament_settings(t), "matches": t.match_count, "last_change": iso(t.changed_at or t.created_at)}
            for t in s.scalars(stmt).all()]


class Director:
    db: Database

    def tournament_listing(self, public_only: bool = True, limit: int = 50, offset: int = 0) -> list[dict]:
        with self.db.reading() as s:
            return listing(s, public_only, limit, offset)

    def tournament_etag(self, tid: str, key: str | None) -> str:
        with self.db.reading() as s:
            t = load_tournament(s, tid)
            tag = tournament_etag(t)
            return keyed(tag) if reader_sees_all(t, key) else tag

    def standings_sheet(self, tid: str, key: str | None, trusted: bool = False) -> dict[str, Any]:
        """The standings as the director prints them, with how many matches are finished of
        how many: kept rows and counts read, however many matches the tournament has."""
        with self.db.reading() as s:
            t = load_tournament(s, tid)
            if not trusted:
                reader_sees_all(t, key)
            return {"tournament": tournament_settings(t), "standings": kept_table(s, tid), "tie_break": TIE_BREAK,
                    "finished": t.finished_count, "matches": t.match_count}

    def disputes(self, tid: str, key: str | None, status: str | None = None, code: str | None = None,
                 trusted: bool = False) -> list[dict]:
        """Every violation of every match of the tournament, newest first; `status` (the
        match's) and `code` filter them."""
        return self.overview(tid, key, status, code, trusted)["disputes"]

    def overview(self, tid: str, key: str | None, status: str | None = None, code: str | None = None,
                 trusted: bool = False) -> dict[str, Any]:
        """The tournament page's data: settings, standings, matches, disputes and ETag."""
        with self.db.reading() as s:
            t = load_tournament(s, tid)
            full = True if trusted else reader_sees_all(t, key)
            all_heads = heads(s, tid)
            disputes = [d for h in all_heads for d in disputes_of(h, full)]
            per_match: dict[str, int] = {}
            for d in disputes:
                per_match[d["match"]] = per_match.get(d["match"], 0) + 1
            corrections = corrections_of(s, tid)
            codes = sorted({d["code"] for d in disputes})
            disputes = [d for d in disputes if (status is None or d["status"] == status)
                        and (code is None or d["code"] == code)]
            return {"tournament": tournament_settings(t), "full": full,
                    "etag": keyed(tournament_etag(t)) if full else tournament_etag(t),
                    "standings": kept_table(s, tid), "tie_break": TIE_BREAK,
                    "matches": [match_row(h, corrections.get(h.match.id, []), per_match.get(h.match.id, 0))
                                for h in all_heads], "disputes": newest_first(disputes),
                    "codes": codes}
