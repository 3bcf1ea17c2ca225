"""`referee serve` on the embedded SQLite makes its signing key ring next to the database
(mode 0600), says so once in its log, and its workers sign with it; `referee signing-keys
rotate` replaces the key while it serves: GET /v1/keys then lists both, new verdicts are
signed by the new key, and one signed before verifies as signed by a retired key."""
import json
import os
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.test_serve_secret import start, stop

REVOKE = (Path(__file__).parents[1] / "examples" / "revoke.json").read_bytes()
LINE = "verdicts are signed with an Ed25519 key kept in"


def verdict(base) -> dict:
    req = urllib.request.Request(base + "/v1/verdicts", data=REVOKE, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def keys(base) -> dict:
    with urllib.request.urlopen(base + "/v1/keys", timeout=10) as r:
        return json.loads(r.read())


def referee(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=cwd, capture_output=True, text=True)


def test_serve_makes_the_key_ring_once_and_a_rotation_takes_effect_while_it_serves(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("REFEREE_SIGNING_KEYS", "REFEREE_DEV")}
    url = f"sqlite:///{tmp_path / 'referee.db'}"
    ring = tmp_path / "referee.db.signing-keys"
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    (tmp_path / "revoke.json").write_bytes(REVOKE)
    with open(logs[0], "w") as log:
        proc, base = start(url, log, env)
    try:
        assert stat.S_IMODE(ring.stat().st_mode) == 0o600
        before = verdict(base)
        (tmp_path / "before.json").write_text(json.dumps(before))
        first = keys(base)["keys"]
        assert [k["id"] for k in first] == [before["provenance"]["key"]]
        rotated = referee("signing-keys", "rotate", "--database", url, cwd=tmp_path)
        assert rotated.returncode == 0 and "retired" in rotated.stdout, rotated.stderr
        after = verdict(base)  # at once: the server signs with the key current now (issue 38)
        (tmp_path / "after.json").write_text(json.dumps(after))
        now = keys(base)["keys"]
        assert [k["status"] for k in now] == ["current", "retired"] and now[1]["id"] == first[0]["id"]
        assert after["provenance"]["key"] == now[0]["id"]
        (tmp_path / "keys.json").write_text(json.dumps(keys(base)))
    finally:
        stop(proc)
    for name, key in (("before.json", "retired on"), ("after.json", "(current)")):
        checked = referee("verify", name, "--record", "revoke.json", "--key", "keys.json", cwd=tmp_path)
        assert checked.returncode == 0 and key in checked.stdout, checked.stdout + checked.stderr
    made = ring.read_text()
    with open(logs[1], "w") as log:
        proc, base = start(url, log, env)  # a second start: the same ring, nothing said
    try:
        assert keys(base)["keys"][0]["id"] == now[0]["id"]
    finally:
        stop(proc)
    first_log, second_log = (p.read_text() for p in logs)
    assert first_log.count(LINE) == 1 and str(ring) in first_log and "mode 0600" in first_log
    assert LINE not in second_log and ring.read_text() == made
