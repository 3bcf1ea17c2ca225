"""When a deal ends (end.*, R-4, R-30): after each trick, by the game's end of deal (seven
tricks, the pile rule, thirteen, the bid made or out of reach, Band Rang's deciding pair);
a first-7 court that may be played on (R-4); and what an event after the end is.

Functions of a `Deal`'s state that the replay calls; `Deal.is_complete` and
`Deal.begin_play_on` are theirs.
"""
from __future__ import annotations

from .cards import Card, team_of
from .errors import RecordError
from .kernel import tens_settled


def check_end(deal, number: int, winner: int, card: Card | None = None) -> None:
    """Has the deal ended with trick `number`, won by `winner` (`card`, the winning card,
    for end.deciding-pair)?"""
    won = deal.tricks_won
    end = deal.options.end
    if end == "pair":  # Band Rang: the first deciding pair, or trick 13's fallback
        pairs = deal.pairs
        revealed = deal.trump.revealed["trick"] if deal.trump.revealed else None
        decided = pairs.kind is None and pairs.on_trick(number, winner, card.is_ace, revealed)
        deal.ended = number == 13 or decided and not deal.play_all  # the solver's play_all plays on
        if pairs.rule and (decided or pairs.kind is None):
            deal.tricks[-1] = deal.tricks[-1]._replace(rule=pairs.rule)
    elif number == 13:
        deal.ended = True
    elif deal.play_all:
        return
    elif deal.options.tens_end == "settled" and tens_settled(*deal.tens_won, *won):
        deal.ended = True
        deal.tricks[-1] = deal.tricks[-1]._replace(rule=[*(deal.tricks[-1].rule or []), SETTLED])
    elif end == "seven":
        if deal.play_on:
            deal.ended = team_of(winner) != deal.first_seven
        elif max(won) >= 7:
            deal.first_seven = 0 if won == [7, 0] else 1 if won == [0, 7] else None
            deal.court_made = deal.first_seven is not None and deal.options.play_on
            deal.ended = not deal.court_made
    elif end == "pile":
        deal.ended = min(won) >= 1 and max(won) >= 7
    elif end == "bid":  # made, or out of reach (end.bid)
        n = deal.bid.tricks
        deal.ended = won[deal.callers] >= n or won[1 - deal.callers] >= 14 - n
    elif deal.options.collection == "pile":
        # thirteen-trick pile games: a team collecting 7 before the other collects any
        if deal.first_seven is None and max(won) >= 7 and min(won) == 0:
            deal.first_seven = 0 if won[0] >= 7 else 1
    elif number == 7 and max(won) == 7:
        deal.first_seven = 0 if won[0] == 7 else 1


SETTLED = "end.tens-settled"


def sweep(won, options) -> int | None:
    """The team that took every trick (a whitewash, a bavney, a sweep): all 13, or under
    tens_end settled every trick played before the end (end.tens-settled)."""
    if options.tens_end == "settled" and options.scoring == "tens" and max(won) > 0:
        return 0 if won[1] == 0 else 1 if won[0] == 0 else None
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
