"""`referee analyse FILE...`: each deal with hands under perfect play (referee.solver): the
outcome from the first lead, what happened, and each costly play. Offline: the engine and the
solver only (no web layer, no store); the solver is imported when the command runs, not when
`referee` builds its commands (`referee check` starts without it). Time is CPU time."""
from __future__ import annotations

import argparse
import sys
from typing import Any, Iterator, NamedTuple

from referee import jsontext
from referee.budget import Budget, Limits
from referee.engine.settlement import Stopped
from referee.engine.cards import face
from referee.inputs import Progress, parsed, read_units, record_of
from referee.judge import judge, read
from referee.record_shape import RecordProblems, check_record

OK, INVALID = 0, 2
OBJECTIVES = ("score", "tricks")  # referee.solver.OBJECTIVES, without importing the solver (a test keeps them equal)


class Task(NamedTuple):
    """One deal of one item: what a worker process analyses."""

    where: str
    file: str
    line: int | None
    record: dict        # the cleaned record
    deal: int
    happened: dict      # the verdict's status, result and tricks for the deal
    objective: str
    nodes: int
    seconds: float
    first_line: bool = False  # search the first lead's line of perfect play (its result and tricks)


def tasks(args: argparse.Namespace, err) -> tuple[list[Task], int]:
    """Every deal of every record of the files; unreadable items are said on `err`."""
    out, status = [], OK
    for unit in read_units(args.files):
        item = parsed(unit)
        if isinstance(item.data, Exception):
            err.write(f"{item.where}: {item.data}\n")
            status = INVALID
            continue
        data = record_of(item.data)
        if data is None:
            continue
        try:
            clean = check_record(data)
        except RecordProblems as exc:
            err.write(f"{item.where}: " + "; ".join(f"{p['pointer']}: {p['detail']}" for p in exc.problems) + "\n")
            status = INVALID
            continue
        try:
            deals = judge(read(clean, checked=True), _settler()).as_dict()["deals"]
        except Stopped as exc:
            err.write(f"{item.where}: not judged: {exc.message}\n")
            status = INVALID
            continue
        out += [Task(item.where, item.file, item.line, clean, i, _happened(d), args.objective, args.max_nodes,
                     args.max_seconds, args.line) for i, d in enumerate(deals)]
    return out, status


def _settler():
    """Perfect play for the claims and bells on the way, within a command's budget (CPU time)."""
    return Budget(Limits.from_settings(), clock="cpu").settler()


def _happened(verdict: dict) -> dict:
    return {"status": verdict["status"], "result": verdict["result"], "tricks_won": verdict["tricks_won"]}


def positions(task: Task) -> int:
    """How many moves a task reviews (for the progress bar)."""
    from referee.solver.review import reviewed_moves

    deal = task.record["deals"][task.deal]
    return len(reviewed_moves(read(task.record, checked=True), task.deal, _settler())[0]) if deal.get("hands") else 0


def analyse_task(task: Task, progress=None) -> tuple[Task, dict]:
    record = read(task.record, checked=True)
    happened = task.happened
    if record.deals[task.deal].hands is None:
        return task, {"deal": task.deal, "objective": task.objective, "error": "no hands: not analysed",
                      "happened": happened}
    from referee.solver import limits
    from referee.solver.review import review_deal

    review = review_deal(record, task.deal, task.objective,
                         lambda: limits.SearchLimit(task.nodes, task.seconds, clock="cpu"), progress, _settler(),
                         task.first_line)
    return task, {**review.as_dict(), "happened": happened}


def _in_worker(task: Task) -> tuple[Task, dict]:
    return analyse_task(task)


def text(task: Task, found: dict) -> str:
    out = [f"{task.where}: deal {task.deal + 1} (objective {task.objective}: {MEANS[task.objective]})"]  # counted from 1
    if "error" in found:
        out.append(f"  {found['error']}")
    perfect = found.get("perfect_play")
    if "error" not in found:
        out.append("  perfect play from the first lead: " + (_perfect(task.objective, perfect) if perfect
                                                              else "past the search limit"))
    h = found["happened"]
    out.append(f"  what happened: {h['status']}, " + _outcome(h["result"], h["tricks_won"]))
    for c in found.get("costly", []):
        out.append(f"  costly: deal {task.deal + 1} trick {c['trick']}, seat {c['seat']} played {_face(c['card'])} "
                   f"(event {c['event'] + 1}): cost {c['cost']}{_best(c)}")
    if "costly" in found and not found["costly"]:
        out.append("  no costly play" + (" among the plays analysed" if found["unanalysed"] or found["stopped"] else ""))
    if found.get("unanalysed"):
        out.append(f"  past the search limit, not analysed: events {', '.join(str(j + 1) for j in found['unanalysed'])}")
    if found.get("stopped"):
        out.append(f"  analysis stopped at {found['stopped']}")
    return "\n".join(out)


# What a value and a cost count, said above them (the page says the same beside its cards).
MEANS = {"tricks": "tricks taken, every trick played, best play after",
         "score": "the deal's outcome: courts or points of the margin, then the deal won or lost"}


def _perfect(objective: str, perfect: dict) -> str:
    tricks = perfect["tricks_won"]
    if objective == "tricks":
        return f"tricks {tricks[0]}-{tricks[1]} (all 13 played)"
    if perfect["result"] is None:  # the value only: the line was not searched (--line)
        value = perfect["value"]
        return f"margin {value['margin']:+d}, deal {value['deal']} for team {perfect['team']}"
    return _outcome(perfect["result"], tricks) + " on the line played"


def _face(card: str) -> str:
    return card if card == "reveal" else face(card)


def _best(costly: dict) -> str:
    """What was best, as the page says it: up to four moves named, then how many others."""
    best = [_face(c) for c in costly.get("best_cards") or []]
    if len(best) > 4:
        best = best[:3] + [f"{len(best) - 3} other cards"]
    return f"; best was {', '.join(best[:-1])} or {best[-1]}" if len(best) > 1 else f"; best was {best[0]}" if best else ""


def _outcome(result: dict | None, tricks: list[int]) -> str:
    said = f"tricks {tricks[0]}-{tricks[1]}"
    if not result:
        return said
    return f"team {result['winner']} {result['kind']}, courts {result['courts'][0]}-{result['courts'][1]}, {said}"


def analyse(args: argparse.Namespace) -> int:
    out, err = sys.stdout, sys.stderr
    work, status = tasks(args, err)
    sizes = [positions(t) for t in work]
    progress = Progress(sum(sizes), "analysing ")
    done = 0
    for k, (task, found) in enumerate(_results(work, args.jobs, progress, sizes)):
        done += sizes[k]
        progress.show(done)
        if args.json:
            out.write(jsontext.dumps_line({"file": task.file, "line": task.line, **found}))
        else:
            out.write(text(task, found) + "\n")
        out.flush()
    progress.done()
    return status


def _results(work: list[Task], jobs: int, progress: Progress, sizes: list[int]) -> Iterator[tuple[Task, dict]]:
    """Each task's analysis, in input order; on `jobs` processes, one deal a task."""
    if jobs > 1 and len(work) > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(_in_worker, work)
        return
    done = 0
    for task, size in zip(work, sizes):
        yield analyse_task(task, lambda n, total, base=done: progress.show(base + n))
        done += size


def add_commands(sub: Any) -> None:
    p = sub.add_parser("analyse", help="perfect play and the costly plays of each deal with hands",
                       description="For each deal with hands: the outcome under perfect play from the first "
                                   "lead, what happened, and each play whose value was below the best at that "
                                   "moment, with what it cost. Each position is searched under a limit; one "
                                   "past it is listed as not analysed. Progress on stderr (on a terminal).")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="JSON Lines: one object per deal")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="analyse deals on N processes")
    p.add_argument("--objective", choices=OBJECTIVES, default="tricks",
                   help="tricks (tricks taken, all 13 played: the default, as the pages show) or score (the "
                        "deal's outcome: the margin of courts or points, then the deal won or lost)")
    p.add_argument("--line", action="store_true",
                   help="also search the first lead's line of perfect play, for the result and tricks at its "
                        "end (objective score; without it the first lead's value)")
    p.add_argument("--max-nodes", type=int, default=2_000_000, metavar="N",
                   help="search at most N nodes per position (default 2000000)")
    p.add_argument("--max-seconds", type=float, default=30.0, metavar="S",
                   help="search at most S seconds of CPU time per position (default 30; a loaded machine "
                        "does not shorten it)")
    p.set_defaults(run=analyse)
