"""One deal's replay: the deal's state, and `push`, which applies an event to it.

`Deal` is small, as python-chess's `Board` is: the state of the deal and the replay loop.
The rules are functions of that state, in modules by job, which the replay calls and any
reader may call too:

    dealing.py   the hands, the bid and the trump, checked and set up
    legal.py     whose turn it is and what may be played now
    plays.py     a card played or taken back, by the full rules
    voids.py     what a show-out proves: the voids declared, and their proof (R-2)
    hidden.py    the face-down trump: when it is shown, and its breaches
    claims.py    table claims (R-33) and the referee's line after them
    closing.py   how a trick closes: its winner, the pile, the tens
    ending.py    when the deal ends, by every end of deal
    facts.py     how it ended: the penalty, the status, the facts scoring reads

The readers' questions are methods too: `deal.legal_plays()` is `legal.legal_plays(deal)`.
"""
from __future__ import annotations

import copy

from .cards import DECK, SUIT_CARDS, Card, caller_of, team_of
from .claims import TableClaim, answer, awaiting_answer, awaiting_settlement, claim, play_line, remaining
from .closing import close_trick
from .collection import make_collection
from .kernel import rules_of
from .dealing import checked_bid, checked_hands, make_trump
from .ending import after_end, begin_play_on, is_complete
from .facts import facts, ignored_events, penalty, status, tricks_over, won_until
from .hidden import reveal
from .legal import can_play_face_down, can_reveal, legal_after_reveal, legal_plays, plays_face_up
from .options import Options
from .pairs import DecidingPair
from .plays import play, take_back
from .playrecord import CLAIM_KINDS, PLAY, REVEAL, TAKE_BACK, Bid, Event, TrumpSpec
from .trick import CARD, Play, Played, Trick
from .violations import Violation
from .voids import Void, seats_done, unproven


class Deal:
    """The replay of one deal, event by event (like python-chess's Board for one game).

    `push(event)` applies an event or raises RecordError (an impossible record); rule
    breaches at the table become `violations`. `finish()` closes a complete last trick;
    `facts()` then says how the deal ended.

    Its state, for the rules and for readers:
      the deal    options, dealer, bid, caller, callers (their team), dealt (the hands in deal
                  order, or None), trump, trump_mode (what the rules ask of its mode: trump.py),
                  set_aside (the face-down trump card), redeal, collection (where won tricks
                  go: collection.py), pairs (Band Rang's deciding pair, or None)
      the table   leader, slots (the open trick's plays by play order, None where a card was
                  taken back), filled, n_events, hands (what each seat holds, or None),
                  held (what each seat may still play: its hand, or without hands every card
                  not yet played), unplayed (without hands: the cards not yet played)
      this trick  what the full rules found in it: first_back (the first slot taken back),
                  asker, must_trump, lead_must_trump, trick_reveal and trick_trump_set (the
                  trick's `reveal` and `trump_set`), ask_void (the void the ask declared)
      the tally   tricks, tricks_won, tens_won, pile_tens (tens in the pile), trick_ends
                  (each closed trick's last event), first_seven
      the end     ended, court_made (a first-7 court that may be played on), play_on,
                  play_all (the solver's `tricks` question: play all 13), bell (the session
                  was closed: the open trick is over, R-36)
      judgement   violations, voids (per seat, the voids it declared, not yet proven false)
      a claim     claimed (the table claim), settling (the referee's line is being pushed)
    """

    def __init__(self, options: Options, dealer: int, hands=None, trump: TrumpSpec | None = None,
                 bid: Bid | None = None):
        self.options = options
        self.dealer = dealer
        self.bid = checked_bid(options, bid)
        self.caller = caller_of(dealer) if bid is None else bid.seat  # the bidder calls and leads (record.bid)
        self.callers = team_of(self.caller)
        self.violations: list[Violation] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0]
        self.tens_won = [0, 0]
        self.pile_tens = 0
        self.trick_ends: list[int] = []
        self.redeal = bool(trump and trump.redeal)
        self.n_events = 0
        self.ended = False          # no further event possible
        self.court_made = False     # a first-7 court that may be played on
        self.play_on = False
        self.play_all = False
        self.bell = False
        self.first_seven: int | None = None
        self.claimed: TableClaim | None = None
        self.settling = False
        self._raw_plays = False     # the fast path's plays are plain tuples (`_name_plays`)
        self.voids: list[list[Void]] = [[], [], [], []]
        self.hands = checked_hands(hands)
        self.dealt = None if self.hands is None else hands
        self.unplayed: set[Card] = set(DECK) if hands is None else set()
        self.held: list[set[Card]] = self.hands if self.hands is not None else [self.unplayed] * 4
        self.trump = make_trump(self, trump or TrumpSpec())
        self.rules = _rules(options, self.trump.mode, self.caller, self.callers, 0 if self.bid is None else self.bid.tricks)
        self.collection = make_collection(options, self.rules)
        self.pairs = DecidingPair(self.rules) if options.deciding_pair else None
        self.trump_mode = self.trump.trump_mode  # what the rules ask of the trump mode (trump.py)
        self.set_aside = self.trump.card if self.trump_mode.concealed else None
        self.leader = self.caller
        self.slots: list[Play | None] = [None, None, None, None]
        self.filled = 0
        self._new_trick_state()

    def copy(self) -> "Deal":
        """An independent copy to play on (the solver's search); violations are shared."""
        new = copy.copy(self)
        new.violations, new.tricks, new.slots = list(self.violations), list(self.tricks), list(self.slots)
        new.tricks_won, new.tens_won, new.trick_ends = list(self.tricks_won), list(self.tens_won), list(self.trick_ends)
        new.voids = [list(v) for v in self.voids]
        new.collection, new.trump, new.pairs = copy.copy(self.collection), copy.copy(self.trump), copy.copy(self.pairs)
        if self.hands is None:
            new.unplayed = set(self.unplayed)
            new.held = [new.unplayed] * 4
        else:
            new.hands = new.held = [set(h) for h in self.hands]
        return new

    def _new_trick_state(self) -> None:
        """State only the full rules (push) set; cleared for each new trick."""
        self._touched = False
        self.first_back: int | None = None
        self.asker: int | None = None
        self.must_trump: int | None = None
        self.lead_must_trump = False
        self.trick_reveal: dict | None = None
        self.trick_trump_set: dict | None = None
        self.ask_void: Void | None = None

    def next_trick(self, leader: int) -> None:
        """The trick just closed is over: the next one, led by `leader` (its winner)."""
        self.leader = leader
        self.slots = [None, None, None, None]
        self.filled = 0
        if self._touched:
            self._new_trick_state()

    # -- the table now ------------------------------------------------------------

    @property
    def number(self) -> int:
        """The number of the trick being played (1..13)."""
        return len(self.tricks) + 1

    @property
    def position(self) -> int:
        """Index in play order of the next card of this trick."""
        for k, p in enumerate(self.slots):
            if p is None:
                return k
        return 4

    @property
    def on_table(self) -> tuple[Played, ...]:
        """The open trick's cards in play order, take-backs applied."""
        return tuple(Played._make(p) for p in self.slots if p is not None)

    @property
    def to_play(self) -> int | None:
        k = self.position
        if k == 4 or self.is_over or self.claimed is not None and not self.settling:
            return None  # a claim waits for its answer, then for the referee
        return (self.leader + k) % 4

    @property
    def led(self) -> str | None:
        lead = self.slots[0]
        return lead[CARD].suit if lead is not None else None

    @property
    def is_over(self) -> bool:
        return self.ended or self.court_made or self.redeal

    def hand(self, seat: int) -> set[Card] | None:
        return None if self.hands is None else self.hands[seat]

    # -- what readers ask: the rule functions, as methods ---------------------------

    legal_plays = legal_plays
    can_reveal = can_reveal
    legal_after_reveal = legal_after_reveal
    can_play_face_down = can_play_face_down
    plays_face_up = plays_face_up
    remaining = remaining
    awaiting_answer = property(awaiting_answer)
    awaiting_settlement = property(awaiting_settlement)
    play_line = play_line
    begin_play_on = begin_play_on
    is_complete = property(is_complete)
    tricks_over = property(tricks_over)
    penalty = penalty
    status = status
    facts = facts
    won_until = won_until
    ignored_events = ignored_events
    unproven = unproven
    seats_done = seats_done

    # -- applying events ----------------------------------------------------------

    def push(self, event: Event) -> None:
        i = self.n_events
        self._touched = True
        if self._raw_plays:
            self._name_plays()
        kind = event.kind
        if self.filled == 4 and kind != TAKE_BACK:
            close_trick(self, i - 1)
        self.n_events = i + 1
        if self.ended or self.court_made or self.redeal:
            after_end(self, event, i)
        if self.claimed is not None and not self.settling:
            answer(self, event, i)
        elif kind == PLAY:
            play(self, event, i)
        elif kind == REVEAL:
            reveal(self, event, i)
        elif kind in CLAIM_KINDS:
            claim(self, event, i)
        else:
            take_back(self, event, i)

    def push_all(self, events) -> None:
        """`push` each event in order. A plain play that needs no judgement is placed
        directly: in turn, held, following suit (or, with hands and trump known, showing
        out while holding none of the suit led), no declared void open. Anything else goes
        through `push` and the full rules. Table state is re-read after every trick and
        every slow step, the only places it changes."""
        hands, held, voids = self.hands, self.held, self.voids
        set_aside, slow, close, a_play, a_take_back = self.set_aside, self.push, close_trick, PLAY, TAKE_BACK
        events = iter(events)
        while True:  # once, then again after each slow step
            k, slots, leader, n = self.filled, self.slots, self.leader, self.n_events
            quiet = self._quiet()
            led = self.led  # None with no lead on the table (none yet, or taken back)
            trump_suit = self.trump.suit
            for ev in events:
                seat, kind, card, face_down = ev
                if k == 4 and kind is not a_take_back:
                    self.n_events = n
                    close(self, n - 1)
                    k, slots, leader, led = 0, self.slots, self.leader, None
                    quiet = not (self.ended or self.court_made or self.claimed)
                    trump_suit = self.trump.suit
                hand = held[seat & 3]  # a seat out of range fails the turn test below, not here
                if (quiet and kind is a_play and not face_down and seat == (leader + k) & 3
                        and card in hand and card is not set_aside and not voids[seat]
                        and (k == 0 or card.suit == led
                             or (hands is not None and trump_suit is not None
                                 and hand.isdisjoint(SUIT_CARDS[led])))):
                    slots[k] = (seat, card, n, False, card.suit == trump_suit)
                    hand.discard(card)
                    if k == 0:
                        led = card.suit
                    k += 1
                    n += 1
                    continue
                self.filled, self.n_events, self._raw_plays = k, n, True
                slow(ev)
                break
            else:
                self.filled, self.n_events, self._raw_plays = k, n, True
                return

    def _name_plays(self) -> None:
        """The full rules read the table's cards by name: make the fast path's tuples `Played`."""
        self.slots[:] = [p if p is None or type(p) is Played else Played._make(p) for p in self.slots]
        self._raw_plays = False

    def _quiet(self) -> bool:
        """No pending judgement in this trick: the next plain play may take the fast path."""
        return not (self.first_back is not None or self.ended or self.court_made or self.redeal or self.claimed
                    or self.lead_must_trump or self.asker is not None or self.must_trump is not None)

    def finish(self) -> None:
        """Close a trick of four cards now: the record ends here, or (in simulations)
        the next event will not be a take-back (R-12)."""
        if self.filled == 4:
            close_trick(self, self.n_events - 1)


_KEPT: dict = {}  # (id(options), mode, caller, bid): (options, Rules); resolved options are shared


def _rules(options: Options, mode: str, caller: int, callers: int, bid_n: int):
    """The kernel's settings of a deal (kernel.rules_of), kept for the same options object:
    a replay makes one deal after another with the same options."""
    key = (id(options), mode, caller, bid_n)
    kept = _KEPT.get(key)
    if kept is None or kept[0] is not options:
        if len(_KEPT) >= 512:
            _KEPT.clear()
        kept = _KEPT[key] = (options, rules_of(options, mode, caller, callers, bid_n))
    return kept[1]
