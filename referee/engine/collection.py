"""Where won tricks go (docs/rules.md: option.collection, collection.immediate): each value of
the option `collection` is a class the engine asks, never its name. `immediate` (each trick to
its winner's team) is this module's; `pile` is pile.py's (pile.*, R-8, R-30).

A collection is a class: what the rules ask of it are its class attributes and static
methods (`piles`: won tricks may wait in a pile; `first_seven_scores`, `score_rules`: what
deal-courts scoring counts, R-30), asked of a deal's (`deal.collection`) or of the options
alone (`options.collects`, made from `COLLECTIONS`); an instance is one deal's run of tricks
(`pile`, `rule`, `on_trick`, `collector`).
"""
from __future__ import annotations

from .kernel import Rules
from .pile import Pile


class Immediate:
    """collection.immediate: the winner's team takes the trick."""

    name = "immediate"
    piles = False
    pile = 0
    rule = None

    def __init__(self, options=None, rules: Rules | None = None):
        pass

    def on_trick(self, number: int, winner: int, winning_card, trump_suit, established: bool) -> int:
        return winner & 1  # team_of, inlined: called for every trick

    def collector(self, next_number: int) -> int | None:
        return None

    @staticmethod
    def first_seven_scores(first_seven: int | None, kot: bool) -> int | None:
        return first_seven

    @staticmethod
    def score_rules(kind: str) -> tuple[str, ...]:
        return ()


COLLECTIONS = {"immediate": Immediate, "pile": Pile}  # option.collection's values


def make_collection(options, rules: Rules):
    """One deal's run of tricks under the options' collection."""
    return options.collects(options, rules)
