"""Trump by the first void (docs/rules.md: trump.first-void, R-15; pile.delayed): the mode
`first_void` of Be-Ranga, Mendikot and Dehla Pakad. No trump is called; the first card played
by a seat that cannot follow sets it, a trump already in that trick, and a take-back of that
card hands the setting to the earliest off-suit card still on the table (R-15; plays.py sets
and resets it). Under a pile, a pair may start with the trick that set it (pile.delayed)."""
from __future__ import annotations

from .playrecord import TrumpSpec
from .trump import Trump, TrumpMode, bad_trump


class FirstVoid(TrumpMode):
    __slots__ = ()
    known_at_deal = False
    set_by_void = True

    def dealt(self, deal, spec: TrumpSpec) -> Trump:
        if not spec.is_empty:
            raise bad_trump("no trump is called in a first-void game: trump must be null")
        return Trump(self)

    def established(self, trump: Trump, event: int) -> bool:
        return trump.suit is not None

    def shown(self, trump: Trump, data: dict, finished: bool) -> None:
        data["set"] = trump.set_by

    def random_spec(self, rng, hands, caller: int, bid) -> TrumpSpec:
        return TrumpSpec()


FIRST_VOID = FirstVoid("first_void")
