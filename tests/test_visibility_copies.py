"""R-31's public view of a live deal is made of its own objects: building it leaves the stored
verdict as it was, and an edit of the view never reaches the verdict, where it would later
show a hidden card (the trump card laid face down)."""
import copy

from referee.engine import adjudicate_dict
from referee.visibility import PublicView
from tests.engine.test_hidden import HANDS
from tests.helpers import ev

# Rung Royal's Hidden Rung, dealer 0: the caller, seat 1, lays 3S face down; trick 1 (AH 4S 4H
# 3H) is over, seat 1 to lead: the deal is live and its trump unseen.
RECORD = {"preset": "rr-hidden-rung",
          "deals": [{"dealer": 0, "hands": HANDS, "trump": {"hidden": "3S"}, "events": ev("1:AH 2:4S 3:4H 0:3H")}]}


def containers(value, found=None) -> list:
    """Every dict and list inside `value` (itself included)."""
    found = [] if found is None else found
    if isinstance(value, (dict, list)):
        found.append(value)
        for v in value.values() if isinstance(value, dict) else value:
            containers(v, found)
    return found


def spoil(value) -> None:
    """Edit every dict and list of `value` in place, as a careless caller might."""
    for c in containers(value):
        if isinstance(c, dict):
            c["spoiled"] = True
            if "card" in c:
                c["card"] = "AS"
        else:
            c.append("spoiled")


def test_the_public_view_of_a_live_deal_shares_nothing_mutable_with_its_verdict():
    verdict = adjudicate_dict(RECORD)
    stored = verdict["deals"][0]
    assert stored["trump"]["card"] == "3S" and len(stored["tricks"]) == 1
    kept = copy.deepcopy(verdict)
    view = PublicView(RECORD, verdict)
    assert view.hidden(0)
    public = view.verdict()["deals"][0]
    assert verdict == kept  # making the view edited nothing stored
    assert "card" not in public["trump"] and public["trump"]["suit"] is None
    assert public["tricks"][0]["cards"][0] == {"seat": 1, "card": "AH", "event": 0}
    stored_ids = {id(c) for c in containers(stored)}
    assert not [c for c in containers(public) if id(c) in stored_ids]
    spoil(public)
    assert verdict == kept  # the view's edit did not reach the verdict
