"""The fast search: the position as bit masks, searched card by card with undo.

Used once the trump is known or can only be set by a show-out (called, blind, random,
first_void; hidden and band once shown, from the next trick). What a trick does to the
deal stays the engine's: the pile is the engine's own collection object, the end of the
deal is `Deal._check_end`, the result is the engine's scoring (see `_Tally`). Only the
winner of a trick and following suit are written here again, for speed; the tests check
every value against a plain search through `Deal.push`.

Speed-ups (after DDS): fail-soft alpha-beta driven by null windows, a transposition
table at each trick's start keyed by *relative* ranks (which card of the suit's remaining
ones each seat holds; tens and aces keep their identity where a rule looks at them),
touching cards as one move, and move ordering by the card's chance to win the trick.
Objective `tricks` with tricks taken at once and the trump known (the bridge question)
goes to the double-dummy core, dd.py, on the same bit masks.
"""
from __future__ import annotations

import copy

from ..engine.cards import DECK, SUITS
from ..engine.deal import Deal
from .alphabeta import INF, tightened
from .dd import TrickSearch

TEN, ACE = 8, 12


class _Tally:
    """What a finished trick changes, with the engine's own rules as methods: the end of
    the deal, its facts for scoring, the start of a play-on."""

    _check_end = Deal._check_end
    facts = Deal.facts
    won_until = Deal.won_until
    begin_play_on = Deal.begin_play_on

    def __init__(self, deal: Deal):
        self.options, self._end, self._piles, self.callers = deal.options, deal._end, deal._piles, deal.callers
        self.bid, self._pairs = deal.bid, None  # deciding-pair games never reach the fast search
        self.tricks_won, self.tens_won = list(deal.tricks_won), list(deal.tens_won)
        self.first_seven, self.play_on, self.play_all = deal.first_seven, deal.play_on, deal.play_all
        self.ended, self.court_made = deal.ended, deal.court_made

    def save(self):
        return (tuple(self.tricks_won), tuple(self.tens_won), self.first_seven, self.play_on,
                self.ended, self.court_made)

    def restore(self, saved) -> None:
        won, tens, self.first_seven, self.play_on, self.ended, self.court_made = saved
        self.tricks_won[:], self.tens_won[:] = won, tens


class FastGame:
    """One solve's fast search: `load(deal)` a position, then `search(alpha, beta)`.
    Values are the search context's (see `search.Context`): the perspective team's
    tricks from here (`tricks`) or its encoded final outcome (`score`)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.team = ctx.team
        self.tricks = ctx.objective == "tricks"
        options = ctx.options
        self.specials = 0
        if not self.tricks and options.scoring == "tens":
            self.specials |= 1 << TEN
        if options.collection == "pile" and (options.pile_ace_on_ace or options.pile_ace_no_seal != "none"):
            self.specials |= 1 << ACE
        self.count_tens = options.scoring == "tens"
        self.tt: dict = {}
        self._groups: dict = {}
        self._codes: dict = {}
        self._tops: dict = {}
        self.dd = TrickSearch(self)

    # -- the position ---------------------------------------------------------------

    def load(self, deal: Deal) -> None:
        h = [0] * 16
        alive = [0, 0, 0, 0]
        for seat, hand in enumerate(deal.hands):
            for c in hand:
                s = c.index // 13
                h[seat * 4 + s] |= 1 << c.strength
                alive[s] |= 1 << c.strength
        table = []
        for p in deal.slots[:deal.position]:
            c = p[1]
            table.append((p[0], c.index // 13, c.strength))
            alive[c.index // 13] |= 1 << c.strength
        self.h, self.alive, self.table = h, alive, table
        self.leader, self.number = deal.leader, deal.number
        self.left = 14 - deal.number
        self.trump = SUITS.index(deal.trump.suit) if deal.trump.suit is not None else -1
        self.first_void = deal.trump.mode == "first_void"
        self.pile = copy.copy(deal.collection) if deal.options.collection == "pile" else None
        self._pile_fields = [k for k in sorted(vars(self.pile)) if k not in ("options", "rule")] if self.pile else []
        self.pile_tens = deal._pile_tens
        self.tally = _Tally(deal)
        self.simple = self.tricks and self.pile is None
        self.double_dummy = self.simple and self.trump >= 0
        self.win = self._winning() if table else None

    def _suit_code(self, m):
        """The owners of the suit's remaining cards, high to low (one octal digit each, a
        ten or ace that a rule looks at marked): equal for positions that differ only in
        cards already played."""
        code = self._codes.get(m)
        if code is None:
            m0, m1, m2, m3 = m
            specials = self.specials
            code = 1
            for r in range(12, -1, -1):
                b = 1 << r
                if (m0 | m1 | m2 | m3) & b:
                    code = code * 8 + (0 if m0 & b else 1 if m1 & b else 2 if m2 & b else 3) + (4 if specials & b else 0)
            self._codes[m] = code
        return code

    def _key(self):
        h, code = self.h, self._suit_code
        key = (code((h[0], h[4], h[8], h[12])), code((h[1], h[5], h[9], h[13])),
               code((h[2], h[6], h[10], h[14])), code((h[3], h[7], h[11], h[15])), self.leader, self.trump)
        if self.simple:
            return key
        pile = vars(self.pile) if self.pile is not None else {}
        state = tuple(pile[k] for k in self._pile_fields)
        if self.tricks:
            return key + state
        return key + state + (self.tally.save(), self.pile_tens)

    # -- moves ------------------------------------------------------------------------

    def _group(self, m: int, alive: int):
        """The seat's cards of one suit as (lowest, highest) runs of touching cards
        (no remaining card of another seat between them), low to high."""
        key = (m, alive)
        runs = self._groups.get(key)
        if runs is None:
            runs, specials, prev = [], self.specials, -1
            while m:
                low = m & -m
                r = low.bit_length() - 1
                m ^= low
                if (prev >= 0 and not (specials >> r) & 1 and not (specials >> prev) & 1
                        and not (alive >> (prev + 1)) & ((1 << (r - prev - 1)) - 1)):
                    runs[-1] = (runs[-1][0], r)
                else:
                    runs.append((r, r))
                prev = r
            runs = self._groups[key] = tuple(runs)
        return runs

    def twin(self, seat: int, card):
        """The lowest card of `card`'s run of touching cards: a move worth the same."""
        s, r = card.index // 13, card.strength
        for lo, hi in self._group(self.h[seat * 4 + s], self.alive[s]):
            if lo <= r <= hi:
                return DECK[s * 13 + lo]
        return card

    def _winning(self):
        table, tr = self.table, self.trump
        ws, wsu, wr = table[0]
        for seat, s, r in table[1:]:
            if s == wsu:
                if r > wr:
                    ws, wr = seat, r
            elif s == tr:
                ws, wsu, wr = seat, s, r
        return ws, wsu, wr

    def _moves(self, seat: int, k: int):
        """The cards worth trying (one per run of touching cards), likely best first."""
        h, b, alive = self.h, seat * 4, self.alive
        if k == 0:
            return self._leads(seat)
        led = self.table[0][1]
        m = h[b + led]
        ws, wsu, wr = self.win
        ours = (ws & 1) == (seat & 1)
        if m:
            runs = self._group(m, alive[led])
            if ours or wsu != led:
                return [(led, lo) for lo, hi in runs]
            win = [(led, lo) for lo, hi in runs if lo > wr]
            lose = [(led, lo) for lo, hi in runs if lo < wr]
            return win + lose
        tr = self.trump
        trumps = []
        if tr >= 0 and h[b + tr]:
            trumps = [(tr, lo) for lo, hi in self._group(h[b + tr], alive[tr])]
        discards = sorted(((lo, s) for s in range(4) if s != tr and h[b + s]
                           for lo, hi in self._group(h[b + s], alive[s])))
        discards = [(s, lo) for lo, s in discards]
        if ours:
            return discards + trumps
        if wsu == tr:
            win = [t for t in trumps if t[1] > wr]
            return win + discards + [t for t in trumps if t[1] < wr]
        return trumps + discards

    def _leads(self, seat: int):
        h, b, alive = self.h, seat * 4, self.alive
        tops, lows, rest = [], [], []
        for s in range(4):
            m = h[b + s]
            if not m:
                continue
            runs = self._group(m, alive[s])
            top = runs[-1]
            if alive[s] >> (top[1] + 1) == 0:  # the suit's highest remaining card
                tops.append((s, top[0]))
                runs = runs[:-1]
            if runs:
                lows.append((runs[0][0], s))
                rest += [(lo, s) for lo, hi in runs[1:]]
        pb = ((seat + 2) & 3) * 4
        lows.sort(key=lambda x: (not h[pb + x[1]] >> (alive[x[1]].bit_length() - 1), x))
        return [(s, r) for r, s in lows] + tops + [(s, r) for r, s in sorted(rest)]

    def _top_run(self, m: int, alive: int) -> int:
        """How many of the suit's highest remaining cards the seat holds, from the top."""
        key = (m, alive)
        n = self._tops.get(key)
        if n is None:
            n, x = 0, alive
            while x:
                top = 1 << (x.bit_length() - 1)
                if not m & top:
                    break
                n, x = n + 1, x ^ top
            self._tops[key] = n
        return n

    def _quick(self, leader: int) -> int:
        """Tricks the leader's side is sure of (objective tricks, taken at once; trump
        known): the leader's top trumps, and its top cards of each other suit, as many
        as the opponents must follow to (all when they hold no trump) and, when the
        partner holds a trump, as many as the partner can follow to (so that the partner
        is never forced to trump and take the lead). Side suits are cashed first, then
        trumps: no counted trick can be trumped."""
        h, alive, b, tr = self.h, self.alive, leader * 4, self.trump
        if tr < 0:
            return 0  # first_void unset: any show-out sets the trump and may take the trick
        o1, o2, p = ((leader + 1) & 3) * 4, ((leader + 3) & 3) * 4, ((leader + 2) & 3) * 4
        ruff, partner_ruffs = h[o1 + tr] | h[o2 + tr], h[p + tr]
        q = 0
        for s in range(4):
            m = h[b + s]
            if m:
                n = self._top_run(m, alive[s])
                if n and s != tr:
                    if ruff:
                        n = min(n, h[o1 + s].bit_count(), h[o2 + s].bit_count())
                    if partner_ruffs:
                        n = min(n, h[p + s].bit_count())
                q += n
        return q

    def _bounds(self):
        """Sure bounds on the perspective team's tricks (objective tricks, at a trick's
        start): the leader's quick tricks, and the top trumps of whoever holds the
        highest one (each of them wins a trick of its own, whenever it is played)."""
        leader, left, tr = self.leader, self.left, self.trump
        ours = [0, 0]
        ours[leader & 1] = self._quick(leader)
        if tr >= 0 and self.alive[tr]:
            top = 1 << (self.alive[tr].bit_length() - 1)
            h = self.h
            holder = next(seat for seat in range(4) if h[seat * 4 + tr] & top)
            n = self._top_run(h[holder * 4 + tr], self.alive[tr])
            if n > ours[holder & 1]:
                ours[holder & 1] = n
        team = self.team
        return ours[team], left - ours[1 - team]

    # -- the search -------------------------------------------------------------------

    def search(self, alpha: int, beta: int) -> int:
        """The loaded position's value, fail-soft in (alpha, beta) (fail-hard when the
        double-dummy core answers: tricks objective, tricks taken at once, trump known)."""
        if self.double_dummy:
            return self.dd.window(alpha, beta)
        return self._search(alpha, beta)

    def _search(self, alpha: int, beta: int) -> int:
        ctx = self.ctx
        ctx.nodes += 1
        if not ctx.nodes & 1023:
            ctx.limit.check(ctx.nodes)
        table = self.table
        k = len(table)
        if k == 0:
            if self.tricks:
                most = self.left + (self.pile.pile if self.pile is not None else 0)
                if alpha >= most:
                    return most
                if beta <= 0:
                    return 0
                if self.simple:
                    lo, hi = self._bounds()
                    if lo >= beta:
                        return lo
                    if hi <= alpha:
                        return hi
            key = self._key()
            entry = self.tt.get(key)
            hint = None
            if entry is not None:
                lo, hi, hint = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            a0, b0 = alpha, beta
        h = self.h
        seat = (self.leader + k) & 3
        maxing = (seat & 1) == self.team
        best = -INF if maxing else INF
        open_trump = self.first_void and self.trump < 0 and k > 0
        order = self._moves(seat, k)
        if k == 0 and hint is not None and hint in order:
            order.remove(hint)
            order.insert(0, hint)
        found = None
        win = self.win
        if k:
            ws, wsu, wr = win
            led = table[0][1]
        for s, r in order:
            bit, i = 1 << r, seat * 4 + s
            h[i] ^= bit
            table.append((seat, s, r))
            sets = open_trump and s != led
            if sets:
                self.trump = s
            if not k or (r > wr if s == wsu else s == self.trump and wsu != s):
                self.win = (seat, s, r)
            v = self._close(alpha, beta) if k == 3 else self._search(alpha, beta)
            self.win = win
            if sets:
                self.trump = -1
            table.pop()
            h[i] ^= bit
            if maxing:
                if v > best:
                    best, found = v, (s, r)
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, found = v, (s, r)
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if k == 0:
            self._store(key, entry, best, a0, b0, found)
        return best

    def _store(self, key, entry, best, a0, b0, move):
        lo, hi, _ = entry if entry is not None else (-INF, INF, None)
        lo, hi = tightened(lo, hi, best, a0, b0)
        tt = self.tt
        if len(tt) > 3_000_000:
            tt.clear()
        tt[key] = (lo, hi, move)

    def _close(self, alpha: int, beta: int) -> int:
        """The fourth card is down: settle the trick, search on, and undo."""
        table, alive = self.table, self.alive
        ws, wsu, wr = self.win
        for _, s, r in table:
            alive[s] ^= 1 << r
        leader = self.leader
        self.leader, self.table = ws, []
        self.left -= 1
        if self.simple:
            g = 1 if (ws & 1) == self.team else 0
            v = g + (self._search(alpha - g, beta - g) if self.left else 0)
        else:
            v = self._settle(table, ws, wsu, wr, alpha, beta)
        self.left += 1
        self.leader, self.table = leader, table
        for _, s, r in table:
            alive[s] ^= 1 << r
        return v

    def _settle(self, table, ws, wsu, wr, alpha, beta) -> int:
        tally, pile = self.tally, self.pile
        saved = tally.save()
        saved_pile = dict(vars(pile)) if pile is not None else None
        pile_tens, number = self.pile_tens, self.number
        if pile is None:
            team, taken = ws & 1, 1
        else:
            taken = pile.pile + 1
            trump = SUITS[self.trump] if self.trump >= 0 else None
            team = pile.on_trick(number, ws, DECK[wsu * 13 + wr], trump, not self.first_void or self.trump >= 0)
        if team is not None:
            tally.tricks_won[team] += taken
        if self.count_tens:
            self.pile_tens += sum(r == TEN for _, s, r in table)
            if team is not None:
                tally.tens_won[team] += self.pile_tens
                self.pile_tens = 0
        tally._check_end(number, ws)
        self.number = number + 1
        g = taken if self.tricks and team == self.team else 0
        if tally.ended:
            v = g if self.tricks else self.ctx.scorer.value(tally)
        elif tally.court_made:
            v = self._court_choice(alpha, beta)
        else:
            v = g + self._search(alpha - g, beta - g)
        tally.restore(saved)
        if pile is not None:
            vars(pile).update(saved_pile)
        self.pile_tens, self.number = pile_tens, number
        return v

    def _court_choice(self, alpha: int, beta: int) -> int:
        """After a first-7 court the court team stops or plays on (R-4): the better for it."""
        tally = self.tally
        stop = self.ctx.scorer.value(tally)
        court_team = tally.first_seven
        tally.begin_play_on()
        if court_team == self.team:
            return stop if stop >= beta else max(stop, self._search(max(alpha, stop), beta))
        return stop if stop <= alpha else min(stop, self._search(alpha, min(beta, stop)))
