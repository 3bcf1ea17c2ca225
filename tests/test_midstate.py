"""A SHA-256 put down and taken up again (referee/midstate.py) gives hashlib's digest, wherever
it was put down: within a block, at a block's end, after nothing; and a record's digest
hashed from its deals' midstate is provenance's digest of the whole record."""
import hashlib
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import midstate
from referee.judge import hashed
from referee.provenance import canonical, record_digest

pytestmark = pytest.mark.skipif(not midstate.available(), reason="no libcrypto here: the store hashes whole matches")


@given(st.binary(max_size=700), st.integers(0, 700))
def test_a_hash_resumed_from_its_state_is_hashlib_s(data, cut):
    cut = min(cut, len(data))
    state = midstate.Sha256().update(data[:cut]).state()
    assert midstate.Sha256(state).update(data[cut:]).digest() == hashlib.sha256(data).digest()


def test_the_state_is_plain_json_and_says_what_was_hashed():
    data = os.urandom(130)
    state = midstate.Sha256().update(data).state()
    assert state["length"] == 130 and bytes.fromhex(state["pending"]) == data[128:] and len(state["h"]) == 64


def test_a_record_hashed_from_the_state_before_its_last_deal_is_the_whole_record_s():
    deals = [{"dealer": d, "trump": {"suit": "S"}, "events": [{"seat": 1, "play": "AH"}] * d} for d in range(4)]
    record = {"preset": "court-piece", "options": {}, "players": ["A", "B", "C", "D"], "deals": deals}
    state = midstate.Sha256().update(b'{"deals":[' + b"".join(canonical(d) + b"," for d in deals[:3])).state()
    assert "sha256:" + hashed(state, {**record, "deals": deals[3:]}).hex() == record_digest(record)
