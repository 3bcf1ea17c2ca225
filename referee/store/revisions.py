"""A match's revisions read back: the list, and one revision as this reader may see it."""
from __future__ import annotations

from sqlalchemy import select

from referee.visibility import PublicView

from .db import Database
from .deals import head_of
from .errors import NotFound
from .history import with_previous
from .keys import reader_sees_all
from .matches import load_match
from .models import Revision
from .tournaments import load_tournament
from .views import iso


class Revisions:
    db: Database

    def revisions(self, mid: str, key: str | None) -> list[dict]:
        with self.db.reading() as s:
            m = load_match(s, mid)
            reader_sees_all(load_tournament(s, m.tournament_id), key)
            rows = s.execute(select(Revision.number, Revision.kind, Revision.reason, Revision.created_at, Revision.deals)
                             .where(Revision.match_id == mid).order_by(Revision.number)).all()
            return [{"number": r.number, "kind": r.kind, "reason": r.reason, "created_at": iso(r.created_at),
                     "deals": r.deals, "etag": f'"{mid}.{r.number}"'} for r in rows]

    def revision(self, mid: str, number: int, key: str | None) -> dict:
        view = self.revision_view(mid, number, key)
        return {k: view[k] for k in ("number", "kind", "reason", "created_at", "record", "verdict")}

    def revision_view(self, mid: str, number: int, key: str | None) -> dict:
        """One revision as this reader sees it (`view`: None for the key holder). Without the
        key, what the current revision shows decides (visibility.py)."""
        with self.db.reading() as s:
            m = load_match(s, mid)
            full = reader_sees_all(load_tournament(s, m.tournament_id), key)
            before = r = None
            head = head_of(s, m)
            if 1 <= number <= m.revision:
                before, r = with_previous(s, m, number, head)
            if r is None:
                raise NotFound(f"match {mid} has no revision {number}")
            view = None
            if full:
                record, verdict = r.record, r.verdict
            else:
                view = PublicView(r.record, r.verdict, tuple(head),
                                  before and (before.record, before.verdict))
                record, verdict = view.record(), view.verdict()
            return {"number": r.number, "kind": r.kind, "reason": r.reason, "created_at": iso(r.created_at),
                    "match_id": m.id, "external_id": m.external_id, "tournament": m.tournament_id,
                    "record": record, "verdict": verdict, "full": full, "full_record": r.record,
                    "full_verdict": r.verdict, "view": view}
