# The C types of core_spans.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_spans.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_table cimport Table

cdef int ACE
cdef int END_THIRTEEN
cdef int EXACT
cdef int SCORE


cdef class Spans(Table):
    cdef dict sims, spans, piles
    cdef long long span_lo, span_hi
    cdef int follow

    @cython.locals(key=cython.long)
    cdef int _span(self, int kk) except -1

    @cython.locals(out=cython.int, us=cython.int, lo=cython.longlong, hi=cython.longlong, saved=cython.int,
                   v=cython.longlong, w=cython.int, number=cython.int)
    cdef long long _span_of(self, int kk) except? -2

    @cython.locals(key=cython.long, saved_won0=cython.int, saved_won1=cython.int, saved_tens0=cython.int,
                   saved_tens1=cython.int, saved=cython.int, left=cython.int, j=cython.int, w=cython.int)
    cdef long long _sim(self, int side, int q, int sure, int fell) except? -1

    cdef int _aces_matter(self) noexcept

    cdef int _pile_span(self, int seat, int q, int c, int kk=*) except -1

    @cython.locals(low=cython.longlong, high=cython.longlong, key=cython.longlong, wide=object)
    cdef int _pile_span_at(self, int seat, int q, int c, int kk, int coll, int fell) except -1

    @cython.locals(w=cython.int, out=cython.int, v=cython.longlong)
    cdef long long _end_span(self, int need, int coll) except? -2

    @cython.locals(lo=cython.longlong, hi=cython.longlong, saved=cython.int, aces=cython.int, trumps=cython.int,
                   open_est=cython.int, shows=cython.int, number=cython.int, won0=cython.int, won1=cython.int,
                   piled=cython.int, paired=cython.int, shown=cython.int, ws=cython.int, a=cython.int, ace=cython.int, forced=cython.int, team=cython.int,
                   e=cython.int, v=cython.longlong, gain=cython.int, left=cython.int, owe=cython.int,
                   need=cython.int, more=cython.int, on=cython.int, tens0=cython.int, tens1=cython.int,
                   pile_tens=cython.int, got=cython.int)
    cdef long long _pile_span_of(self, int seat, int q, int c, int kk, int coll, int fell) except? -2
