"""The operator's commands on a database: `db upgrade`, `import`, `export`, `keys rotate`.

The store (SQLAlchemy) is imported inside each command, so that `referee check`, which
builds the same parser, starts without it."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee import jsontext
from referee.inputs import Item, Progress, read_items

NOT_FOUND = 2


def open_store(args):
    from referee.store.service import Store

    return Store(open_database(args))


def open_database(args):
    """The database, migrated first if it is not at the latest schema (said once, on stderr)."""
    from referee.store.db import Database, upgrade_if_needed

    done = upgrade_if_needed(database_url(args))
    if done == "created":
        print(f"referee: created the database at {database_url(args)}", file=sys.stderr)
    elif done == "migrated":
        print(f"referee: the database at {database_url(args)} was at an older schema; migrated it to the latest",
              file=sys.stderr)
    return Database(database_url(args))


def database_url(args) -> str:
    from referee.store.db import default_url

    return args.database or default_url()


def db_upgrade(args) -> int:
    from referee.store.db import upgrade

    upgrade(database_url(args))
    print(f"database at {database_url(args)} is at the latest schema")
    return 0


# -- import ---------------------------------------------------------------------------------

def _external_id(item: Item, how: str) -> str:
    """The path relative to the current directory (`round1/table-1.json`, `:N` for the Nth
    record of a file), the base name (`--id-from name`), or the record's own external_id."""
    if how == "record" and isinstance(item.data, dict) and item.data.get("external_id"):
        return str(item.data["external_id"])
    path = Path(item.file)
    if how == "name":
        where = path.name
    else:
        try:
            where = str(path.resolve().relative_to(Path.cwd()))
        except ValueError:
            where = str(path)
    return where if item.line is None else f"{where}:{item.line}"


def _session_to_close(view) -> bool:
    """`import --close`: a session still open whose last deal is over (so it can count)."""
    deals = view.revision.verdict["deals"]
    return view.match.status != "finished" and bool(deals) and deals[-1]["status"] != "in_progress"


def _import_one(store, tid: str, item: Item, how: str, close: bool = False) -> tuple[str, str | None]:
    """('new' | 'present' | 'rejected', why, or for a restored match whose id this database
    could not keep, what it is now); `close`: close the new match if it is a session whose
    last deal is over."""
    from referee.engine.settlement import Stopped
    from referee.judge import read
    from referee.record_shape import RecordProblems
    from referee.store.errors import StoreError

    if isinstance(item.data, Exception):
        return "rejected", f"not JSON: {item.data}"
    data = item.data
    external_id = _external_id(item, how)
    note = None
    try:
        if isinstance(data, dict) and data.get("kind") == "match":  # a line of `referee export`
            external_id = data.get("external_id") or data.get("id") or external_id
            revisions = [{**r, "record": read(r["record"], f"/revisions/{k}/record", stored=True),
                          "created_at": _moment(r.get("created_at"))}
                         for k, r in enumerate(data.get("revisions") or [{"record": data.get("record")}])]
            exported = data.get("id") if isinstance(data.get("id"), str) else None
            view, created = store.restore_match(tid, external_id, revisions, _moment(data.get("created_at")),
                                                _moment(data.get("updated_at")), exported)
            if created and exported and view.match.id != exported:
                note = f"restored as match {view.match.id}: its id {exported} is taken here (its old links do not open it)"
        else:
            if how == "record" and isinstance(data, dict):  # its own external id is the match's, not the record's
                data = {k: v for k, v in data.items() if k != "external_id"}
            clean = read(data, stored=True)
            view, created = store.create_match(tid, None, clean, external_id, trusted=True)
        if close and created and _session_to_close(view):
            store.close(view.match.id, None, None, trusted=True)
    except RecordProblems as exc:
        return "rejected", "; ".join(f"{p['pointer']}: {p['detail']}" for p in exc.problems)
    except StoreError as exc:
        return "rejected", exc.detail
    except Stopped as exc:  # past the command's budget of perfect play: nothing stored, it may be imported again
        return "rejected", f"not judged: {exc.message}"
    return ("new" if created else "present"), note


def _is_settings(item: Item) -> bool:
    return isinstance(item.data, dict) and item.data.get("kind") == "tournament"


def _targets(store, args, items: list[Item]) -> list[tuple[str, list[Item]]] | None:
    """Where each record goes: all into --tournament ID; with `new`, each tournament of a
    `referee export` file (a whole database's has several) with the matches after its
    settings, created under its own id (or found, when restored before). None: said why."""
    from referee.store.errors import StoreError
    from referee.store.operator import require_operator

    if args.tournament != "new":
        try:
            store.tournament(args.tournament, None, trusted=True)
        except StoreError as exc:
            print(f"referee import: {exc.detail}", file=sys.stderr)
            return None
        return [(args.tournament, [i for i in items if not _is_settings(i)])]
    if not items or not _is_settings(items[0]):
        print("--tournament new needs a `referee export` file, which starts with the tournament's settings",
              file=sys.stderr)
        return None
    try:
        require_operator(args.operator_key)
    except StoreError as exc:
        print(f"referee import: {exc.detail} (--operator-key)", file=sys.stderr)
        return None
    targets: list[tuple[str, list[Item]]] = []
    for item in items:
        if _is_settings(item):
            targets.append((_restored_tournament(store, item.data["tournament"]), []))
        else:
            targets[-1][1].append(item)
    return targets


def _restored_tournament(store, settings: dict) -> str:
    if store.has_tournament(settings.get("id")):
        print(f"tournament {settings['id']} ({settings['name']}) is already here: restored before; "
              "adding only what it lacks")
        return settings["id"]
    t, key, read_key = store.create_tournament(settings["name"], settings["preset"], settings["options"],
                                               settings["public"], tid=settings.get("id"),
                                               created_at=_moment(settings.get("created_at")))
    print(f"created tournament {t.id} ({settings['name']}); write key {key}; read key {read_key} (shown only now)")
    return t.id


def _moment(text: str | None):
    """A time of an export (`...Z`), or None (now) when absent or unreadable."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00")) if isinstance(text, str) else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def import_files(args) -> int:
    store = open_store(args)
    try:
        targets = _targets(store, args, list(read_items(args.files)))
        if targets is None:
            return NOT_FOUND
        return max([_import_into(store, tid, records, args) for tid, records in targets], default=0)
    finally:
        store.db.dispose()


def _import_into(store, tid: str, records: list[Item], args) -> int:
    """One tournament's records, and what became of them."""
    counts = {"new": 0, "present": 0, "rejected": 0}
    said = []
    progress = Progress(len(records))
    for n, item in enumerate(records, 1):
        outcome, why = _import_one(store, tid, item, args.id_from, args.close)
        counts[outcome] += 1
        if why:
            said.append(f"  rejected {item.where}: {why}" if outcome == "rejected" else f"  {item.where}: {why}")
        progress.show(n)
    progress.done()
    print(f"{len(records)} record(s) into tournament {tid}: {counts['new']} new, "
          f"{counts['present']} already present, {counts['rejected']} rejected")
    for line in said:
        print(line)
    return 1 if counts["rejected"] else 0


# -- export ---------------------------------------------------------------------------------

def export(args) -> int:
    from referee.store.errors import NotFound

    store = open_store(args)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        for item in store.export(args.tournament):
            out.write(jsontext.dumps_line(item))
    except NotFound as exc:
        print(f"referee export: {exc.detail}", file=sys.stderr)
        return NOT_FOUND
    finally:
        if args.output:
            out.close()
        store.db.dispose()
    return 0


# -- keys -------------------------------------------------------------------------------------

def keys_rotate(args) -> int:
    from referee.store.errors import StoreError

    store = open_store(args)
    try:
        new = store.rotate_key(args.tournament, None, args.key, trusted=True)
    except StoreError as exc:
        print(f"referee keys rotate: {exc.detail}", file=sys.stderr)
        return NOT_FOUND
    finally:
        store.db.dispose()
    print(f"new {args.key} key for tournament {args.tournament}: {new}")
    print("the old one no longer works; this one is shown only now")
    return 0


def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.add_argument("--database", help="database URL (default: $DATABASE_URL or ./referee.db)")
    return p


def add_commands(sub) -> None:
    db = sub.add_parser("db", help="database commands")
    dbsub = db.add_subparsers(dest="db_command", required=True)
    with_db(dbsub.add_parser("upgrade", help="create or migrate the database to the latest schema")).set_defaults(run=db_upgrade)

    p = with_db(sub.add_parser("import", help="load records (or a `referee export` file) into a tournament"))
    p.add_argument("files", nargs="+", metavar="FILE", help="a record, a list of records, or JSON Lines (.jsonl)")
    p.add_argument("--tournament", required=True,
                   help="the tournament's id; `new` creates it from an export file's settings")
    p.add_argument("--operator-key", help="with --tournament new, where REFEREE_OPERATOR_KEY is set: that key")
    p.add_argument("--close", action="store_true",
                   help="close each new match whose last deal is over (a session by time), so it counts in the standings")
    p.add_argument("--id-from", choices=["path", "name", "record"], default="path",
                   help="each match's external id: the file's path relative to here (default), its base "
                        "name, or the record's own external_id; `:N` marks the Nth record of a file")
    p.set_defaults(run=import_files)

    p = with_db(sub.add_parser("export", help="JSON Lines: each tournament's settings, then its matches with "
                                              "their revisions and verdicts"))
    p.add_argument("--tournament", help="only this tournament (an unknown id is an error, exit 2)")
    p.add_argument("--output", "-o", metavar="FILE", help="write to this file (default: standard output)")
    p.set_defaults(run=export)

    keys = sub.add_parser("keys", help="tournament keys, on the server's database")
    keysub = keys.add_subparsers(dest="keys_command", required=True)
    p = with_db(keysub.add_parser("rotate", help="issue a new write (or read) key; the old one stops working"))
    p.add_argument("--tournament", required=True, metavar="TID", help="the tournament whose key is replaced")
    p.add_argument("--key", choices=["write", "read"], default="write",
                   help="which key: write (default; writes and reads) or read (a private tournament's spectators)")
    p.set_defaults(run=keys_rotate)
