"""Positions for the solver's tests: random legal play through the engine from random deals with hands."""
from __future__ import annotations

import random

from referee.engine import Deal, resolve
from referee.engine.playrecord import PLAY, REVEAL, Bid, Event
from referee.engine.simulate import choose_trump, deal_hands


def random_position(preset: str, rng: random.Random, tricks_left: int, in_trick: int = 0,
                    options=None, reveal_rate: float = 0.3, trump=None, lean: float = 0.0) -> Deal | None:
    """A deal of `preset` played at random (legal plays, reveals now and then) until
    `tricks_left` tricks remain and `in_trick` cards are down in the current one;
    None when the deal ended first. With `lean`, each seat of one team plays its highest
    card and each of the other its lowest that often, and a first-7 court is played on where
    the options allow it (R-4): courts, play-ons and sweeps come often."""
    options = options or resolve(preset)
    hands = deal_hands(rng)
    dealer = rng.randrange(4)
    bid = Bid(rng.randrange(4), rng.randint(7, 13)) if options.bidding else None
    deal = Deal(options, dealer, hands, trump or choose_trump(options, dealer, hands, rng, bid), bid)
    strong = rng.randrange(2) if lean else 0
    target = (13 - tricks_left) * 4 + in_trick
    plays = 0
    while plays < target:
        deal.finish()
        if deal.is_over and lean and deal.court_made:
            deal.begin_play_on()
        if deal.is_over:
            return None
        seat = deal.to_play
        if deal.can_reveal() and rng.random() < reveal_rate:
            deal.push(Event(seat, REVEAL))
            continue
        deal.push(Event(seat, PLAY, _chosen(deal.legal_plays(), rng, lean, seat & 1 == strong)))
        plays += 1
    deal.finish()
    return None if deal.is_over else deal


def _chosen(cards, rng, lean, strong):
    if lean and rng.random() < lean:
        return max(cards, key=lambda c: c.strength) if strong else min(cards, key=lambda c: c.strength)
    return rng.choice(cards)
