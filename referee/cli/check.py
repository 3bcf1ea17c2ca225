"""`referee check FILE...`: record files adjudicated offline, a summary for people or JSON Lines."""
from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from referee import gctune, jsontext
from referee.budget import Budget, Limits
from referee.engine import Options, Verdict
from referee.engine.settlement import Stopped
from referee.engine.cards import SUIT_SYMBOLS, face
from referee.inputs import Item, Progress, parsed, read_units, record_of
from referee.judge import judge, read, write
from referee.record_shape import RecordProblems

OK, VIOLATIONS, INVALID = 0, 1, 2


def _team(pair: list[int]) -> str:
    return f"{pair[0]}-{pair[1]}"


def _trump_text(trump: dict | None) -> str:
    if not trump:
        return "none"
    suit = SUIT_SYMBOLS.get(trump.get("suit"), "not yet set")
    text = f"{suit} ({trump['mode']}"
    if trump.get("card"):
        text += f", card {face(trump['card'])}"
    mode = Options.mode_named(trump["mode"])  # what the mode says, never its name
    if mode.concealed:
        rev = trump.get("revealed")
        text += f", shown in trick {rev['trick']} by seat {rev['seat']}" if rev else ", never shown"
    if mode.set_by_void and trump.get("set"):
        text += f", set in trick {trump['set']['trick']} by seat {trump['set']['seat']}"
    return text + ")"


def _trick_line(t: dict) -> str:
    cards = " ".join(
        f"{c['seat']}:{face(c['card']) if c['card'] else '??'}{'*' if c.get('trump') else ''}{'(down)' if c.get('face_down') else ''}"
        for c in t["cards"])
    line = f"  trick {t['number']:2}: {cards:<34} -> seat {t['winner']} wins with {face(t['winning_card'])}"
    if t.get("reveal"):
        line += f" [trump shown by seat {t['reveal']['seat']}]"
    if t["collected"] > 1:
        line += f"; team {t['collected_by']} collects {t['collected']} tricks"
    elif t["collected_by"] is not None:
        line += f"; team {t['collected_by']} takes it"
    else:
        line += f"; pile now {t['pile_after']}"
    return line + _rules(t.get("rule"))


def _plays(line: list[dict]) -> str:
    return " ".join(f"{p['seat']}:{face(p['card'])}" for p in line) or "none"


def _claim_lines(c: dict) -> list[str]:
    """R-33, R-34: the claim, its answer and how the referee settled it."""
    head = f"  claim: seat {c['seat']} claims {c['tricks']} of the remaining tricks (event {c['event'] + 1})"
    if c["answer"] is None:
        return [head + ", waiting for an answer"]
    if c.get("at_close"):
        head += ", unanswered when the session was closed: settled as disputed"
    else:
        head += f", {'accepted' if c['answer'] == 'accept' else 'disputed'} by seat {c['answered_by']}"
    if "awarded" not in c:
        return [head]
    held = "held" if c["held"] else "did not hold"
    out = [f"{head}: {held} (can take {c['can_take']}), awarded {c['awarded']}{_rules(c['rule'])}",
           f"  the referee's line: {_plays(c['line'])}"]
    if c["defence"] is not None:
        out.append(f"  the defence that beats it: {_plays(c['defence'])}")
    return out


def _at_close_lines(a: dict) -> list[str]:
    if a["perfect_play"]:
        return [f"  at the close, finished by perfect play: {_plays(a['line'])}{_rules(a['rule'])}"]
    what = "the claim could not be settled" if "R-34b" in a["rule"] else "not finished by perfect play"
    return [f"  at the close, {what}: {a['reason'].replace('_', ' ')}{_rules(a['rule'])}"]


def _rules(ids) -> str:
    """Rule ids as the summary prints them; each is in docs/rules.md and at /rules#<id>."""
    return f"  [rule {', '.join(ids)}]" if ids else ""


def _seat(seat: int, players: list | None) -> str:
    """`seat 1 (Bilal)` when the record names its players, else `seat 1`."""
    return f"seat {seat} ({players[seat]})" if players and 0 <= seat < len(players) else f"seat {seat}"


def summary(name: str, verdict: dict[str, Any], players: list | None = None) -> str:
    out = [f"{name}: {'valid' if verdict['valid'] else 'INVALID'} record, {len(verdict['deals'])} deal(s) (* = counted as a trump)"]
    if players:
        out.append("Players: " + ", ".join(_seat(s, players) for s in range(4)) + "; team 0 is seats 0 and 2")
    for e in verdict["errors"]:
        at = f" event {e['event'] + 1}" if e["event"] is not None else ""
        out.append(f"  error {e['code']} in deal {e['deal'] + 1}{at}: {e['message']}{_rules(e.get('rule'))}")
    for i, d in enumerate(verdict["deals"]):
        out.append(f"Deal {i + 1}: dealer {_seat(d['dealer'], players)}, caller {_seat(d['caller'], players)}, trump {_trump_text(d['trump'])}: {d['status']}")
        out.extend(_trick_line(t) for t in d["tricks"])
        if d.get("pile"):
            out.append(f"  left in the pile: {d['pile']}")
        out.append(f"  tricks taken: team 0 {d['tricks_won'][0]}, team 1 {d['tricks_won'][1]}")
        if d.get("claim"):
            out.extend(_claim_lines(d["claim"]))
        if d.get("at_close"):
            out.extend(_at_close_lines(d["at_close"]))
        for v in d["violations"]:
            where = f"trick {v['trick']}, event {v['event'] + 1}: " if v["trick"] is not None else ""
            flag = " (decides the deal)" if v["penalty"] else " (corrected)" if v["corrected"] else ""
            out.append(f"  violation {v['code']}{flag}: {where}{v['message']}{_rules(v.get('rule'))}")
        if d.get("ignored_events"):
            ev = d["ignored_events"]
            out.append(f"  ignored after the penalty: events {ev[0] + 1}-{ev[-1] + 1}{_rules(['R-11'])}")
        for u in d.get("unproven", []):
            out.append(f"  unproven: {u['message']}")
        r = d["result"]
        if r:
            extra = " (seventh deal in a row)" if r["streak_court"] else ""
            out.append(f"  result: team {r['winner']} {r['kind']}{extra}; courts {_team(r['courts'])}, "
                       f"points {_team(r['points'])}{_rules(r.get('rule'))}")
        if d["next_dealer"] is not None:
            out.append(f"  next dealer: {_seat(d['next_dealer'], players)}{_rules(d.get('next_dealer_rule'))}")
    m = verdict["match"]
    out.append(f"Match: courts {_team(m['courts'])}, points {_team(m['points'])}, deals in a row {_team(m['streak'])}"
               + (f", target {m['target']}" if m["target"] else "")
               + (f"; won by team {m['winner']}" if m["winner"] is not None else "")
               + ("; finished, a draw" if m["finished"] and m["winner"] is None else "")
               + _rules(m.get("rule")))
    n = verdict["next"]
    if n and n.get("claim"):
        c = n["claim"]
        out.append(f"Next: deal {n['deal'] + 1} waits for {' or '.join(_seat(s, players) for s in c['answer_from'])} "
                   f"to accept or dispute {_seat(c['seat'], players)}'s claim of {c['tricks']}{_rules(c['rule'])}")
    elif n and n["to_play"] is not None:
        legal = f", legal: {' '.join(map(face, n['legal']))}" if n.get("legal") else ""
        out.append(f"Next: deal {n['deal'] + 1} trick {n['trick']}, {_seat(n['to_play'], players)} to play{legal}")
    elif n and n["dealer"] is not None:
        calls = f", {_seat(n['caller'], players)} calls" if n["caller"] is not None else ""
        out.append(f"Next: deal {n['deal'] + 1}, {_seat(n['dealer'], players)} deals{calls}")
    return "\n".join(out)


def judge_item(item: Item) -> tuple[Verdict | None, str | None, Any]:
    """(verdict, None, the record as read), or (None, why it is not a record or was not judged,
    None); (None, None, None) for an item that holds no record (the settings line of a `referee
    export` file). Each record's perfect play has its own budget, on CPU time
    (REFEREE_PERFECT_PLAY_MAX_SECONDS)."""
    item = parsed(item)
    if isinstance(item.data, jsontext.NotJSON):
        return None, f"not JSON: {item.data}", None
    if isinstance(item.data, Exception):
        return None, str(item.data), None
    data = record_of(item.data)
    if data is None:
        return None, None, None
    try:
        record = read(data)
    except RecordProblems as exc:
        return None, "; ".join(f"{p['pointer']}: {p['detail']}" for p in exc.problems), None
    try:
        return judge(record, Budget(Limits.from_settings(), clock="cpu").settler()), None, data
    except Stopped as exc:
        return None, f"not judged: {exc.message}", None


def exit_status(verdict: Verdict) -> int:
    if not verdict.valid:
        return INVALID
    return VIOLATIONS if any(d.violations for d in verdict.deals) else OK


def report(item: Item, as_json: bool) -> tuple[bytes, str, int]:
    """What to print for one item: (stdout bytes, stderr text, exit status)."""
    verdict, problem, data = judge_item(item)
    if verdict is None and problem is None:
        return b"", "", OK
    if as_json:
        line = {"file": item.file, "line": item.line}
        line.update({"valid": verdict.valid, "verdict": orjson.Fragment(write(verdict, data))} if verdict else
                    {"error": problem})  # unsigned: no server's key judged it
        return jsontext.dumps_verdict(line) + b"\n", "", exit_status(verdict) if verdict else INVALID
    if verdict is None:
        return b"", f"{item.where}: {problem}\n", INVALID
    return (summary(item.where, verdict.as_dict(), data.get("players")) + "\n").encode(), "", exit_status(verdict)


def _report_json(item: Item) -> tuple[bytes, str, int]:
    return report(item, True)


def _report_text(item: Item) -> tuple[bytes, str, int]:
    return report(item, False)


def _report_chunk(args: tuple[bool, list[Item]]) -> tuple[bytes, str, int]:
    """A run of items judged in a worker process: one message back instead of one per item."""
    as_json, items = args
    out, err, status = [], [], OK
    for item in items:
        text, problem, code = report(item, as_json)
        out.append(text)
        err.append(problem)
        status = max(status, code)
    return b"".join(out), "".join(err), status


def check(args: argparse.Namespace) -> int:
    """Judge every record of the files, in input order; on -j N processes for archives."""
    gctune.for_big_verdicts()
    units = list(read_units(args.files))
    progress = Progress(len(units), least=500)
    sys.stdout.flush()
    out, err = sys.stdout.buffer, sys.stderr
    if args.jobs > 1 and len(units) > 1:
        import multiprocessing

        size = max(1, min(100, len(units) // (args.jobs * 8)))
        chunks = [(args.json, units[k:k + size]) for k in range(0, len(units), size)]
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            status = _write(pool.imap(_report_chunk, chunks), out, err, progress, size)
    else:
        status = _write(map(_report_json if args.json else _report_text, units), out, err, progress, 1)
    out.flush()
    progress.done()
    return status


def _write(results, out, err, progress: Progress, per_result: int) -> int:
    status = OK
    for n, (text, problem, code) in enumerate(results, 1):
        if text:
            out.write(text)
        if problem:
            err.write(problem)
        status = max(status, code)
        progress.show(min(n * per_result, progress.total))
    return status


def add_commands(sub) -> None:
    p = sub.add_parser("check", help="adjudicate record files: 0 clean, 1 violations, 2 invalid",
                       description="Judge records: a record, a list of records, or JSON Lines (one record per "
                                   "line, as `referee export` writes). Exit status 0: every record valid without "
                                   "violations; 1: violations; 2: an invalid record or an unreadable file.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: one object per record with its file, line and verdict (or error)")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="replay on N processes (for big archives); results stay in input order")
    p.set_defaults(run=check)
