"""gunicorn's master imports the app's modules once, before its workers fork (referee.worker's
ProblemWorker.check_config): a worker, started or replaced after max_requests, then builds
its app without importing them again, and nothing the app opens (its database engine, its
keys) is made in the master, to be shared by the workers."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent("""
    import gc, json, logging, sys
    from gunicorn.config import Config
    from referee.worker import ProblemWorker

    APP = ("referee.api", "referee.app", "referee.pages", "referee.store.service", "referee.store.db", "flask",
           "sqlalchemy.orm")
    before = [m for m in APP if m in sys.modules]
    ProblemWorker.check_config(Config(), logging.getLogger("test"))
    after = [m for m in APP if m in sys.modules]
    import flask, sqlalchemy.engine
    made = [type(o).__name__ for o in gc.get_objects() if isinstance(o, (flask.Flask, sqlalchemy.engine.Engine))]
    from referee.app import create_app
    create_app({"DATABASE_URL": "sqlite://"})  # a worker's app, from the modules already there
    print(json.dumps({"before": before, "after": after, "made": made, "wsgi": "wsgi" in sys.modules}))
""")


def test_the_master_imports_the_apps_modules_and_builds_no_app():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "REFEREE_DEV": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["before"] == []  # the worker's module alone imports none of the app
    assert got["after"] == ["referee.api", "referee.app", "referee.pages", "referee.store.service",
                            "referee.store.db", "flask", "sqlalchemy.orm"]
    assert got["made"] == [] and got["wsgi"] is False  # no app, no engine: each worker makes its own
