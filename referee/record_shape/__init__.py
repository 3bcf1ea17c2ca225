"""Is it a play record? The layer between the engine and its readers (the API, the command
line, the store): one check of a record's shape for them all.

It reports every problem with its JSON pointer and a message in the project's words
("required", "must be a seat 0..3", "unknown field"), and returns the record cleaned
(cards in their canonical spelling, defaults filled in): `check_record`, `check_deal`,
`check_events` (walk.py), and `read_record`, straight to the engine's record, in one walk
when the record is plain (plain.py). What the record *means* is the engine's business; this
package only says whether it is a record. It imports neither the web layer nor the store.
"""
from .plain import read_record
from .walk import RecordProblems, check_deal, check_events, check_record

__all__ = ["RecordProblems", "check_deal", "check_events", "check_record", "read_record"]
