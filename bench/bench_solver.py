"""The solver against DDS (the bridge double-dummy solver, through endplay), side by side.

    python bench/bench_solver.py --quick        # a few minutes: 5-7 tricks left and a few full deals
    python bench/bench_solver.py --full         # hundreds of positions, 1 to 13 tricks left, and
                                                # the exhaustive engine cross-check at full size
    python bench/bench_solver.py [--per 10] [--left 1-13] [--seed 1] [--limit 30000000]
                                      [--score-limit 2000000 | --no-score]

For each number of tricks left, the same random seven-courts positions (called trump:
bridge play with a trump; 0 to 3 cards already in the current trick) are solved by both,
one position after the other (DDS, then the solver, then the next position), so that the
load of a shared machine falls on both alike: the `tricks` value of every legal card of the
seat to play (DDS: solve_board). Printed per number of tricks left: the median and p95 time
of each, the ratio (the solver's over DDS's, position by position: median and p95), the
solver's nodes per position, every card's value checked against DDS's (the full-size DDS
cross-check), and the `score` objective (§13's outcome order, what claims and the analysis
use) on the same positions against `tricks`.

Solver time only: `solve(deal, objective, line=False)` (DDS gives no line) minus the same
position's set-up measured apart (copying the Deal, its end, the search context and the
legal moves: what a request pays before the search); building the endplay board is left
out of DDS's time. Times are CPU time of this process (time.process_time), both in-process
(endplay calls the C++ library). Figures only: no assertion on time.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from endplay.dds import solve_board  # noqa: E402

from referee.engine.cards import team_of  # noqa: E402
from referee.solver import SearchLimit, SearchLimitExceeded, solve  # noqa: E402
from referee.solver.search import Context, moves  # noqa: E402
from tests.solver.dds import RANKS, to_endplay  # noqa: E402
from tests.solver.positions import random_position  # noqa: E402

QUICK = {"left": "5-7,12,13", "per": {5: 10, 6: 10, 7: 10, 12: 2, 13: 2}}
# full: hundreds of positions; fewer full deals (each takes the solver seconds)
FULL = {"left": "1-13", "per": {n: 30 if n <= 9 else 10 if n <= 11 else 6 for n in range(1, 14)}}


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def setup_time(deal) -> float:
    """What `solve` does before it searches, timed alone (the request's overhead)."""
    t = time.process_time()
    root = deal.copy()
    root.play_all = True
    root.finish()
    Context(root.options, "tricks", team_of(root.to_play), SearchLimit().start())
    moves(root)
    return time.process_time() - t


def timed_solve(deal, objective: str, limit: int):
    t = time.process_time()
    analysis = solve(deal, objective, SearchLimit(nodes=limit), line=False)
    return time.process_time() - t, analysis


def measure(left: int, per: int, rng: random.Random, limit: int, score_limit: int) -> dict:
    rows = {k: [] for k in ("ours", "dds", "ratio", "nodes", "score", "score_ratio", "score_nodes")}
    wrong = stopped = score_stopped = done = 0
    while done < per:
        deal = random_position("seven-courts", rng, left, done % 4)
        if deal is None:
            continue
        done += 1
        board = to_endplay(deal)
        t = time.process_time()
        solved = list(solve_board(board))
        td = time.process_time() - t
        try:
            ts, analysis = timed_solve(deal, "tricks", limit)
        except SearchLimitExceeded:
            stopped += 1
            continue
        ts = max(ts - setup_time(deal), 1e-6)
        expected = {RANKS[c.rank.value.bit_length() - 3] + "SHDC"[c.suit.value]: v for c, v in solved}
        wrong += {m.text: v for m, v in analysis.cards} != expected
        for key, v in (("ours", ts), ("dds", td), ("ratio", ts / td), ("nodes", analysis.nodes)):
            rows[key].append(v)
        if score_limit:
            try:
                tsc, scored = timed_solve(deal, "score", score_limit)
            except SearchLimitExceeded:
                score_stopped += 1
                continue
            rows["score"].append(tsc)
            rows["score_ratio"].append(tsc / ts)
            rows["score_nodes"].append(scored.nodes)
    return rows | {"wrong": wrong, "stopped": stopped, "score_stopped": score_stopped}


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def ranges(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


HEAD = (f"{'left':>4} {'n':>3} {'solver med':>11} {'p95':>9} {'DDS med':>9} {'p95':>8} {'ratio med':>9} "
        f"{'p95':>6} {'nodes med':>9} {'p95':>8} {'wrong':>5} {'stop':>4} | {'score med':>9} {'p95':>9} "
        f"{'vs tricks':>9} {'vs DDS':>7} {'nodes med':>9} {'stop':>4}")


def line(left: int, r: dict) -> str:
    if not r["ours"]:
        return f"{left:>4} all {r['stopped']} positions stopped at the node limit"
    med = statistics.median
    text = (f"{left:>4} {len(r['ours']):>3} {med(r['ours']) * 1e3:>9.1f}ms {p95(r['ours']) * 1e3:>7.1f}ms "
            f"{med(r['dds']) * 1e3:>7.2f}ms {p95(r['dds']) * 1e3:>6.2f}ms {med(r['ratio']):>8.1f}x "
            f"{p95(r['ratio']):>5.0f}x {med(r['nodes']):>9.0f} {p95(r['nodes']):>8.0f} {r['wrong']:>5} "
            f"{r['stopped']:>4}")
    if r["score"]:
        by_dds = med(r["score"]) / med(r["dds"])
        text += (f" | {med(r['score']) * 1e3:>7.1f}ms {p95(r['score']) * 1e3:>7.1f}ms "
                 f"{med(r['score_ratio']):>8.2f}x {by_dds:>6.1f}x {med(r['score_nodes']):>9.0f} "
                 f"{r['score_stopped']:>4}")
    return text


def exhaustive(examples: int, seed: int) -> None:
    """The engine-driven exhaustive minimax cross-check (tests/solver/test_against_minimax)
    at full size: `examples` random endgames per option group and objective, of 1 to 3
    tricks left (some of 4, three cards down), 1 to 2 where a face-down trump can be asked for."""
    from referee.engine import resolve
    from tests.solver.test_against_minimax import GROUPS, _same

    rng = random.Random(seed)
    checked = failed = 0
    t = time.process_time()
    for preset, overrides, reveal_rate in GROUPS:
        options = resolve(preset, overrides)
        hard = options.trump == "hidden" or options.band_reveal == "ask" and options.trump == "band"
        for objective in ("score", "tricks"):
            for _ in range(examples):
                sub = random.Random(rng.getrandbits(32))
                left, in_trick = sub.randint(1, 2 if hard else 3), sub.randrange(4)
                if not hard and left == 3 and in_trick == 3 and sub.random() < 0.5:
                    left = 4  # 4 tricks left, 3 cards down: 13 cards to play
                deal = random_position(preset, sub, left, in_trick, options, reveal_rate)
                if deal is None:
                    continue
                checked += 1
                try:
                    _same(deal, objective)
                except AssertionError as e:
                    failed += 1
                    print(f"  MISMATCH {preset} {overrides} {objective} left={left}: {e}", flush=True)
    print(f"exhaustive engine minimax: {checked} positions over {len(GROUPS)} option groups x 2 objectives, "
          f"{failed} mismatches, {time.process_time() - t:.0f} s", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="5-7 tricks left and full deals, few positions")
    mode.add_argument("--full", action="store_true", help="1-13 tricks left, hundreds of positions, "
                      "and the exhaustive engine cross-check at full size")
    parser.add_argument("--per", type=int, help="positions per number of tricks left")
    parser.add_argument("--left", help="tricks left: ranges and lists like 1-13 or 5-7,12,13")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=30_000_000, help="the solver's node limit per position")
    parser.add_argument("--score-limit", type=int, default=2_000_000,
                        help="the node limit per position of the score objective (past it: stop)")
    parser.add_argument("--no-score", action="store_true", help="leave out the score objective")
    parser.add_argument("--exhaustive", type=int, default=None,
                        help="positions per option group and objective for the engine cross-check")
    args = parser.parse_args(argv)
    plan = FULL if args.full else QUICK if args.quick else {"left": "1-13", "per": {}}
    lefts = ranges(args.left or plan["left"])
    rng = random.Random(args.seed)
    print(f"bench_solver: {load()} at the start", flush=True)
    print(HEAD, flush=True)
    for left in lefts:
        per = args.per or plan["per"].get(left, 10)
        print(line(left, measure(left, per, rng, args.limit, 0 if args.no_score else args.score_limit)), flush=True)
    print(f"bench_solver: {load()} at the end of the DDS comparison", flush=True)
    examples = args.exhaustive if args.exhaustive is not None else 60 if args.full else 0
    if examples:
        exhaustive(examples, args.seed)


if __name__ == "__main__":
    main()
