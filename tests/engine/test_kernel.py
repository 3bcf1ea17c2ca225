"""The rule kernel (referee/engine/kernel.py) on concrete states: what the engine and the
solver's core both ask of it."""
from referee.engine import kernel, resolve
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
