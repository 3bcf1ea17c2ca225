"""The verdict's `next`: what the record goes on with. Nothing once the match is over; in an
unfinished deal, whose turn it is, what they may play and the cards on the table, or the claim
that waits for its answer (R-33); else the next deal and its dealer."""
from __future__ import annotations

from .cards import caller_of
from .deal import Deal
from .totals import Match
from .verdict import DealVerdict


def next_of(match: Match, deals: list[DealVerdict], last: Deal | None, expected: int | None) -> dict | None:
    if match.finished:
        return None
    if deals and deals[-1].status == "in_progress" and last is not None:
        return _next_in_deal(len(deals) - 1, last)
    dealer = expected if deals else None
    caller = None if dealer is None or match.options.bidding else caller_of(dealer)  # bidding: the bid decides
    return {"deal": len(deals), "dealer": dealer, "caller": caller,
            "trick": None, "to_play": None, "legal": None}


def _next_in_deal(index: int, deal: Deal) -> dict:
    if deal.awaiting_answer:
        return _next_answer(index, deal)
    legal = deal.legal_plays()
    data = {
        "deal": index, "dealer": deal.dealer, "caller": deal.caller, "trick": deal.number,
        "to_play": deal.to_play, "legal": [str(c) for c in legal] if legal is not None else None,
        "reveal": deal.can_reveal(), "face_down": deal.can_play_face_down(),
        "trump_hidden": deal.trump.is_hidden,
        "pile": deal.collection.pile,
        "table": _table(deal),
    }
    if deal.trump.is_hidden:
        after = deal.legal_after_reveal()
        data["legal_after_reveal"] = [str(c) for c in after] if after is not None else None
    if deal.collection.piles:
        data["collector"] = deal.collection.collector(deal.number)
    return data


def _next_answer(index: int, deal: Deal) -> dict:
    """R-33: the deal waits for the other team's answer to a claim."""
    claim = deal.claimed
    return {"deal": index, "dealer": deal.dealer, "caller": deal.caller, "trick": deal.number,
            "to_play": None, "legal": None, "reveal": False, "face_down": False, "trump_hidden": False,
            "pile": deal.collection.pile, "table": _table(deal),
            "claim": {"seat": claim.seat, "tricks": claim.tricks, "event": claim.event,
                      "answer_from": claim.answer_from, "rule": ["R-33"]}}


def _table(deal: Deal) -> list[dict]:
    """The open trick's cards, as `next.table` lists them."""
    return [{"seat": p.seat, "card": p.card.text, "face_down": p.face_down, "event": p.event} for p in deal.on_table]
