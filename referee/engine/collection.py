"""Where won tricks go (docs/rules.md: collection.immediate, pile.*): taken at once, or piled until a pair collects."""
from __future__ import annotations

from .cards import team_of
from .options import Options


class Immediate:
    """The winner's team takes the trick."""

    pile = 0
    rule = None

    def on_trick(self, number: int, winner: int, winning_card, trump_suit, established: bool) -> int:
        return winner & 1  # team_of, inlined: called for every trick

    def collector(self, next_number: int) -> int | None:
        return None


class Pile:
    """Double Sir: tricks pile up; the same player winning two in a row collects.

    A pair is (previous trick, this trick) won by one player, where the previous
    trick was not itself a collection, was won after trumps were established
    (delayed-trump games), and this trick may collect under the options. A pair
    blocked by an option leaves the run unbroken (R-8), which needs no state:
    the next trick forms a new pair with this one. With `pile_after_collect:
    each_win` a run that has collected stays hot: each further win by the same
    player collects that trick at once (pile.each-win).

    Its state, for readers (the solver's positions): `pile`, and of the last trick its
    winner (`last_winner`), winning card, whether trumps were established by then, whether
    it collected, and whether the run is `hot`.
    """

    def __init__(self, options: Options):
        self.options = options
        self.pile = 0
        self.rule: list[str] | None = None
        self.last_winner: int | None = None
        self.last_card = None
        self.last_established = False
        self.last_collected = True
        self._each_win = options.pile_after_collect == "each_win"
        self.hot = False  # each_win: the previous trick's winner has collected in this run

    def _blocked_by(self, number: int, winning_card, trump_suit) -> str | None:
        """The option (its rule id) that keeps this trick from collecting, or None."""
        o = self.options
        if number == 2 and not o.pile_first_pair_collects:
            return "pile.first-pair"
        if number in o.pile_no_collect_after:
            return "pile.no-collect-after"
        if o.pile_ace_on_ace and winning_card.is_ace and self.last_card is not None and self.last_card.is_ace:
            return "pile.ace-on-ace"
        if o.pile_ace_no_seal != "none" and winning_card.is_ace:
            if o.pile_ace_no_seal == "any":
                return "pile.any-ace"
            if winning_card.suit == trump_suit:
                return "pile.trump-ace"
        return None

    def _pair_open_for(self, winner: int) -> bool:
        return self.last_winner == winner and (self.hot or not self.last_collected and self.last_established)

    def on_trick(self, number: int, winner: int, winning_card, trump_suit, established: bool) -> int | None:
        """Add the trick to the pile; return the collecting team or None."""
        self.pile += 1
        pair = self._pair_open_for(winner)
        blocked = self._blocked_by(number, winning_card, trump_suit) if pair else None
        collects = number == 13 or (pair and blocked is None)
        self.rule = self._why(number, winner, pair, blocked, collects)
        self.hot = self._each_win and pair and (collects or self.hot and blocked is not None)
        self.last_winner, self.last_card = winner, winning_card
        self.last_established, self.last_collected = established, collects
        if collects:
            self.pile = 0
            return team_of(winner)
        return None

    def _why(self, number: int, winner: int, pair: bool, blocked: str | None, collects: bool) -> list[str] | None:
        """The rules behind what happened to the pile at this trick (None: it just grew)."""
        if collects:
            if pair and blocked is None:
                return ["pile.each-win"] if self.hot and self.last_winner == winner else ["pile.collect"]
            return ["pile.last-trick"]
        if blocked is not None:
            return [blocked, "R-8"]
        if self.last_winner == winner and not self.last_collected and not self.last_established:
            return ["pile.delayed"]  # a pair whose first trick came before trumps were known
        return None

    def collector(self, next_number: int) -> int | None:
        """The seat that would collect by winning the next trick (card options aside)."""
        if next_number == 13:
            return None  # anyone winning the 13th takes the rest
        if self.last_winner is not None and self._pair_open_for(self.last_winner):
            o = self.options
            if next_number in o.pile_no_collect_after or (next_number == 2 and not o.pile_first_pair_collects):
                return None
            return self.last_winner
        return None


def make_collection(options: Options):
    return Pile(options) if options.collection == "pile" else Immediate()
