# The C types of core_bounds.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_bounds.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_kernel cimport pile_blocked
from referee.solver.core_quick cimport Quick

cdef int ACE
cdef int END_PILE
cdef int END_THIRTEEN
cdef int EXACT
cdef u64 FALSE
cdef int RES
cdef int SCORE
cdef int TEN
cdef u64 TRUE
cdef u64 UNDECIDED


cdef class Bounds(Quick):
    cdef public int monotone

    @cython.locals(left=cython.int, us=cython.int, them=cython.int, q=cython.int, sure=cython.int, rel=u64,
                   fell=cython.int, ten=u64)
    cdef u64 _envelope(self, long long t) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(tr=cython.int, lead=cython.int, b=cython.int, p=cython.int, o1=cython.int, o2=cython.int,
                   s=cython.int, a=u64, ours=u64, top=cython.int, w=cython.int)
    cdef u64 _ten_trick(self, int sure) noexcept

    cdef int _may_ruff(self, int b, int s) noexcept

    @cython.locals(tr=cython.int, a=u64, holder=cython.int, team=cython.int, ours=u64)
    cdef int _ten_sure(self) noexcept

    @cython.locals(fell=cython.int, s=cython.int, n=cython.int, j=cython.int, i=cython.int)
    cdef int _fallen(self, int seat, int sure) noexcept

    @cython.locals(tr=cython.int, at=u64, holder=cython.int, n=cython.int)
    cdef int _masters(self) noexcept

    @cython.locals(m=cython.int, n=cython.int)
    cdef int _forced(self, int kk) noexcept


    @cython.locals(tr=cython.int, at=u64, holder=cython.int, n=cython.int, j=cython.int, a=u64,
                   last_ace=cython.int, k=cython.int, rank=cython.int)
    cdef int _sure_pair(self) noexcept

    @cython.locals(hidden=cython.int, tr=cython.int, at=u64, top=cython.int, holder=cython.int, mine=cython.int)
    cdef int _sure_last(self) noexcept

    @cython.locals(q=cython.int, c=cython.int, lo=cython.longlong, hi=cython.longlong, found=u64, fell=cython.int)
    cdef u64 _pile_bound(self, long long t) except? 0xFFFFFFFFFFFFFFFF

    cdef u64 _owed(self, int owe, int need, long long t) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(c=cython.int, s=cython.int)
    cdef int _cash_aces(self) noexcept
