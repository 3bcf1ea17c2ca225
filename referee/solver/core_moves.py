# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The core search's moves (core.py): what the seat to play may play, one card per run of
touching cards, asks and reveals where the rules make them moves, likely best first."""
from .core_codes import L_HIDDEN, LEAD_SUIT, LEAD_WEIGHT, OTHER_SUIT, REVEAL
from .core_kernel_play import legal_suits, may_reveal
from .core_trick import Trick


class Moves(Trick):
    """The moves of the seat to play, for the core search (core.Search)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.spec = [0] * 4
        self.mv = [0] * 1024
        self.glo = [0] * 16
        self.ghi = [0] * 16
        self.sortkey = [0] * 16

    def _groups(self, m, a, s):
        """The seat's cards `m` of suit s as runs of touching cards (no card still in play
        between them, none a card some rule looks at), low to high, into glo/ghi."""
        n = 0
        prev = -1
        spec = self.spec[s]
        while m:
            r = self.low[m]
            m ^= 1 << r
            if (prev >= 0 and not (spec >> r) & 1 and not (spec >> prev) & 1
                    and not (a >> (prev + 1)) & ((1 << (r - prev - 1)) - 1)):
                self.ghi[n - 1] = r
            else:
                self.glo[n] = r
                self.ghi[n] = r
                n += 1
            prev = r
        return n

    def _special(self, s, r):
        """Is this a card some rule looks at (a ten, an ace, the face-down trump)?"""
        return (self.specials >> r) & 1 or (self.hidden and s == self.hsuit and r == self.hrank)

    def _set_specials(self):
        s = 0
        for s in range(4):
            self.spec[s] = self.specials & self.alive[s]
        if self.hidden:
            self.spec[self.hsuit] |= 1 << self.hrank

    def _add(self, base, n, key, move):
        """Insert `move` into the move list at base by `key` (stable, ascending)."""
        i = n
        while i > 0 and self.sortkey[i - 1] > key:
            self.sortkey[i] = self.sortkey[i - 1]
            self.mv[base + i] = self.mv[base + i - 1]
            i -= 1
        self.sortkey[i] = key
        self.mv[base + i] = move
        return n + 1

    def _gen(self, ply, hint, best):
        """The moves worth trying for the seat to play, likely best first, into mv[ply*16:];
        their number. `hint`: the table's move for this position (a lead weighs it, as
        `best`, the lead that last cut at this ply; any other move is tried first)."""
        self._set_specials()
        seat = (self.leader + self.tk) & 3
        base = ply * 16
        if self.tk == 0:
            n = self._leads(seat, base, hint, best)
        else:
            n = self._follows(seat, base)
        if self.hidden and may_reveal(self.r, seat, self.tk == 0, self.tk > 0 and self.h[seat * 4 + self.tsuit[self.tb + 0]] != 0):
            i = n
            if self.r.hidden_mode:
                # Hidden Rung: the ask or the show first (no pair collects while the trump lies
                # face down; searched last, the lines that keep it down cost the most)
                while i > 0:
                    self.mv[base + i] = self.mv[base + i - 1]
                    i -= 1
            self.mv[base + i] = REVEAL
            n += 1
        if hint >= 0 and n > 1 and (self.tk or hint == REVEAL):
            i = 0
            for i in range(1, n):
                if self.mv[base + i] == hint:
                    while i > 0:
                        self.mv[base + i] = self.mv[base + i - 1]
                        i -= 1
                    self.mv[base] = hint
                    break
        return n

    def _allowed(self, seat, lead, led):
        """What the seat may play (the kernel's legal_suits): its suits (bits 0-3) and
        L_HIDDEN, the face-down card."""
        b = seat * 4
        held = ((1 if self.h[b] else 0) | (2 if self.h[b + 1] else 0) | (4 if self.h[b + 2] else 0)
                | (8 if self.h[b + 3] else 0))
        return legal_suits(self.r, seat, lead, led, held, self.trump, self.hsuit if self.hidden else -1, self.lmt,
                           self.asker, self.must_trump)

    def _leads(self, seat, base, hint, best):
        """Leads, one per run, weighted as DDS weighs them (Moves.cpp, WeightAllocTrump0):
        a suit where the opponents have few cards to choose from, the partner can ruff or
        holds the top, no opponent ruffs or sits over it with a high card; a lead that wins
        the trick before one that does not, high from a top sequence, low otherwise."""
        allowed = self._allowed(seat, 1, -1)
        if allowed == L_HIDDEN:
            self.mv[base] = self.hsuit * 13 + self.hrank
            return 1
        b = seat * 4
        tr = self.trump if not self.hidden else -1
        lho = (seat + 1) & 3
        partner = (seat + 2) & 3
        rho = (seat + 3) & 3
        n = 0
        s = 0
        for s in range(4):
            m = self.h[b + s]
            if not (allowed >> s) & 1:
                continue
            a = self.alive[s]
            g = self._groups(m, a, s)
            top = self.high[a]
            first = self._holder(s, top)
            second = self._holder(s, self.high[a ^ (1 << top)]) if self.bits[a] > 1 else -1
            lh = self.bits[self.h[lho * 4 + s]]
            rh = self.bits[self.h[rho * 4 + s]]
            ph = self.bits[self.h[partner * 4 + s]]
            side = tr >= 0 and s != tr
            lho_ruffs = side and not lh and self.h[lho * 4 + tr]
            rho_ruffs = side and not rh and self.h[rho * 4 + tr]
            partner_ruffs = side and not ph and self.h[partner * 4 + tr]
            left = 14 - self.number  # a void opponent may throw any card: as many as tricks left
            delta = -((((left if lh == 0 else lh) + (left if rh == 0 else rh)) << 7) // 13)
            if lho_ruffs or rho_ruffs:
                delta -= 12
            if partner_ruffs and rh:
                delta += 17
            if first == rho or second == rho:
                if rh != 1:
                    delta -= 12
            elif first == lho and second == partner and ph != 1:
                delta += 27
            if side and self.bits[m] == 1 and self.h[b + tr] and ph > 1 and first == partner:
                delta += 19  # lead the singleton to the partner's winner, for a ruff back
            opp_high = self.high[self.h[lho * 4 + s] | self.h[rho * 4 + s]]
            sec = self.high[a ^ (1 << top)] if self.bits[a] > 1 else -1
            third = self._holder(s, self.high[a ^ (1 << top) ^ (1 << sec)]) if self.bits[a] > 2 else -1
            nw = delta  # a lead that loses the trick: better where the side holds the next two
            if second == partner and third == partner:
                nw += 20
            elif ph > 1 and ((second == seat and third == partner) or (second == partner and third == seat)):
                nw += 13
            i = 0
            for i in range(g):
                r = self.glo[i]
                hi = self.ghi[i]
                rank = self.bits[a & ((1 << r) - 1)]  # the card's place among the suit's cards still out
                safe = not lho_ruffs and not rho_ruffs
                if hi == top:
                    wins = not side or (safe and (ph or not self.h[partner * 4 + tr]))
                elif self.high[self.h[partner * 4 + s]] > opp_high:
                    wins = not side or safe
                else:
                    wins = partner_ruffs and safe
                if wins:
                    if (lh == 1 and first == lho) or (rh == 1 and first == rho):
                        w = delta + 35 + rank
                    elif first == seat:
                        w = delta + 48 + rank if second == partner else delta + 31 if hi == top else delta - 3 + rank
                    elif first == partner:
                        w = delta + 42 + rank if second == seat else delta + 28 + rank
                    elif hi > r:
                        w = delta + 40 if hi == sec else delta + 22 + rank
                    else:
                        w = delta + 11 + rank
                elif (lh == 1 and first == lho) or (rh == 1 and first == rho):
                    w = nw + rank + 2
                elif first == seat:
                    w = nw + 33 + rank if second == partner else nw + 38 if hi == top else nw - 14 + rank
                elif first == partner:
                    w = nw + 34 + rank
                elif hi > r and hi == sec:
                    w = nw + 35  # from the second and third best: the next round's top
                else:
                    w = nw + 17 - r
                if s * 13 + r == best:  # DDS: the move that last cut here, the table's
                    w += 55 if wins else 18
                elif s * 13 + r == hint and wins:
                    w += 18
                n = self._add(base, n, (200 - w) << LEAD_WEIGHT | s << LEAD_SUIT | r, s * 13 + r)
        return n

    def _holder(self, s, r):
        """The seat holding suit s's card of rank r (the caller for the face-down card)."""
        seat = 0
        while seat < 4 and not (self.h[seat * 4 + s] >> r) & 1:
            seat += 1
        return self.r.caller if seat == 4 else seat

    def _follows(self, seat, base):
        """Follows, weighted as DDS weighs them (Moves.cpp, WeightAlloc*123): in the led suit,
        a card that wins the trick against every seat still to play, the cheapest such first,
        else low (the second hand covers); out of it, a ruff that wins before a discard, a
        discard from a long suit before one that bares a high card."""
        b = seat * 4
        led = self.tsuit[self.tb + 0]
        allowed = self._allowed(seat, 0, led)
        wk = self._winner()
        ws = self.tseat[self.tb + wk]
        wsu = self.tsuit[self.tb + wk]
        wr = self.trank[self.tb + wk]
        ours = (ws & 1) == (seat & 1)
        n = 0
        i = 0
        if allowed == 1 << led:
            need = self._need(seat, led, wsu, wr, ours)
            force = self._force(led, wk) if self.tk == 2 and need == 13 and self.trump >= 0 and not self.hidden else -1
            g = self._groups(self.h[b + led], self.alive[led], led)
            for i in range(g):
                r = self.glo[i]
                key = r + (20 if r <= need else 0)
                if force >= 0 and r > force and (i == 0 or self.glo[i - 1] <= force):
                    key = -1
                n = self._add(base, n, key, led * 13 + r)
            return n
        if allowed == L_HIDDEN:  # the face-down card: the caller's last, or it follows suit
            self.mv[base] = self.hsuit * 13 + self.hrank
            return 1
        tr = self.trump
        s = 0
        for s in range(4):
            m = self.h[b + s] if (allowed >> s) & 1 else 0
            if allowed & L_HIDDEN and s == self.hsuit:
                m |= 1 << self.hrank
            if not m:
                continue
            g = self._groups(m, self.alive[s], s)
            kx = 1 if self.bits[m] == 2 and self.bits[self.alive[s]] > 1 and self._holder(
                s, self.high[self.alive[s] ^ (1 << self.high[self.alive[s]])]) == seat else 0
            keep = (self.bits[m] << 6) // 24  # discard from a long suit, not from Kx or a bare top card
            if kx or (self.bits[m] == 1 and self.high[self.alive[s]] == self.high[m]):
                keep -= 3
            for i in range(g):
                r = self.glo[i]
                if tr >= 0 and not self.hidden and self.tk == 1:
                    w = self._void_second(s, r, m, led, kx)
                elif tr >= 0 and not self.hidden and self.tk == 2:
                    w = self._void_third(s, r, m, led, wk)
                elif s == tr and tr >= 0:
                    if ours:
                        w = 2 - r
                    elif wsu == tr:
                        w = 33 - r if r > wr else -13 - r
                    else:
                        w = 33 - r
                else:
                    w = (25 if ours else 14) - r + keep
                n = self._add(base, n, (100 - w) << OTHER_SUIT | s, s * 13 + r)
        return n

    def _void_second(self, s, r, m, led, kx):
        """Second hand out of the suit led, the trump known, as DDS weighs it (Moves.cpp,
        WeightAllocTrumpVoid1): a discard first where the partner (fourth) wins the trick
        anyway (its card of the suit above the others', or a ruff the third hand cannot
        follow to beat), else a ruff, high enough that the third hand cannot overruff; a
        discard from a long suit, not from Kx (`kx`: 1 where the seat's two cards of s are Kx)."""
        tr = self.trump
        lead = self.trank[self.tb]
        t3 = self.h[((self.leader + 2) & 3) * 4 + tr]
        t4 = self.h[((self.leader + 3) & 3) * 4 + tr]
        l3 = self.h[((self.leader + 2) & 3) * 4 + led]
        l4 = self.h[((self.leader + 3) & 3) * 4 + led]
        cnt = self.bits[m]
        if led == tr:
            if l4 > (l3 | 1 << lead):
                return -r + (cnt << 6) // 44
            return -r + (cnt << 6) // 36 - 4 * kx
        if s != tr:
            if l3:
                good = l4 > (l3 | 1 << lead) or (not l4 and t4)
            else:
                good = (not l4 and t4 > t3) or (not t3 and l4 > (1 << lead))
            if good:
                return 60 - r + (cnt << 6) // 44
            return -2 - r + (cnt << 6) // 36 - 4 * kx
        if l3 or (not l4 and t4 > t3) or (1 << r) > t3:
            return 24 - r + (cnt << 6) // 44
        return 15 - r + (cnt << 6) // 36 - 4 * kx

    def _void_third(self, s, r, m, led, wk):
        """Third hand out of the suit led, the trump known, as DDS weighs it (Moves.cpp,
        WeightAllocTrumpVoid2): a discard from a long suit where it cannot ruff, or where the
        partner's lead beats the fourth hand for sure; else a ruff, low where the fourth hand
        follows, above the fourth hand's trumps where it can, and no underruff."""
        tr = self.trump
        cnt = self.bits[m]
        if led == tr or s != tr:
            return -r + (cnt << 6) // 40
        lead = self.trank[self.tb]
        l4 = self.h[((self.leader + 3) & 3) * 4 + led]
        t4 = self.h[((self.leader + 3) & 3) * 4 + tr]
        max4 = self.high[l4] if l4 else -1
        add = (cnt << 6) // 50
        if wk == 0 and lead > max4 and (l4 or not t4):
            return -r - 50
        if self.tsuit[self.tb + 1] == tr and r < self.trank[self.tb + 1]:
            return -32 + self.bits[self.alive[s] & ((1 << r) - 1)] + (cnt << 6) // 40
        if wk == 0:
            if l4:
                a = self.alive[led]
                second = self._holder(led, self.high[a ^ (1 << self.high[a])]) if self.bits[a] > 1 else -1
                return (36 if second == self.leader else 48) - r + add
            return (48 if (1 << r) > t4 else -12) - r + add
        if l4:
            return 72 - r + add
        return (48 if (1 << r) > t4 else 36) - r + add

    def _force(self, led, wk):
        """Third hand following suit, unable to win the trick: the rank its card must pass to
        force out the fourth hand's top card (its next card below the top's run), as DDS's
        RankForcesAce finds it; or to beat the second hand's card where that is winning; -1: none."""
        l4 = self.h[((self.leader + 3) & 3) * 4 + led]
        if wk == 0 and self.trank[self.tb] > (self.high[l4] if l4 else -1):
            return -1  # the partner's lead wins it: low
        if self.tsuit[self.tb + 1] != led and wk == 1:
            return -1  # ruffed
        g = self._groups(l4, self.alive[led], led)
        if g < 2:
            return -1
        second = self.ghi[g - 2]
        mine = self.h[((self.leader + 2) & 3) * 4 + led]
        if second > (self.trank[self.tb + 1] if self.tsuit[self.tb + 1] == led else -1):
            return second if self.high[mine] > second else -1
        if wk == 1:
            return self.trank[self.tb + 1] if self.high[mine] > self.trank[self.tb + 1] else -1
        return -1

    def _need(self, seat, led, wsu, wr, ours):
        """Following the led suit: the rank a card must pass to be tried first (it wins the
        trick against the seats still to play, as far as their cards of the suit show), or
        13 where playing low comes first."""
        if wsu != led:
            return 13  # trumped: the suit's cards cannot win it
        opp = -1
        part = -1
        k = 0
        for k in range(self.tk + 1, 4):
            other = (self.leader + k) & 3
            m = self.h[other * 4 + led]
            hi = self.high[m] if m else -1
            if (other & 1) == (seat & 1):
                part = hi
            elif hi > opp:
                opp = hi
        top = wr if wr > opp else opp
        if (ours and wr > opp) or part > top:
            return 13  # the partner wins it anyway: low
        if self.high[self.h[seat * 4 + led]] > top:
            return top
        return 13  # cannot win it: low

    def legal(self):
        """Every legal move of the seat to play, each with its twin (the lowest card of its
        run of touching cards, which is worth the same), in the move generator's order."""
        ply = self.depth
        n = self._gen(ply, -1, -1)
        out = []
        seat = (self.leader + self.tk) & 3
        i = 0
        for i in range(n):
            m = self.mv[ply * 16 + i]
            s = m // 13
            r = m % 13
            if m == REVEAL or (self.hidden and s == self.hsuit and r == self.hrank):
                out.append((m, m))
                continue
            held = self.h[seat * 4 + s]
            g = self._groups(held, self.alive[s], s)
            j = 0
            for j in range(g):
                if self.glo[j] == r:
                    c = r
                    for c in range(r, self.ghi[j] + 1):
                        if (held >> c) & 1:
                            out.append((s * 13 + c, m))
        return out
