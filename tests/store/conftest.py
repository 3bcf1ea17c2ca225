import pytest

from referee.store.db import Database
from referee.store.service import Store


@pytest.fixture
def store(db_url, monkeypatch):
    """The store on each backend; webhook retries fast."""
    monkeypatch.setenv("REFEREE_WEBHOOK_BACKOFF", "0.01")
    monkeypatch.setenv("REFEREE_WEBHOOK_MAX_BACKOFF", "0.05")
    s = Store(Database(db_url))
    yield s
    s.db.dispose()
