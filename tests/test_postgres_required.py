"""Under CI the PostgreSQL tests run or fail: a machine without PostgreSQL never passes CI
by skipping them."""
import pytest

from tests import conftest, pg


@pytest.mark.parametrize("env", [{"CI": "true"}, {"CI": "1"}, {"REFEREE_REQUIRE_POSTGRES": "1"}])
def test_a_missing_server_fails_under_ci(monkeypatch, env):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("REFEREE_REQUIRE_POSTGRES", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(pytest.fail.Exception, match="CI must test against PostgreSQL"):
        conftest.no_postgres()
    monkeypatch.setattr(pg, "bindir", lambda: None)
    assert "NOT FOUND, and required" in pg.report_header()


@pytest.mark.parametrize("ci", [None, "", "false", "0"])
def test_a_missing_server_is_a_skip_elsewhere(monkeypatch, ci):
    monkeypatch.delenv("REFEREE_REQUIRE_POSTGRES", raising=False)
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception):
        conftest.no_postgres()


def test_ci_installs_postgresql_when_it_is_missing():
    """.ci/run installs Debian's postgresql when initdb is not found, as it does chromium, and
    requires the server from then on."""
    script = (pg.Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "postgresql" in script and "REFEREE_REQUIRE_POSTGRES=1" in script
