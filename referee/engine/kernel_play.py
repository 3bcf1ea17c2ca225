"""The rule kernel's second file: the face-down trump's reveals and what a seat may play
(trump.hidden.*, trump.band.*, trick.follow, R-6, R-13, R-14, R-23), small pure functions
over plain integers, for the engine and the solver alike, as kernel.py's (its docstring
says how; the numbers are the same). The solver compiles this file as `core_kernel_play`
(C types in referee/solver/core_kernel_play.pxd).

What a seat may play is one decision, `legal_suits`: the suit it must follow (follow_suit)
if it holds one, else the trump it must play (ruff_suit) if it holds one, else any card; the
face-down card apart. The engine lists legal cards by it (legal.py), and names a breach by
the same two suits (plays.py: the void a play declares); the core generates its moves by it.
"""
# absolute: this file is also the solver's core_kernel_play (and the Python core's)
from referee.engine.kernel import BAND_AUTO, BAND_AUTO_MUST

# how the face-down trump is turned up at a play (reveal_at_play)
REVEAL_NONE = 0
REVEAL_OPPONENT = 1      # an opponent's show-out (trump.hidden.opponent): they must trump
REVEAL_VOID = 2          # a show-out, band auto
REVEAL_VOID_MUST = 3     # ... auto_must_trump: the seat must trump
REVEAL_FOLLOWED = 4      # the caller follows with it, band auto
REVEAL_PLAYED = 5        # the card itself is played

# what a seat may play (legal_suits): the suits of its cards in bits 0-3, and
L_HIDDEN = 16            # the face-down card may be played


BAR_NONE, BAR_PAIR_CALLERS, BAR_CALLER, BAR_NOT_CALLER_ON_LEAD = 0, 1, 2, 3  # reveal_bar's answers


def reveal_bar(r, seat, lead):
    """While the trump lies face down, what bars `seat` from showing it (on its lead) or
    asking for it: the callers' side under a deciding pair (trump.hidden.opponent), the
    caller when band_caller_reveals is false (trump.band.caller-reveals), anyone but the
    caller on lead (trump.hidden.lead); BAR_NONE when nothing does."""
    if r.pairs and (seat & 1) == r.callers:
        return BAR_PAIR_CALLERS
    if r.no_caller_reveal and seat == r.caller:
        return BAR_CALLER
    if lead and seat != r.caller:
        return BAR_NOT_CALLER_ON_LEAD
    return BAR_NONE


def may_reveal(r, seat, lead, can_follow):
    """May `seat` show the face-down trump on its lead or ask for it now: nothing bars it
    (reveal_bar), and an ask comes from a seat that cannot follow (trump.hidden.ask)?"""
    if reveal_bar(r, seat, lead) != BAR_NONE:
        return 0
    return 1 if lead or not can_follow else 0


def ask_obliges(r):
    """Must the seat that asked for the face-down trump play a trump if it holds one (the
    hidden trump; band, but in its auto form, R-13, R-14)?"""
    return 1 if r.hidden_mode or r.band_reveal != BAND_AUTO else 0


def must_trump(r, seat, asker, obliged, hidden):
    """Must `seat`, out of the suit led, play a trump if it holds one: the asker, a seat a
    show-out obliged (`obliged`), and while the trump lies face down every show-out under
    band auto_must_trump (R-14) and an opponent's under a deciding pair (trump.hidden.opponent)?"""
    if seat == asker or seat == obliged:
        return 1
    if hidden and (r.band_reveal == BAND_AUTO_MUST or (r.pairs and r.hidden_mode and (seat & 1) != r.callers)):
        return 1
    return 0


def follow_suit(lead, led, trump, lmt):
    """trick.follow, R-13: the suit a seat must play if it holds one: the suit led; on a lead,
    the trump after the caller showed it on that lead (`lmt`); -1: none."""
    if lead:
        return trump if lmt and trump >= 0 else -1
    return led


def ruff_suit(r, seat, led, trump, hsuit, asker, obliged):
    """Out of the suit led, the suit `seat` must play next if it holds one: a trump, for a
    seat that must trump (must_trump; `trump` the known trump, -1 none, `hsuit` the face-down
    card's suit while it lies face down, -1 otherwise); -1: none."""
    suit = trump if trump >= 0 else hsuit
    if suit >= 0 and suit != led and must_trump(r, seat, asker, obliged, hsuit >= 0):
        return suit
    return -1


def legal_suits(r, seat, lead, led, held, trump, hsuit, lmt, asker, obliged):
    """What `seat` may play now: the suits of its cards it may play (bits 0-3; `held` the
    suits it holds, the face-down card apart) and L_HIDDEN when the face-down card may be
    played: the suit it must follow (follow_suit) if it holds one, else the trump it must
    play (ruff_suit) if it holds one, else any. The face-down card is the caller's last card
    (R-6); under band auto, once the caller cannot follow otherwise, it is turned up at the
    play and back in their hand (R-14, R-23), so that it follows suit or is a trump."""
    mine = hsuit >= 0 and seat == r.caller
    if mine and not held:
        return L_HIDDEN
    hand = held
    if mine and r.band_auto and not lead and not (held >> led) & 1:
        hand |= 1 << hsuit
    else:
        mine = 0
    suit = follow_suit(lead, led, trump, lmt)
    if suit < 0 or not (hand >> suit) & 1:
        suit = -1 if lead else ruff_suit(r, seat, led, trump, hsuit, asker, obliged)
    if suit >= 0 and (hand >> suit) & 1:
        hand = 1 << suit
    return (hand & held) | (L_HIDDEN if mine and (hand >> hsuit) & 1 else 0)


def reveal_at_play(r, seat, k, off_suit, hidden_card):
    """While the trump lies face down, a card is about to be placed at table index k by
    `seat` (`off_suit`: not of the suit led; `hidden_card`: the face-down card itself): does
    it turn the trump up first, and how (REVEAL_*)? An opponent's show-out under a deciding
    pair (trump.hidden.opponent), any show-out under band auto (R-14; must trump under
    auto_must_trump), the caller following with it under band auto (R-23), the card itself
    played (R-6, R-13)."""
    if k > 0 and off_suit and r.pairs and r.hidden_mode and (seat & 1) != r.callers:
        return REVEAL_OPPONENT
    if k > 0 and r.band_auto:
        if off_suit:
            return REVEAL_VOID_MUST if r.band_reveal == BAND_AUTO_MUST else REVEAL_VOID
        return REVEAL_FOLLOWED if hidden_card else REVEAL_NONE
    return REVEAL_PLAYED if hidden_card else REVEAL_NONE
