"""The migration to stored patches (0003), on a database made by main at 56977ff (the last
code that stored every revision whole): afterwards every read answers byte for byte what
it answered before, and the revisions hold patches, not copies."""
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from contextlib import contextmanager
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from referee.app import create_app
from referee.store.db import downgrade, upgrade
from referee.store.ids import keyed
from referee.store.models import Revision
from referee.store.views import where_play_is
from tests.conftest import BACKENDS, pg_database
from tests.store.made_by_56977ff import answers

ROOT = Path(__file__).resolve().parents[2]
OLD = "56977ff"


def old_code_at(commit: str, paths: tuple[str, ...] = ("referee", "migrations")):
    """A fixture: the referee package and migrations of `commit` (and the other `paths` it
    needs), from the repository's history."""
    @pytest.fixture(scope="module")
    def old_code(tmp_path_factory) -> Path:
        try:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, *paths],
                                     capture_output=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            pytest.skip(f"needs the repository's history (commit {commit})")
        target = tmp_path_factory.mktemp("old")
        tarfile.open(fileobj=io.BytesIO(archive)).extractall(target, filter="data")
        return target
    return old_code


old_code = old_code_at(OLD)


@pytest.fixture(params=BACKENDS)
def empty_url(request, tmp_path):
    """A database with no schema at all (the old code makes its own)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return pg_database(request.getfixturevalue("pg_server"), template=None)


def made_by_old_code(old_code: Path, url: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(old_code), str(ROOT)])}
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "store" / "made_by_56977ff.py"), url],
                         capture_output=True, text=True, env=env, cwd=old_code, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def as_said_since(path: str, body: str, verdicts: dict[str, dict]) -> str:
    """An old answer with what today's code says differently of the same state: since 9148f9a
    the key holder's view of a match has its own ETag (ending in .full, never the public
    view's), and a match's body names it; since 7384254 a match's summary says where play is
    (`at`, after `match`, from the verdict's `next`); every other byte is the old answer's."""
    body = _with_where_play_is(body, verdicts)
    if not re.fullmatch(r"/v1/matches/[0-9a-f]{32}", path):
        return body
    tag = json.dumps(json.loads(body)["etag"])
    assert body.count(tag) == 1, (path, tag)
    return body.replace(tag, json.dumps(keyed(json.loads(tag))))


def _with_where_play_is(body: str, verdicts: dict[str, dict]) -> str:
    data = json.loads(body)
    summaries = data.get("items") if isinstance(data, dict) and isinstance(data.get("items"), list) else [data]
    if not all(isinstance(m, dict) and "match" in m and "deals" in m and "at" not in m for m in summaries):
        return body
    for i, m in enumerate(summaries):
        verdict = m.get("verdict") or verdicts.get(m["id"])
        if verdict is None:
            return body
        summaries[i] = {k: v for k, v in _inserted(m, "at", where_play_is(verdict.get("next")))}
    if "items" in data and isinstance(data["items"], list):
        data["items"] = summaries
    else:
        data = summaries[0]
    return orjson.dumps(data).decode()


def _inserted(m: dict, name: str, value):
    for k, v in m.items():
        yield k, v
        if k == "match":
            yield name, value


def current_verdicts(answers: dict[str, str]) -> dict[str, dict]:
    """Each match's current verdict, as the old code answered its GET."""
    return {path.rsplit("/", 1)[1]: json.loads(body)["verdict"] for path, body in answers.items()
            if re.fullmatch(r"/v1/matches/[0-9a-f]{32}", path)}


@contextmanager
def serving(url: str):
    """Today's app on the database, its connections closed however the test ends (a failed
    assertion left PostgreSQL connections for the garbage collector to find in a later test)."""
    app = create_app({"TESTING": True, "DATABASE_URL": url})
    try:
        yield app
    finally:
        app.extensions["referee.store"].db.dispose()


def test_every_revision_reads_the_same_after_the_upgrade(old_code, empty_url):
    before = made_by_old_code(old_code, empty_url)
    assert len(before["answers"]) > 40
    verdicts = current_verdicts(before["answers"])
    expected = {path: as_said_since(path, body, verdicts) for path, body in before["answers"].items()}
    upgrade(empty_url)
    with serving(empty_url) as app:
        after = answers(app.test_client(), before["made"])
        assert after.keys() == expected.keys()
        for path, body in expected.items():
            assert after[path] == body, path
        with app.extensions["referee.store"].db.reading() as s:
            patches = s.scalars(select(Revision.record_patch).where(Revision.number > 1)).all()
        assert patches and all("=" not in p for p in patches[:20])  # later revisions are changes, not copies
    downgrade(empty_url, "0002")  # and back: the old schema with whole revisions again
    upgrade(empty_url)
    with serving(empty_url) as again:
        assert answers(again.test_client(), before["made"]) == expected
