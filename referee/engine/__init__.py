"""The referee's engine: pure Python rules of Court Piece and its family.

    >>> from referee.engine import Record, judge
    >>> verdict = judge(Record.from_dict(data))   # a Verdict; .as_dict() is docs/records.md's JSON
"""
from .cards import DECK, Card, caller_of, partner, team_of
from .deal import Deal
from .errors import InvalidCardError, OptionError, RecordError, RecordFormatError, RefereeError
from .match import DealVerdict, Verdict, adjudicate, adjudicate_dict, judge
from .options import PRESETS, Options, preset_options, resolve
from .rulebook import Rule, catalogue
from .record import DealRecord, Event, Record, TrumpSpec

__all__ = [
    "DECK", "Card", "caller_of", "partner", "team_of", "Deal", "InvalidCardError", "OptionError",
    "RecordError", "RecordFormatError", "RefereeError", "adjudicate", "adjudicate_dict", "judge",
    "Verdict", "DealVerdict",
    "PRESETS", "Options", "preset_options", "resolve", "Rule", "catalogue",
    "DealRecord", "Event", "Record", "TrumpSpec",
]
