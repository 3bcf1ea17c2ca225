# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""Bounds for the core search (core.py): sure tricks where tricks are taken at once, and where a
trick won is never worse than lost, the outcomes every end of the deal can reach."""
from .core_codes import ACE, END_THIRTEEN, FALSE, RES, SCORE, TRUE, UNDECIDED
from .core_table import Table


class Bounds(Table):
    """Bounds at a trick's start, for the core search (core.Search)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        # a trick won is never worse than the same trick lost (see _envelope)
        # (and every end of the deal is known from the tricks alone: not when the tens end it)
        self.monotone = 0 if self.r.pile or self.r.pairs or self.r.settled else 1
        self.sims = {}
        self.spans = {}
        self.piles = {}
        self.span_lo = 0
        self.span_hi = 0
        self.cash_rel = 0
        self.cash_counts = 0

    def _cash(self, seat, follows):
        """The tricks `seat`, on lead, takes at once with its top cards, suit by suit: side
        suits first, as many as the opponents follow to when they hold a trump, and as many
        as the partner follows to when the partner holds one (never forced to trump; with
        `follows`, in every suit). Then the top trumps. Sets cash_rel, cash_counts bits."""
        b = seat * 4
        tr = self.trump if not self.hidden else -1
        o1 = ((seat + 1) & 3) * 4
        o2 = ((seat + 3) & 3) * 4
        p = ((seat + 2) & 3) * 4
        if tr >= 0:
            ruff = self.h[o1 + tr] | self.h[o2 + tr]
            partner_ruffs = follows or self.h[p + tr]
        else:  # the trump unknown to the table: any seat out of a suit may win its trick
            ruff = 1
            partner_ruffs = 1
        q = 0
        rel = 0
        counts = 0
        s = 0
        for s in range(4):
            m = self.h[b + s]
            if not m:
                continue
            n = self._top_run(m, self.alive[s])
            if n and s != tr and ruff:
                n = min(n, self.bits[self.h[o1 + s]], self.bits[self.h[o2 + s]])
            if n and partner_ruffs and (s != tr or follows):
                n = min(n, self.bits[self.h[p + s]])
            if n:
                q += n
                counts |= 1 << s
                rel |= self._top_mask(s, self.alive[s], n)
        self.cash_rel = rel
        self.cash_counts = counts
        return q

    def _sure(self, t):
        """The answer when sure tricks decide it, with the cards that make them: the top
        trumps of whoever holds the highest one (each wins a trick of its own), the
        leader's quick tricks, its own and then the partner's after a lead to the partner's
        top card. UNDECIDED when they do not."""
        left = 14 - self.number
        team = self.team
        tr = self.trump
        at = self.alive[tr] if tr >= 0 and not self.hidden else 0
        if at:
            top = self.high[at]
            holder = 0
            while not (self.h[holder * 4 + tr] >> top) & 1:
                holder += 1
            n = self._top_run(self.h[holder * 4 + tr], at)
            if (n >= t) if (holder & 1) == team else (left - n < t):
                return (TRUE if (holder & 1) == team else FALSE) << RES | self._top_mask(tr, at, n)
        leader = self.leader
        ours = (leader & 1) == team
        q = self._cash(leader, 0)
        if (q >= t) if ours else (left - q < t):
            return (TRUE if ours else FALSE) << RES | self.cash_rel
        partner = (leader + 2) & 3
        b = leader * 4
        pb = partner * 4
        entries = 0
        s = 0
        for s in range(4):
            if self.h[b + s] and (self.h[pb + s] >> self.high[self.alive[s]]) & 1:
                entries |= 1 << s
        if entries:
            more = self._cash(partner, 0)
            more_rel = self.cash_rel
            if self.cash_counts & entries:
                own = self._cash(leader, 1)
                q = own + more
                if (q >= t) if ours else (left - q < t):
                    return (TRUE if ours else FALSE) << RES | self.cash_rel | more_rel
        return UNDECIDED << RES

    def _envelope(self, t):
        """Where a trick won is never worse for a team than the same trick lost (tricks
        taken at once, no deciding pair), the value lies between the team losing every
        trick left and it winning every one; and when the leader's side has quick tricks
        (the trump known), between it cashing them and then losing every trick, and the
        other side cashing its own then losing every one. The answer when that decides."""
        left = 14 - self.number
        us = self.team
        them = 1 - us
        if self._sim(us, left) < t:
            return FALSE << RES
        if self._sim(them, left) >= t:
            return TRUE << RES
        q = self._cash(self.leader, 0)
        if not q:
            return UNDECIDED << RES
        if (self.leader & 1) == us:
            if self._sim(us, q) >= t:
                return TRUE << RES | self.cash_rel
        elif self._sim(them, q) < t:
            return FALSE << RES | self.cash_rel
        return UNDECIDED << RES

    def _masters(self):
        """Where every trick is played and taken at once, the trump known: the top trumps of
        whoever holds the highest one each win a trick of their own, whoever plays them
        (nothing still out beats them). holder * 16 + how many (cash_rel: those cards), or
        -1 where that does not hold."""
        if self.r.end != END_THIRTEEN or self.r.settled or self.r.pile or self.trump < 0 or self.hidden:
            return -1
        tr = self.trump
        at = self.alive[tr]
        if not at:
            return -1
        top = self.high[at]
        holder = 0
        while not (self.h[holder * 4 + tr] >> top) & 1:
            holder += 1
        n = self._top_run(self.h[holder * 4 + tr], at)
        self.cash_rel = self._top_mask(tr, at, n)
        return holder * 16 + n

    def _forced(self, kk):
        """EXACT: a count the top trumps (_masters) make impossible has no line (cash_rel:
        those cards)."""
        m = self._masters()
        if m < 0:
            return 0
        n = m & 15
        if ((m >> 4) & 1) == self.team:
            return kk < n
        return kk > 14 - self.number - n

    def _fewest(self, t):
        """FEWEST (R-38's f, all four seats choosing together): the team takes at least the
        top trumps it holds in one hand (_masters), and at most the tricks the other team's
        leave it; the answer when that decides `f >= t`."""
        m = self._masters()
        if m < 0:
            return UNDECIDED << RES
        n = m & 15
        if ((m >> 4) & 1) == self.team:
            if n >= t:
                return TRUE << RES | self.cash_rel
        elif 14 - self.number - n < t:
            return FALSE << RES | self.cash_rel
        return UNDECIDED << RES

    def _span(self, kk):
        """The lowest and highest outcome (span_lo, span_hi) of an end of the deal reached by
        any sequence of trick winners from here that gives the team exactly kk more tricks
        (the tens still out to the other side for the lowest, to the team for the highest;
        a court team stops or plays on, either). False when no sequence gives kk."""
        key = (kk | self.number << 5 | self.won[0] << 9 | self.won[1] << 13 | (self.first_seven + 1) << 17
               | self.play_on << 19 | self.court_made << 20 | self.tens[0] << 21 | self.tens[1] << 24
               | self.team << 27 | self.ended << 28)
        v = self.spans.get(key)
        if v is None:
            v = self._span_of(kk)
            self.spans[key] = v
        if v < 0:
            return 0
        self.span_lo = (v >> 20) - 0x20000
        self.span_hi = (v & 0xFFFFF) - 0x20000
        return 1

    def _span_of(self, kk):
        """_span's answer, packed (lo + 2**17) << 20 | (hi + 2**17); -1 for none."""
        if kk < 0:
            return -1
        if self.ended:
            if kk:
                return -1
            out = 4 - self.tens[0] - self.tens[1]
            us = self.team
            self.tens[1 - us] += out
            lo = self._value_now()
            self.tens[1 - us] -= out
            self.tens[us] += out
            hi = self._value_now()
            self.tens[us] -= out
            return (lo + 0x20000) << 20 | (hi + 0x20000)
        lo = 1 << 40
        hi = -(1 << 40)
        saved = (self.first_seven + 1) | self.play_on << 2 | self.court_made << 3 | self.ended << 4
        if self.court_made:  # the court team may stop here
            self.ended = 1
            self.court_made = 0
            v = self._span_of(kk)
            self._span_restore(saved)
            if v >= 0:
                lo = min(lo, (v >> 20) - 0x20000)
                hi = max(hi, (v & 0xFFFFF) - 0x20000)
        w = 0
        for w in range(2):
            if self.court_made:
                if w != self.first_seven:
                    continue  # playing on ends at the first trick lost: that is the stop above
                self.court_made = 0
                self.play_on = 1
            self.won[w] += 1
            number = self.number
            self.ended = self._ends(number, w, 0)
            self.number = number + 1
            v = self._span_of(kk - (1 if w == self.team else 0))
            self.number = number
            self.won[w] -= 1
            self._span_restore(saved)
            if v >= 0:
                lo = min(lo, (v >> 20) - 0x20000)
                hi = max(hi, (v & 0xFFFFF) - 0x20000)
        if hi < lo:
            return -1
        return (lo + 0x20000) << 20 | (hi + 0x20000)

    def _span_restore(self, saved):
        self.first_seven = (saved & 3) - 1
        self.play_on = (saved >> 2) & 1
        self.court_made = (saved >> 3) & 1
        self.ended = (saved >> 4) & 1

    def _sim(self, side, q):
        """The value if `side` wins the next q tricks and the other side every one after, by
        the deal's end rules (a court team plays on only while it wins); the tens still out
        go to the side winning the last tricks (a bound either way: see _envelope)."""
        key = (side | q << 1 | self.number << 5 | self.won[0] << 9 | self.won[1] << 13 | (self.first_seven + 1) << 17
               | self.play_on << 19 | self.court_made << 20 | self.tens[0] << 21 | self.tens[1] << 24
               | self.team << 27)
        v = self.sims.get(key)
        if v is not None:
            return v
        saved_won0 = self.won[0]
        saved_won1 = self.won[1]
        saved_tens0 = self.tens[0]
        saved_tens1 = self.tens[1]
        saved = (self.first_seven + 1) | self.play_on << 2 | self.court_made << 3
        left = 14 - self.number
        j = 0
        for j in range(left):
            w = side if j < q else 1 - side
            if self.court_made:
                if w != self.first_seven:
                    break  # the court team stops: the court stands
                self.court_made = 0
                self.play_on = 1
            self.won[w] += 1
            if self._ends(self.number + j, w, 0):
                break
        self.tens[side if q >= left else 1 - side] += 4 - self.tens[0] - self.tens[1]
        if self.objective == SCORE:
            v = self._value_now()
        else:
            v = self.won[self.team] - (saved_won0 if self.team == 0 else saved_won1)
        self.won[0] = saved_won0
        self.won[1] = saved_won1
        self.tens[0] = saved_tens0
        self.tens[1] = saved_tens1
        self.first_seven = (saved & 3) - 1
        self.play_on = (saved >> 2) & 1
        self.court_made = (saved >> 3) & 1
        self.sims[key] = v
        return v

    def _pile_bound(self, t):
        """Pile games (no deciding pair), where a trick won may be worse than lost: the value
        lies between the lowest and highest outcome of every sequence of trick winners from
        here (seat by seat, each winning card an ace or not, a trump or not, the trump
        established or not where that is still open); and of those that begin with the
        leader cashing its quick tricks. The answer when that decides (no card relevant but
        the cashed ones)."""
        self._pile_span(0, 0)
        if self.span_hi < t:
            return FALSE << RES
        if self.span_lo >= t:
            return TRUE << RES
        q = self._cash(self.leader, 0)
        if not q:
            return UNDECIDED << RES
        self._pile_span(self.leader + 1, q)
        if (self.leader & 1) == self.team:
            if self.span_lo >= t:
                return TRUE << RES | self.cash_rel
        elif self.span_hi < t:
            return FALSE << RES | self.cash_rel
        return UNDECIDED << RES

    def _pile_span(self, seat, q):
        """_pile_bound's span (span_lo, span_hi); with q, the first q tricks won by seat - 1."""
        low = (self.number | self.won[0] << 4 | self.won[1] << 8 | self.pile << 12 | (self.pw + 1) << 16
               | self.pace << 19 | self.pest << 20 | self.pcoll << 21 | self.hot << 22 | (self.first_seven + 1) << 23
               | self.play_on << 25 | self.court_made << 26 | self.ended << 27 | self.tens[0] << 28)
        high = (self.tens[1] | seat << 3 | q << 6 | self.team << 10 | (1 if self.trump >= 0 else 0) << 11
                | self.revealed << 12)
        key = low | high << 31
        v = self.piles.get(key)
        if v is None:
            v = self._pile_span_of(seat, q)
            self.piles[key] = v
        self.span_lo = (v >> 20) - 0x20000
        self.span_hi = (v & 0xFFFFF) - 0x20000
        return 1

    def _pile_span_of(self, seat, q):
        """_pile_span's answer, packed as _span_of packs its own."""
        if self.ended:
            return self._span_of(0)  # the tens still out to either side
        lo = 1 << 40
        hi = -(1 << 40)
        saved = (self.first_seven + 1) | self.play_on << 2 | self.court_made << 3 | self.ended << 4
        if self.court_made:  # the court team may stop here (within a cash too: more lines, still a bound)
            self.ended = 1
            self.court_made = 0
            v = self._span_of(0)
            self._span_restore(saved)
            lo = min(lo, (v >> 20) - 0x20000)
            hi = max(hi, (v & 0xFFFFF) - 0x20000)
        aces = 2 if self.r.ace_on_ace or self.r.ace_seal else 1
        trumps = 2 if self.r.ace_seal == 1 else 1
        open_est = (self.r.first_void and self.trump < 0) or (self.r.concealed and not self.revealed)
        number = self.number
        won0 = self.won[0]
        won1 = self.won[1]
        piled = self.pile | (self.pw + 1) << 4 | self.pace << 7 | self.pest << 8 | self.pcoll << 9 | self.hot << 10
        ws = 0
        for ws in range(4):
            if q and ws != seat - 1:
                continue
            if self.court_made and (ws & 1) != self.first_seven:
                continue  # playing on ends at the first trick lost: that is the stop above
            a = 0
            for a in range(aces * trumps):
                if self.court_made:
                    self.court_made = 0
                    self.play_on = 1
                team = self._pile_trick(number, ws, self.trump if a >= aces else -2, ACE if a % aces else ACE - 1, 3)
                if team >= 0:
                    self.won[team] += self.taken
                self.ended = self._ends(number, ws, 1 if a % aces else 0)
                self.number = number + 1
                e = 0
                for e in range(2 if open_est else 1):
                    if open_est:
                        self.pest = e
                    self._pile_span(seat if q > 1 else 0, q - 1 if q else 0)
                    lo = min(lo, self.span_lo)
                    hi = max(hi, self.span_hi)
                self.number = number
                self.won[0] = won0
                self.won[1] = won1
                self.pile = piled & 15
                self.pw = ((piled >> 4) & 7) - 1
                self.pace = (piled >> 7) & 1
                self.pest = (piled >> 8) & 1
                self.pcoll = (piled >> 9) & 1
                self.hot = (piled >> 10) & 1
                self._span_restore(saved)
        return (lo + 0x20000) << 20 | (hi + 0x20000)
