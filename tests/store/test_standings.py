"""The standings table from verdicts, worked out by hand."""
from referee.engine import adjudicate_dict
from referee.store.standings import table
from tests.helpers import won_by


def match(players, deals, preset="court-piece"):
    record = {"preset": preset, "options": {}, "players": players, "deals": deals}
    return record, adjudicate_dict(record)


def test_sessions_by_time_are_won_on_courts_and_equal_courts_is_a_draw():
    # Match 1: A+C vs B+D; B+D make a court (1-0). Match 2: A+B vs C+D, no court either way: a draw.
    m1 = match(["A", "B", "C", "D"], [won_by(0, [1] * 7)])
    m2 = match(["A", "C", "B", "D"], [won_by(0, [1, 0, 1, 3, 0, 1, 2, 3, 0, 1, 3])])
    rows = {tuple(r["team"]): r for r in table([m1, m2])}
    assert rows[("B", "D")] == {"team": ["B", "D"], "played": 1, "won": 1, "lost": 0, "drawn": 0, "courts_for": 1,
                                "courts_against": 0, "points_for": 0, "points_against": 0, "rank": 1}
    assert rows[("A", "C")]["lost"] == 1
    assert rows[("A", "B")]["drawn"] == 1 and rows[("C", "D")]["drawn"] == 1
    assert [r["rank"] for r in table([m1, m2])] == [1, 2, 2, 4]  # the two drawn teams are equal rows
    assert table([m1, m2])[-1]["team"] == ["A", "C"]  # a loss ranks below the draws


def test_points_decide_a_session_scored_in_points():
    record, verdict = match(["A", "B", "C", "D"], [won_by(0, [0] * 7)], preset="court-piece")
    record["options"] = {"scoring": "points"}
    verdict = adjudicate_dict(record)
    rows = {tuple(r["team"]): r for r in table([(record, verdict)])}
    assert rows[("A", "C")]["won"] == 1 and rows[("A", "C")]["points_for"] == 4
