# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The transposition table's store (core_table.py keys it): an open-addressing index of
buckets, each a run of entries in one pool; an entry holds for every position whose cards
that the answer depended on (and every higher one) lie with the same seats (DDS's winning
ranks), matched by each suit's owners, high to low (_codes)."""
from array import array

from .core_codes import FALSE, HASH_A, HASH_B, M64, MAX_ENTRIES, NONE, PER_BUCKET, RELMASK, RES, TRUE, UNDECIDED, WORDS
from .core_moves import Moves


def _zeros(code, n):
    """An array of n zeros, made at its size (no buffer of zeros beside it)."""
    return array(code, [0]) * n


class Pool(Moves):
    """The entries of the transposition table (core_table.Table finds their keys)."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.code = [0] * 4
        self.hint = -1
        self._clear_table(1 << 12, 1 << 14)

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
        UNDECIDED (and `hint`, the best move an entry for this position remembers, or -1).
        The newest entry first, as DDS looks (TransTableL::LookupCards): on full deals a hit
        is found after half as many entries as from the oldest."""
        self.hint = -1
        if b < 0:
            return UNDECIDED << RES
        pool = self.pool  # compiled: a local view, read without going through self
        c0 = self.code[0]
        c1 = self.code[1]
        c2 = self.code[2]
        c3 = self.code[3]
        first = self.bucket[3 * b]
        room = self.bucket[3 * b + 1]
        stored = self.bucket[3 * b + 2]
        count = min(stored, room)
        at = (stored - 1) & (room - 1)  # the newest (room is a power of 2: _slot)
        e = 0
        for e in range(count):
            base = (first + at) * WORDS
            at = (at - 1) & (room - 1)
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
