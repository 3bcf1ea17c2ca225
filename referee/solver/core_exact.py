# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The exact-count questions of a claim, a search of their own (core.py asks them): "can
the team end with exactly k more tricks?" (R-34, R-34a) and R-38's f, the fewest it can end
with. All four seats choose together (no side opposes another), so a node is a yes when
any move is, and one question answers both: does some line give the team a count in a set
W of counts (counted up to the deal's own end, a court team stopping or playing on)?

Its bounds: the top trumps of the team that holds the highest trump, in either of its
hands, win a trick whoever plays them, as many as its hand holding more of them has (_runs,
where every trick is played): the team's sure tricks, or, held by the other team, the
team's sure losers; never more than the tricks left and the pile; only counts some
sequence of trick winners gives (_sequences). Its table (core_reach): at each trick's start, keyed by
the whole position (the bucket's key and suit lengths, and every remaining card's owner,
high to low), each entry the counts known reached there and the counts known not reached,
so every W asked meets them.
"""
from .core_reach import Reach
from .core_codes import CHECK, END_THIRTEEN, EXACT, FALSE, FEWEST, NONE, REACH_FIRST, REACH_WORDS, RELMASK, RES, REVEAL, TEN, TRUE, UNDECIDED


class Exact(Reach):
    """The all-seats-together search (`reaches`) on its table (core_reach), the budget's
    accounting for every search of the core, and the restricted search's bounds."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.nodes = 0
        self.unspent = 0
        self.stopped = 0
        self.reached = 0  # the count (from the node asked) of the line a yes found
        self.count_rel = 0
        # _sequences' games: 1 a pile or a deciding pair, 2 where the tricks alone end the deal (_span)
        self.piled = 1 if (self.r.pile or self.r.pairs) and not self.r.settled else 2 if self.monotone else 0
        self.lw = [0] * 256

    def _spend(self):
        n = self.unspent
        self.unspent = 0
        if self.spend is not None and n:
            try:
                self.spend(n)
            except BaseException as exc:  # the budget said stop: unwind, then raise at the top
                self.stopped = 1
                self.error = exc

    def _count_node(self):
        """One node more (the budget is asked every CHECK + 1): 1 when it said stop."""
        self.nodes += 1
        self.unspent += 1
        if self.unspent > CHECK:
            self._spend()
        return self.stopped

    def reaches(self, want):
        """Does some line from here give the perspective team a number of further tricks
        in `want` (bit k: k tricks)? 1 or 0; raises what the budget raised. Asked of a
        search for EXACT or FEWEST (the table's key then holds the whole tally)."""
        if self.objective != EXACT and self.objective != FEWEST:
            raise ValueError("the exact-count search is asked of a search for EXACT or FEWEST")
        self.stopped = 0
        self.error = None
        self.ply = self.depth
        r = self._reach(want)
        if not self.stopped:
            self._spend()
        if self.stopped:
            error = self.error
            self.error = None
            self._clear_reach(REACH_FIRST)
            raise error.with_traceback(None)
        return r >> RES

    def _reach(self, want):
        """`reaches` at any node: the deal's end, a court's choice, a trick's start or a card.
        The answer as the core search gives one: TRUE or FALSE << RES | the cards it depended on."""
        if self.ended:
            self.reached = 0
            x = want & 1
            return x << RES
        if self.court_made:
            return self._reach_choice(want)
        if self.tk == 0:
            return self._reach_start(want)
        return self._reach_card(want, self._few(want))

    def _reach_choice(self, want):
        """After a first-7 court the court team stops (no more tricks) or plays on (R-4)."""
        if want & 1:
            self.reached = 0
            return TRUE << RES
        self.court_made = 0
        self.play_on = 1
        r = self._reach_start(want)
        self.court_made = 1
        self.play_on = 0
        return r

    def _counts(self):
        """The counts a line from this trick's start can give the team (a superset): at most
        the tricks left and the pile; at least the top trumps it holds in either hand (_runs),
        at most what the other team's top trumps leave it (count_rel: those cards)."""
        hi = 14 - self.number + self.pile
        lo = 0
        self.count_rel = 0
        m = self._runs()
        if m >= 0:
            if ((m >> 4) & 1) == self.team:
                lo = m & 15
            else:
                hi -= m & 15
        if hi < lo:
            return 0
        return ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)

    def _runs(self):
        """Where every trick is played (the deal ends at trick 13, not by the tens; no pile) and
        the trump is known: the highest trumps still out, down to the first one the other team
        holds, are one team's, in either of its hands. A trick in which one of them is played
        is that team's (only its own cards are higher), and each hand plays one card a trick,
        so the team takes at least as many more tricks as its hand holding more of them has
        (core_bounds._masters counts one hand's run). team * 16 + that many (count_rel: those
        trumps and every one above), or -1."""
        m = self._masters()  # where it holds, the holder of the highest trump
        if m < 0:
            return -1
        holder = m >> 4
        tr = self.trump
        at = self.alive[tr]
        mine = self.h[(holder & 1) * 4 + tr]
        part = self.h[((holder & 1) + 2) * 4 + tr]
        a = 0
        b = 0
        n = 0
        rest = at
        while rest:
            top = self.high[rest]
            if (mine >> top) & 1:
                a += 1
            elif (part >> top) & 1:
                b += 1
            else:
                break
            n += 1
            rest ^= 1 << top
        self.count_rel = self._top_mask(tr, at, n)
        return (holder & 1) * 16 + max(a, b)

    def _sequences(self, want):
        """Of the counts in `want`, those that some sequence of trick winners from here gives the
        team (with the count: core_spans._pile_span in pile and deciding-pair games, _span
        where the tricks alone end the deal): every line is one such sequence, so a count no
        sequence gives, no line gives, whatever the cards. (Court Piece, the team at 3 tricks
        to none: after a trick lost no court is left and the deal ends at its seventh, so no
        line gives 6 more; without this the search tried every line to 4 more to see it.)"""
        k = 0
        for k in range(15):
            if (want >> k) & 1 and not (self._pile_span(0, 0, 0, k) if self.piled == 1 else self._span(k)):
                want &= ~(1 << k)
        return want

    def _few(self, want):
        """Do the team's seats play their worst cards first (the generator orders each seat's
        moves best first for its side)? Where the counts wanted are at most half of what is
        left (f's question, a concession's, an award well below g): the team must give
        tricks away, so lines that do come first (a Seven Courts claim of 4 with 7 in hand:
        some line giving 3 more after the first trick, 2,833,951 nodes to find -> 36).
        Else each seat plays as for its side, lines near perfect play first."""
        if want & 1:
            return 1
        top = 0
        while want >> (top + 1):
            top += 1
        return 1 if 2 * top <= 14 - self.number + self.pile else 0

    def _reach_start(self, want):
        """A trick's start: the bounds, the table, then the leader's moves."""
        if self.stopped:
            return 0
        want &= self._counts()
        crel = self.count_rel
        if want and self.piled:
            want = self._sequences(want)
        if not want:
            return FALSE << RES | crel
        k0 = self._key(0)
        k1 = self.lens
        self._codes()
        c0 = self.code[0]
        c1 = self.code[1]
        c2 = self.code[2]
        c3 = self.code[3]
        i = self._reach_slot(k0, k1, c0, c1, c2, c3)
        yes = 0
        no = 0
        rel_no = 0
        if i >= 0:
            b = i * REACH_WORDS
            v = self.rpool[b + 6]
            yes = (v >> 32) & 0xFFFF
            no = (v >> 16) & 0xFFFF
            rel_no = self.rpool[b + 8]
            if want & yes:
                low = 0
                while not ((want & yes) >> low) & 1:
                    low += 1
                self.reached = low
                return TRUE << RES | self.rpool[b + 7]
        if not want & ~no:
            return FALSE << RES | rel_no | crel
        r = self._reach_card(want & ~no, self._few(want & ~no))
        if self.stopped:
            return 0
        rel = r & RELMASK
        if r >> RES:
            self._reach_put(k0, k1, c0, c1, c2, c3, 1 << self.reached, 0, rel)
            return r
        self._reach_put(k0, k1, c0, c1, c2, c3, 0, want & ~no, rel | crel)
        return FALSE << RES | rel | crel | (rel_no if want & no else 0)

    def _reach_card(self, want, few):
        """The seat to play tries its moves: a yes when any is."""
        if self._count_node():
            return 0
        ply = self.ply
        seat = (self.leader + self.tk) & 3
        rev = few and (seat & 1) == self.team
        n = self._gen(ply, -1, -1)
        self.ply = ply + 1
        found = FALSE
        rel = 0
        lw = ply * 4  # the core search's DDS rule (core.Search._card): a card below every rank that
        self.lw[lw] = 0  # mattered after one of its suit was tried is the same again
        self.lw[lw + 1] = 0
        self.lw[lw + 2] = 0
        self.lw[lw + 3] = 0
        i = 0
        for i in range(n):
            m = self.mv[ply * 16 + (n - 1 - i if rev else i)]
            s = m // 13
            r = m - 13 * s
            if m != REVEAL and r < self.lw[lw + s] and not self._special(s, r):
                continue
            self._do(m, ply)
            if self.tk == 4:
                res = self._reach_close(want)
            else:
                res = self._reach_card(want, few)
            self._undo(m, ply)
            if self.stopped:
                break
            if res >> RES:
                found = TRUE
                rel = res & RELMASK
                break
            rel |= res & RELMASK
            if m != REVEAL and not self.lw[lw + s] and not self._special(s, r):
                low = self.low[(rel >> (13 * s)) & 8191]
                if low < 0:
                    self.lw[lw + s] = 13
                elif r < low:
                    self.lw[lw + s] = low
        self.ply = ply
        return found << RES | rel

    def _reach_close(self, want):
        gain = self._close_do()
        rel = self.closed_rel
        w = want >> gain
        r = 0
        if not w:
            r = 0
        elif self.ended:
            self.reached = 0
            r = w & 1
            r = r << RES
        elif self.court_made:
            r = self._reach_choice(w)
        else:
            r = self._reach_start(w)
        self._close_undo()
        if r >> RES:
            self.reached += gain
        return r | rel

    # -- the restricted search's bounds (core.Search, objective EXACT): the outcomes a line
    # giving exactly kk can end with lie among those of every sequence of trick winners;
    # when they decide `value >= t`, only whether such a line exists is left, asked here

    def _exact_within(self, t, kk):
        """Within a trick: the bound of the trick's start (_exact_envelope, _exact_pile), its
        spans being those of every sequence of trick winners from here (the trick on the table
        is won by some seat, with an ace or not, a trump or not, as each span tries). Not
        where the face-down trump was shown within this trick under trump.concealed, where
        whether the pile's trump is established depends on the winning card's place in the
        trick (core_trick._pile_trick), which the spans take to be after the show."""
        if self.piled == 2:
            return self._exact_envelope(t, kk)
        if self.r.concealed and self.revealed and self.reveal_k:
            return UNDECIDED << RES
        return self._exact_pile(t, kk)

    def _exact_envelope(self, t, kk):
        """Where a trick won is never worse than lost: every end the deal can reach with the
        team taking exactly kk more tricks (whoever wins each trick) has an outcome in
        _exact_span's span; when that decides `value >= t`, the answer is that, or NONE
        where no line at all gives kk."""
        sure = self._exact_span(kk)
        if sure < -1:
            return NONE << RES
        r = self._decided(t, kk)
        if sure >= 0 and (r >> RES) != UNDECIDED:
            r |= self.up[self.trump * 13 + TEN]
        return r

    def _exact_span(self, kk):
        """_exact_envelope's span (span_lo, span_hi): core_spans._span's, which gives the tens
        still out to the other side at its low end and to the team at its high one; at a
        trick's start the trump ten held with every trump above it still out given first to
        its side (core_bounds._ten_sure: the trick it falls in is won by a trump of that side,
        whoever plays it; not within a trick, where a trump above it may lie on the table);
        then narrowed by what the count says of the tens (_tens_known). The side given the
        ten (-1: none), or -2 where no sequence of trick winners gives kk."""
        sure = self._ten_sure() if self.tk == 0 else -1
        if sure >= 0:
            self.tens[sure] += 1
        found = self._span(kk)
        if sure >= 0:
            self.tens[sure] -= 1
        if not found:
            return -2
        self._tens_known(kk)
        return sure

    def _tens_known(self, kk):
        """Where every trick is played (the deal ends at trick 13, not by the tens) and the
        tens count, each ten still out is played, and goes to the side that takes the trick
        it falls in (in pile games, that collects it: the 13th trick collects what is left):
        with kk == 0 the team takes no trick more, so every ten out is the other side's
        (span_hi is span_lo); with kk every trick left (and the pile), the other side takes
        none, so they are all the team's (span_lo is span_hi). A Mendikot concession's
        restricted value is then known at once."""
        if not self.tens_on or self.r.end != END_THIRTEEN or self.r.settled:
            return 0
        if kk == 0:
            self.span_hi = self.span_lo
        elif kk == 14 - self.number + self.pile:
            self.span_lo = self.span_hi
        return 0

    def _exact_pile(self, t, kk):
        """Pile and deciding-pair games: the outcomes of every sequence of trick winners from
        here that gives the team exactly kk more (core_spans._pile_span), a line giving kk
        among them, the tens narrowed as _tens_known says; none such, no line gives kk
        (whatever the cards)."""
        if not self._pile_span(0, 0, 0, kk):
            return NONE << RES
        self._tens_known(kk)
        return self._decided(t, kk)

    def _decided(self, t, kk):
        """The span's answer (read before the exact-count search, whose _sequences moves
        span_lo and span_hi as it asks the spans of the positions it reaches)."""
        lo = self.span_lo
        if lo < t <= self.span_hi:
            return UNDECIDED << RES
        found = self._reach(1 << kk)
        if not found >> RES:
            return NONE << RES | (found & RELMASK)
        return (TRUE if lo >= t else FALSE) << RES | (found & RELMASK)
