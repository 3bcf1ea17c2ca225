# The C types of core_exact.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_exact.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_bounds cimport Bounds

cdef int CHECK
cdef int EXACT
cdef int FEWEST
cdef u64 FALSE
cdef u64 HASH_A
cdef u64 HASH_B
cdef u64 M64
cdef int REACH_FIRST
cdef int REACH_MAX
cdef int REACH_PROBE
cdef int REACH_WORDS
cdef u64 RELMASK
cdef int RES
cdef u64 TRUE
cdef int REVEAL
cdef u64 UNDECIDED
cdef u64 NONE


cdef class Exact(Bounds):
    cdef public int stopped, reached
    cdef int piled
    cdef u64 count_rel
    cdef int lw[256]  # per ply, per suit: the ranks below which a card is the same as one tried (both searches)
    cdef public long long nodes
    cdef int unspent
    # the exact-count table
    cdef object reach_array
    cdef u64[:] rpool
    cdef public int rslots, rused

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

    cdef u64 _exact_envelope(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    cdef u64 _exact_pile(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(found=u64)
    cdef u64 _decided(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    cdef int _clear_reach(self, int slots) except -1

    @cython.locals(h=u64)
    cdef int _reach_home(self, u64 k0, u64 k1, u64 c0, u64 c1, u64 c2, u64 c3) noexcept

    @cython.locals(home=cython.int, free=cython.int, j=cython.int, i=cython.int, b=cython.int)
    cdef int _reach_slot(self, u64 k0, u64 k1, u64 c0, u64 c1, u64 c2, u64 c3) noexcept

    @cython.locals(i=cython.int, v=u64, b=cython.int, x=u64)
    cdef int _reach_put(self, u64 k0, u64 k1, u64 c0, u64 c1, u64 c2, u64 c3, int yes, int no, u64 rel) except -1

    @cython.locals(old=object, count=cython.int, k=cython.int, b=cython.int, v=u64, i=cython.int, w=cython.int)
    cdef int _grow_reach(self) except -1
