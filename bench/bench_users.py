"""What users feel, each line measured against a baseline in the same run (ratios only:
absolute figures on a shared 2-core machine are not comparable between runs).

    python bench/bench_users.py [--quick]

1. start-up: `referee check` on a one-deal file vs `python -c pass` (target: within 100 ms), with
   the package's bytecode and compiling its source at each start
2. `referee check --json` on one record of 2,000 deals (about 3 MB) vs the bare baseline on
   the same file (json.loads of it, then each deal), start-up subtracted (target: at least 60%);
   by wall time, then by CPU time (which a loaded machine's wait for a core leaves out), then
   the same work in one process, alternating with the baseline
3. the engine (JSON text -> Verdict, one-deal records) vs the bare baseline (target: 70%)
4. `referee check -j 2` vs `-j 1` on a 10,000-record JSON Lines archive (target: 1.6x)
5. POST /v1/verdicts (a full 13-trick deal) vs a bare Flask JSON echo, same gunicorn settings
   (its defaults, then referee.serving's), driven by wrk: rates and p50/p99 latency (target: 0.8)
6. POST /v1/verdicts/batch with 1,000 one-deal records vs the engine's own rate, JSON text to Verdict,
   alternating, by CPU time (target: 80%)
7. the page of a 2,000-deal record in headless Chromium: time to first paint and to the first
   deal's steps, against POST /v1/verdicts of the same record on the same server (as ratios)

Figures only: no assertion; not part of the tests. Needs wrk (Debian: apt-get install wrk)
and, for 7, chromium and chromium-driver with selenium.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_replay import baseline, baseline_deal, deal_json, engine, make_texts, rate  # noqa: E402

PY = sys.executable


def timed(cmd: list[str], runs: int, env: dict | None = None, cwd: Path | None = None) -> float:
    """The median wall time of a command, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_timed(cmd: list[str], runs: int, env: dict | None = None, cwd: Path | None = None) -> float:
    """The median CPU time (user and system) of a command, in seconds: on a loaded machine a
    command's wall time counts its wait for a core, its CPU time does not."""
    import resource

    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env, cwd=cwd)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times)


def one_record(deals: int, seed: int = 11) -> str:
    """One seven-courts record of `deals` full deals with hands, each dealt by the seat the
    rules name (a session with no target, so that it never ends)."""
    import random

    from referee.engine import Record, judge, resolve
    from referee.engine.simulate import random_deal

    options, rng = resolve("seven-courts"), random.Random(seed)
    out, dealer = [], 0
    for _ in range(deals):
        deal = deal_json(random_deal(options, dealer, rng))
        out.append(deal)
        dealer = judge(Record.from_dict({"preset": "seven-courts", "deals": [deal]})).deals[0].next_dealer
    return json.dumps({"preset": "seven-courts", "options": {"target": None}, "deals": out})


def package_copy(tmp: Path, kind: str) -> dict:
    """The environment that runs the package from its own copy under `tmp` (referee/ and the
    docs it reads, no __pycache__ of the tree's), from a folder of its own: `bytecode` compiled
    once, as pip leaves an install; `source` compiled at every start (PYTHONDONTWRITEBYTECODE=1)."""
    src = tmp / kind
    if not src.exists():
        shutil.copytree(ROOT / "referee", src / "referee", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(ROOT / "docs", src / "docs")
        if kind == "bytecode":
            subprocess.run([PY, "-m", "compileall", "-q", str(src)], check=True, stdout=subprocess.DEVNULL)
    return {**os.environ, "PYTHONPATH": str(src), "PYTHONDONTWRITEBYTECODE": "1"}


def startup(tmp: Path, runs: int) -> tuple[float, float, float]:
    """Seconds (medians, alternating): an empty Python; `referee check` of a one-deal file with
    the package's bytecode written (as pip leaves an install, or a first run a checkout); and
    compiling its source at every start (an editable install under PYTHONDONTWRITEBYTECODE=1,
    which writes no __pycache__). Each on a copy of the package (referee/ and the docs it
    reads), run from the temporary folder, so the tree's own __pycache__ counts for neither."""
    one = tmp / "one.json"
    one.write_text(make_texts(1)[0])
    env = {kind: package_copy(tmp, kind) for kind in ("bytecode", "source")}
    check = [PY, "-m", "referee.cli", "check", str(one)]
    times: dict[str, list[float]] = {"bare": [], "bytecode": [], "source": []}
    for _ in range(runs):
        times["bare"].append(timed([PY, "-c", "pass"], 1, cwd=tmp))
        times["bytecode"].append(timed(check, 1, env["bytecode"], tmp))
        times["source"].append(timed(check, 1, env["source"], tmp))
    return statistics.median(times["bare"]), statistics.median(times["bytecode"]), statistics.median(times["source"])


def check_file_cpu(tmp: Path, deals: int, runs: int) -> tuple[float, float]:
    """Deals per CPU second: `referee check --json` of the big file, the CPU time of its
    start-up on the one-deal file subtracted, vs the baseline's loop (process time)."""
    env = package_copy(tmp, "bytecode")
    check = [PY, "-m", "referee.cli", "check", "--json"]
    total = cpu_timed(check + [str(tmp / "big.json")], runs, env, tmp)
    start = cpu_timed(check + [str(tmp / "one.json")], runs, env, tmp)
    times = []
    for _ in range(runs):
        begin = time.process_time()
        for deal in json.loads((tmp / "big.json").read_text())["deals"]:
            baseline_deal(deal)
        times.append(time.process_time() - begin)
    return deals / max(total - start, 1e-9), deals / statistics.median(times)


def check_file(tmp: Path, deals: int, startup_s: float, runs: int) -> tuple[float, float]:
    """Deals per second: `referee check --json` on one record of `deals` deals (start-up
    subtracted: the same package copy with its bytecode that the start-up line ran, so that
    compiling the tree's source is not counted as checking) vs the baseline's loop over the
    same deals."""
    path = tmp / "big.json"
    path.write_text(one_record(deals))
    total = timed([PY, "-m", "referee.cli", "check", "--json", str(path)], runs, package_copy(tmp, "bytecode"), tmp)
    cli_rate = deals / max(total - startup_s, 1e-9)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for deal in json.loads(path.read_text())["deals"]:
            baseline_deal(deal)
        times.append(time.perf_counter() - start)
    return cli_rate, deals / statistics.median(times)


def check_in_process(tmp: Path, runs: int) -> tuple[float, float]:
    """Seconds: `check --json`'s own work on the big file (read, check, judge, write) and the
    baseline's, alternating in one process (medians)."""
    from referee import gctune
    from referee.cli.check import report
    from referee.inputs import read_units

    gctune.for_big_verdicts()  # as `referee check` does
    path = tmp / "big.json"
    cli, base = [], []
    for _ in range(runs):
        start = time.perf_counter()
        for item in read_units([str(path)]):
            report(item, True)
        cli.append(time.perf_counter() - start)
        start = time.perf_counter()
        for deal in json.loads(path.read_text())["deals"]:
            baseline_deal(deal)
        base.append(time.perf_counter() - start)
    return statistics.median(cli), statistics.median(base)


def engine_vs_baseline(seconds: float) -> tuple[float, float]:
    texts = make_texts(2000)
    return rate(engine, texts, seconds), rate(baseline, texts, seconds)


def parallel(tmp: Path, records: int, runs: int) -> tuple[float, float]:
    texts = make_texts(min(records, 2000))
    path = tmp / "archive.jsonl"
    path.write_text("\n".join(texts[i % len(texts)] for i in range(records)) + "\n")
    env = package_copy(tmp, "bytecode")
    one = timed([PY, "-m", "referee.cli", "check", "--json", str(path)], runs, env, tmp)
    two = timed([PY, "-m", "referee.cli", "check", "--json", "-j", "2", str(path)], runs, env, tmp)
    return one, two


ECHO_APP = '''
from flask import Flask, jsonify, request
app = Flask(__name__)

@app.post("/echo")
def echo():
    return jsonify(request.get_json())
'''

WRK_SCRIPT = '''
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = io.open("%s"):read("*a")
'''


# The two settings each pair of servers runs under, both from a folder without gunicorn.conf.py:
# gunicorn's defaults (sync workers, a connection per request) and the production settings
# (referee.serving, what `referee serve` and gunicorn.conf.py give: threads, keep-alive).
SETTINGS = {"sync": [], "referee.serving": ["-c", "python:referee.serving", "--access-logfile", "/dev/null"]}


def serve(app: str, port: int, workdir: Path, env: dict, settings: list[str]) -> subprocess.Popen:
    proc = subprocess.Popen([PY, "-m", "gunicorn", *settings, "--bind", f"127.0.0.1:{port}", "--workers", "2", app],
                            cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz" if "wsgi" in app else f"http://127.0.0.1:{port}/", timeout=1)
        except urllib.error.HTTPError:
            return proc
        except OSError:
            time.sleep(0.05)
            continue
        return proc
    raise RuntimeError(f"{app} did not start")


def workers_cpu(server: subprocess.Popen) -> float:
    """CPU seconds (user and system) the server's worker processes have used (Linux /proc)."""
    total = 0
    for pid in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split():
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def wrk(url: str, body: Path, seconds: int, server: subprocess.Popen) -> tuple[float, float, float, float]:
    """(requests/s, p50 ms, p99 ms) from wrk --latency, and the workers' CPU microseconds per
    request (what a loaded machine's share of the cores does not change)."""
    script = body.with_suffix(".lua")
    script.write_text(WRK_SCRIPT % body)
    before = workers_cpu(server)
    out = subprocess.run(["wrk", "-t", "1", "-c", "8", "-d", f"{seconds}s", "--latency", "-s", str(script), url],
                         capture_output=True, text=True, check=True).stdout
    cpu = workers_cpu(server) - before
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    count = int(re.search(r"(\d+) requests in", out).group(1))

    def pct(p: str) -> float:
        value, unit = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    return rate, pct("50"), pct("99"), cpu / max(count, 1) * 1e6


def http(tmp: Path, seconds: int, settings: list[str]) -> tuple[tuple, tuple]:
    from referee.store.db import upgrade

    (tmp / "echo_app.py").write_text(ECHO_APP)
    body = tmp / "deal.json"
    body.write_text(make_texts(1)[0])
    db = f"sqlite:///{tmp / 'bench.db'}"
    upgrade(db)
    env = {**os.environ, "DATABASE_URL": db, "PYTHONPATH": f"{ROOT}:{tmp}"}
    procs = [serve("wsgi:app", 18931, tmp, env, settings), serve("echo_app:app", 18932, tmp, env, settings)]
    try:
        referee = wrk("http://127.0.0.1:18931/v1/verdicts", body, seconds, procs[0])
        echo = wrk("http://127.0.0.1:18932/echo", body, seconds, procs[1])
    finally:
        for p in procs:
            p.terminate()
            p.wait()
    return referee, echo


def batch(records: int, runs: int) -> tuple[float, float]:
    """Verdicts per CPU second (process time, medians): the batch and the engine alternating,
    round after round, so that a loaded machine's changes fall on both alike."""
    from referee.app import create_app

    texts = make_texts(records)
    client = create_app({"DATABASE_URL": "sqlite://"}).test_client()
    payload = ("\n".join(texts) + "\n").encode()
    batch_s, engine_s = [], []
    for _ in range(runs):
        start = time.process_time()
        r = client.post("/v1/verdicts/batch", data=payload, content_type="application/x-ndjson")
        assert r.status_code == 200 and r.get_data().count(b"\n") == records
        batch_s.append(time.process_time() - start)
        start = time.process_time()
        for t in texts:
            engine(t)
        engine_s.append(time.process_time() - start)
    return records / statistics.median(batch_s), records / statistics.median(engine_s)


def page(tmp: Path, deals: int, runs: int) -> tuple[float, float, float] | None:
    """Seconds (medians): the verdict page of one `deals`-deal record pasted into /check, to its
    first paint and to its first deal's steps, and POST /v1/verdicts of the same record, one
    server (the app in a thread, the body limit raised to hold the record)."""
    import logging
    import threading

    from werkzeug.serving import make_server

    from referee.app import create_app
    from referee.store.db import upgrade
    sys.path.insert(0, str(ROOT))
    from tests.browser.conftest import browser_missing

    if browser_missing():
        print(f"page line skipped: {browser_missing()}")
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from tests.browser.conftest import CHROMIUM, DRIVER

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    db = f"sqlite:///{tmp / 'page.db'}"
    upgrade(db)
    app = create_app({"DATABASE_URL": db, "MAX_CONTENT_LENGTH": 64 << 20, "MAX_FORM_MEMORY_SIZE": 64 << 20})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    text = one_record(deals)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    paint, steps, api = [], [], []
    try:
        for _ in range(runs):
            start = time.perf_counter()
            request = urllib.request.Request(base + "/v1/verdicts", data=text.encode(), headers={"Content-Type": "application/json"})
            urllib.request.urlopen(request, timeout=600).read()
            api.append(time.perf_counter() - start)
            driver.get(base + "/")
            driver.execute_script("arguments[0].value = arguments[1];", driver.find_element(By.ID, "record"), text)
            driver.find_element(By.CSS_SELECTOR, "form.check button[type=submit]").click()
            deadline = time.monotonic() + 300
            while not driver.execute_script("return !!document.querySelector('#deal-0 .stepper .position')"
                                            " && performance.getEntriesByName('first-contentful-paint').length > 0"):
                if time.monotonic() > deadline:
                    raise RuntimeError("the page showed no steps within 300 s: " + driver.title)
                time.sleep(0.02)
            now, fcp = driver.execute_script(
                "return [performance.now(), performance.getEntriesByName('first-contentful-paint')[0].startTime]")
            steps.append(now / 1000)
            paint.append(fcp / 1000)
    finally:
        driver.quit()
        server.shutdown()
    return statistics.median(paint), statistics.median(steps), statistics.median(api)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller inputs, fewer runs")
    args = parser.parse_args()
    runs = 3 if args.quick else 7
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        bare, check, cold = startup(tmp, runs * 2)
        print(f"{'start-up: python -c pass':44} {bare * 1000:8.0f} ms")
        print(f"{'start-up: referee check (one deal)':44} {check * 1000:8.0f} ms   +{(check - bare) * 1000:.0f} ms "
              f"(target: within 100 ms, goal 50 ms)")
        print(f"{'  compiling its source at each start':44} {cold * 1000:8.0f} ms   +{(cold - bare) * 1000:.0f} ms "
              f"(no bytecode: PYTHONDONTWRITEBYTECODE=1, editable install)")
        cli_rate, base_rate = check_file(tmp, 500 if args.quick else 2000, check, runs)
        print(f"{'baseline on the same file':44} {base_rate:8,.0f} deals/s")
        print(f"{'referee check --json, one 2,000-deal record':44} {cli_rate:8,.0f} deals/s  "
              f"{cli_rate / base_rate:5.0%} of baseline (target 60%)")
        cpu_rate, cpu_base = check_file_cpu(tmp, 500 if args.quick else 2000, runs)
        print(f"{'  the same by CPU time':44} {cpu_rate:8,.0f} deals/s  "
              f"{cpu_rate / cpu_base:5.0%} of baseline {cpu_base:,.0f}/s (target 60%)")
        cli_s, base_s = check_in_process(tmp, runs)
        print(f"{'  the same in one process, alternating':44} {cli_s:8.2f} s vs {base_s:.2f} s  "
              f"{base_s / cli_s:5.0%} of baseline (target 60%)")
        e_rate, b_rate = engine_vs_baseline(1.0 if args.quick else 3.0)
        print(f"{'engine (JSON text -> Verdict), one-deal records':44} {e_rate:8,.0f} deals/s  "
              f"{e_rate / b_rate:5.0%} of baseline {b_rate:,.0f}/s (target 70%)")
        one, two = parallel(tmp, 2000 if args.quick else 10_000, max(1, runs // 2))
        print(f"{'referee check --json -j 1, JSON Lines':44} {one:8.2f} s")
        print(f"{'referee check --json -j 2':44} {two:8.2f} s    {one / two:4.2f}x (target 1.6x)")
        if shutil.which("wrk"):
            for name, settings in SETTINGS.items():
                (r_rate, r50, r99, r_cpu), (e_rate, e50, e99, e_cpu) = http(tmp, 3 if args.quick else 10, settings)
                print(f"{'bare Flask JSON echo, gunicorn ' + name:44} {e_rate:8,.0f} req/s  p50 {e50:.1f} ms  p99 {e99:.1f} ms"
                      f"  {e_cpu:5.0f} us CPU/request")
                print(f"{'POST /v1/verdicts, full deal (same)':44} {r_rate:8,.0f} req/s  p50 {r50:.1f} ms  p99 {r99:.1f} ms"
                      f"  {r_cpu:5.0f} us CPU/request  {r_rate / e_rate:4.2f} of the echo's rate, "
                      f"{e_cpu / r_cpu:4.2f} of its CPU (target 0.8)")
        else:
            print("wrk not found: HTTP line skipped (apt-get install wrk)")
        b_rate, e_rate = batch(1000, runs)
        print(f"{'engine, 1,000 one-deal records (CPU time)':44} {e_rate:8,.0f} verdicts/s")
        print(f"{'POST /v1/verdicts/batch, the same 1,000':44} {b_rate:8,.0f} verdicts/s  "
              f"{b_rate / e_rate:5.0%} of the engine (target 80%)")
        shown = page(tmp, 500 if args.quick else 2000, max(1, runs // 2))
        if shown:
            fcp, first, api = shown
            print(f"{'POST /v1/verdicts, the same 2,000-deal record':44} {api:8.2f} s")
            print(f"{'its page: first paint':44} {fcp:8.2f} s    {fcp / api:4.2f}x the API verdict")
            print(f"{'its page: the first deal steppable':44} {first:8.2f} s    {first / api:4.2f}x the API verdict")


if __name__ == "__main__":
    main()
