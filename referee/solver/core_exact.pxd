# The C types of core_exact.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_exact.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_reach cimport Reach

cdef int CHECK
cdef int END_THIRTEEN
cdef int EXACT
cdef int FEWEST
cdef u64 FALSE
cdef int REACH_FIRST
cdef int REACH_WORDS
cdef u64 RELMASK
cdef int RES
cdef u64 TRUE
cdef int REVEAL
cdef int TEN
cdef u64 UNDECIDED
cdef u64 NONE


cdef class Exact(Reach):
    cdef public int stopped, reached
    cdef int piled
    cdef u64 count_rel
    cdef int lw[256]  # per ply, per suit: the ranks below which a card is the same as one tried (both searches)
    cdef public long long nodes
    cdef int unspent

    @cython.locals(n=cython.int)
    cdef void _spend(self)

    cdef int _count_node(self) except -1

    @cython.locals(x=u64)
    cdef u64 _reach(self, int want) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(r=u64)
    cdef u64 _reach_choice(self, int want) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(hi=cython.int, lo=cython.int, m=cython.int)
    cdef int _counts(self) noexcept

    @cython.locals(m=cython.int, tr=cython.int, at=u64, top=cython.int, holder=cython.int, mine=u64, part=u64, a=cython.int,
                   b=cython.int, n=cython.int, rest=u64)
    cdef int _runs(self) noexcept

    @cython.locals(k=cython.int)
    cdef int _sequences(self, int want) except -1

    @cython.locals(top=cython.int)
    cdef int _few(self, int want) noexcept

    @cython.locals(crel=u64, k0=u64, k1=u64, c0=u64, c1=u64, c2=u64, c3=u64, i=cython.int, b=cython.int, v=u64,
                   yes=cython.int, no=cython.int, rel_no=u64, low=cython.int, r=u64, rel=u64)
    cdef u64 _reach_start(self, int want) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(ply=cython.int, seat=cython.int, rev=cython.int, n=cython.int, found=u64, rel=u64, i=cython.int,
                   m=cython.int, res=u64, lw=cython.int, s=cython.int, r=cython.int, low=cython.int)
    cdef u64 _reach_card(self, int want, int few) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(gain=cython.int, rel=u64, w=cython.int, r=u64)
    cdef u64 _reach_close(self, int want) except? 0xFFFFFFFFFFFFFFFF

    cdef u64 _exact_within(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(sure=cython.int, r=u64)
    cdef u64 _exact_envelope(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(sure=cython.int, found=cython.int)
    cdef int _exact_span(self, int kk) except -3

    cdef int _tens_known(self, int kk) except -1

    cdef u64 _exact_pile(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(found=u64, lo=cython.longlong)
    cdef u64 _decided(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF
