# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The spans of the core search's bounds (core_bounds.py): the lowest and highest outcome of the
deal over every sequence of trick winners from here, by the deal's own end and pile and
deciding-pair rules (whoever wins each trick, with an ace or not...), each memoised by the
rule state it reads."""
from .core_codes import ACE, END_THIRTEEN, EXACT, SCORE
from .core_table import Table


class Spans(Table):
    """The outcomes every end of the deal can reach, for the bounds (core_bounds.Bounds)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.sims = {}
        self.spans = {}
        self.piles = {}
        self.span_lo = 0
        self.span_hi = 0
        # every trick is played and the 13th collects what is left: the pile's tens go to its
        # collector, and each ten still out to a team that collects from here (_pile_span_of)
        self.follow = 1 if (self.tens_on and self.r.pile and self.r.end == END_THIRTEEN and not self.r.settled
                            and (objective == SCORE or objective == EXACT)) else 0

    def _span(self, kk):
        """The lowest and highest outcome (span_lo, span_hi) of an end of the deal reached by
        any sequence of trick winners from here that gives the team exactly kk more tricks
        (the tens still out to the other side for the lowest, to the team for the highest;
        a court team stops or plays on, either). False when no sequence gives kk."""
        key = (kk | self.number << 5 | self.won[0] << 9 | self.won[1] << 13 | (self.first_seven + 1) << 17
               | self.play_on << 19 | self.court_made << 20 | self.tens[0] << 21 | self.tens[1] << 24
               | self.team << 27 | self.ended << 28 | self.pkind << 29 | self.pwinner << 31)
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
        saved = self._fate_saved()
        if self.court_made:  # the court team may stop here
            self.ended = 1
            self.court_made = 0
            v = self._span_of(kk)
            self._fate_restore(saved)
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
            self._fate_restore(saved)
            if v >= 0:
                lo = min(lo, (v >> 20) - 0x20000)
                hi = max(hi, (v & 0xFFFFF) - 0x20000)
        if hi < lo:
            return -1
        return (lo + 0x20000) << 20 | (hi + 0x20000)

    def _sim(self, side, q, sure, fell):
        """The value if `side` wins the next q tricks and the other side every one after, by
        the deal's end rules (a court team plays on only while it wins); the tens still out
        go to the side winning the last tricks, but one to team `sure` (>= 0: the trump ten
        it cannot lose) and `fell` to `side` (tens that fall in its q tricks), a bound
        either way: see _envelope."""
        key = (side | q << 1 | self.number << 5 | self.won[0] << 9 | self.won[1] << 13 | (self.first_seven + 1) << 17
               | self.play_on << 19 | self.court_made << 20 | self.tens[0] << 21 | self.tens[1] << 24
               | self.team << 27 | (sure + 1) << 28 | fell << 30)
        v = self.sims.get(key)
        if v is not None:
            return v
        saved_won0 = self.won[0]
        saved_won1 = self.won[1]
        saved_tens0 = self.tens[0]
        saved_tens1 = self.tens[1]
        saved = self._fate_saved()
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
        if sure >= 0:
            self.tens[sure] += 1
        self.tens[side] += fell
        self.tens[side if q >= left else 1 - side] += 4 - self.tens[0] - self.tens[1]
        if self.objective == SCORE:
            v = self._value_now()
        else:
            v = self.won[self.team] - (saved_won0 if self.team == 0 else saved_won1)
        self.won[0] = saved_won0
        self.won[1] = saved_won1
        self.tens[0] = saved_tens0
        self.tens[1] = saved_tens1
        self._fate_restore(saved)
        self.sims[key] = v
        return v

    def _aces_matter(self):
        """Does a rule look at a trick won by an ace (pile.ace-on-ace, pile.*-ace, the
        deciding pair's ace)?"""
        return 1 if self.r.ace_on_ace or self.r.ace_seal or (self.r.pairs and self.r.ace_rule) else 0

    def _pile_span(self, seat, q, c, kk=-1):
        """_pile_bound's span (span_lo, span_hi); with q, the first q tricks won by seat - 1,
        c & 15 of them with an ace (where aces matter), those first (c & 16: last); with
        kk >= 0 (the restricted search, R-34a: never with q), only the sequences that give the
        team exactly kk more tricks; with c >> 7, only those in which team ((c >> 5) & 3) - 1
        collects c >> 7 more tricks by trick 13 (a pair it makes when it likes: _sure_pair),
        or the deal ends before. 0 where no sequence is left."""
        return self._pile_span_at(seat, q, c, kk, 0, 0)

    def _pile_span_at(self, seat, q, c, kk, coll, fell):
        """_pile_span's, where `follow`: with the teams that collected since the span's first
        trick (coll: bit 0 team 0, bit 1 team 1), and `fell` tens out that fall in the q
        tricks cashed (core_bounds._fallen), the cashing side's where the q-th collects."""
        low = (self.number | self.won[0] << 4 | self.won[1] << 8 | self._pile_word() << 12 | (self.first_seven + 1) << 23
               | self.play_on << 25 | self.court_made << 26 | self.ended << 27 | self.tens[0] << 28)
        # q, or kk + 1: a search asks with one or the other, never both
        high = (self.tens[1] | seat << 3 | (q + kk + 1) << 6 | self.team << 10 | (1 if self.trump >= 0 else 0) << 11
                | self.revealed << 12 | (self.run_by + 1) << 13 | self.run << 16 | self.deferred << 18
                | self.revealed_trick << 19 | c << 23)
        key = low | high << 31
        if self.follow:
            wide = key  # a Python int: the pile's tens and coll do not fit in the 63 bits
            wide = wide << 8 | self.pile_tens | coll << 3 | fell << 5
            v = self.piles.get(wide)
            if v is None:
                v = self._pile_span_of(seat, q, c, kk, coll, fell)
                self.piles[wide] = v
        else:
            v = self.piles.get(key)
            if v is None:
                v = self._pile_span_of(seat, q, c, kk, coll, fell)
                self.piles[key] = v
        if v < 0:
            return 0
        self.span_lo = (v >> 20) - 0x20000
        self.span_hi = (v & 0xFFFFF) - 0x20000
        return 1

    def _end_span(self, need, coll):
        """The deal over: _span_of's, but none where it ended at trick 13 and the team that
        owes (_pile_span) has not collected its `need` more. Where `follow`, after trick 13
        with one team alone collecting since the span's first trick (coll), every ten still
        out is that team's: each is played in a trick at or after that first trick, and goes
        to the pile's next collector, and the 13th trick collects what is left."""
        if need and self.number > 13:
            return -1
        if self.follow and self.number > 13 and (coll == 1 or coll == 2):
            w = coll - 1
            out = 4 - self.tens[0] - self.tens[1]
            self.tens[w] += out
            v = self._value_now()
            self.tens[w] -= out
            return (v + 0x20000) << 20 | (v + 0x20000)
        return self._span_of(0)  # the tens still out to either side

    def _pile_span_of(self, seat, q, c, kk, coll, fell):
        """_pile_span's answer, packed as _span_of packs its own; -1 for none. Where `follow`,
        the pile's tens go to the team that collects it (tens still out: _end_span), and the
        tens that fell in a cash to the cashing side where its last trick collects: each fell
        in one of those tricks, all won by that seat, and an empty pile after the last means
        every one of them was collected, by that seat."""
        owe = (c >> 5) & 3
        need = c >> 7
        c &= 31
        if self.ended:
            return -1 if kk > 0 else self._end_span(need, coll)
        lo = 1 << 40
        hi = -(1 << 40)
        saved = self._fate_saved()
        if self.court_made and kk <= 0:  # the court team may stop here (within a cash too: more lines, still a bound)
            self.ended = 1
            self.court_made = 0
            v = self._end_span(need, coll)
            self._fate_restore(saved)
            if v >= 0:
                lo = min(lo, (v >> 20) - 0x20000)
                hi = max(hi, (v & 0xFFFFF) - 0x20000)
        aces = 2 if self._aces_matter() else 1
        # a cashed trick's ace: the leader's order (c) says
        forced = ((1 if c & 15 else 0) if not c & 16 else (1 if (c & 15) == q else 0)) if q and aces == 2 else -1
        trumps = 2 if self.r.ace_seal == 1 else 1
        open_est = self.r.pile and ((self.r.first_void and self.trump < 0) or (self.r.concealed and not self.revealed))
        # the deciding pair: the trump may yet be shown in any trick (pair_counts reads when)
        shows = 2 if self.r.pairs_hidden and not self.revealed else 1
        number = self.number
        won0 = self.won[0]
        won1 = self.won[1]
        piled = self._pile_word()
        paired = self._pair_word()
        shown = self.revealed | self.revealed_trick << 1
        tens0 = self.tens[0]
        tens1 = self.tens[1]
        pile_tens = self.pile_tens
        ws = 0
        for ws in range(4):
            if q and ws != seat - 1:
                continue
            if self.court_made and (ws & 1) != self.first_seven:
                continue  # playing on ends at the first trick lost: that is the stop above
            a = 0
            for a in range(aces * trumps * shows):
                ace = 1 if a % aces else 0
                if forced >= 0 and ace != forced:
                    continue
                if self.court_made:
                    self.court_made = 0
                    self.play_on = 1
                if a >= aces * trumps:
                    self.revealed = 1
                    self.revealed_trick = number
                gain = 0
                got = coll
                if self.r.pile:
                    team = self._pile_trick(number, ws, self.trump if (a // aces) % trumps else -2, ACE if ace else ACE - 1, 3)
                    if team >= 0:
                        self.won[team] += self.taken
                        gain = self.taken if team == self.team else 0
                        if self.follow:
                            self.tens[team] += self.pile_tens
                            self.pile_tens = 0
                            got |= 1 << team
                else:
                    self.won[ws & 1] += 1
                    gain = 1 if (ws & 1) == self.team else 0
                if fell and q == 1 and not self.pile:  # the cash's last trick collected: the tens that fell are its
                    self.tens[ws & 1] += fell
                self.ended = self._ends(number, ws, ace)
                self.number = number + 1
                left = kk - gain if kk >= 0 else -1
                more = 0
                if need:  # what the team that owes still owes after this trick
                    more = max(0, need - self.won[owe - 1] + (won0 if owe == 1 else won1))
                on = (c - ace if q > 1 else 0) | ((owe << 5 | more << 7) if more else 0)
                e = 0
                for e in range(2 if open_est else 1):
                    if kk >= 0 and left < 0:
                        break  # more than kk tricks: none of these sequences
                    if open_est:
                        self.pest = e
                    if self._pile_span_at(seat if q > 1 else 0, q - 1 if q else 0, on, left, got, fell if q > 1 else 0):
                        lo = min(lo, self.span_lo)
                        hi = max(hi, self.span_hi)
                self.number = number
                self.won[0] = won0
                self.won[1] = won1
                self.tens[0] = tens0
                self.tens[1] = tens1
                self.pile_tens = pile_tens
                self._set_pile(piled)
                self._set_pair(paired)
                self.revealed = shown & 1
                self.revealed_trick = shown >> 1
                self._fate_restore(saved)
        if hi < lo:
            return -1
        return (lo + 0x20000) << 20 | (hi + 0x20000)
