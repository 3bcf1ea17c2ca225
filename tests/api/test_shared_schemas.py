"""A request body's schema is one instance shared by every request (referee.api.bodies.load,
given the schema's class): what it loads and the 422 it refuses with are what a schema made
for that request alone gives, whatever was loaded before it, in one thread or many."""
from concurrent.futures import ThreadPoolExecutor

import pytest

from referee.api.bodies import EventsSchema, MatchCreateSchema, TournamentCreateSchema, load
from referee.api.problems import Problem
from referee.record_shape import check_events

BODIES = [
    (EventsSchema, {"events": [{"seat": 1, "play": "KH"}]}, "events", {"events": check_events}),
    (EventsSchema, {"events": []}, "events", {"events": check_events}),
    (EventsSchema, {"events": [{"seat": 9, "play": "ZZ"}], "extra": 1}, "events", {"events": check_events}),
    (EventsSchema, {}, "events", {"events": check_events}),
    (TournamentCreateSchema, {"name": "Club night", "preset": "court-piece"}, "tournament", None),
    (TournamentCreateSchema, {"name": "", "preset": "no-such-game", "public": 1}, "tournament", None),
    (TournamentCreateSchema, {"name": "Club", "preset": "court-piece", "options": {"target": -3}}, "tournament", None),
    (MatchCreateSchema, {"tournament": "t1", "external_id": None}, "match", None),
    (MatchCreateSchema, {"tournament": 7, "record": [1]}, "match", None),
]


def outcome(schema, body, what, parts):
    """What a load gives: the loaded values, or the problem's status, detail and errors."""
    try:
        return "loaded", load(schema, body, what, parts)
    except Problem as exc:
        return "refused", (exc.status, exc.detail, exc.extra)


@pytest.mark.parametrize("schema,body,what,parts", BODIES)
def test_the_shared_instance_answers_as_a_fresh_one(schema, body, what, parts):
    assert outcome(schema, body, what, parts) == outcome(schema(), body, what, parts)


def test_a_refused_body_leaves_nothing_for_the_next():
    bad = {"events": [{"seat": 9, "play": "ZZ"}], "extra": 1}
    good = {"events": [{"seat": 2, "play": "10S"}]}
    kind, (status, _, extra) = outcome(EventsSchema, bad, "events", {"events": check_events})
    assert (kind, status) == ("refused", 422)
    assert "/extra" in {e["pointer"] for e in extra["errors"]}
    kind, loaded = outcome(EventsSchema, good, "events", {"events": check_events})
    assert kind == "loaded" and "extra" not in loaded and len(loaded["events"]) == 1
    # a default made for one load is not another's: the options dict is new each time
    first = load(TournamentCreateSchema, {"name": "A", "preset": "court-piece"}, "tournament")
    first["options"]["target"] = 5
    assert load(TournamentCreateSchema, {"name": "B", "preset": "court-piece"}, "tournament")["options"] == {}


def test_many_threads_loading_at_once_each_get_their_own_answer():
    expected = [outcome(schema(), body, what, parts) for schema, body, what, parts in BODIES]

    def work(i: int) -> bool:
        return all(outcome(*BODIES[(i + k) % len(BODIES)]) == expected[(i + k) % len(BODIES)] for k in range(200))

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(work, range(16)))
