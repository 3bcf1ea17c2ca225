# The C types of core_state.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_state.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_kernel cimport Rules, rules_like, table_card, trick_winner
from referee.solver.core_kernel_play cimport ask_obliges, reveal_at_play

cdef int ACE
cdef int MASK3, MASK4
cdef int OK_KIND, OK_TEAM, OK_WINNER
cdef u64 RELMASK
cdef int REVEAL
cdef int REVEAL_NONE, REVEAL_OPPONENT, REVEAL_VOID_MUST
cdef int SCORE
cdef int SV_ASKER, SV_HIDDEN, SV_LMT, SV_MUST, SV_REVEAL_K, SV_REVEALED, SV_REVEALED_TRICK
cdef int TABLE_DOWN, TABLE_TRUMP
cdef int TEN
cdef int TL_FIRST, TL_TENS0, TL_TENS1, TL_WON1
cdef int TRICKS


cdef class State:
    # the rules' settings (the kernel's Rules, position.rules)
    cdef public Rules r
    cdef public int tens_on
    cdef public int objective, team
    cdef public object outcome, spend, error
    cdef dict outcomes
    cdef u64 specials
    # tables of 13-bit masks (core_codes)
    cdef int bits[8192]
    cdef int high[8192]
    cdef int low[8192]
    cdef u64 up[52]
    cdef u64 ones[16]
    # the position
    cdef u64 h[16]
    cdef u64 alive[4]
    cdef u64 lens
    cdef int tseat[64]
    cdef int tsuit[64]
    cdef int trank[64]
    cdef u64 tcard[16]
    cdef public int tk, tb, leader, number
    cdef public int trump, secret, hidden, hsuit, hrank, revealed, revealed_trick, reveal_k
    cdef public int asker, must_trump, lmt
    cdef int won[2]
    cdef int tens[2]
    cdef public int pile_tens, first_seven, play_on, court_made, ended
    cdef public int pile, pw, pace, pest, pcoll, hot, taken
    cdef public int run_by, run, deferred, pkind, pwinner
    # taking moves and tricks back
    cdef u64 sv[64]
    cdef long long cs[64]
    cdef public int depth, ply
    cdef u64 closed_rel

    cdef int _winner(self) noexcept

    @cython.locals(i=cython.int)
    cdef void _reveal(self, int k) noexcept

    cdef u64 _saved(self) noexcept

    @cython.locals(hidden=cython.int, i=cython.int)
    cdef void _restore(self, u64 v) noexcept

    @cython.locals(seat=cython.int, k=cython.int, s=cython.int, r=cython.int, code=cython.int, i=cython.int)
    cdef void _do(self, int m, int ply) noexcept

    @cython.locals(k=cython.int, i=cython.int)
    cdef void _undo(self, int m, int ply) noexcept

    @cython.locals(key=cython.long)
    cdef long long _value_now(self) except? -1

    @cython.locals(n=cython.int, top=cython.int)
    cdef int _top_run(self, u64 m, u64 a) noexcept

    @cython.locals(i=cython.int)
    cdef u64 _top_mask(self, int s, u64 a, int n) noexcept
