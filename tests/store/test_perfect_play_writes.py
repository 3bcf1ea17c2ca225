"""Perfect play and the store (issue 33): a write is judged before its transaction, so a search
holds no lock (a write in another tournament goes on meanwhile; on SQLite it waited 30 s and
failed "database is locked"), the ETag is checked again inside the transaction (a write that
loses the race is 412), and a claim settled in one revision is kept by the next where its
deal is unchanged: it is searched once."""
import threading

import pytest

from referee.settlers import Searching
from referee.store.errors import PreconditionFailed
from tests.solver.claim_deals import endgame

pytestmark = pytest.mark.usefixtures("fresh_claims")

W = [1, 1, 1, 0, 0, 0, 0, 3, 2, 0]
FINAL = ["AS KS QS", "JS AH KH", "TS QH 2D", "JH TH 2C"]
CLAIM = [{"seat": 0, "claim": 3}]


def endgame_deal() -> dict:
    hands, events = endgame(FINAL, W)
    return {"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": events}


def fresh_deal() -> dict:
    return {"dealer": 2, "trump": {"suit": "H"}, "events": []}


def match_with(store, deals, **options):
    t, key, _ = store.create_tournament("T", "seven-courts", options, True)
    view, _ = store.create_match(t.id, key, {"deals": deals}, None)
    return t.id, key, view


def test_a_claim_settled_in_one_revision_is_not_searched_again_by_the_next_writes(store, searches):
    _, key, view = match_with(store, [endgame_deal()])
    view = store.append_events(view.match.id, key, view.etag, CLAIM + [{"seat": 1, "dispute": True}])
    assert searches == [("claim", 0)] and view.revision.verdict["deals"][0]["claim"]["awarded"] == 3
    view = store.add_deal(view.match.id, key, view.etag, fresh_deal())
    view = store.append_events(view.match.id, key, view.etag, [{"seat": 3, "play": "AH"}])
    view = store.close(view.match.id, key, view.etag)
    assert searches == [("claim", 0)]  # three more revisions, each judged whole, no search
    assert view.revision.verdict["deals"][0]["claim"]["awarded"] == 3


def test_a_correction_of_the_claim_searches_it_again(store, searches):
    _, key, view = match_with(store, [endgame_deal()])
    view = store.append_events(view.match.id, key, view.etag, CLAIM + [{"seat": 1, "dispute": True}])
    record = view.revision.record
    changed = {**record, "deals": [{**record["deals"][0],
                                    "events": record["deals"][0]["events"][:-1] + [{"seat": 3, "accept": True}]}]}
    store.revise(view.match.id, key, view.etag, changed, "the answer was an accept")
    assert searches == [("claim", 0), ("claim", 0)]


def test_a_bell_line_is_kept_by_a_later_correction_that_leaves_its_deal_as_it_was(store, searches):
    _, key, view = match_with(store, [endgame_deal()], abandoned_deal="perfect_play")
    view = store.close(view.match.id, key, view.etag)
    assert searches == [("bell", 0)] and view.revision.verdict["deals"][0]["at_close"]["perfect_play"]
    record = view.revision.record
    store.revise(view.match.id, key, view.etag, {**record, "players": ["N", "E", "S", "W"]}, "names")
    assert searches == [("bell", 0)]


def test_a_search_holds_no_lock_a_write_in_another_tournament_goes_on(store, monkeypatch):
    """The claim's search waits (here, until the other write is done): the other write is made meanwhile."""
    _, key1, claimed = match_with(store, [endgame_deal()])
    _, key2, other = match_with(store, [fresh_deal()])
    in_search, release = threading.Event(), threading.Event()
    settle = Searching.settle

    def waiting(self, deal, index):
        in_search.set()
        assert release.wait(60), "the other write never came"
        return settle(self, deal, index)

    monkeypatch.setattr(Searching, "settle", waiting)
    answers = []
    writer = threading.Thread(target=lambda: answers.append(store.append_events(
        claimed.match.id, key1, claimed.etag, CLAIM + [{"seat": 1, "dispute": True}])))
    writer.start()
    try:
        assert in_search.wait(60)
        view = store.append_events(other.match.id, key2, other.etag, [{"seat": 3, "play": "AH"}])
        assert view.match.revision == 2 and not release.is_set()  # made while the search went on
    finally:
        release.set()
        writer.join(120)
    assert answers and answers[0].revision.verdict["deals"][0]["claim"]["awarded"] == 3


def test_a_write_that_loses_the_race_while_it_is_judged_is_412(store, monkeypatch):
    _, key, view = match_with(store, [endgame_deal()])
    view = store.append_events(view.match.id, key, view.etag, CLAIM)
    settle = Searching.settle
    raced, first = [], [True]

    def racing(self, deal, index):
        if first.pop() if first else False:  # another client's answer lands while this one is judged
            raced.append(store.append_events(view.match.id, key, view.etag, [{"seat": 3, "accept": True}]))
        return settle(self, deal, index)

    monkeypatch.setattr(Searching, "settle", racing)
    with pytest.raises(PreconditionFailed) as exc:
        store.append_events(view.match.id, key, view.etag, [{"seat": 1, "dispute": True}])
    assert exc.value.extra["etag"] == raced[0].etag and "while this write was judged" in str(exc.value)
    assert store.get_match(view.match.id, key).revision.verdict["deals"][0]["claim"]["answer"] == "accept"


def test_a_claim_settled_at_the_close_is_kept_by_a_later_correction(store, searches):
    """R-34b: the claim waiting when the session was closed is settled once, by the close."""
    _, key, view = match_with(store, [endgame_deal()])
    view = store.append_events(view.match.id, key, view.etag, CLAIM)
    view = store.close(view.match.id, key, view.etag)
    claim = view.revision.verdict["deals"][0]["claim"]
    assert searches == [("claim", 0)] and claim["at_close"] and claim["rule"][0] == "R-34b"
    record = view.revision.record
    view = store.revise(view.match.id, key, view.etag, {**record, "players": ["N", "E", "S", "W"]}, "names")
    assert searches == [("claim", 0)] and view.revision.verdict["deals"][0]["claim"] == claim  # R-34b once in its rule


def test_a_restored_match_searches_each_claim_once_however_many_revisions_follow_it(store, searches):
    _, key, view = match_with(store, [endgame_deal()])
    view = store.append_events(view.match.id, key, view.etag, CLAIM + [{"seat": 1, "dispute": True}])
    view = store.add_deal(view.match.id, key, view.etag, fresh_deal())
    view = store.append_events(view.match.id, key, view.etag, [{"seat": 3, "play": "AH"}])
    view = store.append_events(view.match.id, key, view.etag, [{"seat": 0, "play": "KH"}])
    exported = [line for line in store.export(None) if line["kind"] == "match"][0]
    t2, _, _ = store.create_tournament("T2", "seven-courts", {}, True)
    searches.clear()
    revisions = [{k: v for k, v in r.items() if k != "created_at"} for r in exported["revisions"]]
    restored, created = store.restore_match(t2.id, "again", revisions)
    assert created and restored.match.revision == 5 and searches == [("claim", 0)]
