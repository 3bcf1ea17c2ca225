"""Settling claims (R-34) and finishing a deal at the bell (R-32) by perfect play.

A claim is settled on the engine's own Deal, played on by `push` (every rule the engine's),
with a table of positions at each trick's start (keyed by who holds each suit's remaining
cards, so transpositions meet). Two searches give what R-34 needs: `g`, the claimer's
team's tricks against any defence (both teams playing for tricks, up to the deal's own end;
alpha-beta), and for the number of tricks awarded the best outcome (perfect.play's order)
of any line of legal plays giving the team exactly that many (every line, cut where the
count can no longer be met). The settled line is read back from the table, the lowest card
first among equals.

Registered with the engine (`referee.engine.settlement`) on import (the package `referee`
imports this module); the engine's replay calls it for every answered claim and for a deal
closed under `abandoned_deal: perfect_play`.
"""
from __future__ import annotations

from ..engine import settlement
from ..engine.cards import DECK, Card
from ..engine.deal import Deal
from ..engine.errors import RecordError
from ..engine.record import PLAY, REVEAL, Event
from . import UnsolvablePosition, solve
from .alphabeta import fail_soft, tightened
from .limits import SearchLimit, SearchLimitExceeded
from .outcome import Scorer
from .search import REVEAL_MOVE, move_order

# Settling runs inside a verdict, so its search is bounded by nodes (the same verdict
# whatever the machine's speed): past it, the claim is the record error claim_unsettled,
# and a deal at the bell is abandoned with the reason "search_limit".
CLAIM_NODES = 400_000
BELL_NODES = 2_000_000
_CACHE_SIZE = 256
_cache: dict = {}  # oldest first (dicts keep their order)


def settle(deal: Deal, limit: SearchLimit | None = None) -> settlement.Line:
    """The line that settles `deal`'s answered claim, and the verdict's claim fields."""
    claim = deal.claimed
    key = ("claim", _position_key(deal), claim.seat, claim.tricks, claim.answer)
    found = _cache.get(key)
    if found is None:
        try:
            found = _settle(deal, limit or SearchLimit(nodes=CLAIM_NODES))
        except SearchLimitExceeded as exc:
            # Remembered too: a node limit fails the same way every time, and a stored match
            # is judged again at every write (a search to the limit costs seconds).
            found = _Unsettled("claim_unsettled", f"settling the claim of seat {claim.seat} would search past the "
                     f"referee's limit ({exc.limit.describe()}); the deal is not scored", claim.event)
        _remember(key, found)
    if type(found) is _Unsettled:
        raise RecordError(*found)
    return found


def finish(deal: Deal, limit: SearchLimit | None = None) -> settlement.Line | str:
    """Perfect play (objective score) from `deal`'s position to its end, or why not."""
    if deal.hands is None:
        return "no_hands"
    key = ("bell", _position_key(deal))
    found = _cache.get(key)
    if found is None:
        root = deal.copy()
        root.claimed = None  # a claim left unanswered at the bell is not settled: play goes on
        try:
            analysis = solve(root, "score", limit or SearchLimit(nodes=BELL_NODES))
        except UnsolvablePosition:
            return "illegal_play"
        except SearchLimitExceeded:
            return "search_limit"
        events = tuple(Event(s, REVEAL) if m == REVEAL_MOVE else Event(s, PLAY, m) for s, m in analysis.line)
        found = settlement.Line(events, None)
        _remember(key, found)
    return found


class _Unsettled(tuple):
    """A remembered claim_unsettled: the record error's code, message and event (a new
    error is raised each time, so no traceback is carried from one verdict to the next)."""

    def __new__(cls, *args):
        return super().__new__(cls, args)


def _remember(key, value) -> None:
    _cache[key] = value
    if len(_cache) > _CACHE_SIZE:
        del _cache[next(iter(_cache))]


def _settle(deal: Deal, limit: SearchLimit) -> settlement.Line:
    claim = deal.claimed
    root = deal.copy()
    root.claimed, root.play_all = None, False
    search = ClaimSearch(root, claim.team, limit)
    g = search.value(root)
    award = _award(claim.tricks, claim.answer, g, lambda k: search.first(root, k) is not None)
    line = search.best_line(root, award)
    held = g >= claim.tricks
    fields = {"held": held, "can_take": g, "awarded": award, "line": _plays(line),
              "defence": None if held else _plays(search.defence(root)), "rule": ["R-34", "R-33", "perfect.play"]}
    return settlement.Line(tuple(Event(s, PLAY, c) for s, c in line), fields)


def _award(n: int, answer: str, g: int, reaches) -> int:
    """R-34: min(n, g); an accepted claim n when a line gives exactly n (`reaches(k)`: some
    line gives exactly k). When no line gives exactly the award, the nearest a line gives:
    the largest below, else the smallest above (g itself is always reached)."""
    if answer == "accept" and reaches(n):
        return n
    award = min(n, g)
    if reaches(award):
        return award
    below = next((k for k in range(award - 1, -1, -1) if reaches(k)), None)
    return below if below is not None else next(k for k in range(award + 1, g + 1) if reaches(k))


def _plays(line) -> list[dict]:
    return [{"seat": s, "card": c.text} for s, c in line]


class ClaimSearch:
    """R-34's two searches from a position, for the claimer's `team`, with a table of
    positions at each trick's start: `value(pos)`, its tricks from `pos` on against any
    defence (alpha-beta); `best(pos, k)`, the best encoded outcome of a line from `pos`
    giving it exactly k more tricks, or None when no line does."""

    def __init__(self, root: Deal, team: int, limit: SearchLimit):
        self.team = team
        self.limit = limit.start()
        self.scorer = Scorer(root.options, team)
        self.nodes = 0
        self.bounds: dict = {}
        self.lines: dict = {}
        self.dead: dict = {}  # (trick start, k, target): no line from there reaches the target
        self.root = root
        self._ceilings: dict = {}

    def moves(self, pos: Deal) -> list:
        """The legal cards worth trying, lowest first: of touching cards (no card left in
        play between them) only the lowest, which is worth the same; a ten or an ace, which
        some rules look at, always on its own."""
        cards = sorted(pos.legal_plays(), key=move_order)
        if len(cards) < 2:
            return cards
        live = _live(pos)
        out, last = [], None
        for c in cards:
            if last is not None and last.suit == c.suit and not (_special(c) or _special(last)) \
                    and not any(live >> i & 1 for i in range(last.index + 1, c.index)):
                last = c
                continue
            out.append(c)
            last = c
        return out

    def child(self, pos: Deal, card) -> Deal:
        after = pos.copy()
        after.push(Event(pos.to_play, PLAY, card))
        after.finish()
        return after

    def gain(self, pos: Deal, after: Deal) -> int:
        return after.tricks_won[self.team] - pos.tricks_won[self.team]

    def _count(self) -> None:
        self.nodes += 1
        self.limit.check(self.nodes)  # each node is a Deal copy and push: the check is cheap beside it

    # -- g: tricks against any defence ----------------------------------------------------

    def value(self, pos: Deal) -> int:
        return self._ab(pos, -1, 14)

    def _ab(self, pos: Deal, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the claimer's team's tricks from `pos` to the deal's end."""
        if pos.is_over:
            if pos.court_made and pos.first_seven == self.team:  # plays on when that gains it tricks
                return max(0, self._ab(_played_on(pos), alpha, beta))
            return 0
        key = _trick_key(pos)
        if key is not None:
            lo, hi = self.bounds.get(key, (0, 14))
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
            a0, b0 = alpha, beta
        self._count()
        children = ((self.gain(pos, after), after) for after in (self.child(pos, c) for c in self.moves(pos)))
        best = fail_soft(pos.to_play & 1 == self.team, alpha, beta, children, self._ab)
        if key is not None:
            self.bounds[key] = tightened(*self.bounds.get(key, (0, 14)), best, a0, b0)
        return best

    # -- the best line giving exactly k ----------------------------------------------------

    def best(self, pos: Deal, k: int):
        if k < 0 or k > pos.remaining():
            return None
        if pos.is_over:
            stop = self.scorer.value(pos) if k == 0 else None
            if not pos.court_made:
                return stop
            on = self.best(_played_on(pos), k)
            return stop if on is None else on if stop is None else max(stop, on)
        key = _trick_key(pos)
        if key is not None and (key, k) in self.lines:
            return self.lines[key, k]
        self._count()
        found, cap = None, self.ceiling(pos.tricks_won[self.team] + k)
        for card in self.moves(pos):
            after = self.child(pos, card)
            v = self.best(after, k - self.gain(pos, after))
            if v is not None and (found is None or v > found):
                found = v
                if cap is not None and v >= cap:
                    break  # no line does better: the value is exact all the same
        if key is not None:
            self.lines[key, k] = found
        return found

    def ceiling(self, total: int):
        """The best encoded outcome any end of the deal could give the team when it ends with
        `total` tricks (no line does better, so a search may stop at it): from the root,
        every count of the other team's, every first seven, every share of the tens still
        out, scored by the engine. None for deciding-pair games, whose end the tally does
        not say."""
        if total not in self._ceilings:
            root = self.root
            self._ceilings[total] = None if root._pairs is not None else \
                self._best_end(root, total - root.tricks_won[self.team])
        return self._ceilings[total]

    def _best_end(self, pos: Deal, k: int) -> int:
        team, won, left = self.team, pos.tricks_won, pos.remaining()
        tens_out = 4 - sum(pos.tens_won)
        sevens = {pos.first_seven} if pos.first_seven is not None else {None, 0, 1}
        facts, best = pos.facts(None), None
        for other in range(left - k + 1):
            tricks = [0, 0]
            tricks[team], tricks[1 - team] = won[team] + k, won[1 - team] + other
            sweep = 0 if tricks == [13, 0] else 1 if tricks == [0, 13] else None
            for seven in sevens:
                for ours in range(tens_out + 1):
                    tens = [0, 0]
                    tens[team], tens[1 - team] = pos.tens_won[team] + ours, pos.tens_won[1 - team] + tens_out - ours
                    end = facts._replace(tricks=tuple(tricks), first_seven=seven, sweep=sweep, tens=tuple(tens))
                    v = self.scorer.encode_result(self.scorer.result(end), tricks)
                    best = v if best is None else max(best, v)
        return best

    def first(self, pos: Deal, k: int, target: int = -(1 << 60)) -> list | None:
        """The first line, lowest cards first, giving exactly k more tricks with an outcome
        of at least `target` (any line: no target), or None."""
        if k < 0 or k > pos.remaining():
            return None
        if pos.is_over:
            if k == 0 and self.scorer.value(pos) >= target:
                return []
            return self.first(_played_on(pos), k, target) if pos.court_made else None
        key = _trick_key(pos)
        if key is not None and (key, k, target) in self.dead:
            return None
        self._count()
        for card in self.moves(pos):
            after = self.child(pos, card)
            rest = self.first(after, k - self.gain(pos, after), target)
            if rest is not None:
                return [(pos.to_play, card)] + rest
        if key is not None:
            self.dead[key, k, target] = True
        return None

    def best_line(self, pos: Deal, k: int) -> list:
        """The best line giving exactly k more tricks: at each step the lowest card that
        keeps the best outcome within reach."""
        line = []
        while True:
            if pos.is_over:
                if not pos.court_made or (k == 0 and self.best(pos, 0) == self.scorer.value(pos)):
                    return line
                pos = _played_on(pos)
            want = self.best(pos, k)
            for card in self.moves(pos):
                after = self.child(pos, card)
                gain = self.gain(pos, after)
                if self.best(after, k - gain) == want:
                    line.append((pos.to_play, card))
                    pos, k = after, k - gain
                    break

    def defence(self, pos: Deal) -> list:
        """Perfect play for tricks from `pos`: the line that holds the claimer's team to g."""
        line = []
        while True:
            if pos.is_over:
                if not pos.court_made or pos.first_seven != self.team or self.value(_played_on(pos)) == 0:
                    return line
                pos = _played_on(pos)
            g = self.value(pos)
            for card in self.moves(pos):
                after = self.child(pos, card)
                if self.gain(pos, after) + self.value(after) == g:
                    line.append((pos.to_play, card))
                    pos = after
                    break


def _played_on(pos: Deal) -> Deal:
    on = pos.copy()
    on.begin_play_on()
    return on


def _trick_key(pos: Deal):
    """The position at a trick's start, as far as any rule looks at it (None mid-trick:
    only trick starts are kept in the table)."""
    if pos.filled or pos.first_back is not None or pos.asker is not None or pos.must_trump is not None:
        return None
    return _state(pos)


def _live(pos: Deal) -> int:
    """The cards still in play (held or on the table), as a mask of card indices."""
    live = 0
    for h in pos.hands:
        for c in h:
            live |= 1 << c.index
    for p in pos.slots:
        if p is not None:
            live |= 1 << p[1].index
    return live


def _special(card) -> bool:
    return card.is_ten or card.is_ace


def _relative(pos: Deal) -> tuple:
    """Who holds each suit's remaining cards, high to low (tens and aces marked): equal for
    positions that differ only in which of the cards already played were played."""
    owner = {c.index: s for s, h in enumerate(pos.hands) for c in h}
    out = []
    for suit in range(4):
        out.append(tuple(owner[i] + (4 if DECK[i].is_ten or DECK[i].is_ace else 0)
                         for i in range(suit * 13 + 12, suit * 13 - 1, -1) if i in owner))
    return tuple(out)


def _state(pos: Deal, exact: bool = False) -> tuple:
    trump = pos.trump
    pairs = tuple(vars(pos._pairs).values()) if pos._pairs is not None else None
    collection = tuple(_frozen(v) for k, v in sorted(vars(pos.collection).items()) if k not in ("options", "rule"))
    hands = tuple(sum(1 << c.index for c in h) for h in pos.hands) if exact else _relative(pos)
    return (hands, pos.leader, len(pos.tricks),
            tuple(pos.tricks_won), tuple(pos.tens_won), pos._pile_tens, collection, _frozen(pairs),
            trump.suit, trump.is_hidden, trump.revealed["event"] if trump.revealed else None,
            pos.first_seven, pos.play_on, pos.court_made, pos.ended, pos.lead_must_trump)


def _position_key(deal: Deal) -> tuple:
    """Everything that decides a settlement: the options, the position, the trick on the table."""
    slots = tuple(None if p is None else (p[0], p[1].index, p[3], p[4]) for p in deal.slots)
    return (repr(sorted(deal.options.as_dict().items())), _state(deal, True) if deal.hands is not None else None, slots,
            deal.first_back, deal.asker, deal.must_trump, deal.caller, deal.n_events)


def _frozen(value):
    if isinstance(value, Card):
        return value.is_ace  # the pile's last winning card: only whether it was an ace matters
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


settlement.register(settlement.Settler(settle, finish))
