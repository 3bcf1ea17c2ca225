"""deal-courts scoring (score.deal-courts, R-17): all 13 tricks, a court a deal."""
import pytest

from tests.helpers import verdict, won_by

# Dealer 0: callers team 1 (seats 1, 3).
CALLERS_8_5 = [1, 0, 1, 3, 0, 1, 2, 3, 0, 1, 3, 2]  # 13th goes to the 12th's winner (seat 2)


def result(winners, **options):
    v = verdict("seven-courts", [won_by(0, winners, n=13)], **options)
    assert v["valid"], v["errors"]
    return v["deals"][0]


def test_all_thirteen_tricks_are_played():
    d = result(CALLERS_8_5)
    assert len(d["tricks"]) == 13 and d["tricks_won"] == [6, 7]
    assert d["result"]["kind"] == "win" and d["result"]["courts"] == [0, 1]
    assert d["next_dealer"] == 0


def test_seven_tricks_do_not_end_the_deal():
    v = verdict("seven-courts", [won_by(0, [1] * 7, n=7)])
    assert v["deals"][0]["status"] == "in_progress"


def test_defenders_win_one_court_or_two_with_defenders_double():
    winners = [0, 1, 0, 2, 1, 0, 2, 3, 2, 1, 0, 0]
    assert result(winners)["result"]["courts"] == [1, 0]
    assert result(winners, defenders_double=True)["result"]["courts"] == [2, 0]
    assert result(winners)["next_dealer"] == 1


def test_sweep_scores_two_for_either_team():
    d = result([1] * 12)
    assert d["result"]["kind"] == "sweep" and d["result"]["courts"] == [0, 2] and d["next_dealer"] == 2
    d = result([0] * 12)
    assert d["result"]["kind"] == "sweep" and d["result"]["courts"] == [2, 0] and d["next_dealer"] == 1


@pytest.mark.parametrize("kot, kind, courts", [(False, "court", 1), (True, "kot", 2)])
def test_callers_first_seven_straight(kot, kind, courts):
    d = result([1] * 7 + [0] * 5, kot=kot)
    assert d["result"]["kind"] == kind and d["result"]["courts"] == [0, courts]
    assert d["next_dealer"] == 2


def test_goon_court_scores_as_a_defenders_win():
    d = result([0] * 7 + [1] * 5)
    assert d["result"]["kind"] == "goon_court" and d["result"]["courts"] == [1, 0]
    d = result([0] * 7 + [1] * 5, defenders_double=True)
    assert d["result"]["courts"] == [2, 0]


def test_no_streaks_and_first_to_seven_courts_wins():
    deals = [won_by(0, CALLERS_8_5, n=13) for _ in range(7)]
    v = verdict("seven-courts", deals)
    assert not any(d["result"]["streak_court"] for d in v["deals"])
    assert v["match"]["courts"] == [0, 7] and v["match"]["winner"] == 1 and v["next"] is None
