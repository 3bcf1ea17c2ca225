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
read.
"""
from __future__ import annotations

import json
import re
from typing import Any

from referee.engine.cards import Card
from referee.engine.facts import OVER as DEAL_OVER
from referee.engine.options import CHOICES, Options

OVER = (*DEAL_OVER, "abandoned")  # abandoned at a close: over, nobody plays on
# The trump modes whose trump lies face down until shown, as the modes themselves say (trump.py).
HIDDEN_MODES = tuple(name for name in CHOICES["trump"] if Options.mode_named(name).concealed)
# A card as JSON fields and codes name it (TH), or as messages write it for people (10♥).
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b|(?<![\w])(?:10|[2-9JQKA])[♠♥♦♣]")
# Breaches that exist only once the trump was shown: they would tell its suit.
TRUMP_BREACHES = frozenset({"must_trump_after_ask", "must_lead_trump_after_reveal", "hidden_card_played"})
NEXT_SECRETS = ("reveal", "face_down", "legal_after_reveal")


def is_over(deal_verdict: dict) -> bool:
    return deal_verdict["status"] in OVER


def is_faced(deal_verdict: dict) -> bool:
    """Over, or claimed: at a claim every hand is faced and the trump shown (R-33), so the
    table has seen the whole deal."""
    return deal_verdict["status"] in OVER or deal_verdict.get("claim") is not None


def face_down_plays(deal_record: dict) -> set[int]:
    """The events of a deal that play a card face down. A play of the hidden card marked face
    down is not one: the hidden card is never played face down (R-35), it is shown by being
    played (whether the table has seen it is then `Table.seen`'s to say, as for any card)."""
    trump = deal_record.get("trump")
    hidden = trump.get("hidden") if isinstance(trump, dict) else None
    return {i for i, e in enumerate(deal_record.get("events", []))
            if e.get("face_down") and (hidden is None or e.get("play") != hidden)}


class Table:
    """What the table has seen of a deal that is live now: the cards seen face up, the trump
    suit once shown, the suit led in each trick; nothing else of the deal is shown."""

    def __init__(self, seen: set[str], suit: str | None, led: dict[int, str]):
        self.seen, self.suit, self.leads = seen, suit, led

    @classmethod
    def of(cls, deal_record: dict, deal_verdict: dict, nxt: dict | None = None) -> Table:
        """What the table saw of one deal as a revision's replay left it; `nxt`: the verdict's
        `next` when its play is in this deal (the trick on the table)."""
        events = deal_record.get("events", [])
        trump = deal_verdict.get("trump") or {}
        down = face_down_plays(deal_record)
        seen = {e["play"] for i, e in enumerate(events) if e.get("play") and i not in down}
        if trump.get("card") and (trump.get("mode") not in HIDDEN_MODES or trump.get("revealed")):
            seen.add(trump["card"])
        return cls(seen, trump.get("suit"), leads(deal_verdict, nxt))

    @classmethod
    def common(cls, tables: list[Table]) -> Table:
        """What every one of these tables saw: a card, the trump suit, a trick's lead is shown
        only when each of them saw it."""
        first, *rest = tables
        suit = first.suit if all(t.suit == first.suit for t in rest) else None
        return cls(set.intersection(*(t.seen for t in tables)), suit,
                   {n: s for n, s in first.leads.items() if all(t.leads.get(n) == s for t in rest)})

    def text(self, text: str, also: frozenset[str] = frozenset()) -> str:
        """A message with each card the table has not seen (and those in `also`) unnamed."""
        return CARD.sub(lambda m: m.group(0) if Card.parse(m.group(0)).text in self.seen - also else "a card", text)

    def scrub(self, value: Any, also: frozenset[str] = frozenset()) -> Any:
        """Any JSON value with the cards the table has not seen taken out (a card field
        becomes null, a message says "a card")."""
        if isinstance(value, dict):
            return {k: self.scrub(v, also) for k, v in value.items()}
        if isinstance(value, list):
            return [self.scrub(v, also) for v in value]
        if isinstance(value, str) and CARD.search(value):
            if CARD.fullmatch(value):
                return value if value in self.seen and value not in also else None
            return self.text(value, also)
        return value

    def shows_trump(self, trump: dict | None) -> bool:
        return not trump or (trump.get("suit") is not None and trump.get("suit") == self.suit)

    # -- one deal of a revision ------------------------------------------------------------

    def deal_record(self, deal: dict) -> dict:
        out = {k: v for k, v in deal.items() if k != "hands"}
        down = face_down_plays(deal)
        out["events"] = [dict(e, play=None) if i in down else e for i, e in enumerate(deal.get("events", []))]
        trump = out.get("trump")
        if isinstance(trump, dict) and trump.get("suit") is not None and trump["suit"] != self.suit:
            out["trump"] = dict(trump, suit=None)  # called otherwise in an older revision
        return self.scrub(out)

    def deal_verdict(self, deal: dict, deal_record: dict) -> dict:
        violations = self.violations(deal, deal_record)
        deal = _rewritable(deal)
        trump_shown = self.shows_trump(deal.get("trump"))
        if not trump_shown:
            _hide_trump(deal)
        elif deal.get("trump") and "card" in deal["trump"] and deal["trump"]["card"] not in self.seen:
            del deal["trump"]["card"]  # a card turned up only in an older revision
        deal["violations"] = violations
        for trick in deal["tricks"]:
            for card in trick["cards"]:
                if card.get("face_down"):
                    card["card"] = None
        if "unproven" in deal:
            deal["unproven"] = [self.unproven(u) for u in deal["unproven"]
                                if trump_shown or u.get("code") not in TRUMP_BREACHES]
        return self.scrub(deal)

    def violations(self, deal: dict, deal_record: dict) -> list[dict]:
        """A deal's violations as its verdict shows them (deal_verdict's): none proven by a
        hand, none that exists only once the trump was shown while it is not."""
        events = deal_record.get("events", [])
        face_down = {i: events[i].get("play") for i in face_down_plays(deal_record)}
        trump_shown = self.shows_trump(deal.get("trump"))
        return [self.violation(v, face_down) for v in deal["violations"]
                if v.get("proof") != "hand" and (trump_shown or v["code"] not in TRUMP_BREACHES)]

    def violation(self, v: dict, face_down: dict[int, str] | None = None) -> dict:
        """A violation as the table sees it now; `face_down`: the face-down plays (event: card)
        of the revision it comes from."""
        v = dict(v)
        own = (face_down or {}).get(v.get("event"))
        also = frozenset({own}) if own else frozenset()
        if v.get("led") is not None and v.get("trick") is not None and self.leads.get(v["trick"]) != v["led"]:
            # led by a card corrected away since: its suit is not the table's either
            v["led"] = None
            v["message"] = f"seat {v['seat']}: {v['code'].replace('_', ' ')} at event {v['event'] + 1}"
        return self.scrub(v, also)

    def unproven(self, entry: dict) -> dict:
        entry = dict(entry)
        if entry.get("face_down"):
            entry["card"] = None
            entry["message"] = f"seat {entry['seat']} showed out face down at event {entry['event'] + 1}"
        if entry.get("void") not in (self.leads.get(entry.get("trick")), self.suit):
            entry["void"] = None
            entry["message"] = f"seat {entry['seat']} showed out at event {entry['event'] + 1}"
        return self.scrub(entry)

    def on_table(self, cards: list[dict]) -> list[dict]:
        """The open trick's cards (a step's `table`, the verdict's `next.table`): a face-down
        card shows no face, nor does a card the table has not seen."""
        return self.scrub([dict(c, card=None) if c.get("face_down") else c for c in cards])

    def steps(self, steps: list[dict], deal_record: dict, trump_mode: str | None) -> list[dict]:
        """The page's step data of one deal: no hands, no legal cards, no card unseen."""
        events = deal_record.get("events", [])
        down = face_down_plays(deal_record)
        out = []
        for step in steps:
            s = dict(step, hands=None, legal=None)
            s["table"] = self.on_table(step.get("table", []))
            if s.get("trump") is not None and s["trump"] != self.suit:
                s["trump"] = None
                s["trump_hidden"] = trump_mode in HIDDEN_MODES or bool(s.get("trump_hidden"))
            own = events[s["event"]].get("play") if s.get("event") in down else None
            out.append(self.scrub(s, frozenset({own}) if own else frozenset()))
        return out


def _rewritable(deal: dict) -> dict:
    """A copy of what `deal_verdict` rewrites in place (the deal, its trump, its tricks and their
    cards); `scrub` then builds every other dict and list afresh, so the view shares nothing
    mutable with the stored verdict (a later edit of either would leak a hidden card: R-31)."""
    out = dict(deal)
    if isinstance(deal.get("trump"), dict):
        out["trump"] = dict(deal["trump"])
    out["tricks"] = [dict(t, cards=[dict(c) for c in t["cards"]]) for t in deal["tricks"]]
    return out


def _hide_trump(deal: dict) -> None:
    """The trump of a deal whose trump suit the current revision does not show."""
    trump = deal.get("trump")
    trump["suit"] = None
    trump.pop("card", None)
    if trump.pop("turned_up_at_end", None) is not None:
        trump.pop("rule", None)
    if trump.get("revealed"):
        trump["revealed"] = None
    if trump.get("set"):
        trump["set"] = None
    for trick in deal["tricks"]:
        trick.pop("reveal", None)
        trick.pop("trump_set", None)
        for card in trick["cards"]:
            card.pop("trump", None)


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


def leads(deal_verdict: dict, nxt: dict | None = None) -> dict[int, str]:
    """The suit the table saw led in each trick (by number), as the engine's replay left the
    deal (take-backs are the replay's business): its tricks' first cards, then the first card
    of the trick on the table (`nxt`: the verdict's `next`, in this deal)."""
    first = {t["number"]: t["cards"][0] for t in deal_verdict["tricks"] if t["cards"]}
    if nxt and nxt.get("table"):
        first[nxt["trick"]] = nxt["table"][0]
    return {number: card["card"][-1] for number, card in first.items() if card["card"] and not card.get("face_down")}


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
        self.tables = hidden_deals(record, verdict, current)
        self.chained = sorted(hidden_deals(*before, current)) if before and current else []
        self._verdict: dict | None = None

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
        of a card asks for nothing else of it; scrubbing a violation again changes nothing)."""
        if self._verdict is not None:
            return [(i, v) for i, d in enumerate(self._verdict["deals"]) for v in d["violations"]]
        record = self.full_record["deals"]
        return [(i, v) for i, d in enumerate(self.full_verdict["deals"])
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
