"""Replay throughput: engine vs a bare baseline vs the Flask app.

    python bench/bench_replay.py [--deals 2000] [--seconds 3]

Prints deals per second for full 13-trick records with hands, from the JSON text
of a record to its verdict. Figures only: no assertion, not part of the tests.

"engine" is the service's own path: referee.jsontext (orjson) -> Record ->
judge() -> Verdict, the engine's value object. Two more engine lines show what
that leaves out: rendering the verdict to JSON-ready dicts (adjudicate(), what
the API then serialises), and reading the text with the standard library's
json.loads, as the baseline does.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from referee import jsontext
from referee.app import create_app
from referee.engine import Record, adjudicate, judge, resolve
from referee.engine.simulate import random_deal

RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def deal_json(d) -> dict:
    """A simulated deal as the record's JSON."""
    return {"dealer": d.dealer, "trump": {"suit": d.trump.suit}, "hands": [[str(c) for c in h] for h in d.hands],
            "events": [{"seat": e.seat, "play": str(e.card)} for e in d.events]}


def make_texts(n: int, seed: int = 7) -> list[str]:
    options = resolve("seven-courts")  # plays all 13 tricks
    rng = random.Random(seed)
    return [json.dumps({"preset": "seven-courts", "deals": [deal_json(random_deal(options, rng.randrange(4), rng))]})
            for _ in range(n)]


def engine(text: str):
    return judge(Record.from_dict(jsontext.loads(text)))


def engine_rendered(text: str) -> dict:
    return adjudicate(Record.from_dict(jsontext.loads(text)))


def engine_stdlib_json(text: str):
    return judge(Record.from_dict(json.loads(text)))


def baseline(text: str) -> int:
    """json.loads, card held, follow suit, trick winner: nothing else."""
    return baseline_deal(json.loads(text)["deals"][0])


def baseline_deal(d: dict) -> int:
    """The baseline's work on one parsed deal."""
    trump = d["trump"]["suit"]
    hands = [set(h) for h in d["hands"]]
    trick, won = [], [0, 0]
    for e in d["events"]:
        seat, card = e["seat"], e["play"]
        hand = hands[seat]
        if card not in hand:
            raise ValueError("card not held")
        if trick and card[1] != trick[0][1][1] and any(c[1] == trick[0][1][1] for c in hand):
            raise ValueError("revoke")
        hand.discard(card)
        trick.append((seat, card))
        if len(trick) == 4:
            led = trick[0][1][1]
            best = max(trick, key=lambda p: (p[1][1] == trump, p[1][1] == led, RANK[p[1][0]]))
            won[best[0] & 1] += 1
            trick = []
    return won[0]


def rate(fn, texts: list[str], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while True:
        for t in texts:
            fn(t)
        done += len(texts)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    texts = make_texts(args.deals)
    for t in texts[:50]:
        assert engine(t).valid and engine_rendered(t) == engine(t).as_dict()
    client = create_app().test_client()

    def http(text: str) -> None:
        r = client.post("/v1/verdicts", data=text, content_type="application/json")
        assert r.status_code == 200

    b = rate(baseline, texts, args.seconds)
    rows = [
        ("engine   (JSON text -> Verdict)", rate(engine, texts, args.seconds)),
        ("  + rendered to JSON-ready dicts", rate(engine_rendered, texts, args.seconds)),
        ("  read with json.loads instead", rate(engine_stdlib_json, texts, args.seconds)),
    ]
    h = rate(http, texts[:200], args.seconds)
    print(f"full 13-trick deals with hands, {args.deals} distinct records, one core")
    print(f"{'baseline (bare follow-suit)':34} {b:10,.0f} deals/s")
    for name, r in rows:
        print(f"{name:34} {r:10,.0f} deals/s  {r / b:5.0%} of baseline")
    print(f"{'Flask app (POST /v1/verdicts)':34} {h:10,.0f} verdicts/s")


if __name__ == "__main__":
    main()
