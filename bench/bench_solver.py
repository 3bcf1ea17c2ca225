"""The solver against DDS (the bridge double-dummy solver, through endplay), side by side.

    python bench/bench_solver.py [--per 10] [--left 1-13] [--seed 1] [--limit 50000000]

For each number of tricks left, the same random seven-courts positions (called trump:
bridge play with a trump; 0 to 3 cards already in the current trick) are solved by both:
the `tricks` value of every legal card of the seat to play (DDS: solve_board). Prints the
median and p95 time of each, their ratio (the solver's over DDS's, position by position),
the solver's nodes per position, and checks that every card's value agrees (the full-size
DDS cross-check). Times are CPU time of this process (time.process_time), not wall
time, so that a shared, loaded machine changes them less; DDS runs in-process (endplay
calls the C++ library), so both are measured the same way. Solver time only: `solve`
on a Deal, values without the line (as DDS gives no line); building the endplay board is
left out of DDS's time. Figures only: no assertion on time.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from endplay.dds import solve_board  # noqa: E402

from referee.solver import SearchLimit, SearchLimitExceeded, solve  # noqa: E402
from tests.solver.dds import RANKS, to_endplay  # noqa: E402
from tests.solver.positions import random_position  # noqa: E402


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(left: int, per: int, rng: random.Random, limit: int):
    ours, theirs, ratios, nodes, wrong, stopped = [], [], [], [], 0, 0
    done = 0
    while done < per:
        deal = random_position("seven-courts", rng, left, done % 4)
        if deal is None:
            continue
        done += 1
        board = to_endplay(deal)
        t = time.process_time()
        solved = list(solve_board(board))
        td = time.process_time() - t
        t = time.process_time()
        try:
            analysis = solve(deal, "tricks", SearchLimit(nodes=limit), line=False)
        except SearchLimitExceeded:
            stopped += 1
            continue
        ts = time.process_time() - t
        expected = {RANKS[c.rank.value.bit_length() - 3] + "SHDC"[c.suit.value]: v for c, v in solved}
        wrong += {m.text: v for m, v in analysis.cards} != expected
        ours.append(ts)
        theirs.append(td)
        ratios.append(ts / td)
        nodes.append(analysis.nodes)
    return ours, theirs, ratios, nodes, wrong, stopped


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=10, help="positions per number of tricks left")
    parser.add_argument("--left", default="1-13", help="tricks left: a range like 1-13 or a list like 5,6,7")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=50_000_000, help="the solver's node limit per position")
    args = parser.parse_args(argv)
    if "-" in args.left:
        lo, hi = map(int, args.left.split("-"))
        lefts = range(lo, hi + 1)
    else:
        lefts = [int(x) for x in args.left.split(",")]
    rng = random.Random(args.seed)
    print(f"{'left':>4} {'n':>3} {'solver med':>11} {'p95':>9} {'DDS med':>9} {'p95':>9} "
          f"{'ratio med':>9} {'p95':>7} {'nodes med':>10} {'p95':>10} wrong stopped")
    for left in lefts:
        ours, theirs, ratios, nodes, wrong, stopped = measure(left, args.per, rng, args.limit)
        if not ours:
            print(f"{left:>4} all {stopped} positions stopped at the node limit")
            continue
        print(f"{left:>4} {len(ours):>3} {statistics.median(ours) * 1e3:>9.1f}ms {p95(ours) * 1e3:>7.1f}ms "
              f"{statistics.median(theirs) * 1e3:>7.2f}ms {p95(theirs) * 1e3:>7.2f}ms "
              f"{statistics.median(ratios):>8.0f}x {p95(ratios):>6.0f}x "
              f"{statistics.median(nodes):>10.0f} {p95(nodes):>10.0f} {wrong:>5} {stopped:>7}", flush=True)


if __name__ == "__main__":
    main()
