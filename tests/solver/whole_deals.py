"""Played deals that a pure-Python search analyses whole in moments: each seat is dealt
nearly one suit (seat k the k-th of S H D C, with a few cards swapped between seats), then
the deal is played out at random (legal plays, a reveal now and then)."""
from __future__ import annotations

import random

from referee.engine import Deal, resolve
from referee.engine.cards import DECK
from referee.engine.playrecord import PLAY, REVEAL, Event
from referee.engine.simulate import choose_trump

# A search reports its nodes to its budget every 1,024 (referee.solver.core), so one search
# may go that far past what was left before it stops: a budget's bound for the tests.
REPORT_EVERY = 1024


def lopsided(preset: str, seed: int, swaps: int = 4, reveal_rate: float = 0.3, **options) -> dict:
    """A record of one such deal of `preset` (with `options`), played to its end."""
    rng = random.Random(seed)
    hands = [[c for c in DECK if c.suit == suit] for suit in "SHDC"]
    for _ in range(swaps):
        a, b = rng.sample(range(4), 2)
        i, j = rng.randrange(13), rng.randrange(13)
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    for hand in hands:
        rng.shuffle(hand)  # the trump is chosen from the first cards of the caller's hand
    rules = resolve(preset, options)
    dealer = rng.randrange(4)
    trump = choose_trump(rules, dealer, hands, rng)
    deal = Deal(rules, dealer, tuple(tuple(h) for h in hands), trump)
    events = []
    while not deal.is_over:
        if deal.filled == 4:
            deal.finish()
            continue
        seat = deal.to_play
        if deal.can_reveal() and rng.random() < reveal_rate:
            event, data = Event(seat, REVEAL), {"seat": seat, "reveal": True}
        else:
            card = rng.choice(deal.legal_plays())
            event, data = Event(seat, PLAY, card), {"seat": seat, "play": card.text}
        deal.push(event)
        events.append(data)
    spec = {"suit": trump.suit} if trump.suit else {"hidden": trump.hidden.text} if trump.hidden else {}
    if trump.blind:
        spec = {"blind": trump.blind.text}
    record_deal = {"dealer": dealer, "hands": [[c.text for c in h] for h in hands], "events": events}
    if spec:
        record_deal["trump"] = spec
    return {"preset": preset, "options": options, "deals": [record_deal]}


def hidden_trump(preset: str, seed: int) -> dict:
    """A deal of `preset` (a hidden trump) dealt at random and played at random, nobody asking
    for the trump: it stays face down to the end, so every position holds the reveal move."""
    from referee.engine.simulate import random_deal

    deal = random_deal(resolve(preset), 0, random.Random(seed), reveal_rate=0.0)
    return {"preset": preset, "deals": [{
        "dealer": 0, "hands": [[c.text for c in h] for h in deal.hands], "trump": {"hidden": deal.trump.hidden.text},
        "events": [{"seat": e.seat, "play": e.card.text} for e in deal.events]}]}
