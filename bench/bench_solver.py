"""The one search against DDS (the bridge double-dummy solver, through endplay), side by side.

    python bench/bench_solver.py               # every part, a few minutes on a quiet machine
    python bench/bench_solver.py --full        # 100 full deals for the tail, more positions
    python bench/bench_solver.py --parts tricks,score,claims,analyse,python [--seed 1]

Each part solves the same random positions by both, one position after the other, so that the
load of a shared machine falls on both alike, and prints medians and ratios (ours over DDS's,
position by position). Times are CPU time of this process (endplay calls DDS's C++ library
in-process); building the endplay board is left out of DDS's time. Figures only.

- tricks: seven-courts positions (a called trump: bridge play), 0 to 3 cards in the current
  trick; the `tricks` value of every legal card (DDS: solve_board, solutions=3); every value
  checked against DDS's; positions past the node limit counted (`--limit`, the SearchLimit
  default).
- score: full deals of court-piece, double-sir and mendikot, objective `score` (§13's
  outcome) against DDS's `tricks` time on the same position (trump as called; no trump while
  a first-void game has none).
- claims: a disputed claim of a random number at random depths of seven-courts and
  court-piece deals, settled as a verdict settles it (referee.solver.claims.settle), against
  DDS's solve_board of the claim's position; claims past the claim's node limit counted.
- analyse: whole played seven-courts deals, `referee analyse --objective tricks`'s review
  (review_deal) against DDS's analyse_play of the same play, and the costly plays of both
  compared (a card is costly to DDS when the value for the mover's side falls).
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


def dds_time(deal) -> float:
    board = to_endplay(deal) if deal.trump.suit else _no_trump(deal)
    return cpu(lambda: solve_board(board))[0]


def _no_trump(deal):
    """The position for DDS with no trump (a first-void game before its first show-out)."""
    saved = deal.trump.suit
    deal.trump.suit = "S"
    board = to_endplay(deal)
    deal.trump.suit = saved
    board.trump = Denom.nt
    return board


def tricks_part(lefts, per, seed, limit) -> list[str]:
    out = ["tricks (seven-courts, called trump), every card's value, against DDS solve_board:",
           "  left  n   ours med   DDS med   ratio med  ratio p95  nodes med   wrong  past limit"]
    for left in lefts:
        rng = random.Random(seed * 100 + left)
        rows, wrong, past, done = [], 0, 0, 0
        while done < per[left]:
            deal = random_position("seven-courts", rng, left, done % 4)
            if deal is None:
                continue
            done += 1
            theirs = cpu(lambda: solve_board(to_endplay(deal)))
            try:
                ours = cpu(lambda: Solver("tricks").solve(deal, SearchLimit(nodes=limit), line=False))
            except SearchLimitExceeded:
                past += 1
                continue
            expected = {RANKS[c.rank.value.bit_length() - 3] + "SHDC"[c.suit.value]: v for c, v in theirs[1]}
            wrong += {m.text: v for m, v in ours[1].cards} != expected
            rows.append((ours[0], theirs[0], ours[1].nodes))
        ratios = [o / max(d, 1e-6) for o, d, _ in rows]
        out.append(f"  {left:>4} {done:>3} {median([r[0] for r in rows]):>9.4f}s {median([r[1] for r in rows]):>8.4f}s "
                   f"{median(ratios):>9.1f}x {p95(ratios):>9.1f}x {median([r[2] for r in rows]):>10.0f} {wrong:>7} {past:>11}")
    return out


def score_part(per, seed, limit) -> list[str]:
    out = ["score on full deals, against DDS's tricks time on the same position:",
           "  preset        n   ours med   DDS med   ratio med  ratio p95  nodes med   past limit"]
    for preset in ("court-piece", "double-sir", "mendikot"):
        rng = random.Random(seed)
        rows, past, done = [], 0, 0
        while done < per:
            deal = random_position(preset, rng, 13, 0)
            if deal is None:
                continue
            done += 1
            theirs = dds_time(deal)
            try:
                ours = cpu(lambda: Solver("score").solve(deal, SearchLimit(nodes=limit), line=False))
            except SearchLimitExceeded:
                past += 1
                continue
            rows.append((ours[0], theirs, ours[1].nodes))
        ratios = [o / max(d, 1e-6) for o, d, _ in rows]
        out.append(f"  {preset:<12} {done:>3} {median([r[0] for r in rows]):>9.3f}s {median([r[1] for r in rows]):>8.4f}s "
                   f"{median(ratios):>9.1f}x {p95(ratios):>9.1f}x {median([r[2] for r in rows]):>10.0f} {past:>11}")
    return out


def claims_part(lefts, per, seed, limit) -> list[str]:
    out = ["a disputed claim's settling, against DDS solve_board of the claim's position:",
           "  preset        left  n   ours med   DDS med   ratio med  ratio p95  unsettled"]
    for preset in ("seven-courts", "court-piece"):
        for left in lefts:
            rng = random.Random(seed * 100 + left)
            rows, unsettled, done = [], 0, 0
            while done < per:
                deal = random_position(preset, rng, left, 0)
                if deal is None:
                    continue
                done += 1
                theirs = cpu(lambda: solve_board(to_endplay(deal)))[0]
                seat = deal.to_play
                deal.push(ClaimEvent(seat, CLAIM, rng.randint(0, deal.remaining())))
                deal.push(ClaimEvent((seat + 1) % 4, DISPUTE))
                claims._cache.clear()
                try:
                    ours = cpu(lambda: claims.settle(deal, SearchLimit(nodes=limit)))[0]
                except Exception:  # noqa: BLE001 - claim_unsettled: past the claim's node limit
                    unsettled += 1
                    continue
                rows.append((ours, theirs))
            ratios = [o / max(d, 1e-6) for o, d in rows]
            out.append(f"  {preset:<12} {left:>4} {done:>3} {median([r[0] for r in rows]):>9.4f}s "
                       f"{median([r[1] for r in rows]):>8.4f}s {median(ratios):>9.1f}x {p95(ratios):>9.1f}x {unsettled:>10}")
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
           "  deals  ours med   DDS med   ratio med  ratio p95  costly plays equal"]
    rows, same = [], 0
    for k in range(n):
        record, start = played_deal(seed * 1000 + k)
        events = record["deals"][0]["events"]
        theirs, dds, analysed = dds_costly(start, events)
        ours, review = cpu(lambda: review_deal(Record.from_dict(record), 0, "tricks", lambda: SearchLimit(nodes=limit)))
        same += [c.event for c in review.costly if c.event < analysed] == dds and not review.unanalysed
        rows.append((ours, theirs))
    ratios = [o / max(d, 1e-6) for o, d in rows]
    out.append(f"  {n:>5} {median([r[0] for r in rows]):>8.3f}s {median([r[1] for r in rows]):>8.4f}s "
               f"{median(ratios):>9.1f}x {p95(ratios):>9.1f}x  {same} of {n}")
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
    p.add_argument("--full", action="store_true", help="100 full deals for the tail, more positions")
    p.add_argument("--parts", default="tricks,score,claims,analyse,python")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=int, default=20_000_000, help="node limit a position (default: SearchLimit's)")
    args = p.parse_args()
    parts = set(args.parts.split(","))
    per = {n: (30 if n <= 9 else 10) if args.full else (10 if n <= 9 else 5) for n in range(1, 14)}
    if args.full:
        per[13] = 100
    print(f"# the solver against DDS: core {loader.STATE}, load {os.getloadavg()[0]:.1f}, seed {args.seed}")
    lines = []
    if "tricks" in parts:
        lines += tricks_part([5, 6, 7, 9, 11, 12, 13], per, args.seed, args.limit)
    if "score" in parts:
        lines += score_part(20 if args.full else 6, args.seed, args.limit)
    if "claims" in parts:
        lines += claims_part([5, 8, 11, 13], 20 if args.full else 6, args.seed, args.limit)
    if "analyse" in parts:
        lines += analyse_part(20 if args.full else 5, args.seed, args.limit)
    if "python" in parts:
        lines += python_part(args.seed, args.limit)
    print("\n".join(lines))
    print(f"# load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
