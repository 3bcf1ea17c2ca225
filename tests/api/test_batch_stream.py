"""A batch is read and judged item by item (issue 38, item 8): one 29 MiB JSON-array batch
raised a worker by 330-420 MiB, as the whole array was parsed before the first item was
judged. Now its items are found by the array's frame (referee/jsonitems.py) and each is
parsed when it is judged, so a batch holds its body and one item, whatever its length."""
import json
import tracemalloc
from pathlib import Path

import pytest

from referee.jsonitems import NotAnArray, array_spans, line_spans
from referee.jsontext import NotJSON

RECORD = json.loads((Path(__file__).parents[2] / "examples" / "double-sir.json").read_text())


def peak_while_judged(client, body: bytes, content_type: str) -> tuple[int, list[int]]:
    """The most memory Python held while the batch was posted, judged and its answer read
    (line by line, as a client reads a stream), and the answer's statuses."""
    tracemalloc.start()
    try:
        r = client.post("/v1/verdicts/batch", data=body, content_type=content_type, buffered=False)
        statuses = []
        for chunk in r.response:
            statuses += [json.loads(line)["status"] for line in chunk.splitlines()]
        r.close()
        return tracemalloc.get_traced_memory()[1], statuses
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("content_type", ["application/json", "application/x-ndjson"])
def test_a_batch_s_peak_memory_is_a_few_times_its_body_not_ten_times(client, content_type):
    """600 records of 2.5 KiB: parsed whole, the array took 22 times its text (25 MiB for
    1.1 MiB); judged item by item the batch holds its body, its copy and one item."""
    records = [RECORD] * 600
    body = (json.dumps(records) if content_type == "application/json"
            else "\n".join(json.dumps(r) for r in records)).encode()
    peak, statuses = peak_while_judged(client, body, content_type)
    assert statuses == [200] * 600
    assert peak < 4 * len(body), f"{peak / 2**20:.1f} MiB held for a {len(body) / 2**20:.1f} MiB batch"


def test_an_array_s_items_are_found_by_its_frame():
    text = b' [ 1 , "a]" , {"x": [1, {"y": "}"}]}, [[[[[[[[[[1]]]]]]]]]], "\\"" ] '
    assert [text[a:b] for a, b in array_spans(text, 100)] == [
        b"1", b'"a]"', b'{"x": [1, {"y": "}"}]}', b"[[[[[[[[[[1]]]]]]]]]]", b'"\\""']
    assert array_spans(b"\xef\xbb\xbf[]", 100) == []
    assert len(array_spans(b"[" + b"1," * 50 + b"1", 3)) == 4  # counting stops past the most: the rest unread


@pytest.mark.parametrize("text, why", [(b"", "a value was expected"), (b"[1,", "a value was expected at line 1 column 4"),
                                       (b"[1 2]", "a comma or the array's end was expected"),
                                       (b"[1]x", "trailing characters"), (b'["abc', "a value was expected"),
                                       (b"[[[[[[[[[[[[", "the text ends inside a value"),
                                       (b'[{"a": "b}]', "a string is not closed")])
def test_a_broken_frame_is_not_json(text, why):
    with pytest.raises(NotJSON, match=why):
        array_spans(text, 100)


def test_one_value_that_is_no_array_is_said_so():
    with pytest.raises(NotAnArray):
        array_spans(b'{"preset": "court-piece"}', 100)


def test_json_lines_are_the_lines_holding_something():
    text = b"a\n\n  \nb\r\nc"
    assert [text[a:b] for a, b in line_spans(text, 100)] == [b"a", b"b\r", b"c"]


def test_a_broken_item_inside_a_sound_array_is_its_own_400_line_and_the_others_are_judged(client):
    body = b'[{"preset": "court-piece", "deals": []}, {"preset": tru}, {"preset": "court-piece", "deals": []}]'
    r = client.post("/v1/verdicts/batch", data=body, content_type="application/json")
    lines = [json.loads(line) for line in r.get_data().splitlines()]
    assert [line["status"] for line in lines] == [200, 400, 200]
    assert lines[1]["problem"]["title"] == "Malformed JSON" and "the item is not JSON" in lines[1]["problem"]["detail"]


def test_a_broken_array_is_a_400_before_any_line(client):
    r = client.post("/v1/verdicts/batch", data=b'[{"preset": "court-piece", "deals": []}, {', content_type="application/json")
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert "the body is not JSON: the text ends inside a value" in r.get_json()["detail"]


def test_an_item_past_the_size_of_one_record_is_its_own_413(sqlite_url):
    from referee.app import create_app

    client = create_app({"TESTING": True, "DATABASE_URL": sqlite_url, "MAX_CONTENT_LENGTH": 200}).test_client()
    big = json.dumps({"preset": "court-piece", "deals": [], "players": ["x" * 100] * 4})
    r = client.post("/v1/verdicts/batch", data=f'[{big}, {{"preset": "court-piece", "deals": []}}]',
                    content_type="application/json")
    assert [json.loads(line)["status"] for line in r.get_data().splitlines()] == [413, 200]
