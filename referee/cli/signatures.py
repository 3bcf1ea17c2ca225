"""Command line for signed verdicts: `referee verify` (offline: no server, no database, no
web or store imports) and the operator's `referee signing-keys rotate` and `list`."""
from __future__ import annotations

import os
import sys
from pathlib import Path

# The signing and checking code is imported by the commands that use it: building the command
# line (every `referee` command, `check` too) imports none of it.


def verify(args) -> int:
    from referee.verify import verify_files

    reports, status = verify_files(args.files, args.record, args.key)
    for r in reports:
        if args.brief and r.status == 0:
            continue
        for line in r.lines:
            print(line)
    if len(reports) > 1 or args.brief:
        print(summary(reports, status))
    return status


# Per exit status: what a verdict with it is said to be, and what the status means for the run.
STATUSES = {0: ("hold and are judged the same", "every signature holds and every verdict is the same"),
            1: ("judged differently", "a verdict this engine judges differently"),
            2: ("refused", "a signature refused (or a file unreadable)"),
            3: ("not judged again completely", "not judged again completely"),
            4: ("malformed", "a malformed file or key")}


def summary(reports, status: int) -> str:
    """One line at the end of many: how many verdicts gave each answer, and what the exit status says."""
    counts: dict[int, int] = {}
    for r in reports:
        counts[r.status] = counts.get(r.status, 0) + 1
    parts = [f"{counts[s]} {STATUSES[s][0]}" for s in sorted(counts)]
    return f"{len(reports)} checked: {', '.join(parts)}; exit status {status}: {STATUSES[status][1]}"


def _ring(args) -> Path | None:
    """--keys, else REFEREE_SIGNING_KEYS, else the file next to the SQLite database."""
    from referee.verdict_signing import ring_path

    if args.keys:
        return Path(args.keys)
    url = args.database or os.environ.get("DATABASE_URL") or f"sqlite:///{Path.cwd() / 'referee.db'}"
    return ring_path(url)


def keys_rotate(args) -> int:
    from referee.verdict_signing import RingError, rotate

    path = _ring(args)
    if path is None:
        print("referee signing-keys: no key ring: a database other than SQLite keeps none beside it; name one "
              "with --keys FILE (and REFEREE_SIGNING_KEYS=FILE on the servers)", file=sys.stderr)
        return 2
    try:
        fresh, old = rotate(path, compromised=args.compromised)
    except RingError as exc:
        print(f"referee signing-keys rotate: {exc}", file=sys.stderr)
        return 2
    print(f"new signing key {fresh.id} (current), in {path}")
    if old is not None:
        if old.revoked:
            print(f"key {old.id} revoked on {old.retired_at}: nothing it signed checks any more")
        else:
            print(f"key {old.id} retired on {old.retired_at}: the verdicts it signed before then still verify")
    print("running servers sign with the new key from now on; GET /v1/keys lists every key")
    return 0


def keys_list(args) -> int:
    from referee.verdict_signing import RingError, read_keys

    path = _ring(args)
    if path is None or not path.is_file():
        print(f"referee signing-keys: no key ring{' at ' + str(path) if path else ''}", file=sys.stderr)
        return 2
    try:
        keys = read_keys(path.read_text(encoding="utf-8"), str(path))
    except RingError as exc:
        print(f"referee signing-keys list: {exc}", file=sys.stderr)
        return 2
    for k in reversed(keys):
        since = f", retired {k.retired_at}" if k.retired_at else ""
        print(f"{k.id}  {k.status:<8} made {k.created_at}{since}  public key {k.public_dict()['public_key']}")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("verify", help="check signed verdicts offline: 0 holds and the same, 1 judged differently, "
                                      "2 refused, 3 not judged again completely, 4 malformed input",
                       description="Check signed verdicts offline, without a server or a database: does the "
                                   "signature hold (by a key you trust), and does this engine, judging the record "
                                   "again, give the same verdict? FILE: a verdict (POST /v1/verdicts), a stored match "
                                   "or revision (record and verdict), a `referee export` file (every revision), a "
                                   "batch answer or `referee check --json` output. Exit status 0: every signature "
                                   "holds and every verdict is the same; 1: a verdict this engine judges "
                                   "differently; 2: a signature that does not hold, is missing or is by a key not "
                                   "trusted, a revision out of its place in its match's chain, or a file that holds "
                                   "no verdict; 3: a verdict not judged again completely (no record, or a claim past "
                                   "the search limit); 4: malformed input (not JSON, a member name twice in one "
                                   "object, nesting too deep, a provenance member of the wrong type, a --key that holds "
                                   "no key).")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--key", action="append", default=[], metavar="PUBLIC_KEY",
                   help="a key to trust: a saved GET /v1/keys answer (retired keys and their dates too), a key "
                        "ring file, a PEM public key, or the key itself (base64url); repeatable. Only the keys "
                        "given are trusted: without --key, none")
    p.add_argument("--record", action="append", default=[], metavar="RECORD",
                   help="the record(s) of bare verdicts, in order (a batch answer: by index)")
    p.add_argument("--brief", action="store_true",
                   help="print only what does not hold or differs, then the summary line (an export's many revisions)")
    p.set_defaults(run=verify)

    keys = sub.add_parser("signing-keys", help="the key ring that signs the verdicts (operators)")
    keysub = keys.add_subparsers(dest="signing_command", required=True)
    for name, run, text in (("rotate", keys_rotate, "make a new signing key; the current one is retired (its "
                                                    "verdicts still verify) or, with --compromised, revoked"),
                            ("list", keys_list, "the keys of the ring, the current one first")):
        p = keysub.add_parser(name, help=text)
        p.add_argument("--keys", metavar="FILE", help="the key ring file (default: $REFEREE_SIGNING_KEYS, or the "
                                                      "file next to the SQLite database, referee.db.signing-keys)")
        p.add_argument("--database", help="database URL whose key ring this is (default: $DATABASE_URL or ./referee.db)")
        if name == "rotate":
            p.add_argument("--compromised", action="store_true",
                           help="the old key may be known to others: revoke it, so that nothing it signed verifies")
        p.set_defaults(run=run)
