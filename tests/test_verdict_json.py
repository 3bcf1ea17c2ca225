"""The verdict's bytes written from the value objects (`jsontext.dumps_verdict`) are the
bytes of `orjson.dumps(verdict.as_dict())`: over every golden record, random legal games
(with and without hands) and fuzzed records; and the API, the batch and `check --json`
write exactly those bytes."""
import json
import random

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import jsontext
from referee.cli import main
from referee.engine import Deal, DealRecord, Event, Record, TrumpSpec, judge, resolve
from referee.engine.playrecord import PLAY
from referee.engine.simulate import deal_hands, random_record
from tests.engine.test_fuzz import deal_strategy, option_sets
from tests.engine.test_golden import RECORDS
from tests.engine.test_properties import SETTINGS, presets, seeds, without_hands


def assert_same_bytes(record: Record) -> None:
    written = jsontext.dumps_verdict(judge(record))  # a fresh verdict: as_dict never ran on it
    assert written == orjson.dumps(judge(record).as_dict())


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_records_are_written_byte_for_byte(path):
    assert_same_bytes(Record.from_dict(json.loads(path.read_text())["record"]))


@SETTINGS
@given(presets, seeds)
def test_random_games_are_written_byte_for_byte(preset, seed):
    record = random_record(preset, resolve(preset), 3, random.Random(seed))
    assert_same_bytes(record)
    assert_same_bytes(without_hands(record))  # unproven show-outs, proofs by later plays


@SETTINGS
@given(st.sampled_from(["court-piece", "double-sir", "hidden-rung", "be-ranga-double-sar", "mendikot"]),
       option_sets, st.lists(deal_strategy(), max_size=3))
def test_fuzzed_records_are_written_byte_for_byte(preset, options, deals):
    """Impossible records, face-down cards, reveals, take-backs, piles, redeals."""
    try:
        record = Record.from_dict({"preset": preset, "options": options, "deals": deals})
        judge(record)
    except Exception:  # refused before any verdict (the fuzz test covers that path)
        return
    assert_same_bytes(record)


def face_down_game(seed: int) -> Record:
    """Hidden Rung where the caller, out of the suit led, plays face down when allowed."""
    options = resolve("hidden-rung", {"hidden_caller_face_down": True})
    rng = random.Random(seed)
    hands = deal_hands(rng)
    deal = Deal(options, 0, hands, TrumpSpec(hidden=hands[1][0]))
    events = []
    while not deal.is_over:
        if deal.filled == 4:
            deal.finish()
            continue
        down = deal.can_play_face_down() and rng.random() < 0.8
        event = Event(deal.to_play, PLAY, rng.choice(deal.legal_plays()), down)
        deal.push(event)
        events.append(event)
    return Record(preset="hidden-rung", options={"hidden_caller_face_down": True},
                  deals=(DealRecord(0, tuple(events), hands, TrumpSpec(hidden=hands[1][0])),))


@SETTINGS
@given(seeds)
def test_face_down_cards_are_written_byte_for_byte(seed):
    record = face_down_game(seed)
    assert_same_bytes(record)
    assert_same_bytes(without_hands(record))


def test_a_wrapper_holding_verdicts_is_written_whole():
    record = Record.from_dict(json.loads(RECORDS[0].read_text())["record"])
    line = {"index": 3, "status": 200, "verdict": judge(record)}
    assert jsontext.dumps_verdict(line) == orjson.dumps({**line, "verdict": judge(record).as_dict()})


def _golden(name: str) -> tuple[dict, bytes]:
    data = json.loads((RECORDS[0].parent / f"{name}.json").read_text())["record"]
    return data, orjson.dumps(judge(Record.from_dict(data)).as_dict())


def signed_part(verdict: bytes) -> bytes:
    """A verdict's bytes without the provenance and signature that end it (tests/test_verify.py)."""
    at = verdict.rindex(b',"provenance":')
    assert json.loads(verdict)["provenance"] == json.loads(verdict[at + len(b',"provenance":'):verdict.rindex(b',"signature":')])
    return verdict[:at] + b"}"


def test_the_api_writes_the_verdicts_bytes(client):
    data, expected = _golden("revoke-proven-later")
    assert signed_part(client.post("/v1/verdicts", json=data).get_data()) == expected


def test_the_batch_writes_the_verdicts_bytes(client):
    data, expected = _golden("double-sir-seed-example")
    body = client.post("/v1/verdicts/batch", data=orjson.dumps(data) + b"\n",
                       content_type="application/x-ndjson").get_data()
    assert body.startswith(b'{"index":0,"status":200,"verdict":') and body.endswith(b"}}\n")
    assert signed_part(body[len(b'{"index":0,"status":200,"verdict":'):-2]) == expected


def test_check_json_writes_the_verdicts_bytes(tmp_path, capsysbinary):
    data, expected = _golden("band-auto-must-trump-face-down-follow-proven-later")
    path = tmp_path / "r.json"
    path.write_bytes(orjson.dumps(data))
    main(["check", "--json", str(path)])
    out = capsysbinary.readouterr().out
    valid = b"true" if json.loads(expected)["valid"] else b"false"
    head = b'{"file":"' + str(path).encode() + b'","line":null,"valid":' + valid + b',"verdict":'
    assert out.startswith(head) and signed_part(out[len(head):-2]) == expected
