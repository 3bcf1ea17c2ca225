"""A deal event by event, as an adjudicator steps through it: after each event, the cards on
the table, what each seat still holds (when the hands are known), whose turn it is and what
they may legally play. The same replay (`Deal`) that judges the record produces it."""
from __future__ import annotations

from .deal import Deal
from .errors import RecordError
from .options import Options
from .record import DealRecord


def _state(deal: Deal, index: int, note: str) -> dict:
    legal = deal.legal_plays()
    table = [{"seat": p[0], "card": p[1].text, "face_down": p[3], "event": p[2]}
             for p in deal.slots if p is not None]
    return {
        "event": index,           # -1: before the first event
        "note": note,
        "trick": deal.number if not deal.is_over else len(deal.tricks),
        "table": table,
        "to_play": deal.to_play,
        "legal": [c.text for c in legal] if legal is not None else None,
        "hands": None if deal.hands is None else [sorted(c.text for c in h) for h in _sorted_hands(deal)],
        "tricks_won": list(deal.tricks_won),
        "trump": deal.trump.suit,
        "trump_hidden": deal.trump.is_hidden,
    }


def _sorted_hands(deal: Deal):
    return [sorted(h, key=lambda c: (c.suit, -c.strength)) for h in deal.hands]


def steps(options: Options, record: DealRecord) -> list[dict]:
    """The states of one deal: before any event, then after each event (to its first record error)."""
    try:
        deal = Deal(options, record.dealer, record.hands, record.trump)
    except RecordError as exc:
        return [{"event": -1, "note": f"record error: {exc.message}", "error": exc.code}]
    out = [_state(deal, -1, "the cards are dealt")]
    for index, event in enumerate(record.events):
        try:
            deal.push(event)
        except RecordError as exc:
            out.append({**out[-1], "event": index, "note": f"record error: {exc.message}", "error": exc.code})
            break
        out.append(_state(deal, index, event.describe()))
    return out
