"""Random legal play, for tests, benchmarks and examples (uses the replay's own `legal_plays`)."""
from __future__ import annotations

import random

from .cards import DECK, caller_of
from .deal import Deal
from .options import Options
from .playrecord import PLAY, REVEAL, Bid, DealRecord, Event, Record, TrumpSpec


def deal_hands(rng: random.Random) -> tuple[tuple, ...]:
    cards = list(DECK)
    rng.shuffle(cards)
    return tuple(tuple(cards[s * 13:(s + 1) * 13]) for s in range(4))


def choose_trump(options: Options, dealer: int, hands, rng: random.Random, bid: Bid | None = None) -> TrumpSpec:
    caller = caller_of(dealer) if bid is None else bid.seat
    return options.trump_mode().random_spec(rng, hands, caller, bid)


def random_deal(options: Options, dealer: int, rng: random.Random, reveal_rate: float = 0.3,
                stop_after: int | None = None, illegal_rate: float = 0.0) -> DealRecord:
    """A deal of random play until the deal is over (or `stop_after` events): legal,
    except that with `illegal_rate` a player plays any card they hold."""
    hands = deal_hands(rng)
    bid = Bid(rng.randrange(4), rng.randint(7, 13)) if options.bidding else None
    trump = choose_trump(options, dealer, hands, rng, bid)
    deal = Deal(options, dealer, hands, trump, bid)
    events: list[Event] = []
    while not deal.is_over and (stop_after is None or len(events) < stop_after):
        if deal.filled == 4:
            deal.finish()
            continue
        seat = deal.to_play
        if deal.can_reveal() and rng.random() < reveal_rate:
            event = Event(seat, REVEAL)
        else:
            choices = deal.legal_plays()
            if rng.random() < illegal_rate:
                choices = sorted(deal.hand(seat))
            event = Event(seat, PLAY, rng.choice(choices))
        deal.push(event)
        events.append(event)
    return DealRecord(dealer=dealer, events=tuple(events), hands=hands, trump=trump, bid=bid)


def random_record(preset: str, options: Options, deals: int, rng: random.Random,
                  overrides: dict | None = None) -> Record:
    """Several complete deals, each dealt by the previous one's rightful next dealer
    (`options` are the preset's with `overrides`, which the record carries)."""
    from .match import adjudicate

    overrides = overrides or {}
    record = Record(preset=preset, options=overrides, deals=())
    dealer = rng.randrange(4)
    for _ in range(deals):
        record = Record(preset=preset, options=overrides, deals=record.deals + (random_deal(options, dealer, rng),))
        verdict = adjudicate(record)
        if verdict["next"] is None:
            break
        dealer = verdict["next"]["dealer"]
    return record
