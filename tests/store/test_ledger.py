"""The feed is a ledger: a deal is announced by one deal.finished, a violation by one
violation.found; a later change is deal.revised / violation.revised / violation.withdrawn.
Folding the feed gives the stored verdicts' results, violations and standings."""
import random
import re
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.app import create_app
from referee.engine import resolve
from referee.engine.simulate import random_deal
from tests.api.spec import validate_response
from tests.helpers import auth, ev, untricked, won_by

PLAYERS = ["A", "B", "C", "D"]


def events_of(store, tid, key):
    return untricked(store.feed(tid, key, 0, 10_000)["events"])


def readme_fold(events):
    """The README's own fold example, run as printed: its tricks and per-match courts."""
    text = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    [code] = [c for c in re.findall(r"```python\n(.*?)```", text, re.S) if "/feed, in order" in c]
    names = {"events": events}
    exec(code, names)
    return {k: _bare(t) for k, t in names["tricks"].items() if t is not None}, names["courts"], names["table"]


def _bare(trick):
    """A trick's state without the `match` every payload names (trick.revised's `now` has none)."""
    return {k: v for k, v in trick.items() if k != "match"}


def fold(events):
    """The fold, as a client writes it (not the referee's code), with the standings too."""
    results, violations, tricks, standings = {}, {}, {}, None
    for e in events:
        p, key = e["payload"], (e["match"], e["payload"].get("deal"))
        if e["type"] in ("deal.finished", "deal.revised"):
            results[key] = p["result"]
        elif e["type"] == "trick.finished":
            tricks[key + (p["trick"],)] = _bare(p)
        elif e["type"] == "trick.revised":
            tricks[key + (p["trick"],)] = p["now"]  # None: no longer a completed trick that counts
        elif e["type"] in ("violation.found", "violation.revised"):
            v = p["violation"]
            violations[key + (v["event"], v["code"])] = v
        elif e["type"] == "violation.withdrawn":
            v = p["violation"]
            violations.pop(key + (v["event"], v["code"]), None)
        elif e["type"] == "standings.changed":  # the changed rows; every other row's rank moves by its run
            standings = {} if standings is None else standings
            unchanged = {team: row for team, row in standings.items()
                         if team not in {tuple(r["team"]) for r in p["rows"]} and list(team) not in p["removed"]}
            for row in unchanged.values():
                runs = [m["by"] for m in p["moved"] if m["from"] <= row["rank"] <= m["to"]]
                assert len(runs) <= 1
                row["rank"] += sum(runs)
            standings = {**unchanged, **{tuple(r["team"]): dict(r) for r in p["rows"]}}
            assert len(standings) == p["teams"]
    if standings is not None:
        standings = sorted(standings.values(), key=lambda r: (r["rank"], r["team"]))
    return ({k: r for k, r in results.items() if r is not None}, violations,
            {k: t for k, t in tricks.items() if t is not None}, standings)


def test_a_take_back_after_the_fourth_card_revises_the_deal_and_never_announces_it_twice(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": []}, None)
    view = store.add_deal(view.match.id, key, view.etag, {"dealer": 0, "trump": {"suit": "S"}})
    view = store.append_events(view.match.id, key, view.etag, ev("1:AH 2:2D 3:4H 0:5H 1:TH 2:7H"))
    types = [e["type"] for e in events_of(store, t.id, key)]
    assert types == ["deal.finished", "violation.found"]  # the revoke is proven by 7H: a penalty court
    # Seat 2 takes back 7H... not allowed: it was legal. Correct the record instead (a correction).
    view = store.revise(view.match.id, key, view.etag, {"deals": [{"dealer": 0, "trump": {"suit": "S"},
                                                                    "events": ev("1:AH 2:2D 3:4H 0:5H")}]}, "7H was 7D")
    events = events_of(store, t.id, key)
    assert [e["type"] for e in events] == ["deal.finished", "violation.found", "deal.revised",
                                           "violation.withdrawn", "match.revised"]
    revised = events[2]["payload"]
    assert revised["previous"]["result"]["kind"] == "penalty_court" and revised["result"] is None
    assert revised["why"] == "correction" and revised["revision"] == view.match.revision
    # Played again to a penalty: the deal is revised, not finished a second time.
    view = store.append_events(view.match.id, key, view.etag, ev("1:TH 2:7H"))
    types = [e["type"] for e in events_of(store, t.id, key)]
    assert types.count("deal.finished") == 1 and types.count("violation.found") == 1
    assert types[-2:] == ["deal.revised", "violation.revised"]


def test_a_take_back_after_the_fourth_card_reopens_the_deal_then_it_finishes_again(store):
    """R-12 keeps a trick of four cards open until the next event that is not a take-back:
    the court made by trick 7's fourth card is announced, reopened by the take-back, and
    revised when the trick is complete again, never announced twice."""
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    six = won_by(0, [1] * 7)["events"][:24]  # six tricks to seat 1 (spades, hearts)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "events": six + ev("1:AD 2:2C 3:3D")}]}, None)
    view = store.append_events(view.match.id, key, view.etag, ev("0:4D"))  # seven tricks: a court
    assert [e["type"] for e in events_of(store, t.id, key)] == ["deal.finished"]
    view = store.append_events(view.match.id, key, view.etag, ev("2:<"))  # 2C may be a revoke
    view = store.append_events(view.match.id, key, view.etag, ev("2:2D"))
    events = events_of(store, t.id, key)
    # ... and the corrected revoke, proven by the 2D, is announced once, corrected.
    assert [e["type"] for e in events] == ["deal.finished", "deal.revised", "deal.revised", "violation.found"]
    assert events[3]["payload"]["violation"]["corrected"] is True
    reopened, again = events[1]["payload"], events[2]["payload"]
    assert reopened["result"] is None and reopened["why"] == "take_back"
    assert reopened["previous"]["result"]["kind"] == "court" and again["result"]["kind"] == "court"


def test_a_correction_of_a_finished_deal_revises_its_result(store):
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, None)
    store.revise(view.match.id, key, view.etag, {"deals": [won_by(0, [1] * 6 + [0, 1])]}, "trick 7 was theirs")
    events = events_of(store, t.id, key)
    assert [e["type"] for e in events] == ["deal.finished", "deal.revised", "match.revised"]
    assert events[0]["payload"]["result"]["kind"] == "court"
    assert events[1]["payload"]["previous"]["result"]["kind"] == "court"
    assert events[1]["payload"]["result"]["kind"] == "win"


# -- the fold, against the stored verdicts, over random live matches -----------------------------

GAMES = ["court-piece", "double-sir", "rr-hidden-rung", "mendikot"]


def play_live(client, t, preset, rng):
    """One match played in chunks of events, with take-backs tried after a fourth card and
    a correction now and then; refused writes (409) change nothing."""
    options = resolve(preset)
    m = client.post("/v1/matches", json={"tournament": t["id"], "record": {"players": PLAYERS}},
                    headers=auth(t["key"])).get_json()
    etag, dealer = m["etag"], rng.randrange(4)
    for _ in range(rng.randint(1, 3)):
        rec = random_deal(options, dealer, rng, illegal_rate=0.15)
        deal = {"dealer": dealer, "trump": _trump(rec.trump), "hands": [[str(c) for c in h] for h in rec.hands]}
        if rng.random() < 0.5:
            deal.pop("hands")
        r = client.post(f"/v1/matches/{m['id']}/deals", json=deal, headers=auth(t["key"], etag))
        if r.status_code != 200:  # a correction left the last deal unfinished: no next deal
            break
        etag = r.get_json()["etag"]
        events = [_event(e) for e in rec.events]
        k = 0
        while k < len(events):
            n = rng.randint(1, 9)
            chunk = events[k:k + n]
            k += n
            if rng.random() < 0.1:
                chunk = chunk + [{"seat": chunk[-1]["seat"], "take_back": True}]
            r = client.post(f"/v1/matches/{m['id']}/events", json={"events": chunk}, headers=auth(t["key"], etag))
            if r.status_code == 200:
                etag = r.get_json()["etag"]
            elif chunk[-1].get("take_back"):  # the take-back was refused: send the plays alone
                r = client.post(f"/v1/matches/{m['id']}/events", json={"events": chunk[:-1]},
                                headers=auth(t["key"], etag))
                etag = r.get_json()["etag"] if r.status_code == 200 else etag
            if rng.random() < 0.15:  # a correction takes back the last few events; they are played again
                etag, cut = _correct(client, t, m["id"], etag, rng)
                k = max(0, k - cut)
        verdict = client.get(f"/v1/matches/{m['id']}", headers=auth(t["key"])).get_json()["verdict"]
        if verdict["next"] is None or verdict["next"]["dealer"] is None:
            break
        dealer = verdict["next"]["dealer"]
    if rng.random() < 0.5:
        client.post(f"/v1/matches/{m['id']}/close", headers=auth(t["key"], etag))
    return m["id"]


def _correct(client, t, mid, etag, rng):
    """A correction: the last deal cut short by the events sent last (so that they can be
    sent again). Returns the ETag and how many events were cut."""
    record = client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["record"]
    last = record["deals"][-1]
    plays = last.get("events", [])
    cut = min(len(plays), rng.randint(1, 6))
    if any("take_back" in e for e in plays[len(plays) - cut:]):
        return etag, 0  # the record no longer lines up with the plays sent: leave it
    last["events"] = plays[:len(plays) - cut]
    r = client.put(f"/v1/matches/{mid}/record", json={"record": {"deals": record["deals"]}, "reason": "typo"},
                   headers=auth(t["key"], etag))
    return (r.get_json()["etag"], cut) if r.status_code == 200 else (etag, 0)


def _trump(spec):
    if spec.hidden is not None:
        return {"hidden": str(spec.hidden)}
    if spec.blind is not None:
        return {"blind": str(spec.blind)}
    return {"suit": spec.suit} if spec.suit else None


def _event(e):
    if e.kind == "play":
        return {"seat": e.seat, "play": str(e.card)}
    return {"seat": e.seat, e.kind: True}


def stored(client, t, mids):
    """What the stored verdicts say: finished deals' results and publishable violations."""
    from referee.store.feed import OVER
    from referee.visibility import public_violations

    results, violations, tricks = {}, {}, {}
    for mid in mids:
        got = client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()
        verdict = got["verdict"]
        for i, d in enumerate(verdict["deals"]):
            if d["status"] in OVER and d["result"] is not None:
                results[(mid, i)] = d["result"]
            for trick in d["tricks"]:  # the completed tricks that count, as the verdict lists them
                tricks[(mid, i, trick["number"])] = {
                    "deal": i, "trick": trick["number"], "pile": trick["pile_after"],
                    **{k: trick[k] for k in ("leader", "winner", "winning_team", "collected_by",
                                             "collected")}}
        for i, v in public_violations(got["record"], verdict):
            if not v["pending"]:
                violations[(mid, i, v["event"], v["code"])] = v
    standings = client.get(f"/v1/tournaments/{t['id']}/standings").get_json()["standings"]
    return results, violations, tricks, standings


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
# a revoke found, withdrawn by a correction, found again: its violation.revised was read back
# through the live deals' tables, which did not know the trick's lead (led null)
@example("double-sir", 11950)
def test_folding_the_feed_gives_the_stored_verdicts(db_url, preset, seed):
    app = create_app({"DATABASE_URL": db_url})
    client = app.test_client()
    try:
        t = client.post("/v1/tournaments", json={"name": "n", "preset": preset}).get_json()
        rng = random.Random(seed)
        mids = [play_live(client, t, preset, rng) for _ in range(2)]
        r = client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000")
        assert len(r.get_json()["events"]) < 1000  # the whole feed in one page
        validate_response(r, "/v1/tournaments/{tournament_id}/feed", "get")  # every event type in the contract
        feed = r.get_json()["events"]
        results, violations, tricks, standings = fold(feed)
        want_results, want_violations, want_tricks, want_standings = stored(client, t, mids)
        assert results == want_results
        assert violations == want_violations
        assert tricks == want_tricks
        readme_tricks, courts, readme_table = readme_fold(feed)
        assert readme_tricks == want_tricks
        assert readme_table == want_standings  # the README's fold, row for row the API's standings
        for mid in mids:  # the README's per-match sums are each match's own totals
            match = client.get(f"/v1/matches/{mid}", headers=auth(t["key"])).get_json()["verdict"]["match"]
            assert courts.get(mid, [0, 0]) == match["courts"], mid
        assert (standings or []) == want_standings
        announced = [(e["match"], e["payload"]["deal"]) for e in feed if e["type"] in ("deal.finished", "deal.abandoned")]
        ended = [e["match"] for e in feed if e["type"] == "match.finished"]
        finished = [(e["match"], e["payload"]["deal"], e["payload"]["trick"]) for e in feed if e["type"] == "trick.finished"]
        assert len(announced) == len(set(announced)) and len(ended) == len(set(ended))
        assert len(finished) == len(set(finished))
    finally:
        app.extensions["referee.store"].db.dispose()
