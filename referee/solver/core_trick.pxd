# The C types of core_trick.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_trick.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_kernel cimport deal_end, pair_state, pair_step, pile_blocked, pile_collects, pile_hot, pile_pair_open, pile_state
from referee.solver.core_state cimport State

cdef int ACE
cdef int E_COURT, E_ENDED, E_FIRST
cdef int MASK2, MASK3, MASK4
cdef int P_DEFERRED, P_KIND, P_RUN, P_SEAT, P_TEAM
cdef int PL_ACE, PL_BITS, PL_COLL, PL_EST, PL_HOT, PL_PILE, PL_WINNER
cdef int SV_TK
cdef int TL_COURT, TL_ENDED, TL_FIRST, TL_LEADER, TL_PILE_TENS, TL_PLAY_ON, TL_TENS0, TL_TENS1, TL_WON1
cdef int END_PAIR
cdef int KIND_NONE
cdef int TEN
cdef int TRICKS


cdef class Trick(State):
    @cython.locals(wk=cython.int, ws=cython.int, wsu=cython.int, wr=cython.int, number=cython.int, rel=u64,
                   j=cython.int, taken=cython.int, team=cython.int)
    cdef int _close_do(self) noexcept

    @cython.locals(number=cython.int, v=cython.longlong, j=cython.int)
    cdef void _close_undo(self) noexcept

    cdef int _pile_word(self) noexcept

    cdef void _set_pile(self, long long v) noexcept

    cdef int _pair_word(self) noexcept

    cdef void _set_pair(self, long long v) noexcept

    @cython.locals(pair=cython.int, blocked=cython.int, collects=cython.int, established=cython.int)
    cdef int _pile_trick(self, int number, int ws, int wsu, int wr, int wk) noexcept

    @cython.locals(decided=cython.int, res=cython.int)
    cdef int _ends(self, int number, int ws, int ace) noexcept

    @cython.locals(state=cython.int)
    cdef int _pair_trick(self, int number, int ws, int ace) noexcept
