# The C types of core_pool.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_pool.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_moves cimport Moves

cdef u64 FALSE
cdef u64 HASH_A
cdef u64 HASH_B
cdef u64 M64
cdef int MAX_ENTRIES
cdef u64 NONE
cdef int PER_BUCKET
cdef u64 RELMASK
cdef int RES
cdef u64 TRUE
cdef u64 UNDECIDED
cdef int WORDS


cdef class Pool(Moves):
    # an index (open addressing) of buckets, each a run of entries in the pool
    cdef u64 code[4]
    cdef object key_array, slot_array, bucket_array, pool_array
    cdef u64[:] index_key
    cdef int[:] index_bucket
    cdef unsigned int[:] bucket
    cdef u64[:] pool
    cdef public int slots, nbuckets, room, used, hint

    @cython.locals(s=cython.int, a=u64, spec=u64, c=u64, r=cython.int, owner=cython.int, bit=u64, h0=u64, h1=u64,
                   h2=u64, h3=u64)
    cdef void _codes(self) noexcept

    cdef int _clear_table(self, int slots, int entries) except -1

    @cython.locals(mask=u64, i=u64, j=cython.int, n=cython.int)
    cdef int _find(self, u64 a, u64 b, int create) except -2

    @cython.locals(count=cython.int, mask=u64, k=cython.int, j=cython.int, a=u64, b=u64, i=u64)
    cdef int _grow_index(self) except -1

    @cython.locals(first=cython.int, room=cython.int, stored=cython.int, at=cython.int, count=cython.int,
                   e=cython.int, base=cython.int, meta=u64, kind=u64,
                   te=cython.longlong, move=cython.int, pool=u64[:], c0=u64, c1=u64, c2=u64, c3=u64)
    cdef u64 _lookup(self, int b, long long t) noexcept

    @cython.locals(rel=u64, s=cython.int, a=u64, n=cython.int, shift=cython.int)
    cdef u64 _entry_rel(self, u64 meta) noexcept

    @cython.locals(code=u64, rel=u64, s=cython.int, b=cython.int, slot=cython.int, base=cython.int, meta=u64,
                   a=u64, n=cython.int, shift=cython.int, x=u64)
    cdef int _store(self, u64 key, u64 lens, long long t, u64 r, int move) except -1

    @cython.locals(first=cython.int, room=cython.int, stored=cython.int, grown=cython.int, i=cython.int)
    cdef int _slot(self, int b) except -2

    cdef int _grow_pool(self) except -1
