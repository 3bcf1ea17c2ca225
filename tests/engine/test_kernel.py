"""The rule kernel (referee/engine/kernel.py) on concrete states: what the engine and the
solver's core both ask of it."""
from referee.engine import kernel, kernel_play, resolve
from referee.engine.kernel import table_card, trick_winner


def rules(preset, overrides=None, mode="called", caller=0):
    return kernel.rules_of(resolve(preset, overrides or {}), mode, caller, caller & 1, 0)


def test_the_trick_winner_is_the_highest_trump_else_the_highest_of_the_suit_led():
    # 5S led, KS, 2H (trump), AS: the trump wins; with no trump the ace of the suit led
    cards = table_card(0, 3, 0, 0) | table_card(0, 11, 0, 0) << 8 | table_card(1, 0, 1, 0) << 16 | table_card(0, 12, 0, 0) << 24
    assert trick_winner(cards, 4, 1) == 2
    assert trick_winner(cards & ~(kernel.T_TRUMP << 16), 4, -1) == 3
    # a face-down card never wins, even of the suit led
    assert trick_winner(table_card(0, 3, 0, 0) | table_card(0, 12, 0, 1) << 8, 2, -1) == 0


def test_a_collected_pile_forgets_who_won_the_last_trick_in_the_table_key():
    r = rules("double-sir")
    # collected by seat 2 with an ace, or by seat 3 without: no pair can open, the same key
    assert kernel.pile_key(r, 0, 2, 1, 1, 1, 0) == kernel.pile_key(r, 0, 3, 0, 1, 1, 0)
    # an open pair (the last trick piled, trumps established): its winner matters
    assert kernel.pile_key(r, 1, 2, 0, 1, 0, 0) != kernel.pile_key(r, 1, 3, 0, 1, 0, 0)
    # the last trick's ace matters only under pile.ace-on-ace
    assert kernel.pile_key(r, 1, 2, 1, 1, 0, 0) == kernel.pile_key(r, 1, 2, 0, 1, 0, 0)
    ace = rules("double-sir", {"pile_ace_on_ace": True})
    assert kernel.pile_key(ace, 1, 2, 1, 1, 0, 0) != kernel.pile_key(ace, 1, 2, 0, 1, 0, 0)


def test_seven_tricks_end_court_piece_or_make_a_court_that_plays_on():
    r = rules("court-piece")
    ended = kernel.deal_end(r, 9, 7, 2, 0, 0, 0, 0, -1)
    assert ended & kernel.E_ENDED and (ended >> kernel.E_FIRST) - 1 == -1
    court = kernel.deal_end(r, 7, 7, 0, 0, 0, 0, 0, -1)
    assert court & kernel.E_COURT and not court & kernel.E_ENDED and (court >> kernel.E_FIRST) - 1 == 0


def test_a_defenders_pair_from_trick_3_decides_band_rang():
    r = rules("band-rang", caller=0)  # callers: team 0; seat 1 defends
    state = kernel.pair_step(r, kernel.pair_state(-1, 0, 0), 2, 1, 0, -1)
    state = kernel.pair_step(r, state, 3, 1, 0, -1)
    assert (state >> kernel.P_KIND) & 3 == kernel.KIND_PAIR and state & kernel.P_TEAM
    # with an ace the pair waits a trick (end.deciding-pair-ace)
    waiting = kernel.pair_step(r, kernel.pair_step(r, kernel.pair_state(-1, 0, 0), 2, 1, 0, -1), 3, 1, 1, -1)
    assert (waiting >> kernel.P_KIND) & 3 == kernel.KIND_NONE and waiting & kernel.P_DEFERRED


S, H, D, C = 0, 1, 2, 3


def test_a_seat_follows_suit_else_trumps_when_it_must_else_plays_any_card():
    r = rules("hidden-rung", mode="hidden", caller=1)
    held = 1 << S | 1 << H | 1 << C
    # hearts led: seat 2 holds hearts, so hearts only, asker or not
    assert kernel_play.legal_suits(r, 2, 0, H, held, S, -1, 0, 2, -1) == 1 << H
    # diamonds led: the asker must play a spade (the trump), a seat not obliged any card
    assert kernel_play.legal_suits(r, 2, 0, D, held, S, -1, 0, 2, -1) == 1 << S
    assert kernel_play.legal_suits(r, 2, 0, D, held, S, -1, 0, -1, -1) == held
    # ... an asker with no trump plays any card
    assert kernel_play.legal_suits(r, 2, 0, D, 1 << H | 1 << C, S, -1, 0, 2, -1) == 1 << H | 1 << C
    # the caller who showed the trump on their lead leads one (lead_must_trump)
    assert kernel_play.legal_suits(r, 1, 1, -1, held, S, -1, 1, -1, -1) == 1 << S
    assert kernel_play.legal_suits(r, 1, 1, -1, held, S, -1, 0, -1, -1) == held


def test_the_face_down_card_is_the_callers_last_card_or_under_band_auto_back_in_hand():
    hidden = rules("hidden-rung", mode="hidden", caller=1)
    # the caller's face-down card (a spade) is their last card: the one play
    assert kernel_play.legal_suits(hidden, 1, 0, H, 0, -1, S, 0, -1, -1) == kernel_play.L_HIDDEN
    # otherwise it never follows suit while it lies face down (hidden trump)
    assert kernel_play.legal_suits(hidden, 1, 0, S, 1 << H | 1 << C, -1, S, 0, -1, -1) == 1 << H | 1 << C
    band = rules("mendikot", {"band_reveal": "auto_must_trump"}, mode="band", caller=1)
    # band auto, R-23: spades led and the face-down spade the caller's only one: it follows
    assert kernel_play.legal_suits(band, 1, 0, S, 1 << H | 1 << C, -1, S, 0, -1, -1) == kernel_play.L_HIDDEN
    # holding another spade, the caller follows with that one
    assert kernel_play.legal_suits(band, 1, 0, S, 1 << S | 1 << H, -1, S, 0, -1, -1) == 1 << S
    # diamonds led, the caller void: the show-out turns it up and they must trump
    assert kernel_play.legal_suits(band, 1, 0, D, 1 << S | 1 << H, -1, S, 0, -1, -1) == 1 << S | kernel_play.L_HIDDEN
    assert kernel_play.legal_suits(band, 1, 0, D, 1 << H, -1, S, 0, -1, -1) == kernel_play.L_HIDDEN
    # an opponent void in diamonds must trump too, and holds none: any card
    assert kernel_play.legal_suits(band, 2, 0, D, 1 << S | 1 << H, -1, S, 0, -1, -1) == 1 << S
    assert kernel_play.legal_suits(band, 2, 0, D, 1 << H | 1 << C, -1, S, 0, -1, -1) == 1 << H | 1 << C
