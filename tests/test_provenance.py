"""The canonical form (RFC 8785, JCS) and the digests of a verdict's provenance: the same
record, however its keys are ordered and spaced, has one digest; JCS's own examples hold."""
import json
import math
import struct
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Record, judge, resolve
from referee.provenance import (canonical, engine_source, number, options_digest, provenance, record_digest,
                                rulebook_digest)

RECORDS = sorted((Path(__file__).parent / "engine" / "records").glob("*.json"))
REVOKE = json.loads((Path(__file__).parents[1] / "examples" / "revoke.json").read_text())


@pytest.mark.parametrize("bits, text", [  # RFC 8785, Appendix B: IEEE 754 doubles as JCS writes them
    ("0000000000000000", "0"), ("8000000000000000", "0"), ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"), ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"), ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"), ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"), ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"), ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"), ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"), ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"), ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"), ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"), ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
])
def test_numbers_are_written_as_ecmascript_writes_the_double(bits, text):
    x = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert number(x) == text
    assert canonical(x) == text.encode() and canonical([x]) == f"[{text}]".encode()


def test_the_rfc_8785_example_object():
    # RFC 8785 section 3.2.3: names sorted as UTF-16 code units (the emoji's surrogate pair before U+FB33)
    value = {"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
             "1": "One", "\U0001F600": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"}
    expected = ('{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",'
                '"\u20ac":"Euro Sign","\U0001F600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}')
    assert canonical(value) == expected.encode()
    text = r"""{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}"""
    expected = r"""{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"""
    assert canonical(orjson.loads(text)) == expected.encode()


def test_whole_numbers_written_as_fractions_and_integers_past_2_53_are_read_as_jcs_reads_them():
    assert canonical({"seat": 3.0, "n": -0.0}) == canonical({"n": 0, "seat": 3}) == b'{"n":0,"seat":3}'
    assert canonical(2 ** 60 + 1) == b"1152921504606847000"  # the nearest double, as JCS does
    assert canonical(2 ** 53) == b"9007199254740992"
    with pytest.raises(ValueError):  # no JSON text holds one (orjson reads none)
        number(math.nan)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 60, 2 ** 60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25)


def _shuffled(value, rnd):
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _shuffled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rnd) for v in value]
    return value


def _spaced(value, rnd) -> str:
    """The value as JSON text with whitespace of every kind between its tokens."""
    gap = lambda: "".join(rnd.choice(" \t\n\r") for _ in range(rnd.randrange(3)))  # noqa: E731
    if isinstance(value, dict):
        return "{" + gap() + ",".join(f"{gap()}{json.dumps(k)}{gap()}:{_spaced(v, rnd)}" for k, v in value.items()) + gap() + "}"
    if isinstance(value, list):
        return "[" + gap() + ",".join(_spaced(v, rnd) for v in value) + gap() + "]"
    return gap() + json.dumps(value) + gap()


@settings(max_examples=300, deadline=None)
@given(json_values, st.randoms(use_true_random=False))
def test_the_canonical_form_does_not_depend_on_key_order_or_whitespace(value, rnd):
    text = _spaced(_shuffled(value, rnd), rnd)
    assert canonical(orjson.loads(text)) == canonical(value) == canonical(json.loads(json.dumps(value)))
    # the text is JSON that reads back as the value (in JCS's reading: a number is a double)
    assert json.loads(canonical(value), parse_int=_double_if_big) == json.loads(json.dumps(value), parse_int=_double_if_big)


def _double_if_big(text):
    n = int(text)
    return n if abs(n) <= 2 ** 53 else float(n)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(RECORDS))
def test_a_record_has_one_digest_however_it_is_written(rnd, path):
    record = json.loads(path.read_text())["record"]
    text = _spaced(_shuffled(record, rnd), rnd)
    assert record_digest(orjson.loads(text)) == record_digest(record)


def test_the_fast_form_is_the_exact_one_for_every_golden_verdict():
    """orjson's sorted text is JCS's for values without fractions: every verdict takes that road."""
    from referee.provenance import _exact

    for path in RECORDS:
        verdict = judge(Record.from_dict(json.loads(path.read_text())["record"])).as_dict()
        assert canonical(verdict) == _exact(verdict).encode(), path.name
        assert canonical(verdict) == json.dumps(verdict, sort_keys=True, separators=(",", ":"),
                                                ensure_ascii=False).encode()  # docs/records.md says so


def test_provenance_names_the_engine_the_rulebook_the_options_and_the_record():
    options = resolve(REVOKE["preset"], REVOKE.get("options"))
    p = provenance(REVOKE, options)
    assert p["engine"] == "0.1.0" and p["engine_source"] == engine_source()
    rulebook = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8").encode()
    import hashlib

    assert p["rulebook"] == rulebook_digest() == "sha256:" + hashlib.sha256(rulebook).hexdigest()
    assert p["record"] == "sha256:" + hashlib.sha256(canonical(REVOKE)).hexdigest()
    assert p["options"] == "sha256:" + hashlib.sha256(canonical(options.as_dict())).hexdigest()
    assert p["key"] is None and p["signed_at"] is None


def test_the_same_rules_spelled_two_ways_have_one_options_digest():
    # rr-single-sir is court-piece's game with three overrides: the rules in force are the same
    spelled = resolve("court-piece", {"play_on": False, "scoring": "points", "target": 10, "goon_court_courts": 3,
                                      "pass_once": True})
    assert options_digest(spelled) == options_digest(resolve("rr-single-sir"))
    assert options_digest(resolve("court-piece")) != options_digest(resolve("court-piece", {"kot": True}))


def test_an_engine_verdict_s_sorted_text_is_the_canonical_form_of_its_json():
    from referee import jsontext
    from referee.verdict_signing import canonical_verdict

    for path in RECORDS:
        record = json.loads(path.read_text())["record"]
        verdict = judge(Record.from_dict(record))
        p = provenance(record, resolve(record["preset"], record.get("options")))
        text = jsontext.dumps_verdict(verdict)[:-1] + b',"provenance":' + orjson.dumps(p) + b"}"
        assert canonical_verdict({**verdict.as_dict(), "provenance": p}) == canonical(orjson.loads(text)), path.name


def test_a_signed_verdict_is_the_unsigned_one_s_text_with_its_key_time_and_signature(tmp_path):
    # the two writers (the verdict's dicts when signing, its values when not) give one text,
    # member for member in the contract's order, and the signature checks
    from referee.judge import write
    from referee.verdict_signing import Signer, message

    signer = Signer(tmp_path / "keys")
    records = {path.name: json.loads(path.read_text())["record"] for path in RECORDS}
    records["no deal"] = {"preset": "court-piece", "deals": []}
    for name, record in records.items():
        verdict = judge(Record.from_dict(record))
        signed = orjson.loads(write(verdict, record, signer))
        key = signer.current()
        assert signed["provenance"]["key"] == key.id and key.holds(message(signed), signed["signature"]), name
        signed["provenance"].update(key=None, signed_at=None)
        signed["signature"] = None
        assert orjson.dumps(signed) == write(verdict, record, None), name
