"""The trump known from the deal (docs/rules.md: trump.called, trump.pass, trump.blind,
trump.random, record.trump): the modes `called`, `blind` and `random`. The caller names it
from their first five cards (a partner may, with `pass_once`); or a card turned up shows it,
one of the caller's cards 6-13 (blind, which a called game's record may also give) or a card
turned up at random (random). It is a trump from the first card."""
from __future__ import annotations

from .cards import Card, partner, team_of
from .playrecord import TrumpSpec
from .trump import Trump, TrumpMode, bad_trump
from .violations import Violation


class Called(TrumpMode):
    """trump.called (trump.pass, record.bid): the caller names the suit."""

    __slots__ = ()

    def dealt(self, deal, spec: TrumpSpec) -> Trump:
        self._no_hidden_card(spec)
        if spec.blind is not None:  # a called game's record may turn up a blind trump instead
            return BLIND.dealt(deal, spec)
        if spec.suit is None:
            raise bad_trump("the caller's trump suit is missing: {\"suit\": \"S\"} (or \"H\", \"D\", \"C\")")
        _check_caller(deal, spec.by)
        return Trump(self, spec.suit, by=spec.by)

    def random_spec(self, rng, hands, caller: int, bid) -> TrumpSpec:
        return TrumpSpec(suit=rng.choice(hands[caller][:5]).suit, by=None if bid is None else bid.seat)

    def _no_hidden_card(self, spec: TrumpSpec) -> None:
        if spec.hidden is not None:
            raise bad_trump(f"a hidden trump card is not part of trump mode \"{self.name}\"")


class Blind(Called):
    """trump.blind: the caller's card turned up from their cards 6-13 (any seat's, with pass_once)."""

    __slots__ = ()
    card_rule = "trump.blind"
    missing = "blind trump needs the turned-up card, as {\"blind\": \"QC\"}"

    def dealt(self, deal, spec: TrumpSpec) -> Trump:
        self._no_hidden_card(spec)
        if spec.blind is None:
            raise bad_trump(self.missing)
        self._check_card(deal, spec.blind)
        if spec.suit is not None and spec.suit != spec.blind.suit:
            raise bad_trump(f"suit {spec.suit} does not match the turned-up card {spec.blind.face}")
        return Trump(self, spec.blind.suit, card=spec.blind)

    def random_spec(self, rng, hands, caller: int, bid) -> TrumpSpec:
        return TrumpSpec(blind=rng.choice(hands[caller][5:]))

    def _check_card(self, deal, card: Card) -> None:
        _check_blind_card(deal, card)


class Random(Blind):
    """trump.random: a card turned up at random before the deal (anyone's)."""

    __slots__ = ()
    card_rule = "trump.random"
    missing = "random trump needs the card shown before the deal, as {\"blind\": \"QC\"}"

    def _check_card(self, deal, card: Card) -> None:
        pass


CALLED, BLIND, RANDOM = Called("called"), Blind("blind"), Random("random")


def _check_blind_card(deal, card: Card) -> None:
    if deal.hands is None:
        return
    seats = range(4) if deal.options.pass_once else [deal.caller]
    if not any(card in deal.dealt[s][5:] for s in seats):
        where = "any player's" if deal.options.pass_once else f"the caller's (seat {deal.caller})"
        raise bad_trump(f"the blind card {card.face} is not among {where} cards 6-13")


def _check_caller(deal, by: int | None) -> None:
    if by is None or by == deal.caller:
        return
    if deal.bid is not None:
        v = Violation("wrong_caller", by, f"trump was called by seat {by}, but the bidder, seat {deal.caller}, names trump")
        v.extra_rules = ("record.bid",)
        deal.violations.append(v)
        return
    if by == partner(deal.caller) and deal.options.pass_once:
        return
    why = "a defender" if team_of(by) != deal.callers else "the caller's partner, but pass_once is off"
    deal.violations.append(Violation(
        "wrong_caller", by, f"trump was called by seat {by}, {why}; the caller is seat {deal.caller}"))
