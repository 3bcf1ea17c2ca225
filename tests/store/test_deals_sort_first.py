"""A live write hashes only the deal it changed (judge.hashed, store/deals.py's fresh): it
resumes a hash of '{"deals":[' and the deals before, so it relies on "deals" being the first
member of a record's and a verdict's canonical form (RFC 8785 sorts the members by name).
Only "closed" sorts before it, and a closed match never takes the one-deal path (it is
judged whole). These tests fail, saying why, the day another member would sort first."""
import orjson

from referee.provenance import canonical
from referee.record_shape.walk import RECORD_FIELDS
from tests.api.spec import spec
from tests.helpers import won_by

WHY = ("sorts before \"deals\" in the canonical form, so a live write's hash resumed from "
       "'{\"deals\":[' (judge.hashed, store/deals.py: fresh) would no longer be the whole form's: "
       "hash the member before the deals there, or judge such matches whole")


def early(names) -> list[str]:
    """The members that sort before "deals", but "closed" (never on the one-deal path)."""
    return sorted(n for n in names if n < "deals" and n != "closed")


def test_deals_is_the_first_member_of_a_stored_record_and_verdict_but_closed(store):
    t, key, _ = store.create_tournament("t", "court-piece", {"target": 5}, True)
    view, _ = store.create_match(t.id, key, {"players": ["A", "B", "C", "D"], "deals": [won_by(0, [1] * 7)]}, None)
    live = view.revision
    closed = store.close(view.match.id, key, view.etag).revision
    forms = {"live record": live.record, "live verdict": live.verdict,
             "closed record": closed.record, "closed verdict": closed.verdict}
    for name, value in forms.items():
        members = list(orjson.loads(canonical(value)))  # in the canonical form's order
        assert members == sorted(members) and "deals" in members, name
        assert not early(members), f"{name}: {early(members)} {WHY}"
    assert canonical(live.record).startswith(b'{"deals":[') and canonical(live.verdict).startswith(b'{"deals":[')
    assert closed.record["closed"] is True and canonical(closed.record).startswith(b'{"closed":true,"deals":[')


def test_no_member_the_contract_allows_sorts_before_deals_but_closed():
    # the members a record or verdict may have, present or not in the forms above
    schemas = spec()["components"]["schemas"]
    for name, names in {"record (RECORD_FIELDS)": RECORD_FIELDS,
                        "Record (openapi.yaml)": schemas["Record"]["properties"],
                        "Verdict (openapi.yaml)": schemas["Verdict"]["properties"]}.items():
        assert "deals" in names, name
        assert not early(names), f"{name}: {early(names)} {WHY}"
