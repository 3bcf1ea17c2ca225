"""The close of a session (match.closed): the team ahead wins (R-26), a deal in play is
abandoned (R-32), its open trick is over (R-36), a claim waiting for its answer is settled
as disputed (R-34b); each from a concrete deal."""
import random
from dataclasses import replace

import pytest

from referee.cli.check import summary
from referee.engine import adjudicate, adjudicate_dict, resolve
from referee.engine.simulate import random_record
from referee.visibility import PublicView
from tests.engine.test_hidden import HANDS
from tests.helpers import ev, searching, verdict, won_by
from tests.solver.claim_deals import endgame, plays


def closed(preset, deals, **options):
    return adjudicate_dict({"preset": preset, "options": options, "closed": True, "deals": deals})


# -- closing a session names the winner ------------------------------------------------------

@pytest.mark.parametrize("preset,scoring", [("court-piece", "courts"), ("rr-single-sir", "rr-courts"),
                                            ("rr-single-sir", "points"), ("seven-courts", "deal-courts"),
                                            ("mendikot", "tens")])
def test_r26_closing_a_session_names_the_team_ahead(preset, scoring):
    options = {"scoring": scoring, "target": None}
    for seed in range(40):
        rec = random_record(preset, resolve(preset, options), 2, random.Random(seed))
        rec = replace(rec, options=options, closed=True)
        v = adjudicate(rec)
        totals = [0, 0]
        key = "points" if scoring in ("points", "tens") else "courts"
        for d in v["deals"]:  # summed here from each deal's result, not from the match totals
            totals[0] += d["result"][key][0]
            totals[1] += d["result"][key][1]
        if totals[0] != totals[1]:
            break
    assert v["valid"] and totals[0] != totals[1]
    m = v["match"]
    assert m["finished"] is True and m["closed"] is True and m["winner"] == (0 if totals[0] > totals[1] else 1)
    assert m["rule"] == ["match.closed", "R-26"] and v["next"] is None


def test_r26_a_closed_session_with_equal_totals_is_a_draw():
    v = adjudicate_dict({"preset": "court-piece", "closed": True, "deals": []})
    assert v["match"]["finished"] is True and v["match"]["winner"] is None and v["next"] is None


# -- closing during a deal, or before the target ---------------------------------------------

def test_r32_closing_during_a_deal_abandons_it_and_the_finished_deals_decide():
    # court-piece, a session by time: seat 1 makes a court in deal 0 (dealer 0); deal 1
    # (dealer 2, the partner) has three tricks to seat 0 when the session is closed.
    v = closed("court-piece", [won_by(0, [1] * 7), won_by(2, [0] * 3, n=3)], play_on=False)
    assert v["valid"] and v["errors"] == [] and v["next"] is None
    d = v["deals"][1]
    assert d["status"] == "abandoned" and d["result"] is None and d["next_dealer"] is None
    assert d["tricks_won"] == [3, 0] and len(d["tricks"]) == 3  # shown, never scored
    m = v["match"]
    assert (m["courts"], m["winner"], m["finished"], m["closed"]) == ([0, 1], 1, True, True)
    assert m["rule"] == ["match.closed", "R-26", "R-32"]


def test_r32_an_abandoned_deal_is_still_checked_for_record_errors_and_its_violations_listed():
    # Deal 1 (dealer 2, hands known): seat 0 leads trick 4's first card, a heart, and seat 1
    # plays a club while holding hearts, then takes it back; the session is closed in that open
    # trick. (Not taken back, the revoke would decide the deal at the bell: R-36.)
    abandoned = won_by(2, [0] * 3, n=3, hands=True)
    lead = next(c for c in abandoned["hands"][0][3:] if c[1] == "H")
    club = next(c for c in abandoned["hands"][1] if c[1] == "C")
    abandoned["events"] += [{"seat": 0, "play": lead}, {"seat": 1, "play": club}, {"seat": 1, "take_back": True}]
    v = closed("court-piece", [won_by(0, [1] * 7), abandoned])
    d = v["deals"][1]
    assert v["valid"] and d["status"] == "abandoned" and d["result"] is None
    assert [(x["code"], x["seat"], x["event"], x["corrected"], x["pending"]) for x in d["violations"]] == [
        ("revoke", 1, 13, True, False)]  # the open trick is over at the close
    broken = won_by(2, [0] * 3, n=3)
    broken["events"].append({"seat": 1, "play": "2C"})  # seat 0 leads trick 4
    v = closed("court-piece", [won_by(0, [1] * 7), broken])
    assert [(e["code"], e["deal"]) for e in v["errors"]] == [("out_of_turn", 1)]
    assert v["deals"][1]["status"] == "invalid" and v["match"]["winner"] == 1 and v["match"]["finished"]


def test_r32_an_abandoned_hidden_trump_is_turned_up_as_at_any_end():
    # an abandoned deal is over for the hiding rules, so its hidden card is turned up
    # (trump.hidden.end), as every reader then sees it; while live it was not.
    deal = {"dealer": 0, "trump": {"hidden": "2D"}, "events": [{"seat": 1, "play": "AH"}]}
    live = verdict("hidden-rung", [deal])["deals"][0]["trump"]
    assert live["turned_up_at_end"] is False and live["suit"] is None and "rule" not in live
    v = closed("hidden-rung", [deal])
    trump = v["deals"][0]["trump"]
    assert v["deals"][0]["status"] == "abandoned"
    assert (trump["turned_up_at_end"], trump["suit"], trump["rule"]) == (True, "D", ["trump.hidden.end"])


@pytest.mark.parametrize("preset,deals,winner", [
    ("rr-single-sir", [won_by(0, [1] * 7)], 1),                  # 3 points to 0, target 10
    ("rr-single-sir", [won_by(0, [1] * 7), won_by(2, [0] * 7)], 0),  # 3 against 4: the defenders' court
    ("seven-courts", [won_by(0, [0] * 13, n=13)], 0),             # a sweep: 2 courts of 7
])
def test_r32_closing_before_the_target_the_team_ahead_wins(preset, deals, winner):
    v = closed(preset, deals)
    m = v["match"]
    assert m["target"] is not None and m["finished"] and m["winner"] == winner
    assert m["rule"] == ["match.closed", "R-26", "R-32"] and v["next"] is None


def test_r32_closing_before_the_target_with_equal_totals_is_a_draw_also_during_a_deal():
    v = closed("rr-single-sir", [won_by(0, [1] * 4, n=4)])
    m = v["match"]
    assert v["deals"][0]["status"] == "abandoned"
    assert (m["points"], m["winner"], m["finished"]) == ([0, 0], None, True)


def test_r32_a_match_already_won_is_not_changed_by_a_close():
    deals = [won_by(0, [1] * 7), won_by(2, [1] * 7), won_by(0, [1] * 7), won_by(2, [1] * 7)]  # 4 courts: 12 points
    v = closed("rr-single-sir", deals)
    assert v["match"]["winner"] == 1 and v["match"]["rule"] == ["match.target"]


def test_r32_perfect_play_is_an_option_value_like_any_other():
    assert resolve("court-piece", {"abandoned_deal": "perfect_play"}).abandoned_deal == "perfect_play"
    assert resolve("court-piece", {"abandoned_deal": "abandon"}) == resolve("court-piece")


# -- the close ends the open trick -----------------------------------------------------------

def revoke_in_open_trick() -> dict:
    """Dealer 2 (hands known; the callers are team 1, seat 3 calls): seat 0, a defender, wins
    tricks 1-3 and leads a heart to trick 4; seat 1, a caller holding hearts, plays a club.
    Nothing else is played."""
    d = won_by(2, [0] * 3, n=3, hands=True)
    lead = next(c for c in d["hands"][0][3:] if c[1] == "H")
    club = next(c for c in d["hands"][1] if c[1] == "C")
    assert any(c[1] == "H" for c in d["hands"][1][3:])
    d["events"] += [{"seat": 0, "play": lead}, {"seat": 1, "play": club}]
    return d


def test_r36_a_revoke_in_the_open_trick_at_the_close_is_a_penalty_court():
    # Deal 1: seat 1 (team 1) makes a court (dealer 0). Deal 2: seat 1 revokes in trick 4 and the
    # session is closed before anyone else plays.
    deals = [won_by(0, [1] * 7), revoke_in_open_trick()]
    live = verdict("court-piece", deals, play_on=False)["deals"][1]
    assert live["status"] == "in_progress" and [v["pending"] for v in live["violations"]] == [True]
    v = closed("court-piece", deals, play_on=False)
    assert v["valid"] and v["next"] is None
    d = v["deals"][1]
    [revoke] = d["violations"]
    assert (revoke["code"], revoke["seat"], revoke["trick"], revoke["event"], revoke["proof"]) == ("revoke", 1, 4, 13, "hand")
    assert (revoke["pending"], revoke["penalty"]) == (False, True)
    assert revoke["rule"] == ["trick.follow", "R-36", "revoke.penalty", "R-1"]
    assert d["status"] == "ended_by_penalty" and d["ignored_events"] == []
    assert len(d["tricks"]) == 3 and d["tricks_won"] == [3, 0]  # trick 4 was never completed
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (0, "penalty_court", [1, 0])
    assert d["next_dealer"] == 3 and d["next_dealer_rule"][-1] == "dealer.defenders-win"  # the dealer's team won
    m = v["match"]
    assert (m["courts"], m["winner"], m["finished"], m["rule"]) == ([1, 1], None, True, ["match.closed", "R-26"])


def test_r36_the_penalty_at_the_close_scores_points_too():
    # rr-single-sir (points, target 10): the offended team 0 are the defenders, so the penalty
    # court is worth 4 points, and the closed match goes to them.
    v = closed("rr-single-sir", [revoke_in_open_trick()])
    d = v["deals"][0]
    assert d["status"] == "ended_by_penalty" and (d["result"]["kind"], d["result"]["points"]) == ("penalty_court", [4, 0])
    assert (v["match"]["points"], v["match"]["winner"]) == ([4, 0], 0)


def test_r36_a_corrected_revoke_is_no_penalty_and_the_deal_is_abandoned():
    d = revoke_in_open_trick()
    d["events"].append({"seat": 1, "take_back": True})
    v = closed("court-piece", [d])
    deal_ = v["deals"][0]
    assert deal_["status"] == "abandoned" and deal_["result"] is None
    assert [(x["corrected"], x["pending"], x["penalty"]) for x in deal_["violations"]] == [(True, False, False)]
    assert deal_["violations"][0]["rule"] == ["trick.follow", "R-36", "revoke.correct"]


def test_r36_without_hands_a_show_out_never_contradicted_stays_unproven_and_the_deal_abandoned():
    d = revoke_in_open_trick()
    del d["hands"]
    v = closed("court-piece", [d])
    deal_ = v["deals"][0]
    assert deal_["status"] == "abandoned" and deal_["violations"] == []
    assert [(u["code"], u["seat"], u["event"]) for u in deal_["unproven"]] == [("revoke", 1, 13)]


def test_r36_under_perfect_play_the_revoke_still_decides_the_deal():
    # Before R-36 the bell could not play on past the revoke: abandoned, "illegal_play".
    v = closed("court-piece", [revoke_in_open_trick()], abandoned_deal="perfect_play")
    d = v["deals"][0]
    assert d["status"] == "ended_by_penalty" and "at_close" not in d
    assert (d["result"]["winner"], d["result"]["kind"]) == (0, "penalty_court")


def test_r36_a_closed_last_deal_with_a_record_error_stays_invalid_and_hidden():
    d = revoke_in_open_trick()
    d["events"].append({"seat": 3, "play": d["hands"][3][-1]})  # seat 2's turn: out_of_turn
    record = {"preset": "court-piece", "closed": True, "deals": [won_by(0, [1] * 7), d]}
    v = adjudicate_dict(record)
    assert [(e["code"], e["deal"], e["event"]) for e in v["errors"]] == [("out_of_turn", 1, 14)]
    deal_ = v["deals"][1]
    assert deal_["status"] == "invalid" and deal_["result"] is None
    assert [x["pending"] for x in deal_["violations"]] == [True]  # its trick is not over: the deal stopped
    assert (v["match"]["winner"], v["match"]["finished"]) == (1, True)
    assert PublicView(record, v).hidden(1) and "hands" not in PublicView(record, v).record()["deals"][1]


def test_r36_an_abandoned_deal_is_over_for_the_hiding_rules():
    # Rung Royal's Hidden Rung, dealer 0: the caller, seat 1, lays 3S face down; AH, 4S (seat 2
    # has no hearts) and 4H are played, then the session is closed.
    d = {"dealer": 0, "hands": HANDS, "trump": {"hidden": "3S"}, "events": ev("1:AH 2:4S 3:4H")}
    live = {"preset": "rr-hidden-rung", "deals": [d]}
    record = dict(live, closed=True)
    v = adjudicate_dict(record)
    assert v["deals"][0]["status"] == "abandoned"
    assert PublicView(live, adjudicate_dict(live)).hidden(0)
    public = PublicView(record, v)
    assert not public.hidden(0)
    assert public.record() == record and public.verdict() == v  # seen as any finished deal: whole
    assert v["deals"][0]["trump"]["suit"] == "S" and v["deals"][0]["trump"]["turned_up_at_end"] is True


# -- R-34b: a claim unanswered at the close --------------------------------------------------------

# Ten filler tricks (tests/solver/claim_deals.py) leave team 0 with 6 tricks and team 1 with 4,
# seat 0 on lead under spades with AS KS QH: seat 1's AH takes the QH whenever it is played,
# so seat 0's claim of all three can take only two (the claim tests' failing claim).
FINAL = ["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"]


W = [1, 1, 1, 0, 0, 0, 0, 3, 2, 0]


def claim_record(extra: list[dict], closed_: bool = True, **options) -> dict:
    hands, events = endgame(FINAL, W)
    record = {"preset": "seven-courts", "options": options,
              "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events + extra}]}
    return dict(record, closed=True) if closed_ else record


def test_r34b_a_claim_unanswered_at_the_close_is_settled_as_disputed():
    claim = [{"seat": 0, "claim": 3}]
    waiting = adjudicate_dict(claim_record(claim, closed_=False), searching())
    assert waiting["deals"][0]["status"] == "in_progress" and waiting["next"]["claim"]["answer_from"] == [1, 3]
    disputed = adjudicate_dict(claim_record(claim + [{"seat": 1, "dispute": True}], closed_=False), searching())
    v = adjudicate_dict(claim_record(claim), searching())
    assert v["valid"] and v["next"] is None
    d = v["deals"][0]
    c = d["claim"]
    assert (c["seat"], c["tricks"], c["event"], c["answer"], c["answered_by"], c["at_close"]) == (0, 3, 40, "dispute", None, True)
    assert (c["held"], c["can_take"], c["awarded"]) == (False, 2, 2)
    assert c["rule"] == ["R-34b", "R-34", "R-34a", "R-33", "perfect.play"]
    assert plays(c["defence"]) == "0:QH 1:AH 2:KH 3:TH 1:2C 2:2D 3:TS 0:KS 0:AS 1:JH 2:QS 3:JS"
    # The same settling as the recorded dispute: the line, the tricks and the score.
    settled = disputed["deals"][0]
    assert {k: c[k] for k in ("held", "can_take", "awarded", "line", "defence")} == \
        {k: settled["claim"][k] for k in ("held", "can_take", "awarded", "line", "defence")}
    assert d["tricks_won"] == [8, 5] and len(d["tricks"]) == 13 and d["status"] == "complete"
    assert d["tricks"][10]["cards"][0] == {"seat": 0, "card": "QH", "event": 41}  # the referee's plays, numbered on
    assert d["result"] == settled["result"] and (d["result"]["winner"], d["result"]["courts"]) == (0, [1, 0])
    assert "at_close" not in d
    assert (v["match"]["courts"], v["match"]["winner"], v["match"]["rule"]) == ([1, 0], 0, ["match.closed", "R-26", "R-32"])
    assert ("  claim: seat 0 claims 3 of the remaining tricks (event 41), unanswered when the session was closed: "
            "settled as disputed: did not hold (can take 2), awarded 2  [rule R-34b, R-34, R-34a, R-33, perfect.play]") in summary("x", v)


def test_r34b_the_claim_is_settled_also_under_perfect_play_at_the_bell():
    # abandoned_deal: perfect_play would have played on (perfect play gives team 0 the same two
    # tricks); the claim is settled instead, and the deal has no at_close.
    v = adjudicate_dict(claim_record([{"seat": 0, "claim": 3}], abandoned_deal="perfect_play"), searching())
    d = v["deals"][0]
    assert d["claim"]["at_close"] and d["claim"]["awarded"] == 2 and "at_close" not in d


def test_r34b_a_deal_the_penalty_decides_at_the_close_leaves_its_claim_unsettled():
    # Seat 0 leads QH; seat 1, holding AH and JH, plays 2C: a revoke. Seat 2 then claims two for
    # team 0. At the close the open trick is over: the revoke decides the deal, and the
    # claim waits for nothing (R-34b).
    v = adjudicate_dict(claim_record([{"seat": 0, "play": "QH"}, {"seat": 1, "play": "2C"}, {"seat": 2, "claim": 2}]), searching())
    assert v["valid"]
    d = v["deals"][0]
    assert d["status"] == "ended_by_penalty" and (d["result"]["winner"], d["result"]["kind"]) == (0, "penalty_court")
    assert d["claim"] == {"seat": 2, "tricks": 2, "event": 42, "answer": None, "answered_by": None}
    assert [(x["code"], x["seat"], x["penalty"]) for x in d["violations"]] == [("revoke", 1, True)]


def test_r34b_a_claim_past_the_search_limit_at_the_close_abandons_the_deal():
    v = adjudicate_dict(claim_record([{"seat": 0, "claim": 3}]), searching(claim_nodes=5))
    assert v["valid"], v["errors"]  # the close is never refused for it
    d = v["deals"][0]
    assert d["status"] == "abandoned" and d["result"] is None
    assert d["at_close"] == {"perfect_play": False, "reason": "search_limit", "line": [], "rule": ["R-34b", "R-32"]}
    assert (d["claim"]["answer"], d["claim"]["at_close"], "awarded" in d["claim"]) == ("dispute", True, False)
    assert v["match"]["rule"] == ["match.closed", "R-26", "R-32"] and v["match"]["winner"] is None
    assert "  at the close, the claim could not be settled: search limit  [rule R-34b, R-32]" in summary("x", v)
