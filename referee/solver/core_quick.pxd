# The C types of core_quick.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_quick.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_spans cimport Spans

cdef int DEAL_TRICKS
cdef int END_THIRTEEN
cdef u64 FALSE
cdef int RES
cdef int TRICKS
cdef u64 TRUE
cdef u64 UNDECIDED


cdef class Quick(Spans):
    cdef public int cash_counts, bridge
    cdef int drawn_trumps
    cdef u64 cash_rel, trumps_rel
    cdef int cash_n[4]
    cdef int trumps_n[4]
    cdef u64 trumps_of[4]

    @cython.locals(b=cython.int, tr=cython.int, o1=cython.int, o2=cython.int, p=cython.int, ruff=u64,
                   partner_ruffs=u64, q=cython.int, rel=u64, counts=cython.int, s=cython.int, m=u64, n=cython.int)
    cdef int _cash(self, int seat, int follows) noexcept

    @cython.locals(left=cython.int, team=cython.int, tr=cython.int, have=cython.int, n=cython.int, leader=cython.int,
                   partner=cython.int, ours=cython.int, q=cython.int, need=cython.int, seat=cython.int, rel=u64, b=cython.int, pb=cython.int,
                   entries=cython.int, s=cython.int, more=cython.int, more_rel=u64, more_tr=cython.int, own=cython.int)
    cdef u64 _sure(self, long long t) noexcept

    @cython.locals(tr=cython.int, b=cython.int, o1=cython.int, o2=cython.int, p=cython.int, top=cython.int, q=cython.int,
                   partner_trumps=cython.int, s=cython.int, m=u64, n=cython.int)
    cdef int _drawn(self, int seat) noexcept

    @cython.locals(rel=u64, used=cython.int, b=cython.int, best=cython.int, s=cython.int, k=cython.int, run=cython.int)
    cdef u64 _fewest(self, int need, int seat) noexcept

    @cython.locals(tr=cython.int, seat=cython.int, o=u64, m=u64, best=cython.int, rel=u64, k=cython.int, x=cython.int)
    cdef int _trumps(self) noexcept

    @cython.locals(seat=cython.int)
    cdef int _team_trumps(self, int team) noexcept

    @cython.locals(at=u64)
    cdef int _trump_holder(self) noexcept

    @cython.locals(tr=cython.int, b=cython.int, p=cython.int, o1=cython.int, o2=cython.int, s=cython.int, n=cython.int)
    cdef int _ruff_trick(self, int leader) noexcept

    @cython.locals(left=cython.int, seat=cython.int, s=cython.int, b2=cython.int, b3=cython.int, b4=cython.int,
                   ruff2=cython.int, ruff3=cython.int, ruff4=cython.int, ours=u64, theirs=u64, side=cython.int, rel=u64)
    cdef u64 _second(self, long long t) noexcept

    @cython.locals(tr=cython.int)
    cdef int _ruffs(self, int b, int s) noexcept

    @cython.locals(tr=cython.int, b=cython.int, p=cython.int, rel=u64, s=cython.int, top=cython.int)
    cdef bint _trump_settled(self) noexcept
    cdef int _lost_lead(self) noexcept
