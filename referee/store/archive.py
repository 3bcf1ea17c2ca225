"""Export and restore: a tournament's matches and every revision's record as JSON lines,
and a match stored again from them (each revision judged anew)."""
from __future__ import annotations

from sqlalchemy import select

from referee.engine.errors import shown

from .db import Database
from .errors import NotFound
from .ids import new_id
from .matches import by_external_id, head_of, judge, record_for, status_of
from .models import Match, Revision, Tournament, utcnow
from .publishing import publish
from .tournaments import load_tournament
from .views import MatchView, iso, summary, tournament_settings


class Archive:
    db: Database

    def export(self, tid: str | None):
        """JSON-ready lines: per tournament its settings, then each of its matches with its
        external id, every revision's record and the current verdict; oldest first."""
        with self.db.transaction() as s:
            stmt = select(Tournament).order_by(Tournament.created_at, Tournament.id)
            if tid is not None:
                stmt = stmt.where(Tournament.id == tid)
            tournaments = s.scalars(stmt).all()
            if tid is not None and not tournaments:
                raise NotFound(f"no tournament {shown(tid)}")
            for t in tournaments:
                yield {"kind": "tournament", "tournament": tournament_settings(t)}
                matches = s.scalars(select(Match).where(Match.tournament_id == t.id)
                                    .order_by(Match.created_at, Match.id)).all()
                for m in matches:
                    revisions = s.scalars(select(Revision).where(Revision.match_id == m.id)
                                          .order_by(Revision.number)).all()
                    yield {"kind": "match", **summary(m, revisions[-1]), "record": revisions[-1].record,
                           "verdict": revisions[-1].verdict,
                           "revisions": [{"number": r.number, "kind": r.kind, "reason": r.reason,
                                          "created_at": iso(r.created_at), "record": r.record} for r in revisions]}

    def restore_match(self, tid: str, external_id: str, revisions: list[dict]) -> tuple[MatchView, bool]:
        """A match from an export: its revisions stored again in order, each judged anew.
        An external id already present is left as it is (created False)."""
        with self.db.transaction() as s:
            t = load_tournament(s, tid, lock=True)
            existing = by_external_id(s, tid, external_id)
            if existing is not None:
                return MatchView(existing, head_of(s, existing), True), False
            now = utcnow()
            m = Match(id=new_id(), tournament_id=tid, external_id=external_id, revision=0, status="in_progress",
                      closed=False, created_at=now, updated_at=now)
            s.add(m)
            s.flush()
            verdict = None
            for number, rev in enumerate(revisions, 1):
                record = record_for(t, rev["record"], external_id)
                verdict = judge(record)
                head = Revision(match_id=m.id, number=number, kind=rev.get("kind") or "import",
                                reason=rev.get("reason"), record=record, verdict=verdict, created_at=now)
                s.add(head)
            m.revision, m.closed = len(revisions), bool(head.record.get("closed"))
            m.status = status_of(verdict, m.closed)
            publish(s, t, m, None, head, False, None)
            return MatchView(m, head, True), True
