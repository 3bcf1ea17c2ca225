"""The double-dummy core: objective `tricks`, tricks taken at once, the trump known.

This is the bridge double-dummy question, and it is searched the way DDS searches it:
"can the perspective team take at least t of the remaining tricks?" (a yes/no search;
values come from a few such tests), with, at each trick's start:

- quick tricks: the leader's side cashes its top cards (FastGame's count), and the top
  trumps of whoever holds the highest one win a trick each;
- a transposition table with *relevant ranks* (partition search, as DDS's winning ranks):
  each answer records which cards it depended on (a trick won by rank over a card of its
  suit, the cards of a quick trick), and holds for every position with the same suit
  lengths per seat, the same leader and the same owners of those cards and every higher
  remaining one, whatever the lower cards are;
- the best lead found before tried first.

The search walks FastGame's bit masks (`h`, `alive`, `table`, `win`, `leader`, `left`)
and its move generation; the tests check every value against DDS and the engine.
"""
from __future__ import annotations

# UP[s][r]: the bits of suit s's ranks r..12 in a 52-bit mask (suit s at bits 13s..13s+12)
UP = [[((8191 >> r) << r) << (13 * s) for r in range(13)] for s in range(4)]
# One card of seat*4+suit in the packed suit lengths (4 bits each).
ONE = [1 << (4 * i) for i in range(16)]
BUCKET = 16  # table entries kept per (leader, suit lengths) and kind of bound


class TrickSearch:
    """One solve's yes/no double-dummy search over `game`'s position (a FastGame)."""

    def __init__(self, game):
        self.g = game
        self.ctx = game.ctx
        self.team = game.team
        self.buckets: dict = {}
        self.hints: dict = {}
        self._codes: dict = {}
        self._tops: dict = {}
        self._follows: dict = {}
        self.lens = 0

    # -- values from yes/no tests -------------------------------------------------------

    def window(self, alpha: int, beta: int) -> int:
        """The value clipped to [alpha, beta] (fail-hard), for the alpha-beta callers."""
        self.lens = sum(self.g.h[i].bit_count() << (4 * i) for i in range(16))
        if beta <= alpha + 1:
            return beta if self.test(beta) else beta - 1
        if not self.test(alpha + 1):
            return alpha
        if self.test(beta):
            return beta
        lo, hi = alpha + 1, beta - 1  # test(lo) holds, test(hi + 1) does not
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.test(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    def estimate(self) -> int:
        """A first guess for the null-window tests: the team's tricks when every seat plays
        the card the move ordering puts first (the position is left as it was)."""
        g = self.g
        h, tr, team = g.h, g.trump, self.team
        saved = (g.leader, g.table, g.win, g.left, list(g.alive))
        g.table = list(g.table)
        taken, played = 0, []
        while g.left:
            k = len(g.table)
            seat = (g.leader + k) & 3
            s, r = g._moves(seat, k)[0]
            h[seat * 4 + s] ^= 1 << r
            played.append((seat * 4 + s, 1 << r))
            g.table.append((seat, s, r))
            if k:
                ws, wsu, wr = g.win
                if r > wr if s == wsu else s == tr and wsu != s:
                    g.win = (seat, s, r)
            else:
                g.win = (seat, s, r)
            if k == 3:
                ws = g.win[0]
                for _, s, r in g.table:
                    g.alive[s] ^= 1 << r
                taken += (ws & 1) == team
                g.leader, g.table, g.left = ws, [], g.left - 1
        g.leader, g.table, g.win, g.left, alive = saved
        g.alive[:] = alive
        for i, bit in played:
            h[i] ^= bit
        return taken

    def test(self, t: int) -> bool:
        """Can the perspective team take at least `t` tricks from here (this one included)?"""
        if self.g.table:
            return self._card(t)[0]
        return self._start(t)[0]

    # -- a trick's start ----------------------------------------------------------------

    def _start(self, t: int):
        g = self.g
        left = g.left
        if t <= 0:
            return True, 0
        if t > left:
            return False, 0
        if left == 1:
            return self._last(t)
        sure = self._sure(g.leader, t)
        if sure is not None:
            return sure
        leader = g.leader
        h = g.h
        code = self._code
        codes = (code(h[0], h[4], h[8], h[12]), code(h[1], h[5], h[9], h[13]),
                 code(h[2], h[6], h[10], h[14]), code(h[3], h[7], h[11], h[15]))
        key = (leader, self.lens, g.trump)
        bucket = self.buckets.get(key)
        if bucket is not None:
            found = self._lookup(bucket, codes, t)
            if found is not None:
                return found
        ok, rel = self._card(t, (leader,) + codes)
        self._store(key, codes, ok, t, rel)
        return ok, rel

    def _sure(self, leader: int, t: int):
        """The answer when sure tricks decide it, with the cards that make them: the top
        trumps of whoever holds the highest one (each wins a trick of its own, whenever it
        is played), the leader's quick tricks, its own and then the partner's after a lead
        to the partner's top card. None when they do not decide."""
        g = self.g
        h, alive, tr, team, left = g.h, g.alive, g.trump, self.team, g.left
        at = alive[tr]
        if at:
            top = 1 << (at.bit_length() - 1)
            holder = 0 if h[tr] & top else 1 if h[4 + tr] & top else 2 if h[8 + tr] & top else 3
            n = g._top_run(h[holder * 4 + tr], at)
            if (n >= t) if (holder & 1) == team else (left - n < t):
                return (holder & 1) == team, self._top_mask(tr, at, n)
        ours = (leader & 1) == team
        q, rel, _ = self._cash(leader, False)
        if (q >= t) if ours else (left - q < t):
            return ours, rel
        partner = (leader + 2) & 3
        b, pb = leader * 4, partner * 4
        # a lead to the partner's top card, after the leader's own (the partner following)
        entries = [s for s in range(4) if h[b + s] and h[pb + s] >> (alive[s].bit_length() - 1)]
        if entries:
            more, more_rel, counts = self._cash(partner, False)
            if any(counts[s] for s in entries):
                own, own_rel, _ = self._cash(leader, True)
                q = own + more
                if (q >= t) if ours else (left - q < t):
                    return ours, own_rel | more_rel
        return None

    def _cash(self, seat: int, follows: bool):
        """The tricks `seat`, on lead, takes at once with its top cards, suit by suit: side
        suits first, as many as the opponents follow to when they hold a trump, and as many
        as the partner follows to when the partner holds one (never forced to trump; with
        `follows`, in every suit: the partner never discards). Then the top trumps."""
        g = self.g
        h, alive, b, tr = g.h, g.alive, seat * 4, g.trump
        o1, o2, p = ((seat + 1) & 3) * 4, ((seat + 3) & 3) * 4, ((seat + 2) & 3) * 4
        ruff, partner_ruffs = h[o1 + tr] | h[o2 + tr], follows or h[p + tr]
        q = rel = 0
        counts = [0, 0, 0, 0]
        top_run, top_mask = g._top_run, self._top_mask
        for s in range(4):
            m = h[b + s]
            if m:
                n = top_run(m, alive[s])
                if n and s != tr:
                    if ruff:
                        n = min(n, h[o1 + s].bit_count(), h[o2 + s].bit_count())
                if n and partner_ruffs and (s != tr or follows):
                    n = min(n, h[p + s].bit_count())
                if n:
                    q += n
                    counts[s] = n
                    rel |= top_mask(s, alive[s], n)
        return q, rel, counts

    def _top_mask(self, s: int, alive: int, n: int) -> int:
        """The suit's n highest remaining cards and every rank above (as UP masks)."""
        key = (s, alive, n)
        m = self._tops.get(key)
        if m is None:
            x = alive
            for _ in range(n - 1):
                x ^= 1 << (x.bit_length() - 1)
            m = self._tops[key] = UP[s][x.bit_length() - 1] if n else 0
        return m

    def _code(self, m0: int, m1: int, m2: int, m3: int) -> int:
        """The owners of a suit's remaining cards, high to low, one octal digit each after a
        leading 1: the same for positions that differ only in cards already played."""
        key = (m0, m1, m2, m3)
        c = self._codes.get(key)
        if c is None:
            c, every = 1, m0 | m1 | m2 | m3
            for r in range(12, -1, -1):
                b = 1 << r
                if every & b:
                    c = c * 8 + (0 if m0 & b else 1 if m1 & b else 2 if m2 & b else 3)
            self._codes[key] = c
        return c

    def _last(self, t: int):
        """One card each: the trick decides."""
        g = self.g
        h, leader, tr = g.h, g.leader, g.trump
        cards = []
        for k in range(4):
            b = ((leader + k) & 3) * 4
            s = 0 if h[b] else 1 if h[b + 1] else 2 if h[b + 2] else 3
            cards.append((s, h[b + s].bit_length() - 1))
        ws, (wsu, wr) = 0, cards[0]
        for k in (1, 2, 3):
            s, r = cards[k]
            if (s == wsu and r > wr) or (s == tr and wsu != tr):
                ws, wsu, wr = k, s, r
        rel = UP[wsu][wr] if any(s == wsu for k, (s, _) in enumerate(cards) if k != ws) else 0
        return (((leader + ws) & 1) == self.team) == (t <= 1), rel

    # -- the table ----------------------------------------------------------------------

    def _lookup(self, bucket, codes, t):
        c0, c1, c2, c3 = codes
        for e in bucket[0]:  # lower bounds: the team takes at least e[8]
            if e[8] >= t and c0 >> e[0] == e[1] and c1 >> e[2] == e[3] and c2 >> e[4] == e[5] \
                    and c3 >> e[6] == e[7]:
                return True, self._rel(e)
        for e in bucket[1]:  # upper bounds: the team takes fewer than e[8]
            if e[8] <= t and c0 >> e[0] == e[1] and c1 >> e[2] == e[3] and c2 >> e[4] == e[5] \
                    and c3 >> e[6] == e[7]:
                return False, self._rel(e)
        return None

    def _rel(self, e) -> int:
        alive, top = self.g.alive, self._top_mask
        return top(0, alive[0], e[9]) | top(1, alive[1], e[10]) | top(2, alive[2], e[11]) | top(3, alive[3], e[12])

    def _store(self, key, codes, ok: bool, t: int, rel: int) -> None:
        alive = self.g.alive
        shifts, counts = [], []
        for s in range(4):
            a = alive[s]
            n = (a & (rel >> (13 * s))).bit_count()
            sh = 3 * (a.bit_count() - n)
            shifts += (sh, codes[s] >> sh)
            counts.append(n)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 1_000_000:
                self.buckets.clear()
            bucket = self.buckets[key] = ([], [])
        kept = bucket[0 if ok else 1]
        if len(kept) >= BUCKET:
            del kept[0]
        kept.append((*shifts, t, *counts))

    # -- a card ---------------------------------------------------------------------------

    def _card(self, t: int, exact=None):
        """A seat plays each worthwhile card in turn: a yes for the team (any card) or a no
        (every card), and the cards the answer depended on."""
        g, ctx = self.g, self.ctx
        ctx.nodes += 1
        if not ctx.nodes & 1023:
            ctx.limit.check(ctx.nodes)
        table, h, tr = g.table, g.h, g.trump
        k = len(table)
        seat = (g.leader + k) & 3
        mine = (seat & 1) == self.team
        win = g.win
        if k:
            ws, wsu, wr = win
            led = table[0][1]
            m = h[seat * 4 + led]
            if m:  # following suit: the moves by the suit and the card to beat, remembered
                a = g.alive[led]
                fkey = (m, a, led, -1 if wsu != led or not (ws ^ seat) & 1 else wr)
                order = self._follows.get(fkey)
                if order is None:
                    order = self._follows[fkey] = g._moves(seat, k)
            else:
                order = g._moves(seat, k)
        else:
            order = self._leads(seat)
            hint = None if exact is None else self.hints.get(exact)
            if hint is not None and hint in order:
                order.remove(hint)
                order.insert(0, hint)
        if k == 3:
            return self._fourth(t, seat, mine, order)
        rel = 0
        for move in order:
            s, r = move
            bit, i = 1 << r, seat * 4 + s
            h[i] ^= bit
            self.lens -= ONE[i]
            table.append((seat, s, r))
            if not k or (r > wr if s == wsu else s == tr and wsu != s):
                g.win = (seat, s, r)
            ok, sub = self._card(t)
            g.win = win
            table.pop()
            h[i] ^= bit
            self.lens += ONE[i]
            if ok == mine:
                if exact is not None:
                    self.hints[exact] = move
                return ok, sub
            rel |= sub
        return not mine, rel

    def _leads(self, seat: int):
        """The leads worth trying (one per run of touching cards), likely best first: a
        suit the partner can take or ruff, then the leader's winners, then the rest; a
        suit an opponent ruffs last."""
        g = self.g
        h, alive, tr, group = g.h, g.alive, g.trump, g._group
        b = seat * 4
        lho, pb, rho = ((seat + 1) & 3) * 4, ((seat + 2) & 3) * 4, ((seat + 3) & 3) * 4
        scored = []
        for s in range(4):
            m = h[b + s]
            if not m:
                continue
            a = alive[s]
            runs = group(m, a)
            top = a.bit_length() - 1
            w = 0
            if s != tr:
                lv, rv = not h[lho + s], not h[rho + s]
                if (lv and h[lho + tr]) or (rv and h[rho + tr]):
                    w -= 4  # an opponent ruffs
                if not h[pb + s] and h[pb + tr]:
                    w += 3  # the partner ruffs
            if h[pb + s] >> top:
                w += 5  # the partner's top card: lead low to it
                first = runs[0][0]
            elif m >> top:
                w += 4  # the leader's own winner
                first = runs[-1][0]
            else:
                first = runs[0][0]
            scored.append((-w, s, first))
            for lo, _ in runs:
                if lo != first:
                    scored.append((10 - w, s, lo))
        scored.sort()
        return [(s, r) for _, s, r in scored]

    def _fourth(self, t: int, seat: int, mine: bool, order):
        """The fourth card, each in turn: the trick's winner leads the next; a win by rank
        (over another card of the winner's suit) makes the winning card and every higher
        one relevant."""
        g = self.g
        table, alive, h, tr, team = g.table, g.alive, g.h, g.trump, self.team
        ws, wsu, wr = g.win
        count = [0, 0, 0, 0]
        for _, s, r in table:
            alive[s] ^= 1 << r
            count[s] += 1
        leader = g.leader
        g.table = []
        g.left -= 1
        b = seat * 4
        rel = 0
        result = not mine
        for move in order:
            s, r = move
            bit, i = 1 << r, b + s
            h[i] ^= bit
            self.lens -= ONE[i]
            alive[s] ^= bit
            if r > wr if s == wsu else s == tr and wsu != s:
                w, add = seat, UP[s][r] if count[s] else 0
            else:
                w, add = ws, UP[wsu][wr] if count[wsu] + (s == wsu) > 1 else 0
            g.leader = w
            ok, sub = self._start(t - ((w & 1) == team))
            h[i] ^= bit
            self.lens += ONE[i]
            alive[s] ^= bit
            if ok == mine:
                result, rel = ok, sub | add
                break
            rel |= sub | add
        g.left += 1
        g.leader, g.table = leader, table
        for _, s, r in table:
            alive[s] ^= 1 << r
        return result, rel
