"""Positions for the solver's tests: random legal play through the engine from random deals with hands."""
from __future__ import annotations

import random

from referee.engine import Deal, resolve
from referee.engine.playrecord import PLAY, REVEAL, Bid, Event
from referee.engine.simulate import choose_trump, deal_hands


def random_position(preset: str, rng: random.Random, tricks_left: int, in_trick: int = 0,
                    options=None, reveal_rate: float = 0.3, trump=None) -> Deal | None:
    """A deal of `preset` played at random (legal plays, reveals now and then) until
    `tricks_left` tricks remain and `in_trick` cards are down in the current one;
    None when the deal ended first."""
    options = options or resolve(preset)
    hands = deal_hands(rng)
    dealer = rng.randrange(4)
    bid = Bid(rng.randrange(4), rng.randint(7, 13)) if options.bidding else None
    deal = Deal(options, dealer, hands, trump or choose_trump(options, dealer, hands, rng, bid), bid)
    target = (13 - tricks_left) * 4 + in_trick
    plays = 0
    while plays < target:
        deal.finish()
        if deal.is_over:
            return None
        seat = deal.to_play
        if deal.can_reveal() and rng.random() < reveal_rate:
            deal.push(Event(seat, REVEAL))
            continue
        deal.push(Event(seat, PLAY, rng.choice(deal.legal_plays())))
        plays += 1
    deal.finish()
    return None if deal.is_over else deal
