"""The engine's replay position as the core search's numbers.

Everything here is read from the engine's own `Deal`: its hands, the trick on the table,
the trump and its state, the tally, the pile, the deciding-pair run, the options. Nothing
is worked out again; the core (core.py) then searches on from there by the same rules, and
the tests check it against a plain search through the engine's `push`.
"""
from __future__ import annotations

from .core_codes import KIND_NONE, REVEAL, TABLE_DOWN, TABLE_TRUMP
from ..engine.cards import DECK, SUITS, Card
from ..engine.deal import Deal
from ..engine.ending import sweep
from ..engine.kernel import KIND_NAMES
from ..engine.scoring import Facts, make_scoring
from .outcome import Scorer

REVEAL_MOVE = "reveal"  # the move: the seat to play shows (or asks for) the face-down trump


class NotAPosition(ValueError):
    """A moment the search does not take (a take-back under way)."""


def rules(deal: Deal):
    """The deal's rule settings, by name (the kernel's Rules, built once with the deal)."""
    return deal.rules


def load(search, deal: Deal, team: int) -> None:
    """Put `deal`'s position into `search`, values for `team`."""
    if deal.first_back is not None:
        raise NotAPosition("a take-back is under way in this trick")
    hands = [0] * 16
    trump = deal.trump
    for seat, hand in enumerate(deal.hands):
        for c in hand:
            if not (trump.is_hidden and c is trump.card):
                hands[seat * 4 + c.index // 13] |= 1 << c.strength
    table = []
    for p in deal.slots[:deal.position]:
        card = p[1]
        table.append((p[0], card.index // 13, card.strength, (TABLE_TRUMP if p[4] else 0) | (TABLE_DOWN if p[3] else 0)))
    secret = trump.secret_suit if trump.trump_mode.concealed else None
    revealed = trump.revealed is not None
    reveal_k = deal.trick_reveal["after_cards"] if deal.trick_reveal else (0 if revealed else 4)
    pile = deal.collection
    if pile.piles:
        prev = pile.last_card
        piled = (pile.pile, -1 if pile.last_winner is None else pile.last_winner, int(prev is not None and prev.is_ace),
                 int(pile.last_established), int(pile.last_collected), int(pile.hot))
    else:
        piled = (0, -1, 0, 0, 1, 0)
    pairs = deal.pairs
    run = (-1, 0, 0, KIND_NONE, 0) if pairs is None else (
        -1 if pairs.run_by is None else pairs.run_by, pairs.run, int(pairs.deferred),
        _kind(pairs.kind), 0 if pairs.winner is None else pairs.winner)
    tally = (deal.tricks_won[0], deal.tricks_won[1], deal.tens_won[0], deal.tens_won[1], deal.pile_tens,
             -1 if deal.first_seven is None else deal.first_seven, int(deal.play_on), 0, int(deal.is_over))
    search.load(hands, table, deal.leader, deal.number, _suit(trump.suit), _suit(secret), int(trump.is_hidden),
                trump.card.index if trump.is_hidden else -1, int(revealed),
                trump.revealed["trick"] if revealed else 0, reveal_k,
                -1 if deal.asker is None else deal.asker, -1 if deal.must_trump is None else deal.must_trump,
                int(deal.lead_must_trump), tally, piled, run, team)


def _suit(suit: str | None) -> int:
    return -1 if suit is None else SUITS.index(suit)


def _kind(kind: str | None) -> int:
    return KIND_NAMES.index(kind)  # None: KIND_NONE


def outcome(deal: Deal):
    """The encoded outcome (outcome.py) of a finished deal for a team, from the engine's
    scoring of its facts: `f(won0, won1, first_seven, tens0, tens1, pair_kind, pair_winner, team)`."""
    scoring = make_scoring(deal.options)
    scorers = (Scorer(deal.options, 0), Scorer(deal.options, 1))
    callers, bid, options = deal.callers, None if deal.bid is None else deal.bid.tricks, deal.options

    def value(won0, won1, first_seven, tens0, tens1, kind, winner, team):
        won = (won0, won1)
        facts = Facts(callers=callers, tricks=won, first_seven=None if first_seven < 0 else first_seven,
                      sweep=sweep(won, options), tens=(tens0, tens1), bid=bid,
                      decided=None if kind == KIND_NONE else (winner, KIND_NAMES[kind], None))
        return scorers[team].encode_result(scoring.score(facts))
    return value


def move_of(move) -> int:
    return REVEAL if move == REVEAL_MOVE else move.index


def as_move(code: int):
    return REVEAL_MOVE if code == REVEAL else DECK[code]


def tie_order(move) -> tuple:
    """Ties go to the lowest card (by rank, then suit S H D C); a reveal only when better."""
    return (99, 0) if move == REVEAL_MOVE else (move.strength, move.index)


__all__ = ["REVEAL_MOVE", "NotAPosition", "rules", "load", "outcome", "move_of", "as_move", "tie_order", "Card"]
