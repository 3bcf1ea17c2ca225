# The C types of core_moves.py, for its compiled form (setup.py builds it; loader.py chooses).
# core_moves.py runs unchanged as Python; Cython reads these declarations when it compiles it.
cimport cython

ctypedef unsigned long long u64

from referee.solver.core_kernel_play cimport legal_suits, may_reveal
from referee.solver.core_trick cimport Trick

cdef int L_HIDDEN, LEAD_SUIT, LEAD_WEIGHT, OTHER_SUIT, REVEAL


cdef class Moves(Trick):
    cdef u64 spec[4]
    cdef int mv[1024]
    cdef int glo[16]
    cdef int ghi[16]
    cdef int sortkey[16]

    @cython.locals(n=cython.int, prev=cython.int, r=cython.int, spec=u64)
    cdef int _groups(self, u64 m, u64 a, int s) noexcept

    cdef int _special(self, int s, int r) noexcept

    @cython.locals(s=cython.int)
    cdef void _set_specials(self) noexcept

    @cython.locals(i=cython.int)
    cdef int _add(self, int base, int n, int key, int move) noexcept

    @cython.locals(seat=cython.int, base=cython.int, n=cython.int, i=cython.int)
    cdef int _gen(self, int ply, int hint, int best) noexcept

    @cython.locals(b=cython.int, held=cython.int)
    cdef int _allowed(self, int seat, int lead, int led) noexcept

    @cython.locals(b=cython.int, tr=cython.int, lho=cython.int, partner=cython.int, rho=cython.int,
                   n=cython.int, s=cython.int, m=u64, a=u64, g=cython.int, top=cython.int, first=cython.int,
                   second=cython.int, allowed=cython.int, lh=cython.int, rh=cython.int, ph=cython.int, side=cython.int,
                   lho_ruffs=cython.int, rho_ruffs=cython.int, partner_ruffs=cython.int, delta=cython.int,
                   opp_high=cython.int, i=cython.int, r=cython.int, hi=cython.int, rank=cython.int, safe=cython.int,
                   wins=cython.int, w=cython.int, left=cython.int,
                   sec=cython.int, third=cython.int, nw=cython.int)
    cdef int _leads(self, int seat, int base, int hint, int best) noexcept

    @cython.locals(seat=cython.int)
    cdef int _holder(self, int s, int r) noexcept

    @cython.locals(b=cython.int, led=cython.int, m=u64, wk=cython.int, ws=cython.int, wsu=cython.int, wr=cython.int,
                   ours=cython.int, n=cython.int, i=cython.int, g=cython.int, r=cython.int, key=cython.int,
                   allowed=cython.int, tr=cython.int, s=cython.int, need=cython.int, keep=cython.int, w=cython.int,
                   force=cython.int, kx=cython.int)
    cdef int _follows(self, int seat, int base) noexcept

    @cython.locals(tr=cython.int, lead=cython.int, t3=u64, t4=u64, l3=u64, l4=u64, cnt=cython.int, good=cython.int)
    cdef int _void_second(self, int s, int r, u64 m, int led, int kx) noexcept

    @cython.locals(tr=cython.int, cnt=cython.int, lead=cython.int, l4=u64, t4=u64, max4=cython.int, add=cython.int,
                   a=u64, second=cython.int)
    cdef int _void_third(self, int s, int r, u64 m, int led, int wk) noexcept

    @cython.locals(l4=u64, g=cython.int, second=cython.int, mine=u64)
    cdef int _force(self, int led, int wk) noexcept

    @cython.locals(opp=cython.int, part=cython.int, k=cython.int, other=cython.int, m=u64, hi=cython.int,
                   top=cython.int)
    cdef int _need(self, int seat, int led, int wsu, int wr, int ours) noexcept
