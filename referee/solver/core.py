# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The one search of perfect play (§13), shaped as the bridge double-dummy solver DDS is.

One position: each seat's cards as 13-bit masks per suit, the trick on the table, and the
rule state (the trump: known, unset or still face down with the card set aside; tricks
and collected tricks per team, the pile and its run, tens taken, the deciding-pair run,
the first seven and a play-on). One move generator: touching cards are one move; asks and
reveals are moves where the rules make them moves; face-down discards are not moves apart
from the same card face up (under `score` with the tens counted and no pile, a ten moved
first into a trick its side is winning, last where it loses: `_tens_order`). One question,
asked yes or no as DDS asks it: "does the perspective team's value from here reach t?",
for four objectives:

- TRICKS: every remaining trick played, whatever the deal's end; the tricks the team takes
  (collects, in pile games) from here: the bridge double-dummy number;
- DEAL_TRICKS: the same up to the deal's own end (a claim's g, R-34);
- SCORE: the deal's outcome for the team, encoded (outcome.py);
- EXACT: SCORE among the lines that give the team exactly kk more tricks (R-34a), with a
  third answer, NONE, where no line gives that count;
- FEWEST: R-38's f, the fewest tricks any line gives the team (all four seats choosing
  together).

EXACT's "is there a line at all?" and FEWEST are the exact-count search (core_exact.py), a
search of its own with its own bounds and table, which the restricted search asks too.

At each trick's start: sure tricks (bridge play only; at the second hand too, a trick one
team surely wins: core_quick._second), and one transposition table keyed
by relative ranks plus the rule state, each answer holding for every position whose cards
that the answer depended on (and every higher one) have the same owners (DDS's winning
ranks). The R-4 play-on choice is one function (`_choice`).

The search is one class built in layers, one module each: core_state (the position, playing
and taking back a move), core_trick (a trick's close, the deal's end), core_moves (the move
generator), core_table (the transposition table), core_spans (the outcomes every sequence
of trick winners can reach), core_quick (quick tricks, as DDS counts them), core_bounds
(the deal's ends), core_reach (the exact-count table), core_exact (the
exact-count search and the budget's accounting), and this module (the search itself and the driver's questions); their numbers are
core_codes. They are plain Python and are also compiled by Cython (the C types in each
module's .pxd) when the install finds a C compiler; both run the same code (loader.py
chooses). They import nothing else: the rules' option values come in as numbers
(position.py reads them from the engine's replay), the deal's scoring as a function.
"""
from .core_codes import DEAL_TRICKS, EXACT, FALSE, FEWEST, LOWEST, NONE, REACH_FIRST, RELMASK, RES, REVEAL, SCORE, TEN, TRUE, UNDECIDED
from .core_exact import Exact
from .core_kernel import table_card, trick_winner


class Search(Exact):
    """One solve's search: `load` a position, then `test`, `push`/`pop` (see core_state.State
    for the arguments)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.lead_best = [-1] * 64
        self.stack = [0] * 64
        self.stack_kind = [0] * 64
        self.best_move = -1
        self.tmp = [0] * 16
        self.tens_order = 1 if self.tens_on and objective == SCORE and not self.r.pile else 0  # a pile: who collects it decides

    def _terminal(self, t, kk):
        """The deal is over: does the value reach t?"""
        obj = self.objective
        if obj <= DEAL_TRICKS:
            return (TRUE if t <= 0 else FALSE) << RES
        if obj == EXACT and kk != 0:
            return NONE << RES
        return (TRUE if self._value_now() >= t else FALSE) << RES

    def _choice(self, t, kk):
        """After a first-7 court the court team stops or plays on (R-4): the better for it."""
        mine = self.first_seven == self.team
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
        if self.bridge:
            r = self._sure(t)  # every trick is played: the bridge question
            if r != UNDECIDED << RES:
                return r
        elif (obj == SCORE or obj == DEAL_TRICKS) and self.monotone:
            r = self._envelope(t)
            if r != UNDECIDED << RES:
                return r
        elif (obj == SCORE or obj == DEAL_TRICKS) and (self.r.pile or self.r.pairs) and not self.r.settled:
            # DEAL_TRICKS's outcome is the team's count (Solver.prepare): its value from here is t more
            r = self._pile_bound(t if obj == SCORE else t + self.won[self.team])
            if r != UNDECIDED << RES:
                return r
        elif obj == EXACT and self.monotone:
            r = self._exact_envelope(t, kk)
            if r != UNDECIDED << RES:
                return r
        elif obj == EXACT and (self.r.pile or self.r.pairs) and not self.r.settled:
            r = self._exact_pile(t, kk)
            if r != UNDECIDED << RES:
                return r
        self.ask_t = t
        key = self._key(kk)
        tt = self.key_t  # the threshold as the key's entries keep it (core_table._goal)
        lens = self.lens
        self._codes()
        r = self._lookup(self._find(key, lens, 0), tt)
        if r != UNDECIDED << RES:
            return r
        c0 = self.code[0]  # this position's, again at the store (the search below changes them)
        c1 = self.code[1]
        c2 = self.code[2]
        c3 = self.code[3]
        r = self._card(t, kk, self.hint)
        if not self.stopped:
            self.code[0] = c0
            self.code[1] = c1
            self.code[2] = c2
            self.code[3] = c3
            self._store(key, lens, tt, r, self.best_move)
        return r

    def _card(self, t, kk, hint):
        """The seat to play tries each move: a yes for its team (any move) or a no (every
        move), NONE where no move has a line (EXACT)."""
        if self._count_node():
            return 0
        if self.objective == EXACT and self.tk and self.piled:
            res = self._exact_within(t, kk)
            if res != UNDECIDED << RES:
                return res
        elif self.tk == 1 and self.bridge and self._trump_settled():
            res = self._second(t)  # a team surely wins this trick: either team
            if res != UNDECIDED << RES:
                return res
        ply = self.ply
        seat = (self.leader + self.tk) & 3
        mine = (seat & 1) == self.team
        n = self._gen(ply, hint, self.lead_best[ply] if self.tk == 0 else -1)
        if self.tens_order and n > 1:
            self._tens_order(ply * 16, n, seat)
        want = TRUE if mine else FALSE
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
                if self.tk == 0:
                    self.lead_best[ply] = m
                break
            rel |= res & RELMASK
            if code == other:
                best = other
            if m != REVEAL and not self.lw[lw + s] and not self._special(s, r):
                low = self.low[(rel >> (13 * s)) & 8191]
                if low < 0:
                    self.lw[lw + s] = 13  # no rank of the suit mattered: any other card of it is the same
                elif r < low:
                    self.lw[lw + s] = low
        self.ply = ply
        self.best_move = found
        return best << RES | rel

    def _tens_order(self, base, n, seat):
        """Under `score` with the tens counted, a ten goes where it is likely best (the move
        generator weighs tricks alone): into a trick the seat's side is winning, first; into
        one it is losing and the ten does not win (trick.winner, the kernel's), or led under a
        card still out, last."""
        ours = 0
        if self.tk:
            ours = 1 if (self.tseat[self.tb + self._winner()] & 1) == (seat & 1) else 0
        tr = self.trump if not self.hidden else -1
        front = 0
        back = 0
        i = 0
        for i in range(n):
            m = self.mv[base + i]
            if m == REVEAL or m % 13 != TEN:
                continue
            s = m // 13
            if self.tk == 0:
                if self.high[self.alive[s]] != TEN:
                    back |= 1 << i
            elif ours:
                front |= 1 << i
            else:
                # the trump once the ten is down: a first show-out sets it (core_state._do)
                after = s if tr < 0 and self.r.first_void and s != self.tsuit[self.tb] else tr
                cards = self.tcard[self.number] | table_card(s, TEN, s == after, 0) << (8 * self.tk)
                if trick_winner(cards, self.tk + 1, after) != self.tk:
                    back |= 1 << i
        if front | back:
            self._tens_move(base, n, front, back)

    def _tens_move(self, base, n, front, back):
        """The moves flagged in `front` first and those in `back` last, each group in order."""
        i = 0
        k = 0
        for i in range(n):
            self.tmp[i] = self.mv[base + i]
        for i in range(n):
            if (front >> i) & 1:
                self.mv[base + k] = self.tmp[i]
                k += 1
        for i in range(n):
            if not ((front | back) >> i) & 1:
                self.mv[base + k] = self.tmp[i]
                k += 1
        for i in range(n):
            if (back >> i) & 1:
                self.mv[base + k] = self.tmp[i]
                k += 1

    def test(self, t, kk=0):
        """Does the perspective team's value from this position reach t? TRUE, FALSE or
        NONE (EXACT: no line gives exactly kk more tricks). Raises what the budget raised.
        Whether a line gives kk at all (EXACT, t at LOWEST) and FEWEST's f >= t are asked of
        the exact-count search (core_exact)."""
        if self.objective == FEWEST:
            return TRUE if t <= 0 or not self.reaches((1 << t) - 1) else FALSE
        if self.objective == EXACT and t <= LOWEST:
            return TRUE if 0 <= kk <= 14 and self.reaches(1 << kk) else NONE
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
            raise self._stop()
        return r >> RES

    def _stop(self):
        """A stopped search keeps nothing: its table starts again small, and its stop goes up
        without the frames it was caught in and held by no frame of ours (they hold this
        search: a cycle that only a full collection would free, with the table in it)."""
        error = self.error
        self.error = None
        self._clear_table(1 << 12, 1 << 14)
        self._clear_reach(REACH_FIRST)
        return error.with_traceback(None)

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
