# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The one search of perfect play (§13), shaped as the bridge double-dummy solver DDS is.

One position: each seat's cards as 13-bit masks per suit, the trick on the table, and the
rule state (the trump: known, unset or still face down with the card set aside; tricks
and collected tricks per team, the pile and its run, tens taken, the deciding-pair run,
the first seven and a play-on). One move generator: touching cards are one move; asks and
reveals are moves where the rules make them moves; face-down discards are not moves apart
from the same card face up. One question, asked yes or no as DDS asks it: "does the
perspective team's value from here reach t?", for four objectives:

- TRICKS: every remaining trick played, whatever the deal's end; the tricks the team takes
  (collects, in pile games) from here: the bridge double-dummy number;
- DEAL_TRICKS: the same up to the deal's own end (a claim's g, R-34);
- SCORE: the deal's outcome for the team, encoded (outcome.py);
- EXACT: SCORE among the lines that give the team exactly kk more tricks (R-34a), with a
  third answer, NONE, where no line gives that count.

At each trick's start: sure tricks (bridge play only), and one transposition table keyed
by relative ranks plus the rule state, each answer holding for every position whose cards
that the answer depended on (and every higher one) have the same owners (DDS's winning
ranks). The R-4 play-on choice is one function (`_choice`).

This file is plain Python and is also compiled by Cython (its types are in core.pxd) when
the install finds a C compiler; both run the same code. It imports nothing: the rules'
option values come in as numbers (position.py reads them from the engine's replay), the
deal's scoring comes in as a function (`outcome`).
"""
from array import array

TRICKS = 0
DEAL_TRICKS = 1
SCORE = 2
EXACT = 3

FALSE = 0
TRUE = 1
NONE = 2
UNDECIDED = 3
RES = 60                 # a search's answer: code << RES | the cards it depended on
RELMASK = (1 << 52) - 1
LOWEST = -0x1FFFF        # below every value: test(LOWEST) asks only whether a line exists (EXACT)
REVEAL = 52              # the move "show (or ask for) the face-down trump"

END_SEVEN = 0
END_PILE = 1
END_THIRTEEN = 2
END_BID = 3
END_PAIR = 4

KIND_NONE = 0            # the deciding pair (end.deciding-pair): not decided yet
KIND_PAIR = 1
KIND_NO_PAIR = 2
KIND_LAST = 3

BAND_ASK = 0
BAND_AUTO = 1
BAND_AUTO_MUST = 2

PER_BUCKET = 256         # table entries kept per bucket (leader, suit lengths, rule state)
WORDS = 5                # an entry: four suit prefixes and one word of meta
MAX_ENTRIES = 1 << 20     # the table's size at most (40 MiB); past it, it starts again empty
M64 = 0xFFFFFFFFFFFFFFFF
HASH_A = 0x9E3779B97F4A7C15  # the index's hash: two odd multipliers (golden ratio, a prime)
HASH_B = 0xC2B2AE3D27D4EB4F
CHECK = 1023             # the budget is asked every 1,024 nodes

ACE = 12
TEN = 8

# Tables of 13-bit masks (one suit): how many cards, the highest, the lowest (-1: none);
# UP[s * 13 + r]: suit s's ranks r..12 in a 52-bit mask; ONES[i]: one card of seat*4+suit i
# in the packed suit lengths (4 bits each).
BITS = [0] * 8192
HIGH = [0] * 8192
LOW = [0] * 8192
UP = [0] * 52
ONES = [0] * 16


def _fill_tables():
    for i in range(8192):
        BITS[i] = bin(i).count("1")
        HIGH[i] = i.bit_length() - 1
        LOW[i] = (i & -i).bit_length() - 1
    for i in range(52):
        UP[i] = ((8191 >> (i % 13)) << (i % 13)) << (13 * (i // 13))
    for i in range(16):
        ONES[i] = 1 << (4 * i)


_fill_tables()


class Search:
    """One solve's search: `load` a position, then `test`, `value`, `push`/`pop`.

    `rules` is the tuple position.RULES names; `outcome(won0, won1, first_seven, tens0,
    tens1, pair_kind, pair_winner, team)` the encoded outcome of a finished deal for a team
    (the engine's scoring); `spend(n)` is called with the nodes searched every 1,024 nodes
    and may raise to stop the search (the budget)."""

    def __init__(self, rules, objective, outcome, spend=None):
        (self.opt_pile, self.end, self.play_on_opt, self.count_tens, self.fpc, self.nca,
         self.ace_on_ace, self.ace_seal, self.each_win, self.first_void, self.concealed,
         self.hidden_mode, self.band_auto, self.band_reveal, self.pairs_on, self.pairs_hidden,
         self.ace_rule, self.bid_n, self.caller, self.callers) = rules
        self.objective = objective
        self.outcome = outcome
        self.spend = spend
        self.outcomes = {}
        self._clear_table(1 << 12, 1 << 14)
        self.h = [0] * 16
        self.alive = [0] * 4
        self.tseat = [0] * 64
        self.tsuit = [0] * 64
        self.trank = [0] * 64
        self.tflag = [0] * 64
        self.code = [0] * 4
        self.won = [0] * 2
        self.tens = [0] * 2
        self.spec = [0] * 4
        self.mv = [0] * 1024
        self.sv = [0] * 64
        self.killer = [-1] * 64
        self.lw = [0] * 256
        self.cs = [0] * 64
        self.glo = [0] * 16
        self.ghi = [0] * 16
        self.sortkey = [0] * 16
        self.stack = [0] * 64
        self.stack_kind = [0] * 64
        self.depth = 0
        self.nodes = 0
        self.unspent = 0
        self.stopped = 0
        self.error = None
        self.best_move = -1
        self.team = 0
        self.ply = 0
        specials = 0
        if self.count_tens and objective >= SCORE:
            specials |= 1 << TEN
        if (self.opt_pile and (self.ace_on_ace or self.ace_seal)) or (self.pairs_on and self.ace_rule and objective != TRICKS):
            specials |= 1 << ACE
        self.specials = specials
        # a trick won is never worse than the same trick lost (see _envelope)
        self.monotone = 0 if self.opt_pile or self.pairs_on else 1
        self.sims = {}
        self.spans = {}
        self.span_lo = 0
        self.span_hi = 0

    # -- the position -----------------------------------------------------------------

    def load(self, hands, table, leader, number, trump, secret, hidden, hidden_card, revealed,
             revealed_trick, reveal_k, asker, must_trump, lead_must_trump, tally, pile, pairs, team):
        """The position, as position.load reads it from the engine's replay: `hands` 16
        masks (the face-down trump card set aside: not in them); `table` (seat, suit, rank,
        flags) tuples in play order (flags: 1 an active trump, 2 face down); `tally`
        (won0, won1, tens0, tens1, pile_tens, first_seven, play_on, court_made, ended);
        `pile` (pile, prev winner, prev ace, prev established, prev collected, hot); `pairs`
        (run_by, run, deferred, kind, winner)."""
        i = 0
        for i in range(16):
            self.h[i] = hands[i]
        for i in range(4):
            self.alive[i] = 0
        for i in range(16):
            self.alive[i & 3] |= hands[i]
        self.leader, self.number = leader, number
        self.tb = 4 * number
        self.tk = len(table)
        for i in range(self.tk):
            seat, suit, rank, flags = table[i]
            self.tseat[self.tb + i] = seat
            self.tsuit[self.tb + i] = suit
            self.trank[self.tb + i] = rank
            self.tflag[self.tb + i] = flags
            self.alive[suit] |= 1 << rank
        self.trump, self.secret, self.hidden = trump, secret, hidden
        self.hsuit = hidden_card // 13 if hidden_card >= 0 else -1
        self.hrank = hidden_card % 13 if hidden_card >= 0 else -1
        if hidden:
            self.alive[self.hsuit] |= 1 << self.hrank
        self.revealed, self.revealed_trick, self.reveal_k = revealed, revealed_trick, reveal_k
        self.asker, self.must_trump, self.lmt = asker, must_trump, lead_must_trump
        (self.won[0], self.won[1], self.tens[0], self.tens[1], self.pile_tens, self.first_seven,
         self.play_on, self.court_made, self.ended) = tally
        self.pile, self.pw, self.pace, self.pest, self.pcoll, self.hot = pile
        self.run_by, self.run, self.deferred, self.pkind, self.pwinner = pairs
        if self.run > 2:
            self.run = 2  # only "two in a row" matters
        self.team = team
        self.lens = 0
        for i in range(16):
            self.lens += ONES[i] * BITS[self.h[i]]
        self.depth = 0
        self.ply = 0

    def tally(self):
        """The tally now: (won0, won1, tens0, tens1, first_seven, court made, ended, pile)."""
        return (self.won[0], self.won[1], self.tens[0], self.tens[1], self.first_seven,
                self.court_made, self.ended, self.pile)

    def to_play(self):
        return (self.leader + self.tk) & 3

    def remaining(self):
        """The tricks still to be taken or collected: those to come and the pile."""
        return 14 - self.number + self.pile

    # -- moves --------------------------------------------------------------------------

    def _groups(self, m, a, s):
        """The seat's cards `m` of suit s as runs of touching cards (no card still in play
        between them, none a card some rule looks at), low to high, into glo/ghi."""
        n = 0
        prev = -1
        spec = self.spec[s]
        while m:
            r = LOW[m]
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

    def _winner(self):
        """The index on the table of the card winning the trick so far (trick.winner)."""
        led = self.tsuit[self.tb + 0]
        best = -1
        top = -1
        j = 0
        if self.trump != led:
            for j in range(self.tk):
                if self.tflag[self.tb + j] & 1 and self.trank[self.tb + j] > top:
                    best = j
                    top = self.trank[self.tb + j]
            if best >= 0:
                return best
        for j in range(self.tk):
            if self.tsuit[self.tb + j] == led and not self.tflag[self.tb + j] & 2 and self.trank[self.tb + j] > top:
                best = j
                top = self.trank[self.tb + j]
        return best

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

    def _gen(self, ply, hint):
        """The moves worth trying for the seat to play, likely best first, into mv[ply*16:];
        their number."""
        self._set_specials()
        seat = (self.leader + self.tk) & 3
        base = ply * 16
        if self.tk == 0:
            n = self._leads(seat, base)
        else:
            n = self._follows(seat, base)
        if self.hidden and not (self.pairs_on and (seat & 1) == self.callers):
            if (seat == self.caller) if self.tk == 0 else not self.h[seat * 4 + self.tsuit[self.tb + 0]]:
                self.mv[base + n] = REVEAL
                n += 1
        if hint >= 0 and n > 1:
            i = 0
            for i in range(1, n):
                if self.mv[base + i] == hint:
                    while i > 0:
                        self.mv[base + i] = self.mv[base + i - 1]
                        i -= 1
                    self.mv[base] = hint
                    break
        return n

    def _only_hidden_card(self, seat):
        """The caller's face-down card is their last card (R-6): the one play."""
        b = seat * 4
        return (self.hidden and seat == self.caller
                and not (self.h[b] | self.h[b + 1] | self.h[b + 2] | self.h[b + 3]))

    def _leads(self, seat, base):
        """Leads, one per run, weighted as DDS weighs them (Moves.cpp, WeightAllocTrump0):
        a suit where the opponents have few cards to choose from, the partner can ruff or
        holds the top, no opponent ruffs or sits over it with a high card; a lead that wins
        the trick before one that does not, high from a top sequence, low otherwise."""
        if self._only_hidden_card(seat):
            self.mv[base] = self.hsuit * 13 + self.hrank
            return 1
        b = seat * 4
        tr = self.trump if not self.hidden else -1
        lho = (seat + 1) & 3
        partner = (seat + 2) & 3
        rho = (seat + 3) & 3
        only = -1
        if self.lmt and tr >= 0 and self.h[b + tr]:
            only = tr  # the caller who showed the trump on lead leads one
        n = 0
        s = 0
        for s in range(4):
            m = self.h[b + s]
            if not m or (only >= 0 and s != only):
                continue
            a = self.alive[s]
            g = self._groups(m, a, s)
            top = HIGH[a]
            first = self._holder(s, top)
            second = self._holder(s, HIGH[a ^ (1 << top)]) if BITS[a] > 1 else -1
            lh = BITS[self.h[lho * 4 + s]]
            rh = BITS[self.h[rho * 4 + s]]
            ph = BITS[self.h[partner * 4 + s]]
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
            if side and BITS[m] == 1 and self.h[b + tr] and ph > 1 and first == partner:
                delta += 19  # lead the singleton to the partner's winner, for a ruff back
            opp_high = HIGH[self.h[lho * 4 + s] | self.h[rho * 4 + s]]
            i = 0
            for i in range(g):
                r = self.glo[i]
                hi = self.ghi[i]
                rank = BITS[a & ((1 << r) - 1)]  # the card's place among the suit's cards still out
                safe = not lho_ruffs and not rho_ruffs
                if hi == top:
                    wins = not side or (safe and (ph or not self.h[partner * 4 + tr]))
                elif HIGH[self.h[partner * 4 + s]] > opp_high:
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
                        w = delta + 22 + rank
                    else:
                        w = delta + 11 + rank
                elif (lh == 1 and first == lho) or (rh == 1 and first == rho):
                    w = delta + rank + 2
                elif first == seat:
                    w = delta + 33 + rank if second == partner else delta + 38 if hi == top else delta - 14 + rank
                elif first == partner:
                    w = delta + 34 + rank
                else:
                    w = delta + 17 - r
                n = self._add(base, n, (200 - w) * 64 + s * 16 + r, s * 13 + r)
        return n

    def _holder(self, s, r):
        """The seat holding suit s's card of rank r (the caller for the face-down card)."""
        seat = 0
        while seat < 4 and not (self.h[seat * 4 + s] >> r) & 1:
            seat += 1
        return self.caller if seat == 4 else seat

    def _follows(self, seat, base):
        b = seat * 4
        led = self.tsuit[self.tb + 0]
        m = self.h[b + led]
        wk = self._winner()
        ws = self.tseat[self.tb + wk]
        wsu = self.tsuit[self.tb + wk]
        wr = self.trank[self.tb + wk]
        ours = (ws & 1) == (seat & 1)
        n = 0
        i = 0
        if m:
            g = self._groups(m, self.alive[led], led)
            for i in range(g):
                r = self.glo[i]
                key = r + (20 if not ours and wsu == led and r < wr else 0)
                n = self._add(base, n, key, led * 13 + r)
            return n
        band_card = self.hidden and self.band_auto and seat == self.caller
        if band_card and self.hsuit == led:
            self.mv[base] = led * 13 + self.hrank  # follows with the face-down card
            return 1
        if self._only_hidden_card(seat):
            self.mv[base] = self.hsuit * 13 + self.hrank
            return 1
        tr = self.trump
        osuit = tr if tr >= 0 else self.secret
        obliged = (seat == self.asker or seat == self.must_trump
                   or (self.hidden and self.band_reveal == BAND_AUTO_MUST)
                   or (self.hidden and self.pairs_on and self.hidden_mode and (seat & 1) != self.callers))
        if obliged and osuit >= 0 and not (self.h[b + osuit] or (band_card and self.hsuit == osuit)):
            obliged = 0
        s = 0
        for s in range(4):
            m = self.h[b + s]
            if band_card and s == self.hsuit:
                m |= 1 << self.hrank
            if not m or (obliged and s != osuit):
                continue
            g = self._groups(m, self.alive[s], s)
            for i in range(g):
                r = self.glo[i]
                if s == tr and tr >= 0:
                    if ours:
                        key = 40 + r
                    elif wsu == tr:
                        key = r if r > wr else 60 + r
                    else:
                        key = r
                else:
                    key = r if ours else 20 + r
                n = self._add(base, n, key * 4 + s, s * 13 + r)
        return n

    def legal(self):
        """Every legal move of the seat to play, each with its twin (the lowest card of its
        run of touching cards, which is worth the same), in the move generator's order."""
        ply = self.depth
        n = self._gen(ply, -1)
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

    # -- applying moves ---------------------------------------------------------------

    def _reveal(self, k):
        """The face-down trump is shown before the card at table index k: it is back in the
        caller's hand and counts as trump from here (trump.hidden.*)."""
        self.hidden = 0
        self.trump = self.secret
        self.revealed = 1
        self.revealed_trick = self.number
        self.reveal_k = k
        i = self.caller * 4 + self.hsuit
        self.h[i] |= 1 << self.hrank
        self.lens += ONES[i]

    def _saved(self):
        return ((self.trump + 1) | self.hidden << 3 | self.revealed << 4 | self.revealed_trick << 5
                | self.reveal_k << 9 | (self.asker + 1) << 12 | (self.must_trump + 1) << 15 | self.lmt << 18)

    def _restore(self, v):
        hidden = (v >> 3) & 1
        if hidden and not self.hidden:
            i = self.caller * 4 + self.hsuit
            self.h[i] &= RELMASK ^ (1 << self.hrank)
            self.lens -= ONES[i]
        self.trump = (v & 7) - 1
        self.hidden = hidden
        self.revealed = (v >> 4) & 1
        self.revealed_trick = (v >> 5) & 15
        self.reveal_k = (v >> 9) & 7
        self.asker = ((v >> 12) & 7) - 1
        self.must_trump = ((v >> 15) & 7) - 1
        self.lmt = (v >> 18) & 1

    def _do(self, m, ply):
        """Play move m for the seat to play (a card, or REVEAL); `_undo(m, ply)` takes it back."""
        seat = (self.leader + self.tk) & 3
        k = self.tk
        self.sv[ply] = self._saved()
        if m == REVEAL:
            self._reveal(k)
            if k == 0:
                self.lmt = 1
            elif self.hidden_mode or self.band_reveal != BAND_AUTO:
                self.asker = seat
            return
        s = m // 13
        r = m - 13 * s
        if self.hidden:
            led = self.tsuit[self.tb + 0]
            if k > 0 and s != led and self.pairs_on and self.hidden_mode and (seat & 1) != self.callers:
                self._reveal(k)  # Band Rang: an opponent's show-out shows it; they must trump
                self.must_trump = seat
            elif k > 0 and self.band_auto:
                if s != led:
                    self._reveal(k)  # band: the first show-out turns it up
                    if self.band_reveal == BAND_AUTO_MUST:
                        self.must_trump = seat
                elif s == self.hsuit and r == self.hrank and seat == self.caller:
                    self._reveal(k)  # followed with it
            elif s == self.hsuit and r == self.hrank and seat == self.caller:
                self._reveal(k)  # the caller's last card
        i = seat * 4 + s
        self.h[i] ^= 1 << r
        self.lens -= ONES[i]
        if self.first_void and self.trump < 0 and k > 0 and s != self.tsuit[self.tb + 0]:
            self.trump = s  # the first show-out sets the trump (trump.first-void)
        self.tseat[self.tb + k] = seat
        self.tsuit[self.tb + k] = s
        self.trank[self.tb + k] = r
        self.tflag[self.tb + k] = 1 if s == self.trump else 0
        self.tk = k + 1

    def _undo(self, m, ply):
        if m != REVEAL:
            k = self.tk - 1
            i = self.tseat[self.tb + k] * 4 + self.tsuit[self.tb + k]
            self.h[i] |= 1 << self.trank[self.tb + k]
            self.lens += ONES[i]
            self.tk = k
        self._restore(self.sv[ply])

    # -- a trick's end ----------------------------------------------------------------------

    def _close_do(self):
        """Settle the full trick: who wins and collects, tens, the deal's end. Returns the
        tricks the perspective team collects by it, and leaves `ended`, `court_made` and
        the winning-rank relevance (`self.closed_rel`) set; `_close_undo` takes it back."""
        wk = self._winner()
        ws = self.tseat[self.tb + wk]
        wsu = self.tsuit[self.tb + wk]
        wr = self.trank[self.tb + wk]
        number = self.number
        rel = 0
        j = 0
        for j in range(4):
            if j != wk and self.tsuit[self.tb + j] == wsu:
                rel = UP[wsu * 13 + wr]
        self.closed_rel = rel
        self.cs[3 * number] = (self.leader | self.won[0] << 2 | self.won[1] << 6 | self.tens[0] << 10
                               | self.tens[1] << 13 | self.pile_tens << 16 | (self.first_seven + 1) << 19
                               | self.play_on << 21 | self.court_made << 22 | self.ended << 23)
        self.cs[3 * number + 1] = (self.pile | (self.pw + 1) << 4 | self.pace << 7 | self.pest << 8
                                   | self.pcoll << 9 | self.hot << 10 | (self.run_by + 1) << 11 | self.run << 14
                                   | self.deferred << 16 | self.pkind << 17 | self.pwinner << 19)
        self.cs[3 * number + 2] = ((self.asker + 1) | (self.must_trump + 1) << 3 | self.lmt << 6
                                   | self.reveal_k << 7 | self.tk << 10)
        for j in range(4):
            self.alive[self.tsuit[self.tb + j]] ^= 1 << self.trank[self.tb + j]
        taken = 1
        team = ws & 1
        if self.opt_pile:
            team = self._pile_trick(number, ws, wsu, wr, wk)
            taken = self.taken
        if team >= 0:
            self.won[team] += taken
        if self.count_tens and self.objective >= SCORE:
            for j in range(4):
                if self.trank[self.tb + j] == TEN:
                    self.pile_tens += 1
            if team >= 0:
                self.tens[team] += self.pile_tens
                self.pile_tens = 0
        if self.objective == TRICKS:
            self.ended = 1 if number == 13 else 0
        else:
            self.ended = self._ends(number, ws, wr == ACE)
        self.leader = ws
        self.number = number + 1
        self.tb = 4 * (number + 1)
        self.tk = 0
        self.asker = -1
        self.must_trump = -1
        self.lmt = 0
        self.reveal_k = 0 if self.revealed else 4
        return taken if team == self.team else 0

    def _close_undo(self):
        number = self.number - 1
        v = self.cs[3 * number]
        self.number = number
        self.tb = 4 * number
        self.leader = v & 3
        self.won[0] = (v >> 2) & 15
        self.won[1] = (v >> 6) & 15
        self.tens[0] = (v >> 10) & 7
        self.tens[1] = (v >> 13) & 7
        self.pile_tens = (v >> 16) & 7
        self.first_seven = ((v >> 19) & 3) - 1
        self.play_on = (v >> 21) & 1
        self.court_made = (v >> 22) & 1
        self.ended = (v >> 23) & 1
        v = self.cs[3 * number + 1]
        self.pile = v & 15
        self.pw = ((v >> 4) & 7) - 1
        self.pace = (v >> 7) & 1
        self.pest = (v >> 8) & 1
        self.pcoll = (v >> 9) & 1
        self.hot = (v >> 10) & 1
        self.run_by = ((v >> 11) & 7) - 1
        self.run = (v >> 14) & 3
        self.deferred = (v >> 16) & 1
        self.pkind = (v >> 17) & 3
        self.pwinner = (v >> 19) & 1
        v = self.cs[3 * number + 2]
        self.asker = (v & 7) - 1
        self.must_trump = ((v >> 3) & 7) - 1
        self.lmt = (v >> 6) & 1
        self.reveal_k = (v >> 7) & 7
        self.tk = (v >> 10) & 7
        j = 0
        for j in range(4):
            self.alive[self.tsuit[self.tb + j]] |= 1 << self.trank[self.tb + j]

    def _pile_trick(self, number, ws, wsu, wr, wk):
        """Double Sir's pile (pile.*): the trick goes on the pile; the same player winning two
        in a row collects it (R-8: a pair an option blocks leaves the run unbroken)."""
        self.pile += 1
        pair = self.pw == ws and (self.hot or (not self.pcoll and self.pest))
        blocked = 0
        if pair:
            if number == 2 and not self.fpc:
                blocked = 1
            elif (self.nca >> number) & 1:
                blocked = 1
            elif self.ace_on_ace and wr == ACE and self.pace:
                blocked = 1
            elif self.ace_seal == 2 and wr == ACE:
                blocked = 1
            elif self.ace_seal == 1 and wr == ACE and wsu == self.trump:
                blocked = 1
        collects = number == 13 or (pair and not blocked)
        self.hot = 1 if self.each_win and pair and (collects or (self.hot and blocked)) else 0
        if self.first_void:
            established = self.trump >= 0
        elif self.concealed:
            established = self.revealed and wk >= self.reveal_k
        else:
            established = 1
        self.pw = ws
        self.pace = 1 if wr == ACE else 0
        self.pest = 1 if established else 0
        self.pcoll = 1 if collects else 0
        if collects:
            self.taken = self.pile
            self.pile = 0
            return ws & 1
        self.taken = 0
        return -1

    def _ends(self, number, ws, ace):
        """Has the deal ended with this trick (end.*)? Sets the first seven and a court that
        may be played on (R-4) as the engine's `Deal._check_end` does."""
        won0 = self.won[0]
        won1 = self.won[1]
        if self.end == END_PAIR:
            decided = self._pair_trick(number, ws, ace) if self.pkind == KIND_NONE else 0
            return 1 if number == 13 or decided else 0
        if number == 13:
            return 1
        if self.end == END_SEVEN:
            if self.play_on:
                return 1 if (ws & 1) != self.first_seven else 0
            if won0 >= 7 or won1 >= 7:
                self.first_seven = 0 if (won0 == 7 and won1 == 0) else 1 if (won0 == 0 and won1 == 7) else -1
                self.court_made = 1 if self.first_seven >= 0 and self.play_on_opt else 0
                return 0 if self.court_made else 1
            return 0
        if self.end == END_PILE:
            return 1 if min(won0, won1) >= 1 and max(won0, won1) >= 7 else 0
        if self.end == END_BID:
            c = self.callers
            return 1 if self.won[c] >= self.bid_n or self.won[1 - c] >= 14 - self.bid_n else 0
        if self.opt_pile:
            if self.first_seven < 0 and max(won0, won1) >= 7 and min(won0, won1) == 0:
                self.first_seven = 0 if won0 >= 7 else 1
        elif number == 7 and max(won0, won1) == 7:
            self.first_seven = 0 if won0 == 7 else 1
        return 0

    def _pair_trick(self, number, ws, ace):
        """Band Rang's run (end.deciding-pair, end.deciding-pair-ace): True when a pair decides."""
        team = ws & 1
        if ws != self.run_by:
            self.run_by = ws
            self.run = 1
            self.deferred = 0
        elif self.deferred and ace:
            self.run = 1
            self.deferred = 0
        elif self.deferred:
            self.pkind = KIND_PAIR
            self.pwinner = team
            return 1
        elif self.run < 2:
            self.run += 1
        if self.run >= 2 and self._pair_counts(team, number):
            if self.ace_rule and ace and number < 13:
                self.deferred = 1
                return 0
            self.pkind = KIND_PAIR
            self.pwinner = team
            return 1
        if number == 13:
            if self.pairs_hidden:
                self.pkind = KIND_LAST
                self.pwinner = team
            else:
                self.pkind = KIND_NO_PAIR
                self.pwinner = self.callers
            return 1
        return 0

    def _pair_counts(self, team, number):
        if not self.pairs_hidden:
            return team != self.callers and number >= 3
        if team == self.callers:
            return number >= 9
        return self.revealed and number >= max(4, self.revealed_trick + 1)

    # -- the search ---------------------------------------------------------------------

    def _spend(self):
        n = self.unspent
        self.unspent = 0
        if self.spend is not None and n:
            try:
                self.spend(n)
            except BaseException as exc:  # the budget said stop: unwind, then raise at the top
                self.stopped = 1
                self.error = exc

    def _terminal(self, t, kk):
        """The deal is over: does the value reach t?"""
        obj = self.objective
        if obj <= DEAL_TRICKS:
            return (TRUE if t <= 0 else FALSE) << RES
        if obj == EXACT and kk != 0:
            return NONE << RES
        return (TRUE if self._value_now() >= t else FALSE) << RES

    def _value_now(self):
        key = (self.won[0] | self.won[1] << 4 | (self.first_seven + 1) << 8 | self.tens[0] << 10
               | self.tens[1] << 13 | self.pkind << 16 | self.pwinner << 18 | self.team << 19)
        v = self.outcomes.get(key)
        if v is None:
            v = self.outcome(self.won[0], self.won[1], self.first_seven, self.tens[0], self.tens[1],
                             self.pkind, self.pwinner, self.team)
            self.outcomes[key] = v
        return v

    def _choice(self, t, kk):
        """After a first-7 court the court team stops or plays on (R-4): the better for it."""
        mine = self.first_seven == self.team or t <= LOWEST
        stop = self._terminal(t, kk)
        code = stop >> RES
        if (mine and code == TRUE) or (not mine and code == FALSE):
            return stop
        self.court_made = 0
        self.play_on = 1
        on = self._start(t, kk)
        self.court_made = 1
        self.play_on = 0
        return self._either(mine, stop, on)

    def _either(self, mine, a, b):
        """The answer of a node with the two answers a and b, for its chooser."""
        ca = a >> RES
        cb = b >> RES
        rel = (a | b) & RELMASK
        want = TRUE if mine else FALSE
        if cb == want:
            return b
        if ca == want:
            return a
        if ca == NONE and cb == NONE:
            return NONE << RES | rel
        return (FALSE if mine else TRUE) << RES | rel

    def _close(self, t, kk):
        gain = self._close_do()
        rel = self.closed_rel
        obj = self.objective
        if obj <= DEAL_TRICKS:
            t -= gain
        elif obj == EXACT:
            kk -= gain
        if self.ended:
            r = self._terminal(t, kk)
        elif self.court_made:
            r = self._choice(t, kk)
        else:
            r = self._start(t, kk)
        self._close_undo()
        return r | rel

    def _start(self, t, kk):
        """A trick's start: bounds, the table, then the leader's moves."""
        if self.stopped:
            return 0
        left = 14 - self.number
        obj = self.objective
        if obj <= DEAL_TRICKS:
            if t <= 0:
                return TRUE << RES
            if t > left + self.pile:
                return FALSE << RES
        elif obj == EXACT and (kk < 0 or kk > left + self.pile):
            return NONE << RES
        if obj == EXACT and self._forced(kk):
            return NONE << RES | self.cash_rel
        if (obj == TRICKS or (obj == DEAL_TRICKS and self.end == END_THIRTEEN)) and not self.opt_pile:
            r = self._sure(t)  # every trick is played: the bridge question
            if r != UNDECIDED << RES:
                return r
        elif (obj == SCORE or obj == DEAL_TRICKS) and self.monotone:
            r = self._envelope(t)
            if r != UNDECIDED << RES:
                return r
        elif obj == EXACT and self.monotone and t > LOWEST:
            r = self._exact_envelope(t, kk)
            if r != UNDECIDED << RES:
                return r
        key = self._key(kk)
        lens = self.lens
        self._codes()
        r = self._lookup(self._find(key, lens, 0), t)
        if r != UNDECIDED << RES:
            return r
        r = self._card(t, kk, self.hint)
        if not self.stopped:
            self._codes()
            self._store(key, lens, t, r, self.best_move)
        return r

    def _card(self, t, kk, hint):
        """The seat to play tries each move: a yes for its team (any move) or a no (every
        move), NONE where no move has a line (EXACT)."""
        self.nodes += 1
        self.unspent += 1
        if self.unspent > CHECK:
            self._spend()
        if self.stopped:
            return 0
        if self.objective == EXACT and self.tk and self.monotone and t > LOWEST:
            res = self._exact_envelope(t, kk)
            if res != UNDECIDED << RES:
                return res
        ply = self.ply
        seat = (self.leader + self.tk) & 3
        mine = (seat & 1) == self.team
        n = self._gen(ply, hint if self.tk == 0 and hint >= 0 else self.killer[ply])
        # at or below LOWEST no value fails: only whether a line exists is asked (EXACT), and
        # either side's first line answers it
        want = TRUE if mine or t <= LOWEST else FALSE
        other = FALSE if mine else TRUE
        rel = 0
        best = NONE
        found = -1
        self.ply = ply + 1
        lw = ply * 4
        self.lw[lw] = 0
        self.lw[lw + 1] = 0
        self.lw[lw + 2] = 0
        self.lw[lw + 3] = 0
        i = 0
        for i in range(n):
            m = self.mv[ply * 16 + i]
            s = m // 13
            r = m - 13 * s
            if m != REVEAL and r < self.lw[lw + s] and not self._special(s, r):
                continue  # below every rank that mattered after a card of this suit: the same again
            self._do(m, ply)
            if self.tk == 4:
                res = self._close(t, kk)
            else:
                res = self._card(t, kk, -1)
            self._undo(m, ply)
            if self.stopped:
                break
            code = res >> RES
            if code == want:
                best = want
                rel = res & RELMASK
                found = m
                if i:
                    self.killer[ply] = m  # tried first by the next sibling position at this depth
                break
            rel |= res & RELMASK
            if code == other:
                best = other
            if m != REVEAL and not self.lw[lw + s] and not self._special(s, r):
                low = LOW[(rel >> (13 * s)) & 8191]
                if low < 0:
                    self.lw[lw + s] = 13  # no rank of the suit mattered: any other card of it is the same
                elif r < low:
                    self.lw[lw + s] = low
        self.ply = ply
        self.best_move = found
        return best << RES | rel

    # -- sure tricks (bridge play: tricks taken at once, the trump known) -------------------

    def _top_run(self, m, a):
        """How many of the suit's highest remaining cards `a` the seat's `m` holds, from the top."""
        n = 0
        while a:
            top = HIGH[a]
            if not (m >> top) & 1:
                break
            n += 1
            a ^= 1 << top
        return n

    def _top_mask(self, s, a, n):
        """The suit's n highest remaining cards and every rank above (a rel mask)."""
        if n <= 0:
            return 0
        i = 0
        for i in range(n - 1):
            a ^= 1 << HIGH[a]
        return UP[s * 13 + HIGH[a]]

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
                n = min(n, BITS[self.h[o1 + s]], BITS[self.h[o2 + s]])
            if n and partner_ruffs and (s != tr or follows):
                n = min(n, BITS[self.h[p + s]])
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
            top = HIGH[at]
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
            if self.h[b + s] and (self.h[pb + s] >> HIGH[self.alive[s]]) & 1:
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

    # -- bounds from the deal's end (tricks taken at once, no pairs) ----------------------

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

    def _forced(self, kk):
        """EXACT, where every trick is played and taken at once, the trump known: the top
        trumps of whoever holds the highest one each win a trick, so a count they make
        impossible has no line (cash_rel: those cards)."""
        if self.end != END_THIRTEEN or self.opt_pile or self.trump < 0 or self.hidden:
            return 0
        tr = self.trump
        at = self.alive[tr]
        if not at:
            return 0
        top = HIGH[at]
        holder = 0
        while not (self.h[holder * 4 + tr] >> top) & 1:
            holder += 1
        n = self._top_run(self.h[holder * 4 + tr], at)
        self.cash_rel = self._top_mask(tr, at, n)
        if (holder & 1) == self.team:
            return kk < n
        return kk > 14 - self.number - n

    def _exact_envelope(self, t, kk):
        """EXACT: every end the deal can reach with the team taking exactly kk more tricks
        (whoever wins each trick) has an outcome in [span_lo, span_hi]; when that decides
        `value >= t`, the answer is that, or NONE where no line at all gives kk."""
        if not self._span(kk):
            return NONE << RES
        if self.span_lo < t <= self.span_hi:
            return UNDECIDED << RES
        # is there a line at all? (cheap: the first one found)
        found = self._start(LOWEST, kk) if self.tk == 0 else self._card(LOWEST, kk, -1)
        if found >> RES == NONE:
            return found
        return (TRUE if self.span_lo >= t else FALSE) << RES | (found & RELMASK)

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

    # -- the table --------------------------------------------------------------------------

    def _key(self, kk):
        """The bucket's first word: the leader, the perspective team and the rule state the
        objective looks at (the second is the suit lengths, `lens`)."""
        obj = self.objective
        state = (self.trump + 1) | self.hidden << 3
        if self.opt_pile:
            state = (state << 11 | self.pile | (self.pw + 1) << 4 | self.pace << 7 | self.pest << 8
                     | self.pcoll << 9 | self.hot << 10)
        if obj != TRICKS and not (obj == DEAL_TRICKS and self.end == END_THIRTEEN):
            state = state << 11 | self.won[0] | self.won[1] << 4 | (self.first_seven + 1) << 8 | self.play_on << 10
            if self.end == END_PAIR:
                state = (state << 13 | (self.run_by + 1) | self.run << 3 | self.deferred << 5 | self.pkind << 6
                         | self.pwinner << 8 | self.revealed_trick << 9)
            if self.count_tens and obj >= SCORE:
                state = state << 9 | self.tens[0] | self.tens[1] << 3 | self.pile_tens << 6
            if obj == EXACT:
                state = state << 5 | kk
        if self.specials & (1 << TEN):
            state = state << 12 | self._owners(TEN)
        if self.specials & (1 << ACE):
            state = state << 12 | self._owners(ACE)
        return state << 3 | self.team << 2 | self.leader

    def _owners(self, r):
        """Who holds each suit's card of rank r (a ten, an ace: cards a rule looks at), three
        bits a suit, 4 for one already played: part of the bucket's key, so that an entry
        holds for positions where those cards lie with the same seats."""
        v = 0
        s = 0
        for s in range(4):
            owner = 4
            if (self.alive[s] >> r) & 1:
                owner = 0
                while owner < 4 and not (self.h[owner * 4 + s] >> r) & 1:
                    owner += 1
                if owner == 4:
                    owner = self.caller  # the face-down trump card
            v = v << 3 | owner
        return v

    def _codes(self):
        """Each suit's remaining cards' owners, high to low, three bits each after a leading
        1 (the owner, plus 4 for a card a rule looks at): the same for positions that differ
        only in which cards were played."""
        self._set_specials()
        s = 0
        for s in range(4):
            a = self.alive[s]
            spec = self.spec[s]
            c = 1
            r = 12
            while r >= 0:
                if (a >> r) & 1:
                    owner = 0
                    while owner < 4 and not (self.h[owner * 4 + s] >> r) & 1:
                        owner += 1
                    if owner == 4:
                        owner = self.caller  # the face-down trump card
                    c = c << 3 | owner | (4 if (spec >> r) & 1 else 0)
                r -= 1
            self.code[s] = c

    def _clear_table(self, slots, entries):
        """An empty table: `slots` places in the index (a power of 2), room for `entries`."""
        self.key_array = array("Q", bytes(16 * slots))
        self.slot_array = array("i", bytes(4 * slots))
        self.index_key = self.key_array  # compiled: typed views of the arrays
        self.index_bucket = self.slot_array
        self.slots = slots
        self.nbuckets = 0
        self.bucket_array = array("I", bytes(12 * (slots // 2)))
        self.bucket = self.bucket_array  # per bucket: first entry, room, entries stored
        self.pool_array = array("Q", bytes(8 * WORDS * entries))
        self.pool = self.pool_array
        self.room = entries
        self.used = 0
        return 0

    def _find(self, a, b, create):
        """The bucket of key (a, b), or -1; with `create`, made when missing."""
        mask = self.slots - 1
        i = (((a * HASH_A) ^ (b * HASH_B)) & M64) >> 40 & mask
        while True:
            j = self.index_bucket[i]
            if j == 0:
                break
            if self.index_key[2 * i] == a and self.index_key[2 * i + 1] == b:
                return j - 1
            i = (i + 1) & mask
        if not create:
            return -1
        if 2 * (self.nbuckets + 1) > self.slots:
            self._grow_index()
            return self._find(a, b, create)
        self.index_key[2 * i] = a
        self.index_key[2 * i + 1] = b
        n = self.nbuckets
        self.nbuckets = n + 1
        self.index_bucket[i] = n + 1
        self.bucket[3 * n] = 0
        self.bucket[3 * n + 1] = 0
        self.bucket[3 * n + 2] = 0
        return n

    def _grow_index(self):
        """Twice the places in the index (and room for as many buckets), the keys moved."""
        old_keys = self.key_array
        old_slots = self.slot_array
        old_buckets = self.bucket_array
        count = self.slots
        self.slots = count * 2
        self.key_array = array("Q", bytes(16 * self.slots))
        self.slot_array = array("i", bytes(4 * self.slots))
        self.index_key = self.key_array
        self.index_bucket = self.slot_array
        buckets = array("I", bytes(12 * (self.slots // 2)))
        buckets[:len(old_buckets)] = old_buckets
        self.bucket_array = buckets
        self.bucket = buckets
        mask = self.slots - 1
        for k in range(count):
            j = old_slots[k]
            if j:
                a = old_keys[2 * k]
                b = old_keys[2 * k + 1]
                i = (((a * HASH_A) ^ (b * HASH_B)) & M64) >> 40 & mask
                while self.slot_array[i]:
                    i = (i + 1) & mask
                self.key_array[2 * i] = a
                self.key_array[2 * i + 1] = b
                self.slot_array[i] = j
        return 0

    def _lookup(self, b, t):
        """A table entry of bucket b that decides `value >= t` here, as an answer; else
        UNDECIDED (and `hint`, the best move an entry for this position remembers, or -1)."""
        self.hint = -1
        if b < 0:
            return UNDECIDED << RES
        first = self.bucket[3 * b]
        count = min(self.bucket[3 * b + 2], self.bucket[3 * b + 1])
        e = 0
        for e in range(count):
            base = (first + e) * WORDS
            meta = self.pool[base + 4]
            if ((self.code[0] >> (meta & 63)) != self.pool[base]
                    or (self.code[1] >> ((meta >> 6) & 63)) != self.pool[base + 1]
                    or (self.code[2] >> ((meta >> 12) & 63)) != self.pool[base + 2]
                    or (self.code[3] >> ((meta >> 18) & 63)) != self.pool[base + 3]):
                continue
            kind = (meta >> 24) & 3
            te = (meta >> 32) & 0x3FFFF
            te -= 0x20000
            if (kind == TRUE and te >= t) or (kind == FALSE and te <= t) or kind == NONE:
                return kind << RES | self._entry_rel(meta)
            if self.hint < 0:
                move = (meta >> 26) & 63
                self.hint = move - 1
        return UNDECIDED << RES

    def _entry_rel(self, meta):
        rel = 0
        s = 0
        for s in range(4):
            a = self.alive[s]
            shift = (meta >> (6 * s)) & 63
            n = BITS[a] - shift // 3
            rel |= self._top_mask(s, a, n)
        return rel

    def _store(self, key, lens, t, r, move):
        code = r >> RES
        rel = r & RELMASK
        s = 0
        b = self._find(key, lens, 1)
        slot = self._slot(b)
        if slot < 0:
            return 0
        base = slot * WORDS
        meta = 0
        for s in range(4):
            a = self.alive[s]
            n = BITS[a & ((rel >> (13 * s)) & 8191)]
            shift = 3 * (BITS[a] - n)
            self.pool[base + s] = self.code[s] >> shift
            meta |= shift << (6 * s)
        x = code
        meta |= x << 24
        x = move + 1
        meta |= x << 26
        x = t + 0x20000
        meta |= x << 32
        self.pool[base + 4] = meta
        return 0

    def _slot(self, b):
        """The place for bucket b's next entry: a new one while the bucket has room (it
        doubles, up to PER_BUCKET), else its oldest. -1: the table was full and is empty now."""
        first = self.bucket[3 * b]
        room = self.bucket[3 * b + 1]
        stored = self.bucket[3 * b + 2]
        if stored < room:
            self.bucket[3 * b + 2] = stored + 1
            return first + stored
        if room >= PER_BUCKET:
            self.bucket[3 * b + 2] = stored + 1
            return first + stored % room
        grown = 4 if room == 0 else 2 * room
        if self.used + grown > self.room:
            if self.room >= MAX_ENTRIES:
                self._clear_table(1 << 12, self.room)
                return -1
            self._grow_pool()
        i = 0
        for i in range(room * WORDS):
            self.pool[self.used * WORDS + i] = self.pool[first * WORDS + i]
        self.bucket[3 * b] = self.used
        self.bucket[3 * b + 1] = grown
        self.bucket[3 * b + 2] = stored + 1
        self.used += grown
        return self.used - grown + stored

    def _grow_pool(self):
        """Twice the room for entries (up to MAX_ENTRIES), the entries kept where they are."""
        room = min(2 * self.room, MAX_ENTRIES)
        pool = array("Q", bytes(8 * WORDS * room))
        pool[:len(self.pool_array)] = self.pool_array
        self.pool_array = pool
        self.pool = pool
        self.room = room
        return 0

    # -- the driver's questions -------------------------------------------------------------

    def test(self, t, kk=0):
        """Does the perspective team's value from this position reach t? TRUE, FALSE or
        NONE (EXACT: no line gives exactly kk more tricks). Raises what the budget raised."""
        self.stopped = 0
        self.error = None
        self.ply = self.depth
        if self.ended:
            r = self._terminal(t, kk)
        elif self.court_made:
            r = self._choice(t, kk)
        elif self.tk == 0:
            r = self._start(t, kk)
        else:
            r = self._card(t, kk, -1)
        if not self.stopped:
            self._spend()  # every node counts, the last few too
        if self.stopped:
            raise self.error
        return r >> RES

    def over(self):
        """Nothing more to play: the deal ended (or, TRICKS, all 13 are played)."""
        return self.ended

    def push(self, m):
        """Play move m at the driver's level (after it, a full trick is settled); the
        tricks the perspective team collected by it."""
        d = self.depth
        self._do(m, d)
        self.stack[d] = m
        self.stack_kind[d] = 0
        self.depth = d + 1
        if self.tk == 4:
            self.stack_kind[d] = 1
            return self._close_do()
        return 0

    def pop(self):
        d = self.depth - 1
        self.depth = d
        if self.stack_kind[d] == 2:
            self.court_made = 1
            self.play_on = 0
            return
        if self.stack_kind[d] == 1:
            self._close_undo()
        self._undo(self.stack[d], d)

    def begin_play_on(self):
        """The court team plays on (R-4); `pop` takes it back."""
        d = self.depth
        self.stack_kind[d] = 2
        self.depth = d + 1
        self.court_made = 0
        self.play_on = 1

    def court_team(self):
        return self.first_seven if self.court_made else -1

    def stop_value(self):
        """SCORE and EXACT: the outcome if the deal ends now."""
        return self._value_now()
