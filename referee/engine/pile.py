"""The pile (docs/rules.md: pile.collect, pile.last-trick, pile.first-pair, pile.no-collect-after,
pile.ace-on-ace, pile.trump-ace, pile.any-ace, pile.delayed, pile.each-win, R-8, R-30): the
collection `pile` of Double Sir, Hidden Rung, Be-Ranga and Dehla Pakad, where won tricks wait
until a pair collects them. The pairs, blocks and hot runs themselves are the kernel's
(kernel.py: pile_pair_open, pile_blocked, pile_collects, pile_hot); this is what the engine
asks of the pile (the class, as collection.py says) and one deal's pile (an instance)."""
from __future__ import annotations

from .cards import team_of
from .kernel import BLOCK_NONE, BLOCK_RULES, SUIT_NUMBER, T_SUIT, Rules, pile_blocked, pile_collects, pile_hot, pile_pair_open


class Pile:
    """Double Sir: tricks pile up; the same player winning two in a row collects.

    A pair is (previous trick, this trick) won by one player, where the previous
    trick was not itself a collection, was won after trumps were established
    (delayed-trump games), and this trick may collect under the options. A pair
    blocked by an option leaves the run unbroken (R-8), which needs no state:
    the next trick forms a new pair with this one. With `pile_after_collect:
    each_win` a run that has collected stays hot: each further win by the same
    player collects that trick at once (pile.each-win).

    The strategy (collection.py): tricks wait in a pile (`piles`), and R-30 under deal-courts
    scoring (`first_seven_scores`, `score_rules`).

    Its state, for readers (the solver's positions): `pile`, and of the last trick its
    winner (`last_winner`), winning card, whether trumps were established by then, whether
    it collected, and whether the run is `hot`.
    """

    name = "pile"
    piles = True

    def __init__(self, options, rules: Rules):
        self.options = options
        self.rules = rules
        self.pile = 0
        self.rule: list[str] | None = None
        self.last_winner: int | None = None
        self.last_card = None
        self.last_established = False
        self.last_collected = True
        self.hot = False  # each_win: the previous trick's winner has collected in this run

    def _pair_open_for(self, winner: int) -> bool:
        return pile_pair_open(-1 if self.last_winner is None else self.last_winner, winner, self.hot,
                              self.last_collected, self.last_established)

    def on_trick(self, number: int, winner: int, winning_card, trump_suit, established: bool) -> int | None:
        """Add the trick to the pile; return the collecting team or None (the kernel's pile rules)."""
        self.pile += 1
        pair = self._pair_open_for(winner)
        blocked = BLOCK_NONE
        if pair:
            last = self.last_card
            blocked = pile_blocked(self.rules, number, winning_card.strength, winning_card.code >> T_SUIT,
                                   SUIT_NUMBER[trump_suit], last is not None and last.is_ace)
        collects = bool(pile_collects(number, pair, blocked))
        self.rule = self._why(number, winner, pair, BLOCK_RULES[blocked], collects)
        self.hot = bool(pile_hot(self.rules, pair, collects, self.hot, blocked))
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
            if pile_blocked(self.rules, next_number, -1, -1, -1, 0) != BLOCK_NONE:
                return None  # the pair would end on a trick that never collects
            return self.last_winner
        return None

    @staticmethod
    def first_seven_scores(first_seven: int | None, kot: bool) -> int | None:
        """R-30: with a pile, seven collected first is a kot at most (with `kot`, for the
        callers), never a court: the first seven counts only then."""
        return first_seven if kot else None

    @staticmethod
    def score_rules(kind: str) -> tuple[str, ...]:
        """R-30: a pile game's win or kot under deal-courts counts what was collected."""
        return ("R-30",) if kind in ("win", "kot") else ()
