# The C types of core.py, for its compiled form (the module _ccore; see setup.py and
# loader.py). core.py runs unchanged as Python; Cython reads these declarations when it
# compiles it. Keep every attribute and method of core.Search declared here.
cimport cython

ctypedef unsigned long long u64

cdef int TRICKS, DEAL_TRICKS, SCORE, EXACT
cdef u64 FALSE, TRUE, NONE, UNDECIDED
cdef int RES, REVEAL
cdef u64 RELMASK
cdef int END_SEVEN, END_PILE, END_THIRTEEN, END_BID, END_PAIR
cdef int KIND_NONE, KIND_PAIR, KIND_NO_PAIR, KIND_LAST
cdef int BAND_ASK, BAND_AUTO, BAND_AUTO_MUST
cdef int PER_BUCKET, WORDS, MAX_ENTRIES, CHECK, ACE, TEN
cdef u64 M64, HASH_A, HASH_B
cdef long long LOWEST
cdef int BITS[8192]
cdef int HIGH[8192]
cdef int LOW[8192]
cdef u64 UP[52]
cdef u64 ONES[16]


cdef class Search:
    # the rules (position.rules)
    cdef public int opt_pile, end, play_on_opt, count_tens, fpc, nca, ace_on_ace, ace_seal, each_win
    cdef public int first_void, concealed, hidden_mode, band_auto, band_reveal, pairs_on, pairs_hidden
    cdef public int ace_rule, bid_n, caller, callers
    cdef public int objective, team
    cdef public object outcome, spend, error
    cdef dict outcomes, sims, spans
    cdef long long span_lo, span_hi
    cdef public int monotone
    # the table: an index (open addressing) of buckets, each a run of entries in the pool
    cdef object key_array, slot_array, bucket_array, pool_array
    cdef u64[:] index_key
    cdef int[:] index_bucket
    cdef unsigned int[:] bucket
    cdef u64[:] pool
    cdef public int slots, nbuckets, room, used
    cdef u64 specials
    # the position
    cdef u64 h[16]
    cdef u64 alive[4]
    cdef u64 lens
    cdef int tseat[64]
    cdef int tsuit[64]
    cdef int trank[64]
    cdef int tflag[64]
    cdef public int tk, tb, leader, number
    cdef public int trump, secret, hidden, hsuit, hrank, revealed, revealed_trick, reveal_k
    cdef public int asker, must_trump, lmt
    cdef int won[2]
    cdef int tens[2]
    cdef public int pile_tens, first_seven, play_on, court_made, ended
    cdef public int pile, pw, pace, pest, pcoll, hot, taken
    cdef public int run_by, run, deferred, pkind, pwinner
    # the search
    cdef u64 code[4]
    cdef u64 spec[4]
    cdef int mv[1024]
    cdef u64 sv[64]
    cdef int killer[64]
    cdef int lw[256]
    cdef long long cs[64]
    cdef int glo[16]
    cdef int ghi[16]
    cdef int sortkey[16]
    cdef int stack[64]
    cdef int stack_kind[64]
    cdef public int depth, ply, stopped, best_move, hint, cash_counts
    cdef public long long nodes
    cdef int unspent
    cdef u64 closed_rel, cash_rel


    @cython.locals(n=cython.int, prev=cython.int, r=cython.int, spec=u64)
    cdef int _groups(self, u64 m, u64 a, int s) noexcept

    cdef int _special(self, int s, int r) noexcept

    @cython.locals(s=cython.int)
    cdef void _set_specials(self) noexcept

    @cython.locals(led=cython.int, best=cython.int, top=cython.int, j=cython.int)
    cdef int _winner(self) noexcept

    @cython.locals(i=cython.int)
    cdef int _add(self, int base, int n, int key, int move) noexcept

    @cython.locals(seat=cython.int, base=cython.int, n=cython.int, i=cython.int)
    cdef int _gen(self, int ply, int hint) noexcept

    @cython.locals(b=cython.int)
    cdef int _only_hidden_card(self, int seat) noexcept

    @cython.locals(b=cython.int, tr=cython.int, lho=cython.int, partner=cython.int, rho=cython.int, only=cython.int,
                   n=cython.int, s=cython.int, m=u64, a=u64, g=cython.int, top=cython.int, first=cython.int,
                   second=cython.int, lh=cython.int, rh=cython.int, ph=cython.int, side=cython.int,
                   lho_ruffs=cython.int, rho_ruffs=cython.int, partner_ruffs=cython.int, delta=cython.int,
                   opp_high=cython.int, i=cython.int, r=cython.int, hi=cython.int, rank=cython.int, safe=cython.int,
                   wins=cython.int, w=cython.int, left=cython.int)
    cdef int _leads(self, int seat, int base) noexcept

    @cython.locals(seat=cython.int)
    cdef int _holder(self, int s, int r) noexcept

    @cython.locals(b=cython.int, led=cython.int, m=u64, wk=cython.int, ws=cython.int, wsu=cython.int, wr=cython.int,
                   ours=cython.int, n=cython.int, i=cython.int, g=cython.int, r=cython.int, key=cython.int,
                   band_card=cython.int, tr=cython.int, osuit=cython.int, obliged=cython.int, s=cython.int)
    cdef int _follows(self, int seat, int base) noexcept

    @cython.locals(i=cython.int)
    cdef void _reveal(self, int k) noexcept

    cdef u64 _saved(self) noexcept

    @cython.locals(hidden=cython.int, i=cython.int)
    cdef void _restore(self, u64 v) noexcept

    @cython.locals(seat=cython.int, k=cython.int, s=cython.int, r=cython.int, led=cython.int, i=cython.int)
    cdef void _do(self, int m, int ply) noexcept

    @cython.locals(k=cython.int, i=cython.int)
    cdef void _undo(self, int m, int ply) noexcept

    @cython.locals(wk=cython.int, ws=cython.int, wsu=cython.int, wr=cython.int, number=cython.int, rel=u64,
                   j=cython.int, taken=cython.int, team=cython.int)
    cdef int _close_do(self) noexcept

    @cython.locals(number=cython.int, v=cython.longlong, j=cython.int)
    cdef void _close_undo(self) noexcept

    @cython.locals(pair=cython.int, blocked=cython.int, collects=cython.int, established=cython.int)
    cdef int _pile_trick(self, int number, int ws, int wsu, int wr, int wk) noexcept

    @cython.locals(won0=cython.int, won1=cython.int, decided=cython.int, c=cython.int)
    cdef int _ends(self, int number, int ws, int ace) noexcept

    @cython.locals(team=cython.int)
    cdef int _pair_trick(self, int number, int ws, int ace) noexcept

    cdef int _pair_counts(self, int team, int number) noexcept

    @cython.locals(n=cython.int)
    cdef void _spend(self)

    @cython.locals(obj=cython.int)
    cdef u64 _terminal(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(key=cython.long)
    cdef long long _value_now(self) except? -1

    @cython.locals(mine=cython.int, stop=u64, code=u64, on=u64)
    cdef u64 _choice(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(ca=u64, cb=u64, rel=u64, want=u64)
    cdef u64 _either(self, int mine, u64 a, u64 b) noexcept

    @cython.locals(gain=cython.int, rel=u64, obj=cython.int, r=u64)
    cdef u64 _close(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(left=cython.int, obj=cython.int, r=u64, key=u64, lens=u64)
    cdef u64 _start(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(ply=cython.int, seat=cython.int, mine=cython.int, n=cython.int, want=u64, other=u64, rel=u64,
                   best=u64, found=cython.int, i=cython.int, m=cython.int, res=u64, code=u64, lw=cython.int,
                   s=cython.int, r=cython.int, low=cython.int)
    cdef u64 _card(self, long long t, int kk, int hint) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(n=cython.int, top=cython.int)
    cdef int _top_run(self, u64 m, u64 a) noexcept

    @cython.locals(i=cython.int)
    cdef u64 _top_mask(self, int s, u64 a, int n) noexcept

    @cython.locals(b=cython.int, tr=cython.int, o1=cython.int, o2=cython.int, p=cython.int, ruff=u64,
                   partner_ruffs=u64, q=cython.int, rel=u64, counts=cython.int, s=cython.int, m=u64, n=cython.int)
    cdef int _cash(self, int seat, int follows) noexcept

    @cython.locals(left=cython.int, team=cython.int, tr=cython.int, at=u64, top=cython.int, holder=cython.int,
                   n=cython.int, leader=cython.int, ours=cython.int, q=cython.int, partner=cython.int, b=cython.int,
                   pb=cython.int, entries=cython.int, s=cython.int, more=cython.int, more_rel=u64, own=cython.int)
    cdef u64 _sure(self, long long t) noexcept

    @cython.locals(left=cython.int, us=cython.int, them=cython.int, q=cython.int)
    cdef u64 _envelope(self, long long t) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(tr=cython.int, at=u64, top=cython.int, holder=cython.int, n=cython.int)
    cdef int _forced(self, int kk) noexcept

    cdef u64 _exact_envelope(self, long long t, int kk) except? 0xFFFFFFFFFFFFFFFF

    @cython.locals(key=cython.long)
    cdef int _span(self, int kk) except -1

    @cython.locals(out=cython.int, us=cython.int, lo=cython.longlong, hi=cython.longlong, saved=cython.int,
                   v=cython.longlong, w=cython.int, number=cython.int)
    cdef long long _span_of(self, int kk) except? -2

    cdef void _span_restore(self, int saved) noexcept

    @cython.locals(key=cython.long, saved_won0=cython.int, saved_won1=cython.int, saved_tens0=cython.int,
                   saved_tens1=cython.int, saved=cython.int, left=cython.int, j=cython.int, w=cython.int)
    cdef long long _sim(self, int side, int q) except? -1

    @cython.locals(obj=cython.int, state=u64)
    cdef u64 _key(self, int kk) noexcept

    @cython.locals(v=cython.int, s=cython.int, owner=cython.int)
    cdef int _owners(self, int r) noexcept

    @cython.locals(s=cython.int, a=u64, spec=u64, c=u64, r=cython.int, owner=cython.int)
    cdef void _codes(self) noexcept

    cdef int _clear_table(self, int slots, int entries) except -1

    @cython.locals(mask=u64, i=u64, j=cython.int, n=cython.int)
    cdef int _find(self, u64 a, u64 b, int create) except -2

    @cython.locals(count=cython.int, mask=u64, k=cython.int, j=cython.int, a=u64, b=u64, i=u64)
    cdef int _grow_index(self) except -1

    @cython.locals(first=cython.int, count=cython.int, e=cython.int, base=cython.int, meta=u64, kind=u64,
                   te=cython.longlong, move=cython.int)
    cdef u64 _lookup(self, int b, long long t) noexcept

    @cython.locals(rel=u64, s=cython.int, a=u64, n=cython.int, shift=cython.int)
    cdef u64 _entry_rel(self, u64 meta) noexcept

    @cython.locals(code=u64, rel=u64, s=cython.int, b=cython.int, slot=cython.int, base=cython.int, meta=u64,
                   a=u64, n=cython.int, shift=cython.int, x=u64)
    cdef int _store(self, u64 key, u64 lens, long long t, u64 r, int move) except -1

    @cython.locals(first=cython.int, room=cython.int, stored=cython.int, grown=cython.int, i=cython.int)
    cdef int _slot(self, int b) except -2

    @cython.locals(room=cython.int)
    cdef int _grow_pool(self) except -1
