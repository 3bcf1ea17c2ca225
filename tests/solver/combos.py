"""Option sets for the solver's tests: any combination of the options its rules read (the
trump mode, the collection and the pile's options, the scoring and its counting options, the
end's options), from a preset, kept only as the API accepts them (`effective`: an override
that decides nothing under the others is dropped)."""
from __future__ import annotations

from hypothesis import strategies as st

from referee.engine import OptionError
from referee.engine.options import CHOICES, MAX_WHOLE, PRESETS, effective

# the options that the kernel's Rules or the scoring of a deal read, and their values
CHOSEN = ("trump", "collection", "scoring", "band_reveal", "pile_ace_no_seal", "pile_after_collect", "tens_end")
FLAGS = ("play_on", "kot", "defenders_double", "hidden_caller_face_down", "pile_first_pair_collects",
         "pile_ace_on_ace", "deciding_pair", "deciding_pair_ace_rule", "band_caller_reveals")
COUNTS = ("bavney_courts", "goon_court_courts", "streak_courts", "streak_points")

# a count as a house rule may set it: small, or anything up to the largest whole JSON number
counts = st.one_of(st.integers(0, 9), st.integers(0, MAX_WHOLE))


def accepted(preset: str, overrides: dict):
    """(overrides, options): the overrides less those the API refuses (option.no-effect),
    dropped one at a time as `effective` names them."""
    overrides = dict(overrides)
    while True:
        try:
            return overrides, effective(preset, overrides)
        except OptionError as exc:
            del overrides[exc.option]


@st.composite
def option_sets(draw):
    """(preset, overrides, options): a preset and some of the options above set anew."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = {}
    for name in CHOSEN:
        if draw(st.booleans()):
            overrides[name] = draw(st.sampled_from(CHOICES[name]))
    for name in FLAGS:
        if draw(st.booleans()):
            overrides[name] = draw(st.booleans())
    for name in COUNTS:
        if draw(st.integers(0, 3)) == 0:
            overrides[name] = draw(counts)
    if draw(st.integers(0, 3)) == 0:
        overrides["pile_no_collect_after"] = draw(st.lists(st.integers(10, 13), max_size=3))
    overrides, options = accepted(preset, overrides)
    return preset, overrides, options
