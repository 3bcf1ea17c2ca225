"""A whole deal's analysis: one pass on one Solver (what `referee analyse`, the whole-deal
API form and the page use) against each position asked alone on a fresh Solver (what the
page did before), on the same played deals, side by side.

    python bench/bench_analysis.py [--deals 10] [--objective tricks] [--max-nodes 2000000]

Each deal: seven-courts, random hands and random legal play to its end (13 tricks under
`tricks`). Prints CPU seconds per deal for the pass (the last position first, as shipped),
the same pass the first position first, and the positions alone, with the ratios, and the
positions past the limit in each. Figures only: no assertion, not part of the tests.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.engine import Record, resolve  # noqa: E402
from referee.engine.simulate import random_deal  # noqa: E402
from referee.solver import COMPILED, SearchLimit, SearchLimitExceeded  # noqa: E402
from referee.solver.review import DealAnalysis, PastLimit, PerPosition, analysis_at  # noqa: E402


def played(seed: int) -> Record:
    d = random_deal(resolve("seven-courts"), 0, random.Random(seed))
    return Record.from_dict({"preset": "seven-courts", "deals": [{
        "dealer": 0, "trump": {"suit": d.trump.suit}, "hands": [[c.text for c in h] for h in d.hands],
        "events": [{"seat": e.seat, "play": e.card.text} for e in d.events]}]})


def one_pass(record: Record, objective: str, nodes: int, forward: bool) -> tuple[float, int]:
    whole = DealAnalysis(record, 0, objective, PerPosition(lambda: SearchLimit(nodes)), line=False)
    if forward:
        whole.events.reverse()
    t = time.process_time()
    list(whole)
    return time.process_time() - t, len(whole.of(PastLimit))


def alone(record: Record, objective: str, nodes: int, events: list[int]) -> tuple[float, int]:
    t, past = time.process_time(), 0
    for n in events:
        try:
            analysis_at(record, 0, n, objective, SearchLimit(nodes), line=False)
        except SearchLimitExceeded:
            past += 1
    return time.process_time() - t, past


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--objective", default="tricks")
    p.add_argument("--max-nodes", type=int, default=2_000_000)
    args = p.parse_args()
    print(f"compiled core: {COMPILED}; objective {args.objective}; {args.max_nodes} nodes a position")
    print(f"{'deal':>4} {'pass s':>8} {'fwd s':>8} {'alone s':>8} {'alone/pass':>10} {'fwd/pass':>8}  past (pass/fwd/alone)")
    ratios, forward = [], []
    for seed in range(args.deals):
        record = played(seed)
        back, past_b = one_pass(record, args.objective, args.max_nodes, False)
        fwd, past_f = one_pass(record, args.objective, args.max_nodes, True)
        events = DealAnalysis(record, 0, args.objective).events
        each, past_a = alone(record, args.objective, args.max_nodes, events)
        ratios.append(each / back)
        forward.append(fwd / back)
        print(f"{seed:>4} {back:>8.2f} {fwd:>8.2f} {each:>8.2f} {each / back:>10.2f} {fwd / back:>8.2f}  "
              f"{past_b}/{past_f}/{past_a}")
    print(f"median alone/pass {statistics.median(ratios):.2f}, fwd/pass {statistics.median(forward):.2f}")


if __name__ == "__main__":
    main()
