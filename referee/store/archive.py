"""Export and restore: a tournament's matches and every revision's record as JSON lines,
and a match stored again from them (each revision judged anew)."""
from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import select

from referee.engine.errors import shown
from referee.provenance import place
from referee.settlers import Reusing
from referee.judge import write

from . import limits
from .db import Database
from .deals import head_of, shell
from .errors import NotFound
from .ids import new_id
from .history import add_revision, history
from .judging import judge
from .matches import by_external_id, record_for, status_of
from .models import Match, Tournament, utcnow
from .publishing import publish
from .tournaments import load_tournament
from .views import Head, MatchView, iso, summary, tournament_settings


class Archive:
    db: Database

    def export(self, tid: str | None):
        """JSON-ready lines: per tournament its settings, then each of its matches with its
        external id, the current record and verdict, and every revision's record and the
        signed verdict it was given then; oldest first."""
        with self.db.reading() as s:
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
                    head = head_of(s, m)
                    yield {"kind": "match", **summary(m), "record": head.record, "verdict": head.verdict,
                           "revisions": [{"number": r.number, "kind": r.kind, "reason": r.reason,
                                          "created_at": iso(r.created_at), "record": r.record, "verdict": r.verdict}
                                         for r in history(s, m, head=head)]}

    def restore_match(self, tid: str, external_id: str, revisions: list[dict], created_at: datetime | None = None,
                      updated_at: datetime | None = None, mid: str | None = None) -> tuple[MatchView, bool]:
        """A match from an export: its revisions stored again in order, each judged anew (outside
        any transaction; a claim or bell settled in one revision is kept by the next where its
        deal is unchanged), with the export's times (a revision's `created_at`; now when absent)
        and its id `mid`, so that the links to it still open it (a new id when `mid` is absent,
        not an id of ours' shape, or taken by another match here). An external id already
        present is left as it is (created False)."""
        with self.db.reading() as s:
            t = load_tournament(s, tid)
            existing = by_external_id(s, tid, external_id)
            if existing is not None:
                return MatchView(existing, True, head_of(s, existing)), False
            limits.check_new_match(s, tid)
            mid = _free_id(s, mid)
        limits.check_revisions(len(revisions))
        judged = self._judged(t, external_id, revisions, mid)
        with self.db.transaction() as s:
            t = load_tournament(s, tid, lock=True)
            existing = by_external_id(s, tid, external_id)
            if existing is not None:  # restored while this one was judged
                return MatchView(existing, True, head_of(s, existing)), False
            limits.check_new_match(s, tid)
            if _free_id(s, mid) != mid:  # taken while it was judged: signed again for the id it gets
                mid = _free_id(s, None)
                judged = self._signed_again(judged, mid)
            now = utcnow()
            m = Match(id=mid, tournament_id=tid, external_id=external_id, revision=0, status="in_progress",
                      closed=False, created_at=created_at or now, updated_at=updated_at or now,
                      record=shell(judged[0][0]), verdict=shell(judged[0][1]))
            s.add(m)
            s.flush()
            for i, (rev, (record, verdict)) in enumerate(zip(revisions, judged)):
                add_revision(s, m, rev.get("kind") or "import", rev.get("reason"), record, verdict,
                             rev.get("created_at") or now, Head(*judged[i - 1]) if i else None)
            head = Head(*judged[-1])
            m.closed = bool(head.record.get("closed"))
            m.status = status_of(head.verdict, m.closed)
            publish(s, t, m, None, head, False, None)
            return MatchView(m, True, head), True

    def _judged(self, t: Tournament, external_id: str, revisions: list[dict], mid: str) -> list[tuple[dict, dict]]:
        """Each revision's record as stored and the verdict this server gives it, in order (the
        export's own verdicts are not taken on trust), signed as match `mid`'s revisions."""
        judged: list[tuple[dict, dict]] = []
        searching = self.budget().settler()
        for number, rev in enumerate(revisions, 1):
            record = record_for(t, rev["record"], external_id)
            limits.check_record(record)
            before = judged[-1] if judged else (None, None)
            where = place(mid, number, before[1])
            judged.append((record, judge(record, Reusing(record, *before, searching), self.signer, where)))
        return judged

    def _signed_again(self, judged: list[tuple[dict, dict]], mid: str) -> list[tuple[dict, dict]]:
        """The same verdicts signed as match `mid`'s revisions (judged again they would be the same)."""
        again: list[tuple[dict, dict]] = []
        for number, (record, verdict) in enumerate(judged, 1):
            where = place(mid, number, again[-1][1] if again else None)
            again.append((record, write(verdict, record, self.signer, where)))
        return again

RESTORABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # the column's width


def _free_id(s, mid: str | None) -> str:
    """The exported id when this database can keep it, else a new one."""
    if mid is None or not RESTORABLE_ID.fullmatch(mid) or s.get(Match, mid) is not None:
        return new_id()
    return mid
