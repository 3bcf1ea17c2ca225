# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The exact-count questions of a claim, a search of their own (core.py asks them): "can
the team end with exactly k more tricks?" (R-34, R-34a) and R-38's f, the fewest it can end
with. All four seats choose together (no side opposes another), so a node is a yes when
any move is, and one question answers both: does some line give the team a count in a set
W of counts (counted up to the deal's own end, a court team stopping or playing on)?

Its bounds: the top trumps of the team that holds the highest trump, in either of its
hands, win a trick whoever plays them, as many as its hand holding more of them has (_runs,
where every trick is played): the team's sure tricks, or, held by the other team, the
team's sure losers; never more than the tricks left and
the pile. Its table: at each trick's start, keyed by the whole position (the bucket's key
and suit lengths, and every remaining card's owner, high to low), each entry the counts
known reached there and the counts known not reached, so every W asked meets them.
"""
from array import array

from .core_bounds import Bounds
from .core_codes import CHECK, EXACT, FALSE, FEWEST, HASH_A, HASH_B, M64, NONE, REACH_FIRST, REACH_MAX, REACH_PROBE, REACH_WORDS, RELMASK, RES, REVEAL, TRUE, UNDECIDED


class Exact(Bounds):
    """The all-seats-together search (`reaches`), the budget's accounting for every search
    of the core, and the exact-count table."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.nodes = 0
        self.unspent = 0
        self.stopped = 0
        self.reached = 0  # the count (from the node asked) of the line a yes found
        self.count_rel = 0
        self.piled = 1 if (self.r.pile or self.r.pairs) and not self.r.settled else 0  # _sequences' games
        self.lw = [0] * 256
        self._clear_reach(REACH_FIRST)

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
        """Pile and deciding-pair games: of the counts in `want`, those that some sequence of
        trick winners from here gives the team (core_spans._pile_span with the count): a count
        no sequence gives, no line gives, whatever the cards."""
        k = 0
        for k in range(15):
            if (want >> k) & 1 and not self._pile_span(0, 0, 0, k):
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

    def _exact_envelope(self, t, kk):
        """Where a trick won is never worse than lost: every end the deal can reach with the
        team taking exactly kk more tricks (whoever wins each trick) has an outcome in
        [span_lo, span_hi]; when that decides `value >= t`, the answer is that, or NONE
        where no line at all gives kk."""
        if not self._span(kk):
            return NONE << RES
        return self._decided(t, kk)

    def _exact_pile(self, t, kk):
        """Pile and deciding-pair games: the outcomes of every sequence of trick winners from
        here that gives the team exactly kk more (core_spans._pile_span), a line giving kk
        among them; none such, no line gives kk (whatever the cards)."""
        if not self._pile_span(0, 0, 0, kk):
            return NONE << RES
        return self._decided(t, kk)

    def _decided(self, t, kk):
        if self.span_lo < t <= self.span_hi:
            return UNDECIDED << RES
        found = self._reach(1 << kk)
        if not found >> RES:
            return NONE << RES | (found & RELMASK)
        return (TRUE if self.span_lo >= t else FALSE) << RES | (found & RELMASK)

    # -- the exact-count table: REACH_WORDS words a slot (the key's six; the counts reached
    # << 32 | not reached << 16 | 1; the cards the reached ones and the others depended on), a slot looked for in REACH_PROBE places from
    # its hash; full there, the first place is written over (an answer lost, never a
    # wrong one); doubled up to REACH_MAX slots while more than half are used

    def _clear_reach(self, slots):
        self.rpool = None
        self.reach_array = None
        self.reach_array = array("Q", [0]) * (REACH_WORDS * slots)
        self.rpool = self.reach_array
        self.rslots = slots
        self.rused = 0
        return 0

    def _reach_home(self, k0, k1, c0, c1, c2, c3):
        h = ((k0 * HASH_A) ^ (k1 * HASH_B) ^ (c0 * HASH_B) ^ ((c1 ^ (c2 << 1)) * HASH_A)) & M64
        h = ((h ^ (h >> 29) ^ c3) * HASH_B) & M64
        return (h >> 32) & (self.rslots - 1)

    def _reach_slot(self, k0, k1, c0, c1, c2, c3):
        """The slot holding this key, or -1 - the first free place (-1 - its home: none free)."""
        home = self._reach_home(k0, k1, c0, c1, c2, c3)
        free = -1
        j = 0
        for j in range(REACH_PROBE):
            i = (home + j) & (self.rslots - 1)
            b = i * REACH_WORDS
            if self.rpool[b + 6] == 0:
                if free < 0:
                    free = i
            elif (self.rpool[b] == k0 and self.rpool[b + 1] == k1 and self.rpool[b + 2] == c0
                  and self.rpool[b + 3] == c1 and self.rpool[b + 4] == c2 and self.rpool[b + 5] == c3):
                return i
        return -1 - (free if free >= 0 else home)

    def _reach_put(self, k0, k1, c0, c1, c2, c3, yes, no, rel):
        if 2 * (self.rused + 1) > self.rslots and self.rslots < REACH_MAX:
            self._grow_reach()
        i = self._reach_slot(k0, k1, c0, c1, c2, c3)
        v = 0
        b = i * REACH_WORDS
        if i >= 0:
            v = self.rpool[b + 6]
        else:
            i = -1 - i
            b = i * REACH_WORDS
            if self.rpool[b + 6] == 0:
                self.rused += 1
            self.rpool[b + 7] = 0
            self.rpool[b + 8] = 0
        self.rpool[b] = k0
        self.rpool[b + 1] = k1
        self.rpool[b + 2] = c0
        self.rpool[b + 3] = c1
        self.rpool[b + 4] = c2
        self.rpool[b + 5] = c3
        x = yes
        v |= x << 32
        x = no
        v |= x << 16
        self.rpool[b + 6] = v | 1
        if yes:
            self.rpool[b + 7] |= rel
        else:
            self.rpool[b + 8] |= rel
        return 0

    def _grow_reach(self):
        """Twice the slots, the entries placed again (one that finds no place is lost)."""
        old = self.reach_array
        count = self.rslots
        self._clear_reach(2 * count)
        k = 0
        for k in range(count):
            b = k * REACH_WORDS
            v = old[b + 6]
            if v:
                i = self._reach_slot(old[b], old[b + 1], old[b + 2], old[b + 3], old[b + 4], old[b + 5])
                if i < 0:
                    i = -1 - i
                    if self.rpool[i * REACH_WORDS + 6] == 0:
                        self.rused += 1
                    w = 0
                    for w in range(REACH_WORDS):
                        self.rpool[i * REACH_WORDS + w] = old[b + w]
        return 0
