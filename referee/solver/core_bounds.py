# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""Bounds for the core search (core.py), on the quick tricks of core_quick.py: where a
trick won is never worse than lost, the outcomes every end of the deal can reach; in pile and
deciding-pair games, those every sequence of trick winners can reach, after the leader's quick
tricks (the spans: core_spans.py)."""
from .core_codes import ACE, END_PILE, END_THIRTEEN, EXACT, FALSE, RES, SCORE, TEN, TRUE, UNDECIDED
from .core_kernel import pile_blocked
from .core_quick import Quick


class Bounds(Quick):
    """Bounds at a trick's start, for the core search (core.Search)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        # a trick won is never worse than the same trick lost (see _envelope)
        # (and every end of the deal is known from the tricks alone: not when the tens end it)
        self.monotone = 0 if self.r.pile or self.r.pairs or self.r.settled else 1

    def _envelope(self, t):
        """Where a trick won is never worse for a team than the same trick lost (tricks
        taken at once, no deciding pair), the value lies between the team losing every
        trick left and it winning every one (the tens still out with them), the trump ten
        kept by the side sure of it (_ten_sure); and when the leader's side has quick tricks
        (the trump known), between it cashing them (with the tens that fall in them) and then
        losing every trick, and the other side cashing its own then losing every one. The
        answer when that decides."""
        left = 14 - self.number
        us = self.team
        them = 1 - us
        if self._sim(us, left, -1, 0) < t:
            return FALSE << RES
        if self._sim(them, left, -1, 0) >= t:
            return TRUE << RES
        sure = self._ten_sure()
        rel = 0
        if sure >= 0:
            rel = self.up[self.trump * 13 + TEN]
            if self._sim(us, left, sure, 0) < t:
                return FALSE << RES | rel
            if self._sim(them, left, sure, 0) >= t:
                return TRUE << RES | rel
        ten = self._ten_trick(sure)
        if ten:
            if (self.leader & 1) == us:
                if self._sim(us, 1, sure, 1) >= t:
                    return TRUE << RES | ten | rel
            elif self._sim(them, 1, sure, 1) < t:
                return FALSE << RES | ten | rel
        q = self._cash(self.leader, 0)
        if not q:
            return UNDECIDED << RES
        fell = self._fallen(self.leader, sure)
        if (self.leader & 1) == us:
            if self._sim(us, q, sure, fell) >= t:
                return TRUE << RES | self.cash_rel | rel
        elif self._sim(them, q, sure, fell) < t:
            return FALSE << RES | self.cash_rel | rel
        return UNDECIDED << RES

    def _fallen(self, seat, sure):
        """The tens that fall in the quick tricks `seat` just counted (_cash), won by its side:
        in each suit cashed n times, its own ten among the n cards it leads, and the ten of
        any other seat with n cards of the suit or fewer (each follows suit while it can).
        Not the trump ten where a side is sure of it (_ten_sure counts it)."""
        if not self.tens_on or self.objective != SCORE:
            return 0
        fell = 0
        s = 0
        for s in range(4):
            n = self.cash_n[s]
            if not n or not (self.alive[s] >> TEN) & 1 or (sure >= 0 and s == self.trump):
                continue
            if (self.h[seat * 4 + s] >> TEN) & 1:
                if self.bits[self.alive[s] >> TEN] <= n:  # the ten and the cards above it, all led
                    fell += 1
                continue
            j = 1
            for j in range(1, 4):
                i = ((seat + j) & 3) * 4 + s
                if (self.h[i] >> TEN) & 1 and self.bits[self.h[i]] <= n:
                    fell += 1
        return fell


    def _ten_trick(self, sure):
        """A ten the leader's side surely wins in the trick about to be led (the tens counted,
        no trump face down, not the trump ten where _ten_sure counts it): in a suit s of the
        leader's, the top card still out that side's, and each opponent holding s (it must
        follow) or unable to win by a trump (s is the trump; or the trump is known and it
        holds none; or there is none for good). Led in s, the top card played (the leader
        leads it, or leads low and the partner plays it), the trick is that side's, and a ten
        falls in it: the side's own ten, held by the seat of the two that does not play the
        top card; or where one seat holds both, or the ten is the top card, every card of s
        above the ten is the side's, and the ten is played (led, or played by the partner on a
        low lead), so the trick's highest card of s is the ten or one of its side's; or an
        opponent's ten, its last card of s, which it must play. The rel mask of the ten and
        the cards above it (the lengths apart), 0: none."""
        if not self.tens_on or self.objective != SCORE or self.hidden or self.lmt:
            return 0
        tr = self.trump
        lead = self.leader
        b = lead * 4
        p = ((lead + 2) & 3) * 4
        o1 = ((lead + 1) & 3) * 4
        o2 = ((lead + 3) & 3) * 4
        s = 0
        for s in range(4):
            a = self.alive[s]
            if not (a >> TEN) & 1 or not self.h[b + s] or (s == tr and sure >= 0):
                continue
            if s != tr and (self._may_ruff(o1, s) or self._may_ruff(o2, s)):
                continue
            ours = self.h[b + s] | self.h[p + s]
            top = self.high[a]
            if not (ours >> top) & 1:
                continue
            w = b if (self.h[b + s] >> top) & 1 else p  # the seat that plays the top card
            if (ours >> TEN) & 1:
                if not (self.h[w + s] >> TEN) & 1 or not (a >> (TEN + 1)) & ~(ours >> (TEN + 1)):
                    return self.up[s * 13 + TEN]
            elif self.h[o1 + s] == 1 << TEN or self.h[o2 + s] == 1 << TEN:
                return self.up[s * 13 + TEN]
        return 0

    def _may_ruff(self, b, s):
        """May the seat at b * 4 win a trick led in side suit s by a trump: it can ruff it
        (core_quick._ruffs), or, out of s before the trump is settled (a first-void game
        before its first show-out), its show-out sets one."""
        return 1 if self._ruffs(b, s) or (not self.h[b + s] and not self._trump_settled()) else 0

    def _ten_sure(self):
        """The team sure to take the trump ten (the tens counted, the trump known): it holds
        the ten and every trump above it still out, so whoever plays it, the trick it falls
        in is won by a trump of that team. -1: none."""
        tr = self.trump
        if not self.tens_on or (self.objective != SCORE and self.objective != EXACT) or tr < 0 or self.hidden:
            return -1  # EXACT: the restricted search's outcome is SCORE's (core_exact._exact_envelope)
        a = self.alive[tr]
        if not (a >> TEN) & 1:
            return -1
        holder = 0
        while holder < 4 and not (self.h[holder * 4 + tr] >> TEN) & 1:
            holder += 1
        if holder == 4:
            return -1
        team = holder & 1
        ours = self.h[team * 4 + tr] | self.h[(team + 2) * 4 + tr]
        if (a >> (TEN + 1)) & ~(ours >> (TEN + 1)):
            return -1
        return team

    def _masters(self):
        """Where every trick is played and taken at once, the trump known: the top trumps of
        whoever holds the highest one each win a trick of their own, whoever plays them
        (nothing still out beats them). holder * 16 + how many (cash_rel: those cards), or
        -1 where that does not hold."""
        if self.r.end != END_THIRTEEN or self.r.settled or self.r.pile or self.trump < 0 or self.hidden:
            return -1
        tr = self.trump
        holder = self._trump_holder()
        if holder < 0:
            return -1
        at = self.alive[tr]
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

    def _pile_bound(self, t):
        """Pile and deciding-pair games, where a trick won may be worse than lost: the value
        lies between the lowest and highest outcome of every sequence of trick winners from
        here (seat by seat, each winning card an ace or not, a trump or not, the trump
        established or not where that is still open, the face-down trump shown or not); and
        of those that begin with the leader cashing its quick tricks (a pile it collects, a
        pair the other side cannot stop; where the spans follow the tens, those that fall in the
        cashed tricks, _fallen). The answer when that decides (no card relevant but the cashed
        ones)."""
        self._pile_span(0, 0, 0)
        if self.span_hi < t:
            return FALSE << RES
        if self.span_lo >= t:
            return TRUE << RES
        found = self._owed(self._sure_pair(), 2, t)
        if found >> RES == UNDECIDED:
            found = self._owed(self._sure_last(), 1, t)
        if found >> RES != UNDECIDED:
            return found
        q = self._cash(self.leader, 0)
        if not q:
            return UNDECIDED << RES
        # the leader cashes its top cards in the order it likes: its aces first, or last
        c = self._cash_aces() if self._aces_matter() else 0
        fell = self._fallen(self.leader, -1) if self.follow else 0  # the tens that fall in them
        self._pile_span_at(self.leader + 1, q, c, -1, 0, fell)
        lo = self.span_lo
        hi = self.span_hi
        if c and c < q:
            self._pile_span_at(self.leader + 1, q, c | 16, -1, 0, fell)
            lo = max(lo, self.span_lo)
            hi = min(hi, self.span_hi)
        if (self.leader & 1) == self.team:
            if lo >= t:
                return TRUE << RES | self.cash_rel
        elif hi < t:
            return FALSE << RES | self.cash_rel
        return UNDECIDED << RES

    def _owed(self, owe, need, t):
        """_pile_bound's answer where team owe - 1 (0: none) surely collects `need` more tricks
        by trick 13 (_sure_pair, _sure_last): the sequences of trick winners where it does, or
        the deal ends before (cash_rel: the cards that make it sure)."""
        if owe and self._pile_span(0, 0, owe << 5 | need << 7):
            # the owing team may be held to a worse end, never its opponents to a better one
            if owe - 1 == self.team:
                if self.span_lo >= t:
                    return TRUE << RES | self.cash_rel
            elif self.span_hi < t:
                return FALSE << RES | self.cash_rel
        return UNDECIDED << RES

    def _sure_pair(self):
        """pile.collect: a seat holding the n >= 2 top trumps (the trump known) wins every trick
        it plays one of them in, and is then on lead: leading the next, it wins two in a row, a
        pair, whenever it first plays one (highest first), unless an option blocks every pair of
        that run (pile_blocked); a run reaching trick 13 takes the rest. So its team collects
        two more tricks at least, whatever the others do, unless the deal ends before trick 13
        (only where every trick is played, or the deal ends at seven collected against one or
        more): that team + 1 (0: no such seat; cash_rel: those trumps)."""
        tr = self.trump
        if not self.r.pile or self.r.settled or (self.r.end != END_PILE and self.r.end != END_THIRTEEN) \
                or tr < 0 or self.hidden:
            return 0
        at = self.alive[tr]
        if self.bits[at] < 2:
            return 0
        holder = self._trump_holder()
        n = self._top_run(self.h[holder * 4 + tr], at)
        if n < 2:
            return 0
        j = 0
        for j in range(self.number, 14 - n):  # the run's first trick j; from 14 - n on it reaches trick 13
            a = at
            last_ace = 1 if self.high[a] == ACE else 0
            a ^= 1 << self.high[a]
            k = 0
            for k in range(1, n):
                rank = self.high[a]
                if not pile_blocked(self.r, j + k, rank, tr, tr, last_ace):
                    break
                last_ace = 1 if rank == ACE else 0
                a ^= 1 << rank
            else:
                return 0
        self.cash_rel = self._top_mask(tr, at, n)
        return (holder & 1) + 1

    def _sure_last(self):
        """pile.last-trick: the seat H holding the highest trump still out (the trump known to
        the search, face down or not), with more trumps than the other three seats together,
        keeps it to trick 13 and wins that trick, so its team collects one more trick at
        least, unless the deal ends before. H plays any other legal card before trick 13: a
        card of another suit while it holds one (it follows suit, or discards when void: no
        obligation to trump but after its own ask, which it never makes), and a lower trump
        when a trump is led by another seat: each such lead takes one of the others' trumps
        and one of H's lower ones, so H still holds as many lower trumps as the others hold
        trumps; once it holds trumps alone, it holds one card a trick left, the highest for
        the last. At trick 13 the highest trump wins whoever led what: the suit led, or H
        void asks for the face-down trump (trump.hidden.ask) and plays it as a trump, or,
        being the caller, shows it as its 13th card (R-6); no trump was one before it was
        shown. While the trump lies face down only under trump.hidden (no obligation but the
        asker's), and then for the caller only when the highest trump is the face-down card
        (else its 13th card is that one). That team + 1 (0: none; cash_rel: that card)."""
        hidden = self.hidden
        tr = self.secret if hidden else self.trump
        if not self.r.pile or self.r.settled or (self.r.end != END_PILE and self.r.end != END_THIRTEEN) \
                or tr < 0 or (hidden and (not self.r.hidden_mode or self.r.pairs)):
            return 0
        at = self.alive[tr]
        if not at:
            return 0
        top = self.high[at]
        holder = self._holder(tr, top)
        mine = self.bits[self.h[holder * 4 + tr]]
        if hidden and holder == self.r.caller:
            if self.hsuit != tr or self.hrank != top:
                return 0
            mine += 1  # the face-down card
        if mine - 1 < self.bits[at] - mine:
            return 0
        self.cash_rel = self._top_mask(tr, at, 1)
        return (holder & 1) + 1

    def _cash_aces(self):
        """How many of the tricks the last _cash counted are won by an ace (a suit's top card
        is its ace while the ace is out)."""
        c = 0
        s = 0
        for s in range(4):
            if (self.cash_counts >> s) & 1 and (self.alive[s] >> ACE) & 1:
                c += 1
        return c
