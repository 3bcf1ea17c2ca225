"""The search through the engine's own `Deal`: its legal moves, its `push`, its end.

Positions the fast search cannot hold (a trump still face down, an obligation to trump
pending in this trick, an option it does not know) are searched here, on copies of the
engine's Deal; as soon as a position fits, `FastGame` takes over. Both return the same
values: with objective `tricks` the perspective team's tricks from this position on (in
pile games, tricks it collects), with `score` its encoded final outcome (outcome.py).
"""
from __future__ import annotations

from dataclasses import fields

from ..engine.deal import Deal
from ..engine.options import Options
from ..engine.record import PLAY, REVEAL, Event
from .alphabeta import fail_soft
from .fast import INF, FastGame
from .limits import SearchLimit
from .outcome import Scorer

# A move is a card, or this: the seat to play shows (or asks for) the face-down trump.
REVEAL_MOVE = "reveal"
FAST_MODES = frozenset({"called", "blind", "random", "first_void", "hidden", "band"})
# The options the fast search knows; any other option away from its default sends the
# search through the engine alone (a new rule is honoured before it is made fast).
FAST_OPTIONS = frozenset({
    "trump", "collection", "scoring", "target", "play_on", "bavney_courts", "goon_court_courts",
    "streak_courts", "streak_points", "illegal_play", "weak_hand_redeal", "hidden_caller_face_down",
    "band_reveal", "pass_once", "pile_first_pair_collects", "pile_no_collect_after", "pile_ace_on_ace",
    "pile_ace_no_seal", "kot", "defenders_double",
})


def move_order(move) -> tuple:
    """Ties go to the lowest card (by rank, then suit S H D C); a reveal only when better."""
    return (99, 0) if move == REVEAL_MOVE else (move.strength, move.index)


def moves(deal: Deal) -> list:
    """The moves the engine allows the seat to play, in tie order. Face-down discards
    (hidden_caller_face_down) are left out: a face-down card never wins and an off-suit
    card with the trump still hidden cannot win either, so each is worth the same card
    played face up (the exhaustive test searches them too)."""
    found = sorted(deal.legal_plays(), key=move_order)
    return found + [REVEAL_MOVE] if deal.can_reveal() else found


def apply(deal: Deal, move) -> Deal:
    child = deal.copy()
    seat = deal.to_play
    child.push(Event(seat, REVEAL) if move == REVEAL_MOVE else Event(seat, PLAY, move))
    child.finish()
    return child


def fast_options(options: Options) -> bool:
    return all(getattr(options, f.name) == f.default for f in fields(options) if f.name not in FAST_OPTIONS)


class Context:
    """One solve: the objective, the team whose value it is, the node count, the limit,
    the transposition table (inside the fast search)."""

    def __init__(self, options: Options, objective: str, team: int, limit: SearchLimit):
        self.options, self.objective, self.team, self.limit = options, objective, team, limit
        self.tricks = objective == "tricks"
        self.nodes = 0
        self.scorer = Scorer(options, team)
        self.fast = FastGame(self)
        self._fast_options = fast_options(options)

    def fits_fast(self, deal: Deal) -> bool:
        trump = deal.trump
        return (self._fast_options and trump.mode in FAST_MODES and not trump.is_hidden
                and deal.first_back is None and deal.asker is None and deal.must_trump is None
                and not deal.lead_must_trump and (not trump.is_concealed_mode or deal.position == 0))

    def twins(self, deal: Deal, found: list) -> dict:
        """Each move -> the move it is worth the same as (touching cards), when known."""
        if not self.fits_fast(deal):
            return {}
        self.fast.load(deal)
        return {m: self.fast.twin(deal.to_play, m) for m in found if m != REVEAL_MOVE}

    def gain(self, deal: Deal, child: Deal) -> int:
        return child.tricks_won[self.team] - deal.tricks_won[self.team] if self.tricks else 0

    def maximises(self, deal: Deal) -> bool:
        return deal.to_play & 1 == self.team

    def search(self, deal: Deal, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta over engine positions."""
        if deal.is_over:
            return self._over(deal, alpha, beta)
        if self.fits_fast(deal):
            self.fast.load(deal)
            return self.fast.search(alpha, beta)
        self.nodes += 1
        if not self.nodes & 1023:
            self.limit.check(self.nodes)
        children = ((self.gain(deal, child), child) for child in (apply(deal, m) for m in moves(deal)))
        return fail_soft(self.maximises(deal), alpha, beta, children, self.search)

    def _over(self, deal: Deal, alpha: int, beta: int) -> int:
        if self.tricks:
            return 0
        stop = self.scorer.value(deal)
        if not deal.court_made:
            return stop
        on = deal.copy()
        on.begin_play_on()
        if deal.first_seven == self.team:
            return stop if stop >= beta else max(stop, self.search(on, max(alpha, stop), beta))
        return stop if stop <= alpha else min(stop, self.search(on, alpha, min(beta, stop)))

    def exact(self, deal: Deal, guess: int | None = None) -> int:
        """The exact value, by null-window tests (MTD(f))."""
        if self.tricks:
            lo, hi = 0, 14 - deal.number + deal.collection.pile
        else:
            lo, hi = -INF, INF
        g = guess if guess is not None else (lo + hi) // 2 if self.tricks else 0
        if not deal.is_over and self.fits_fast(deal):
            self.fast.load(deal)  # once for all the null-window tests
            run = self.fast.search
            if guess is None and self.fast.double_dummy:
                g = self.fast.dd.estimate()
        else:
            def run(alpha, beta):
                return self.search(deal, alpha, beta)
        while lo < hi:
            beta = min(max(g, lo + 1), hi)
            v = run(beta - 1, beta)
            if v < beta:
                hi = v
            else:
                lo = v
            g = v
        return lo

    def at_least(self, deal: Deal, value: int) -> bool:
        return self.search(deal, value - 1, value) >= value

    def at_most(self, deal: Deal, value: int) -> bool:
        return self.search(deal, value, value + 1) <= value
