"""The referee's engine: pure Python rules of Court Piece and its family.

    >>> from referee.engine import Record, judge
    >>> verdict = judge(Record.from_dict(data))   # a Verdict; .as_dict() is docs/records.md's JSON
    >>> deal = position(record, 0, 5)             # deal 0 after its first 5 events (a Deal)
"""
from .cards import DECK, Card, caller_of, partner, team_of
from .deal import Deal
from .errors import InvalidCardError, OptionError, RecordError, RecordFormatError, RefereeError
from .match import adjudicate, adjudicate_dict, judge
from .options import PRESETS, Options, preset_options, resolve
from .rulebook import Rule, catalogue
from .playrecord import DealRecord, Event, Record, TrumpSpec
from .replay import deal_steps, position
from .steps import Step
from .verdict import DealVerdict, Verdict

__all__ = [
    "DECK", "Card", "caller_of", "partner", "team_of", "Deal", "InvalidCardError", "OptionError",
    "RecordError", "RecordFormatError", "RefereeError", "adjudicate", "adjudicate_dict", "judge",
    "Verdict", "DealVerdict", "deal_steps", "position", "Step",
    "PRESETS", "Options", "preset_options", "resolve", "Rule", "catalogue",
    "DealRecord", "Event", "Record", "TrumpSpec",
]
