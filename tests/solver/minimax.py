"""A plain exhaustive minimax through the engine itself: `Deal.legal_plays`, `can_reveal`,
`can_play_face_down`, `push`, the deal's own end and scoring; deep copies, no pruning, no
table. The solver's values must equal it."""
from __future__ import annotations

import copy

from referee.engine.playrecord import PLAY, REVEAL, Event
from referee.engine.scoring import make_scoring


def moves(deal):
    """Every event the seat to play may legally make now, face-down plays included."""
    seat = deal.to_play
    found = [(c, Event(seat, PLAY, c)) for c in deal.legal_plays()]
    if deal.can_play_face_down():
        # not the face-down trump card itself: as the 13th card it is shown and played
        found += [(("down", c), Event(seat, PLAY, c, True)) for c in deal.legal_plays()
                  if c.suit != deal.led and c is not deal.trump.card]
    if deal.can_reveal():
        found.append(("reveal", Event(seat, REVEAL)))
    return found


def child(deal, event):
    after = deal.copy()
    after.push(event)
    after.finish()
    assert not any(v.is_illegal_play for v in after.violations[len(deal.violations):]), after.violations
    return after


def outcome(deal, team):
    """R-38's zero-sum outcome, from `team`'s side: (margin, +1 won / 0 neither / -1 lost)."""
    result = make_scoring(deal.options).score(deal.facts(None))
    given = result.points if deal.options.target_is_points else result.courts
    margin = given[team] - given[1 - team]
    if deal.options.bidding:  # penalty points: what a team is given counts against it
        margin = -margin
    return (margin, 0 if result.winner is None else 1 if result.winner == team else -1)


def value(deal, objective, team):
    """The value for `team` of perfect play from `deal` (tricks: all 13 played; the
    tricks `team` collects from here; score: its outcome)."""
    if objective == "tricks":
        if len(deal.tricks) == 13:
            return deal.tricks_won[team]
    elif deal.is_over:
        stop = outcome(deal, team)
        if not deal.court_made:
            return stop
        on = copy.deepcopy(deal)
        on.begin_play_on()  # the court team may play on
        go = value(on, objective, team)
        return max(stop, go) if deal.first_seven == team else min(stop, go)
    values = [value(child(deal, e), objective, team) for _, e in moves(deal)]
    return max(values) if deal.to_play & 1 == team else min(values)


def card_values(deal, objective):
    """Per move of the seat to play: its value for that seat's team (tricks from now)."""
    deal = copy.deepcopy(deal)
    deal.play_all = objective == "tricks"
    team = deal.to_play & 1
    base = deal.tricks_won[team] if objective == "tricks" else 0
    out = {}
    for key, e in moves(deal):
        v = value(child(deal, e), objective, team)
        out[key] = v - base if objective == "tricks" else v
    return out
