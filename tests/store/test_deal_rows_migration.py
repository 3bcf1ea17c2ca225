"""The migrations to matches stored by deal (0006) and feed events that name their deal
(0007), on a database made by main at 906a0dc (the last code that kept a match's whole head
on its row): afterwards every read answers byte for byte what it answered before, each deal
is a row with the standing it began from, each event names its deal, each tournament counts
its matches (0008); and back: after the downgrade the code of 906a0dc reads the same answers
again."""
import json
import os
from collections import Counter
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from alembic.script import ScriptDirectory

from referee.store.db import alembic_config, downgrade, upgrade
from referee.store.models import FeedEvent, Match, MatchDeal, Tournament
from tests.store.made_by_56977ff import answers
from tests.store.test_revision_migration import empty_url, made_by_old_code, old_code_at, serving  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
OLD = "906a0dc"

old_code = old_code_at(OLD, ("referee", "migrations", "docs", "openapi.yaml"))  # shipped/ links to them

READ_WITH_OLD_CODE = """
import json, sys
from referee.app import create_app
from tests.store.made_by_56977ff import answers
app = create_app({"TESTING": True, "DATABASE_URL": sys.argv[1]})
print(json.dumps(answers(app.test_client(), json.loads(sys.argv[2]))))
app.extensions["referee.store"].db.dispose()
"""


def read_by_old_code(old_code: Path, url: str, made: dict) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(old_code), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", READ_WITH_OLD_CODE, url, json.dumps(made)], capture_output=True,
                         text=True, env=env, cwd=old_code, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_every_read_is_the_same_after_the_upgrade_and_after_the_downgrade(old_code, empty_url):
    before = made_by_old_code(old_code, empty_url)
    assert len(before["answers"]) > 40
    upgrade(empty_url)
    with serving(empty_url) as app:
        assert answers(app.test_client(), before["made"]) == before["answers"]
        with app.extensions["referee.store"].db.reading() as s:
            shells = {m.id: (m.record["deals"], m.verdict["deals"]) for m in s.scalars(select(Match))}
            rows = s.execute(select(MatchDeal.match_id, MatchDeal.deal, MatchDeal.verdict, MatchDeal.start)
                             .order_by(MatchDeal.match_id, MatchDeal.deal)).all()
            events = s.execute(select(FeedEvent.type, FeedEvent.payload, FeedEvent.deal)).all()
            kept = dict(s.execute(select(Tournament.id, Tournament.match_count)).all())
            counted = Counter(s.scalars(select(Match.tournament_id)))
    # the match rows count their deals, the deals are rows: the uploaded two-deal match
    # (won 7-0 by team 1, then by team 0) is deals 0 and 1, the second begun at 0-1 in courts
    assert all(type(n) is int and n == v for n, v in shells.values())
    assert sum(n for n, _ in shells.values()) == len(rows) == 5
    uploaded = before["made"]["matches"][1]
    first, second = [r for r in rows if r.match_id == uploaded]
    assert (first.deal, second.deal) == (0, 1) and first.start["courts"] == [0, 0]
    assert second.start["courts"] == first.verdict["result"]["courts"] == [0, 1]
    # each feed event names its deal (0007): a trick's, a deal's, a violation's; none for the match's own
    assert "match.finished" in {e.type for e in events if e.deal is None} <= {"match.finished", "match.revised", "standings.changed"}
    assert all(e.deal == e.payload["deal"] for e in events if e.deal is not None) and len(events) > 20
    # each tournament counts its matches (0008)
    assert kept == {**dict.fromkeys(kept, 0), **counted} and sum(counted.values()) == len(shells) > 1
    downgrade(empty_url, ScriptDirectory.from_config(alembic_config(empty_url)).get_revision("0006").down_revision)
    assert read_by_old_code(old_code, empty_url, before["made"]) == before["answers"]
    upgrade(empty_url)
    with serving(empty_url) as again:
        assert answers(again.test_client(), before["made"]) == before["answers"]
