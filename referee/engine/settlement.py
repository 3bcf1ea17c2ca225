"""Where the engine's replay gets perfect play from: settling an answered claim (R-34) and
finishing a deal at the bell (R-32, `abandoned_deal: perfect_play`).

Perfect play is the solver's (`referee.solver`), which imports the engine, so the engine
cannot import it: the solver registers itself here when imported (the package `referee`
imports it, so every entry point has it). Without a registered solver a claim cannot be
settled: the record error `claim_unsettled`.
"""
from __future__ import annotations

from typing import Callable, NamedTuple


class Line(NamedTuple):
    """The referee's plays to the deal's end, and what the verdict says of them."""
    events: tuple          # record.Event plays, in order
    claim: dict | None     # a settled claim's verdict fields (held, awarded, line, defence, rule)


class Settler(NamedTuple):
    """`settle(deal) -> Line` for an answered claim; `finish(deal) -> Line` perfect play at
    the bell. Each raises RecordError (`claim_unsettled`) or returns None (finish: the deal
    stays abandoned, with the reason `abandoned_reason` names)."""
    settle: Callable
    finish: Callable


_settler: Settler | None = None


def register(settler: Settler) -> None:
    global _settler
    _settler = settler


def current() -> Settler | None:
    return _settler
