# The C types of the rule kernel's second file, referee/engine/kernel_play.py, for its
# compiled form: setup.py compiles that file as referee.solver.core_kernel_play (loader.py
# chooses); the engine always runs it as Python, and so does the solver's Python path.
cimport cython

from referee.solver.core_kernel cimport Rules

cdef int BAND_AUTO, BAND_AUTO_MUST
cdef int REVEAL_NONE, REVEAL_OPPONENT, REVEAL_VOID, REVEAL_VOID_MUST, REVEAL_FOLLOWED, REVEAL_PLAYED
cdef int L_HIDDEN
cdef int BAR_NONE, BAR_PAIR_CALLERS, BAR_CALLER, BAR_NOT_CALLER_ON_LEAD


cpdef int reveal_bar(Rules r, int seat, int lead) noexcept

cpdef int may_reveal(Rules r, int seat, int lead, int can_follow) noexcept

cpdef int ask_obliges(Rules r) noexcept

cpdef int must_trump(Rules r, int seat, int asker, int obliged, int hidden) noexcept

cpdef int follow_suit(int lead, int led, int trump, int lmt) noexcept

cpdef int ruff_suit(Rules r, int seat, int led, int trump, int hsuit, int asker, int obliged) noexcept

@cython.locals(mine=cython.int, hand=cython.int, suit=cython.int)
cpdef int legal_suits(Rules r, int seat, int lead, int led, int held, int trump, int hsuit, int lmt, int asker,
                      int obliged) noexcept

cpdef int reveal_at_play(Rules r, int seat, int k, int off_suit, int hidden_card) noexcept
