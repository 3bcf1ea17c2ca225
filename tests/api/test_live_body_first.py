"""A live write (a card, a deal added) receives its body before the store's transaction opens:
a client still sending holds no match row lock and, on SQLite, no write lock (the store reads,
judges and stores a card in one transaction, 36aa6b9). Its key is still checked first."""
import io
import json
from contextlib import contextmanager

import pytest

from referee.store.db import Database
from tests.api.test_matches import auth, live_match, make_tournament, post_match
from tests.helpers import ev


@pytest.fixture
def open_transactions(monkeypatch):
    """How many of the store's writing transactions are open, counted as they open and close."""
    opened = [0]
    plain = Database.transaction

    @contextmanager
    def counted(self):
        opened[0] += 1
        try:
            with plain(self) as session:
                yield session
        finally:
            opened[0] -= 1
    monkeypatch.setattr(Database, "transaction", counted)
    return opened


class Sending(io.BytesIO):
    """A body arriving from the client: each read notes how many transactions were open."""

    def __init__(self, data: bytes, opened: list[int]):
        super().__init__(data)
        self.opened, self.seen = opened, []

    def read(self, n=-1):
        self.seen.append(self.opened[0])
        return super().read(n)

    def readinto(self, b):
        self.seen.append(self.opened[0])
        return super().readinto(b)


def send(client, path, key, etag, body: dict, opened):
    raw = json.dumps(body).encode()
    stream = Sending(raw, opened)
    r = client.post(path, input_stream=stream, content_length=len(raw), content_type="application/json",
                    headers=auth(key, etag))
    return r, stream


@pytest.mark.parametrize("what", ["events", "deals"])
def test_a_live_write_receives_its_body_with_no_transaction_open(store_client, open_transactions, what):
    t, mid, etag = live_match(store_client)
    if what == "deals":  # a new match of the tournament, its first deal added
        m = post_match(store_client, t, []).get_json()
        mid, etag = m["id"], m["etag"]
        body = {"dealer": 0, "trump": {"suit": "S"}}
    else:
        body = {"events": ev("1:AH 2:3H")}
    r, stream = send(store_client, f"/v1/matches/{mid}/{what}", t["key"], etag, body, open_transactions)
    assert r.status_code == 200, r.get_json()
    assert stream.seen and set(stream.seen) == {0}  # every read before the write's transaction


def test_the_key_is_still_checked_before_the_body_received_first(store_client, open_transactions):
    """A wrong key is 403 whatever the body (not JSON, the wrong type, too large); the write key
    gets the body's own answer."""
    t, mid, etag = live_match(store_client)
    path = f"/v1/matches/{mid}/events"
    for headers, data, ctype, code in [({"Authorization": "Bearer rk_wrong"}, b"{", "application/json", 403),
                                       ({"Authorization": "Bearer rk_wrong"}, b"{}", "text/plain", 403),
                                       (auth(t["key"], etag), b"{", "application/json", 400),
                                       (auth(t["key"], etag), b"{}", "text/plain", 415)]:
        r = store_client.post(path, data=data, content_type=ctype, headers=headers)
        assert r.status_code == code, (headers, data, ctype, r.get_json())


def test_a_body_over_the_limit_is_413_after_the_key(store_client, store_app):
    t, mid, etag = live_match(store_client)
    path = f"/v1/matches/{mid}/events"
    big = b'{"events": "' + b"x" * store_app.config["MAX_CONTENT_LENGTH"] + b'"}'
    assert store_client.post(path, data=big, content_type="application/json",
                             headers={"Authorization": "Bearer rk_wrong"}).status_code == 403
    assert store_client.post(path, data=big, content_type="application/json",
                             headers=auth(t["key"], etag)).status_code == 413
