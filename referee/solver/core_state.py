# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The core search's position (core.py): each seat's cards as 13-bit masks per suit, the trick
on the table, the trump and its state, the tally, the pile, the deciding-pair run; playing a
move and taking it back. Compiled with the other core modules where the install finds a C
compiler (the C types in core_state.pxd); plain Python otherwise."""
from .core_codes import (ACE, BITS, HIGH, LOW, MASK3, MASK4, OK_KIND, OK_TEAM, OK_WINNER, ONES, RELMASK, REVEAL, REVEAL_NONE,
                         REVEAL_OPPONENT, REVEAL_VOID_MUST, SCORE, SV_ASKER, SV_HIDDEN, SV_LMT, SV_MUST, SV_REVEAL_K,
                         SV_REVEALED, SV_REVEALED_TRICK, TABLE_DOWN, TABLE_TRUMP, TEN, TL_FIRST, TL_TENS0, TL_TENS1,
                         TL_WON1, TRICKS, UP)
from .core_kernel import rules_like, table_card, trick_winner
from .core_kernel_play import ask_obliges, reveal_at_play


class State:
    """A position of one deal and its rules, for the core search (core.Search): `rules` the
    deal's rule settings by name (the kernel's Rules, as position.rules gives them; kept as
    `r`), `outcome(won0, won1, first_seven, tens0, tens1, pair_kind,
    pair_winner, team)` the encoded outcome of a finished deal for a team (the engine's
    scoring), `spend(n)` the budget's (called with the nodes searched; it may raise)."""

    def __init__(self, rules, objective, outcome, spend=None):
        self.r = rules_like(rules)
        # the tens are counted where the score needs them, or where they end the deal (end.tens-settled)
        self.tens_on = 1 if self.r.tens and (objective >= SCORE or self.r.settled) else 0
        self.objective = objective
        self.outcome = outcome
        self.spend = spend
        self.outcomes = {}
        self.bits, self.high, self.low, self.up, self.ones = BITS, HIGH, LOW, UP, ONES  # the tables (core_codes)
        self.h = [0] * 16
        self.alive = [0] * 4
        self.tseat = [0] * 64
        self.tsuit = [0] * 64
        self.trank = [0] * 64
        self.tcard = [0] * 16
        self.won = [0] * 2
        self.tens = [0] * 2
        self.sv = [0] * 64
        self.cs = [0] * 64
        self.depth = 0
        self.error = None
        self.team = 0
        self.ply = 0
        specials = 0
        if self.tens_on:
            specials |= 1 << TEN
        if (self.r.pile and (self.r.ace_on_ace or self.r.ace_seal)) or (self.r.pairs and self.r.ace_rule and objective != TRICKS):
            specials |= 1 << ACE
        self.specials = specials

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
        self.tcard[number] = 0
        for i in range(self.tk):
            seat, suit, rank, flags = table[i]
            self.tseat[self.tb + i] = seat
            self.tsuit[self.tb + i] = suit
            self.trank[self.tb + i] = rank
            self.tcard[number] |= table_card(suit, rank, flags & TABLE_TRUMP, flags & TABLE_DOWN) << (8 * i)
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
            self.lens += self.ones[i] * self.bits[self.h[i]]
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

    def _winner(self):
        """The index on the table of the card winning the trick so far (trick.winner)."""
        return trick_winner(self.tcard[self.number], self.tk, self.trump)

    def _reveal(self, k):
        """The face-down trump is shown before the card at table index k: it is back in the
        caller's hand and counts as trump from here (trump.hidden.*)."""
        self.hidden = 0
        self.trump = self.secret
        self.revealed = 1
        self.revealed_trick = self.number
        self.reveal_k = k
        i = self.r.caller * 4 + self.hsuit
        self.h[i] |= 1 << self.hrank
        self.lens += self.ones[i]

    def _saved(self):
        """The trump's state and the trick's obligations, packed (SV_*): `_restore` takes them back."""
        return ((self.trump + 1) | self.hidden << SV_HIDDEN | self.revealed << SV_REVEALED
                | self.revealed_trick << SV_REVEALED_TRICK | self.reveal_k << SV_REVEAL_K | (self.asker + 1) << SV_ASKER
                | (self.must_trump + 1) << SV_MUST | self.lmt << SV_LMT)

    def _restore(self, v):
        hidden = (v >> SV_HIDDEN) & 1
        if hidden and not self.hidden:
            i = self.r.caller * 4 + self.hsuit
            self.h[i] &= RELMASK ^ (1 << self.hrank)
            self.lens -= self.ones[i]
        self.trump = (v & MASK3) - 1
        self.hidden = hidden
        self.revealed = (v >> SV_REVEALED) & 1
        self.revealed_trick = (v >> SV_REVEALED_TRICK) & MASK4
        self.reveal_k = (v >> SV_REVEAL_K) & MASK3
        self.asker = ((v >> SV_ASKER) & MASK3) - 1
        self.must_trump = ((v >> SV_MUST) & MASK3) - 1
        self.lmt = (v >> SV_LMT) & 1

    def _do(self, m, ply):
        """Play move m for the seat to play (a card, or REVEAL); `_undo(m, ply)` takes it back."""
        seat = (self.leader + self.tk) & 3
        k = self.tk
        self.sv[ply] = self._saved()
        if m == REVEAL:
            self._reveal(k)
            if k == 0:
                self.lmt = 1
            elif ask_obliges(self.r):
                self.asker = seat
            return
        s = m // 13
        r = m - 13 * s
        if self.hidden:  # does this card turn the face-down trump up first (the kernel's reveal_at_play)?
            code = reveal_at_play(self.r, seat, k, k > 0 and s != self.tsuit[self.tb + 0],
                                  s == self.hsuit and r == self.hrank and seat == self.r.caller)
            if code != REVEAL_NONE:
                self._reveal(k)
                if code == REVEAL_OPPONENT or code == REVEAL_VOID_MUST:
                    self.must_trump = seat
        i = seat * 4 + s
        self.h[i] ^= 1 << r
        self.lens -= self.ones[i]
        if self.r.first_void and self.trump < 0 and k > 0 and s != self.tsuit[self.tb + 0]:
            self.trump = s  # the first show-out sets the trump (trump.first-void)
        self.tseat[self.tb + k] = seat
        self.tsuit[self.tb + k] = s
        self.trank[self.tb + k] = r
        self.tcard[self.number] = (self.tcard[self.number] & ((1 << (8 * k)) - 1)) | table_card(s, r, s == self.trump, 0) << (8 * k)
        self.tk = k + 1

    def _undo(self, m, ply):
        if m != REVEAL:
            k = self.tk - 1
            i = self.tseat[self.tb + k] * 4 + self.tsuit[self.tb + k]
            self.h[i] |= 1 << self.trank[self.tb + k]
            self.lens += self.ones[i]
            self.tk = k
        self._restore(self.sv[ply])

    def _value_now(self):
        key = (self.won[0] | self.won[1] << TL_WON1 | (self.first_seven + 1) << TL_FIRST | self.tens[0] << TL_TENS0
               | self.tens[1] << TL_TENS1 | self.pkind << OK_KIND | self.pwinner << OK_WINNER | self.team << OK_TEAM)
        v = self.outcomes.get(key)
        if v is None:
            v = self.outcome(self.won[0], self.won[1], self.first_seven, self.tens[0], self.tens[1],
                             self.pkind, self.pwinner, self.team)
            self.outcomes[key] = v
        return v

    def _top_run(self, m, a):
        """How many of the suit's highest remaining cards `a` the seat's `m` holds, from the top."""
        n = 0
        while a:
            top = self.high[a]
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
            a ^= 1 << self.high[a]
        return self.up[s * 13 + self.high[a]]
