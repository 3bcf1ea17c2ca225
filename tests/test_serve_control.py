"""Two `referee serve` processes on one machine (two clubs, or a test server beside the real
one) are independent: neither opens gunicorn's control socket, whose default path
($XDG_RUNTIME_DIR/gunicorn.ctl, else ~/.gunicorn/gunicorn.ctl) is one per user, so the second
server would take it over from the first (and a `gunicornc` command would reach the wrong one)."""
import os

from tests.test_serve_secret import call, start, stop


def test_two_servers_on_one_machine_share_no_control_socket(tmp_path):
    runtime, home = tmp_path / "run", tmp_path / "home"
    runtime.mkdir()
    home.mkdir()
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(home), "REFEREE_SECRET_KEY": "test-key"}
    procs = []
    try:
        with open(tmp_path / "a.log", "w") as log_a, open(tmp_path / "b.log", "w") as log_b:
            for name, log in (("a", log_a), ("b", log_b)):
                procs.append(start(f"sqlite:///{tmp_path / name}.db", log, env))
            for _, base in procs:
                assert call(base, "GET", "/healthz")[0] == 200
            assert list(runtime.iterdir()) == [] and list(home.iterdir()) == []  # while both serve
    finally:
        for proc, _ in procs:
            stop(proc)
    logs = (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
    assert "control socket" not in logs.lower() and "gunicorn.ctl" not in logs


def test_plain_gunicorn_from_the_repository_root_opens_none_either():
    """`gunicorn wsgi:app` reads gunicorn.conf.py, which takes referee.serving's settings."""
    import runpy
    from pathlib import Path

    settings = runpy.run_path(str(Path(__file__).parents[1] / "gunicorn.conf.py"))
    assert settings["control_socket_disable"] is True
