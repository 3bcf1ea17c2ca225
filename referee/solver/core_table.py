# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The core search's transposition table (core.py): at each trick's start, keyed by the leader,
the suit lengths and the rule state, entries holding for every position whose cards that
the answer depended on (and every higher one) lie with the same seats (DDS's winning
ranks); an open-addressing index of buckets, each a run of entries in one pool."""
from array import array

from .core_codes import ACE, DEAL_TRICKS, END_PAIR, END_THIRTEEN, EXACT, FALSE, HASH_A, HASH_B, M64, MAX_ENTRIES, NONE, PER_BUCKET, PL_BITS, RELMASK, RES, SCORE, TEN, TRICKS, TRUE, UNDECIDED, WIDE, WORDS
from .core_kernel import pile_key
from .core_moves import Moves


def _zeros(code, n):
    """An array of n zeros, made at its size (no buffer of zeros beside it)."""
    return array(code, [0]) * n


class Table(Moves):
    """The transposition table of the core search (core.Search)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.code = [0] * 4
        self.hint = -1
        self.fates = {}
        self.fate_ids = {}
        self.state_ids = {}
        self._clear_table(1 << 12, 1 << 14)

    def _key(self, kk):
        """The bucket's first word: the leader, the perspective team and the rule state the
        objective looks at (the second is the suit lengths, `lens`)."""
        obj = self.objective
        state = (self.trump + 1) | self.hidden << 3
        # the futures of a pile with the tens are many: theirs only for the last 7 tricks
        if obj == SCORE and (not (self.r.pile and self.tens_on) or self.number >= 7):
            return self._fate_key(state)
        if self.r.pile:
            state = state << PL_BITS | pile_key(self.r, self.pile, self.pw, self.pace, self.pest, self.pcoll, self.hot)
        if obj != TRICKS and not (obj == DEAL_TRICKS and self.r.end == END_THIRTEEN and not self.r.settled):
            state = state << 11 | self.won[0] | self.won[1] << 4 | (self.first_seven + 1) << 8 | self.play_on << 10
            if self.r.end == END_PAIR:
                # not the trick the trump was shown in: at a trick's start it is always early
                # enough for every pair still to come (kernel.pair_counts)
                state = (state << 9 | (self.run_by + 1) | self.run << 3 | self.deferred << 5 | self.pkind << 6
                         | self.pwinner << 8)
            if self.tens_on:
                state = state << 9 | self.tens[0] | self.tens[1] << 3 | self.pile_tens << 6
            if obj == EXACT:
                state = state << 5 | kk
        if state >> WIDE:
            state = self._state_id(state)
        return self._owners_key(state)

    def _state_id(self, state):
        """A rule state too wide to leave room in one word for the owners of the tens and aces
        (a pile with the tens and ace-on-ace under EXACT reaches 49 bits, and 27 more follow):
        its id among the states this search has met, marked by bit WIDE, so that no id is a
        narrow state and equal states get equal ids."""
        found = self.state_ids.get(state)
        if found is None:
            found = len(self.state_ids)
            self.state_ids[state] = found
        v = found
        mark = 1
        return mark << WIDE | v

    def _fate_key(self, state):
        """SCORE without a deciding pair: the tally, the tens and the pile as far as they still
        matter (_fate's id, below 2**32: ids are fewer than the states they stand for)."""
        return self._owners_key(state << 32 | self._fate())

    def _owners_key(self, state):
        if self.specials & (1 << TEN):
            state = state << 12 | self._owners(TEN)
        if self.specials & (1 << ACE):
            state = state << 12 | self._owners(ACE)
        return state << 3 | self.team << 2 | self.leader

    def _fate(self):
        """SCORE: the id of the tally's future, the outcome for the team of every sequence of
        trick winners (seat by seat in pile and deciding-pair games, each winning card an ace
        or not, a trump or not, where a rule looks at that; trumps established or not, the
        face-down trump shown or not, where that is still open) and of the tens each trick
        holds, from here by the deal's end, pile and pair rules (a court stopped or played
        on). Tallies with the same id play on alike: the table's key keeps the id, so that
        positions reached by different histories meet. (Not the trick the trump was shown
        in: at a trick's start every pair to come ends late enough, kernel.pair_counts.)"""
        opened = 1 if self.r.pile and ((self.r.first_void and self.trump < 0) or (self.r.concealed and not self.revealed)) else 0
        key = (self.number | self.won[0] << 4 | self.won[1] << 8 | self.tens[0] << 12 | self.tens[1] << 15
               | (self.first_seven + 1) << 18 | self.play_on << 20 | self.court_made << 21 | self.ended << 22
               | self.pile_tens << 23 | opened << 26)
        if self.r.pile:
            key = key << PL_BITS | self._pile_word()
        if self.r.pairs:
            key = key << 16 | self._pair_word() << 1 | self.revealed
        v = self.fates.get(key)
        if v is not None:
            return v
        saved = self._fate_saved()
        if self.ended:
            sig = (-1, self._value_now())
        elif self.court_made:  # the court team stops, or plays on
            self.ended = 1
            self.court_made = 0
            stop = self._fate()
            self.ended = 0
            self.play_on = 1
            sig = (-2, stop, self._fate())
            self._fate_restore(saved)
        else:
            sig = tuple(self._fate_kids(opened, saved))
        v = self.fate_ids.get(sig)
        if v is None:
            v = len(self.fate_ids)
            self.fate_ids[sig] = v
        self.fates[key] = v
        return v

    def _fate_kids(self, opened, saved):
        """_fate's ids after each next trick (its winner, how it is won, the tens it holds)."""
        number = self.number
        won0 = self.won[0]
        won1 = self.won[1]
        tens0 = self.tens[0]
        tens1 = self.tens[1]
        pile_tens = self.pile_tens
        piled = self._pile_word()
        paired = self._pair_word()
        shown = self.revealed | self.revealed_trick << 1
        out = 4 - tens0 - tens1 - pile_tens if self.tens_on else 0
        aces = 2 if (self.r.pile and (self.r.ace_on_ace or self.r.ace_seal)) or (self.r.pairs and self.r.ace_rule) else 1
        trumps = 2 if self.r.pile and self.r.ace_seal == 1 else 1
        ways = aces * trumps * (2 if opened else 1)
        shows = 2 if self.r.pairs_hidden and not self.revealed else 1
        kids = []
        ws = 0
        a = 0
        k = 0
        for ws in range(4 if self.r.pile or self.r.pairs else 2):
            for a in range(ways * shows):
                for k in range(out + 1):
                    if a >= ways:  # the face-down trump shown in this trick
                        self.revealed = 1
                        self.revealed_trick = number
                    team = ws & 1
                    taken = 1
                    if self.r.pile:
                        team = self._pile_trick(number, ws, self.trump if (a // aces) % trumps else -2,
                                                ACE if a % aces else ACE - 1, 3)
                        taken = self.taken
                        if opened:
                            self.pest = (a % ways) // (aces * trumps)
                    if team >= 0:
                        self.won[team] += taken
                    self.pile_tens += k
                    if team >= 0:
                        self.tens[team] += self.pile_tens
                        self.pile_tens = 0
                    self.ended = self._ends(number, ws, a % aces)
                    self.number = number + 1
                    kids.append(self._fate())
                    self.number = number
                    self.won[0] = won0
                    self.won[1] = won1
                    self.tens[0] = tens0
                    self.tens[1] = tens1
                    self.pile_tens = pile_tens
                    self._set_pile(piled)
                    self._set_pair(paired)
                    self.revealed = shown & 1
                    self.revealed_trick = shown >> 1
                    self._fate_restore(saved)
        return kids

    def _fate_saved(self):
        """The court's state (first_seven, play_on, court_made, ended), packed for _fate_restore."""
        return (self.first_seven + 1) | self.play_on << 2 | self.court_made << 3 | self.ended << 4

    def _fate_restore(self, saved):
        self.first_seven = (saved & 3) - 1
        self.play_on = (saved >> 2) & 1
        self.court_made = (saved >> 3) & 1
        self.ended = (saved >> 4) & 1

    def _owners(self, r):
        """Who holds each suit's card of rank r (a ten, an ace: cards a rule looks at), three
        bits a suit, 4 for one already played: part of the bucket's key, so that an entry
        holds for positions where those cards lie with the same seats."""
        v = 0
        s = 0
        for s in range(4):
            owner = 4
            if (self.alive[s] >> r) & 1:
                owner = 0
                while owner < 4 and not (self.h[owner * 4 + s] >> r) & 1:
                    owner += 1
                if owner == 4:
                    owner = self.r.caller  # the face-down trump card
            v = v << 3 | owner
        return v

    def _codes(self):
        """Each suit's remaining cards' owners, high to low, three bits each after a leading
        1 (the owner, plus 4 for a card a rule looks at): the same for positions that differ
        only in which cards were played."""
        self._set_specials()
        s = 0
        for s in range(4):
            a = self.alive[s]
            spec = self.spec[s]
            h0 = self.h[s]
            h1 = self.h[4 + s]
            h2 = self.h[8 + s]
            h3 = self.h[12 + s]
            c = 1
            while a:
                r = self.high[a]
                a ^= 1 << r
                bit = 1 << r
                if h0 & bit:
                    owner = 0
                elif h1 & bit:
                    owner = 1
                elif h2 & bit:
                    owner = 2
                elif h3 & bit:
                    owner = 3
                else:
                    owner = self.r.caller  # the face-down trump card
                c = c << 3 | owner | (4 if spec & bit else 0)
            self.code[s] = c

    def _clear_table(self, slots, entries):
        """An empty table: `slots` places in the index (a power of 2), room for `entries`.
        The old arrays go first, so a table started again never holds two pools."""
        self.pool = None
        self.pool_array = None
        self.key_array = _zeros("Q", 2 * slots)
        self.slot_array = _zeros("i", slots)
        self.index_key = self.key_array  # compiled: typed views of the arrays
        self.index_bucket = self.slot_array
        self.slots = slots
        self.nbuckets = 0
        self.bucket_array = _zeros("I", 3 * (slots // 2))
        self.bucket = self.bucket_array  # per bucket: first entry, room, entries stored
        self.pool_array = _zeros("Q", WORDS * entries)
        self.pool = self.pool_array
        self.room = entries
        self.used = 0
        return 0

    def _find(self, a, b, create):
        """The bucket of key (a, b), or -1; with `create`, made when missing."""
        mask = self.slots - 1
        i = (((a * HASH_A) ^ (b * HASH_B)) & M64) >> 40 & mask
        while True:
            j = self.index_bucket[i]
            if j == 0:
                break
            if self.index_key[2 * i] == a and self.index_key[2 * i + 1] == b:
                return j - 1
            i = (i + 1) & mask
        if not create:
            return -1
        if 2 * (self.nbuckets + 1) > self.slots:
            self._grow_index()
            return self._find(a, b, create)
        self.index_key[2 * i] = a
        self.index_key[2 * i + 1] = b
        n = self.nbuckets
        self.nbuckets = n + 1
        self.index_bucket[i] = n + 1
        self.bucket[3 * n] = 0
        self.bucket[3 * n + 1] = 0
        self.bucket[3 * n + 2] = 0
        return n

    def _grow_index(self):
        """Twice the places in the index (and room for as many buckets), the keys moved."""
        old_keys = self.key_array
        old_slots = self.slot_array
        old_buckets = self.bucket_array
        count = self.slots
        self.slots = count * 2
        self.key_array = _zeros("Q", 2 * self.slots)
        self.slot_array = _zeros("i", self.slots)
        self.index_key = self.key_array
        self.index_bucket = self.slot_array
        buckets = _zeros("I", 3 * (self.slots // 2))
        buckets[:len(old_buckets)] = old_buckets
        self.bucket_array = buckets
        self.bucket = buckets
        mask = self.slots - 1
        for k in range(count):
            j = old_slots[k]
            if j:
                a = old_keys[2 * k]
                b = old_keys[2 * k + 1]
                i = (((a * HASH_A) ^ (b * HASH_B)) & M64) >> 40 & mask
                while self.slot_array[i]:
                    i = (i + 1) & mask
                self.key_array[2 * i] = a
                self.key_array[2 * i + 1] = b
                self.slot_array[i] = j
        return 0

    def _lookup(self, b, t):
        """A table entry of bucket b that decides `value >= t` here, as an answer; else
        UNDECIDED (and `hint`, the best move an entry for this position remembers, or -1)."""
        self.hint = -1
        if b < 0:
            return UNDECIDED << RES
        pool = self.pool  # compiled: a local view, read without going through self
        c0 = self.code[0]
        c1 = self.code[1]
        c2 = self.code[2]
        c3 = self.code[3]
        first = self.bucket[3 * b]
        count = min(self.bucket[3 * b + 2], self.bucket[3 * b + 1])
        e = 0
        base = first * WORDS
        for e in range(count):
            meta = pool[base + 4]
            if ((c0 >> (meta & 63)) == pool[base] and (c1 >> ((meta >> 6) & 63)) == pool[base + 1]
                    and (c2 >> ((meta >> 12) & 63)) == pool[base + 2] and (c3 >> ((meta >> 18) & 63)) == pool[base + 3]):
                kind = (meta >> 24) & 3
                te = (meta >> 32) & 0x3FFFF
                te -= 0x20000
                if (kind == TRUE and te >= t) or (kind == FALSE and te <= t) or kind == NONE:
                    return kind << RES | self._entry_rel(meta)
                if self.hint < 0:
                    move = (meta >> 26) & 63
                    self.hint = move - 1
            base += WORDS
        return UNDECIDED << RES

    def _entry_rel(self, meta):
        rel = 0
        s = 0
        for s in range(4):
            a = self.alive[s]
            shift = (meta >> (6 * s)) & 63
            n = self.bits[a] - shift // 3
            rel |= self._top_mask(s, a, n)
        return rel

    def _store(self, key, lens, t, r, move):
        code = r >> RES
        rel = r & RELMASK
        s = 0
        b = self._find(key, lens, 1)
        slot = self._slot(b)
        if slot < 0:
            return 0
        base = slot * WORDS
        meta = 0
        for s in range(4):
            a = self.alive[s]
            n = self.bits[a & ((rel >> (13 * s)) & 8191)]
            shift = 3 * (self.bits[a] - n)
            self.pool[base + s] = self.code[s] >> shift
            meta |= shift << (6 * s)
        x = code
        meta |= x << 24
        x = move + 1
        meta |= x << 26
        x = t + 0x20000
        meta |= x << 32
        self.pool[base + 4] = meta
        return 0

    def _slot(self, b):
        """The place for bucket b's next entry: a new one while the bucket has room (it
        doubles, up to PER_BUCKET), else its oldest. -1: the table was full and is empty now."""
        first = self.bucket[3 * b]
        room = self.bucket[3 * b + 1]
        stored = self.bucket[3 * b + 2]
        if stored < room:
            self.bucket[3 * b + 2] = stored + 1
            return first + stored
        if room >= PER_BUCKET:
            self.bucket[3 * b + 2] = stored + 1
            return first + stored % room
        grown = 4 if room == 0 else 2 * room
        if self.used + grown > self.room:
            if self.room >= MAX_ENTRIES:
                self._clear_table(1 << 12, self.room)
                return -1
            self._grow_pool()
        i = 0
        for i in range(room * WORDS):
            self.pool[self.used * WORDS + i] = self.pool[first * WORDS + i]
        self.bucket[3 * b] = self.used
        self.bucket[3 * b + 1] = grown
        self.bucket[3 * b + 2] = stored + 1
        self.used += grown
        return self.used - grown + stored

    def _grow_pool(self):
        """Twice the room for entries (room is a power of 2, below MAX_ENTRIES here), the
        entries kept where they are: the array doubles in place (a copy of the old half is
        never read, as an entry is written before it is read), so the old pool and the new
        are never both held, nor a buffer of zeros beside them."""
        pool = self.pool_array
        self.pool = None  # compiled: the typed view lets the array go, so it can be resized
        pool *= 2
        self.pool = pool
        self.room = 2 * self.room
        return 0
