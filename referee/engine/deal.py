"""The replay of one deal: applies events, knows what is legal now, says how it ended."""
from __future__ import annotations

import copy

from .claims import CLAIM_KINDS, ClaimRules
from .cards import DECK, SUIT_CARDS, SUIT_NAMES, Card, caller_of, partner, team_of
from .collection import make_collection
from .errors import RecordError
from .hidden import HiddenTrumpRules
from .options import Options
from .pairs import DecidingPair
from .playrecord import PLAY, REVEAL, TAKE_BACK, Bid, Event, TrumpSpec
from .scoring import Facts
from .trick import CARD, EVENT, FACE_DOWN, SEAT, Play, Played, Trick, winning_play
from .trump import Trump
from .violations import Claim, Violation


class Deal(HiddenTrumpRules, ClaimRules):
    """Replays one deal event by event (like python-chess's Board for one game).

    `push(event)` applies an event or raises RecordError (an impossible record);
    rule breaches at the table become `violations`. `finish()` closes a complete
    last trick; `facts()` then says how the deal ended.
    """

    def __init__(self, options: Options, dealer: int, hands=None, trump: TrumpSpec | None = None,
                 bid: Bid | None = None):
        self.options = options
        self.dealer = dealer
        self.bid = self._check_bid(bid)
        self.caller = caller_of(dealer) if bid is None else bid.seat  # the bidder calls and leads (record.bid)
        self.callers = team_of(self.caller)
        self.violations: list[Violation] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0]
        self.tens_won = [0, 0]
        self.collection = make_collection(options)
        self._piles = options.collection == "pile"
        self._count_tens = options.scoring == "tens"
        self._end = options.end
        self.redeal = bool(trump and trump.redeal)
        self.n_events = 0
        self.ended = False          # no further event possible
        self.court_made = False     # a first-7 court that may be played on
        self.play_on = False
        self.play_all = False       # the solver's `tricks` question: play all 13, whatever the end
        self.bell = False           # the session was closed: the open trick is over
        self.first_seven: int | None = None
        self._raw_plays = False
        self._pending: list[list[Claim]] = [[], [], [], []]
        self._pile_tens = 0
        self._trick_ends: list[int] = []
        self.hands = self._check_hands(hands)
        # What each seat may still play: its hand, or without hands every card not yet played.
        self._unplayed: set[Card] = set(DECK) if hands is None else set()
        self._held: list[set[Card]] = self.hands if self.hands is not None else [self._unplayed] * 4
        self.trump = self._make_trump(trump or TrumpSpec())
        self._pairs = DecidingPair(options, self.callers, self.trump.mode == "hidden") if options.deciding_pair else None
        self._set_aside = self.trump.card if self.trump.is_concealed_mode else None  # the face-down card
        self.leader = self.caller
        self.slots: list[Play | None] = [None, None, None, None]
        self.filled = 0
        self._reset_trick_state()

    def copy(self) -> "Deal":
        """An independent copy to play on (the solver's search); violations are shared."""
        new = copy.copy(self)
        new.violations, new.tricks, new.slots = list(self.violations), list(self.tricks), list(self.slots)
        new.tricks_won, new.tens_won, new._trick_ends = list(self.tricks_won), list(self.tens_won), list(self._trick_ends)
        new._pending = [list(p) for p in self._pending]
        new.collection, new.trump, new._pairs = copy.copy(self.collection), copy.copy(self.trump), copy.copy(self._pairs)
        if self.hands is None:
            new._unplayed = set(self._unplayed)
            new._held = [new._unplayed] * 4
        else:
            new.hands = new._held = [set(h) for h in self.hands]
        return new

    # -- setting up ---------------------------------------------------------------

    def _check_hands(self, hands):
        if hands is None:
            return None
        if len(hands) != 4 or set(map(len, hands)) != {13}:
            raise RecordError("bad_hands", "hands must be four lists of 13 cards; got sizes "
                              + ", ".join(str(len(h)) for h in hands))
        if len(set().union(*hands)) != 52:
            cards = [c for h in hands for c in h]
            twice = [c.face for c in sorted({c for c in cards if cards.count(c) > 1})]
            raise RecordError("bad_hands", f"hands must hold the 52 cards once each; repeated: {', '.join(twice)}")
        self.dealt = hands
        return [set(h) for h in hands]

    def _check_bid(self, bid: Bid | None) -> Bid | None:
        if self.options.bidding and bid is None:
            raise RecordError("bad_bid", "a bidding game's deal records its winning bid: {\"bid\": {\"seat\": S, \"tricks\": N}}")
        if bid is not None and not self.options.bidding:
            raise RecordError("bad_bid", "this game has no bidding: a deal records no bid")
        return bid

    def _bad_trump(self, message: str):
        return RecordError("bad_trump", message)

    def _make_trump(self, spec: TrumpSpec) -> Trump:
        mode = self.options.trump
        if spec.redeal:
            self._check_redeal()
            return Trump(mode)
        if mode == "first_void":
            if not spec.is_empty:
                raise self._bad_trump("no trump is called in a first-void game: trump must be null")
            return Trump(mode)
        if mode in ("hidden", "band"):
            return self._hidden_trump(spec, mode)
        if spec.hidden is not None:
            raise self._bad_trump(f"a hidden trump card is not part of trump mode \"{mode}\"")
        if mode == "random":
            if spec.blind is None:
                raise self._bad_trump("random trump needs the card shown before the deal, as {\"blind\": \"QC\"}")
            return self._turned_up(spec, mode)
        if spec.blind is not None:
            self._check_blind_card(spec.blind)
            return self._turned_up(spec, "blind")
        if mode == "blind":
            raise self._bad_trump("blind trump needs the turned-up card, as {\"blind\": \"QC\"}")
        if spec.suit is None:
            raise self._bad_trump("the caller's trump suit is missing: {\"suit\": \"S\"} (or \"H\", \"D\", \"C\")")
        self._check_caller(spec.by)
        return Trump("called", spec.suit, by=spec.by)

    def _turned_up(self, spec: TrumpSpec, mode: str) -> Trump:
        if spec.suit is not None and spec.suit != spec.blind.suit:
            raise self._bad_trump(f"suit {spec.suit} does not match the turned-up card {spec.blind.face}")
        return Trump(mode, spec.blind.suit, card=spec.blind)

    def _hidden_trump(self, spec: TrumpSpec, mode: str) -> Trump:
        card = spec.hidden
        if card is None:
            raise self._bad_trump(f"trump mode \"{mode}\" needs the face-down card, as {{\"hidden\": \"QC\"}}")
        if self.hands is not None and card not in self.dealt[self.caller][:5]:
            raise self._bad_trump(f"the hidden card {card.face} is not among the caller's (seat {self.caller}) first five cards")
        if spec.suit is not None and spec.suit != card.suit:
            raise self._bad_trump(f"suit {spec.suit} does not match the hidden card {card.face}")
        return Trump(mode, card.suit, card=card, band_reveal=self.options.band_reveal)

    def _check_blind_card(self, card: Card) -> None:
        if self.hands is None:
            return
        seats = range(4) if self.options.pass_once else [self.caller]
        if not any(card in self.dealt[s][5:] for s in seats):
            where = "any player's" if self.options.pass_once else f"the caller's (seat {self.caller})"
            raise self._bad_trump(f"the blind card {card.face} is not among {where} cards 6-13")

    def _check_caller(self, by: int | None) -> None:
        if by is None or by == self.caller:
            return
        if self.bid is not None:
            v = Violation("wrong_caller", by, f"trump was called by seat {by}, but the bidder, seat {self.caller}, names trump")
            v.extra_rules = ("record.bid",)
            self.violations.append(v)
            return
        if by == partner(self.caller) and self.options.pass_once:
            return
        why = "a defender" if team_of(by) != self.callers else "the caller's partner, but pass_once is off"
        self.violations.append(Violation(
            "wrong_caller", by, f"trump was called by seat {by}, {why}; the caller is seat {self.caller}"))

    def _check_redeal(self) -> None:
        if not self.options.weak_hand_redeal:
            why = "weak_hand_redeal is off"
        elif self.hands is not None and any(c.strength >= 9 for c in self.dealt[self.caller][:5]):
            high = [c.face for c in self.dealt[self.caller][:5] if c.strength >= 9]
            why = f"the caller's first five hold {', '.join(high)} (a Jack or higher)"
        else:
            return
        self.violations.append(Violation("bad_redeal", self.caller, f"seat {self.caller} claimed a redeal but {why}"))

    # -- the table now ------------------------------------------------------------

    def _reset_trick_state(self) -> None:
        """State only the full rules (push) set; cleared for each new trick."""
        self._touched = False
        self.first_back: int | None = None
        self.asker: int | None = None
        self.must_trump: int | None = None
        self.lead_must_trump = False
        self.trick_reveal: dict | None = None
        self.trick_trump_set: dict | None = None
        self._ask_claim: Claim | None = None

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
        if k == 4 or self.is_over or self.claimed is not None and not self._settling:
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

    def _holds(self, seat: int, suit: str, excluded: Card | None = None) -> Card | None:
        """With hands: the highest card of `suit` the seat holds (bar `excluded`)."""
        best = None
        for c in self.hands[seat]:
            if c.suit == suit and c is not excluded and (best is None or c.strength > best.strength):
                best = c
        return best

    def legal_plays(self) -> list[Card] | None:
        """The cards the seat to play may play now (None without hands)."""
        seat = self.to_play
        if seat is None or self.hands is None:
            return None
        hand = self._playable(seat)
        trump = self.trump
        if self.position == 0:
            trumps = [c for c in hand if c.suit == trump.suit] if self.lead_must_trump else []
            return sorted(trumps or hand)
        follow = [c for c in hand if c.suit == self.led]
        if follow:
            return sorted(follow)
        if trump.is_hidden and trump.reveals_on_void and seat == self.caller:
            hand = list(self.hands[seat])  # turned up just before the play, back in hand
            follow = [c for c in hand if c.suit == self.led]
            if follow:
                return follow
        obliged = seat in (self.asker, self.must_trump) or (trump.is_hidden and trump.must_trump_on_void) or self._opponent_reveals(seat)
        suit = trump.suit or trump._secret
        trumps = [c for c in hand if c.suit == suit] if obliged else []
        return sorted(trumps or hand)

    # -- applying events ----------------------------------------------------------

    def push(self, event: Event) -> None:
        i = self.n_events
        self._touched = True
        if self._raw_plays:
            self._name_plays()
        kind = event.kind
        if self.filled == 4 and kind != TAKE_BACK:
            self._close_trick(i - 1)
        self.n_events = i + 1
        if self.ended or self.court_made or self.redeal:
            self._after_end(event, i)
        if self.claimed is not None and not self._settling:
            self._after_claim(event, i)
        elif kind == PLAY:
            self._play(event, i)
        elif kind == REVEAL:
            self._reveal(event, i)
        elif kind in CLAIM_KINDS:
            self._claim_event(event, i)
        else:
            self._take_back(event, i)

    def push_all(self, events) -> None:
        """`push` each event in order. A plain play that needs no judgement is placed
        directly: in turn, held, following suit (or, with hands and trump known, showing
        out while holding none of the suit led), nothing pending. Anything else goes
        through `push` and the full rules. Table state is re-read after every trick and
        every slow step, the only places it changes."""
        hands, held, pending = self.hands, self._held, self._pending
        set_aside, slow, close, play, take_back = self._set_aside, self.push, self._close_trick, PLAY, TAKE_BACK
        events = iter(events)
        while True:  # once, then again after each slow step
            k, slots, leader, n = self.filled, self.slots, self.leader, self.n_events
            quiet = self._quiet()
            led = self.led  # None with no lead on the table (none yet, or taken back)
            trump_suit = self.trump.suit
            for ev in events:
                seat, kind, card, face_down = ev
                if k == 4 and kind is not take_back:
                    self.n_events = n
                    close(n - 1)
                    k, slots, leader, led = 0, self.slots, self.leader, None
                    quiet = not (self.ended or self.court_made or self.claimed)
                    trump_suit = self.trump.suit
                hand = held[seat & 3]  # a seat out of range fails the turn test below, not here
                if (quiet and kind is play and not face_down and seat == (leader + k) & 3
                        and card in hand and card is not set_aside and not pending[seat]
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

    def _after_end(self, event: Event, i: int) -> None:
        """An event after the deal was over: an error, or the start of a play-on (R-4)."""
        if self.redeal:
            raise RecordError("play_after_end", "a redeal claim has no play: the cards are dealt again", i)
        if self.ended or not self.options.play_on:
            raise RecordError("play_after_end", f"{event.describe()} after the deal ended at trick {len(self.tricks)}", i)
        self.begin_play_on()

    def begin_play_on(self) -> None:
        """The court team plays on after a first-7 court (R-4)."""
        self.court_made, self.play_on = False, True

    def _check_turn(self, seat: int, i: int, what) -> int:
        k = self.filled if self.first_back is None else self.position
        if seat != (self.leader + k) & 3:
            expected = (self.leader + k) & 3
            raise RecordError("out_of_turn", f"seat {seat} {what()} in trick {self.number}, but it is seat {expected}'s turn", i)
        return k

    def _play(self, ev: Event, i: int) -> None:
        seat, card, face_down = ev.seat, ev.card, ev.face_down
        trump = self.trump
        face_up = face_down and self.plays_face_up(card)
        if face_up:
            face_down = False  # the hidden card is never played face down
        k = self.filled if self.first_back is None else self.position
        if seat != (self.leader + k) & 3:
            self._check_turn(seat, i, lambda: f"plays {card.face}")
        hand = self._held[seat]
        # A played card has left the hand, so one test covers both errors.
        if card not in hand or card is self._set_aside:
            self._check_card(seat, card, i)
        if face_down:
            self._check_face_down(seat, k, i)
        if self._pending[seat]:
            self._prove_pending(seat, card, i)
        if trump.is_hidden:
            self._before_play_hidden(seat, card, face_down, k, i)
            if face_up:
                self._cite_face_up(i)
        if k == 0:
            if self.lead_must_trump and card.suit != trump.suit:
                self._claim("must_lead_trump_after_reveal", seat, trump.suit, i, card, None, i)
        elif face_down or card.suit != self.slots[0].card.suit:
            self._follow(seat, card, face_down, i)
        self.slots[k] = Played(seat, card, i, face_down, not face_down and card.suit == trump.suit)
        self.filled += 1
        hand.discard(card)

    def _check_card(self, seat: int, card: Card, i: int) -> None:
        if self._was_played(card):
            raise RecordError("card_played_twice", f"seat {seat} plays {card.face}, which was already played in this deal", i)
        if self.trump.card is card and self.trump.is_concealed_mode and seat != self.caller:
            raise RecordError("card_not_in_hand", f"seat {seat} plays {card.face}, but it is the caller's "
                              f"(seat {self.caller}) face-down trump card", i)
        if self.hands is not None and card not in self.hands[seat]:
            owner = next((s for s in range(4) if card in self.hands[s]), None)
            where = f"it was dealt to seat {owner}" if owner is not None else "it is not in their hand"
            raise RecordError("card_not_in_hand", f"seat {seat} plays {card.face}, but {where}", i)

    def _follow(self, seat: int, card: Card, face_down: bool, i: int) -> None:
        led, trump = self.led, self.trump
        if face_down and card.suit == led:
            v = Violation("revoke", seat, f"seat {seat} played {card.face} face down on a "
                          f"{SUIT_NAMES[led]} lead: a card of the suit led must be played face up",
                          self.number, i, card, led, "hand", None, i)
            v.extra_rules = ("trump.hidden.face-down", "R-13")
            self._add(v)
            return
        if card.suit == led:
            return
        if trump.mode == "first_void" and trump.suit is None:
            self._set_first_void(card, seat, i)
        revoke = self._claim("revoke", seat, led, i, card, led, i)
        # one failure, one breach. The obligation to trump binds only a player who
        # could not follow (with hands: known now; without: until a revoke is proven).
        if (seat in (self.asker, self.must_trump) and trump.suit != led and card.suit != trump.suit
                and not face_down and (self.hands is None or revoke is None)):
            asked = self._ask_claim if seat == self.asker else None
            self._claim("must_trump_after_ask", seat, trump.suit, i, card, led, i, asked)

    def _set_first_void(self, card: Card, seat: int, i: int) -> None:
        self.trump.set_first_void(card.suit, self.number, i, seat)
        self.trick_trump_set = dict(self.trump.set_by)
        self.slots[:] = [None if p is None else p._replace(trump=not p.face_down and p.card.suit == card.suit)
                      for p in self.slots]

    def _take_back(self, ev: Event, i: int) -> None:
        seat = ev.seat
        k = next((k for k, p in enumerate(self.slots) if p is not None and p.seat == seat), None)
        if k is None:
            raise RecordError("bad_take_back", f"seat {seat} takes back a card, but has none in the unfinished trick {self.number}", i)
        played = self.slots[k]
        possible_revoke = self._may_be_illegal(played)
        if self.first_back is None and not possible_revoke:
            raise RecordError("bad_take_back", f"seat {seat} takes back {played.card.face}, which was a legal play: "
                              "a take-back must first correct a possible revoke", i)
        if self.first_back is not None and k <= self.first_back and not possible_revoke:
            raise RecordError("bad_take_back", f"seat {seat} takes back {played.card.face}, but only players who "
                              "played after the revoke may take back their cards", i)
        if self.first_back is None:
            self.first_back = k
        self.slots[k] = None
        self.filled -= 1
        self._held[seat].add(played.card)
        self._mark_corrected(played.event)
        if self.trump.mode == "first_void" and self.trick_trump_set and self.trick_trump_set["event"] == played.event:
            self._reset_first_void()

    def _was_played(self, card: Card) -> bool:
        return not any(card in hand for hand in self._held)

    def _may_be_illegal(self, played: Played) -> bool:
        if any(v.play_event == played.event and v.is_illegal_play for v in self.violations):
            return True
        return any(c.play_event == played.event for c in self._pending[played.seat])

    def _mark_corrected(self, play_event: int) -> None:
        for v in self.violations:
            if v.play_event == play_event:
                v.corrected = True
        for claims in self._pending:
            for c in claims:
                if c.play_event == play_event:
                    c.corrected = True

    def _reset_first_void(self) -> None:
        """R-15: trump is set by the earliest off-suit card still on the table."""
        self.trump.unset_first_void()
        self.trick_trump_set = None
        led = self.led
        self.slots[:] = [None if p is None else p._replace(trump=False) for p in self.slots]
        for p in self.slots:
            if p is not None and led is not None and p.card.suit != led:
                self._set_first_void(p.card, p.seat, p.event)
                break

    # -- claims and proofs (R-2) ----------------------------------------------------

    def _claim(self, code, seat, suit, i, card, led, play_event, asked=None, excluded=None):
        if excluded is None:
            excluded = self._excluded(seat)
        band = code == "must_trump_after_ask" and asked is None or code == "hidden_card_played"
        if self.hands is not None:
            held = self._holds(seat, suit, excluded)
            if held is None and code != "ask_while_able_to_follow":
                return None  # the claim is true: nothing to record (only an ask is linked to later)
            claim = Claim(code, seat, suit, self.number, i, card, led, play_event, excluded, asked, band)
            if held is not None and not (asked is not None and self._was_violated(asked)):
                self._add(claim.violation("hand", held, None))
            return claim
        claim = Claim(code, seat, suit, self.number, i, card, led, play_event, excluded, asked, band)
        known = self.trump.card
        if (seat == self.caller and known is not None and self.trump.is_concealed_mode and not self.trump.is_hidden
                and known in self._unplayed and known.suit == suit and known is not excluded):
            self._add(claim.violation("hand", known, None))  # the shown card went back to the caller's hand
            return claim
        self._pending[seat].append(claim)
        return claim

    def _was_violated(self, claim: Claim) -> bool:
        return any(v.linked is claim for v in self.violations)

    def _prove_pending(self, seat: int, card: Card, i: int) -> None:
        claims = self._pending[seat]
        if not claims:
            return
        keep = []
        for c in claims:
            if c.suit == card.suit and card is not c.excluded:
                self._prove(c, card, i)
            else:
                keep.append(c)
        self._pending[seat] = keep

    def _prove(self, claim: Claim, card: Card, i: int) -> None:
        """A later play proves a claim false (R-2). One failure is one breach (R-13, R-23):
        an obligation to trump falls when the same play is proven a revoke, or the ask it
        came from is proven illegal."""
        if claim.code == "must_trump_after_ask" and any(
                v.play_event == claim.play_event and v.code == "revoke" or claim.asked is not None and v.linked is claim.asked
                for v in self.violations):
            return
        self._add(claim.violation("later_play", card, i))
        if claim.code in ("revoke", "ask_while_able_to_follow"):
            self.violations[:] = [v for v in self.violations if not (
                v.code == "must_trump_after_ask" and v.linked is not None
                and (v.play_event == claim.play_event or v.linked.asked is claim))]

    def _add(self, violation: Violation) -> None:
        self.violations.append(violation)
        if self.options.illegal_play == "reject" and violation.is_illegal_play:
            raise RecordError("illegal_play", f"illegal play: {violation.message}", violation.event)

    # -- closing tricks and the deal ----------------------------------------------

    def _close_trick(self, last_event: int) -> None:
        plays = tuple(self.slots)
        trump_suit = self.trump.suit
        win = winning_play(plays, trump_suit)
        seat, card = win[SEAT], win[CARD]
        number = len(self.tricks) + 1
        collection = self.collection
        taken = collection.pile + 1
        team = collection.on_trick(number, seat, card, trump_suit,
                                   self._established(win) if self._piles else True)
        if self._count_tens:
            self._count_tens_in(plays, team)
        if team is None:
            taken = 0
        else:
            self.tricks_won[team] += taken
        self.tricks.append(tuple.__new__(Trick, (number, self.leader, plays, seat, card, team,
                                                 collection.pile, taken, self.trick_reveal, self.trick_trump_set,
                                                 collection.rule)))
        self._trick_ends.append(last_event)
        self._check_end(number, seat, card)
        # the next trick, led by this one's winner
        self.leader = seat
        self.slots = [None, None, None, None]
        self.filled = 0
        if self._touched:
            self._reset_trick_state()

    def _count_tens_in(self, plays: tuple[Play, ...], team: int | None) -> None:
        """Tens travel with the tricks: a piled trick's tens go to whoever collects it."""
        self._pile_tens += sum(p[CARD].is_ten for p in plays)
        if team is not None:
            self.tens_won[team] += self._pile_tens
            self._pile_tens = 0

    def _established(self, win: Play) -> bool:
        """Delayed-trump pile games: may this trick start a collecting pair (§6)?"""
        trump = self.trump
        if trump.mode == "first_void":
            return trump.suit is not None
        if trump.is_concealed_mode:
            return trump.revealed is not None and win[EVENT] >= trump.revealed["event"]
        return True

    def _check_end(self, number: int, winner: int, card: Card | None = None) -> None:
        """Has the deal ended with this trick? (`card`, the winning card, for end.deciding-pair)"""
        won = self.tricks_won
        end = self._end
        if end == "pair":  # Band Rang: the first deciding pair, or trick 13's fallback
            revealed = self.trump.revealed["trick"] if self.trump.revealed else None
            decided = self._pairs.kind is None and self._pairs.on_trick(number, winner, card.is_ace, revealed)
            self.ended = number == 13 or decided and not self.play_all  # the solver's play_all plays on
            if self._pairs.rule and (decided or self._pairs.kind is None):
                self.tricks[-1] = self.tricks[-1]._replace(rule=self._pairs.rule)
        elif number == 13:
            self.ended = True
        elif self.play_all:
            return
        elif end == "seven":
            if self.play_on:
                self.ended = team_of(winner) != self.first_seven
            elif max(won) >= 7:
                self.first_seven = 0 if won == [7, 0] else 1 if won == [0, 7] else None
                self.court_made = self.first_seven is not None and self.options.play_on
                self.ended = not self.court_made
        elif end == "pile":
            self.ended = min(won) >= 1 and max(won) >= 7
        elif end == "bid":  # made, or out of reach (end.bid)
            n = self.bid.tricks
            self.ended = won[self.callers] >= n or won[1 - self.callers] >= 14 - n
        elif self._piles:
            # thirteen-trick pile games: a team collecting 7 before the other collects any
            if self.first_seven is None and max(won) >= 7 and min(won) == 0:
                self.first_seven = 0 if won[0] >= 7 else 1
        elif number == 7 and max(won) == 7:
            self.first_seven = 0 if won[0] == 7 else 1

    def finish(self) -> None:
        """Close a trick of four cards now: the record ends here, or (in simulations)
        the next event will not be a take-back (R-12)."""
        if self.filled == 4:
            self._close_trick(self.n_events - 1)

    # -- how it ended ----------------------------------------------------------------

    @property
    def tricks_over(self) -> int:
        """How many tricks are over: those completed, and at the bell the open one (R-36)."""
        return len(self.tricks) + (1 if self.bell and self.filled else 0)

    def penalty(self) -> Violation | None:
        """The first uncorrected illegal play in a trick that is over decides the deal (R-1, R-36)."""
        done = self.tricks_over
        found = [v for v in self.violations
                 if v.is_illegal_play and not v.corrected and v.trick is not None and v.trick <= done]
        return min(found, key=lambda v: (v.trick, v.event)) if found else None

    @property
    def is_complete(self) -> bool:
        return self.ended or self.court_made

    def status(self, penalty: Violation | None) -> str:
        if self.redeal:
            return "redeal"
        if penalty is not None:
            return "ended_by_penalty"
        return "complete" if self.is_complete else "in_progress"

    def facts(self, penalty: Violation | None) -> Facts:
        won = self.won_until(penalty)
        sweep = 0 if won == (13, 0) else 1 if won == (0, 13) else None
        return Facts(callers=self.callers, tricks=won, first_seven=self.first_seven, sweep=sweep,
                     penalty=None if penalty is None else 1 - team_of(penalty.seat),
                     tens=tuple(self.tens_won), bid=None if self.bid is None else self.bid.tricks,
                     decided=None if self._pairs is None or self._pairs.kind is None
                     else (self._pairs.winner, self._pairs.kind, self._pairs.pair))

    def won_until(self, penalty: Violation | None) -> tuple[int, int]:
        if penalty is None:
            return tuple(self.tricks_won)
        return self._count_collected(self.tricks[:penalty.trick])

    def _count_collected(self, tricks: list[Trick]) -> tuple[int, int]:
        won = [0, 0]
        for t in tricks:
            if t.collected_by is not None:
                won[t.collected_by] += t.collected
        return tuple(won)

    def ignored_events(self, penalty: Violation | None) -> list[int]:
        if penalty is None or penalty.trick > len(self._trick_ends):
            return []  # (at the bell, R-36: the penalty trick is the open one, the last events')
        return list(range(self._trick_ends[penalty.trick - 1] + 1, self.n_events))

    def unproven(self) -> list[dict]:
        """Show-outs never contradicted, of seats that still hold cards: once a seat has
        played all 13, its hand is known and each show-out was legal (R-27)."""
        done = self.seats_done()
        down = {p[EVENT] for t in self.tricks for p in t.plays if p[FACE_DOWN]}
        down |= {p[EVENT] for p in self.slots if p is not None and p[FACE_DOWN]}
        out = []
        for seat, claims in enumerate(self._pending):
            if not done[seat]:
                out += [c.unproven(c.play_event in down) for c in claims
                        if c.code in ("revoke", "hidden_card_played") and not c.corrected]
        return out

    def seats_done(self) -> list[bool]:
        """Per seat: has it played all 13 of its cards?"""
        count = [0, 0, 0, 0]
        for t in self.tricks:
            for p in t.plays:
                count[p[SEAT]] += 1
        for p in self.slots:
            if p is not None:
                count[p[SEAT]] += 1
        return [n == 13 for n in count]
