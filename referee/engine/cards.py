"""Cards, suits, seats and teams: the small value types of the game."""
from __future__ import annotations

from types import MappingProxyType

from .errors import InvalidCardError, shown

RANKS = "23456789TJQKA"  # index = strength, low to high
SUITS = "SHDC"
HAND_SUITS = "SHCD"  # a hand as people hold it: black and red suits alternate, each high to low
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SUIT_SYMBOLS = {s: sym for sym, s in _SYMBOLS.items()}


class Card:
    """One of the 52 cards. Instances are shared: compare with `is` or `==`."""

    __slots__ = ("rank", "suit", "strength", "index", "code", "is_ten", "is_ace", "text", "face")

    rank: str
    suit: str
    strength: int
    index: int
    code: int  # the rule kernel's card: rank | suit << 4 (kernel.table_card)
    is_ten: bool
    is_ace: bool
    text: str
    face: str  # as a person reads it, in messages: 10♥ (the text, TH, is for JSON fields)

    def __new__(cls, rank: str, suit: str) -> "Card":
        try:
            return _DECK_BY_TEXT[rank + suit]
        except KeyError:
            raise InvalidCardError(f"no such card: {shown(rank + suit)}") from None

    @classmethod
    def _make(cls, rank: str, suit: str) -> "Card":
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "strength", RANKS.index(rank))
        object.__setattr__(card, "index", SUITS.index(suit) * 13 + RANKS.index(rank))
        object.__setattr__(card, "code", SUITS.index(suit) << 4 | RANKS.index(rank))
        object.__setattr__(card, "is_ten", rank == "T")
        object.__setattr__(card, "is_ace", rank == "A")
        object.__setattr__(card, "text", rank + suit)  # the canonical text, ready for output
        object.__setattr__(card, "face", ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit])
        return card

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read `TH`, `10h`, `10♥`; raise InvalidCardError otherwise."""
        card = _PARSE.get(text) if isinstance(text, str) else None
        if card is None:
            raise InvalidCardError(
                f"not a card: {shown(text)} (expected rank then suit, e.g. \"TH\", \"10H\", \"A♠\")"
            )
        return card

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self):
        return (Card.parse, (str(self),))

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index


def face(text: str) -> str:
    """A card's text (TH) as a person reads it (10♥)."""
    return Card.parse(text).face


def in_hand_order(cards) -> tuple[Card, ...]:
    """Cards as a person sorts a hand: by suit (♠ ♥ ♣ ♦), then rank from the ace down."""
    return tuple(sorted(cards, key=lambda c: (HAND_SUITS.index(c.suit), -c.strength)))


DECK: tuple[Card, ...] = tuple(Card._make(r, s) for s in SUITS for r in RANKS)
_DECK_BY_TEXT = {str(c): c for c in DECK}
# The 13 cards of each suit: `hand.isdisjoint(SUIT_CARDS[s])` asks "void in s?" in C.
SUIT_CARDS = {s: frozenset(c for c in DECK if c.suit == s) for s in SUITS}


def _spellings(card: Card):
    ranks = [card.rank] + (["10"] if card.rank == "T" else [])
    suits = [card.suit] + [sym for sym, s in _SYMBOLS.items() if s == card.suit]
    for r in ranks:
        for s in suits:
            for text in {r + s, (r + s).lower(), r.lower() + s, r + s.lower()}:
                yield text


_PARSE = {text: card for card in DECK for text in _spellings(card)}
SPELLINGS = MappingProxyType(_PARSE)  # every accepted spelling of a card -> the card


def parse_suit(text: str) -> str:
    suit = _SYMBOLS.get(text, text.upper()) if isinstance(text, str) else ""
    if len(suit) != 1 or suit not in SUITS:
        raise InvalidCardError(f"not a suit: {shown(text)} (expected one of S H D C)")
    return suit


def team_of(seat: int) -> int:
    return seat & 1


def partner(seat: int) -> int:
    return (seat + 2) % 4


def caller_of(dealer: int) -> int:
    return (dealer + 1) % 4
