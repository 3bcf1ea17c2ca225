"""The line of an answered analysis never turns a value the search found into a refusal
(issue 42, item 7): it is searched within what is left of the answer's budget, and left out
with a note when it does not fit."""
import random

import pytest

from referee.solver import SearchLimit, SearchLimitExceeded, Solver

from .positions import random_position


def position():
    """seven-courts, 9 tricks left: its values take 8,675 nodes, values and line 10,837."""
    return random_position("seven-courts", random.Random(4), 9, 0)


def test_a_line_past_the_budget_is_left_out_with_a_note_and_the_values_stand(search_class):
    whole = Solver("tricks", search_class).solve(position())
    values = Solver("tricks", search_class).solve(position(), line=False)
    assert (values.nodes, whole.nodes) == (8_675, 10_837) and whole.line and whole.line_note is None
    short = Solver("tricks", search_class).solve(position(), SearchLimit(nodes=9_700))
    assert (short.value, short.cards) == (whole.value, whole.cards)
    assert short.line == [] and short.tricks_won == values.tricks_won and short.result is None
    assert "line of perfect play is left out" in short.line_note and "9700 nodes" in short.line_note
    assert short.as_dict()["line_note"] == short.line_note and "line_note" not in whole.as_dict()


def test_values_past_the_budget_are_still_refused(search_class):
    with pytest.raises(SearchLimitExceeded):
        Solver("tricks", search_class).solve(position(), SearchLimit(nodes=7_000))


class GoneDuringTheLine(SearchLimit):
    """A client that goes away once the values are found (8,675 nodes): the line's search
    is told it is cancelled."""

    def spend(self, n: int) -> None:
        super().spend(n)
        if self.spent > 8_675:
            raise SearchLimitExceeded(self, "cancelled")


def test_a_cancelled_line_is_no_answer(search_class):
    """Nothing is answered to a client that has gone (no partial answer)."""
    with pytest.raises(SearchLimitExceeded) as exc:
        Solver("tricks", search_class).solve(position(), GoneDuringTheLine(nodes=None))
    assert exc.value.reason == "cancelled"
