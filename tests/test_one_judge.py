"""One judging path (referee/judge.py): the six surfaces that judge a record (POST /v1/verdicts,
its batch, the store, `referee check`, the pages, `referee verify`) each judge it through the
one judge, and give the same verdict, byte for byte, with the same provenance; the module
imports neither the web nor the database, so `referee check` stays light."""
import ast
import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from referee import judge as one
from referee.cli import main
from referee.engine import Verdict
from tests.api.test_provenance_api import signed_client  # noqa: F401 (the app on each backend, signing)

ROOT = Path(__file__).resolve().parents[1]
# a claim of seat 1 that holds, settled by perfect play on every surface
RECORD = {"preset": "court-piece", "options": {}, **{k: v for k, v in json.loads(
    (ROOT / "examples" / "claim-holds.json").read_text()).items() if k != "preset"}}
SAME = ("engine", "engine_source", "rulebook", "options", "record")  # what any referee says of where it came from


def body(verdict: dict) -> bytes:
    """The verdict's bytes without its provenance and signature (where and how it was signed)."""
    return orjson.dumps({k: v for k, v in verdict.items() if k not in ("provenance", "signature")})


@pytest.fixture
def judged(monkeypatch):
    """The bytes of every verdict the one judge gives, in order."""
    seen: list[bytes] = []
    whole, last = one.judge_whole, one.judge_last

    def judge_whole(*args, **kwargs):
        verdict = whole(*args, **kwargs)
        seen.append(orjson.dumps(verdict.as_dict()))
        return verdict

    def judge_last(*args, **kwargs):
        seen.append(orjson.dumps(last(*args, **kwargs)))
        return orjson.loads(seen[-1])

    monkeypatch.setattr(one, "judge_whole", judge_whole)
    monkeypatch.setattr(one, "judge_last", judge_last)
    return seen


def test_the_six_surfaces_judge_one_record_through_one_judge_to_the_same_bytes(signed_client, tmp_path, judged, capsys):
    client = signed_client
    verdicts, calls = {}, {}

    def through(surface, got):
        calls[surface] = len(judged)
        verdicts[surface] = got

    r = client.post("/v1/verdicts", json=RECORD)
    assert r.status_code == 200
    through("api", r.get_json())
    r = client.post("/v1/verdicts/batch", data=orjson.dumps(RECORD) + b"\n", content_type="application/x-ndjson")
    through("batch", json.loads(r.get_data())["verdict"])
    t = client.post("/v1/tournaments", json={"name": "Club night", "preset": "court-piece"}).get_json()
    r = client.post("/v1/matches", json={"tournament": t["id"], "record": {"players": RECORD["players"],
                                                                          "deals": RECORD["deals"]}},
                    headers={"Authorization": f"Bearer {t['key']}"})
    assert r.status_code == 201
    stored = r.get_json()
    assert stored["record"] == RECORD  # the store's record is this one: the same digest
    through("store", stored["verdict"])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(RECORD))
    assert main(["check", "--json", str(path)]) == 0
    through("check", json.loads(capsys.readouterr().out)["verdict"])
    r = client.post("/check", data={"record": json.dumps(RECORD)})
    assert r.status_code == 200 and "Claim" in r.get_data(as_text=True)
    through("pages", orjson.loads(judged[-1]))
    keys = tmp_path / "keys.json"
    keys.write_bytes(client.get("/v1/keys").get_data())
    signed = tmp_path / "signed.json"
    signed.write_text(json.dumps({"record": RECORD, "verdict": verdicts["api"]}))
    assert main(["verify", str(signed), "--key", str(keys)]) == 0
    assert "the same verdict" in capsys.readouterr().out
    through("verify", orjson.loads(judged[-1]))

    # each surface judged once more through the one judge, and every judgement is one text
    assert list(calls.values()) == list(range(1, 7)) and len(set(judged)) == 1
    texts = {surface: body(v) for surface, v in verdicts.items()}
    assert set(texts.values()) == {judged[0]}, {k: v[:80] for k, v in texts.items()}
    assert orjson.loads(judged[0])["deals"][0]["claim"]["held"] is True
    written = [{k: v["provenance"][k] for k in SAME} for s, v in verdicts.items() if s not in ("pages", "verify")]
    assert all(p == written[0] for p in written)
    assert verdicts["api"]["signature"] and verdicts["store"]["signature"] and verdicts["check"]["signature"] is None


def test_the_writer_gives_one_text_as_json_text_and_as_a_dict(tmp_path, monkeypatch):
    from referee import verdict_signing
    from referee.verdict_signing import Signer

    monkeypatch.setattr(verdict_signing, "now", lambda: "2026-12-06T04:00:00Z")  # one signing moment
    record = one.read(RECORD)
    verdict = one.judge(record, one_settler())
    text = one.write(verdict, RECORD)
    as_dict = one.write(verdict.as_dict(), RECORD)
    assert isinstance(verdict, Verdict) and orjson.dumps(as_dict) == text
    ring = Signer(tmp_path / "keys")
    signed, signed_dict = orjson.loads(one.write(verdict, RECORD, ring)), one.write(verdict.as_dict(), RECORD, ring)
    assert signed == signed_dict  # the same signature: one message, one key
    assert one.write(signed_dict, RECORD, ring) == signed_dict  # a stored verdict signed again


def test_a_stored_record_is_read_as_a_received_one():
    stored = one.read(RECORD, checked=True)
    assert stored == one.read(RECORD) == one.read(RECORD, accepted=True)
    assert one.judge(RECORD, one_settler()) == one.judge(stored, one_settler()).as_dict()


def one_settler():
    from referee.budget import Budget, Limits

    return Budget(Limits.from_settings(), clock="cpu").settler()


def test_no_surface_reads_judges_or_signs_but_through_the_one_path():
    """The engine's record is read, the engine's judge called and a verdict signed by
    referee/judge.py only, a stored match's record too (read(stored=True), never
    check_record(stored=...) of its own)."""
    judges = {"judge", "judge_last", "adjudicate", "adjudicate_dict", "read_record", "plain_record"}
    calls = {"written_and_hashed", "sign_provenance", "from_dict"}  # from_dict: Record.from_dict
    found = []
    for path in (ROOT / "referee").rglob("*.py"):
        if path.relative_to(ROOT / "referee").parts[0] in ("engine", "solver", "record_shape", "judge.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module in ("referee.engine", "referee.engine.match",
                                                                   "referee.record_shape"):
                found += [f"{path.relative_to(ROOT)}: {a.name}" for a in node.names if a.name in judges]
            if isinstance(node, ast.ImportFrom) and node.module == "referee.verdict_signing":
                found += [f"{path.relative_to(ROOT)}: {a.name}" for a in node.names if a.name in calls]
            if isinstance(node, ast.Attribute) and node.attr in calls:
                found.append(f"{path.relative_to(ROOT)}: {node.attr}")
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "check_record"
                    and any(k.arg == "stored" for k in node.keywords)):
                found.append(f"{path.relative_to(ROOT)}: check_record(stored=...)")
    assert found == []


def test_the_one_judge_imports_neither_the_web_nor_the_database_nor_the_signing():
    heavy = ["flask", "werkzeug", "marshmallow", "sqlalchemy", "jinja2", "cryptography", "hashlib", "referee.api",
             "referee.store", "referee.pages", "referee.provenance", "referee.verdict_signing", "referee.solver"]
    code = ("import sys, referee.judge, referee.cli.check; "
            "print(sorted(n for n in %r if any(m == n or m.startswith(n + '.') for m in sys.modules)))" % heavy)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"
