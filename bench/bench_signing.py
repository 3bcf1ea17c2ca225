"""What signing costs a full deal's HTTP verdict: POST /v1/verdicts (one 13-trick deal with
hands) on servers of this tree side by side: one signing with a key ring, one without (its
verdicts carry the same provenance, unsigned), and one signing with a fixed signature instead
of calling Ed25519 (what signing costs apart from the signature itself), driven by wrk in
rounds, the order of the servers turning each round, so that the machine's load falls on all
alike; with --base PATH a server from another checkout (e.g. a worktree of the commit before
provenance) adds what the provenance costs.

    python bench/bench_signing.py [--rounds 5] [--seconds 8] [--base PATH]

Target: signing adds at most 5% (the signed rate at least 95% of the unsigned). Figures only:
no assertion, not part of the tests. Needs wrk (Debian: apt-get install wrk).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_replay import make_texts  # noqa: E402
from bench_users import SETTINGS, serve, wrk  # noqa: E402


NO_ED25519_APP = '''
"""wsgi:app signing with a fixed signature: all a signed verdict's work but the Ed25519 call."""
from referee import verdict_signing
from wsgi import app

verdict_signing.Key.sign = lambda self, data: verdict_signing.b64(bytes(64))
'''


def settings(root: Path) -> list[str]:
    """The production settings (referee/serving.py), or a checkout's own when it has none."""
    return SETTINGS["referee.serving"] if (root / "referee" / "serving.py").exists() else []


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--base", help="another checkout to serve as a third line (no provenance at all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        body = tmp / "deal.json"
        body.write_text(make_texts(1)[0])
        plain = {k: v for k, v in os.environ.items() if k != "REFEREE_SIGNING_KEYS"}
        (tmp / "no_ed25519_app.py").write_text(NO_ED25519_APP)
        memory = {**plain, "DATABASE_URL": "sqlite:///:memory:"}
        keys = {"REFEREE_SIGNING_KEYS": str(tmp / "keys")}
        servers = {"signed": ("wsgi:app", ROOT, 18941, {**memory, **keys}),
                   "unsigned": ("wsgi:app", ROOT, 18942, memory),
                   "no Ed25519": ("no_ed25519_app:app", ROOT, 18943, {**memory, **keys, "PYTHONPATH": f"{tmp}:{ROOT}"})}
        if args.base:
            servers["base"] = ("wsgi:app", Path(args.base), 18944, {**memory, "PYTHONPATH": str(Path(args.base))})
        procs = {name: serve(app, port, root, env, settings(root)) for name, (app, root, port, env) in servers.items()}
        try:
            rates: dict[str, list] = {name: [] for name in servers}
            print(f"uptime before: {os.getloadavg()}")
            names = list(servers)
            for name in names:  # warm up
                wrk(f"http://127.0.0.1:{servers[name][2]}/v1/verdicts", body, 2, procs[name])
            for k in range(args.rounds):
                for name in names[k % len(names):] + names[:k % len(names)]:
                    rates[name].append(wrk(f"http://127.0.0.1:{servers[name][2]}/v1/verdicts", body, args.seconds,
                                           procs[name]))
            print(f"uptime after:  {os.getloadavg()}")
        finally:
            for p in procs.values():
                p.terminate()
                p.wait()
    unsigned = statistics.median(r[0] for r in rates["unsigned"])
    unsigned_cpu = statistics.median(r[3] for r in rates["unsigned"])
    print(f"POST /v1/verdicts, one full deal, wrk 1 thread 8 connections, referee.serving's gunicorn settings (2 workers of 8 threads), "
          f"{args.rounds} rounds of {args.seconds} s each in turn, medians; CPU: the workers' user + system "
          "time per request")
    for name, runs in rates.items():
        rate, p50, p99, cpu = (statistics.median(r[k] for r in runs) for k in range(4))
        print(f"{name:<10} {rate:8.1f} req/s  p50 {p50:6.2f} ms  p99 {p99:7.2f} ms  {rate / unsigned:6.3f} of unsigned"
              f"   CPU {cpu:6.0f} us/request  {cpu / unsigned_cpu:6.3f} of unsigned"
              f"   (rates: {', '.join(f'{r[0]:.0f}' for r in runs)})")
    # each round's signed runs against the unsigned one of the same round, so that a change of
    # load between rounds falls on both
    q = lambda xs, unit, f: (f"median {statistics.median(xs):{f}}{unit}, middle half "  # noqa: E731
                             f"{xs[len(xs) // 4]:{f}}{unit} to {xs[-1 - len(xs) // 4]:{f}}{unit}")
    for name in ("signed", "no Ed25519"):
        rate_cost = sorted(100 * (1 - a[0] / b[0]) for a, b in zip(rates[name], rates["unsigned"]))
        cpu_cost = sorted(100 * (a[3] / b[3] - 1) for a, b in zip(rates[name], rates["unsigned"]))
        cpu_us = sorted(a[3] - b[3] for a, b in zip(rates[name], rates["unsigned"]))
        print(f"{name} costs, round by round: rate {q(rate_cost, '%', '.1f')}; CPU per request "
              f"{q(cpu_cost, '%', '.1f')} ({q(cpu_us, ' us', '.0f')}) (target for signing: at most 5%)")


if __name__ == "__main__":
    main()
