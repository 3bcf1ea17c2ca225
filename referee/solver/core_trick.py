# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""How a trick closes and when the deal ends, in the core search (core.py): who collects, the
pile and its run (pile.*), tens, the end modes (end.*), the deciding pair, each closing
taken back after the search below it."""
from .core_codes import (ACE, E_COURT, E_ENDED, E_FIRST, END_PAIR, KIND_NONE, MASK2, MASK3, MASK4, P_DEFERRED, P_KIND,
                         P_RUN, P_SEAT, P_TEAM, PL_ACE, PL_BITS, PL_COLL, PL_EST, PL_HOT, PL_PILE, PL_WINNER, SV_TK, TEN,
                         TL_COURT, TL_ENDED, TL_FIRST, TL_LEADER, TL_PILE_TENS, TL_PLAY_ON, TL_TENS0, TL_TENS1, TL_WON1,
                         TRICKS)
from .core_kernel import deal_end, pair_state, pair_step, pile_blocked, pile_collects, pile_hot, pile_pair_open, pile_state
from .core_state import State


class Trick(State):
    """Closing a trick and the deal's end, for the core search (core.Search)."""

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
                rel = self.up[wsu * 13 + wr]
        self.closed_rel = rel
        self.cs[3 * number] = (self.won[0] | self.won[1] << TL_WON1 | (self.first_seven + 1) << TL_FIRST
                               | self.tens[0] << TL_TENS0 | self.tens[1] << TL_TENS1 | self.pile_tens << TL_PILE_TENS
                               | self.play_on << TL_PLAY_ON | self.court_made << TL_COURT | self.ended << TL_ENDED
                               | self.leader << TL_LEADER)
        self.cs[3 * number + 1] = self._pile_word() | self._pair_word() << PL_BITS
        self.cs[3 * number + 2] = self._saved() | self.tk << SV_TK
        for j in range(4):
            self.alive[self.tsuit[self.tb + j]] ^= 1 << self.trank[self.tb + j]
        taken = 1
        team = ws & 1
        if self.r.pile:
            team = self._pile_trick(number, ws, wsu, wr, wk)
            taken = self.taken
        if team >= 0:
            self.won[team] += taken
        if self.tens_on:
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
        self.won[0] = v & MASK4
        self.won[1] = (v >> TL_WON1) & MASK4
        self.first_seven = ((v >> TL_FIRST) & MASK2) - 1
        self.tens[0] = (v >> TL_TENS0) & MASK3
        self.tens[1] = (v >> TL_TENS1) & MASK3
        self.pile_tens = (v >> TL_PILE_TENS) & MASK3
        self.play_on = (v >> TL_PLAY_ON) & 1
        self.court_made = (v >> TL_COURT) & 1
        self.ended = (v >> TL_ENDED) & 1
        self.leader = (v >> TL_LEADER) & MASK2
        v = self.cs[3 * number + 1]
        self._set_pile(v)
        self._set_pair(v >> PL_BITS)
        v = self.cs[3 * number + 2]
        self._restore(v)
        self.tk = (v >> SV_TK) & MASK3
        j = 0
        for j in range(4):
            self.alive[self.tsuit[self.tb + j]] |= 1 << self.trank[self.tb + j]

    def _pile_word(self):
        """The pile's state, packed (the kernel's pile_state)."""
        return pile_state(self.pile, self.pw, self.pace, self.pest, self.pcoll, self.hot)

    def _set_pile(self, v):
        """The pile's state from `_pile_word`'s."""
        self.pile = v & PL_PILE
        self.pw = ((v >> PL_WINNER) & MASK3) - 1
        self.pace = (v >> PL_ACE) & 1
        self.pest = (v >> PL_EST) & 1
        self.pcoll = (v >> PL_COLL) & 1
        self.hot = (v >> PL_HOT) & 1

    def _pair_word(self):
        """The deciding pair's run and kind, packed (the kernel's pair_state, P_KIND, P_TEAM)."""
        return pair_state(self.run_by, self.run, self.deferred) | self.pkind << P_KIND | self.pwinner * P_TEAM

    def _set_pair(self, v):
        """The deciding pair's run and kind from `_pair_word`'s (or pair_step's)."""
        self.run_by = (v & P_SEAT) - 1
        self.run = (v >> P_RUN) & MASK2
        self.deferred = 1 if v & P_DEFERRED else 0
        self.pkind = (v >> P_KIND) & MASK2
        self.pwinner = 1 if v & P_TEAM else 0

    def _pile_trick(self, number, ws, wsu, wr, wk):
        """Double Sir's pile (pile.*): the trick goes on the pile; the same player winning two
        in a row collects it (R-8: a pair an option blocks leaves the run unbroken)."""
        self.pile += 1
        pair = pile_pair_open(self.pw, ws, self.hot, self.pcoll, self.pest)
        blocked = pile_blocked(self.r, number, wr, wsu, self.trump, self.pace) if pair else 0
        collects = pile_collects(number, pair, blocked)
        self.hot = pile_hot(self.r, pair, collects, self.hot, blocked)
        if self.r.first_void:
            established = self.trump >= 0
        elif self.r.concealed:
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
        may be played on (R-4): the kernel's deal_end and pair_step, as the engine's check_end."""
        if self.r.end == END_PAIR:
            decided = self._pair_trick(number, ws, ace) if self.pkind == KIND_NONE else 0
            return 1 if number == 13 or decided else 0
        res = deal_end(self.r, number, self.won[0], self.won[1], self.tens[0], self.tens[1], ws & 1, self.play_on,
                       self.first_seven)
        self.first_seven = (res >> E_FIRST) - 1
        if res & E_COURT:
            self.court_made = 1
        return 1 if res & E_ENDED else 0

    def _pair_trick(self, number, ws, ace):
        """Band Rang's run (end.deciding-pair, end.deciding-pair-ace): True when a pair decides."""
        state = pair_step(self.r, pair_state(self.run_by, self.run, self.deferred), number, ws, ace,
                          self.revealed_trick if self.revealed else -1)
        self._set_pair(state)
        return 0 if self.pkind == KIND_NONE else 1
