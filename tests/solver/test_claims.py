"""Claims (R-33) and their settling (R-34), each case a worked example written by hand.

Every endgame (tests/solver/claim_deals.py) is ten filler tricks, each four cards of one
suit won by the seats listed, then each seat's last three cards as given. W below leaves
team 0 with 6 tricks and team 1 with 4, trick 10 won by seat 0."""
import pytest

from referee.engine import adjudicate_dict
from tests.helpers import searching

from .claim_deals import claimed, endgame, plays

W = [1, 1, 1, 0, 0, 0, 0, 3, 2, 0]
SPADES = {"suit": "S"}


def claim_of(v):
    assert v["valid"], v["errors"]
    return v["deals"][0]["claim"]


def test_a_claim_that_holds_takes_what_it_claimed_along_the_lowest_cards():
    # Seat 0 holds the three top trumps AS KS QS and claims all three: nothing beats them.
    # The line: seat 0 leads its lowest trump each time, everyone plays their lowest legal card.
    v = claimed("seven-courts", ["AS KS QS", "JS AH KH", "TS QH 2D", "JH TH 2C"], W, (0, 3), trump=SPADES)
    c = claim_of(v)
    assert (c["seat"], c["tricks"], c["answer"], c["answered_by"]) == (0, 3, "dispute", 1)
    assert (c["held"], c["can_take"], c["awarded"], c["defence"]) == (True, 3, 3, None)
    assert plays(c["line"]) == "0:QS 1:JS 2:TS 3:2C 0:KS 1:KH 2:2D 3:TH 0:AS 1:AH 2:QH 3:JH"
    assert c["rule"] == ["R-34", "R-34a", "R-33", "perfect.play"]
    d = v["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [9, 4] and len(d["tricks"]) == 13
    assert d["tricks"][-1]["cards"][0] == {"seat": 0, "card": "AS", "event": 50, "trump": True}  # numbered on
    assert (d["result"]["winner"], d["result"]["kind"]) == (0, "win")  # 9 of 13 under deal-courts


def test_a_claim_that_fails_gets_what_perfect_play_makes_and_shows_the_defence():
    # Seat 0: AS KS QH. Two trump tricks are sure, but the QH loses to seat 1's AH, whenever
    # it is played: the claim of 3 fails, g = 2. The defence: seat 0 leads its lowest card,
    # QH; seat 1 wins with the AH and leads 2C; seat 3 ruffs with TS, seat 0 overruffs with
    # KS, and cashes the AS.
    v = claimed("seven-courts", ["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W, (0, 3), trump=SPADES)
    c = claim_of(v)
    assert (c["held"], c["can_take"], c["awarded"]) == (False, 2, 2)
    assert plays(c["defence"]) == "0:QH 1:AH 2:KH 3:TH 1:2C 2:2D 3:TS 0:KS 0:AS 1:JH 2:QS 3:JS"
    assert c["line"] == c["defence"]  # every line giving 2 ends the same: the lowest cards decide
    assert v["deals"][0]["tricks_won"] == [8, 5]


def test_an_accepted_claim_no_line_can_make_is_settled_as_disputed():
    # Seat 1 holds the AS, which wins a trick whenever it is played: no line at all gives
    # team 0 all three, so the accepted claim of 3 gets g = 2, like a disputed one.
    final = ["KS QS AH", "AS 2D 2C", "JS KH QH", "TS JH TH"]
    accepted = claim_of(claimed("seven-courts", final, W, (0, 3), "accept", trump=SPADES))
    disputed = claim_of(claimed("seven-courts", final, W, (0, 3), "dispute", trump=SPADES))
    assert (accepted["answer"], accepted["held"], accepted["awarded"]) == ("accept", False, 2)
    assert {k: v for k, v in accepted.items() if k != "answer"} == {k: v for k, v in disputed.items() if k != "answer"}
    assert plays(accepted["line"]).startswith("0:QS 1:AS")


def test_an_accepted_claim_some_line_makes_gets_what_it_claimed():
    # The position where perfect play makes only 2 (seat 1's AH takes the QH): accepted, the
    # claim of 3 stands, since seat 1 may discard the AH on a spade lead.
    c = claim_of(claimed("seven-courts", ["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W, (0, 3), "accept",
                         trump=SPADES))
    assert (c["held"], c["can_take"], c["awarded"]) == (False, 2, 3)
    line = plays(c["line"])
    assert "1:AH" in line.split(" ")[1:4] or "1:AH" in line  # the ace thrown away somewhere
    assert c["defence"] is not None


def test_conceding_with_0():
    # Seat 1 is on lead (5 tricks each) and seat 0 holds the three top trumps: team 1
    # concedes them all.
    v = claimed("seven-courts", ["AS KS QS", "JS AH KH", "TS QH 2D", "JH TH 2C"], W[:-1] + [1], (1, 0), trump=SPADES)
    c = claim_of(v)
    assert (c["tricks"], c["held"], c["can_take"], c["awarded"], c["defence"]) == (0, True, 0, 0, None)
    assert v["deals"][0]["tricks_won"] == [8, 5]


def test_an_under_claim_is_held_to_what_was_claimed():
    # Seat 0 (AH KH QH, no trumps) with partner seat 2 (AS, two small cards) can take 2
    # against any defence, but claims 1: a claim concedes the rest, so team 0 gets 1.
    v = claimed("seven-courts", ["AH KH QH", "JS TS JH", "AS 2D 2C", "KS QS TH"], W, (0, 1), trump=SPADES)
    c = claim_of(v)
    assert (c["held"], c["can_take"], c["awarded"], c["defence"]) == (True, 2, 1, None)
    # the AS takes the first trick, then seat 3's trumps take the last two
    assert plays(c["line"]) == "0:QH 1:JH 2:AS 3:TH 2:2D 3:QS 0:KH 1:TS 3:KS 0:AH 1:JS 2:2C"
    assert v["deals"][0]["tricks_won"] == [7, 6]


def test_a_claim_in_a_pile_game_counts_the_pile_and_stops_at_the_deal_s_own_end():
    # Double Sir: tricks 9 and 10 (seats 0 and 2) lie in the pile, 4 tricks collected by each
    # team. Seat 2, who won trick 10, holds AS KS QS and claims all 5 (3 tricks + the pile of
    # 2). Winning trick 11 collects the pile and the trick: 7 against 4, and a pile game ends
    # there (end.pile), so team 0 can take only 3 of them: the claim fails and the deal ends
    # at trick 11.
    v = claimed("double-sir", ["JS AH KH", "TS QH 2D", "AS KS QS", "JH TH 2C"], [1, 1, 0, 0, 2, 2, 3, 3, 0, 2],
                (2, 5), trump=SPADES)
    c = claim_of(v)
    assert (c["held"], c["can_take"], c["awarded"]) == (False, 3, 3)
    assert plays(c["line"]) == plays(c["defence"]) == "2:QS 3:2C 0:JS 1:TS"
    d = v["deals"][0]
    assert d["tricks_won"] == [7, 4] and len(d["tricks"]) == 11 and d["tricks"][-1]["collected"] == 3
    assert d["result"]["rule"][0] == "end.pile"


def test_a_claim_in_a_pile_game_may_not_claim_more_than_the_tricks_and_the_pile():
    v = claimed("double-sir", ["JS AH KH", "TS QH 2D", "AS KS QS", "JH TH 2C"], [1, 1, 0, 0, 2, 2, 3, 3, 0, 2],
                (2, 6), trump=SPADES)
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("bad_claim", 40)]
    assert "only 5 remain" in v["errors"][0]["message"]


def test_a_claim_in_mendikot_is_finished_by_perfect_play_restricted_to_the_award():
    # No trump yet (first_void). Seat 0 holds AS KS QS; seat 3 (6S TD TC) shows out on the
    # second spade, setting the trump with a ten, and takes the last two tricks: g = 1. The
    # line (R-34a) is perfect play among the lines giving team 0 exactly that one trick: the
    # count is fixed, the tens are fought for. Seat 1 keeps the TS off team 0's trick (9S,
    # as in the defence), drops it under seat 3's TD ruff, and team 1 takes all four tens: a
    # mendikot (the best line for team 0 alone would have seat 1 give it the TS: a mendi).
    v = claimed("mendikot", ["AS KS QS", "JS TS 9S", "8S 7S TH", "6S TD TC"], W, (0, 3))
    c = claim_of(v)
    assert (c["held"], c["can_take"], c["awarded"]) == (False, 1, 1)
    assert plays(c["line"]) == "0:QS 1:9S 2:7S 3:6S 0:KS 1:TS 2:8S 3:TD 3:TC 0:AS 1:JS 2:TH"
    assert plays(c["defence"]).startswith("0:QS 1:9S 2:7S 3:6S")
    r = v["deals"][0]["result"]
    assert (r["winner"], r["kind"], r["tens"], r["points"]) == (1, "mendikot", [0, 4], [0, 2])


HIDDEN = ["AH KH QH", "2S JH TH", "AS KS QS", "JS 2D 2C"]  # seat 1 (the caller) laid the 2S face down
HIDDEN_W = [1, 1, 1, 0, 0, 0, 0, 3, 3, 2]


def test_a_claim_with_the_hidden_trump_still_face_down_shows_it():
    # rr-hidden-rung: the 2S lies face down at the claim. The claim shows it, so spades are
    # trumps from then on: seat 2 draws the caller's 2S with the QS and wins the KS too:
    # team 0 reaches 7 tricks and the deal ends there (end.seven) after 2 of the 3.
    v = claimed("rr-hidden-rung", HIDDEN, HIDDEN_W, (2, 2), trump={"hidden": "2S"})
    c = claim_of(v)
    assert (c["held"], c["can_take"], c["awarded"]) == (True, 2, 2)
    assert plays(c["line"]) == "2:QS 3:JS 0:QH 1:2S 2:KS 3:2D 0:KH 1:TH"
    d = v["deals"][0]
    assert d["trump"]["revealed"] == {"trick": 11, "event": 40, "seat": 2, "how": "claim", "rule": ["R-33"]}
    assert d["tricks_won"] == [7, 5] and d["result"]["points"] == [2, 0]  # the defenders win
    assert d["tricks"][-2]["cards"][3] == {"seat": 1, "card": "2S", "event": 45, "trump": True}


def test_a_claim_of_every_trick_left_fails_where_the_deal_ends_first():
    # The same, claiming all 3: the deal ends at seven tricks, after 2 of them (R-34: up to
    # the deal's own end).
    c = claim_of(claimed("rr-hidden-rung", HIDDEN, HIDDEN_W, (2, 3), trump={"hidden": "2S"}))
    assert (c["held"], c["can_take"], c["awarded"]) == (False, 2, 2)


# -- record errors (R-33) ----------------------------------------------------------------------

def judged(final, winners, extra, preset="seven-courts", hands=True, trump=SPADES, settler=None):
    hands_, events = endgame(final, winners)
    deal = {"dealer": 0, "trump": trump, "events": events + extra}
    if hands:
        deal["hands"] = hands_
    return adjudicate_dict({"preset": preset, "deals": [deal]}, settler or searching())


FINAL = ["AS KS QS", "JS AH KH", "TS QH 2D", "JH TH 2C"]


@pytest.mark.parametrize("extra,code,event", [
    ([{"seat": 1, "claim": 3}], "bad_claim", 40),                                         # seat 0's turn
    ([{"seat": 0, "claim": 4}], "bad_claim", 40),                                         # 3 tricks left
    ([{"seat": 0, "claim": 3}, {"seat": 2, "accept": True}], "bad_answer", 41),           # the claimer's partner
    ([{"seat": 1, "accept": True}], "bad_answer", 40),                                    # no claim
    ([{"seat": 0, "claim": 3}, {"seat": 0, "play": "QS"}], "play_after_claim", 41),       # before the answer
    ([{"seat": 0, "claim": 3}, {"seat": 0, "claim": 2}], "bad_claim", 41),                # a second claim
    ([{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}, {"seat": 0, "play": "QS"}], "play_after_claim", 42),
])
def test_claim_record_errors_name_their_deal_and_event(extra, code, event):
    v = judged(FINAL, W, extra)
    assert [(e["code"], e["deal"], e["event"], e["rule"]) for e in v["errors"]] == [(code, 0, event, ["R-33"])]


def test_a_claim_without_hands_is_the_record_error_claim_without_hands():
    v = judged(FINAL, W, [{"seat": 0, "claim": 3}, {"seat": 1, "accept": True}], hands=False)
    assert [(e["code"], e["event"]) for e in v["errors"]] == [("claim_without_hands", 40)]
    assert v["deals"][0]["status"] == "invalid"


def test_a_claim_waiting_for_its_answer_holds_the_deal_and_next_says_so():
    v = judged(FINAL, W, [{"seat": 0, "claim": 3}])
    assert v["valid"]
    d = v["deals"][0]
    assert d["status"] == "in_progress" and d["claim"] == {
        "seat": 0, "tricks": 3, "event": 40, "answer": None, "answered_by": None}
    assert v["next"]["to_play"] is None and v["next"]["legal"] is None
    assert v["next"]["claim"] == {"seat": 0, "tricks": 3, "event": 40, "answer_from": [1, 3], "rule": ["R-33"]}


def test_a_claim_past_the_search_limit_is_the_record_error_claim_unsettled():
    v = judged(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W, [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}],
               settler=searching(claim_nodes=5))
    assert [(e["code"], e["event"], e["rule"]) for e in v["errors"]] == [("claim_unsettled", 40, ["R-34"])]
    assert "limit for one claim (5 nodes)" in v["errors"][0]["message"]
    assert v["deals"][0]["status"] == "invalid" and v["deals"][0]["result"] is None


def test_a_claim_past_the_limit_is_searched_once_however_often_its_record_is_judged(monkeypatch):
    """The same record is often judged again (a client's retries): the failed search is
    remembered like a settled one (a node limit fails the same way every time)."""
    from referee.solver import claims

    searches = []
    real = claims._settle
    monkeypatch.setattr(claims, "_settle", lambda deal, limit, core=None: searches.append(1) or real(deal, limit, core))
    claims._cache.clear()
    answer = [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    verdicts = [judged(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W, answer, settler=searching(claim_nodes=5))
                for _ in range(3)]
    claims._cache.clear()
    assert len(searches) == 1
    assert all([e["code"] for e in v["errors"]] == ["claim_unsettled"] for v in verdicts)


def test_a_claim_remembered_past_a_small_limit_is_searched_again_under_a_larger_one():
    """What a search finds depends on its node limit: each limit has its own outcome."""
    from referee.solver import claims

    claims._cache.clear()
    answer = [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    small = judged(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W, answer, settler=searching(claim_nodes=5))
    large = judged(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W, answer)
    claims._cache.clear()
    assert [e["code"] for e in small["errors"]] == ["claim_unsettled"] and large["valid"]


# -- the deal at the bell (R-32, abandoned_deal: perfect_play) -------------------------------------

def closed_during(final, winners, hands=True, **options):
    hands_, events = endgame(final, winners)
    deal = {"dealer": 0, "trump": SPADES, "events": events}
    if hands:
        deal["hands"] = hands_
    return adjudicate_dict({"preset": "seven-courts", "options": options, "closed": True, "deals": [deal]}, searching())


def test_at_the_bell_perfect_play_finishes_the_deal_and_scores_it():
    # Three tricks left, seat 0 on lead with AS KS QS: perfect play gives team 0 all three,
    # 9 of 13 under deal-courts: a defenders' win, 1 court, and the closed match goes to team 0.
    v = closed_during(FINAL, W, abandoned_deal="perfect_play")
    assert v["valid"] and v["next"] is None
    d = v["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [9, 4] and len(d["tricks"]) == 13
    assert (d["result"]["winner"], d["result"]["courts"]) == (0, [1, 0])
    assert d["at_close"] == {"perfect_play": True, "reason": None, "event": 40, "rule": ["R-32", "perfect.play"],
                             "line": d["at_close"]["line"]}
    assert plays(d["at_close"]["line"]) == "0:QS 1:JS 2:TS 3:2C 0:KS 1:KH 2:2D 3:TH 0:AS 1:AH 2:QH 3:JH"
    assert (v["match"]["courts"], v["match"]["winner"], v["match"]["finished"]) == ([1, 0], 0, True)
    assert v["match"]["rule"] == ["match.closed", "R-26", "R-32"]  # before the target, too


def test_at_the_bell_a_deal_without_hands_is_abandoned_and_says_why():
    v = closed_during(FINAL, W, hands=False, abandoned_deal="perfect_play")
    d = v["deals"][0]
    assert d["status"] == "abandoned" and d["result"] is None
    assert d["at_close"] == {"perfect_play": False, "reason": "no_hands", "line": [], "rule": ["R-32"]}
    assert v["match"]["winner"] is None and v["match"]["rule"] == ["match.closed", "R-26", "R-32"]


def test_at_the_bell_without_the_option_the_deal_is_abandoned_as_before():
    d = closed_during(FINAL, W)["deals"][0]
    assert d["status"] == "abandoned" and "at_close" not in d


def test_referee_check_prints_the_claim(tmp_path, capsys):
    import json

    from referee.cli import main

    hands, events = endgame(["AS KS QH", "AH JH 2C", "QS KH 2D", "JS TS TH"], W)
    events += [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    path = tmp_path / "claim.json"
    path.write_text(json.dumps({"preset": "seven-courts", "deals": [
        {"dealer": 0, "hands": hands, "trump": SPADES, "events": events}]}))
    main(["check", str(path)])
    out = capsys.readouterr().out
    assert ("  claim: seat 0 claims 3 of the remaining tricks (event 41), disputed by seat 1: did not hold "
            "(can take 2), awarded 2  [rule R-34, R-34a, R-33, perfect.play]") in out
    assert "  the referee's line: 0:Q♥ 1:A♥ 2:K♥ 3:10♥ 1:2♣" in out
    assert "  the defence that beats it: 0:Q♥ 1:A♥" in out
