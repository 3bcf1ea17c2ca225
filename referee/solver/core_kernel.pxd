# The C types of the rule kernel, referee/engine/kernel.py, for its compiled form: setup.py
# compiles that file as referee.solver.core_kernel (loader.py chooses); the engine always runs
# it as Python, and so does the solver's Python path.
cimport cython

ctypedef unsigned long long u64

cdef int ACE
cdef int T_RANK, T_SUIT, T_TRUMP, T_DOWN
cdef int SEAL_ANY, SEAL_TRUMP
cdef int END_SEVEN, END_PILE, END_BID
cdef int E_ENDED, E_COURT, E_FIRST, E_SETTLED
cdef int KIND_PAIR, KIND_NO_PAIR, KIND_LAST
cdef int P_SEAT, P_RUN, P_DEFERRED, P_KIND, P_TEAM, P_ACE
cdef int PL_PILE, PL_WINNER, PL_ACE, PL_EST, PL_COLL, PL_HOT, PL_BITS
cdef int MASK2, MASK3, MASK4
cdef int BAND_AUTO, BAND_AUTO_MUST
cdef int BLOCK_NONE, BLOCK_FIRST_PAIR, BLOCK_NO_COLLECT, BLOCK_ACE_ON_ACE, BLOCK_ANY_ACE, BLOCK_TRUMP_ACE


cdef class Rules:
    cdef public int pile, end, play_on, tens, first_pair_collects, ace_on_ace, ace_seal, each_win
    cdef public int first_void, concealed, hidden_mode, band_auto, band_reveal, pairs, pairs_hidden
    cdef public int ace_rule, bid_n, caller, callers, settled, no_caller_reveal
    cdef public u64 no_collect



cpdef u64 table_card(int suit, int rank, int trump, int down) noexcept

cpdef Rules rules_like(object r)

@cython.locals(led=cython.int, best=cython.int, top=cython.int, k=cython.int, c=u64, b=cython.int)
cpdef int trick_winner(u64 cards, int n, int trump) noexcept

cpdef int tens_settled(int tens0, int tens1, int won0, int won1) noexcept

cpdef int deal_end(Rules r, int number, int won0, int won1, int tens0, int tens1, int team, int play_on, int first_seven) noexcept

cpdef int pair_counts(Rules r, int team, int number, int revealed_trick) noexcept

cpdef int pair_state(int run_by, int run, int deferred) noexcept

@cython.locals(run_by=cython.int, run=cython.int, deferred=cython.int, team=cython.int, why=cython.int)
cpdef int pair_step(Rules r, int state, int number, int seat, int ace, int revealed_trick) noexcept

cpdef int pile_pair_open(int last_winner, int winner, int hot, int last_collected, int last_established) noexcept

cpdef int pile_blocked(Rules r, int number, int rank, int suit, int trump, int last_ace) noexcept

cpdef int pile_collects(int number, int pair, int blocked) noexcept

cpdef int pile_state(int pile, int last_winner, int last_ace, int last_established, int last_collected, int hot) noexcept

cpdef int pile_key(Rules r, int pile, int last_winner, int last_ace, int last_established, int last_collected, int hot) noexcept

cpdef int pile_hot(Rules r, int pair, int collects, int hot, int blocked) noexcept
