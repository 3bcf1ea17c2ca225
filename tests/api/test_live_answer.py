"""A live card's body and answer, each written the short way: the events body read without its
schema when the schema would pass it as it is, and the match's URL written without url_for
when it is an id of ours. Each gives what the long way gives, problems included."""
import pytest
from flask import url_for
from hypothesis import given, settings, strategies as st

from referee.api.bodies import EventsSchema, load, load_events
from referee.api.problems import Problem
from referee.api.tournaments import match_url
from referee.record_shape import check_events


def by_schema(body):
    return load(EventsSchema, body, "events", {"events": check_events})["events"]


def outcome(read, body):
    """What a reading gives: the events, or the problem's document."""
    try:
        return "events", read(body)
    except Problem as exc:
        return "problem", exc.status, exc.body()


PLAY = {"seat": 1, "play": "AH"}
BODIES = {
    "one card": {"events": [PLAY]},
    "a card written as people write it": {"events": [{"seat": 1, "play": "ah"}]},
    "a card and a claim": {"events": [PLAY, {"seat": 2, "claim": 3}]},
    "a null event": {"events": [PLAY, None]},  # the schema's "must not be null" as well as the walk's
    "no event": {"events": []},
    "201 events": {"events": [PLAY] * 201},
    "200 bad events": {"events": [{"seat": 9}] * 200},
    "events not a list": {"events": {"seat": 1}},
    "another field": {"events": [PLAY], "why": "late"},
    "no events field": {"event": [PLAY]},
    "a card of no deck": {"events": [{"seat": 1, "play": "ZZ"}]},
    "not an object": [PLAY],
}


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_an_events_body_reads_as_its_schema_reads_it(body):
    assert outcome(load_events, body) == outcome(by_schema, body)


def test_a_null_event_is_two_problems_as_the_schema_says():
    kind, status, doc = outcome(load_events, BODIES["a null event"])
    assert (kind, status) == ("problem", 422)
    assert {"pointer": "/events/1", "detail": "must not be null"} in doc["errors"] and len(doc["errors"]) == 2


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2, 60) | st.sampled_from(["AH", "10h", "x", ""]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["seat", "play", "claim", "events", "face_down"]), inner,
                                      max_size=3),
                    max_leaves=12)
EVENT = st.fixed_dictionaries({"seat": st.integers(-1, 4) | st.none(), "play": st.sampled_from(["AH", "2C", "1X"])},
                              optional={"face_down": st.booleans() | st.none(), "claim": st.integers(0, 13)})


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.fixed_dictionaries({"events": st.lists(EVENT | JSON, max_size=5)}),
                 st.dictionaries(st.sampled_from(["events", "why"]), JSON, max_size=2), JSON))
def test_any_events_body_reads_as_its_schema_reads_it(body):
    assert outcome(load_events, body) == outcome(by_schema, body)


IDS = ["0123456789abcdef0123456789abcdef", "restored-1", "a b/c", "ünï", "x?y#z", "50%"]


@pytest.mark.parametrize("mounted", ["", "/referee", "/r/"])
@pytest.mark.parametrize("match_id", IDS)
def test_a_matchs_url_is_url_fors(app, match_id, mounted):
    with app.test_request_context("/v1/matches", environ_base={"SCRIPT_NAME": mounted}):
        assert match_url(match_id) == url_for("tournaments.getMatch", match_id=match_id)
