"""Nothing revealed after the fact: old revisions hide what the current one hides, a
face-down card is a card back to every reader without the key, a violation proven by a
hand waits for the deal's end, and feed payloads hold no unplayed card."""
import json
import re
import time
from html import unescape

from referee.store.delivery import Worker
from referee.store.webhooks import Webhooks
from tests.api.test_matches import auth, feed_events, make_tournament, post_match, write
from tests.helpers import ev, round_robin_hands, untricked, won_by
from tests.store.receiver import Receiver

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


def test_an_older_revision_of_a_reopened_deal_hides_what_the_current_one_hides(store_client):
    t = make_tournament(store_client, preset="rr-hidden-rung")
    # Deal 0 played to its end (the callers take seven), its hidden 2C never shown.
    done = won_by(0, [1] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    r = post_match(store_client, t, [done])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    old = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert old["record"]["deals"][0]["trump"] == {"hidden": "2C"}  # finished: public
    # A correction cuts deal 0 back to three tricks: it is live again.
    cut = dict(done, events=done["events"][:12])
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag, {"record": {"deals": [cut]}, "reason": "x"},
              method="put")
    assert r.status_code == 200, r.get_json()
    again = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert again["record"]["deals"][0]["trump"] == {"hidden": None}
    assert "2C" not in str(again["verdict"]["deals"][0]["trump"]) and again["verdict"]["deals"][0]["trump"]["revealed"] is None
    keyed = store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()
    assert keyed["record"]["deals"][0]["trump"] == {"hidden": "2C"}  # the key holder sees it all


def test_an_older_revision_hides_the_hands_of_a_deal_live_now(store_client):
    t = make_tournament(store_client)
    rec = won_by(0, [1] * 7, hands=True)
    r = post_match(store_client, t, [rec])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    assert "hands" in store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()["record"]["deals"][0]
    live = dict(rec, events=rec["events"][:8])
    r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag, {"record": {"deals": [live]}, "reason": "x"},
              method="put")
    assert r.status_code == 200
    for n in (1, 2):
        seen = store_client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
        assert "hands" not in seen["record"]["deals"][0], n
    assert "hands" in store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()["record"]["deals"][0]
    page = store_client.get(f"/matches/{mid}/revisions/1").get_data(as_text=True)
    assert '"hands": null' in page or '"hands":null' in page  # the steps hold no hand either
    assert '"hands": [' not in page and '"hands":[' not in page


def test_a_face_down_card_is_a_card_back_until_the_deal_ends(store_client):
    t = make_tournament(store_client, preset="hidden-rung")
    # Hidden-rung: dealer 0, caller seat 1 lays 7S face down; seat 1 discards KS face down.
    events = ev("1:2H 2:AH 3:3H 0:4H  2:2D 3:3D 0:4D 1:KS_")
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"hidden": "7S"}, "events": events}])
    mid = r.get_json()["id"]
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    assert public["record"]["deals"][0]["events"][7] == {"seat": 1, "play": None, "face_down": True}
    card = public["verdict"]["deals"][0]["tricks"][1]["cards"][3]
    assert card == {"seat": 1, "card": None, "event": 7, "face_down": True}
    assert "KS" not in str(public)
    feed = store_client.get(f"/v1/tournaments/{t['id']}/feed").get_json()["events"]
    assert "KS" not in str(feed)
    full = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    assert full["verdict"]["deals"][0]["tricks"][1]["cards"][3]["card"] == "KS"
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "king of spades" not in page and "a face-down card" in page


def test_a_violation_proven_by_a_hand_is_not_public_until_the_deal_ends(store_client):
    t = make_tournament(store_client)
    hands = round_robin_hands()
    r = post_match(store_client, t, [{"dealer": 0, "hands": hands, "trump": {"suit": "S"},
                                      "events": ev("1:AH 2:2D 3:4H 0:5H 1:TH")}])
    mid = r.get_json()["id"]
    full = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]["deals"][0]
    assert [v["proof"] for v in full["violations"]] == ["hand"] and full["status"] == "ended_by_penalty"
    # The deal is over (a penalty): the violation is public. A live one with a hand-proven breach:
    r2 = post_match(store_client, t, [{"dealer": 0, "hands": hands, "trump": {"suit": "S"},
                                       "events": ev("1:AH 2:2D 3:4H")}])
    live = store_client.get(f"/v1/matches/{r2.get_json()['id']}").get_json()["verdict"]["deals"][0]
    assert live["status"] == "in_progress" and live["violations"] == []
    keyed = store_client.get(f"/v1/matches/{r2.get_json()['id']}", headers=auth(t["key"])).get_json()
    assert [v["code"] for v in keyed["verdict"]["deals"][0]["violations"]] == ["revoke"]
    public_done = store_client.get(f"/v1/matches/{mid}").get_json()["verdict"]["deals"][0]
    assert [v["proof"] for v in public_done["violations"]] == ["hand"]


def test_feed_payloads_hold_no_card_that_was_not_played_and_no_unshown_hidden_trump(store_client):
    t = make_tournament(store_client, preset="rr-hidden-rung")
    hands = round_robin_hands()
    # Deal 0 finished (public), deal 1 live with hands and an unshown hidden card.
    done = won_by(0, [1] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    live = {"dealer": 2, "hands": hands, "trump": {"hidden": "KS"}, "events": ev("3:AC 0:3C 1:4C 2:5C")}
    post_match(store_client, t, [done, live])
    feed = store_client.get(f"/v1/tournaments/{t['id']}/feed").get_json()["events"]
    assert feed, "the finished deal is announced"
    played = {e["play"] for d in (done, live) for e in d["events"] if "play" in e} | {"2C"}
    for event in feed:
        shown = set(CARD.findall(str(event["payload"]).replace("'", '"')))
        assert shown <= played, (event["type"], shown - played)
        assert "KS" not in str(event["payload"])


# -- issue 20's repros and R-31: every surface a reader without the key reads --------------------

LABEL = re.compile(r"\b(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two) of "
                   r"(spades|hearts|diamonds|clubs)\b")
RANK_OF = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "nine": "9", "eight": "8",
           "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "two": "2"}
STEPS = re.compile(r'<script type="application/json" class="steps">(.*?)</script>', re.S)


FACE = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")
SYMBOL_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_named(text):
    """Every card a text names: by code (JSON fields), by face (messages, escaped in JSON or
    not) or by its spoken name (the page)."""
    for symbol in SYMBOL_OF:
        text = text.replace(f"\\u{ord(symbol):04x}", symbol)
    faces = {("T" if r == "10" else r) + SYMBOL_OF[s] for r, s in FACE.findall(text)}
    return set(CARD.findall(text)) | faces | {RANK_OF[r] + s[0].upper() for r, s in LABEL.findall(text)}


def public_texts(client, t, mid):
    """What a reader without the key can read of one match: the match, its revisions (list
    and each), their pages, and the tournament's feed."""
    texts = {"match": client.get(f"/v1/matches/{mid}").get_data(as_text=True),
             "page": client.get(f"/matches/{mid}").get_data(as_text=True),
             "revisions": client.get(f"/v1/matches/{mid}/revisions").get_data(as_text=True),
             "feed": client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000").get_data(as_text=True)}
    count = len(client.get(f"/v1/matches/{mid}/revisions").get_json()["revisions"])
    for n in range(1, count + 1):
        texts[f"revision {n}"] = client.get(f"/v1/matches/{mid}/revisions/{n}").get_data(as_text=True)
        texts[f"revision page {n}"] = client.get(f"/matches/{mid}/revisions/{n}").get_data(as_text=True)
    return texts


def page_steps(html):
    return [step for blob in STEPS.findall(html) for step in json.loads(unescape(blob))]


def delivered(store_app, t, monkeypatch, write):
    """The webhook bodies of the feed events that `write()` makes."""
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "127.0.0.1")
    store = store_app.extensions["referee.store"]
    with Receiver() as rx:
        Webhooks(store).register(t["id"], t["key"], rx.url)
        write()
        worker, deadline = Worker(store.db), time.monotonic() + 10
        count = len(store.feed(t["id"], t["key"], 0, 1000)["events"])
        while len(rx.accepted()) < count and time.monotonic() < deadline:
            worker.run_once()
        return [body.decode() for _, body in rx.accepted()]


FACE_DOWN = "1:AD 2:2D 3:3D 0:KD 1:2C 2:AC 3:3C 0:4C 2:AH 3:2H 0:3H"


def test_a_face_down_card_is_not_named_by_the_page_or_its_step_data(store_client, store_app, monkeypatch):
    """Issue 20, 1: the step data said "seat 1 plays 7D face down"."""
    t = make_tournament(store_client, preset="hidden-rung")
    deal = {"dealer": 0, "trump": {"hidden": "4S"}, "events": ev(FACE_DOWN + " 1:7D_")}
    bodies = delivered(store_app, t, monkeypatch, lambda: post_match(store_client, t, [deal]))
    mid = store_client.get(f"/v1/matches?tournament={t['id']}").get_json()["items"][0]["id"]
    texts = public_texts(store_client, t, mid)
    for where, text in list(texts.items()) + [("webhook", b) for b in bodies]:
        assert "7D" not in cards_named(text) and "4S" not in cards_named(text), where
    notes = [s["note"] for s in page_steps(texts["page"])]
    assert "seat 1 plays a card face down" in notes
    assert notes == [s["note"] for s in page_steps(texts["revision page 1"])]
    keyed = store_client.get(f"/matches/{mid}", headers=auth(t["key"])).get_data(as_text=True)
    assert "seat 1 plays 7♦ face down" in [s["note"] for s in page_steps(keyed)]  # the key holder's view


def test_a_face_down_card_taken_back_is_never_named(store_client, store_app, monkeypatch):
    """Issue 20, 2: the corrected revoke named 6D, a card back in seat 1's hand."""
    t = make_tournament(store_client, preset="hidden-rung")
    deal = {"dealer": 0, "trump": {"hidden": "4S"}, "events": ev(FACE_DOWN + " 1:6D_ 1:< 1:6H 2:KH")}
    bodies = delivered(store_app, t, monkeypatch, lambda: post_match(store_client, t, [deal]))
    mid = store_client.get(f"/v1/matches?tournament={t['id']}").get_json()["items"][0]["id"]
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    [revoke] = public["verdict"]["deals"][0]["violations"]
    assert revoke["corrected"] and revoke["card"] is None and revoke["proof_card"] == "6H"
    assert revoke["message"] == "seat 1 played a card on a heart lead and later played 6♥ (event 14), so held a heart"
    assert any('"violation.found"' in b for b in bodies)
    texts = public_texts(store_client, t, mid)
    for where, text in list(texts.items()) + [("webhook", b) for b in bodies]:
        assert "6D" not in cards_named(text), where
    keyed = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    assert keyed["verdict"]["deals"][0]["violations"][0]["card"] == "6D"


def _trump_shown(html):
    return re.findall(r'<p class="trump">Trump:\s*(.*?)</p>', html, re.S)


def test_an_older_revision_shows_no_trump_that_the_current_one_hides(store_client, store_app, monkeypatch):
    """Issue 20, 3: a correction took the reveal away; the older revision still showed 3S as a
    trump, the trick's reveal and the steps' trump suit."""
    t = make_tournament(store_client, preset="rr-hidden-rung")
    deal = {"dealer": 0, "trump": {"hidden": "4S"}, "events": ev("1:AH 2:KH 3:? 3:3S 0:2H")}
    r = post_match(store_client, t, [deal])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    assert store_client.get(f"/v1/matches/{mid}").get_json()["verdict"]["deals"][0]["trump"]["suit"] == "S"
    fixed = dict(deal, events=ev("1:AH 2:KH 3:3D 0:2H"))

    def correct():
        r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag, {"record": {"deals": [fixed]},
                                                                              "reason": "typo"}, method="put")
        assert r.status_code == 200

    bodies = delivered(store_app, t, monkeypatch, correct)
    old = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()["verdict"]["deals"][0]
    assert old["trump"] == {"mode": "hidden", "suit": None, "revealed": None}
    trick = old["tricks"][0]
    assert "reveal" not in trick and not any(c.get("trump") for c in trick["cards"])
    assert trick["cards"][2] == {"seat": 3, "card": None, "event": 3} and trick["winning_card"] is None
    texts = public_texts(store_client, t, mid)
    for where, text in list(texts.items()) + [("webhook", b) for b in bodies]:
        assert not {"3S", "4S"} & cards_named(text), where
    for n in (1, 2):
        page = texts[f"revision page {n}"]
        assert {s["trump"] for s in page_steps(page)} == {None}, n
        assert all(s["trump_hidden"] for s in page_steps(page))
        assert _trump_shown(page) and all("spades" not in p and "hidden" in p for p in _trump_shown(page))
    keyed = store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()
    assert keyed["verdict"]["deals"][0]["trump"]["suit"] == "S"


def test_r31_a_card_corrected_away_is_a_card_still_held(store_client, store_app, monkeypatch):
    """R-31: a deal ended by a revoke penalty (2D, proven by 7H), corrected back to its first
    trick: TH and 7H are in their players' hands again, in every revision and the feed."""
    t = make_tournament(store_client)
    deal = {"dealer": 0, "trump": {"suit": "S"}, "events": ev("1:AH 2:2D 3:4H 0:5H 1:TH 2:7H")}
    r = post_match(store_client, t, [deal])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    first = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert first["verdict"]["deals"][0]["status"] == "ended_by_penalty" and "7H" in json.dumps(first)
    fixed = dict(deal, events=deal["events"][:4])

    def correct():
        r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag,
                  {"record": {"deals": [fixed]}, "reason": "typo"}, method="put")
        assert r.status_code == 200

    feed_before = len(store_client.get(f"/v1/tournaments/{t['id']}/feed").get_json()["events"])
    bodies = delivered(store_app, t, monkeypatch, correct)
    old = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert [e.get("play") for e in old["record"]["deals"][0]["events"]][4:] == [None, None]
    [revoke] = old["verdict"]["deals"][0]["violations"]
    assert revoke["card"] == "2D" and revoke["proof_card"] is None and "later played a card" in revoke["message"]
    texts = public_texts(store_client, t, mid)
    feed = store_client.get(f"/v1/tournaments/{t['id']}/feed").get_json()["events"]
    texts["feed"] = json.dumps(feed[feed_before:])  # what the correction published
    assert [e["type"] for e in untricked(feed[feed_before:])] == ["deal.revised", "violation.withdrawn", "match.revised"]
    for where, text in list(texts.items()) + [("webhook", b) for b in bodies]:
        assert not {"TH", "7H"} & cards_named(text), where
    keyed = store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()
    assert keyed["record"]["deals"][0]["events"][5]["play"] == "7H"


def test_an_older_show_out_names_the_suit_led_only_while_the_table_sees_that_lead(store_client):
    """Revision 1's show-out (seat 2's 2D on the A♥ lead: void in hearts, unproven) names hearts
    to a reader without the key only while the current revision's trick 1 is led by a heart, as
    the engine's replay leaves it: on the table, then corrected to a K♦ lead, then a closed trick."""
    t = make_tournament(store_client)
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"suit": "S"}, "events": ev("1:AH 2:2D")}])
    mid, etag = r.get_json()["id"], r.headers["ETag"]

    def now(events: str) -> None:
        nonlocal etag
        body = {"record": {"deals": [{"dealer": 0, "trump": {"suit": "S"}, "events": ev(events)}]}, "reason": "typo"}
        r = write(store_client, f"/v1/matches/{mid}/record", t["key"], etag, body, method="put")
        assert r.status_code == 200, r.get_json()
        etag = r.headers["ETag"]

    def first_show_out() -> tuple:
        [entry] = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()["verdict"]["deals"][0]["unproven"]
        return entry["void"], entry["message"]

    shown = ("H", "seat 2 showed out of hearts at event 2 and was never contradicted")
    assert first_show_out() == shown  # the A♥ still led, on the table
    now("1:KD 2:2D")
    assert first_show_out() == (None, "seat 2 showed out at event 2")
    now("1:AH 2:2D 3:4H 0:5H")
    assert first_show_out() == shown  # led by a heart again, in a closed trick


# -- the hidden card marked face down is played face up --------------------------------------

# Hidden Rung, dealer 0: the caller, seat 1, lays 7S face down. Seat 0 wins trick 1 with AH and
# leads 2D; the caller plays its hidden 7S marked face down: played face up, shown, a trump.
MARKED = "1:2H 2:3H 3:4H 0:AH  0:2D 1:7S_"


def test_r35_the_marked_hidden_card_is_seen_face_up_by_every_reader_of_a_live_deal(store_client):
    t = make_tournament(store_client, preset="hidden-rung")
    r = post_match(store_client, t, [{"dealer": 0, "trump": {"hidden": "7S"}, "events": ev(MARKED)}])
    mid = r.get_json()["id"]
    keyed = store_client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    public = store_client.get(f"/v1/matches/{mid}").get_json()
    for seen in (keyed, public):
        d = seen["verdict"]["deals"][0]
        assert d["status"] == "in_progress" and d["trump"]["suit"] == "S"
        assert d["trump"]["revealed"]["how"] == "played" and d["trump"]["revealed"]["rule"][-1] == "R-35"
        assert seen["verdict"]["next"]["table"] == [{"seat": 0, "card": "2D", "face_down": False, "event": 4},
                                                    {"seat": 1, "card": "7S", "face_down": False, "event": 5}]
        assert seen["record"]["deals"][0]["events"][5] == {"seat": 1, "play": "7S", "face_down": True}  # as recorded
    assert public["record"]["deals"][0]["trump"] == {"hidden": "7S"}  # shown by the play
    # The page: the event list names the card and the ruling, the step note says it was played face up.
    page = store_client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "7S" in cards_named(page) and "(marked face down: the hidden card is played face up)" in page
    notes = [s["note"] for s in page_steps(page)]
    assert "seat 1 plays 7♠, the hidden trump card: marked face down, it is played face up (R-35)" in notes
    # The trick closes: the 7S trumps the diamonds and the deal ends by the penalty.
    r = write(store_client, f"/v1/matches/{mid}/events", t["key"], r.headers["ETag"], {"events": ev("2:3D 3:4D")})
    d = r.get_json()["deal"]["verdict"]
    assert (d["tricks"][1]["winner"], d["tricks"][1]["winning_card"]) == (1, "7S")
    assert (d["status"], d["result"]["kind"], d["result"]["winner"]) == ("ended_by_penalty", "penalty_court", 0)
    events = feed_events(store_client, t)
    assert [(e["payload"]["trick"], e["payload"]["winner"]) for e in events if e["type"] == "trick.finished"] == [(1, 0), (2, 1)]
    [found] = [e["payload"]["violation"] for e in events if e["type"] == "violation.found"]
    assert (found["code"], found["card"], found["rule"][-3:]) == ("hidden_card_played", "7S", ["R-35", "revoke.penalty", "R-1"])
    texts = public_texts(store_client, t, mid)
    assert all("7S" in cards_named(text) for where, text in texts.items() if where != "revisions"), texts.keys()
