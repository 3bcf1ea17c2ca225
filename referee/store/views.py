"""Stored rows as the API shows them (JSON-ready dicts), and a match as one reader sees it."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, NamedTuple

from referee.visibility import PublicView

from .ids import etag_of, keyed
from .models import FeedEvent, Match, Tournament, Webhook


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


class Head(NamedTuple):
    record: dict
    verdict: dict


@dataclass
class MatchView:
    """A match as one reader sees it (the key holder sees everything): its summary row and
    its head, whole (deals.head_of). A live write's view holds the deal it changed
    (`changed`: its place and verdict) and reads the whole head only when asked (`read`)."""

    match: Match
    full: bool
    whole: Head | None = None
    read: Callable[[], Head] | None = None
    changed: tuple[int, dict] | None = None

    @property
    def head(self) -> Head:
        if self.whole is None:
            self.whole = self.read()
        return self.whole

    @property
    def etag(self) -> str:
        """Distinct for the key holder's view and the public one (they differ)."""
        return keyed(etag_of(self.match)) if self.full else etag_of(self.match)

    @property
    def revision(self) -> Head:
        """The current revision's record and verdict."""
        return self.head

    def public(self) -> PublicView:
        return PublicView(self.revision.record, self.revision.verdict)

    def as_dict(self) -> dict[str, Any]:
        record, verdict = self.revision.record, self.revision.verdict
        if not self.full:
            view = self.public()
            record, verdict = view.record(), view.verdict()
        return {**summary(self.match), "etag": self.etag, "record": record, "verdict": verdict}

    def live_dict(self) -> dict[str, Any]:
        """A live write's answer (the writer holds the key): the summary, `next`, and the
        verdict of the deal the write changed (the last), in a size that does not grow with
        the match; the whole match is `as_dict`."""
        if self.changed is not None:
            index, deal = self.changed
        else:
            index = len(self.head.verdict["deals"]) - 1
            deal = self.head.verdict["deals"][index]
        return {**summary(self.match), "etag": self.etag, "next": self.match.verdict["next"],
                "deal": {"index": index, "verdict": deal}}


def tournament_settings(t: Tournament) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "preset": t.preset, "options": t.options, "public": t.public,
            "created_at": iso(t.created_at)}


def summary(match: Match) -> dict[str, Any]:
    """What lists show of a match: its row alone (its record and verdict but their deals)."""
    return {
        "id": match.id, "tournament": match.tournament_id, "external_id": match.external_id,
        "revision": match.revision, "status": match.status, "closed": match.closed,
        "players": match.record.get("players"), "deals": match.record["deals"],
        "match": match.verdict["match"], "at": where_play_is(match.verdict.get("next")),
        "created_at": iso(match.created_at), "updated_at": iso(match.updated_at),
    }


def where_play_is(next_: dict | None) -> dict | None:
    """Where the table is, as a director's list shows it (public: no card): the deal and trick
    in play (counted from 1) and whose turn it is, or the claim that waits for its answer; None
    once the match is over."""
    if next_ is None:
        return None
    claim = next_.get("claim")
    return {"deal": next_["deal"] + 1, "trick": next_.get("trick"), "to_play": next_.get("to_play"),
            "dealer": next_.get("dealer"),
            "waiting_for": {"claim_by": claim["seat"], "answer_from": claim["answer_from"]} if claim else None}


def where_in_words(at: dict | None, names: list[str]) -> str | None:
    """`where_play_is` in words, as the tournament page and `referee matches` say it (`names`:
    the seats as the reader calls them); None once the match is over."""
    if at is None:
        return None
    if at["waiting_for"]:
        return f"deal {at['deal']}, trick {at['trick']}: {names[at['waiting_for']['claim_by']]}'s claim waits for an answer"
    if at["trick"] is None:
        return f"deal {at['deal']} to be dealt" + (f" by {names[at['dealer']]}" if at["dealer"] is not None else "")
    return f"deal {at['deal']}, trick {at['trick']}: {names[at['to_play']]} to play"


def webhook_dict(w: Webhook) -> dict:
    return {"id": w.id, "tournament": w.tournament_id, "url": w.url, "active": w.active,
            "disabled_reason": w.disabled_reason, "delivered_seq": w.delivered_seq,
            "failures": w.failures, "created_at": iso(w.created_at)}


def event_dict(e: FeedEvent) -> dict:
    return {"id": e.id, "seq": e.seq, "type": e.type, "tournament": e.tournament_id, "match": e.match_id,
            "time": iso(e.created_at), "payload": e.payload}
