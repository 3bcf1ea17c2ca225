import os
import shutil
import uuid
from pathlib import Path

import psycopg
import pytest

from referee.app import create_app
from referee.store.db import upgrade
from tests import pg

BACKENDS = ["sqlite", "postgres"]
# Webhook secrets are sealed with this key in the tests (see referee/store/secrets.py).
os.environ.setdefault("REFEREE_SECRET_KEY", "the test suite's key")


def _xdist_missing() -> bool:
    try:
        import xdist  # noqa: F401
    except ImportError:
        return True
    return False


def pytest_addoption(parser):
    if _xdist_missing():  # a venv made before the test extras had pytest-xdist: pyproject's options do nothing
        parser.addoption("--numprocesses", default=None, help="(pytest-xdist is not installed)")
        parser.addoption("--dist", default=None, help="(pytest-xdist is not installed)")


if not _xdist_missing():
    def pytest_xdist_auto_num_workers(config):
        """pyproject's --numprocesses=auto: a worker per core (xdist's count) for the whole suite
        or a folder of it; none for test files named on the command line, where starting a
        worker (a Python importing the app and the test tools) costs more than it saves."""
        if any(Path(arg.split("::")[0]).is_file() for arg in config.args):
            return 0
        return None


def pytest_report_header(config):
    from tests.browser.conftest import report_header

    serial = ["pytest-xdist is not installed: the tests run in one process (pip install -e '.[test]')"
              ] if _xdist_missing() else []
    return [report_header(), pg.report_header(), *serial]


def no_postgres() -> None:
    """No PostgreSQL binaries: a failure where they are required (CI), else a skip."""
    if pg.required():
        pytest.fail("PostgreSQL 15 binaries not found (pg_config --bindir); CI must test against PostgreSQL "
                    "(.ci/run installs Debian's postgresql)")
    pytest.skip("PostgreSQL binaries not found on this machine")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "template.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def pg_server():
    bin_dir = pg.bindir()
    if bin_dir is None:
        no_postgres()
    # autovacuum off: its ANALYZE, run when it likes, moved the planner from index scans to
    # sequential ones in the middle of a test that counts what the database reads (the rows a
    # plan returns differ), so a read counted twice differed with nothing changed between
    server = pg.Server(bin_dir, "-c autovacuum=off").start()
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE template_referee")
    upgrade(server.url("template_referee"))
    yield server
    server.stop()


def _fresh_database(backend: str, request, tmp_path) -> str:
    if backend == "sqlite":
        path = tmp_path / "referee.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    server = request.getfixturevalue("pg_server")
    url = pg_database(server)
    request.addfinalizer(lambda: drop_database(server, url))
    return url


def pg_database(server, template: str | None = "template_referee") -> str:
    """A new database on the test server: migrated (a copy of the template), or empty."""
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server.url(), autocommit=True) as conn:
        # FILE_COPY (PostgreSQL 15) copies the template's files instead of logging each block
        copy = " STRATEGY FILE_COPY" if conn.info.server_version >= 150000 else ""
        conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}{copy}" if template else ""))
    return server.url(name)


def drop_database(server, url: str) -> None:
    """A test's database, dropped once it is done: the server keeps its files in memory."""
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A migrated, empty database: SQLite and a real PostgreSQL."""
    return _fresh_database(request.param, request, tmp_path)


@pytest.fixture
def sqlite_url(request, tmp_path):
    return _fresh_database("sqlite", request, tmp_path)


def _app(url):
    app = create_app({"TESTING": True, "DATABASE_URL": url})
    yield app
    app.extensions["referee.store"].db.dispose()


@pytest.fixture
def app(sqlite_url):
    yield from _app(sqlite_url)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store_app(db_url):
    """The app on each backend, for the stored-match endpoints."""
    yield from _app(db_url)


@pytest.fixture
def store_client(store_app):
    return store_app.test_client()


@pytest.fixture
def allow_loopback_hooks(monkeypatch):
    """Webhook targets on this machine (the tests' receivers): refused by default, so a test
    that delivers to one says so."""
    monkeypatch.setenv("REFEREE_WEBHOOK_HOSTS", "127.0.0.1,::1,localhost")


@pytest.fixture
def fresh_claims():
    """The solver's per-process memory of settled claims emptied, before and after: the test
    sees every search it causes."""
    from referee.solver import claims

    claims._cache.clear()
    yield
    claims._cache.clear()


@pytest.fixture
def searches(monkeypatch, fresh_claims):
    """Every search the settlers start (referee.settlers.Searching), as ("claim" or "bell", deal index)."""
    from referee.settlers import Searching

    seen = []
    settle, finish = Searching.settle, Searching.finish
    monkeypatch.setattr(Searching, "settle", lambda self, deal, i: seen.append(("claim", i)) or settle(self, deal, i))
    monkeypatch.setattr(Searching, "finish", lambda self, deal, i: seen.append(("bell", i)) or finish(self, deal, i))
    return seen
