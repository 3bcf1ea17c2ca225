"""What the table of a live deal has seen (R-31), and that deal as it shows it: the cards played
face up there and a trump card once shown, the trump suit once shown, the suit led in each
trick; every other card (a hand, a face-down card, a card corrected away since) is taken out
of its record, verdict, violations and steps. Which deals are shown so, and as which table,
is referee/visibility.py's to decide (`hidden_deals`, the one rule).
"""
from __future__ import annotations

import re
from typing import Any

from referee.engine.cards import Card
from referee.engine.options import CHOICES, Options

# The trump modes whose trump lies face down until shown, as the modes themselves say (trump.py).
HIDDEN_MODES = tuple(name for name in CHOICES["trump"] if Options.mode_named(name).concealed)
# A card as JSON fields and codes name it (TH), or as messages write it for people (10♥).
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b|(?<![\w])(?:10|[2-9JQKA])[♠♥♦♣]")
# Breaches that exist only once the trump was shown: they would tell its suit.
TRUMP_BREACHES = frozenset({"must_trump_after_ask", "must_lead_trump_after_reveal", "hidden_card_played"})


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


def leads(deal_verdict: dict, nxt: dict | None = None) -> dict[int, str]:
    """The suit the table saw led in each trick (by number), as the engine's replay left the
    deal (take-backs are the replay's business): its tricks' first cards, then the first card
    of the trick on the table (`nxt`: the verdict's `next`, in this deal)."""
    first = {t["number"]: t["cards"][0] for t in deal_verdict["tricks"] if t["cards"]}
    if nxt and nxt.get("table"):
        first[nxt["trick"]] = nxt["table"][0]
    return {number: card["card"][-1] for number, card in first.items() if card["card"] and not card.get("face_down")}
