"""The director's commands: tournaments create and list, matches, standings, disputes, close.

Like database.py's, the store is imported inside each command (`referee check` stays free
of Flask, SQLAlchemy and marshmallow)."""
from __future__ import annotations

import argparse
import sys

from referee import jsontext

from .database import open_store, with_db

NOT_FOUND, REFUSED = 2, 1


def _option(text: str) -> tuple[str, object]:
    """`k=v`: the value as JSON when it is JSON (`target=7`, `x=true`), else the text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    try:
        return name, jsontext.loads(value)
    except jsontext.NotJSON:
        return name, value


def _operator_allows(args) -> str | None:
    """Why REFEREE_OPERATOR_KEY refuses this creation (None: it does not)."""
    from referee.store.errors import StoreError
    from referee.store.operator import require_operator

    try:
        require_operator(args.operator_key)
    except StoreError as exc:
        return f"{exc.detail} (--operator-key)"
    return None


def tournaments_create(args) -> int:
    from referee.engine import OptionError
    from referee.engine.options import effective

    options = dict(args.option or [])
    try:
        effective(args.preset, options)
    except (OptionError, KeyError, ValueError) as exc:
        print(f"referee tournaments create: {exc}", file=sys.stderr)
        return REFUSED
    refused = _operator_allows(args)
    if refused:
        print(f"referee tournaments create: {refused}", file=sys.stderr)
        return REFUSED
    store = open_store(args)
    try:
        t, key, read_key = store.create_tournament(args.name, args.preset, options, not args.private)
    finally:
        store.db.dispose()
    print(f"tournament {t.id} ({t.name}, {t.preset}, {'private' if args.private else 'public'})")
    print(f"write key {key}")
    print(f"read key {read_key}")
    print("the keys are shown only now: keep them")
    return 0


def tournaments_list(args) -> int:
    store = open_store(args)
    try:
        rows = store.tournament_listing(public_only=False, limit=10_000)
    finally:
        store.db.dispose()
    if args.json:
        for row in rows:
            sys.stdout.write(jsontext.dumps_line(row))
        return 0
    print(f"{'id':32}  {'name':24} {'preset':16} {'access':7} {'matches':>7}  last change")
    for r in rows:
        access = "public" if r["public"] else "private"
        print(f"{r['id']:32}  {r['name'][:24]:24} {r['preset']:16} {access:7} {r['matches']:>7}  {r['last_change']}")
    return 0


def _overview(args, command: str, **filters) -> dict | None:
    from referee.store.errors import StoreError

    store = open_store(args)
    try:
        return store.overview(args.tournament, None, trusted=True, **filters)
    except StoreError as exc:
        print(f"referee {command}: {exc.detail}", file=sys.stderr)
        return None
    finally:
        store.db.dispose()


def standings_text(rows: list[dict], tie_break: list[str]) -> list[str]:
    width = max([len(" & ".join(r["team"])) for r in rows] + [4])
    out = [f"{'rank':>4}  {'team':{width}} {'played':>6} {'won':>4} {'drawn':>5} {'lost':>4} "
           f"{'courts':>7} {'points':>7} {'deals':>5}  rules"]
    for r in rows:
        team = " & ".join(r["team"])
        out.append(f"{r['rank']:>4}  {team:{width}} {r['played']:>6} {r['won']:>4} {r['drawn']:>5} {r['lost']:>4} "
                   f"{r['courts_for']:>3}-{r['courts_against']:<3} {r['points_for']:>3}-{r['points_against']:<3} "
                   f"{r['deals']:>5}  {', '.join(r['rule'])}")
    out.append(f"ties broken by: {', '.join(k.replace('_', ' ') for k in tie_break)}; "
               "teams equal on all three share a rank")
    return out


def standings(args) -> int:
    from referee.store.errors import StoreError

    store = open_store(args)
    try:
        page = store.standings_sheet(args.tournament, None, trusted=True)
    except StoreError as exc:
        print(f"referee standings: {exc.detail}", file=sys.stderr)
        return NOT_FOUND
    finally:
        store.db.dispose()
    if args.json:
        sys.stdout.write(jsontext.dumps_line({"tournament": page["tournament"]["id"], "tie_break": page["tie_break"],
                                              "standings": page["standings"]}))
        return 0
    t = page["tournament"]
    print(f"Standings of {t['name']} ({t['preset']}), {page['finished']} finished match(es) of {page['matches']}")
    print("\n".join(standings_text(page["standings"], page["tie_break"])))
    return 0


def disputes(args) -> int:
    page = _overview(args, "disputes", status=args.status, code=args.code)
    if page is None:
        return NOT_FOUND
    if args.json:
        for d in page["disputes"]:
            sys.stdout.write(jsontext.dumps_line(d))
        return 0
    for d in page["disputes"]:
        who = f"seat {d['seat']}" + (f" ({d['player']})" if d["player"] else "") if d["seat"] is not None else "-"
        where = f"deal {d['deal'] + 1}" + (f" trick {d['trick']}" if d["trick"] is not None else "")
        flag = (f"claimed {d['claim']['claimed']}, awarded {d['claim']['awarded']}" if d.get("claim") else
                "decides the deal" if d["penalty"] else "corrected" if d["corrected"] else "pending" if d["pending"] else "")
        print(f"{d['external_id'] or d['match']}  {where}  {who}  {d['code']}  {flag}  {d['moment']}".replace("    ", "  "))
    print(f"{len(page['disputes'])} dispute(s)")
    return 0


def correct(args) -> int:
    """A correction of a data-entry mistake, as PUT /v1/matches/{id}/record: the whole record,
    with its reason, stored as a new revision (every earlier one stays readable)."""
    from referee.engine.settlement import Stopped
    from referee.inputs import read_items, record_of
    from referee.judge import read
    from referee.record_shape import RecordProblems
    from referee.store.errors import StoreError

    items = list(read_items([args.record]))
    data = record_of(items[0].data) if len(items) == 1 and not isinstance(items[0].data, Exception) else None
    if data is None:
        why = items[0].data if len(items) == 1 and isinstance(items[0].data, Exception) else "not one record"
        print(f"referee correct: {args.record}: {why}", file=sys.stderr)
        return REFUSED
    try:
        record = read(data, "", stored=True)
    except RecordProblems as exc:
        for p in exc.problems:
            print(f"referee correct: {args.record}: {p['pointer']}: {p['detail']}", file=sys.stderr)
        return REFUSED
    store = open_store(args)
    try:
        targets = _targets(args, store)
        if isinstance(targets, str) or len(targets) != 1:
            print(f"referee correct: {targets if isinstance(targets, str) else 'name one match'}", file=sys.stderr)
            return NOT_FOUND
        (mid, label), = targets
        view = store.revise(mid, None, None, record, args.reason, trusted=True)
    except StoreError as exc:
        print(f"referee correct: {exc.detail}", file=sys.stderr)
        return NOT_FOUND if exc.status == 404 else REFUSED
    except Stopped as exc:  # perfect play for the corrected record went past the budget: nothing stored
        print(f"referee correct: not corrected: {exc.message}", file=sys.stderr)
        return REFUSED
    finally:
        store.db.dispose()
    print(f"match {label} corrected: revision {view.match.revision} ({args.reason}); "
          f"{_score(view.revision.verdict['match'])}")
    return 0


SEATS = [f"seat {s}" for s in range(4)]


def _score(m: dict) -> str:
    """A match's standing as the commands print it."""
    return f"courts {m['courts'][0]}-{m['courts'][1]}, points {m['points'][0]}-{m['points'][1]}"


def matches(args) -> int:
    from referee.store.views import where_in_words

    page = _overview(args, "matches", status=args.status)
    if page is None:
        return NOT_FOUND
    rows = [m for m in page["matches"] if args.status is None or m["status"] == args.status]
    if args.json:
        for m in rows:
            sys.stdout.write(jsontext.dumps_line(m))
        return 0
    t = page["tournament"]
    print(f"Matches of {t['name']} ({t['preset']}): {len(rows)}")
    print(f"{'id':32}  {'external id':14} {'status':11} {'courts':>6} {'points':>6} {'rev':>4}  where play is")
    for m in rows:
        score = m["match"]
        print(f"{m['id']:32}  {(m['external_id'] or '-')[:14]:14} {m['status']:11} "
              f"{score['courts'][0]:>2}-{score['courts'][1]:<3} {score['points'][0]:>2}-{score['points'][1]:<3} "
              f"{m['revision']:>4}  {where_in_words(m['at'], SEATS) or 'over'}")
    return 0


def _targets(args, store) -> list[tuple[str, str]] | str:
    """The matches a close names, as (id, label): ids or external ids (with --tournament), or
    every match still in play of the tournament (--in-play); a text saying why not."""
    from referee.store.errors import StoreError

    if not args.tournament:
        if args.in_play:
            return "--in-play needs --tournament"
        return [(mid, mid) for mid in args.match]
    try:
        rows = store.overview(args.tournament, None, trusted=True)["matches"]
    except StoreError as exc:
        return exc.detail
    if args.in_play:
        return [(m["id"], m["external_id"] or m["id"]) for m in rows if m["status"] == "in_progress"]
    by_name = {m["external_id"]: m for m in rows if m["external_id"]} | {m["id"]: m for m in rows}
    missing = [name for name in args.match if name not in by_name]
    if missing:
        return f"no match {', '.join(missing)} in tournament {args.tournament}"
    return [(by_name[name]["id"], name) for name in args.match]


def _close_one(store, mid: str, label: str) -> tuple[int, str]:
    from referee.engine.settlement import Stopped
    from referee.store.errors import StoreError

    try:
        view = store.close(mid, None, None, trusted=True)
    except StoreError as exc:
        return (NOT_FOUND if exc.status == 404 else REFUSED), f"{label}: {exc.detail}"
    except Stopped as exc:  # perfect play at the bell went past the command's budget: nothing stored
        return REFUSED, f"{label}: not closed: {exc.message}"
    m = view.revision.verdict["match"]
    winner = f"won by team {m['winner']}" if m["winner"] is not None else "a draw"
    return 0, f"match {label} closed: {_score(m)}; {winner}"


def close(args) -> int:
    if not args.match and not args.in_play:
        print("referee close: name the matches (MID... or, with --tournament, their external ids), or --in-play",
              file=sys.stderr)
        return REFUSED
    store = open_store(args)
    try:
        targets = _targets(args, store)
        if isinstance(targets, str):
            print(f"referee close: {targets}", file=sys.stderr)
            return NOT_FOUND
        if not targets:
            print("referee close: no match is in play: nothing to close")
            return 0
        if len(targets) > 1 and not args.yes and not _confirmed(targets):
            print("referee close: nothing closed", file=sys.stderr)
            return REFUSED
        worst = 0
        for mid, label in targets:
            status, text = _close_one(store, mid, label)
            print(text, file=sys.stderr if status else sys.stdout)
            worst = max(worst, status)
        return worst
    finally:
        store.db.dispose()


def _confirmed(targets: list[tuple[str, str]]) -> bool:
    """A bell for many tables is said back before it rings: the list, then y to go on."""
    print(f"referee close: {len(targets)} matches will be closed: {', '.join(label for _, label in targets)}")
    if not sys.stdin.isatty():
        print("referee close: not asked on a terminal; add --yes to close them", file=sys.stderr)
        return False
    return input("close them all? [y/N] ").strip().lower() in ("y", "yes")


def add_commands(sub) -> None:
    t = sub.add_parser("tournaments", help="create and list tournaments")
    tsub = t.add_subparsers(dest="tournaments_command", required=True)
    p = with_db(tsub.add_parser("create", help="a new tournament; prints its id and both keys, once"))
    p.add_argument("name")
    p.add_argument("--preset", required=True, help="e.g. court-piece (GET /v1/presets lists them)")
    p.add_argument("--option", action="append", type=_option, metavar="NAME=VALUE",
                   help="an option over the preset's (repeatable), e.g. --option target=7")
    p.add_argument("--private", action="store_true", help="readable only with its keys")
    p.add_argument("--operator-key", help="the deployment's REFEREE_OPERATOR_KEY, when it sets one")
    p.set_defaults(run=tournaments_create)
    p = with_db(tsub.add_parser("list", help="every tournament, newest first, private ones included"))
    p.add_argument("--json", action="store_true", help="JSON Lines, one tournament a line")
    p.set_defaults(run=tournaments_list)

    p = with_db(sub.add_parser("standings", help="a tournament's standings, as its page shows them"))
    p.add_argument("tournament", metavar="TID")
    p.add_argument("--json", action="store_true", help="one JSON line: the tie-break and the standings' rows")
    p.set_defaults(run=standings)

    p = with_db(sub.add_parser("disputes", help="every violation and disputed claim of every match of a tournament, newest first"))
    p.add_argument("tournament", metavar="TID")
    p.add_argument("--status", choices=["in_progress", "finished"], help="only matches with this status")
    p.add_argument("--code", help="only this violation code (e.g. revoke), or claim for the disputed claims")
    p.add_argument("--json", action="store_true", help="JSON Lines, one dispute a line")
    p.set_defaults(run=disputes)

    p = with_db(sub.add_parser("correct", help="correct a match's record (a data-entry mistake), with its reason: "
                                               "a new revision, as PUT /v1/matches/{id}/record"))
    p.add_argument("match", nargs=1, metavar="MATCH", help="the match's id, or with --tournament its external id")
    p.add_argument("record", metavar="RECORD", help="the whole corrected record (a JSON file)")
    p.add_argument("--reason", required=True, help="why, as the audit trail and the pages will say it")
    p.add_argument("--tournament", metavar="TID", help="the tournament the match is in (for an external id)")
    p.set_defaults(run=correct, in_play=False)

    p = with_db(sub.add_parser("matches", help="a tournament's matches: ids, external ids, scores and where play is"))
    p.add_argument("tournament", metavar="TID")
    p.add_argument("--status", choices=["in_progress", "finished"], help="only matches with this status")
    p.add_argument("--json", action="store_true", help="JSON Lines, one match a line (GET /v1/matches' items)")
    p.set_defaults(run=matches)

    p = with_db(sub.add_parser("close", help="end sessions (matches played by time) at the bell: each counts in the "
                                             "standings; a deal in play is settled as the rules say (R-32)"))
    p.add_argument("match", nargs="*", metavar="MATCH",
                   help="match ids, or with --tournament their external ids too (e.g. table-1)")
    p.add_argument("--tournament", metavar="TID", help="the tournament the named matches are in")
    p.add_argument("--in-play", action="store_true", help="with --tournament: every match of it still in play")
    p.add_argument("--yes", action="store_true", help="close several without asking (the list is printed first)")
    p.set_defaults(run=close)
