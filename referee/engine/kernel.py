"""The rule kernel: each trick-level rule written once, as small pure functions over plain
integers, for the engine and the solver alike.

- The engine's rule modules (trick.py, collection.py, ...) import this file as Python and
  call it with their cards' numbers; what they add is the record's side (events, rule ids
  in words, errors).
- The solver's core (referee/solver/core_*.py) imports it as `core_kernel`: setup.py
  compiles this very file under that name with the C types of
  referee/solver/core_kernel.pxd, and the core's compiled modules call it as C; the
  solver's Python path (loader.python_search) loads this file. One source, one answer.

Numbers only: a suit 0-3 (cards.SUITS' order, S H D C), a rank 0-12 (2 to ace, a card's
strength), a seat 0-3, its team seat & 1, -1 for none. The rules' settings are one `Rules`,
built once per deal from the options and the deal's fixed facts (`rules_of`); a rule reads
the setting it needs by name. A new trick-level option: a field of `Rules` (here and in
core_kernel.pxd), set in `rules_of`, read by the function of its rule.

Packed fields, each declared here once:

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
    """The `Rules` of a deal: its options, its trump mode ("called", "hidden", "band",
    "first_void", ...), its caller and callers' team, the tricks bid (0: no bid)."""
    no_collect = 0
    for n in options.pile_no_collect_after:
        no_collect |= 1 << n
    band = mode == "band"
    pairs = 1 if options.deciding_pair else 0
    return Rules(int(options.collection == "pile"), ENDS[options.end], int(options.play_on),
                 int(options.scoring == "tens"), int(options.pile_first_pair_collects), no_collect,
                 int(options.pile_ace_on_ace), SEALS[options.pile_ace_no_seal],
                 int(options.pile_after_collect == "each_win"), int(mode == "first_void"),
                 int(mode == "hidden" or band), int(mode == "hidden"), int(band and options.band_reveal != "ask"),
                 BANDS[options.band_reveal] if band else BAND_ASK, pairs, pairs and int(mode == "hidden"),
                 int(options.deciding_pair_ace_rule), bid_n, caller, callers,
                 int(options.tens_end == "settled" and options.scoring == "tens"),
                 int(band and options.band_caller_reveals is False))


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


def pile_hot(r, pair, collects, hot, blocked):
    """pile.each-win: is the run hot after this trick (a pair that collected, or a hot run
    a blocked pair leaves unbroken, R-8)?"""
    return 1 if r.each_win and pair and (collects or (hot and blocked != BLOCK_NONE)) else 0
