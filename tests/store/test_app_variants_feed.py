"""The deployed apps' games in the feed: deal.finished carries the new results as any other
(docs/rules.md end.bid, score.bid-penalty, score.deals)."""
from tests.engine.test_app_variants import bid_deal
from tests.helpers import untricked, won_by


def test_a_bid_deal_finished_carries_its_result_and_the_penalty_loser_ends_the_match(store):
    t, key, _ = store.create_tournament("t", "bid-double-sir", {}, True)
    view, _ = store.create_match(t.id, key, {"players": ["A", "B", "C", "D"], "deals": []}, None)
    view = store.add_deal(view.match.id, key, view.etag, bid_deal(0, 0, 7, [1, 0, 0, 0, 0, 0, 0]))
    events = untricked(store.feed(t.id, key, 0, 1000)["events"])
    assert [e["type"] for e in events] == ["deal.finished"]
    result = events[0]["payload"]["result"]
    assert result["kind"] == "bid_made" and result["points"] == [0, 7]
    assert events[0]["payload"]["next_dealer"] == 1
    for dealer in (1, 2):  # team 0 bids 13 and fails at once, twice: 52 penalty points
        view = store.add_deal(view.match.id, key, view.etag, bid_deal(dealer, 0, 13, [1, 1]))
    assert view.match.status == "in_progress"
    view = store.add_deal(view.match.id, key, view.etag, bid_deal(3, 2, 13, [1, 1]))  # 78: team 0 loses
    events = untricked(store.feed(t.id, key, 0, 1000)["events"])
    assert [e["type"] for e in events][-3:] == ["deal.finished", "match.finished", "standings.changed"]
    assert events[-3]["payload"]["result"]["kind"] == "bid_failed"
    assert view.match.status == "finished"


def test_a_deals_scored_deal_finished_carries_its_point(store):
    t, key, _ = store.create_tournament("t", "court-piece", {"scoring": "deals", "target": 7}, True)
    view, _ = store.create_match(t.id, key, {"deals": []}, None)
    store.add_deal(view.match.id, key, view.etag, won_by(0, [0] * 7))
    event = untricked(store.feed(t.id, key, 0, 1000)["events"])[0]
    assert event["type"] == "deal.finished" and event["payload"]["result"]["points"] == [1, 0]


def test_a_band_rang_deal_finished_carries_its_deciding_pair(store):
    t, key, _ = store.create_tournament("t", "band-rang", {}, True)
    view, _ = store.create_match(t.id, key, {"deals": []}, None)
    store.add_deal(view.match.id, key, view.etag, won_by(0, [1, 0, 0]))
    event = untricked(store.feed(t.id, key, 0, 1000)["events"])[0]
    assert event["type"] == "deal.finished"
    assert event["payload"]["result"]["kind"] == "deciding_pair" and event["payload"]["result"]["pair"] == [2, 3]
