"""Rulings R-29 to R-32 and the option `pile_ace_no_seal`, each from a concrete deal (issue 19)."""
import pytest

from tests.helpers import verdict, won_by


def tricks(text: str) -> list[dict]:
    """'0: AH 2H 3H 4H / 0: 5H ...': each trick's leader and its cards in play order."""
    events = []
    for trick in text.split("/"):
        leader, cards = trick.split(":")
        events += [{"seat": (int(leader) + j) % 4, "play": c} for j, c in enumerate(cards.split())]
    return events


# -- a deal over before its error still scores and names the next deal -------------------------

def test_r29_an_eighth_trick_after_a_court_is_an_error_but_next_names_the_next_deal():
    # rr-single-sir, dealer 0: seat 1 (callers, team 1) takes the first seven, then an 8th trick is recorded.
    v = verdict("rr-single-sir", [won_by(0, [1] * 8, n=8)])
    assert not v["valid"]
    assert [(e["code"], e["deal"], e["event"]) for e in v["errors"]] == [("play_after_end", 0, 28)]
    d = v["deals"][0]
    assert d["status"] == "complete" and len(d["tricks"]) == 7
    assert (d["result"]["kind"], d["result"]["points"]) == ("court", [0, 3])
    assert v["match"]["points"] == [0, 3]
    assert v["next"] == {"deal": 1, "dealer": 2, "caller": 3, "trick": None, "to_play": None, "legal": None}
    assert d["next_dealer"] == 2 and d["next_dealer_rule"][-2:] == ["dealer.callers-court", "R-29"]


def test_r29_a_deal_stopped_by_its_error_still_has_no_next():
    broken = won_by(0, [1] * 3, n=3)
    broken["events"].append({"seat": 3, "play": "2C"})  # seat 1 won trick 3 and leads trick 4
    v = verdict("rr-single-sir", [broken])
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("out_of_turn", 12)]
    assert v["deals"][0]["status"] == "invalid" and v["next"] is None


# -- pile games under deal-courts --------------------------------------------------------------

DOUBLE_SIR_7_6 = tricks("0: AH 2H 3H 4H / 0: 5H 6H KH 7H / 2: 8H 9H QH TH / 0: 2D 3D AD 4D / 2: 5D 6D KD 7D / "
                        "0: 8D 9D QD TD / 2: AC 2C 3C 4C / 2: 5C 6C 7C KC / 1: QC 8C 9C TC / 1: AS 2S 3S 4S / "
                        "1: KS 5S 6S 7S / 1: QS 8S 9S TS / 1: JS JH JD JC")


def test_r30_a_7_6_collection_under_deal_courts_is_a_win_not_a_court():
    v = verdict("double-sir", [{"dealer": 3, "trump": {"suit": "S"}, "events": DOUBLE_SIR_7_6}], scoring="deal-courts")
    d = v["deals"][0]
    assert v["valid"] and d["status"] == "complete" and d["tricks_won"] == [7, 6]
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (0, "win", [1, 0])
    assert "R-30" in d["result"]["rule"]
    assert d["next_dealer"] == 3 and d["next_dealer_rule"][-1] == "dealer.callers-win"


def test_r30_with_kot_seven_collected_before_the_defenders_collect_any_is_a_kot():
    # Dealer 3, callers team 0. Seat 0 collects 2 at trick 2, seat 2 collects 2 at trick 4; seat 1
    # wins trick 6 (no pair); seat 2 collects tricks 5-8 at trick 8: the callers have 8, the
    # defenders none. At trick 7 they had 4 collected, so "the first seven straight" never happened.
    kot = won_by(3, [0, 0, 2, 2, 0, 1, 2, 2, 1], n=13)
    v = verdict("double-sir", [kot], scoring="deal-courts", kot=True)
    d = v["deals"][0]
    assert [t["collected"] for t in d["tricks"][:8]] == [0, 2, 0, 2, 0, 0, 0, 4]
    assert d["tricks_won"] == [8, 5]
    assert (d["result"]["kind"], d["result"]["courts"]) == ("kot", [2, 0])
    assert "R-30" in d["result"]["rule"] and d["next_dealer"] == 1
    # The defenders collect once (trick 6 and 7 by seat 1) before the callers reach seven: a win.
    late = won_by(3, [0, 0, 2, 2, 0, 1, 1, 2, 2, 0, 0, 2], n=13)
    d = verdict("double-sir", [late], scoring="deal-courts", kot=True)["deals"][0]
    assert d["tricks_won"][1] > 0 and (d["result"]["kind"], d["result"]["courts"]) == ("win", [1, 0])
