"""How a trick closes (trick.winner, collection.*, pile.*, mendikot.tens): its winner, where the
trick goes (taken at once, or piled until a pair collects it), the tens it carries (tens.py), its
place in the deal's list of tricks; then whether the deal has ended (`ending.py`) and the
next trick, led by the winner.

A function of a `Deal`'s state that the replay calls once a trick's four cards stand and
the next event is no take-back (R-12), or the record ends there.
"""
from __future__ import annotations

from .ending import check_end
from .tens import count_tens
from .trick import CARD, EVENT, SEAT, Trick, winning_play


def close_trick(deal, last_event: int) -> None:
    """Close the trick on the table, whose last event is `last_event`."""
    plays = tuple(deal.slots)
    trump_suit = deal.trump.suit
    win = winning_play(plays, trump_suit)
    seat, card = win[SEAT], win[CARD]
    number = len(deal.tricks) + 1
    collection = deal.collection
    taken = collection.pile + 1
    established = deal.trump_mode.established(deal.trump, win[EVENT]) if collection.piles else True
    team = collection.on_trick(number, seat, card, trump_suit, established)
    if deal.options.counts_tens:
        count_tens(deal, plays, team)
    if team is None:
        taken = 0
    else:
        deal.tricks_won[team] += taken
    deal.tricks.append(tuple.__new__(Trick, (number, deal.leader, plays, seat, card, team,
                                             collection.pile, taken, deal.trick_reveal, deal.trick_trump_set,
                                             collection.rule)))
    deal.trick_ends.append(last_event)
    check_end(deal, number, seat, card)
    deal.next_trick(seat)

