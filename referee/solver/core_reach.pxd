# The C types of core_reach.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_reach.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_bounds cimport Bounds

cdef u64 HASH_A
cdef u64 HASH_B
cdef u64 M64
cdef int REACH_FIRST
cdef int REACH_MAX
cdef int REACH_PROBE
cdef int REACH_WORDS


cdef class Reach(Bounds):
    # the exact-count table
    cdef object reach_array
    cdef u64[:] rpool
    cdef public int rslots, rused

    cdef int _clear_reach(self, int slots) except -1

    @cython.locals(h=u64)
    cdef int _reach_home(self, u64 k0, u64 k1, u64 c0, u64 c1, u64 c2, u64 c3) noexcept

    @cython.locals(home=cython.int, free=cython.int, j=cython.int, i=cython.int, b=cython.int)
    cdef int _reach_slot(self, u64 k0, u64 k1, u64 c0, u64 c1, u64 c2, u64 c3) noexcept

    @cython.locals(i=cython.int, v=u64, b=cython.int, x=u64)
    cdef int _reach_put(self, u64 k0, u64 k1, u64 c0, u64 c1, u64 c2, u64 c3, int yes, int no, u64 rel) except -1

    @cython.locals(old=object, count=cython.int, k=cython.int, b=cython.int, v=u64, i=cython.int, w=cython.int)
    cdef int _grow_reach(self) except -1
