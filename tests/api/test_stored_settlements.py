"""A stored match's settled claims and bell lines are kept with their revision (its verdict's
`claim.line`, `at_close.line`): no reader searches again (issue 33: a match page whose claim
had dropped out of the 256-entry cache took 48.8 s). Readers replay the recorded lines,
checked against the position."""
from referee.engine import Record, adjudicate_dict, deal_steps, judge, resolve
from referee.settlers import Recorded
from tests.api.test_matches import auth, feed, start
from tests.helpers import searching
from tests.solver.claim_deals import endgame

W = [1, 1, 1, 0, 0, 0, 0, 3, 2, 0]
FINAL = ["AS KS QS", "JS AH KH", "TS QH 2D", "JH TH 2C"]


def endgame_deal(**changes):
    hands, events = endgame(FINAL, W)
    return {"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events, **changes}


def test_no_reader_of_a_stored_claim_or_bell_searches_again(client, searches):
    claimed = endgame_deal()
    claimed["events"] += [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    t, mid, etag = start(client, "seven-courts", [claimed, endgame_deal()], abandoned_deal="perfect_play")
    r = client.post(f"/v1/matches/{mid}/close", headers=auth(t["key"], etag))
    assert r.status_code == 200 and ("bell", 1) in searches
    written = list(searches)  # what the writes searched
    verdict = r.get_json()["verdict"]
    assert verdict["deals"][0]["claim"]["awarded"] == 3 and verdict["deals"][1]["at_close"]["perfect_play"]

    from referee.solver import claims

    claims._cache.clear()
    key = {"Authorization": f"Bearer {t['key']}"}
    reads = [f"/v1/matches/{mid}", f"/matches/{mid}", f"/matches/{mid}/deals/0", f"/matches/{mid}/deals/1",
             f"/v1/matches/{mid}/revisions", f"/v1/matches/{mid}/revisions/2", f"/matches/{mid}/revisions/2",
             f"/matches/{mid}/revisions/2/deals/0", f"/v1/tournaments/{t['id']}/standings",
             f"/tournaments/{t['id']}", f"/v1/matches/{mid}/analysis?deal=0"]
    for path in reads:
        for headers in (key, {}):
            assert client.get(path, headers=headers).status_code == 200, path
    assert feed(client, t).status_code == 200
    assert searches == written  # no reader searched
    steps = client.get(f"/matches/{mid}/deals/0").get_json()["steps"]
    assert len(steps) == 1 + len(claimed["events"]) + 12  # the referee's twelve plays along the recorded line


def stored_claim():
    deal = endgame_deal()
    deal["events"] += [{"seat": 0, "claim": 3}, {"seat": 1, "dispute": True}]
    record = {"preset": "seven-courts", "deals": [deal]}
    return record, adjudicate_dict(record, searching())


def test_a_recorded_line_replays_the_claim_as_the_search_settled_it(searches):
    record, verdict = stored_claim()
    rec = Record.from_dict(record)
    steps = deal_steps(resolve("seven-courts"), rec.deals[0], Recorded(verdict), 0)
    assert steps[-1].tricks_won == tuple(verdict["deals"][0]["tricks_won"])
    assert searches == [("claim", 0)]  # the one that made the verdict


def test_a_recorded_line_that_does_not_fit_its_position_is_not_played(searches):
    record, verdict = stored_claim()
    claim = verdict["deals"][0]["claim"]
    line = claim["line"]
    wrong = [{**claim, "line": [line[1]] + line[:1] + line[2:]},           # out of turn
             {**claim, "line": line[:-4]},                                  # stops before the deal's end
             {**claim, "line": [{**line[0], "card": "2H"}] + line[1:]},     # a card nobody holds
             {**claim, "tricks": 2}]                                        # another claim's settlement
    for bad in wrong:
        stored = {**verdict, "deals": [{**verdict["deals"][0], "claim": bad}]}
        judged = judge(Record.from_dict(record), settler=Recorded(stored)).as_dict()
        assert [e["code"] for e in judged["errors"]] == ["claim_unsettled"]
        assert "recorded with this revision that fits its position" in judged["errors"][0]["message"]
    assert searches == [("claim", 0)]  # the one that made the verdict


def bell_with_a_reveal() -> dict:
    """Rung Royal's Hidden Rung played at random to three tricks from the end and closed under
    perfect_play: perfect play there shows the face-down trump (a reveal in the bell's line)."""
    import random

    from referee.engine import Deal
    from referee.engine.playrecord import PLAY, Event
    from referee.engine.simulate import choose_trump, deal_hands

    options, rng = resolve("rr-hidden-rung"), random.Random(0)
    hands = deal_hands(rng)
    dealer = rng.randrange(4)
    trump = choose_trump(options, dealer, hands, rng, None)
    deal, events = Deal(options, dealer, hands, trump, None), []
    while len(events) < 40:
        deal.finish()
        if deal.can_reveal():
            rng.random()  # the draw of tests/solver/positions.py, which found this deal: no reveal
        card = rng.choice(deal.legal_plays())
        events.append({"seat": deal.to_play, "play": card.text})
        deal.push(Event(deal.to_play, PLAY, card))
    return {"preset": "rr-hidden-rung", "options": {"abandoned_deal": "perfect_play"}, "closed": True,
            "deals": [{"dealer": dealer, "hands": [[c.text for c in h] for h in hands],
                       "trump": {"hidden": trump.hidden.text}, "events": events}]}


def test_a_bell_line_that_shows_the_face_down_trump_is_judged_and_replayed(searches):
    record = bell_with_a_reveal()
    verdict = adjudicate_dict(record, searching())  # it was a 500: the line's reveal has no card
    at_close = verdict["deals"][0]["at_close"]
    assert verdict["valid"] and at_close["perfect_play"] and "reveal" in [p["card"] for p in at_close["line"]]
    replayed = judge(Record.from_dict(record), settler=Recorded(verdict)).as_dict()
    assert replayed == verdict and searches == [("bell", 0)]  # the reader played the recorded line


def test_the_bell_s_reveal_is_in_the_contract(client):
    from tests.api.spec import validate_response

    r = client.post("/v1/verdicts", json=bell_with_a_reveal())
    validate_response(r, "/v1/verdicts", "post")
    assert r.status_code == 200 and "reveal" in [p["card"] for p in r.get_json()["deals"][0]["at_close"]["line"]]
