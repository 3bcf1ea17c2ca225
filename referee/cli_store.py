"""Command line for the store: db upgrade, import, export, serve, deliver."""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

from marshmallow import ValidationError

from referee import jsontext
from referee.api.schemas import pointers
from referee.api.store_schemas import MatchRecordSchema
from referee.store.db import Database, default_url, upgrade
from referee.store.errors import StoreError
from referee.store.service import Store


def _url(args) -> str:
    return args.database or default_url()


def db_upgrade(args) -> int:
    upgrade(_url(args))
    print(f"database at {_url(args)} is at the latest schema")
    return 0


def _records(path: str) -> Iterator[tuple[str, object]]:
    """(external id, record) for each record in a file: a record, a list, or JSON lines."""
    text = Path(path).read_text(encoding="utf-8")
    name = Path(path).name
    if path.endswith(".jsonl"):
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    yield f"{name}:{n}", jsontext.loads(line)
                except jsontext.NotJSON as exc:
                    yield f"{name}:{n}", exc
        return
    data = jsontext.loads(text)
    if isinstance(data, list):
        for n, record in enumerate(data, 1):
            yield f"{name}:{n}", record
    else:
        yield name, data


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def _import_one(store: Store, tid: str, external_id: str, record) -> str | None:
    """None when stored (or already there); otherwise why it was rejected."""
    if isinstance(record, Exception):
        return f"not JSON: {record}"
    if not isinstance(record, dict):
        return "a record is a JSON object"
    try:
        clean = MatchRecordSchema().load(record)
        store.create_match(tid, None, clean, external_id, trusted=True)
    except ValidationError as exc:
        return "; ".join(f"{p['pointer']}: {p['detail']}" for p in pointers(exc.messages))
    except StoreError as exc:
        return exc.detail
    return None


def import_files(args) -> int:
    store = Store(Database(_url(args)))
    items = []
    for path in args.files:
        try:
            items.extend(_records(path))
        except (OSError, jsontext.NotJSON, UnicodeDecodeError) as exc:
            items.append((Path(path).name, exc))
    rejected = []
    for n, (external_id, record) in enumerate(items, 1):
        why = _import_one(store, args.tournament, external_id, record)
        if why:
            rejected.append((external_id, why))
        _progress(n, len(items))
    sys.stderr.write("\n")
    print(f"imported {len(items) - len(rejected)} of {len(items)} record(s) into tournament {args.tournament}")
    for external_id, why in rejected:
        print(f"  rejected {external_id}: {why}")
    store.db.dispose()
    return 1 if rejected else 0


def export(args) -> int:
    store = Store(Database(_url(args)))
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    for item in store.export(args.tournament):
        out.write(json.dumps(item, ensure_ascii=False) + "\n")
    if args.output:
        out.close()
    store.db.dispose()
    return 0


def serve(args) -> int:
    """Migrate the database, start the delivery worker, and run gunicorn until stopped."""
    url = _url(args)
    upgrade(url)
    env = {**os.environ, "DATABASE_URL": url}
    deliver = subprocess.Popen([sys.executable, "-m", "referee.cli", "deliver"], env=env)
    gunicorn = subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", args.bind,
                                 "--workers", str(args.workers), "--access-logfile", "-", "wsgi:app"], env=env,
                                cwd=Path(__file__).resolve().parents[1])
    def stop(*_):
        gunicorn.terminate()
    signal.signal(signal.SIGTERM, stop)
    try:
        return gunicorn.wait()
    except KeyboardInterrupt:
        gunicorn.terminate()
        return gunicorn.wait()
    finally:
        deliver.terminate()
        deliver.wait()


def deliver(args) -> int:
    from referee.store.delivery import run_forever

    run_forever(Database(_url(args)), once=args.once, seconds=args.seconds)
    return 0


def add_commands(sub) -> None:
    def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--database", help="database URL (default: $DATABASE_URL or ./referee.db)")
        return p

    db = sub.add_parser("db", help="database commands")
    dbsub = db.add_subparsers(dest="db_command", required=True)
    with_db(dbsub.add_parser("upgrade", help="create or migrate the database to the latest schema")).set_defaults(run=db_upgrade)

    p = with_db(sub.add_parser("import", help="bulk-load record files into a tournament"))
    p.add_argument("files", nargs="+", metavar="FILE", help="a record, a list of records, or .jsonl")
    p.add_argument("--tournament", required=True)
    p.set_defaults(run=import_files)

    p = with_db(sub.add_parser("export", help="JSON lines of matches with their verdicts"))
    p.add_argument("--tournament")
    p.add_argument("--output", "-o")
    p.set_defaults(run=export)

    p = with_db(sub.add_parser("serve", help="migrate, then serve the API with gunicorn and run the delivery worker"))
    p.add_argument("--bind", default="127.0.0.1:8000")
    p.add_argument("--workers", type=int, default=2)
    p.set_defaults(run=serve)

    p = with_db(sub.add_parser("deliver", help="deliver feed events to webhooks (runs until stopped)"))
    p.add_argument("--once", action="store_true", help="one pass over the subscriptions, then exit")
    p.add_argument("--seconds", type=float, help="stop after this many seconds")
    p.set_defaults(run=deliver)
