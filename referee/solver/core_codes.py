"""The numbers of the core search (core.py and its modules) and of its readers (driver.py,
position.py): objectives, answers, moves, the deal's end modes and band reveals (the kernel's), the
deciding pair's kinds, the table's sizes, and tables of 13-bit masks. Plain Python, never compiled:
each compiled core module copies what it uses into C at its import (its .pxd says the types)."""
from referee.engine import kernel as _kernel, kernel_play as _play

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
L_HIDDEN = _play.L_HIDDEN  # kernel_play.legal_suits': the face-down card may be played
REVEAL_NONE, REVEAL_OPPONENT, REVEAL_VOID_MUST = _play.REVEAL_NONE, _play.REVEAL_OPPONENT, _play.REVEAL_VOID_MUST
P_SEAT, P_RUN, P_DEFERRED, P_KIND, P_TEAM = _kernel.P_SEAT, _kernel.P_RUN, _kernel.P_DEFERRED, _kernel.P_KIND, _kernel.P_TEAM
PL_PILE, PL_WINNER, PL_ACE, PL_EST, PL_COLL, PL_HOT, PL_BITS = (_kernel.PL_PILE, _kernel.PL_WINNER, _kernel.PL_ACE,
                                                                _kernel.PL_EST, _kernel.PL_COLL, _kernel.PL_HOT,
                                                                _kernel.PL_BITS)  # kernel.pile_state's
MASK2, MASK3, MASK4 = _kernel.MASK2, _kernel.MASK3, _kernel.MASK4

# The core's own packed words, each field's shift declared here once (its width: MASK*).
# A move's undo word (State._saved): the trump + 1 (bits 0-2), the trump face down, shown, the
# trick it was shown in (4 bits), the table index it was shown before (3), the asker + 1 (3),
# the seat that must trump + 1 (3), lead_must_trump; a trick saves it with its table index
# (3 bits at SV_TK) before it closes (Trick._close_do).
SV_HIDDEN = 3
SV_REVEALED = 4
SV_REVEALED_TRICK = 5
SV_REVEAL_K = 9
SV_ASKER = 12
SV_MUST = 15
SV_LMT = 18
SV_TK = 19
# The tally a trick saves before it closes: tricks won by team 0 (bits 0-3), by team 1 (4
# bits), the first seven + 1 (2), each team's tens (3 each); then the pile's tens (3), the
# play-on, the court made, the deal ended, the leader (2). Its first 16 bits are also the key
# of an outcome (State._value_now), with the deciding pair's kind (2 bits) and team, and the
# team valued.
TL_WON1 = 4
TL_FIRST = 8
TL_TENS0 = 10
TL_TENS1 = 13
TL_PILE_TENS = 16
TL_PLAY_ON = 19
TL_COURT = 20
TL_ENDED = 21
TL_LEADER = 22
OK_KIND = 16
OK_WINNER = 18
OK_TEAM = 19
# A card on the table as position.load passes it: its flags
TABLE_TRUMP = 1          # an active trump when played
TABLE_DOWN = 2           # played face down
# The order of the move list (core_moves): a lead by its weight, then suit, then rank; a
# card that does not follow by its key, then suit (2 bits).
LEAD_SUIT = 4
LEAD_WEIGHT = 6
OTHER_SUIT = 2


PER_BUCKET = 256         # table entries kept per bucket (leader, suit lengths, rule state)
WORDS = 5                # an entry: four suit prefixes and one word of meta
MAX_ENTRIES = 1 << 22     # the table's size at most (160 MiB, grown as needed); past it, it starts again empty
WIDE = 36  # a table key's rule state past this many bits is kept as an id (core_table._state_id): 27 more follow it
M64 = 0xFFFFFFFFFFFFFFFF
HASH_A = 0x9E3779B97F4A7C15  # the index's hash: two odd multipliers (golden ratio, a prime)
HASH_B = 0xC2B2AE3D27D4EB4F
CHECK = 1023             # the budget is asked every 1,024 nodes
REACH_WORDS = 9          # the exact-count table (core_reach): a slot is the key's six words, the counts, two rel masks
REACH_PROBE = 4          # places looked at from a key's hash
REACH_FIRST = 1 << 4     # slots at first (a search that asks none keeps 1 KiB); doubled while over half used, up to REACH_MAX (36 MiB)
REACH_MAX = 1 << 19

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
