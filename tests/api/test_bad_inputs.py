"""No input gives a 500. For every operation of openapi.yaml: every field of a valid body
replaced by each value of a catalogue of bad ones, whole bodies that are not what they
should be (empty, not JSON, too big, chunked, nested beyond the parser's limit), bad path
and query values; on SQLite and PostgreSQL. Each answer is below 500, and a 4xx is a
problem+json (the pages' form answers its own HTML)."""
from __future__ import annotations

import copy
import io
import json

import pytest

from tests.api.spec import spec, validate_response
from tests.helpers import ev, won_by

MIB = 1024 * 1024


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# JSON texts of values that are wrong somewhere; each is put in place of a field's value.
BAD_VALUES = [
    "null", "true", "-1", "0", "3.5", "1e308", "1e400", "9223372036854775808", "18446744073709551616",
    '""', '"x"', json.dumps("x" * 5000), r'"\u0000"', r'"a\u0000b"', r'"\ud800"', r'"\udfff x"',
    "[]", "{}", '[{"a": 1}]', nested(990), nested(1100),
]
BAD_BODIES = [b"", b" ", b"{", b"null", b"[]", b"7", b'"x"', b"\xff\xfe", b'{"a": NaN}', b'{"a": Infinity}',
              nested(1000).encode(), nested(1030).encode(), b'{"\\u0000": 1}', b'{"a": "\\ud800"}',
              b"{" + b'"a": 1,' * 10 + b'"a": 2}']
BAD_IDS = ["%00", "a%00b", "x" * 300, "..%2F..", "%E2%80%8F", "-1", "9223372036854775808"]
BAD_QUERY = ["-1", "0", "2147483648", "9223372036854775808", "1e3", "%00", "abc", "x" * 3000,
             "MDAwMS0wMS0wMVQwMDowMDowMCswMTowMHxh", "%FF"]


@pytest.fixture
def world(store_client, allow_loopback_hooks):
    """A tournament, a live match and a webhook: real ids, so requests reach past the 404s."""
    c = store_client
    t = c.post("/v1/tournaments", json={"name": "n", "preset": "court-piece"}).get_json()
    key = t["key"]
    m = c.post("/v1/matches", json={"tournament": t["id"], "record": {"deals": [won_by(0, [1] * 3)]}},
               headers={"Authorization": f"Bearer {key}"}).get_json()
    w = c.post(f"/v1/tournaments/{t['id']}/webhooks", json={"url": "http://127.0.0.1:9/x"},
               headers={"Authorization": f"Bearer {key}"}).get_json()
    return {"tournament_id": t["id"], "match_id": m["id"], "webhook_id": w["id"], "number": 1,
            "rule_id": "R-1", "key": key}


def valid_bodies(world) -> dict[str, object]:
    record = {"preset": "court-piece", "options": {"target": 3}, "players": ["A", "B", "C", "D"],
              "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": None, "events": ev("1:AH 2:? 2:<")}],
              "closed": False}
    return {
        "createVerdict": record,
        "createVerdicts": [record],
        "createTournament": {"name": "n", "preset": "court-piece", "options": {"play_on": True}, "public": False},
        "rotateKey": {"key": "read"},
        "createMatch": {"tournament": world["tournament_id"], "external_id": "e", "record": {
            "players": ["A", "B", "C", "D"], "deals": [{"dealer": 0, "trump": {"suit": "S"}, "events": ev("1:AH")}]}},
        "appendEvents": {"events": ev("3:4H")},
        "startDeal": {"dealer": 0, "trump": {"suit": "S"}, "events": []},
        "reviseRecord": {"reason": "r", "record": {"deals": [won_by(0, [1] * 2)]}},
        "createWebhook": {"url": "http://127.0.0.1:9/y"},
    }


def fields_of(value, path=()):
    """Every place in a body: (path, value), descending into objects and a list's first item."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from fields_of(v, path + (k,))
    elif isinstance(value, list) and value:
        yield from fields_of(value[0], path + (0,))


def replaced(body, path, raw: str) -> bytes:
    marker = "@@BAD@@"
    copy_ = copy.deepcopy(body)
    if not path:
        return raw.encode()
    target = copy_
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = marker
    return json.dumps(copy_).replace(f'"{marker}"', raw).encode()


def operations():
    for path, item in spec()["paths"].items():
        for method, op in item.items():
            if method in ("get", "post", "put", "delete"):
                yield path, method, op


def url(path: str, world: dict, **override) -> str:
    out = path
    for name in ("tournament_id", "match_id", "webhook_id", "number", "rule_id"):
        out = out.replace("{" + name + "}", str(override.get(name, world[name])))
    return out


def send(client, method, path, world, body=None, content_type="application/json", chunked=False):
    headers = {"Authorization": f"Bearer {world['key']}"}
    if "match_id" in path or "{" not in path:
        etag = client.get(f"/v1/matches/{world['match_id']}", headers=headers).headers.get("ETag")
        headers["If-Match"] = etag
    kwargs = {"headers": headers}
    if body is not None:
        if chunked:
            headers["Transfer-Encoding"] = "chunked"
            kwargs["input_stream"] = io.BytesIO(body)
        else:
            kwargs["data"] = body
        kwargs["content_type"] = content_type
    return getattr(client, method)(path, **kwargs)


def judged(r, what: str, pages_ok: bool) -> None:
    assert r.status_code < 500, f"{what}: {r.status_code} {r.get_data(as_text=True)[:300]}"
    if r.status_code >= 400 and not (pages_ok and r.mimetype == "text/html"):
        assert r.mimetype == "application/problem+json", f"{what}: {r.status_code} {r.mimetype}"


def test_every_field_of_every_body_with_bad_values(store_client, world):
    bodies = valid_bodies(world)
    seen = 0
    for path, method, op in operations():
        body = bodies.get(op["operationId"])
        if body is None:
            continue
        target = url(path, world)
        for place, _ in fields_of(body):
            for raw in BAD_VALUES:
                r = send(store_client, method, target, world, replaced(body, place, raw))
                judged(r, f"{op['operationId']} {place} = {raw[:40]}", False)
                seen += 1
    assert seen > 1000


def test_every_operation_with_bodies_that_are_not_bodies(store_client, world):
    for path, method, op in operations():
        if method == "get":
            continue
        target = url(path, world)
        pages = op["operationId"] == "check"
        types = ["application/x-www-form-urlencoded"] if pages else ["application/json"]
        if op["operationId"] == "createVerdicts":
            types.append("application/x-ndjson")
        for content_type in types:
            for raw in BAD_BODIES:
                judged(send(store_client, method, target, world, raw, content_type), f"{op['operationId']} {raw[:20]!r}", pages)
            over = b'{"a": "' + b"x" * (33 * MIB if op["operationId"] == "createVerdicts" else MIB + 10) + b'"}'
            r = send(store_client, method, target, world, over, content_type)
            judged(r, f"{op['operationId']} oversized", pages)
            takes_body = "requestBody" in op and not pages
            if takes_body:
                assert r.status_code in (401, 403, 404, 412, 413, 428), (op["operationId"], r.status_code)
            r = send(store_client, method, target, world, over, content_type, chunked=True)
            judged(r, f"{op['operationId']} oversized, chunked", pages)
            if takes_body and r.status_code not in (401, 403, 404, 412, 428):
                assert r.status_code == 413, (op["operationId"], r.status_code)


def test_every_path_and_query_parameter_with_bad_values(store_client, world):
    for path, method, op in operations():
        names = [n for n in ("tournament_id", "match_id", "webhook_id", "number", "rule_id") if "{" + n + "}" in path]
        for name in names:
            for bad in BAD_IDS:
                r = send(store_client, method, url(path, world, **{name: bad}), world)
                judged(r, f"{op['operationId']} {name}={bad[:20]}", True)
        params = [p["name"] for p in op.get("parameters", []) if isinstance(p, dict) and p.get("in") == "query"]
        if op["operationId"] == "listMatches":
            params.append("tournament")
        for name in params:
            for bad in BAD_QUERY:
                r = send(store_client, method, f"{url(path, world)}?{name}={bad}", world)
                judged(r, f"{op['operationId']} ?{name}={bad[:20]}", True)


def test_a_chunked_body_over_the_limit_is_413_not_cut(store_client):
    body = json.dumps({"preset": "court-piece", "deals": [], "players": ["x" * (MIB // 2)] * 4}).encode()
    r = store_client.post("/v1/verdicts", input_stream=io.BytesIO(body), content_type="application/json",
                          headers={"Transfer-Encoding": "chunked"})
    assert r.status_code == 413 and r.get_json()["limit"] == MIB
    small = json.dumps({"preset": "court-piece", "deals": []}).encode()
    r = store_client.post("/v1/verdicts", input_stream=io.BytesIO(small), content_type="application/json",
                          headers={"Transfer-Encoding": "chunked"})
    assert r.status_code == 200


def test_a_value_nested_just_under_the_parsers_limit_is_a_422_with_its_pointer(store_client):
    body = '{"preset":"court-piece","options":{"target":' + nested(990) + '},"deals":[]}'
    r = store_client.post("/v1/verdicts", data=body, content_type="application/json")
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/options/target"
    assert "deeply nested" in r.get_json()["errors"][0]["detail"]


def test_a_422_lists_at_most_100_pointers_and_counts_the_rest(client):
    """A small body that is nothing but mistakes gets a bounded answer (it was 15 times the
    input): the first 100 pointers and how many more there were; in a batch too."""
    record = {"preset": "court-piece", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "events": [{"seat": 9}] * 3000}]}
    text = json.dumps(record, separators=(",", ":"))
    r = client.post("/v1/verdicts", data=text, content_type="application/json")
    validate_response(r, "/v1/verdicts", "post")
    problem = r.get_json()
    found = int(problem["detail"].split()[0])
    assert r.status_code == 422 and found >= 3000
    assert len(problem["errors"]) == 100 and problem["errors_omitted"] == found - 100
    assert problem["errors"][0]["pointer"].startswith("/deals/0/events/0")
    assert len(r.get_data()) < len(text)
    batch = client.post("/v1/verdicts/batch", data="\n".join([text] * 3), content_type="application/x-ndjson")
    lines = [json.loads(line) for line in batch.get_data().splitlines()]
    assert [len(x["problem"]["errors"]) for x in lines] == [100] * 3
    assert len(batch.get_data()) < 3 * len(text)
