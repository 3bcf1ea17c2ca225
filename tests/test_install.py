"""What an install gives a user: a wheel built from the repository judges and serves on its
own (the rulebook, the API contract and the migrations travel in the package), and the files
a server writes beside its database, secrets among them, are never offered to `git add`."""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _written_beside(url: str) -> list[Path]:
    """Every file `referee serve` keeps next to an embedded database, by the code's own names."""
    from referee.slots import lock_dir
    from referee.verdict_signing import ring_path

    db = Path(url[len("sqlite:///"):])
    beside = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal"), Path(f"{db}.secret-key"),
              ring_path(url)]
    slots = lock_dir(url)
    if slots is not None and slots.parent == db.parent:
        beside.append(slots / "slot-0")
    return beside


def test_nothing_a_server_writes_beside_its_database_can_be_committed(monkeypatch):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    monkeypatch.delenv("REFEREE_SIGNING_KEYS", raising=False)
    for where in (ROOT, ROOT / "instance"):  # the default ./referee.db, and a database in a folder
        paths = [str(p.relative_to(ROOT)) for p in _written_beside(f"sqlite:///{where / 'referee.db'}")]
        ignored = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True,
                                 text=True).stdout.split()
        assert sorted(ignored) == sorted(paths), f"not ignored by .gitignore: {sorted(set(paths) - set(ignored))}"
    # the check itself: a file that is not the server's is offered to git
    assert subprocess.run(["git", "check-ignore", "--no-index", "referee/app.py"], cwd=ROOT).returncode == 1


def _site_packages() -> str:
    return sysconfig.get_paths()["purelib"]


@pytest.fixture(scope="module")
def wheel_install(tmp_path_factory) -> Path:
    """`pip wheel .` (no build isolation: the build tools are the test venv's), installed alone
    into a folder of its own; its dependencies are read from the test venv's site-packages
    without that venv's .pth files, so the editable install of the repository is not seen."""
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                            "-q", "-w", str(out / "dist")], capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = (out / "dist").glob("referee-*.whl")
    target = out / "site"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                              str(wheel)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr[-3000:]
    return target


def _run_installed(target: Path, code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "REFEREE_", "DATABASE_URL"))}
    env["PYTHONPATH"] = os.pathsep.join([str(target), _site_packages()])
    return subprocess.run([sys.executable, "-s", "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)


JUDGE_AND_SERVE = """
import json, sys
import referee
assert referee.__file__.startswith(%(target)r), referee.__file__  # the wheel's, not the repository's
from referee.engine import Record, judge
from referee.app import create_app
record = json.load(open(%(record)r))
verdict = judge(Record.from_dict(record)).as_dict()
app = create_app({"DATABASE_URL": "sqlite:///" + %(db)r})
from referee.store.db import upgrade
upgrade("sqlite:///" + %(db)r)
client = app.test_client()
rules = client.get("/rules")
spec = client.get("/openapi.yaml")
answer = client.post("/v1/verdicts", json=record)
print(json.dumps({"winner": verdict["deals"][0]["result"]["winner"], "rules": rules.status_code,
                  "rules_text": "trick.follow" in rules.get_data(as_text=True), "spec": spec.status_code,
                  "spec_text": spec.get_data(as_text=True)[:7], "verdict": answer.status_code,
                  "rulebook": answer.get_json()["provenance"]["rulebook"]}))
"""


def test_a_wheel_built_from_the_repository_judges_a_record_and_serves_the_rules(wheel_install, tmp_path):
    from referee.app import create_app

    record = ROOT / "examples" / "revoke.json"
    code = JUDGE_AND_SERVE % {"target": str(wheel_install), "record": str(record), "db": str(tmp_path / "w.db")}
    ran = _run_installed(wheel_install, code, tmp_path)
    assert ran.returncode == 0, ran.stderr[-3000:]
    got = json.loads(ran.stdout.strip().splitlines()[-1])
    here = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'here.db'}"}).test_client().post(
        "/v1/verdicts", json=json.loads(record.read_text()))
    assert got == {"winner": 1, "rules": 200, "rules_text": True, "spec": 200, "spec_text": "openapi",
                   "verdict": 200, "rulebook": here.get_json()["provenance"]["rulebook"]}
