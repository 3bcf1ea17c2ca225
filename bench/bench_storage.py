"""Storage growth per write: a session match of 804 deals (about 1 MB of record) takes
events one at a time (`POST /v1/matches/{id}/events`, one card each, about 39 bytes of
body); how many bytes the SQLite database grows per write, against the write's own size,
for the code of main at 56977ff (every revision a whole copy) and this tree (patches).

    python bench/bench_storage.py [--writes N] [--deals N]

Figures only; not part of the tests. Needs the repository's history (git archive 56977ff).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OLD = "56977ff"


def session(deals: int) -> tuple[dict, dict]:
    """`deals` finished seven-courts deals (no target: the session never ends; no hands, so
    804 deals are about 1 MB), and one more deal, dealt by the right seat, whose events are
    to be posted one by one."""
    sys.path.insert(0, str(HERE))
    from bench_users import one_record

    record = json.loads(one_record(deals + 1))
    live = record["deals"].pop()
    for deal in record["deals"]:
        del deal["hands"]
    return record, live


def db_bytes(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size


def worker(db: Path, writes: int, deals: int) -> dict:
    """Run with one version of the code on the path; the figures as JSON."""
    from referee.app import create_app
    from referee.store.db import upgrade

    url = f"sqlite:///{db}"
    upgrade(url)
    app = create_app({"DATABASE_URL": url})
    client = app.test_client()
    record, live = session(deals)
    t = client.post("/v1/tournaments", json={"name": "bench", "preset": "seven-courts", "options": {"target": None}}).get_json()
    auth = {"Authorization": f"Bearer {t['key']}"}
    body = {"tournament": t["id"], "record": {"options": {"target": None}, "deals": record["deals"]}}
    created = client.post("/v1/matches", json=body, headers=auth)
    assert created.status_code == 201, created.get_data(as_text=True)[:500]
    mid, etag = created.get_json()["id"], created.headers["ETag"]
    r = client.post(f"/v1/matches/{mid}/deals", json={**live, "events": []}, headers={**auth, "If-Match": etag})
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    etag, start_bytes, sent, start = r.headers["ETag"], db_bytes(db), 0, time.perf_counter()
    for event in live["events"][:writes]:
        payload = json.dumps({"events": [event]}, separators=(",", ":"))
        sent += len(payload)
        r = client.post(f"/v1/matches/{mid}/events", data=payload, content_type="application/json",
                        headers={**auth, "If-Match": etag})
        assert r.status_code == 200, r.get_data(as_text=True)[:500]
        etag = r.headers["ETag"]
    seconds = time.perf_counter() - start
    grown = db_bytes(db) - start_bytes
    app.extensions["referee.store"].db.dispose()
    return {"record_bytes": len(json.dumps(body["record"], separators=(",", ":"))), "writes": writes, "body_bytes": sent / writes,
            "grown_per_write": grown / writes, "seconds_per_write": seconds / writes}


def run(code: Path, writes: int, deals: int, tmp: Path, name: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(tmp / f"{name}.db"),
                          "--writes", str(writes), "--deals", str(deals)],
                         capture_output=True, text=True, env=env, cwd=code)
    if out.returncode:
        raise SystemExit(f"{name}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def old_code(tmp: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", OLD, "referee", "migrations"],
                             capture_output=True, check=True).stdout
    target = tmp / "old"
    tarfile.open(fileobj=io.BytesIO(archive)).extractall(target, filter="data")
    return target


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--deals", type=int, default=804)
    parser.add_argument("--worker")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(Path(args.worker), args.writes, args.deals)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        before = run(old_code(tmp), args.writes, args.deals, tmp, "before")
        after = run(ROOT, args.writes, args.deals, tmp, "after")
    print(f"a session match of {args.deals} deals ({before['record_bytes'] / 2**20:.2f} MiB of record), "
          f"{args.writes} writes of one event each ({before['body_bytes']:.0f} bytes of body), SQLite")
    for label, fig in ((f"{OLD} (whole copies)", before), ("this tree (patches)", after)):
        print(f"{label:<28} {fig['grown_per_write']:>12,.0f} bytes stored per write"
              f" {fig['grown_per_write'] / fig['body_bytes']:>9,.0f}x the body"
              f" {fig['seconds_per_write'] * 1000:>7,.0f} ms per write")
    print(f"growth per write: {after['grown_per_write'] / before['grown_per_write']:.4f} of before")


if __name__ == "__main__":
    main()
