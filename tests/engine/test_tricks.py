"""trick.follow and trick.winner: following suit and who wins a trick."""
from tests.helpers import deal, ev, verdict


def first_trick(events, trump="S", preset="court-piece", **options):
    v = verdict(preset, [deal(0, events, {"suit": trump})], **options)
    assert v["valid"], v["errors"]
    return v["deals"][0]["tricks"][0]


def test_small_trump_wins_on_a_heart_lead_seed_002():
    # Spades trumps. North leads KH, West AH, South has no hearts and plays 3S, East 5H.
    trick = first_trick(ev("1:KH 2:AH 3:3S 0:5H"), trump="S")
    assert trick["winner"] == 3
    assert trick["winning_card"] == "3S"
    assert [c["trump"] for c in trick["cards"] if c.get("trump")] == [True]


def test_without_trumps_the_highest_card_of_the_suit_led_wins():
    trick = first_trick(ev("1:9D 2:KD 3:AC 0:QD"), trump="S")
    assert trick["winner"] == 2 and trick["winning_card"] == "KD"


def test_higher_trump_beats_lower_trump():
    trick = first_trick(ev("1:AH 2:2S 3:KS 0:3H"), trump="S")
    assert trick["winner"] == 3


def test_caller_leads_the_first_trick_and_winner_leads_the_next():
    v = verdict("court-piece", [deal(2, ev("3:AH 0:2H 1:3H 2:4H 3:KH 0:5H"), {"suit": "S"})])
    assert v["deals"][0]["caller"] == 3
    assert v["deals"][0]["tricks"][0]["leader"] == 3
    assert v["next"]["to_play"] == 1 and v["next"]["trick"] == 2


def test_first_trick_led_by_anyone_but_the_caller_is_out_of_turn():
    v = verdict("court-piece", [deal(0, ev("0:AH"), {"suit": "S"})])
    assert not v["valid"]
    assert v["errors"][0]["code"] == "out_of_turn" and v["errors"][0]["event"] == 0


def test_the_verdict_object_names_what_the_dict_shows():
    from referee.engine import Record, judge
    from tests.helpers import deal as deal_json

    data = {"preset": "court-piece", "deals": [deal_json(0, ev("1:KH 2:AH 3:3S 0:5H 3:2D"), {"suit": "S"})]}
    record = Record.from_dict(data)
    v = judge(record)
    assert v.valid and v.as_dict() == verdict("court-piece", data["deals"])
    trick = v.deals[0].tricks[0]
    assert trick.winner == 3 and str(trick.winning_card) == "3S"
    assert [(p.seat, str(p.card), p.event, p.trump) for p in trick.cards] == [
        (1, "KH", 0, False), (2, "AH", 1, False), (3, "3S", 2, True), (0, "5H", 3, False)]
    assert v.deals[0].status == "in_progress" and v.next["to_play"] == 0
