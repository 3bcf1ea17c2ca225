"""The one search against DDS (the bridge double-dummy solver, through endplay), side by side.

    python bench/bench_solver.py               # every part, a few minutes on a quiet machine
    python bench/bench_solver.py --full        # issue 42's targets, every one (an hour or more)
    python bench/bench_solver.py --full --sample 0.25   # the same shape, a quarter of each sample
    python bench/bench_solver.py --parts tricks,score,claims,analyse,python [--seed 1]

Each part solves the same random positions by both, one position after the other, so that the
load of a shared machine falls on both alike, and prints medians and ratios (ours over DDS's,
position by position). Times are CPU time of this process (endplay calls DDS's C++ library
in-process); building the endplay board is left out of DDS's time. Every search runs under the
API's default limit (2,000,000 nodes: an analysis's and a claim's; `--limit`), and each part
ends with issue 42's target for it, met or not. Figures only.

- tricks: seven-courts positions (a called trump: bridge play), 0 to 3 cards in the current
  trick; the `tricks` value of every legal card (DDS: solve_board, solutions=3); every value
  checked against DDS's; positions past the limit counted (refused: the API would answer
  past_limit). Target on full deals: median within 2x DDS, none refused.
- score: full deals of court-piece, double-sir, mendikot, hidden-rung, dehla-pakad,
  band-rang and hokm, objective `score` (R-38's outcome) against DDS's `tricks` time on the
  same position (trump as called, the face-down one as known; no trump while a first-void
  game has none). A position past the limit counts in the ratios with the time it took (a
  lower bound: the median is then marked >=). Target: none past the limit, median within 10x.
- claims: a disputed claim at every depth 1-13 of random seven-courts, court-piece,
  double-sir, mendikot, dehla-pakad and hidden-rung deals, settled as a verdict settles it
  (referee.solver.claims.settle), against DDS's solve_board of the claim's position; the
  claims cycle through a concession (0), all the tricks left, what DDS gives the claimers,
  and 3 below and 3 above it. Target: none unsettled, median within 10x.
- analyse: whole played seven-courts deals, `referee analyse --objective tricks`'s review
  (review_deal) against DDS's analyse_play of the same play, and the costly plays of both
  compared (a card is costly to DDS when the value for the mover's side falls). Target:
  median within 5x, every costly play equal.
- python: the same search run as Python (core.py's modules, not compiled) on a few of the
  tricks part's positions: the compiled core's speed-up, node for node.
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

from endplay.dds import analyse_play, solve_board  # noqa: E402
from endplay.types import Denom  # noqa: E402

from referee.budget import CLAIM_NODES  # noqa: E402 - the API's analysis limit is the same 2,000,000
from referee.engine import Deal, Record, resolve  # noqa: E402
from referee.engine.playrecord import CLAIM, DISPUTE, PLAY, ClaimEvent, Event, TrumpSpec  # noqa: E402
from referee.engine.simulate import deal_hands  # noqa: E402
from referee.solver import Solver, SearchLimit, SearchLimitExceeded, claims, loader  # noqa: E402
from referee.solver.review import review_deal  # noqa: E402
from tests.solver.dds import RANKS, to_endplay  # noqa: E402
from tests.solver.positions import random_position  # noqa: E402


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def p95(xs):
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))] if s else float("nan")


def cpu(run):
    t = time.process_time()
    out = run()
    return time.process_time() - t, out


def board(deal):
    """The position for DDS: the trump as called (the face-down one as known), no trump while
    a first-void game has none."""
    return to_endplay(deal) if deal.trump.suit else _no_trump(deal)


def dds_time(deal) -> float:
    b = board(deal)
    return cpu(lambda: solve_board(b))[0]


def _no_trump(deal):
    """The position for DDS with no trump (a first-void game before its first show-out)."""
    saved = deal.trump.suit
    deal.trump.suit = "S"
    b = to_endplay(deal)
    deal.trump.suit = saved
    b.trump = Denom.nt
    return b


def ratio_cells(rows, past: int) -> str:
    """The median and p95 of ours over DDS's, position by position; >= when positions past the
    limit (their time so far: a lower bound) are among them."""
    ratios = [o / max(d, 1e-6) for o, d, *_ in rows]
    mark = ">=" if past else "  "
    return f"{mark}{median(ratios):>7.1f}x {mark}{p95(ratios):>7.1f}x"


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def tricks_part(lefts, per, seed, limit) -> list[str]:
    out = ["tricks (seven-courts, called trump), every card's value, against DDS solve_board:",
           "  left  n   ours med   DDS med   ratio med  ratio p95  nodes med   wrong  refused"]
    full = None
    for left in lefts:
        rng = random.Random(seed * 100 + left)
        rows, wrong, past, done = [], 0, 0, 0
        while done < per[left]:
            deal = random_position("seven-courts", rng, left, done % 4 if left < 13 else 0)
            if deal is None:
                continue
            done += 1
            theirs = cpu(lambda: solve_board(to_endplay(deal)))
            try:
                ours = cpu(lambda: Solver("tricks").solve(deal, SearchLimit(nodes=limit, clock="cpu"), line=False))
            except SearchLimitExceeded as exc:
                past += 1
                rows.append((exc.seconds, theirs[0], exc.nodes))
                continue
            expected = {RANKS[c.rank.value.bit_length() - 3] + "SHDC"[c.suit.value]: v for c, v in theirs[1]}
            wrong += {m.text: v for m, v in ours[1].cards} != expected
            rows.append((ours[0], theirs[0], ours[1].nodes))
        out.append(f"  {left:>4} {done:>3} {median([r[0] for r in rows]):>9.4f}s {median([r[1] for r in rows]):>8.4f}s "
                   f"{ratio_cells(rows, past)} {median([r[2] for r in rows]):>10.0f} {wrong:>7} {past:>8}")
        if left == 13:
            full = (rows, past)
    if full is not None:
        rows, past = full
        ratio = median([o / max(d, 1e-6) for o, d, _ in rows])
        out.append(f"  target, full deals: median within 2x DDS ({ratio:.1f}x), none refused ({past}): "
                   f"{verdict(ratio <= 2 and past == 0)}")
    return out


SCORE_PRESETS = ("court-piece", "double-sir", "mendikot", "hidden-rung", "dehla-pakad", "band-rang", "hokm")


def score_part(per, seed, limit) -> list[str]:
    out = ["score on full deals, against DDS's tricks time on the same position (and our own tricks's):",
           "  preset        n   ours med   DDS med   ratio med  ratio p95  nodes med   past limit  target   "
           "vs our tricks"]
    for k, preset in enumerate(SCORE_PRESETS):
        rng = random.Random(seed * 1000 + k)  # deals of their own: DDS keeps its table for a deal asked again
        rows, past, tricks_past, done = [], 0, 0, 0
        while done < per:
            deal = random_position(preset, rng, 13, 0)
            if deal is None:
                continue
            done += 1
            theirs = dds_time(deal)
            ours = timed(lambda: Solver("score").solve(deal, SearchLimit(nodes=limit, clock="cpu"), line=False))
            past += ours[1] is None
            tricks = timed(lambda: Solver("tricks").solve(deal, SearchLimit(nodes=limit, clock="cpu"), line=False))
            tricks_past += tricks[1] is None
            rows.append((ours[0], theirs, ours[2], ours[0] / max(tricks[0], 1e-6)))
        ratio = median([o / max(d, 1e-6) for o, d, *_ in rows])
        out.append(f"  {preset:<12} {done:>3} {median([r[0] for r in rows]):>9.3f}s {median([r[1] for r in rows]):>8.4f}s "
                   f"{ratio_cells(rows, past)} {median([r[2] for r in rows]):>10.0f} {past:>11}  "
                   f"{verdict(past == 0 and ratio <= 10):<8} {median([r[3] for r in rows]):>6.2f}x"
                   + (f" ({tricks_past} of ours past the limit under tricks too)" if tricks_past else ""))
    out.append("  target: none past the limit, median within 10x DDS's tricks time (the long goal: within 3x of our "
               "own tricks)")
    return out


def timed(run) -> tuple:
    """(CPU seconds, the analysis or None when past the limit, nodes): a search past the limit
    counts with the time and nodes it took."""
    t = time.process_time()
    try:
        found = run()
    except SearchLimitExceeded as exc:
        return time.process_time() - t, None, exc.nodes
    return time.process_time() - t, found, found.nodes


CLAIM_PRESETS = ("seven-courts", "court-piece", "double-sir", "mendikot", "dehla-pakad", "hidden-rung")
CLAIM_KINDS = ("concession", "all", "DDS", "3 below", "3 above")


def claim_of(kind: str, left: int, dds: int) -> int:
    """The tricks claimed: a concession, all that are left, DDS's count, or 3 below or above it."""
    return {"concession": 0, "all": left, "DDS": dds, "3 below": max(0, dds - 3),
            "3 above": min(left, dds + 3)}[kind]


def claims_part(lefts, per, seed, limit) -> list[str]:
    out = ["a disputed claim's settling, against DDS solve_board of the claim's position",
           "(claims cycle: " + ", ".join(CLAIM_KINDS) + "):",
           "  preset        left  n   ours med   DDS med   ratio med  ratio p95  unsettled"]
    every, unsettled_all = [], []
    for k, preset in enumerate(CLAIM_PRESETS):
        for left in lefts:
            rng = random.Random(seed * 10000 + k * 100 + left)
            rows, unsettled, done = [], 0, 0
            while done < per:
                deal = random_position(preset, rng, left, 0)
                if deal is None:
                    continue
                theirs, values = cpu(lambda: solve_board(board(deal)))
                kind = CLAIM_KINDS[(done + left) % len(CLAIM_KINDS)]  # each kind at every depth in turn
                done += 1
                seat = deal.to_play
                claim = claim_of(kind, deal.remaining(), max(v for _, v in values))
                deal.push(ClaimEvent(seat, CLAIM, claim))
                deal.push(ClaimEvent((seat + 1) % 4, DISPUTE))
                claims._cache.clear()
                t = time.process_time()
                try:
                    claims.settle(deal, SearchLimit(nodes=limit, clock="cpu"))
                except Exception:  # noqa: BLE001 - claim_unsettled: past the claim's node limit
                    unsettled += 1
                    unsettled_all.append(f"{preset} {left} left, {kind} ({claim})")
                rows.append((time.process_time() - t, theirs))
            every += rows
            out.append(f"  {preset:<12} {left:>4} {done:>3} {median([r[0] for r in rows]):>9.4f}s "
                       f"{median([r[1] for r in rows]):>8.4f}s {ratio_cells(rows, unsettled)} {unsettled:>10}")
    ratio = median([o / max(d, 1e-6) for o, d in every])
    out.append(f"  target: none unsettled ({len(unsettled_all)} of {len(every)}), median within 10x DDS "
               f"({ratio:.1f}x over all): {verdict(not unsettled_all and ratio <= 10)}")
    out += [f"  unsettled: {u}" for u in unsettled_all]
    return out


def played_deal(seed: int):
    """A seven-courts deal played at random to its 13th trick (legal cards), as a record."""
    rng = random.Random(seed)
    hands = deal_hands(rng)
    deal = Deal(resolve("seven-courts"), 0, hands, TrumpSpec(suit="S"))
    events = []
    while len(events) < 52:
        deal.finish()
        card = rng.choice(deal.legal_plays())
        events.append({"seat": deal.to_play, "play": card.text})
        deal.push(Event(deal.to_play, PLAY, card))
    record = {"preset": "seven-courts", "deals": [
        {"dealer": 0, "trump": {"suit": "S"}, "hands": [[c.text for c in h] for h in hands], "events": events}]}
    return record, Deal(resolve("seven-courts"), 0, hands, TrumpSpec(suit="S"))


def dds_costly(start: Deal, events) -> tuple[float, list[int], int]:
    """DDS's analyse_play of the deal's play: the events after which the double-dummy
    tricks of the mover's side fell, and how many cards it analysed (endplay's analyse_play
    takes the first 48: the last trick has no choice)."""
    board = to_endplay(start)
    elapsed, solved = cpu(lambda: analyse_play(board, [e["play"][1] + e["play"][0] for e in events]))
    values = list(solved)  # the tricks of the side not on lead at the start (DDS's declarer's)
    declarers = 1 - (start.leader & 1)
    costly = [k for k in range(len(values) - 1)
              if (values[k + 1] < values[k]) == ((events[k]["seat"] & 1) == declarers) and values[k + 1] != values[k]]
    return elapsed, costly, len(values) - 1


def analyse_part(n, seed, limit) -> list[str]:
    out = ["referee analyse --objective tricks of whole played deals, against DDS analyse_play:",
           "  deals  ours med   DDS med   ratio med  ratio p95  costly plays equal  past the limit  different"]
    rows, same, past, differ = [], 0, 0, 0
    for k in range(n):
        record, start = played_deal(seed * 1000 + k)
        events = record["deals"][0]["events"]
        theirs, dds, analysed = dds_costly(start, events)
        ours, review = cpu(lambda: review_deal(Record.from_dict(record), 0, "tricks",
                                               lambda: SearchLimit(nodes=limit, clock="cpu")))
        found = [c.event for c in review.costly if c.event < analysed]
        same += found == dds and not review.unanalysed
        past += bool(review.unanalysed)  # a deal with a play past the limit: not analysed, so not equal
        differ += found != [j for j in dds if j not in review.unanalysed]  # among the plays analysed
        rows.append((ours, theirs))
    ratios = [o / max(d, 1e-6) for o, d in rows]
    out.append(f"  {n:>5} {median([r[0] for r in rows]):>8.3f}s {median([r[1] for r in rows]):>8.4f}s "
               f"{median(ratios):>9.1f}x {p95(ratios):>9.1f}x  {same:>8} of {n:<5} {past:>14} {differ:>10}")
    out.append(f"  target: median within 5x DDS, every costly play equal: {verdict(median(ratios) <= 5 and same == n)}")
    return out


def python_part(seed, limit) -> list[str]:
    out = ["the same search as Python (not compiled), node for node, on tricks positions:",
           "  left  n   compiled   python     speed-up  same answer"]
    python = loader.python_search()
    for left in (6, 9):
        rng = random.Random(seed * 100 + left)
        rows, same, done = [], 0, 0
        while done < 3:
            deal = random_position("seven-courts", rng, left, done % 4)
            if deal is None:
                continue
            done += 1
            a = cpu(lambda: Solver("tricks").solve(deal, SearchLimit(nodes=limit), line=False))
            b = cpu(lambda: Solver("tricks", python).solve(deal, SearchLimit(nodes=limit), line=False))
            same += a[1] == b[1]
            rows.append((a[0], b[0]))
        out.append(f"  {left:>4} {done:>3} {median([r[0] for r in rows]):>9.4f}s {median([r[1] for r in rows]):>8.3f}s "
                   f"{median([b / max(a, 1e-6) for a, b in rows]):>9.0f}x  {same} of {done}")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--full", action="store_true", help="issue 42's targets: every preset, depth and sample size")
    p.add_argument("--sample", type=float, default=1.0, help="each part's sample times this (the same shape, fewer)")
    p.add_argument("--parts", default="tricks,score,claims,analyse,python")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=int, default=CLAIM_NODES,
                   help="node limit a position (default: the API's, for an analysis and a claim alike)")
    args = p.parse_args()
    parts = set(args.parts.split(","))

    def n(full: int, quick: int) -> int:
        return max(1, round((full if args.full else quick) * args.sample))
    per = {left: n(30 if left <= 9 else 10, 10 if left <= 9 else 5) for left in range(1, 14)}
    per[13] = n(100, 5)
    print(f"# the solver against DDS: core {loader.STATE}, load {os.getloadavg()[0]:.1f}, seed {args.seed}, "
          f"limit {args.limit} nodes, {'--full' if args.full else 'quick'}, sample {args.sample:g}", flush=True)
    if loader.STATE != "compiled":
        print(f"# the core is {loader.STATE}: it runs as Python, some 10-90x slower (reinstall to compile it)")
    runs = [("tricks", lambda: tricks_part([5, 6, 7, 9, 11, 12, 13], per, args.seed, args.limit)),
            ("score", lambda: score_part(n(20, 6), args.seed, args.limit)),
            ("claims", lambda: claims_part(range(1, 14) if args.full else [5, 8, 11, 13], n(5, 2), args.seed,
                                           args.limit)),
            ("analyse", lambda: analyse_part(n(20, 5), args.seed, args.limit)),
            ("python", lambda: python_part(args.seed, args.limit))]
    for name, run in runs:
        if name in parts:
            started = time.monotonic()
            lines = run()
            print("\n".join(lines), flush=True)
            print(f"# {name}: {time.monotonic() - started:.0f} s wall, load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"# load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
