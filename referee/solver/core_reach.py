# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The exact-count search's table (core_exact.py): at each trick's start, keyed by the whole
position, the counts known reached there and those known not reached."""
from array import array

from .core_bounds import Bounds
from .core_codes import HASH_A, HASH_B, M64, REACH_FIRST, REACH_MAX, REACH_PROBE, REACH_WORDS


class Reach(Bounds):
    """The exact-count table, for core_exact.Exact."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self._clear_reach(REACH_FIRST)

    # -- the exact-count table: REACH_WORDS words a slot (the key's six; the counts reached
    # << 32 | not reached << 16 | 1; the cards the reached ones and the others depended on), a slot looked for in REACH_PROBE places from
    # its hash; full there, the first place is written over (an answer lost, never a
    # wrong one); doubled up to REACH_MAX slots while more than half are used

    def _clear_reach(self, slots):
        self.rpool = None
        self.reach_array = None
        self.reach_array = array("Q", [0]) * (REACH_WORDS * slots)
        self.rpool = self.reach_array
        self.rslots = slots
        self.rused = 0
        return 0

    def _reach_home(self, k0, k1, c0, c1, c2, c3):
        h = ((k0 * HASH_A) ^ (k1 * HASH_B) ^ (c0 * HASH_B) ^ ((c1 ^ (c2 << 1)) * HASH_A)) & M64
        h = ((h ^ (h >> 29) ^ c3) * HASH_B) & M64
        return (h >> 32) & (self.rslots - 1)

    def _reach_slot(self, k0, k1, c0, c1, c2, c3):
        """The slot holding this key, or -1 - the first free place (-1 - its home: none free)."""
        home = self._reach_home(k0, k1, c0, c1, c2, c3)
        free = -1
        j = 0
        for j in range(REACH_PROBE):
            i = (home + j) & (self.rslots - 1)
            b = i * REACH_WORDS
            if self.rpool[b + 6] == 0:
                if free < 0:
                    free = i
            elif (self.rpool[b] == k0 and self.rpool[b + 1] == k1 and self.rpool[b + 2] == c0
                  and self.rpool[b + 3] == c1 and self.rpool[b + 4] == c2 and self.rpool[b + 5] == c3):
                return i
        return -1 - (free if free >= 0 else home)

    def _reach_put(self, k0, k1, c0, c1, c2, c3, yes, no, rel):
        if 2 * (self.rused + 1) > self.rslots and self.rslots < REACH_MAX:
            self._grow_reach()
        i = self._reach_slot(k0, k1, c0, c1, c2, c3)
        v = 0
        b = i * REACH_WORDS
        if i >= 0:
            v = self.rpool[b + 6]
        else:
            i = -1 - i
            b = i * REACH_WORDS
            if self.rpool[b + 6] == 0:
                self.rused += 1
            self.rpool[b + 7] = 0
            self.rpool[b + 8] = 0
        self.rpool[b] = k0
        self.rpool[b + 1] = k1
        self.rpool[b + 2] = c0
        self.rpool[b + 3] = c1
        self.rpool[b + 4] = c2
        self.rpool[b + 5] = c3
        x = yes
        v |= x << 32
        x = no
        v |= x << 16
        self.rpool[b + 6] = v | 1
        if yes:
            self.rpool[b + 7] |= rel
        else:
            self.rpool[b + 8] |= rel
        return 0

    def _grow_reach(self):
        """Twice the slots, the entries placed again (one that finds no place is lost)."""
        old = self.reach_array
        count = self.rslots
        self._clear_reach(2 * count)
        k = 0
        for k in range(count):
            b = k * REACH_WORDS
            v = old[b + 6]
            if v:
                i = self._reach_slot(old[b], old[b + 1], old[b + 2], old[b + 3], old[b + 4], old[b + 5])
                if i < 0:
                    i = -1 - i
                    if self.rpool[i * REACH_WORDS + 6] == 0:
                        self.rused += 1
                    w = 0
                    for w in range(REACH_WORDS):
                        self.rpool[i * REACH_WORDS + w] = old[b + w]
        return 0
