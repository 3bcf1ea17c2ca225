"""R-31 through corrections that move deals (issue 38, 1): a correction that inserts a deal
before the live one (a finished deal, a weak-hand redeal), deletes one or reorders them must
not show the live deal whole in an older revision, nor its record digest or signature, on
any surface: the revisions (API and pages), a revision's deal page and step data, the feed
and the webhooks. Deals are told apart by what they are, never by their place."""
import json
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.engine import adjudicate_dict
from referee.visibility import PublicView

from tests.api.test_claims_api import endgame_deal
from tests.api.test_hiding import cards_named, delivered, page_steps
from tests.api.test_matches import auth, make_tournament, post_match, write
from tests.helpers import won_by

SECTION = re.compile(r".*?</section>", re.S)
PACK = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def held(deal: dict) -> set[str]:
    """The cards of a live deal with hands that the table has not seen played face up."""
    return {c for hand in deal["hands"] for c in hand} - {e["play"] for e in deal["events"] if "play" in e}


def revision_texts(client, mid: str, n: int, deal: int | None = None) -> dict[str, str]:
    """What a reader without the key reads of revision n (`deal`: of that deal only): the API,
    the page and its step data, the deal pages."""
    answer = client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
    page = client.get(f"/matches/{mid}/revisions/{n}").get_data(as_text=True)
    deals = range(len(answer["record"]["deals"])) if deal is None else [deal]
    if deal is None:
        texts = {f"revision {n}": json.dumps(answer), f"revision page {n}": page}
    else:
        texts = {f"revision {n}": json.dumps([answer["record"]["deals"][deal], answer["verdict"]["deals"][deal]]),
                 f"revision page {n}": SECTION.search(page.split(f'id="deal-{deal}"', 1)[1]).group(0)}
    for i in deals:
        texts[f"revision {n} deal page {i}"] = client.get(f"/matches/{mid}/revisions/{n}/deals/{i}").get_data(as_text=True)
    return texts


def correct(client, t, mid, etag, deals, reason="a deal was forgotten"):
    r = write(client, f"/v1/matches/{mid}/record", t["key"], etag, {"record": {"deals": deals}, "reason": reason},
              method="put")
    assert r.status_code == 200, r.get_json()
    return r.headers["ETag"]


def append(client, t, mid, etag, events):
    r = write(client, f"/v1/matches/{mid}/events", t["key"], etag, {"events": events})
    assert r.status_code == 200, r.get_json()
    return r.headers["ETag"]


def withheld(client, mid, n) -> bool:
    verdict = client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()["verdict"]
    return verdict["signature"] is None and verdict["provenance"]["record"] is None and "withheld" in verdict["provenance"]


def weak_redeal(dealer: int) -> dict:
    """A weak-hand redeal claim (R-9): the caller's first five are 2S-6S, no Jack or higher."""
    caller, rest = (dealer + 1) % 4, PACK[13:]
    others = iter([rest[i:i + 13] for i in range(0, 39, 13)])
    hands = [PACK[:13] if s == caller else next(others) for s in range(4)]
    return {"dealer": dealer, "hands": hands, "trump": {"redeal": True}}


# -- a deal inserted before the live one ---------------------------------------------------------

@pytest.mark.parametrize("inserted", ["finished", "redeal"])
def test_a_deal_inserted_before_the_live_one_leaves_it_hidden_in_every_revision(store_client, store_app, monkeypatch,
                                                                                 inserted):
    """The leak of issue 38, 1: revision 1's live deal was paired with the current revision's
    deal 0 by place, the inserted finished one, and shown whole with its digest and signature."""
    t = make_tournament(store_client, weak_hand_redeal=True)
    live = won_by(0, [1] * 7, hands=True, n=2)
    r = post_match(store_client, t, [live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    first = won_by(3, [0] * 7, hands=True) if inserted == "finished" else weak_redeal(3)

    bodies = delivered(store_app, t, monkeypatch, lambda: correct(store_client, t, mid, etag, [first, live]))
    hidden = held(live)
    assert len(hidden) == 44
    current = store_client.get(f"/v1/matches/{mid}").get_json()
    assert current["verdict"]["deals"][0]["status"] in ("complete", "redeal")
    assert current["record"]["deals"][0]["hands"] == first["hands"]  # over: public
    assert "hands" not in current["record"]["deals"][1] and withheld(store_client, mid, 2)
    texts = revision_texts(store_client, mid, 1)
    for where, text in texts.items():
        assert not hidden & cards_named(text), where
    old = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert "hands" not in old["record"]["deals"][0] and withheld(store_client, mid, 1)
    assert [e["play"] for e in old["record"]["deals"][0]["events"]] == [e["play"] for e in live["events"]]
    steps = page_steps(texts["revision page 1"])
    assert steps and all(s["hands"] is None and s["legal"] is None for s in steps)
    feed = store_client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000").get_data(as_text=True)
    for where, text in [("feed", feed)] + [("webhook", b) for b in bodies]:
        assert not hidden & cards_named(text), where
    keyed = store_client.get(f"/v1/matches/{mid}/revisions/1", headers=auth(t["key"])).get_json()
    assert keyed["record"]["deals"][0]["hands"] == live["hands"] and keyed["verdict"]["provenance"]["record"]


def test_the_moved_live_deal_stays_hidden_as_play_goes_on_and_is_public_once_over(store_client):
    t = make_tournament(store_client)
    whole = won_by(0, [1] * 7, hands=True)
    live = dict(whole, events=whole["events"][:8])
    r = post_match(store_client, t, [live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    etag = correct(store_client, t, mid, etag, [won_by(3, [0] * 7, hands=True), live])
    etag = append(store_client, t, mid, etag, whole["events"][8:12])
    hidden = held(dict(whole, events=whole["events"][:12]))
    for n in (1, 2, 3):
        for where, text in revision_texts(store_client, mid, n, deal=0 if n == 1 else 1).items():
            assert not hidden & cards_named(text), where
        assert withheld(store_client, mid, n), n
    append(store_client, t, mid, etag, whole["events"][12:])  # the deal ends: public in every revision
    for n in (1, 2, 3, 4):
        old = store_client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
        assert old["record"]["deals"][-1]["hands"] == whole["hands"], n
        keyed = store_client.get(f"/v1/matches/{mid}/revisions/{n}", headers=auth(t["key"])).get_json()["verdict"]
        assert old["verdict"]["provenance"] == keyed["provenance"] and old["verdict"]["signature"] == keyed["signature"]


def test_a_hidden_trump_stays_hidden_when_a_deal_is_inserted_before_it(store_client):
    """Without hands: the live deal's hidden 2S (so its trump suit) is no one's to see."""
    t = make_tournament(store_client, preset="rr-hidden-rung")
    live = won_by(0, [1] * 7, suits="CHDS", n=2) | {"trump": {"hidden": "2S"}}
    done = won_by(2, [3] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    r = post_match(store_client, t, [live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    correct(store_client, t, mid, etag, [done, live])
    for n in (1, 2):
        old = store_client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
        assert old["record"]["deals"][-1]["trump"] == {"hidden": None}, n
        assert old["verdict"]["deals"][-1]["trump"]["suit"] is None, n
        for where, text in revision_texts(store_client, mid, n).items():
            assert "2S" not in cards_named(text), where
            assert "spades" not in text.lower(), where
        assert withheld(store_client, mid, n)
    assert store_client.get(f"/v1/matches/{mid}/revisions/2").get_json()["record"]["deals"][0]["trump"] == {"hidden": "2C"}


# -- a deal deleted, deals reordered ---------------------------------------------------------------

def test_a_card_corrected_away_in_a_deal_moved_by_a_deletion_is_still_held(store_client):
    """Revision 1 holds a finished deal and the live one; the correction deletes the first and
    corrects the live deal's first card (AC was KC's mistake): revision 1's live deal, beyond
    the current revision's deals, showed its AC as its own revision saw it."""
    t = make_tournament(store_client, preset="rr-hidden-rung")
    live = won_by(0, [1] * 7, suits="CHDS", n=2) | {"trump": {"hidden": "2S"}}
    done = won_by(2, [3] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    r = post_match(store_client, t, [done, live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    assert [e["play"] for e in live["events"][:4]] == ["AC", "JC", "QC", "KC"]
    fixed = dict(live, events=[dict(live["events"][0], play="2H")] + live["events"][1:])
    correct(store_client, t, mid, etag, [fixed], reason="the first deal was another table's; 2H was led")
    old = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()
    assert old["record"]["deals"][1]["events"][0]["play"] is None  # AC: corrected away, still held
    assert old["verdict"]["deals"][1]["trump"]["suit"] is None and withheld(store_client, mid, 1)
    texts = revision_texts(store_client, mid, 1)
    deal_page = json.loads(texts["revision 1 deal page 1"])
    assert "AC" not in cards_named(json.dumps(deal_page["steps"])) and "2S" not in cards_named(deal_page["html"])


def test_reordered_finished_deals_stay_public_and_the_live_one_hidden(store_client):
    t = make_tournament(store_client)
    a, b = won_by(3, [0] * 7, hands=True), won_by(0, [1] * 7, hands=True)
    live = won_by(1, [2] * 7, hands=True, n=2)
    r = post_match(store_client, t, [a, b, live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    correct(store_client, t, mid, etag, [b, a, live], reason="the first two deals were swapped")
    for n in (1, 2):
        old = store_client.get(f"/v1/matches/{mid}/revisions/{n}").get_json()
        assert [d.get("hands") is not None for d in old["record"]["deals"]] == [True, True, False], n
        assert withheld(store_client, mid, n)
    first = store_client.get(f"/v1/matches/{mid}/revisions/1").get_json()["record"]["deals"]
    assert (first[0]["hands"], first[1]["hands"]) == (a["hands"], b["hands"])


# -- the feed: a claim removed from a deal that moved ------------------------------------------------

def test_a_claim_removed_from_a_deal_that_moved_is_held_again_in_the_feed(store_client, store_app, monkeypatch):
    """The claim faced every hand (its deal.finished carried the line); the correction inserts a
    deal before it and removes the claim: the twelve cards still to play are held again, in the
    feed as read now and in the correction's own deal.revised, in the webhooks too."""
    t = make_tournament(store_client, preset="seven-courts")
    claimed = endgame_deal()
    claimed["events"] = claimed["events"] + [{"seat": 0, "claim": 3}, {"seat": 1, "accept": True}]
    r = post_match(store_client, t, [claimed])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    unplayed = held(endgame_deal())
    assert len(unplayed) == 12
    said = store_client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000").get_json()["events"]
    finished = next(e for e in said if e["type"] == "deal.finished")["payload"]
    assert {step["card"] for step in finished["claim"]["line"]} == unplayed  # faced by the claim: public then
    before = won_by(3, [0] * 13, hands=True)
    bodies = delivered(store_app, t, monkeypatch, lambda: correct(store_client, t, mid, etag, [before, endgame_deal()],
                                                                  reason="a deal was forgotten; no claim"))
    assert bodies and not unplayed & cards_named(json.dumps(bodies))
    current = store_client.get(f"/v1/matches/{mid}").get_json()
    assert current["verdict"]["deals"][1]["status"] == "in_progress" and "hands" not in current["record"]["deals"][1]
    said = store_client.get(f"/v1/tournaments/{t['id']}/feed?limit=1000").get_json()["events"]
    claims = [e["payload"] for e in said if "claim" in json.dumps(e["payload"])]
    assert claims and not unplayed & cards_named(json.dumps(claims))
    revised = next(e for e in said if e["type"] == "deal.revised")["payload"]
    assert revised["deal"] == 0 and {step["card"] for step in revised["previous"]["claim"]["line"]} == {None}
    for where, text in revision_texts(store_client, mid, 1).items():
        assert not unplayed & cards_named(text), where


# -- the rule itself, on random corrections ---------------------------------------------------------

FINISHED = [won_by(d, [w] * 7, hands=True) for d in range(4) for w in range(4)]


def named(obj) -> set[str]:
    return cards_named(json.dumps(obj))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FINISHED), max_size=2), st.lists(st.sampled_from(FINISHED), max_size=2),
       st.integers(0, 3), st.lists(st.integers(0, 3), min_size=12, max_size=12), st.integers(1, 6),
       st.integers(-2, 2), st.randoms(use_true_random=False))
def test_an_older_revision_never_shows_what_the_live_table_has_not_seen(before, inserted, dealer, winners, tricks,
                                                                          more, rng):
    """Revision 1 is `before` and the live deal cut after `tricks` tricks; the correction keeps
    any of `before` in any order, inserts `inserted` anywhere before the live deal, and plays
    on (`more` > 0) or cuts back (`more` < 0). Read without the key, revision 1 shows the
    live deal's cards only as far as the live table saw them, and its finished deals whole
    when they are still there."""
    live = won_by(dealer, winners, hands=True, n=tricks)
    now_live = won_by(dealer, winners, hands=True, n=max(1, min(6, tricks + more)))
    kept = rng.sample(before, rng.randint(0, len(before)))
    done = kept + inserted
    rng.shuffle(done)
    old = {"preset": "court-piece", "deals": [*before, live]}
    now = {"preset": "court-piece", "deals": [*done, now_live]}
    old_verdict, now_verdict = adjudicate_dict(old), adjudicate_dict(now)
    assume(old_verdict["valid"] and now_verdict["valid"] and now_verdict["deals"][-1]["status"] == "in_progress")
    assume(all(d["status"] == "complete" for d in now_verdict["deals"][:-1] + old_verdict["deals"][:-1]))
    view = PublicView(old, old_verdict, (now, now_verdict))
    seen = {e["play"] for e in now_live["events"]}
    assert view.hidden(len(before))
    assert named(view.record()["deals"][-1]) <= seen and named(view.verdict()["deals"][-1]) <= seen
    for i, deal in enumerate(before):
        if deal in kept or deal in inserted:
            assert view.record()["deals"][i] == deal, i


def test_a_revision_after_one_that_held_the_live_deal_withholds_that_ones_digest(store_client):
    """Revision 2 deleted the live deal (by mistake), revision 3 put it back: revision 2 shows
    nothing hidden, but its provenance's `previous` is the digest of revision 1's verdict,
    which held the live deal (a hidden trump among a few candidates is found by hashing
    guessed verdicts): it is withheld with the signature that covers it."""
    t = make_tournament(store_client, preset="rr-hidden-rung")
    live = won_by(0, [1] * 7, suits="CHDS", n=2) | {"trump": {"hidden": "2S"}}
    done = won_by(2, [3] * 7, suits="CHDS") | {"trump": {"hidden": "2C"}}
    r = post_match(store_client, t, [done, live])
    mid, etag = r.get_json()["id"], r.headers["ETag"]
    etag = correct(store_client, t, mid, etag, [done], reason="deal 2 was entered at the wrong table")
    correct(store_client, t, mid, etag, [done, live], reason="it was this table's after all")
    keyed = store_client.get(f"/v1/matches/{mid}/revisions/2", headers=auth(t["key"])).get_json()["verdict"]
    seen = store_client.get(f"/v1/matches/{mid}/revisions/2").get_json()
    assert seen["record"]["deals"] == [done]  # nothing of revision 2 itself is hidden
    assert seen["verdict"]["provenance"]["previous"] is None and seen["verdict"]["signature"] is None
    assert seen["verdict"]["provenance"]["record"] == keyed["provenance"]["record"]  # its own record is public
    if keyed["signature"] is not None:  # a signing server chains its verdicts (SQLite's makes its key)
        assert keyed["provenance"]["previous"] and "revision before" in seen["verdict"]["provenance"]["withheld"]
    for n in (1, 3):
        assert withheld(store_client, mid, n), n
