# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""Quick tricks for the core search (core.py), as DDS counts them (QuickTricks.cpp, LaterTricks.cpp):
the tricks a seat on lead takes at once with its top cards (`_cash`, which core_bounds'
bounds build on too), and where every trick is played and counts one (the bridge question),
the answer they give at a trick's start (`_sure`: the leader's cashes, those after its top
trumps draw the opponents' (`_drawn`), its partner's after an entry, a ruff by the partner,
the trumps above the other team's, a trick the leader's team cannot win) and at the second hand (`_second`: a trick a team surely wins)."""
from .core_codes import DEAL_TRICKS, END_THIRTEEN, FALSE, RES, TRICKS, TRUE, UNDECIDED
from .core_spans import Spans


class Quick(Spans):
    """Quick tricks, for the core search (core.Search)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.cash_rel = 0
        self.cash_counts = 0
        self.cash_n = [0] * 4
        self.drawn_trumps = 0
        self.trumps_rel = 0
        self.trumps_n = [0] * 4
        self.trumps_of = [0] * 4
        # every trick is played and counts one (the bridge question): _sure and _second hold
        self.bridge = 1 if (objective == TRICKS or (objective == DEAL_TRICKS and self.r.end == END_THIRTEEN
                                                    and not self.r.settled)) and not self.r.pile else 0

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
            self.cash_n[s] = 0
            if not m:
                continue
            n = self._top_run(m, self.alive[s])
            if n and s != tr and ruff:
                n = min(n, self.bits[self.h[o1 + s]], self.bits[self.h[o2 + s]])
            if n and partner_ruffs and (s != tr or follows):
                n = min(n, self.bits[self.h[p + s]])
            self.cash_n[s] = n
            if n:
                q += n
                counts |= 1 << s
                rel |= self._top_mask(s, self.alive[s], n)
        self.cash_rel = rel
        self.cash_counts = counts
        return q

    def _sure(self, t):
        """The answer when sure tricks decide it, with the cards that make them: each team's
        trumps (_trumps); the leader's quick tricks, its own and then the partner's after a
        lead to the partner's top card, in the side suits and then its team's trumps (no trump
        falls in a side suit cashed: the opponents follow it while they hold a trump, the
        partner while it holds one), with a side suit the partner ruffs (_ruff_trick) where
        the leader cashes alone; the leader's cashes after its top trumps draw the opponents'
        (_drawn). UNDECIDED when they do not."""
        left = 14 - self.number
        team = self.team
        tr = self.trump
        have = 1 if tr >= 0 and not self.hidden and self.alive[tr] else 0
        if have:
            self._trumps()
            if self._team_trumps(team) >= t:
                return TRUE << RES | self.trumps_rel
            if left - self._team_trumps(1 - team) < t:
                return FALSE << RES | self.trumps_rel
        leader = self.leader
        partner = (leader + 2) & 3
        ours = (leader & 1) == team
        if ((t >= left) if ours else (t <= 1)) and self._lost_lead():
            return (FALSE if ours else TRUE) << RES | self.trumps_rel
        q = self._cash(leader, 0)
        need = t if ours else left - t + 1  # the leader's team's tricks that decide it
        if q >= need:
            return (TRUE if ours else FALSE) << RES | self._fewest(need, leader)
        rel = self.cash_rel
        if have:
            n = self.trumps_n[leader] + self._ruff_trick(leader)
            seat = leader if n >= self.trumps_n[partner] else partner  # the seat whose trumps count
            n = max(n, self.trumps_n[partner])
            if n > self.cash_n[tr]:
                q += n - self.cash_n[tr]
                rel |= self.trumps_of[seat]
        if q >= need:
            return (TRUE if ours else FALSE) << RES | rel
        if have and not self.lmt:
            q = self._drawn(leader)
            if q >= need:
                return (TRUE if ours else FALSE) << RES | self.cash_rel | self._fewest(need - self.drawn_trumps, leader)
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
            more_tr = self.cash_n[tr] if tr >= 0 else 0
            if self.cash_counts & entries:
                own = self._cash(leader, 1)
                q = own + more
                rel = self.cash_rel | more_rel
                if have:
                    n = max(self.trumps_n[leader], self.trumps_n[partner])
                    if n > self.cash_n[tr] + more_tr:
                        q += n - self.cash_n[tr] - more_tr
                        rel |= self.trumps_of[leader] | self.trumps_of[partner]
                if (q >= t) if ours else (left - q < t):
                    return (TRUE if ours else FALSE) << RES | rel
        return UNDECIDED << RES

    def _fewest(self, need, seat):
        """After _cash or _drawn (cash_n: the tricks counted in each suit): the top cards of the
        fewest of those tricks that make `need`, the largest counts first (as DDS's
        QuickTricks stops counting once the target is reached). Each suit's count stands
        alone (it holds whatever is cashed before it: the lengths it was cut to are the table
        key's), and so do the top k of its cards: so the answer holds wherever those cards lie
        with the same seats, and the table's entry then matches more positions than with
        every counted card. A count beyond the seat's top run (its long cards) needs the run."""
        rel = 0
        used = 0
        b = seat * 4
        while need > 0:
            best = -1
            s = 0
            for s in range(4):
                if not (used >> s) & 1 and self.cash_n[s] and (best < 0 or self.cash_n[s] > self.cash_n[best]):
                    best = s
            used |= 1 << best
            k = need if need < self.cash_n[best] else self.cash_n[best]
            run = self._top_run(self.h[b + best], self.alive[best])
            rel |= self._top_mask(best, self.alive[best], k if k < run else run)
            need -= k
        return rel

    def _drawn(self, seat):
        """The tricks `seat`, on lead with the trump known, takes at once when its run of the
        highest trumps (T of them) is as long as each opponent's trumps: it leads those T
        first, each wins (no one holds a higher trump, and whoever holds a trump must follow
        with one), and after them neither opponent holds a trump and the partner holds P - T
        at most (P: its trumps now). Then in each side suit its run of top cards wins a trick a
        card (no opponent can ruff; the partner can, so where the partner still holds a trump,
        only as many as the partner follows to: a ruff it must make would take the lead), and
        all the seat's cards of the suit where no other seat holds more of it than that run
        (after the run they are out of it, and none can ruff). Then the seat's other trumps
        where P <= T (no one else holds a trump: each wins). The lengths are the table key's;
        cash_rel: the top trumps that draw (each side suit's count in cash_n, the trump tricks
        in drawn_trumps: _fewest then finds the side suits' cards the answer needs)."""
        tr = self.trump
        b = seat * 4
        o1 = ((seat + 1) & 3) * 4
        o2 = ((seat + 3) & 3) * 4
        p = ((seat + 2) & 3) * 4
        top = self._top_run(self.h[b + tr], self.alive[tr])
        if self.bits[self.h[o1 + tr]] > top or self.bits[self.h[o2 + tr]] > top:
            return 0
        q = top
        partner_trumps = self.bits[self.h[p + tr]] > top
        if not partner_trumps:
            q = self.bits[self.h[b + tr]]
        self.cash_rel = self._top_mask(tr, self.alive[tr], top)
        self.drawn_trumps = q  # and cash_n: each side suit's tricks
        s = 0
        for s in range(4):
            m = self.h[b + s]
            self.cash_n[s] = 0
            if s == tr or not m:
                continue
            n = self._top_run(m, self.alive[s])
            if not n:
                continue
            if partner_trumps:
                n = min(n, self.bits[self.h[p + s]])
            elif (self.bits[self.h[o1 + s]] <= n and self.bits[self.h[o2 + s]] <= n
                  and self.bits[self.h[p + s]] <= n):
                n = self.bits[m]
            self.cash_n[s] = n
            q += n
        return q

    def _trumps(self):
        """Every trick played, the trump known: each seat's sure trump tricks (trumps_n, and
        trumps_of: the cards they depend on, the lengths apart). Its k highest trumps fall in
        k tricks of their own, each won by its team unless a higher trump of the other team
        falls in it, each of those in one trick: k less the other team's trumps above its
        k-th, at best over k (all its trumps where the other team holds none)."""
        tr = self.trump
        seat = 0
        for seat in range(4):
            o = self.h[((seat + 1) & 3) * 4 + tr] | self.h[((seat + 3) & 3) * 4 + tr]
            m = self.h[seat * 4 + tr]
            best = 0
            rel = 0
            if not o:
                best = self.bits[m]
            k = 0
            while m and o:
                x = self.high[m]
                m ^= 1 << x
                k += 1
                if k - self.bits[o >> (x + 1)] > best:
                    best = k - self.bits[o >> (x + 1)]
                    rel = self.up[tr * 13 + x]
            self.trumps_n[seat] = best
            self.trumps_of[seat] = rel
        return 0

    def _team_trumps(self, team):
        """The sure trump tricks of `team`: the larger of its two seats' (trumps_rel: their cards)."""
        seat = team if self.trumps_n[team] >= self.trumps_n[team + 2] else team + 2
        self.trumps_rel = self.trumps_of[seat]
        return self.trumps_n[seat]

    def _ruff_trick(self, leader):
        """After the leader's cash (_cash: cash_n), 1 when it still holds a side suit its
        partner, holding a trump, is out of, and each opponent still holds that suit or no
        trump: led, the partner's ruff wins it (the lengths alone). The partner keeps its
        trumps while the leader cashes (it follows or discards another suit)."""
        tr = self.trump
        b = leader * 4
        p = ((leader + 2) & 3) * 4
        o1 = ((leader + 1) & 3) * 4
        o2 = ((leader + 3) & 3) * 4
        if not self.h[p + tr]:
            return 0
        s = 0
        for s in range(4):
            n = self.cash_n[s]
            if s != tr and self.bits[self.h[b + s]] > n and not self.h[p + s] \
                    and (self.bits[self.h[o1 + s]] > n or not self.h[o1 + tr]) \
                    and (self.bits[self.h[o2 + s]] > n or not self.h[o2 + tr]):
                return 1
        return 0

    def _trump_settled(self):
        """The trump is known and face up, or there is none for good (not a first-void game
        before its first show-out): what the quick tricks of a trick in play assume."""
        return not self.hidden and (self.trump >= 0 or not self.r.first_void)

    def _lost_lead(self):
        """Every trick played, the trump known or none: the leader's team loses this trick when
        in every suit the leader holds an opponent holds the top card and the partner cannot
        ruff it (the suit is the trump, or the partner holds it or no trump): that opponent
        plays it. trumps_rel: those top cards."""
        if not self._trump_settled():
            return 0
        tr = self.trump
        b = self.leader * 4
        p = ((self.leader + 2) & 3) * 4
        rel = 0
        s = 0
        for s in range(4):
            if not self.h[b + s]:
                continue
            top = self.high[self.alive[s]]
            if ((self.h[p + s] | self.h[b + s]) >> top) & 1:
                return 0
            if tr >= 0 and s != tr and not self.h[p + s] and self.h[p + tr]:
                return 0
            rel |= self.up[s * 13 + top]
        self.trumps_rel = rel
        return 1

    def _second(self, t):
        """Second hand to play, every trick played, the trump known (or none for good): a team
        surely wins this trick when no seat of the other team to play can ruff it (each holds
        the suit led or no trump) and one of its own can, or its highest card of the suit (the
        lead among the leader's team's) is above the other team's. That team then takes one
        trick at least: the answer when that decides (the card it wins with; a ruff depends on
        the lengths alone)."""
        left = 14 - self.number
        seat = (self.leader + 1) & 3
        if t > 1 and left - 1 >= t:
            return UNDECIDED << RES
        s = self.tsuit[self.tb]
        b2 = seat * 4
        b3 = ((seat + 1) & 3) * 4
        b4 = ((seat + 2) & 3) * 4
        ruff2 = self._ruffs(b2, s)
        ruff3 = self._ruffs(b3, s)
        ruff4 = self._ruffs(b4, s)
        ours = self.h[b2 + s] | self.h[b4 + s]
        theirs = self.h[b3 + s] | 1 << self.trank[self.tb]
        side = -1
        rel = 0
        if not ruff3 and (ruff2 or ruff4 or self.high[ours] > self.high[theirs]):
            side = seat & 1
            if not (ruff2 or ruff4):
                rel = self.up[s * 13 + self.high[ours]]
        elif not ruff2 and not ruff4 and (ruff3 or self.high[theirs] > self.high[ours]):
            side = 1 - (seat & 1)
            if not ruff3:
                rel = self.up[s * 13 + self.high[theirs]]
        if side < 0 or ((t > 1) if side == self.team else (left - 1 >= t)):
            return UNDECIDED << RES
        return (TRUE if side == self.team else FALSE) << RES | rel

    def _ruffs(self, b, s):
        """The seat at b * 4 can ruff a trick led in suit s (it holds none of it, and a trump)."""
        tr = self.trump
        return 1 if tr >= 0 and s != tr and not self.h[b + s] and self.h[b + tr] else 0

    def _trump_holder(self):
        """The seat holding the highest trump still out (the trump known); -1: none out."""
        at = self.alive[self.trump]
        return self._holder(self.trump, self.high[at]) if at else -1
