"""The band (closed) trump (docs/rules.md: trump.band, trump.band.caller-reveals, R-14, R-23):
the mode `band`, Mendikot's band hukum. As the hidden trump (trump_hidden.py: laid face
down from the caller's first five, turned up at the end if never shown), but shown as option
`band_reveal` says: at the first show-out and that seat must trump (`auto_must_trump`), at
the first show-out (`auto`), or on an ask or the caller's lead (`ask`); with
`band_caller_reveals: false` the caller never shows it. The caller following suit with the
face-down card, or playing it, is R-23's (hidden.py)."""
from __future__ import annotations

from functools import lru_cache

from .trump_hidden import Hidden


class Band(Hidden):
    __slots__ = ("band_reveal", "reveals_on_void", "caller_reveals")
    hidden_form = False
    played_rules = ("trump.band", "R-23")

    def __init__(self, band_reveal: str, caller_reveals: bool):
        super().__init__("band")
        self.band_reveal = band_reveal
        self.reveals_on_void = band_reveal != "ask"
        self.caller_reveals = caller_reveals                         # trump.band.caller-reveals


@lru_cache(maxsize=None)
def band(band_reveal: str, caller_reveals: bool) -> Band:
    return Band(band_reveal, caller_reveals)
