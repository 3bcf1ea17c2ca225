# The C types of core_table.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_table.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_kernel cimport pile_key
from referee.solver.core_pool cimport Pool

cdef int ACE
cdef int DEAL_TRICKS
cdef int END_PAIR
cdef int END_THIRTEEN
cdef int EXACT
cdef int PL_BITS
cdef int SCORE
cdef int TEN
cdef int TRICKS
cdef int WIDE


cdef class Table(Pool):
    # the keys: the rule state, as far as the objective looks at it
    cdef dict fates, fate_ids, state_ids, goals, goal_ids
    cdef list fate_sigs
    cdef public long long ask_t, key_t

    @cython.locals(obj=cython.int, state=u64)
    cdef u64 _key(self, int kk) noexcept

    cdef u64 _fate_key(self, u64 state) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(k=u64, v=object, sig=tuple, goal=tuple)
    cdef u64 _goal(self, u64 fate, long long t) except? 0xFFFFFFFFFFFFFFFF

    cdef u64 _owners_key(self, u64 state) noexcept
    @cython.locals(found=object, v=u64, mark=u64)
    cdef u64 _state_id(self, u64 state) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(opened=cython.int, key=cython.longlong, v=object, saved=cython.int)
    cdef u64 _fate(self) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(number=cython.int, won0=cython.int, won1=cython.int, tens0=cython.int, tens1=cython.int,
                   pile_tens=cython.int, piled=cython.int, paired=cython.int, shown=cython.int, ways=cython.int,
                   shows=cython.int, out=cython.int, aces=cython.int, trumps=cython.int,
                   kids=list, ws=cython.int, a=cython.int, k=cython.int, team=cython.int, taken=cython.int)
    cdef list _fate_kids(self, int opened, int saved)

    cdef int _fate_saved(self) noexcept

    cdef void _fate_restore(self, int saved) noexcept

    @cython.locals(v=cython.int, s=cython.int, owner=cython.int)
    cdef int _owners(self, int r) noexcept
