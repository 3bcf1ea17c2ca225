"""R-38, each part from a concrete deal: one zero-sum outcome; no tricks term under `score`;
a concession of tricks that cannot be lost is void (the award is never below f); a play-on
in progress at the close keeps its court. docs/rules.md's worked examples are these."""
from referee.engine import Deal, adjudicate_dict, resolve
from referee.engine.claims import ClaimEvent
from referee.engine.playrecord import PLAY, Event, TrumpSpec
from referee.solver import Outcome, SearchLimit, Solver, solve
from referee.solver import claims
from tests.helpers import searching

from .test_solver import CALLER_12, SPADES, cards

# court-piece, dealer 0, spades trumps: seat 1 (the caller, who leads) holds AS-3S and the 2H;
# seat 0 the 2S and the hearts AH-3H, seat 2 every diamond, seat 3 every club.
HANDS = [[c.text for c in h] for h in CALLER_12]


def court_piece(**options):
    return Deal(resolve("court-piece", options), 0, CALLER_12, TrumpSpec(suit="S"))


def trick(k: int) -> list[dict]:
    """Trick k (from 0) of the play above: seat 1 leads its k-th lowest spade, seat 2 a
    diamond, seat 3 a club, seat 0 the 2S, then its hearts: seat 1 wins it."""
    low = "3456789TJQKA"
    return [{"seat": 1, "play": low[k] + "S"}, {"seat": 2, "play": "23456789TJQKA"[k] + "D"},
            {"seat": 3, "play": "23456789TJQKA"[k] + "C"}, {"seat": 0, "play": "2S" if k == 0 else "23456789TJQKA"[k] + "H"}]


def closed(events: list[dict], hands=HANDS, **options) -> dict:
    record = {"preset": "court-piece", "options": {"target": None, **options}, "closed": True,
              "deals": [{"dealer": 0, "hands": hands, "trump": {"suit": "S"}, "events": events}]}
    return adjudicate_dict(record, searching())


# -- one outcome, zero-sum ------------------------------------------------------------------------

def test_the_outcome_is_zero_sum_the_other_team_s_is_its_negative():
    """Seat 1's team makes a court (+1 court, the deal won): after seat 1's first card, seat 2
    (the other team) is to play and its value is exactly the negative."""
    deal = court_piece(play_on=False)
    first = solve(deal, "score")
    assert first.value == Outcome(1, 1) and first.value.as_dict() == {"margin": 1, "deal": "won"}
    deal.push(Event(1, PLAY, first.line[0][1]))
    second = solve(deal, "score")
    assert second.to_play == 2 and second.value == Outcome(-1, -1)
    assert second.value.as_dict() == {"margin": -1, "deal": "lost"}


# -- no tricks term under score --------------------------------------------------------------------

def test_without_a_tricks_term_the_court_team_stops_where_playing_on_gains_only_tricks():
    """With play_on, seat 1 could play on after its court and take 12 tricks (it must lose the
    2H); that is a court too, so under `score` stopping is as good and the lowest-card line
    stops at the court; objective tricks still counts the 12."""
    score = solve(court_piece(), "score")
    assert score.value == Outcome(1, 1) and score.result["kind"] == "court" and score.tricks_won == (0, 7)
    assert solve(court_piece(), "tricks").value == 12


# -- a concession of tricks that cannot be lost is void -------------------------------------------

def test_a_concession_of_tricks_that_cannot_be_lost_is_awarded_f():
    """Seat 1 concedes everything (claim 0) at the first lead. Whatever all four seats play,
    seat 1's spades win every trick it trumps or leads: the other side can win one trick at
    most (the one seat 1 throws its 2H on), so the deal ends at seat 1's seventh trick:
    f = 7. The claim gets 7, and along R-34a's line the claimers make the court."""
    deal = court_piece()
    deal.push(ClaimEvent(1, "claim", 0))
    deal.push(ClaimEvent(2, "dispute"))
    line = claims.settle(deal, SearchLimit(2_000_000))
    assert line.claim["held"] is True and line.claim["awarded"] == 7 and line.claim["can_take"] == 12
    root = court_piece()
    fewest = Solver("fewest").prepare(root, 1)
    assert fewest.value() == 7  # R-38's f, its own search


def test_a_concession_at_the_table_is_settled_and_scored_never_refused():
    v = adjudicate_dict({"preset": "court-piece", "deals": [{"dealer": 0, "hands": HANDS, "trump": {"suit": "S"},
                         "events": [{"seat": 1, "claim": 0}, {"seat": 2, "accept": True}]}]}, searching())
    d = v["deals"][0]
    assert v["valid"] and d["status"] == "complete" and d["claim"]["awarded"] == 7
    assert d["result"]["winner"] == 1 and d["result"]["kind"] == "court" and d["tricks_won"] == [0, 7]


# -- a play-on in progress at the close keeps its court --------------------------------------------

def test_a_play_on_stopped_by_the_close_scores_the_court_of_the_first_seven():
    """Seat 1 takes the first seven tricks (a court), plays on and takes the eighth; the
    session is closed: the deal is not abandoned, it scores the court (no bavney)."""
    events = [e for k in range(8) for e in trick(k)]
    d = closed(events)["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [0, 8]
    assert d["result"]["kind"] == "court" and d["result"]["courts"] == [0, 1]
    assert d["at_close"] == {"perfect_play": False, "reason": "court_kept", "line": [], "rule": ["R-38", "R-10", "R-32"]}


def test_a_play_on_under_perfect_play_is_finished_by_perfect_play_a_bavney_when_it_takes_all_13():
    """The same eight tricks, but seat 1 holds all thirteen spades (seat 0 the 2H instead of
    the 2S): under abandoned_deal perfect_play the referee plays the play-on out, and it takes
    all 13: a bavney."""
    hands = [[c.text for c in cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H")], [c.text for c in cards(SPADES + " 2S")],
             HANDS[2], HANDS[3]]
    events = [e if e != {"seat": 0, "play": "2S"} else {"seat": 0, "play": "2H"} for k in range(8) for e in trick(k)]
    d = closed(events, hands, abandoned_deal="perfect_play")["deals"][0]
    assert d["status"] == "complete" and d["tricks_won"] == [0, 13] and d["result"]["kind"] == "bavney"
    assert d["at_close"]["perfect_play"] is True and len(d["at_close"]["line"]) == 20
    kept = closed(events, hands)["deals"][0]  # without perfect_play: the court of the first seven
    assert kept["result"]["kind"] == "court" and kept["tricks_won"] == [0, 8]
