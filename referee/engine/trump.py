"""Trump modes (docs/rules.md: trump.*): the deal's trump (`Trump`), and what the rules ask
of a trump mode (`TrumpMode`). Each value of the option `trump` is a mode object in its own
module, which names its rules: trump_called.py (called, blind, random), trump_first_void.py,
trump_hidden.py, trump_band.py; trump_modes.py maps the option's values to them."""
from __future__ import annotations

from .cards import Card
from .errors import RecordError


# How the face-down card came to be shown, and the rule that showed it.
REVEAL_RULES = {
    "on_lead": ["trump.hidden.lead"],
    "asked": ["trump.hidden.ask"],
    "void": ["trump.band", "R-14", "R-23"],
    "followed": ["trump.band", "R-23"],
    "played": ["trump.hidden.card", "R-13"],
    "last_card": ["trump.hidden.card", "R-6"],
    "opponent_void": ["trump.hidden.opponent"],
    "claim": ["R-33"],
}


def bad_trump(message: str) -> RecordError:
    """A record's trump that its mode cannot take (record.trump)."""
    return RecordError("bad_trump", message)


class TrumpMode:
    """A trump mode as the rules ask it: small and immutable, one per mode (and the options it
    reads), made once (`options.trump_mode()`). Its answers, defaults here for a trump known
    from the deal:

      known_at_deal       the suit is known from the deal (called, blind, random)
      set_by_void         the first show-out sets it (first_void)
      concealed           a face-down card holds it until shown (hidden, band)
      hidden_form         the hidden trump itself (not band): face-down discards, Band Rang's form
      band_form           a band trump: concealed, not the hidden trump's form
      face_down_discards  the caller may discard face down (hidden, with hidden_caller_face_down)
      band_reveal         how a band trump is shown ("ask" otherwise); reveals_on_void: at the
                          first show-out (whether that seat must trump is the kernel's must_trump)
      caller_reveals      the caller may show the face-down card (false: band_caller_reveals)
      played_rules        the rules a hidden_card_played breach also names
      card_rule           the rule of a turned-up card (blind, random)

    and its methods: `dealt` (the deal's `Trump` from the record's), `established` (may a
    trick start a collecting pair, pile.delayed), `shown` (the verdict's trump) and
    `random_spec` (a record's trump for random play)."""

    __slots__ = ("name",)
    known_at_deal = True
    set_by_void = False
    concealed = False
    hidden_form = False
    face_down_discards = False
    band_reveal = "ask"
    reveals_on_void = False
    caller_reveals = True
    played_rules: tuple[str, ...] = ()
    card_rule: str | None = None

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<trump mode {self.name}>"

    @property
    def band_form(self) -> bool:
        return self.concealed and not self.hidden_form

    def established(self, trump: "Trump", event: int) -> bool:
        """pile.delayed: were trumps established when the card played at `event` won?"""
        return True

    def shown(self, trump: "Trump", data: dict, finished: bool) -> None:
        """What the verdict's trump shows beyond its mode and suit: a turned-up card, or a redeal."""
        if trump.card is not None:
            data["card"] = str(trump.card)
            data["rule"] = [self.card_rule]
        elif trump.suit is None:
            data["redeal"] = True


class Trump:
    """The trump of one deal.

    `suit` is the trump suit once the table knows it (None while hidden or unset);
    `card` the hidden or turned-up card, if any; `secret_suit` the suit as set when dealt
    (the face-down card's, known to its caller, before the table knows it). Modes differ only in when `suit`
    becomes known: at once (called, blind, random), at a reveal (hidden, band), or
    at the first card played by a player who cannot follow (first_void). `trump_mode` is the
    mode (a `TrumpMode`), `mode` its name.
    """

    __slots__ = ("mode", "trump_mode", "suit", "card", "by", "revealed", "set_by", "secret_suit", "is_hidden")

    def __init__(self, trump_mode: TrumpMode, suit: str | None = None, card: Card | None = None,
                 by: int | None = None):
        self.trump_mode = trump_mode
        self.mode = trump_mode.name
        self.card = card
        self.by = by
        self.revealed: dict | None = None  # {"trick", "event", "seat", "implied"?}
        self.set_by: dict | None = None     # first_void: who set it
        self.secret_suit = suit
        self.is_hidden = trump_mode.concealed  # the face-down card is still face down
        self.suit = suit if trump_mode.known_at_deal else None

    def reveal(self, trick: int, event: int, seat: int, how: str) -> None:
        self.revealed = {"trick": trick, "event": event, "seat": seat, "how": how, "rule": REVEAL_RULES[how]}
        self.suit = self.secret_suit
        self.is_hidden = False

    def set_first_void(self, suit: str, trick: int, event: int, seat: int) -> None:
        self.suit = suit
        self.set_by = {"trick": trick, "event": event, "seat": seat, "rule": ["trump.first-void", "R-15"]}

    def unset_first_void(self) -> None:
        self.suit = None
        self.set_by = None

    def as_dict(self, finished: bool = True) -> dict:
        """The trump as the verdict shows it; a card never shown is turned up
        when the deal is over (trump.hidden.end), not before."""
        data: dict = {"mode": self.mode, "suit": self.suit}
        self.trump_mode.shown(self, data, finished)
        if self.by is not None:
            data["by"] = self.by
            data["rule"] = ["trump.called", "trump.pass"]
        return data
