"""The tens (docs/rules.md: mendikot.tens, end.tens-settled): under scoring `tens` (Mendikot,
Dehla Pakad; the options' `counts_tens`) the four tens travel with the tricks that hold them,
and with `tens_end: settled` (the options' `tens_settled`) the deal ends once its result
cannot change. What the tens score is scoring.py's TensScoring (score.tens, R-18, R-25);
when the settled end comes, the kernel's `tens_settled` and `deal_end` (kernel.py)."""
from __future__ import annotations

from .trick import CARD, Play

SETTLED = "end.tens-settled"


def count_tens(deal, plays: tuple[Play, ...], team: int | None) -> None:
    """mendikot.tens: a closed trick's tens go to the team that took it; a piled trick's wait
    in the pile for whoever collects it."""
    deal.pile_tens += sum(p[CARD].is_ten for p in plays)
    if team is not None:
        deal.tens_won[team] += deal.pile_tens
        deal.pile_tens = 0


def settled_sweep(won) -> int | None:
    """end.tens-settled: the team that took every trick played before the settled end."""
    return 0 if won[1] == 0 else 1 if won[0] == 0 else None
