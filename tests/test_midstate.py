"""A SHA-256 put down and taken up again (referee/midstate.py) gives hashlib's digest, wherever
it was put down: within a block, at a block's end, after nothing; and a record's digest
hashed from its deals' midstate is provenance's digest of the whole record."""
import ctypes
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


def test_update_takes_bytes_only_a_str_is_refused_not_hashed():
    # unchecked, ctypes passed a str as its wide characters: "{}" hashed as "{\0", said nowhere
    h = midstate.Sha256().update(b'{"deals":[')
    with pytest.raises(TypeError, match="takes bytes, not str"):
        h.update("{}")
    with pytest.raises(TypeError, match="takes bytes, not bytearray"):
        h.update(bytearray(b"{}"))
    assert h.update(b"{}").digest() == hashlib.sha256(b'{"deals":[{}').digest()


def test_a_library_that_refuses_its_arguments_means_no_midstate_not_a_crash(monkeypatch):
    def refused(self):
        raise ctypes.ArgumentError("argument 1: wrong type")

    monkeypatch.setattr(midstate.Sha256, "digest", refused)
    midstate.available.cache_clear()
    try:
        assert midstate.available() is False
    finally:
        monkeypatch.undo()
        midstate.available.cache_clear()
    assert midstate.available()
