"""referee db upgrade, import, export, serve."""
import json
import signal
import subprocess
import sys
import time
import urllib.request


from referee.cli import main
from referee.store.db import Database
from referee.store.service import Store
from tests.helpers import deal, ev, won_by
from tests.pg import free_port

PLAYERS = ["A", "B", "C", "D"]


def test_db_upgrade_creates_the_database(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert main(["db", "upgrade", "--database", url]) == 0
    assert (tmp_path / "new.db").exists() and "latest schema" in capsys.readouterr().out


def test_import_loads_records_and_says_what_was_rejected_and_why(sqlite_url, tmp_path, capsys):
    store = Store(Database(sqlite_url))
    t, key = store.create_tournament("t", "court-piece", {}, True)
    good = {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}
    impossible = {"players": PLAYERS, "deals": [deal(0, ev("0:AH"), {"suit": "S"})]}
    shapeless = {"players": PLAYERS, "deals": [{"dealer": 7}]}
    (tmp_path / "one.json").write_text(json.dumps(good))
    (tmp_path / "many.jsonl").write_text("\n".join(json.dumps(r) for r in (good, impossible, shapeless)) + "\n{oops\n")
    args = ["import", str(tmp_path / "one.json"), str(tmp_path / "many.jsonl"), "--tournament", t.id, "--database", sqlite_url]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert "imported 2 of 5 record(s)" in captured.out
    assert "rejected many.jsonl:2: the record would be impossible" in captured.out
    assert "rejected many.jsonl:3: /deals/0/dealer" in captured.out
    assert "rejected many.jsonl:4: not JSON" in captured.out
    assert "5/5" in captured.err  # the progress bar
    assert main(args) == 1  # importing again adds nothing: external ids are the file positions
    assert len(store.list_matches(t.id, key, None, 50, None)["items"]) == 2
    store.db.dispose()


def test_export_writes_json_lines_of_matches_with_verdicts(sqlite_url, tmp_path):
    store = Store(Database(sqlite_url))
    t, key = store.create_tournament("t", "court-piece", {}, True)
    store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, "x1")
    out = tmp_path / "out.jsonl"
    assert main(["export", "--database", sqlite_url, "--tournament", t.id, "-o", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["external_id"] == "x1"
    assert lines[0]["verdict"]["deals"][0]["result"]["kind"] == "court"
    store.db.dispose()


def test_serve_migrates_and_answers(tmp_path):
    port = free_port()
    url = f"sqlite:///{tmp_path / 'served.db'}"
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", "--database", url, "--bind", f"127.0.0.1:{port}",
                             "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    body = json.loads(r.read())
                    break
            except OSError:
                time.sleep(0.1)
        assert body == {"status": "ok"}
        req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/tournaments", method="POST",
                                     data=json.dumps({"name": "n", "preset": "court-piece"}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.status == 201
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
