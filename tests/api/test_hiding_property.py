"""Random live matches with hidden trumps, face-down plays, take-backs and corrections, played
through the API. After every write, for a reader without the key, no surface (the match, each
revision, their pages and step data, the feed, the webhook bodies) shows a card of a deal live
now that the table has not seen face up in the current revision, nor a trump the current
revision hides (R-31). "Seen" is worked out here from the current record alone."""
import json
import random
import re
import time
from html import unescape

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app import create_app
from referee.engine import adjudicate_dict
from referee.engine.facts import OVER
from referee.engine.simulate import deal_hands
from referee.store.delivery import Worker
from referee.store.webhooks import Webhooks
from tests.api.test_hiding import STEPS, cards_named
from tests.helpers import auth
from tests.store.receiver import Receiver

GAMES = ["hidden-rung", "rr-hidden-rung"]
PLAYERS = ["A", "B", "C", "D"]
SECTION = re.compile(r'<section class="deal" id="deal-(\d+)".*?</section>', re.S)
TRUMP_P = re.compile(r'<p class="trump">(.*?)</p>', re.S)
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


# -- what the table has seen, from the current record only -------------------------------------

def table_of(deal):
    """(cards seen face up, the trump suit if shown) of one deal of the current record."""
    events = deal.get("events", [])
    seen = {e["play"] for e in events if "play" in e and not e.get("face_down")}
    hidden = (deal.get("trump") or {}).get("hidden")
    # shown by a reveal, or by being played, face down too (R-13: it counts as shown)
    shown = hidden is not None and any(e.get("reveal") or e.get("play") == hidden for e in events)
    if shown:
        seen.add(hidden)
    return seen, hidden[-1] if shown else None


def check_deal(where, obj, seen, suit):
    """One deal (record or verdict part, or a page section) against what the table has seen."""
    text = obj if isinstance(obj, str) else json.dumps(obj)
    assert cards_named(text) <= seen, (where, cards_named(text) - seen)
    if suit is None and isinstance(obj, dict):
        trump = obj.get("trump") or {}
        assert trump.get("suit") is None and trump.get("hidden") is None, (where, trump)
        for trick in obj.get("tricks", []):
            assert "reveal" not in trick and not any(c.get("trump") for c in trick["cards"]), (where, trick)
    elif isinstance(obj, dict) and (obj.get("trump") or {}).get("suit") is not None:
        assert obj["trump"]["suit"] == suit, where


def open_trick(events, hidden=None):
    """The cards on the table after the last event, take-backs applied, from the events alone
    (a trick of four is closed by the next event that is not a take-back, or the record's end).
    `hidden`: the hidden trump card, never played face down while it lies hidden (R-35)."""
    trick, shown = [], False
    for j, e in enumerate(events):
        shown = shown or bool(e.get("reveal"))
        if e.get("take_back"):
            trick.pop(max(k for k, c in enumerate(trick) if c["seat"] == e["seat"]))
            continue
        if len(trick) == 4:
            trick = []
        if "play" in e:
            face_down = bool(e.get("face_down")) and (e["play"] != hidden or shown)
            shown = shown or e["play"] == hidden
            trick.append({"seat": e["seat"], "card": e["play"], "face_down": face_down, "event": j})
    return [] if len(trick) == 4 else trick


def check_table(where, nxt, deal, seen, suit, keyed):
    """`next.table`: the open trick of the current record; without the key no face of a
    face-down card and no card the table has not seen."""
    want = open_trick(deal.get("events", []), (deal.get("trump") or {}).get("hidden"))
    if not keyed:
        want = [dict(c, card=None) if c["face_down"] else c for c in want]
        check_deal(where, nxt, seen, suit)
    assert nxt["table"] == want, (where, nxt["table"], want)


def check_page(where, html, live):
    for match in SECTION.finditer(html):
        index = int(match.group(1))
        if index not in live:
            continue
        section, (seen, suit) = match.group(0), live[index]
        check_deal(f"{where} deal {index}", section, seen, suit)
        steps = [s for blob in STEPS.findall(section) for s in json.loads(unescape(blob))]
        assert all(s["hands"] is None and s["legal"] is None for s in steps), where
        assert {s["trump"] for s in steps} <= {None, suit}, where
        if suit is None:
            assert not any(w in TRUMP_P.search(section).group(1) for w in SUIT_WORDS), where


def check_everything(client, t, mid, revisions=True):
    """Every surface of the match (`revisions` False: the current one only) after a write."""
    keyed = client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
    judged = {k: v for k, v in keyed["verdict"].items() if k not in ("provenance", "signature")}
    assert judged == adjudicate_dict(keyed["record"])  # the key holder's view is the verdict
    live = {i: table_of(d) for i, (d, v) in enumerate(zip(keyed["record"]["deals"], keyed["verdict"]["deals"]))
            if v["status"] not in OVER}
    count = len(client.get(f"/v1/matches/{mid}/revisions").get_json()["revisions"]) if revisions else 0
    nxt = keyed["verdict"]["next"]
    if nxt and nxt.get("deal") in live and keyed["verdict"]["deals"][nxt["deal"]]["status"] == "in_progress":
        check_table("next, with the key", nxt, keyed["record"]["deals"][nxt["deal"]], *live[nxt["deal"]], keyed=True)
    readings = [("match", client.get(f"/v1/matches/{mid}").get_json(), client.get(f"/matches/{mid}"))]
    readings += [(f"revision {n}", client.get(f"/v1/matches/{mid}/revisions/{n}").get_json(),
                  client.get(f"/matches/{mid}/revisions/{n}")) for n in range(1, count + 1)]
    for i in live:  # the current revision's own breaches keep their suit led (the table saw the lead)
        public = readings[0][1]["verdict"]["deals"][i]["violations"]
        mine = {(v["event"], v["code"]): v["led"] for v in keyed["verdict"]["deals"][i]["violations"]}
        assert all(v["led"] == mine[(v["event"], v["code"])] for v in public), public
    for where, data, page in readings:
        if any(i < len(data["verdict"]["deals"]) for i in live):  # nothing to test a guess against
            assert data["verdict"]["signature"] is None and data["verdict"]["provenance"]["record"] is None, where
        for i, (seen, suit) in live.items():
            if i < len(data["verdict"]["deals"]):
                check_deal(f"{where} record {i}", data["record"]["deals"][i], seen, suit)
                check_deal(f"{where} verdict {i}", data["verdict"]["deals"][i], seen, suit)
        nxt = data["verdict"]["next"]
        if nxt and nxt.get("to_play") is not None and nxt.get("deal") in live:
            assert nxt["legal"] is None and "face_down" not in nxt and "reveal" not in nxt, where
            if where == "match":
                check_table(f"{where} next", nxt, keyed["record"]["deals"][nxt["deal"]], *live[nxt["deal"]], keyed=False)
            else:  # an older revision's open trick, as the table sees it now
                assert all(c["card"] is None or c["card"] in live[nxt["deal"]][0] for c in nxt["table"]), where
                assert all(c["card"] is None for c in nxt["table"] if c["face_down"]), where
        check_page(f"{where} page", page.get_data(as_text=True), live)
    return live


def check_feed(client, t, mid, after, live):
    """The feed events a write made show nothing of a live deal that the table has not seen."""
    events = client.get(f"/v1/tournaments/{t['id']}/feed?after={after}&limit=1000").get_json()["events"]
    for e in events:
        deal = e["payload"].get("deal")
        if e["match"] == mid and deal in live:
            check_deal(f"feed {e['type']}", e["payload"], *live[deal])
    return events[-1]["seq"] if events else after


# -- random play, kept possible by the engine ------------------------------------------------------

def held_and_trick(deal):
    """What each seat still holds and the plays of the open trick, from the events."""
    held = [set(h) for h in deal["full_hands"]]
    trick = []
    for e in deal.get("events", []):
        if "play" in e:
            if len(trick) == 4:
                trick = []
            held[e["seat"]].discard(e["play"])
            trick.append((e["seat"], e["play"]))
        elif e.get("take_back"):
            k = max(k for k, (seat, _) in enumerate(trick) if seat == e["seat"])
            held[e["seat"]].add(trick.pop(k)[1])
        elif len(trick) == 4:
            trick = []
    return held, trick


def candidates(deal, nxt, fair, rng):
    """Events to try, in order: `nxt` is the stored record's `next`, `fair` the one the full
    hands give (what is legal); now and then a breach."""
    seat = nxt["to_play"]
    cards = sorted(held_and_trick(deal)[0][seat])
    out = []
    if nxt.get("face_down") and rng.random() < (0.7 if fair.get("face_down") else 0.3):
        out.append({"seat": seat, "play": rng.choice(cards), "face_down": True})
    if nxt.get("reveal") and rng.random() < (0.25 if fair.get("reveal") else 0.03):
        out.append({"seat": seat, "reveal": True})
    if rng.random() < 0.1:
        out.append({"seat": seat, "play": rng.choice(cards)})
    out.append({"seat": seat, "play": rng.choice(fair.get("legal") or cards)})
    return out


def stored(deal):
    return {k: v for k, v in deal.items() if k != "full_hands"}


def judged(preset, deals, full=False):
    shown = [dict(stored(d), hands=d["full_hands"]) if full else stored(d) for d in deals]
    return adjudicate_dict({"preset": preset, "deals": shown})


def extend(preset, deals, rng, n):
    """Up to n more events for the last deal, each one the engine accepts; a card that may be
    a revoke, or a face-down card, is mostly taken back at once."""
    deal, added = deals[-1], 0
    while added < n:
        verdict = judged(preset, deals)
        nxt = verdict["next"]
        if verdict["deals"][-1]["status"] in OVER or not nxt or nxt.get("to_play") is None:
            break
        fair = judged(preset, deals, full=True)["next"] or {}
        legal = fair.get("legal") or []
        for event in candidates(deal, nxt, fair, rng):
            deal.setdefault("events", []).append(event)
            if judged(preset, deals)["valid"]:
                added += 1
                break
            deal["events"].pop()
        else:
            break
        risky = "play" in event and (event.get("face_down") or event["play"] not in legal)
        if risky and rng.random() < 0.7:
            deal["events"].append({"seat": event["seat"], "take_back": True})
            if judged(preset, deals)["valid"]:
                added += 1
            else:
                deal["events"].pop()
    return added


def new_deal(dealer, rng):
    hands = [[str(c) for c in h] for h in deal_hands(rng)]
    caller = (dealer + 1) % 4
    deal = {"dealer": dealer, "trump": {"hidden": rng.choice(hands[caller][:5])}, "full_hands": hands}
    if rng.random() < 0.5:
        deal["hands"] = hands
    return deal


def play(client, t, preset, rng):
    mid = client.post("/v1/matches", json={"tournament": t["id"], "record": {"players": PLAYERS}},
                      headers=auth(t["key"])).get_json()["id"]
    etag, deals, seq, dealer = f'"{mid}.1"', [], 0, rng.randrange(4)
    for _ in range(rng.randint(1, 2)):
        deals.append(new_deal(dealer, rng))
        r = client.post(f"/v1/matches/{mid}/deals", json=stored(deals[-1]), headers=auth(t["key"], etag))
        assert r.status_code == 200, r.get_json()
        etag = r.headers["ETag"]
        for _ in range(rng.randint(2, 14)):
            before = len(deals[-1].get("events", []))
            if not extend(preset, deals, rng, rng.randint(1, 6)):
                break
            chunk = deals[-1]["events"][before:]
            r = client.post(f"/v1/matches/{mid}/events", json={"events": chunk}, headers=auth(t["key"], etag))
            assert r.status_code == 200, r.get_json()
            etag = r.headers["ETag"]
            seq = check_feed(client, t, mid, seq, check_everything(client, t, mid, revisions=False))
            if rng.random() < 0.3 and deals[-1].get("events"):  # a correction: the last events cut away
                events = deals[-1]["events"]
                del events[max(0, len(events) - rng.randint(1, 8)):]
                r = client.put(f"/v1/matches/{mid}/record", json={"record": {"deals": [stored(d) for d in deals]},
                                                                  "reason": "typo"}, headers=auth(t["key"], etag))
                assert r.status_code == 200, r.get_json()
                etag = r.headers["ETag"]
                seq = check_feed(client, t, mid, seq, check_everything(client, t, mid))
        verdict = client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]
        if verdict["deals"][-1]["status"] not in OVER or not verdict["next"] or verdict["next"].get("dealer") is None:
            break
        dealer = verdict["next"]["dealer"]
    check_everything(client, t, mid)
    return mid


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_no_surface_shows_what_the_table_has_not_seen(sqlite_url, monkeypatch, preset, seed):
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "127.0.0.1")
    monkeypatch.setenv("REFEREE_WEBHOOK_BACKOFF", "0.01")
    app = create_app({"DATABASE_URL": sqlite_url})
    client, store = app.test_client(), app.extensions["referee.store"]
    try:
        t = client.post("/v1/tournaments", json={"name": "n", "preset": preset}).get_json()
        with Receiver() as rx:
            hook, _ = Webhooks(store).register(t["id"], t["key"], rx.url)
            try:
                play(client, t, preset, random.Random(seed))
                feed = client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000").get_json()["events"]
                worker, deadline = Worker(store.db), time.monotonic() + 30
                while len(rx.accepted()) < len(feed) and time.monotonic() < deadline:
                    worker.run_once()
                bodies = [json.loads(body) for _, body in rx.accepted()]
            finally:
                Webhooks(store).delete(t["id"], t["key"], hook["id"])  # no later example's worker tries it
        # the webhooks carry exactly the feed's events, checked above as each write made them
        assert [(b["seq"], b["payload"]) for b in bodies] == [(e["seq"], e["payload"]) for e in feed]
    finally:
        store.db.dispose()
