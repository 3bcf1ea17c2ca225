"""What a reader without the tournament's key may see: the one place that decides it.

The key holder (the tournament's scorer) sees everything. A reader without the key sees a deal
that is over now, in the current revision, whole and in every revision (a deal abandoned at a
close is over too, R-36). A deal that is live now
is seen as the table sees it in the current revision (R-31): the cards played face up there and
a trump card once shown, the trump suit once shown. Every other card (a hand, a face-down card,
a card played in an older revision and corrected away since) is still held: no field and no
message shows it by its face. A face-down card is a card back, also once taken back.

An older revision's deal is never matched with the current revision's by its place (a
correction may insert a deal before the live one, delete or reorder deals): `hidden_deals` tells
each deal by what it is, and is the one rule. The record's digest and the signature of a
revision are withheld wherever one of its deals is hidden (they would test guesses of it).

Every surface goes through `PublicView`: the match and its revisions (API and pages, with the
pages' step data), and the feed (hence the webhooks) when it publishes a write and when it is
read. What a live deal's table has seen, and the deal as that table shows it, is
referee/seen.py's `Table`.
"""
from __future__ import annotations

import json
from typing import Any

from referee.engine.facts import OVER as DEAL_OVER
from referee.seen import CARD, HIDDEN_MODES, Table, face_down_plays  # noqa: F401 (the feed and pages read them here)

OVER = (*DEAL_OVER, "abandoned")  # abandoned at a close: over, nobody plays on
NEXT_SECRETS = ("reveal", "face_down", "legal_after_reveal")


def is_over(deal_verdict: dict) -> bool:
    return deal_verdict["status"] in OVER


def is_faced(deal_verdict: dict) -> bool:
    """Over, or claimed: at a claim every hand is faced and the trump shown (R-33), so the
    table has seen the whole deal."""
    return deal_verdict["status"] in OVER or deal_verdict.get("claim") is not None


def withheld(provenance: dict, live: list[int], before: list[int] | None = None) -> dict:
    """A verdict's provenance as a reader without the key sees it while a deal is live: the
    record's digest and the signature would let anyone test guesses of the hidden cards (hash
    a guessed record, or check the signature against it: R-31), so neither is shown; the
    engine, rulebook and options digests are public facts and stay. `before`: the deals hidden
    in the revision before, whose verdict's digest (`previous`) would test guesses as well."""
    chained = {"previous": None} if provenance.get("previous") else {}  # the digest of a verdict that held it
    if not live:
        return {**provenance, **chained,
                "withheld": f"the revision before holds {_deals(before or [])} hidden now: its digest and the "
                            "signature are shown with the tournament's key, and to everyone once no deal is live (R-31)"}
    return {**provenance, "record": None, **chained,
            "withheld": f"{_deals(live)} {'is' if len(live) == 1 else 'are'} live: the record's digest and the "
                        "signature are shown with the tournament's key, and to everyone once no deal is live (R-31)"}


def _deals(indices: list[int]) -> str:
    return f"deal {indices[0] + 1}" if len(indices) == 1 else f"deals {', '.join(str(i + 1) for i in indices)}"


def next_in(verdict: dict, index: int) -> dict | None:
    """The verdict's `next` when the next play is in deal `index`."""
    nxt = verdict.get("next")
    return nxt if nxt and nxt.get("deal") == index and nxt.get("trick") is not None else None


class PublicView:
    """One revision (`record`, `verdict`) as a reader without the key sees it, decided by the
    current revision (`current`: its record and verdict; None when this is the current one)."""

    def __init__(self, record: dict, verdict: dict, current: tuple[dict, dict] | None = None,
                 before: tuple[dict, dict] | None = None):
        """`before`: the revision before this one, whose verdict's digest this one's provenance
        holds (`previous`): that digest would test guesses of a deal hidden there."""
        self.full_record, self.full_verdict = record, verdict
        self._current, self._tables = current, None
        self.chained = sorted(hidden_deals(*before, current)) if before and current else []
        self._verdict: dict | None = None

    @property
    def tables(self) -> dict[int, Table]:
        """The hidden deals, each with the table that sees it (hidden_deals), told when first
        asked: the feed's diff of most cards (no violation) never asks."""
        if self._tables is None:
            self._tables = hidden_deals(self.full_record, self.full_verdict, self._current)
        return self._tables

    def as_now(self, current: PublicView) -> PublicView:
        """This revision as a reader without the key sees it once `current` is the current one."""
        return PublicView(self.full_record, self.full_verdict, (current.full_record, current.full_verdict))

    def live_tables(self) -> Table:
        """What every hidden deal's table saw (for a fact that may be of any of them)."""
        return Table.common(list(self.tables.values()))

    def hidden(self, index: int) -> bool:
        """Is deal `index` (live now) shown only as the table sees it?"""
        return index in self.tables

    def record(self) -> dict:
        if not self.tables:
            return self.full_record
        out = dict(self.full_record)
        out["deals"] = [self.tables[i].deal_record(d) if i in self.tables else d
                        for i, d in enumerate(self.full_record["deals"])]
        return out

    def verdict(self) -> dict:
        """The verdict as shown, made once a view (the feed's diff asks for it twice a side): the
        same object on each call, to read, as `full_verdict` is when nothing is hidden."""
        if self._verdict is None:
            self._verdict = self._shown()
        return self._verdict

    def _shown(self) -> dict:
        if not self.tables and not (self.chained and self.full_verdict.get("provenance", {}).get("previous")):
            return self.full_verdict
        out = dict(self.full_verdict)
        out["deals"] = [self.tables[i].deal_verdict(d, self.full_record["deals"][i]) if i in self.tables else d
                        for i, d in enumerate(self.full_verdict["deals"])]
        out["next"] = self._next(out["next"], out["deals"])
        if "provenance" in out:
            out["provenance"], out["signature"] = withheld(out["provenance"], sorted(self.tables), self.chained), None
        return out

    def _next(self, nxt: dict | None, deals: list[dict]) -> dict | None:
        if not nxt or nxt.get("deal", -1) not in self.tables:
            return nxt
        index = nxt["deal"]
        nxt = {k: v for k, v in nxt.items() if k not in NEXT_SECRETS}
        if "table" in nxt:
            nxt["table"] = self.tables[index].on_table(nxt["table"])
        if nxt.get("to_play") is None:
            return nxt
        nxt["legal"] = None
        if "trump_hidden" in nxt:
            trump = deals[index].get("trump") or {}
            nxt["trump_hidden"] = bool(nxt["trump_hidden"]) or (trump.get("mode") in HIDDEN_MODES
                                                                 and trump.get("suit") is None)
        return nxt

    def violations(self) -> list[tuple[int, dict[str, Any]]]:
        """(deal index, violation) pairs of this revision that may be published: the shown
        verdict's, a hidden deal's made alone where that verdict is not made (the feed's diff
        of a card asks for nothing else of it; scrubbing a violation again changes nothing):
        a deal without violations shows none, its table not asked for."""
        if self._verdict is not None:
            return [(i, v) for i, d in enumerate(self._verdict["deals"]) for v in d["violations"]]
        record = self.full_record["deals"]
        return [(i, v) for i, d in enumerate(self.full_verdict["deals"]) if d["violations"]
                for v in (self.tables[i].violations(d, record[i]) if i in self.tables else d["violations"])]

    def violation(self, index: int, v: dict) -> dict:
        """A violation published before (from an older revision) as the table sees it now."""
        return self.tables[index].violation(v) if index in self.tables else v

    def steps(self, index: int, steps: list[dict]) -> list[dict]:
        """The page's step data of deal `index` (computed from the full record)."""
        if index not in self.tables:
            return steps
        trump = self.full_verdict["deals"][index].get("trump") or {}
        return self.tables[index].steps(steps, self.full_record["deals"][index], trump.get("mode"))


# -- which deals of a revision are hidden, and as which table sees them ----------------------

def hidden_deals(record: dict, verdict: dict, current: tuple[dict, dict] | None = None) -> dict[int, Table]:
    """The one rule (R-31): the deals of a revision (`record`, `verdict`) that a reader without
    the key sees only as a table does, each with that table, decided by the current revision
    (`current`: its record and verdict; None when this is the current one).

    A deal is never paired with the current revision's by its place (a correction may insert,
    delete or move deals). A deal of this revision that is the start of a deal of the current
    revision (the same deal with as many events or fewer: live play only adds events) is that
    deal: hidden as the table sees it now while it is live now, else public. Any other deal (a
    correction changed or removed it) may be the deal played now, entered otherwise: while a
    deal is live now, it shows only what this revision's table and every live table saw (its
    hands public only when a deal over now has them); with no deal live now, it is seen as this
    revision saw it."""
    now_record, now_verdict = current or (record, verdict)
    now = list(zip(now_record["deals"], now_verdict["deals"]))
    live = {j: Table.of(d, v, next_in(now_verdict, j)) for j, (d, v) in enumerate(now) if not is_faced(v)}
    if current is None:
        return live
    by_shape: dict[str, list[int]] = {}
    for j, (d, _) in enumerate(now):
        by_shape.setdefault(_shape(d), []).append(j)
    public_hands = {_holding(d) for d, v in now if is_faced(v)} - {None}
    tables: dict[int, Table] = {}
    for i, (deal, judged) in enumerate(zip(record["deals"], verdict["deals"])):
        same = [j for j in by_shape.get(_shape(deal), []) if _starts(deal, now[j][0])]
        if same:
            if any(j in live for j in same):
                tables[i] = Table.common([live[j] for j in same if j in live])
            continue
        if _holding(deal) in public_hands:
            continue  # its hands are those of a deal over now: public
        own = Table.of(deal, judged, next_in(verdict, i))
        if live:
            tables[i] = Table.common([own, *live.values()])
        elif not is_faced(judged):
            tables[i] = own
    return tables


def _shape(deal: dict) -> str:
    """A deal without its events: what live play never changes."""
    return json.dumps({k: v for k, v in deal.items() if k != "events"}, sort_keys=True)


def _starts(deal: dict, later: dict) -> bool:
    """Are `deal`'s events the first events of `later` (whose shape is the same)?"""
    events, more = deal.get("events", []), later.get("events", [])
    return len(events) <= len(more) and more[:len(events)] == events


def _holding(deal: dict) -> tuple[frozenset, ...] | None:
    """Who holds which card (the order within a hand aside), or None without hands."""
    hands = deal.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        return None
    return tuple(frozenset(map(str, h)) for h in hands)


def public_violations(record: dict, verdict: dict) -> list[tuple[int, dict[str, Any]]]:
    """(deal index, violation) pairs of the current revision that may be published now."""
    return PublicView(record, verdict).violations()
