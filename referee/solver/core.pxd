# The C types of core.py, for its compiled form (setup.py builds it; loader.py chooses).
# core.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_exact cimport Exact
from referee.solver.core_kernel cimport table_card, trick_winner

cdef int DEAL_TRICKS
cdef int EXACT
cdef u64 FALSE
cdef int FEWEST
cdef long long LOWEST
cdef u64 NONE
cdef int REACH_FIRST
cdef u64 RELMASK
cdef int RES
cdef int REVEAL
cdef int SCORE
cdef int TEN
cdef u64 TRUE
cdef u64 UNDECIDED


cdef class Search(Exact):
    cdef int lead_best[64]
    cdef int stack[64]
    cdef int stack_kind[64]
    cdef public int best_move
    cdef int tmp[16]
    cdef public int tens_order

    @cython.locals(obj=cython.int)
    cdef u64 _terminal(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(mine=cython.int, stop=u64, code=u64, on=u64)
    cdef u64 _choice(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(ca=u64, cb=u64, rel=u64, want=u64)
    cdef u64 _either(self, int mine, u64 a, u64 b) noexcept

    @cython.locals(gain=cython.int, rel=u64, obj=cython.int, r=u64)
    cdef u64 _close(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(left=cython.int, obj=cython.int, r=u64, key=u64, tt=cython.longlong, lens=u64, c0=u64, c1=u64, c2=u64,
                   c3=u64)
    cdef u64 _start(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(ply=cython.int, seat=cython.int, mine=cython.int, n=cython.int, want=u64, other=u64, rel=u64,
                   best=u64, found=cython.int, i=cython.int, m=cython.int, res=u64, code=u64, lw=cython.int,
                   s=cython.int, r=cython.int, low=cython.int)
    cdef u64 _card(self, long long t, int kk, int hint) except? 0xFFFFFFFFFFFFFFFF


    @cython.locals(ours=cython.int, tr=cython.int, after=cython.int, cards=u64, front=cython.int,
                   back=cython.int, i=cython.int, m=cython.int, s=cython.int)
    cdef void _tens_order(self, int base, int n, int seat) noexcept

    @cython.locals(i=cython.int, k=cython.int)
    cdef void _tens_move(self, int base, int n, int front, int back) noexcept

