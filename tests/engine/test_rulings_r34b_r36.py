"""Rulings R-34b, R-35 and R-36 (issue 28), each from a concrete deal."""
import json
from pathlib import Path

from referee.cli.check import summary
from referee.engine import adjudicate_dict
from referee.visibility import PublicView
from tests.engine.test_hidden import HANDS, codes, hidden
from tests.helpers import deal, ev, searching, verdict, won_by
from tests.solver.claim_deals import endgame, plays

GOLDEN = Path(__file__).parent / "records"


# -- the hidden card is never played face down ------------------------------------------------

def last_card_deal(face_down: bool) -> dict:
    """Hidden Rung, dealer 0, caller seat 1 lays 2C face down. Seats 1 and 3 win tricks 1-10 in
    turn, seat 0 trick 11 and seat 2 trick 12 (no collection after 1, 2 and 12: the pile holds
    all twelve); trick 13 is 2S (seat 2) 2H 2D and the caller's last card, the hidden 2C."""
    events = won_by(0, [1, 3] * 5 + [0, 2], n=13)["events"]
    assert events[-1] == {"seat": 1, "play": "2C"}
    if face_down:
        events[-1] = dict(events[-1], face_down=True)
    return deal(0, events, {"hidden": "2C"})


def test_r35_the_hidden_card_marked_face_down_as_the_13th_card_is_a_trump_and_wins():
    face_up = verdict("hidden-rung", [last_card_deal(False)])
    v = verdict("hidden-rung", [last_card_deal(True)])
    d = v["deals"][0]
    assert v["valid"] and d["violations"] == []
    last = d["tricks"][12]
    assert last["cards"][3] == {"seat": 1, "card": "2C", "event": 51, "trump": True}  # not face down
    assert (last["winner"], last["winning_card"], last["collected_by"], last["collected"]) == (1, "2C", 1, 13)
    # Face down it would have lost to 2S and given the defenders a goon court (3) and the deal.
    assert (d["result"]["winner"], d["result"]["kind"], d["result"]["courts"]) == (1, "court", [0, 1])
    assert d["tricks_won"] == [0, 13] and d["next_dealer"] == 2  # the callers' court: the dealer's partner
    assert d["trump"]["revealed"] == {"trick": 13, "event": 51, "seat": 1, "how": "last_card",
                                      "rule": ["trump.hidden.card", "R-6", "R-35"]}
    assert last["reveal"]["rule"] == ["trump.hidden.card", "R-6", "R-35"]
    # Everything else is the face-up play's verdict.
    for key in ("result", "tricks_won", "next_dealer", "next_dealer_rule", "status"):
        assert d[key] == face_up["deals"][0][key], key
    assert v["next"] == face_up["next"] and v["match"] == face_up["match"]


def test_r35_without_face_down_discards_the_marked_hidden_card_is_no_bad_face_down():
    # Rung Royal's Hidden Rung has no face-down discards: a face-down play is bad_face_down,
    # but the hidden card is never played face down, so its play is the legal 13th card.
    v = verdict("rr-hidden-rung", [last_card_deal(True)], collection="pile")
    assert v["valid"], v["errors"]
    assert v["deals"][0]["tricks"][12]["winner"] == 1 and v["deals"][0]["result"]["winner"] == 1
    discard = hidden("rr-hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    assert discard["errors"][0]["code"] == "bad_face_down"  # any other card: as ever


def test_r35_the_hidden_card_marked_face_down_earlier_is_hidden_card_played_and_a_trump():
    # Hidden Rung, caller seat 1's hidden 7S. Trick 2: seat 2 leads 2D, 3D, 4D, and the caller
    # plays the 7S marked face down: it is shown by the play and trumps the diamonds.
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:7S_")
    d = v["deals"][0]
    assert v["valid"]
    trick = d["tricks"][1]
    assert trick["cards"][3] == {"seat": 1, "card": "7S", "event": 7, "trump": True}
    assert (trick["winner"], trick["winning_card"]) == (1, "7S")
    assert codes(v) == [("hidden_card_played", 2, 7, "hand", True)]
    assert d["violations"][0]["rule"] == ["trump.hidden.card", "R-13", "R-35", "revoke.penalty", "R-1"]
    assert d["trump"]["revealed"]["how"] == "played" and d["trump"]["revealed"]["rule"][-1] == "R-35"
    # The penalty: the defenders score the court, the trick stays as played.
    assert (d["status"], d["result"]["winner"], d["result"]["kind"]) == ("ended_by_penalty", 0, "penalty_court")


def test_r35_a_face_down_discard_of_another_card_still_never_wins():
    v = hidden("hidden-rung", "1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    trick = v["deals"][0]["tricks"][1]
    assert v["valid"] and trick["winner"] == 0 and trick["cards"][3]["face_down"] is True
    assert v["deals"][0]["trump"]["revealed"] is None


def test_r35_band_the_callers_show_out_with_the_marked_hidden_card_is_the_face_up_play():
    # The golden band record: seat 0 (the caller) shows out of hearts with its face-down 2C,
    # turned up just before the play. Marked face down it plays exactly the same (it
    # was a bad_face_down before R-35: band has no face-down discards).
    case = json.loads((GOLDEN / "band-auto-caller-plays-the-face-down-card.json").read_text())
    record = case["record"]
    events = record["deals"][0]["events"]
    assert events[7] == {"seat": 0, "play": "2C"}
    events[7] = dict(events[7], face_down=True)
    v = verdict(record["preset"], record["deals"], **record["options"])
    assert v["valid"], v["errors"]
    golden = case["verdict"]["deals"][0]
    reveal = golden["tricks"][1]["reveal"]
    assert reveal["event"] == 7 and reveal["how"] == "void"
    for shown in (golden["trump"]["revealed"], reveal):
        shown["rule"] = shown["rule"] + ["R-35"]
    assert v["deals"][0] == golden and v["next"] == case["verdict"]["next"]


def test_r35_with_hands_the_callers_marked_hidden_card_on_lead_is_hidden_card_played():
    # Seat 1 leads its hidden 7S marked face down: a face-down lead would be bad_face_down;
    # the hidden card is led face up, shown, and is hidden_card_played (proof: the hand).
    v = hidden("hidden-rung", "1:7S_ 2:4S 3:5S 0:6S", hands=HANDS)
    d = v["deals"][0]
    assert v["valid"] and codes(v) == [("hidden_card_played", 1, 0, "hand", True)]
    assert d["tricks"][0]["cards"][0] == {"seat": 1, "card": "7S", "event": 0, "trump": True}
    assert d["tricks"][0]["winner"] == 1


# -- the close ends the open trick -------------------------------------------------------------

def closed(preset, deals, **options):
    return adjudicate_dict({"preset": preset, "options": options, "closed": True, "deals": deals})


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


# -- R-34b: a claim unanswered at the close ---------------------------------------------------------

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
