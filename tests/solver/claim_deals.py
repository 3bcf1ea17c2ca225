"""Endgames written by hand for the claim tests: each seat's last three cards, and ten
filler tricks before them, each all of one suit, won by the seats given."""
from __future__ import annotations

from referee.engine import adjudicate_dict
from referee.engine.cards import DECK
from tests.helpers import searching


def endgame(final: list[str], winners: list[int], dealer: int = 0) -> tuple[list[list[str]], list[dict]]:
    """`final`: four strings of three cards, each seat's last three ("AS KS QS"). Every suit
    has 1, 5, 9 or 13 cards among them, so that the rest of each suit shares out evenly:
    each filler trick is four cards of one suit, the highest to `winners[k]`, who leads
    the next (trick 1 is led by the caller, the dealer's right). Returns (hands, events)."""
    ends = [f.split() for f in final]
    used = {c for e in ends for c in e}
    rest = {s: [c.text for c in reversed(DECK) if c.suit == s and c.text not in used] for s in "SHDC"}
    assert all(len(v) % 4 == 0 for v in rest.values()), {s: len(v) for s, v in rest.items()}
    tricks = [rest[s][k:k + 4] for s in "SHDC" for k in range(0, len(rest[s]), 4)]
    assert len(tricks) == len(winners) == 10
    hands = [list(e) for e in ends]  # the last three first: a hidden card comes from them
    events, leader = [], (dealer + 1) % 4
    for cards, winner in zip(tricks, winners):
        others = iter(cards[1:])
        for j in range(4):
            seat = (leader + j) % 4
            card = cards[0] if seat == winner else next(others)
            hands[seat].append(card)
            events.append({"seat": seat, "play": card})
        leader = winner
    return hands, events


def claimed(preset: str, final: list[str], winners: list[int], claim: tuple[int, int], answer: str = "dispute",
            trump=None, by: int | None = None, dealer: int = 0, **options) -> dict:
    """The verdict on one deal: the endgame, then `claim` (seat, tricks) and its answer."""
    hands, events = endgame(final, winners, dealer)
    seat, n = claim
    events += [{"seat": seat, "claim": n}, {"seat": by if by is not None else (seat + 1) % 4, answer: True}]
    deal = {"dealer": dealer, "hands": hands, "events": events}
    if trump is not None:
        deal["trump"] = trump
    return adjudicate_dict({"preset": preset, "options": options, "deals": [deal]}, searching())


def plays(line: list[dict]) -> str:
    return " ".join(f"{p['seat']}:{p['card']}" for p in line)


def early_claim(seed: int = 1) -> dict:
    """A record whose claim is disputed at the first lead (issue 33's flood: 16 POSTs of about
    1 KB): settling it searches to the claim's node limit (about 1 s of CPU time on a loaded
    2-core machine with the compiled search, 24 s before it), so a test or bench can watch a
    search that does not end soon by itself."""
    import random

    cards = [c.text for c in DECK]
    random.Random(seed).shuffle(cards)
    hands = [cards[k * 13:(k + 1) * 13] for k in range(4)]
    return {"preset": "court-piece", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands,
                                               "events": [{"seat": 1, "claim": 7}, {"seat": 2, "dispute": True}]}]}
