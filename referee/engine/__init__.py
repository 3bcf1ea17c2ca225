"""The referee's engine: pure Python rules of Court Piece and its family.

    >>> from referee.engine import Record, judge
    >>> verdict = judge(Record.from_dict(data))   # a Verdict; .as_dict() is docs/records.md's JSON
    >>> deal = position(record, 0, 5)             # deal 0 after its first 5 events (a Deal)

Its modules, by job:

    the values    cards.py (cards, suits, seats, teams), playrecord.py (the play record),
                  options.py (options and presets), rulebook.py (docs/rules.md's catalogue),
                  errors.py (an impossible record, a bad option)
    the rules     trick.py, trump.py, collection.py, pairs.py, scoring.py: each a rule family
                  of docs/rules.md, in one place. A collection and a trump mode are objects
                  the rules ask, never the option's name, each in the module of its rules:
                  collection.py (immediate), pile.py (pile.*), tens.py (the tens counted
                  and their settled end); trump.py (the deal's trump and
                  what a mode answers), trump_called.py (called, blind, random),
                  trump_first_void.py, trump_hidden.py, trump_band.py, mapped from the
                  option by trump_modes.py; kernel.py, the trick-level rules themselves
                  as small functions over plain integers with the deal's settings (Rules),
                  and kernel_play.py, the face-down trump's reveals and what a seat may play,
                  which those modules call and the solver's core compiles (core_kernel*)
    one deal      deal.py, the deal's state and its replay; its docstring maps the rules it
                  calls: dealing.py, legal.py, plays.py, voids.py, hidden.py, claims.py,
                  closing.py, ending.py, facts.py; violations.py (the breaches it finds)
    a record      match.py, the judge; its docstring maps replay.py, totals.py, verdict.py,
                  bell.py, nextup.py; settlement.py (what it asks of perfect play, handed in)
    for readers   steps.py (a deal event by event), simulate.py (random legal play)
"""
from .cards import DECK, Card, caller_of, partner, team_of
from .deal import Deal
from .errors import InvalidCardError, OptionError, RecordError, RecordFormatError, RefereeError
from .match import adjudicate, adjudicate_dict, judge, judge_last
from .options import PRESETS, Options, preset_options, resolve
from .rulebook import Rule, catalogue
from .playrecord import DealRecord, Event, Record, TrumpSpec
from .replay import deal_steps, position
from .steps import Step
from .verdict import DealVerdict, Verdict

__all__ = [
    "DECK", "Card", "caller_of", "partner", "team_of", "Deal", "InvalidCardError", "OptionError",
    "RecordError", "RecordFormatError", "RefereeError", "adjudicate", "adjudicate_dict", "judge", "judge_last",
    "Verdict", "DealVerdict", "deal_steps", "position", "Step",
    "PRESETS", "Options", "preset_options", "resolve", "Rule", "catalogue",
    "DealRecord", "Event", "Record", "TrumpSpec",
]
