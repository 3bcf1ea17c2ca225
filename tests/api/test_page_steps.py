"""The page's step data is the judging replay's state at every event (checked against the
engine's own Deal there, `position`), and a record of many deals opens each deal on its
own: its steps and tricks fetched when it is opened, hidden from readers without the key
exactly as the page hides them."""
import json
import re

import pytest

from referee.engine import Record, judge, position
from referee.engine.cards import in_hand_order
from tests.api.test_matches import auth, make_tournament, post_match
from tests.engine.test_golden import RECORDS
from tests.helpers import round_robin_hands, searching, won_by

STEPS = re.compile(r'<script type="application/json" class="steps">(.*?)</script>', re.S)
SRC = re.compile(r'<details class="deal-more" data-src="([^"]+)" data-deal="(\d+)"')


def page_steps(page: str) -> list[list[dict]]:
    return [json.loads(m) for m in STEPS.findall(page)]


def engine_state(record: Record, deal: int, event: int, ignored: list[int]) -> dict:
    """What the page must show after `event`, read from the engine's Deal there: after a
    penalty (R-11) an event is ignored and the deal stays as the penalty trick left it."""
    if event in ignored:
        return dict(engine_state(record, deal, ignored[0] - 1, []), to_play=None, legal=None, table=[], won=None,
                    ignored=True)
    d = position(record, deal, event + 1)
    legal = d.legal_plays()
    closed = d.filled == 0 and d.tricks and max(p[2] for p in d.tricks[-1].plays) == event
    won = d.tricks[-1] if closed else None
    return {"to_play": d.to_play, "tricks_won": list(d.tricks_won), "pile": d.collection.pile,
            "trump": d.trump.suit, "trump_hidden": d.trump.is_hidden,
            "legal": None if legal is None else [c.text for c in in_hand_order(legal)],
            "hands": None if d.hands is None else [[c.text for c in in_hand_order(h)] for h in d.hands],
            "table": [{"seat": p[0], "card": p[1].text, "face_down": p[3], "event": p[2]}
                      for p in (won.plays if won else [p for p in d.slots if p is not None])],
            "won": None if won is None else {"winner": won.winner, "winning_card": won.winning_card.text,
                                             "collected_by": won.collected_by, "collected": won.collected,
                                             "pile_after": won.pile_after},
            "ignored": False}


def shown(step: dict) -> dict:
    return {k: step[k] for k in ("to_play", "tricks_won", "pile", "trump", "trump_hidden", "legal", "hands", "table",
                                 "won", "ignored")}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_the_pages_steps_are_the_engines_state_at_every_event(client, path):
    data = json.loads(path.read_text())["record"]
    record = Record.from_dict(data)
    page = client.post("/check", data={"record": json.dumps(data)}).get_data(as_text=True)
    deals = page_steps(page)
    verdict = judge(record, settler=searching()).as_dict()
    assert len(deals) == len(record.deals)
    for i, steps in enumerate(deals):
        ignored = verdict["deals"][i].get("ignored_events", [])
        assert [s["event"] for s in steps if "error" not in s] == list(range(-1, len(steps) - 1))
        for step in steps:
            if step.get("referee"):  # the referee's plays (R-34, R-34b, R-32): past the record's events
                assert step["event"] >= len(record.deals[i].events)
            elif "error" not in step:
                assert shown(step) == engine_state(record, i, step["event"], ignored), (i, step["event"])
        if ignored:  # the last step counts what the verdict counts
            assert steps[-1]["tricks_won"] == verdict["deals"][i]["tricks_won"]


def test_at_the_last_card_the_step_bar_counts_the_last_trick(client):
    """examples/double-sir.json: the last step's tricks are the result's (13-0), not 9-0."""
    data = json.loads((RECORDS[0].parents[3] / "examples" / "double-sir.json").read_text())
    page = client.post("/check", data={"record": json.dumps(data)}).get_data(as_text=True)
    last = page_steps(page)[0][-1]
    assert last["tricks_won"] == [13, 0] and last["won"]["collected"] > 1


def test_a_big_record_opens_each_deal_with_its_steps(app, client):
    path = RECORDS[0].parent / "seven-deals-in-a-row.json"
    data = json.loads(path.read_text())["record"]
    inline = page_steps(client.post("/check", data={"record": json.dumps(data)}).get_data(as_text=True))
    app.config["PAGE_INLINE_DEALS"] = 2
    r = client.post("/check/deals/0", json=data)
    assert r.get_json()["steps"] == inline[0]
    page = client.post("/check", data={"record": json.dumps(data)}).get_data(as_text=True)
    assert page_steps(page) == inline[:1] and 'id="record-json"' in page  # the first deal is whole
    sources = SRC.findall(page)
    assert [int(i) for _, i in sources] == list(range(1, len(data["deals"])))
    for src, i in sources:
        r = client.post(src, json=data)
        assert r.status_code == 200, r.get_data()
        answer = r.get_json()
        assert answer["deal"] == int(i) and answer["steps"] == inline[int(i)]
        assert f'id="deal-{i}-trick-1"' in answer["html"] and 'class="stepper"' in answer["html"]


def test_a_deal_the_record_does_not_have_is_404_and_a_bad_body_422(client):
    data = json.loads((RECORDS[0].parent / "revoke-proven-later.json").read_text())["record"]
    r = client.post("/check/deals/1", json=data)
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    r = client.post("/check/deals/0", json={"preset": "court-piece", "deals": [{"dealer": 9}]})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/deals/0/dealer"


def test_a_stored_deal_opened_alone_is_hidden_as_the_page_hides_it(store_app, store_client):
    t = make_tournament(store_client)
    finished = won_by(0, [1] * 7, hands=True)
    live = {"dealer": 2, "trump": {"suit": "S"}, "hands": round_robin_hands(),
            "events": [{"seat": 3, "play": round_robin_hands()[3][0]}]}
    mid = post_match(store_client, t, [finished, live]).get_json()["id"]
    for headers in ({}, auth(t["key"])):
        store_app.config["PAGE_INLINE_DEALS"] = 40
        inline = page_steps(store_client.get(f"/matches/{mid}", headers=headers).get_data(as_text=True))
        store_app.config["PAGE_INLINE_DEALS"] = 1
        page = store_client.get(f"/matches/{mid}", headers=headers).get_data(as_text=True)
        assert page_steps(page) == inline[:1] and 'id="record-json"' not in page
        for src, i in SRC.findall(page):
            answer = store_client.get(src, headers=headers).get_json()
            assert answer["steps"] == inline[int(i)]
        hands = store_client.get(f"/matches/{mid}/deals/1", headers=headers).get_json()["steps"][-1]["hands"]
        assert (hands is None) == (headers == {})  # the live deal's hands: the key holder's only
    assert store_client.get(f"/matches/{mid}/deals/2").status_code == 404
    assert store_client.get(f"/matches/{mid}/revisions/1/deals/1").get_json()["steps"][-1]["hands"] is None


EVENTS = re.compile(r'class="stepper" data-deal="(\d+)"[^>]*data-events="(\d+)"')
EXAMPLES = RECORDS[0].parents[3] / "examples"


def _stored_records() -> list[tuple[str, dict]]:
    """Every worked example and every golden record a tournament would store (a valid one)."""
    from referee.engine import adjudicate_dict

    found = [(p.name, json.loads(p.read_text())) for p in sorted(EXAMPLES.glob("*.json"))]
    found += [(p.name, json.loads(p.read_text())["record"]) for p in RECORDS]
    return [(name, data) for name, data in found if adjudicate_dict(data)["valid"]]


@pytest.mark.parametrize("name, data", _stored_records(), ids=[n for n, _ in _stored_records()])
def test_a_stored_matchs_page_steps_and_counts_as_check_of_the_same_record(client, name, data):
    """One replay: a match page shows the steps the judging replay keeps, with the step bar's
    event count, exactly as the same record pasted at /check (a settled claim's line and the
    bell's perfect play included, not a second replay that stops at the record's last event)."""
    t = make_tournament(client, preset=data["preset"], **data.get("options", {}))
    body = {"tournament": t["id"], "record": {k: v for k, v in data.items() if k != "preset"}}
    stored = client.post("/v1/matches", json=body, headers=auth(t["key"])).get_json()
    page = client.get(f"/matches/{stored['id']}", headers=auth(t["key"])).get_data(as_text=True)
    pasted = client.post("/check", data={"record": json.dumps(stored["record"])}).get_data(as_text=True)
    assert page_steps(page) == page_steps(pasted) and len(page_steps(page)) == len(data["deals"])
    assert EVENTS.findall(page) == EVENTS.findall(pasted)
    for steps, (deal, counted), verdict in zip(page_steps(page), EVENTS.findall(page), stored["verdict"]["deals"]):
        assert int(counted) == steps[-1]["event"] + 1 or steps[-1].get("ignored") or "error" in steps[-1]
        if verdict.get("claim") or (verdict.get("at_close") or {}).get("perfect_play"):  # the referee's plays step
            referee = [s for s in steps if s.get("referee")]
            line = (verdict.get("claim") or {}).get("line") or verdict["at_close"]["line"]
            assert [s["table"][-1]["card"] for s in referee] == [p["card"] for p in line], deal
        if verdict["status"] in ("complete", "ended_by_penalty"):
            assert steps[-1]["tricks_won"] == verdict["tricks_won"], deal


def test_the_bell_deal_of_a_stored_match_steps_to_its_end(client):
    """The newcomer's case: closed at the bell under abandoned_deal perfect_play, the page
    steps past the record's 36 events through the referee's 12 plays to the verdict's 5-7."""
    data = json.loads((EXAMPLES / "closed-at-the-bell.json").read_text())
    t = make_tournament(client, **data["options"])
    body = {"tournament": t["id"], "record": {k: v for k, v in data.items() if k != "preset"}}
    mid = client.post("/v1/matches", json=body, headers=auth(t["key"])).get_json()["id"]
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    bell = page_steps(page)[1]
    assert EVENTS.findall(page)[1] == ("1", "48")
    assert bell[-1]["event"] == 47 and bell[-1]["tricks_won"] == [5, 7] and bell[-1]["referee"]
    assert sum(1 for s in bell if s.get("referee")) == 12
