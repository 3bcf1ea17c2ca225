"""Rulings R-29 to R-32 and the option `pile_ace_no_seal`, each from a concrete deal (issue 19)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PRESETS, Record, adjudicate, resolve
from referee.engine.simulate import random_deal, random_record
from tests.engine.test_properties import seeds
from tests.helpers import verdict, won_by


def tricks(text: str) -> list[dict]:
    """'0: AH 2H 3H 4H / 0: 5H ...': each trick's leader and its cards in play order."""
    events = []
    for trick in text.split("/"):
        leader, cards = trick.split(":")
        events += [{"seat": (int(leader) + j) % 4, "play": c} for j, c in enumerate(cards.split())]
    return events


def spades(dealer: int, events: list[dict], **options) -> dict:
    """Double Sir, spades called: the verdict on one deal."""
    return verdict("double-sir", [{"dealer": dealer, "trump": {"suit": "S"}, "events": events}], **options)


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
    v = spades(3, DOUBLE_SIR_7_6, scoring="deal-courts")
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


# -- pile_ace_no_seal: none | trump | any (pile.trump-ace, pile.any-ace, R-8) ------------------------

def ace_deal(winners, n, **options):
    """Dealer 0, trump S; by rank: tricks 1-4 are won by AS, AH, AD, AC, tricks 5-8 by tens."""
    v = verdict("double-sir", [won_by(0, winners, n=n, by_rank=True, suits="SHDC")], **options)
    assert v["valid"], v["errors"]
    return [(t["number"], t["collected_by"], t["collected"]) for t in v["deals"][0]["tricks"]], v["deals"][0]


def test_any_ace_cannot_complete_a_pair_and_the_run_goes_on_to_the_ten():
    # Seat 1 wins tricks 1-5: the four aces, then TS.
    plain, _ = ace_deal([1] * 5, 5)
    assert plain[1] == (2, 1, 2)  # AH completes the pair of AS and AH
    trump, _ = ace_deal([1] * 5, 5, pile_ace_no_seal="trump")
    assert trump[1] == (2, 1, 2)  # AH is no trump ace: it seals
    collected, deal = ace_deal([1] * 5, 5, pile_ace_no_seal="any")
    assert collected == [(1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0), (5, 1, 5)]
    assert [t["rule"] for t in deal["tricks"][1:4]] == [["pile.any-ace", "R-8"]] * 3
    assert deal["tricks"][4]["rule"] == ["pile.collect"]


def test_any_ace_an_ace_may_still_start_a_pair_and_another_seat_breaks_the_run():
    # Seat 1 wins AS and AH (blocked), seat 3 wins AD and AC (blocked: seat 3's run starts at AD),
    # seat 3 wins TS: the pair AC-TS collects all five.
    collected, _ = ace_deal([1, 1, 3, 3, 3], 5, pile_ace_no_seal="any")
    assert collected == [(1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0), (5, 1, 5)]
    # Seat 1 wins AD and AC (a blocked pair), then seat 3 wins TS: the run is broken, nothing collects.
    collected, _ = ace_deal([1, 3, 1, 1, 3], 5, pile_ace_no_seal="any")
    assert collected == [(1, None, 0), (2, None, 0), (3, None, 0), (4, None, 0), (5, None, 0)]


# Dealer 0, trump S: seats 1 and 3 win tricks 1-12 in turn (no pair), and seat 3 wins trick 13 with AS.
ACE_LAST = tricks("1: KS QS JS TS / 1: 8S 7S 9S 6S / 3: 4S 3S 5S 2S / 1: QH JH KH TH / 3: 8H 7H 9H 6H / "
                  "1: 4H 3H 5H 2H / 3: QD JD KD TD / 1: 8D 7D 9D 6D / 3: 4D 3D 5D 2D / 1: QC JC KC TC / "
                  "3: 8C 7C 9C 6C / 1: 4C 3C 5C 2C / 3: AS AH AD AC")


def test_any_ace_the_thirteenth_trick_won_by_an_ace_still_takes_the_rest():
    v = spades(0, ACE_LAST, pile_ace_no_seal="any")
    d = v["deals"][0]
    assert v["valid"] and [t["winner"] for t in d["tricks"]] == [1, 3] * 6 + [3]
    last = d["tricks"][12]
    assert (last["collected_by"], last["collected"], last["rule"]) == (1, 13, ["pile.last-trick"])
    assert d["tricks_won"] == [0, 13] and d["status"] == "complete"


def test_trump_ace_cannot_seal_only_the_trump_ace():
    # Trump H: seat 1 wins AS then AH (the trump ace: blocked), then AD: AD completes the run of three.
    v = verdict("double-sir", [won_by(0, [1] * 3, n=3, by_rank=True, suits="SHDC", trump="H")],
                pile_ace_no_seal="trump")
    assert [(t["collected"], t.get("rule")) for t in v["deals"][0]["tricks"]] == [
        (0, None), (0, ["pile.trump-ace", "R-8"]), (3, ["pile.collect"])]


@pytest.mark.parametrize("alias,value", [(True, "trump"), (False, "none")])
def test_the_older_spelling_plays_exactly_as_the_option(alias, value):
    assert resolve("double-sir", {"pile_trump_ace_no_seal": alias}) == resolve("double-sir", {"pile_ace_no_seal": value})
    for seed in range(20):
        record = random_record("double-sir", resolve("double-sir", {"pile_ace_no_seal": value}), 3, random.Random(seed))
        old = adjudicate(Record(preset="double-sir", options={"pile_trump_ace_no_seal": alias}, deals=record.deals))
        new = adjudicate(Record(preset="double-sir", options={"pile_ace_no_seal": value}, deals=record.deals))
        assert old == new
    both = {"pile_trump_ace_no_seal": alias, "pile_ace_no_seal": value}
    assert resolve("double-sir", both) == resolve("double-sir", {"pile_ace_no_seal": value})


@pytest.mark.parametrize("options,pointer", [
    ({"pile_ace_no_seal": "all"}, "pile_ace_no_seal"),
    ({"pile_ace_no_seal": True}, "pile_ace_no_seal"),
    ({"pile_trump_ace_no_seal": "trump"}, "pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": True, "pile_ace_no_seal": "any"}, "pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": False, "pile_ace_no_seal": "trump"}, "pile_trump_ace_no_seal"),
    ({"pile_trump_ace_no_seal": True, "pile_ace_no_seal": "some"}, "pile_ace_no_seal"),
])
def test_bad_or_contradicting_ace_options_are_refused_naming_the_option(options, pointer):
    from referee.engine import OptionError

    with pytest.raises(OptionError) as exc:
        resolve("double-sir", options)
    assert exc.value.option == pointer


# Pile games ending by the pile rule or at 13 (a bid deal ends by its bid: tested with the bid games).
PILE_PRESETS = sorted(name for name in PRESETS if resolve(name).end in ("pile", "thirteen") and resolve(name).collection == "pile")


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PILE_PRESETS), seeds)
def test_random_pile_games_under_any_ace_collect_all_tricks_and_no_ace_seals(preset, seed):
    options = {"pile_ace_no_seal": "any"}
    deal = random_deal(resolve(preset, options), seed % 4, random.Random(seed))
    v = adjudicate(Record(preset=preset, options=options, deals=(deal,)))
    assert v["valid"], v["errors"]
    for d in v["deals"]:
        assert d["status"] == "complete" and d["pile"] == 0
        assert sum(d["tricks_won"]) == len(d["tricks"])
        if len(d["tricks"]) < 13:  # the pile game's own end: seven collected against at least one
            assert max(d["tricks_won"]) >= 7 and min(d["tricks_won"]) >= 1
        for t in d["tricks"][:12]:
            if t["collected"]:
                assert t["winning_card"][0] != "A", t  # an ace never completes a collecting pair


# -- closing during a deal, or before the target ---------------------------------------------

def closed(preset, deals, **options):
    from referee.engine import adjudicate_dict

    return adjudicate_dict({"preset": preset, "options": options, "closed": True, "deals": deals})


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
