"""The rule kernel: each trick-level rule written once, as small pure functions over plain
integers, for the engine and the solver alike.

It holds the trick winner (trick.winner), the pile's pairs (pile.*), the end of a deal
(end.*, R-4, R-30, end.tens-settled) and the deciding pair (end.deciding-pair); its second
file, kernel_play.py (the solver's core_kernel_play), the face-down trump's reveals and the
trumps they oblige (trump.hidden.*, trump.band.*) and what a seat may play (trick.follow).

- The engine's rule modules (trick.py, collection.py, ending.py, pairs.py, legal.py,
  hidden.py, plays.py) import this file as Python and
  call it with their cards' numbers; what they add is the record's side (events, rule ids
  in words, errors).
- The solver's core (referee/solver/core_*.py) imports it as `core_kernel`: setup.py
  compiles this very file under that name with the C types of
  referee/solver/core_kernel.pxd, and the core's compiled modules call it as C; the
  solver's Python path (loader.python_search) loads this file. One source, one answer.

Numbers only: a suit 0-3 (cards.SUITS' order, S H D C), a rank 0-12 (2 to ace, a card's
strength), a seat 0-3, its team seat & 1, -1 for none. The rules' settings are one `Rules`,
built once per deal from the options and the deal's fixed facts (`rules_of`); a rule reads
the setting it needs by name. A new trick-level option: a field of `Rules` (here, in FIELDS
and in core_kernel.pxd), set in `rules_of`, read by the function of its rule. The core
cimports the functions; a number of the kernel's that a core module needs comes through
core_codes (the compiled kernel's numbers are C, not names a module can import).

Packed fields, each declared here once:

- `deal_end`'s answer: E_ENDED, E_COURT, E_SETTLED, the first seven + 1 at E_FIRST;
- the deciding pair's run (`pair_state`, `pair_step`): seat + 1 (P_SEAT), P_RUN, P_DEFERRED,
  and once decided P_KIND, P_TEAM; P_ACE;
- the pile (`pile_state`, `pile_key`): the pile (PL_PILE), the last trick's winner + 1 at
  PL_WINNER, its ace, established, collected at PL_ACE, PL_EST, PL_COLL, the run hot at PL_HOT;
- a card on the table, one byte: rank (bits 0-3), suit (4-5), T_TRUMP (an active trump when
  played), T_DOWN (played face down); a trick's cards, one byte each in play order, card k
  at bits 8k (`table_card`, `trick_winner`).
"""

# the end of a deal (end.*): Rules.end
END_SEVEN = 0
END_PILE = 1
END_THIRTEEN = 2
END_BID = 3
END_PAIR = 4
ENDS = {"seven": END_SEVEN, "pile": END_PILE, "thirteen": END_THIRTEEN, "bid": END_BID, "pair": END_PAIR}

# band's reveal (trump.band, R-14): Rules.band_reveal
BAND_ASK = 0
BAND_AUTO = 1
BAND_AUTO_MUST = 2
BANDS = {"ask": BAND_ASK, "auto": BAND_AUTO, "auto_must_trump": BAND_AUTO_MUST}

# pile.ace-no-seal: Rules.ace_seal
SEAL_NONE = 0
SEAL_TRUMP = 1
SEAL_ANY = 2
SEALS = {"none": SEAL_NONE, "trump": SEAL_TRUMP, "any": SEAL_ANY}

ACE = 12
TEN = 8
SUIT_NUMBER = {None: -1, "S": 0, "H": 1, "D": 2, "C": 3}  # a suit's letter (cards.SUITS) as its number

# a card on the table (one byte)
T_RANK = 15
T_SUIT = 4               # the suit's shift
T_TRUMP = 64
T_DOWN = 128

# deal_end's answer, packed
E_ENDED = 1
E_COURT = 2
E_SETTLED = 4
E_FIRST = 3              # the first seven + 1 (2 bits)

# the deciding pair (end.deciding-pair): how a deal was decided, and pair_step's state, packed
KIND_NONE = 0
KIND_PAIR = 1
KIND_NO_PAIR = 2
KIND_LAST = 3
KIND_NAMES = (None, "deciding_pair", "no_pair", "last_trick")
P_SEAT = 7               # the seat + 1 (bits 0-2)
P_RUN = 3                # the run's length (2 bits)
P_DEFERRED = 32
P_KIND = 6               # KIND_* (2 bits)
P_TEAM = 256
P_ACE = 512

# the pile's state, packed (pile_state)
PL_PILE = 15             # the tricks on the pile (bits 0-3)
PL_WINNER = 4            # the last trick's winner + 1 (3 bits)
PL_ACE = 7               # ... won with an ace
PL_EST = 8               # ... after trumps were established
PL_COLL = 9              # ... collected
PL_HOT = 10              # the run is hot (pile.each-win)
PL_BITS = 11

# masks of fields by width
MASK2 = 3
MASK3 = 7
MASK4 = 15

# why a pair does not collect (pile_blocked), and the rule that says so
BLOCK_NONE = 0
BLOCK_FIRST_PAIR = 1
BLOCK_NO_COLLECT = 2
BLOCK_ACE_ON_ACE = 3
BLOCK_ANY_ACE = 4
BLOCK_TRUMP_ACE = 5
BLOCK_RULES = (None, "pile.first-pair", "pile.no-collect-after", "pile.ace-on-ace", "pile.any-ace", "pile.trump-ace")


class Rules:
    """The rule settings of one deal, by name (`rules_of` builds them): where tricks go
    (pile and its options), the end, the scoring's tens, the trump's mode and reveal, the
    deciding pair, the bid, the caller and the callers' team."""

    def __init__(self, pile, end, play_on, tens, first_pair_collects, no_collect, ace_on_ace, ace_seal,
                 each_win, first_void, concealed, hidden_mode, band_auto, band_reveal, pairs, pairs_hidden,
                 ace_rule, bid_n, caller, callers, settled, no_caller_reveal):
        self.pile = pile                          # collection.pile
        self.end = end                            # END_*
        self.play_on = play_on                    # a first-7 court may be played on
        self.tens = tens                          # scoring: tens
        self.first_pair_collects = first_pair_collects
        self.no_collect = no_collect              # bit n: a pair ending on trick n never collects
        self.ace_on_ace = ace_on_ace
        self.ace_seal = ace_seal                  # SEAL_*
        self.each_win = each_win                  # pile.each-win
        self.first_void = first_void              # trump.first-void
        self.concealed = concealed                # hidden or band: a face-down trump
        self.hidden_mode = hidden_mode            # trump.hidden (not band)
        self.band_auto = band_auto                # band, shown at the first show-out
        self.band_reveal = band_reveal            # BAND_*
        self.pairs = pairs                        # end.deciding-pair
        self.pairs_hidden = pairs_hidden          # ... under a hidden trump
        self.ace_rule = ace_rule                  # end.deciding-pair-ace
        self.bid_n = bid_n                        # end.bid: the tricks bid (0: none)
        self.caller = caller
        self.callers = callers
        self.settled = settled                    # end.tens-settled
        self.no_caller_reveal = no_caller_reveal  # trump.band.caller-reveals: false


FIELDS = ("pile", "end", "play_on", "tens", "first_pair_collects", "no_collect", "ace_on_ace", "ace_seal", "each_win",
          "first_void", "concealed", "hidden_mode", "band_auto", "band_reveal", "pairs", "pairs_hidden", "ace_rule",
          "bid_n", "caller", "callers", "settled", "no_caller_reveal")  # Rules' settings, in its constructor's order


def rules_key(r):
    """The settings as a tuple: equal for equal rules."""
    return tuple([getattr(r, name) for name in FIELDS])


def rules_like(r):
    """This module's `Rules` with the settings of `r` (the compiled kernel's own type, for
    the solver's core, from the engine's)."""
    return Rules(*rules_key(r))


def rules_of(options, mode, caller, callers, bid_n):
    """The `Rules` of a deal: its options, its trump mode's name ("called", "hidden", ...: the
    settings are what the options' collection and trump mode answer, collection.py and
    trump.py), its caller and callers' team, the tricks bid (0: no bid)."""
    no_collect = 0
    for n in options.pile_no_collect_after:
        no_collect |= 1 << n
    m = options.trump_mode(mode)
    pairs = 1 if options.deciding_pair else 0
    return Rules(int(options.collects.piles), ENDS[options.end], int(options.play_on),
                 int(options.counts_tens), int(options.pile_first_pair_collects), no_collect,
                 int(options.pile_ace_on_ace), SEALS[options.pile_ace_no_seal],
                 int(options.pile_after_collect == "each_win"), int(m.set_by_void),
                 int(m.concealed), int(m.hidden_form), int(m.reveals_on_void),
                 BANDS[m.band_reveal], pairs, pairs and int(m.hidden_form),
                 int(options.deciding_pair_ace_rule), bid_n, caller, callers,
                 int(options.tens_settled),
                 int(not m.caller_reveals))


def table_card(suit, rank, trump, down):
    """A card on the table as its byte (`trump`: an active trump when played; `down`: face down)."""
    return rank | suit << T_SUIT | (T_TRUMP if trump else 0) | (T_DOWN if down else 0)


def trick_winner(cards, n, trump):
    """trick.winner: the index of the winning card among a trick's first n `cards` (bytes):
    the highest active trump; if the trump is the suit led (or no trump was played), the
    highest card of the suit led. A face-down card never wins (nor is it an active trump)."""
    led = (cards >> T_SUIT) & 3
    best = -1
    top = -1
    k = 0
    c = 0
    b = 0
    if trump >= 0 and trump != led:  # no trump set: no card was an active trump
        c = cards
        for k in range(n):
            b = c & 255
            if b & T_TRUMP and (b & T_RANK) > top:
                best = k
                top = b & T_RANK
            c >>= 8
        if best >= 0:
            return best
    c = cards
    for k in range(n):
        b = c & 255
        if not b & T_DOWN and (b >> T_SUIT) & 3 == led and (b & T_RANK) > top:
            best = k
            top = b & T_RANK
        c >>= 8
    return best


def tens_settled(tens0, tens1, won0, won1):
    """tens_end settled (end.tens-settled): all four tens are in and the tens are 4-0 or
    3-1, or 2-2 and a team has seven tricks (tricks collected, in pile games)."""
    return 1 if tens0 + tens1 == 4 and (tens0 != 2 or won0 >= 7 or won1 >= 7) else 0


def deal_end(r, number, won0, won1, tens0, tens1, team, play_on, first_seven):
    """end.* (but the deciding pair's, pair_step): after trick `number`, won by `team`, with
    (won0, won1) tricks taken or collected, (tens0, tens1) tens, a play-on under way (R-4) and
    the first seven so far (-1: none): has the deal ended (E_SETTLED: by end.tens-settled), has
    a first-7 court been made that may be played on (R-4), and the first seven now (R-4 at the
    seventh trick, R-30 in pile games), packed: E_ENDED, E_COURT, E_SETTLED, first seven + 1
    at E_FIRST."""
    ended = 0
    court = 0
    if number == 13:
        ended = 1
    elif r.settled and tens_settled(tens0, tens1, won0, won1):
        ended = 1 | E_SETTLED
    elif r.end == END_SEVEN:
        if play_on:
            ended = 1 if team != first_seven else 0
        elif won0 >= 7 or won1 >= 7:
            first_seven = 0 if (won0 == 7 and won1 == 0) else 1 if (won0 == 0 and won1 == 7) else -1
            court = 1 if first_seven >= 0 and r.play_on else 0
            ended = 1 - court
    elif r.end == END_PILE:
        ended = 1 if min(won0, won1) >= 1 and max(won0, won1) >= 7 else 0
    elif r.end == END_BID:
        ended = 1 if (won1 if r.callers else won0) >= r.bid_n or (won0 if r.callers else won1) >= 14 - r.bid_n else 0
    elif r.pile:  # a team collecting 7 before the other collects any
        if first_seven < 0 and max(won0, won1) >= 7 and min(won0, won1) == 0:
            first_seven = 0 if won0 >= 7 else 1
    elif number == 7 and max(won0, won1) == 7:
        first_seven = 0 if won0 == 7 else 1
    return ended | court << 1 | (first_seven + 1) << E_FIRST


def pair_counts(r, team, number, revealed_trick):
    """end.deciding-pair: does a pair of `team` ending on trick `number` decide the deal? Open
    trump: the defenders' only, from trick 3. Hidden: the callers' from trick 9, the
    defenders' once the trump is shown (in trick `revealed_trick`, -1 not yet), from trick
    max(4, that trick + 1)."""
    if not r.pairs_hidden:
        return 1 if team != r.callers and number >= 3 else 0
    if team == r.callers:
        return 1 if number >= 9 else 0
    return 1 if revealed_trick >= 0 and number >= max(4, revealed_trick + 1) else 0


def pair_state(run_by, run, deferred):
    """The deciding pair's run, packed: the seat winning in a row (-1 none), how many (only
    two matter), a pair completed by an ace waiting (end.deciding-pair-ace)."""
    return (run_by + 1) | (run if run < 2 else 2) << P_RUN | (P_DEFERRED if deferred else 0)


def pair_step(r, state, number, seat, ace, revealed_trick):
    """end.deciding-pair, end.deciding-pair-ace: the run (pair_state) after trick `number`,
    won by `seat` (with an ace or not), and once the deal is decided its kind (KIND_* at
    P_KIND) and team (P_TEAM); P_ACE when the ace rule deferred the pair, restarted the run
    or decided it at this trick."""
    run_by = (state & P_SEAT) - 1
    run = (state >> P_RUN) & MASK2
    deferred = state & P_DEFERRED
    team = seat & 1
    why = 0
    if seat != run_by:
        run_by = seat
        run = 1
        deferred = 0
    elif deferred and ace:  # an ace again restarts the run
        run = 1
        deferred = 0
        why = P_ACE
    elif deferred:
        return pair_state(run_by, run, 1) | KIND_PAIR << P_KIND | team * P_TEAM | P_ACE
    elif run < 2:
        run += 1
    if run >= 2 and pair_counts(r, team, number, revealed_trick):
        if r.ace_rule and ace and number < 13:
            return pair_state(run_by, run, 1) | P_ACE
        return pair_state(run_by, run, 0) | KIND_PAIR << P_KIND | team * P_TEAM
    if number == 13:  # no pair: the last trick's winner (hidden), else the callers
        if r.pairs_hidden:
            return pair_state(run_by, run, deferred) | KIND_LAST << P_KIND | team * P_TEAM
        return pair_state(run_by, run, deferred) | KIND_NO_PAIR << P_KIND | r.callers * P_TEAM
    return pair_state(run_by, run, deferred) | why


def pile_pair_open(last_winner, winner, hot, last_collected, last_established):
    """pile.collect: does the trick `winner` wins make a pair with the last one (won by
    the same seat, after trumps were established, not itself a collection; or a run that
    has collected, pile.each-win)?"""
    return 1 if last_winner == winner and (hot or (not last_collected and last_established)) else 0


def pile_blocked(r, number, rank, suit, trump, last_ace):
    """The option that keeps a pair ending on trick `number` (won with `rank` of `suit`;
    `last_ace`: the pair's first trick was won by an ace) from collecting: BLOCK_*."""
    if number == 2 and not r.first_pair_collects:
        return BLOCK_FIRST_PAIR
    if (r.no_collect >> number) & 1:
        return BLOCK_NO_COLLECT
    if r.ace_on_ace and rank == ACE and last_ace:
        return BLOCK_ACE_ON_ACE
    if r.ace_seal == SEAL_ANY and rank == ACE:
        return BLOCK_ANY_ACE
    if r.ace_seal == SEAL_TRUMP and rank == ACE and suit == trump:
        return BLOCK_TRUMP_ACE
    return BLOCK_NONE


def pile_collects(number, pair, blocked):
    """pile.collect, pile.last-trick: does the trick collect the pile (a pair no option
    blocks, or the last trick)?"""
    return 1 if number == 13 or (pair and blocked == BLOCK_NONE) else 0


def pile_state(pile, last_winner, last_ace, last_established, last_collected, hot):
    """The pile's state, packed in PL_BITS bits (PL_*)."""
    return (pile | (last_winner + 1) << PL_WINNER | last_ace << PL_ACE | last_established << PL_EST
            | last_collected << PL_COLL | hot << PL_HOT)


def pile_key(r, pile, last_winner, last_ace, last_established, last_collected, hot):
    """The pile's state as far as it can still matter (pile_state): where no pair can open on
    the next trick (pile_pair_open false whoever wins it), the last trick's winner and how it
    was won matter no more; the ace only under pile.ace-on-ace. Positions reached by
    different histories that agree here play on alike (the search's table key)."""
    if not (hot or (not last_collected and last_established)):
        return pile | 1 << PL_COLL
    return pile_state(pile, last_winner, last_ace if r.ace_on_ace else 0, last_established, last_collected, hot)


def pile_hot(r, pair, collects, hot, blocked):
    """pile.each-win: is the run hot after this trick (a pair that collected, or a hot run
    a blocked pair leaves unbroken, R-8)?"""
    return 1 if r.each_win and pair and (collects or (hot and blocked != BLOCK_NONE)) else 0
