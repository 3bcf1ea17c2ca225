"""The numbers of the core search (core.py and its modules) and of its readers (driver.py,
position.py): objectives, answers, moves, the deal's end modes and band reveals (the kernel's), the
deciding pair's kinds, the table's sizes, and tables of 13-bit masks. Plain Python, never compiled:
each compiled core module copies what it uses into C at its import (its .pxd says the types)."""
from referee.engine import kernel as _kernel

TRICKS = 0
DEAL_TRICKS = 1
SCORE = 2
EXACT = 3
FEWEST = 4               # R-38's f: the team's fewest tricks to the deal's end, all seats choosing together

FALSE = 0
TRUE = 1
NONE = 2
UNDECIDED = 3
RES = 60                 # a search's answer: code << RES | the cards it depended on
RELMASK = (1 << 52) - 1
LOWEST = -0x1FFFF        # below every value: test(LOWEST) asks only whether a line exists (EXACT)
REVEAL = 52              # the move "show (or ask for) the face-down trump"

# the rules' own numbers are the kernel's (referee/engine/kernel.py), declared there once
ACE, TEN = _kernel.ACE, _kernel.TEN
END_SEVEN, END_PILE, END_THIRTEEN, END_BID, END_PAIR = (_kernel.END_SEVEN, _kernel.END_PILE, _kernel.END_THIRTEEN,
                                                       _kernel.END_BID, _kernel.END_PAIR)
BAND_ASK, BAND_AUTO, BAND_AUTO_MUST = _kernel.BAND_ASK, _kernel.BAND_AUTO, _kernel.BAND_AUTO_MUST
KIND_NONE, KIND_PAIR, KIND_NO_PAIR, KIND_LAST = _kernel.KIND_NONE, _kernel.KIND_PAIR, _kernel.KIND_NO_PAIR, _kernel.KIND_LAST
E_ENDED, E_COURT, E_FIRST = _kernel.E_ENDED, _kernel.E_COURT, _kernel.E_FIRST  # kernel.deal_end's answer
REVEAL_NONE, REVEAL_OPPONENT, REVEAL_VOID_MUST = _kernel.REVEAL_NONE, _kernel.REVEAL_OPPONENT, _kernel.REVEAL_VOID_MUST
P_RUN, P_DEFERRED, P_KIND, P_TEAM = _kernel.P_RUN, _kernel.P_DEFERRED, _kernel.P_KIND, _kernel.P_TEAM  # kernel.pair_step's


PER_BUCKET = 256         # table entries kept per bucket (leader, suit lengths, rule state)
WORDS = 5                # an entry: four suit prefixes and one word of meta
MAX_ENTRIES = 1 << 22     # the table's size at most (160 MiB, grown as needed); past it, it starts again empty
M64 = 0xFFFFFFFFFFFFFFFF
HASH_A = 0x9E3779B97F4A7C15  # the index's hash: two odd multipliers (golden ratio, a prime)
HASH_B = 0xC2B2AE3D27D4EB4F
CHECK = 1023             # the budget is asked every 1,024 nodes

# Tables of 13-bit masks (one suit): how many cards, the highest, the lowest (-1: none);
# UP[s * 13 + r]: suit s's ranks r..12 in a 52-bit mask; ONES[i]: one card of seat*4+suit i
# in the packed suit lengths (4 bits each).
BITS = [0] * 8192
HIGH = [0] * 8192
LOW = [0] * 8192
UP = [0] * 52
ONES = [0] * 16


def _fill_tables():
    for i in range(8192):
        BITS[i] = bin(i).count("1")
        HIGH[i] = i.bit_length() - 1
        LOW[i] = (i & -i).bit_length() - 1
    for i in range(52):
        UP[i] = ((8191 >> (i % 13)) << (i % 13)) << (13 * (i // 13))
    for i in range(16):
        ONES[i] = 1 << (4 * i)


_fill_tables()
