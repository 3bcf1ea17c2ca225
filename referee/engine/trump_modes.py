"""The trump modes by the option's value (docs/rules.md: option.trump): the one place that
maps `trump`'s values to their modules, each made once from the options it reads."""
from __future__ import annotations

from .trump_band import band
from .trump_called import BLIND, CALLED, RANDOM
from .trump_first_void import FIRST_VOID
from .trump_hidden import hidden

MODES = {
    "called": lambda options: CALLED,
    "blind": lambda options: BLIND,
    "hidden": lambda options: hidden(options.hidden_caller_face_down),
    "first_void": lambda options: FIRST_VOID,
    "random": lambda options: RANDOM,
    "band": lambda options: band(options.band_reveal, options.band_caller_reveals),
}
