"""The hidden trump (docs/rules.md: trump.hidden, trump.hidden.ask, trump.hidden.lead,
trump.hidden.card, trump.hidden.face-down, trump.hidden.end, trump.hidden.opponent, R-6, R-13,
R-35; pile.delayed): the mode `hidden` of Hidden Rung (and Band Rang's hidden form). The
caller lays one of their first five cards face down; its suit is trump only once it is shown.
This is what the rules ask of the mode; the card's life at the table (its reveals and
breaches) is hidden.py's, the kernel's `may_reveal`/`reveal_at_play` decide them. The band
trump (trump_band.py) is this mode with another way of being shown."""
from __future__ import annotations

from functools import lru_cache

from .playrecord import TrumpSpec
from .trump import Trump, TrumpMode, bad_trump


class Hidden(TrumpMode):
    """A face-down card holds the trump until it is shown."""

    __slots__ = ("face_down_discards",)
    known_at_deal = False
    concealed = True
    hidden_form = True

    def __init__(self, name: str, face_down_discards: bool = False):
        super().__init__(name)
        self.face_down_discards = face_down_discards  # trump.hidden.face-down

    def dealt(self, deal, spec: TrumpSpec) -> Trump:
        """The face-down card, one of the caller's first five."""
        card = spec.hidden
        if card is None:
            raise bad_trump(f"trump mode \"{self.name}\" needs the face-down card, as {{\"hidden\": \"QC\"}}")
        if deal.hands is not None and card not in deal.dealt[deal.caller][:5]:
            raise bad_trump(f"the hidden card {card.face} is not among the caller's (seat {deal.caller}) first five cards")
        if spec.suit is not None and spec.suit != card.suit:
            raise bad_trump(f"suit {spec.suit} does not match the hidden card {card.face}")
        return Trump(self, card.suit, card=card)

    def established(self, trump: Trump, event: int) -> bool:
        """pile.delayed: the winning card was played after the reveal."""
        return trump.revealed is not None and event >= trump.revealed["event"]

    def shown(self, trump: Trump, data: dict, finished: bool) -> None:
        """trump.hidden.end: a card never shown is turned up once the deal is over, not before."""
        if trump.card is None:
            data["redeal"] = True
            return
        data["card"] = str(trump.card)
        data["revealed"] = trump.revealed
        if trump.revealed is None:
            data["turned_up_at_end"] = finished
            if finished:
                data["suit"] = trump.secret_suit
                data["rule"] = ["trump.hidden.end"]

    def random_spec(self, rng, hands, caller: int, bid) -> TrumpSpec:
        return TrumpSpec(hidden=rng.choice(hands[caller][:5]))


@lru_cache(maxsize=None)
def hidden(face_down_discards: bool) -> Hidden:
    return Hidden("hidden", face_down_discards)
