"""When a deal ends (end.*, R-4, R-30): after each trick, by the game's end of deal (seven
tricks, the pile rule, thirteen, the bid made or out of reach, Band Rang's deciding pair);
a first-7 court that may be played on (R-4); and what an event after the end is.

Functions of a `Deal`'s state that the replay calls; `Deal.is_complete` and
`Deal.begin_play_on` are theirs.
"""
from __future__ import annotations

from .cards import Card, team_of
from .errors import RecordError
from .kernel import E_COURT, E_ENDED, E_FIRST, E_SETTLED, deal_end
from .tens import SETTLED, settled_sweep


def check_end(deal, number: int, winner: int, card: Card | None = None) -> None:
    """Has the deal ended with trick `number`, won by `winner` (`card`, the winning card,
    for end.deciding-pair)?"""
    won = deal.tricks_won
    if deal.options.end == "pair":  # Band Rang: the first deciding pair, or trick 13's fallback
        pairs = deal.pairs
        revealed = deal.trump.revealed["trick"] if deal.trump.revealed else None
        decided = pairs.kind is None and pairs.on_trick(number, winner, card.is_ace, revealed)
        deal.ended = number == 13 or decided and not deal.play_all  # the solver's play_all plays on
        if pairs.rule and (decided or pairs.kind is None):
            deal.tricks[-1] = deal.tricks[-1]._replace(rule=pairs.rule)
    elif number == 13 or not deal.play_all:  # the kernel's deal_end: seven, pile, bid, tens, R-4, R-30
        first = -1 if deal.first_seven is None else deal.first_seven
        res = deal_end(deal.rules, number, won[0], won[1], *deal.tens_won, team_of(winner), deal.play_on, first)
        deal.ended = bool(res & E_ENDED)
        if res & E_COURT:
            deal.court_made = True
        first = (res >> E_FIRST) - 1
        deal.first_seven = None if first < 0 else first
        if res & E_SETTLED:
            deal.tricks[-1] = deal.tricks[-1]._replace(rule=[*(deal.tricks[-1].rule or []), SETTLED])


def sweep(won, options) -> int | None:
    """The team that took every trick (a whitewash, a bavney, a sweep): all 13, or under
    tens_end settled every trick played before the end (end.tens-settled)."""
    if options.tens_settled and max(won) > 0:
        return settled_sweep(won)
    return 0 if tuple(won) == (13, 0) else 1 if tuple(won) == (0, 13) else None


def is_complete(deal) -> bool:
    """Played to its end: ended, or a first-7 court that may yet be played on."""
    return deal.ended or deal.court_made


def after_end(deal, event, i: int) -> None:
    """An event after the deal was over: an error, or the start of a play-on (R-4)."""
    if deal.redeal:
        raise RecordError("play_after_end", "a redeal claim has no play: the cards are dealt again", i)
    if deal.ended or not deal.options.play_on:
        raise RecordError("play_after_end", f"{event.describe()} after the deal ended at trick {len(deal.tricks)}", i)
    begin_play_on(deal)


def begin_play_on(deal) -> None:
    """The court team plays on after a first-7 court (R-4)."""
    deal.court_made, deal.play_on = False, True
