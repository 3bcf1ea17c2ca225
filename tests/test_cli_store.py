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
from pathlib import Path

EXAMPLES = Path(__file__).parents[1] / "examples"

PLAYERS = ["A", "B", "C", "D"]


def test_db_upgrade_creates_the_database(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert main(["db", "upgrade", "--database", url]) == 0
    assert (tmp_path / "new.db").exists() and "latest schema" in capsys.readouterr().out


def test_import_loads_records_and_says_what_was_new_present_and_rejected(sqlite_url, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("REFEREE_PROGRESS", "1")
    store = Store(Database(sqlite_url))
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    good = {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}
    impossible = {"players": PLAYERS, "deals": [deal(0, ev("0:AH"), {"suit": "S"})]}
    shapeless = {"players": PLAYERS, "deals": [{"dealer": 7}]}
    (tmp_path / "one.json").write_text(json.dumps(good))
    (tmp_path / "many.jsonl").write_text("\n".join(json.dumps(r) for r in (good, impossible, shapeless)) + "\n{oops\n")
    args = ["import", str(tmp_path / "one.json"), str(tmp_path / "many.jsonl"), "--tournament", t.id, "--database", sqlite_url]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert f"5 record(s) into tournament {t.id}: 2 new, 0 already present, 3 rejected" in captured.out
    assert "many.jsonl:2: the record would be impossible" in captured.out
    assert "many.jsonl:3: /deals/0/dealer: must be a seat 0..3" in captured.out
    assert "many.jsonl:4: not JSON" in captured.out
    assert "5/5" in captured.err  # the progress bar
    assert main(args) == 1  # importing again adds nothing: external ids are the file positions
    assert f"5 record(s) into tournament {t.id}: 0 new, 2 already present, 3 rejected" in capsys.readouterr().out
    assert len(store.list_matches(t.id, key, None, 50, None)["items"]) == 2
    store.db.dispose()


def test_the_shipped_examples_import_and_ids_are_paths_so_equal_names_do_not_collide(sqlite_url, tmp_path, capsys,
                                                                                    monkeypatch):
    store = Store(Database(sqlite_url))
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    for folder in ("round1", "round2"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "table-1.json").write_text((EXAMPLES / "revoke.json").read_text())
    (tmp_path / "double-sir.json").write_text((EXAMPLES / "double-sir.json").read_text())
    monkeypatch.chdir(tmp_path)
    assert main(["import", "round1/table-1.json", "round2/table-1.json", "--tournament", t.id,
                 "--database", sqlite_url]) == 0
    assert "2 new, 0 already present, 0 rejected" in capsys.readouterr().out
    items = store.list_matches(t.id, key, None, 50, None)["items"]
    assert sorted(m["external_id"] for m in items) == ["round1/table-1.json", "round2/table-1.json"]
    assert items[0]["players"] == ["round1/table-1.json seat 0", "round1/table-1.json seat 1",
                                   "round1/table-1.json seat 2", "round1/table-1.json seat 3"]
    # double-sir.json names its preset: it does not match this tournament's, and says so.
    assert main(["import", "double-sir.json", "--tournament", t.id, "--database", sqlite_url]) == 1
    assert "inherits its tournament's preset" in capsys.readouterr().out
    assert main(["import", "round1/table-1.json", "--id-from", "name", "--tournament", t.id, "--database", sqlite_url]) == 0
    assert "1 new" in capsys.readouterr().out
    # --id-from record: a plain record carrying its own external_id is stored under it
    revoke = {k: v for k, v in json.loads((EXAMPLES / "revoke.json").read_text()).items() if k != "preset"}
    (tmp_path / "own.jsonl").write_text(json.dumps({**revoke, "external_id": "table-9"}) + "\n")
    assert main(["import", "own.jsonl", "--id-from", "record", "--tournament", t.id, "--database", sqlite_url]) == 0
    assert "1 new, 0 already present, 0 rejected" in capsys.readouterr().out
    assert "table-9" in [m["external_id"] for m in store.list_matches(t.id, key, None, 50, None)["items"]]
    store.db.dispose()


def test_export_writes_the_tournament_then_its_matches_and_an_unknown_tournament_is_an_error(sqlite_url, tmp_path, capsys):
    store = Store(Database(sqlite_url))
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, "x1")
    out = tmp_path / "out.jsonl"
    assert main(["export", "--database", sqlite_url, "--tournament", t.id, "-o", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["tournament", "match"]
    assert lines[0]["tournament"]["preset"] == "court-piece" and lines[1]["external_id"] == "x1"
    assert lines[1]["verdict"]["deals"][0]["result"]["kind"] == "court" and len(lines[1]["revisions"]) == 1
    assert main(["export", "--database", sqlite_url, "--tournament", "nope"]) == 2
    assert "no tournament \"nope\"" in capsys.readouterr().err
    store.db.dispose()


def test_keys_rotate_on_the_server_replaces_the_write_key(sqlite_url, capsys):
    store = Store(Database(sqlite_url))
    t, key, read_key = store.create_tournament("t", "court-piece", {}, False)
    assert main(["keys", "rotate", "--tournament", t.id, "--database", sqlite_url]) == 0
    new = capsys.readouterr().out.split(": ")[1].split()[0]
    assert new.startswith("rk_") and new != key
    t2 = store.tournament(t.id, new)
    assert t2.id == t.id
    from referee.store.errors import Forbidden
    import pytest

    with pytest.raises(Forbidden):
        store.tournament(t.id, key)
    assert store.tournament(t.id, read_key).id == t.id  # the read key still reads
    assert main(["keys", "rotate", "--tournament", "nope", "--database", sqlite_url]) == 2
    store.db.dispose()


def test_serve_documents_bind_and_workers(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = capsys.readouterr().out
    assert "--bind" in text and "port is taken" in text and "--workers" in text


def test_serve_migrates_and_answers(tmp_path):
    port = free_port()
    url = f"sqlite:///{tmp_path / 'served.db'}"
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "serve", "--database", url, "--bind", f"127.0.0.1:{port}",
                             "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Start-up (imports, migration, gunicorn's worker) is slow on a loaded machine: wait
        # for the answer while the server lives, not for a fixed count of tries.
        body, deadline = None, time.monotonic() + 90
        while body is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    body = json.loads(r.read())
            except OSError:
                time.sleep(0.2)
        assert body == {"status": "ok"}, f"no answer from referee serve (exit code {proc.poll()})"
        req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/tournaments", method="POST",
                                     data=json.dumps({"name": "n", "preset": "court-piece"}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.status == 201
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def test_deliver_once_says_what_it_did(sqlite_url, capsys):
    assert main(["deliver", "--once", "--database", sqlite_url]) == 0
    assert "delivered 0 event(s); 0 failed attempt(s)" in capsys.readouterr().out


def test_with_an_operator_key_set_import_creates_a_tournament_only_when_given_it(sqlite_url, tmp_path, capsys,
                                                                                  monkeypatch):
    store = Store(Database(sqlite_url))
    t, key, _ = store.create_tournament("t", "court-piece", {}, True)
    store.create_match(t.id, key, {"players": PLAYERS, "deals": [won_by(0, [1] * 7)]}, "x1")
    out = tmp_path / "out.jsonl"
    assert main(["export", "--database", sqlite_url, "--tournament", t.id, "-o", str(out)]) == 0
    monkeypatch.setenv("REFEREE_OPERATOR_KEY", "op_the-operators-own")
    other = f"sqlite:///{tmp_path / 'other.db'}"  # restored elsewhere: here it would be already present
    new = ["import", str(out), "--database", other, "--tournament", "new"]
    assert main(new) == 2 and "operator's key" in capsys.readouterr().err
    assert main([*new, "--operator-key", "op_guess"]) == 2 and "not the operator's key" in capsys.readouterr().err
    assert main([*new, "--operator-key", "op_the-operators-own"]) == 0
    assert "created tournament" in capsys.readouterr().out
    store.db.dispose()
